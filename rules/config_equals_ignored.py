"""## config-equals-ignored (VL206)

What it does: finds `--config=FILE`.

Why is this bad? vLLM loads a config file only when `--config` and the path are
separate arguments (it looks for the exact string `--config`).  With
`--config=FILE` argparse accepts the option and nothing reads the file: every
setting in it is silently ignored.

Example:
    vllm serve Qwen/Qwen3-8B --config=/etc/vllm/serve.yaml

Use instead:
    vllm serve Qwen/Qwen3-8B --config /etc/vllm/serve.yaml

Fix safety: safe: the element becomes `--config` and the path, as two shell
words or two list items in the list's own style.

Versions: every release with a `--config` option (0.28 to 0.33 checked in
vllm/utils/argparse_utils.py: `if "--config" in args`).
"""

from linter.diagnostic import Finding, Fix, Severity
from linter.edits import split_element
from rules._lib.base import Rule, register

rule = register(Rule("VL206", "config-equals-ignored", "`--config=FILE` is silently ignored", Severity.ERROR, fixable=True))


@rule.check
def check(ctx):
    for item in ctx.parsed.config_equals:
        fix = None
        tok = item.token
        path = item.text[len("--config=") :]
        if tok is not None and item.start == 0 and item.end == len(tok.value) and path:
            edit = split_element(ctx.src, ctx.launch, tok, ("--config", path))
            if edit is not None:
                fix = Fix("Separate `--config` from the path", (edit,), "safe")
        yield Finding(
            ctx.item_span(item),
            "`--config=FILE` is ignored: vLLM only loads the file when `--config` and the path are separate arguments",
            fix=fix,
        )
