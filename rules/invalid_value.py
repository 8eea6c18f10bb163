"""## invalid-value (VL106)

What it does: finds values that the target release's parser rejects: a value
outside the option's choices, or text where the option's type is a number.

Why is this bad? argparse exits with "invalid choice" or "invalid int value"
before anything loads.  Choices change between releases: `--mamba-cache-mode all`
is accepted by 0.29 to 0.31 and rejected from 0.32.

Example (0.32; 0.33 checks `--kv-cache-dtype` only at start-up):
    vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp9

Use instead (0.32): one of the choices the message lists:
    vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8

Fix safety: no generic fix; value migrations with a known replacement are
reported, with their fix, by deprecated-value (VL107).

Versions: every release; choices come from each release's parser.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import facts
from rules._lib.base import Rule, register

rule = register(Rule("VL106", "invalid-value", "Value rejected by the target release's parser", Severity.ERROR))


@rule.check
def check(ctx):
    for err in ctx.parsed.errors:
        if err.kind not in ("invalid-choice", "invalid-type") or err.option is None:
            continue
        opt = err.option
        spec = opt.spec
        if err.kind == "invalid-choice" and spec is not None:
            if (spec.primary, err.item.text) in facts.SPECIFIC_VALUE_RULES or facts.value_fact(spec.primary, err.item.text) is not None:
                continue  # deprecated-value explains it, with the migration
            choices = ", ".join(str(c) for c in spec.choices or ())
            msg = f"`{err.item.text}` is not a valid choice for `{opt.written}` in vLLM {ctx.version} (choices: {choices})"
        else:
            msg = f"{err.message} (vLLM {ctx.version})"
        yield Finding(ctx.item_span(err.item), msg)
