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

Fix safety: safe in shell scripts (the `=` becomes a space between two words);
in YAML lists the element has to be split in two, left to the list-aware fixer.

Versions: every release with a `--config` option (0.28 to 0.33 checked in
vllm/utils/argparse_utils.py: `if "--config" in args`).
"""

from linter.diagnostic import Edit, Fix, Severity
from rules.base import Rule, register

rule = register(Rule("VL206", "config-equals-ignored", "`--config=FILE` is silently ignored", Severity.ERROR, fixable=True))

SHELL_KINDS = {"shell", "dockerfile", "markdown", "actions", "skypilot"}


@rule.check
def check(ctx):
    for item in ctx.parsed.config_equals:
        fix = None
        tok = item.token
        if (
            tok is not None
            and ctx.launch.kind in SHELL_KINDS
            and ctx.item_editable(item)
            and ctx.src.text[tok.span.start : tok.span.end] == tok.value
        ):
            eq = tok.value_start + item.start + len("--config")
            fix = Fix("Separate `--config` from the path", (Edit(type(tok.span)(eq, eq + 1), " "),), "safe")
        yield ctx.diagnostic(
            ctx.item_span(item),
            "`--config=FILE` is ignored: vLLM only loads the file when `--config` and the path are separate arguments",
            fix=fix,
        )
