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

Also finds values outside the sets vLLM checks when it builds its config rather
than in argparse (`rules/data/value_sets.json`, read from the wheels by
`python -m tools.extract_value_sets --all`): `--kv-cache-dtype` (the `CacheDType`
Literal; 0.33 dropped the argparse choices, so `fp9` parses and the server fails at
start-up with "Invalid kv_cache_dtype") and `--quantization` (`QuantizationMethods`:
"Unknown quantization method").  `--mm-processor-device` accepts the platform's
device type (`cuda` on CUDA and ROCm, `xpu` on XPU) besides `auto` and `cpu`.

Versions: every release; choices come from each release's parser, config-time
value sets from its source (vllm/config/cache.py, model_executor/layers/quantization).
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
            yield Finding(ctx.item_span(err.item), f"`{err.item.text}` is not a valid choice for `{opt.written}` in vLLM {ctx.version}: "
                          "pick one of its choices", notes=(f"choices: {choices}",))
            continue
        yield Finding(ctx.item_span(err.item), f"{err.message} (vLLM {ctx.version})")
    yield from config_time_values(ctx)


def config_time_values(ctx):
    """Values vLLM rejects while building its config (not argparse choices)."""
    sets = ctx.release.value_sets
    for opt in ctx.parsed.options:
        spec = opt.spec
        if spec is None or spec.choices is not None or not opt.values or opt.value_opaque:
            continue
        facts_ = sets.get(spec.primary)
        if not facts_ or not facts_.get("values"):
            continue
        value = opt.values[-1].text
        if value is None or value in facts_["values"] or (spec.raw.get("accepts_none") and value in ("", "None")):
            continue
        if spec.primary == "--quantization" and value == "None":
            continue
        where = facts_.get("checked-by") or facts_["source"]
        valid = ", ".join(facts_["values"])
        yield Finding(
            ctx.item_span(opt.values[-1]),
            f"`{value}` is not a valid value for `{opt.written}` in vLLM {ctx.version}: it parses, and the server "
            "fails at start-up; pick a valid one",
            notes=(f"checked when vLLM builds its config ({where})", f"valid: {valid}"),
        )
