"""## option-not-yet-available (VL105)

What it does: finds options that the target release does not accept yet: they
appear in a later release (often the new name of a renamed option used with an
old pinned image).

Why is this bad? The server on the older release rejects the option and exits.

Example (pinned to 0.30):
    vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --enable-mamba-shared-prefix-checkpoint

Use instead (0.30): the name the older release knows, or move the pin forward
together with the flags:
    vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --enable-mamba-fine-grained-prefix-cache

Fix safety: none (the right change depends on which side should move).

Versions: every release.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import lifecycle
from rules._lib.base import Rule, register

rule = register(Rule("VL105", "option-not-yet-available", "Option only exists in a later release", Severity.ERROR))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        info = lifecycle.classify(ctx, opt)
        if info is None or info.status != "not-yet":
            continue
        yield Finding(
            ctx.name_span(opt),
            f"`{opt.written}` does not exist in vLLM {ctx.version}; it was added in {info.available_in}",
        )
