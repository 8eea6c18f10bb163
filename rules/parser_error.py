"""## parser-error (VL209)

What it does: reports what the target release's argument parser itself
rejects that no more specific rule explains: an option without its value, a
value given to a flag (`--enforce-eager=true`), a stray positional argument.

Why is this bad? argparse exits with a usage error before the server starts.

Example:
    vllm serve Qwen/Qwen3-8B --max-model-len --enforce-eager=true

Use instead:
    vllm serve Qwen/Qwen3-8B --max-model-len 8192 --enforce-eager

Fix safety: none.

Versions: every release.
"""

from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL209", "parser-error", "Argument the release's parser rejects", Severity.ERROR))

KINDS = {"missing-value", "unexpected-value", "extra-positional", "model-not-first"}


@rule.check
def check(ctx):
    for err in ctx.parsed.errors:
        if err.kind not in KINDS:
            continue
        yield Finding(ctx.item_span(err.item), f"{err.message} (vLLM {ctx.version} rejects it)")
