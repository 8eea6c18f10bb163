"""## renamed-option (VL102)

What it does: finds options that vLLM renamed, used under their old name on a
release that no longer accepts it.

Why is this bad? A rename without an alias makes the old name an unrecognized
argument: the server fails at startup.  For example 0.31 renamed
`--enable-mamba-fine-grained-prefix-cache` to
`--enable-mamba-shared-prefix-checkpoint` with no alias.

Example:
    vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --enable-mamba-fine-grained-prefix-cache

Use instead:
    vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --enable-mamba-shared-prefix-checkpoint

Fix safety: safe when the new name exists in the target release (the rename
keeps the value and the `--opt=value` / `--opt value` shape); no fix otherwise.

Versions: from the release that removed the old name; each rename is a row of
rules/data/migrations.yaml with its source in vLLM's code.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import lifecycle
from rules._lib.base import Rule, register

rule = register(Rule("VL102", "renamed-option", "Option renamed; the old name is rejected", Severity.ERROR, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        info = lifecycle.classify(ctx, opt)
        if info is None or info.status != "renamed":
            continue
        removed = info.fact.removed_in if info.fact is not None else None
        msg = f"`{opt.written}` was renamed to `{info.replacement}` in vLLM {removed}; {ctx.version} rejects the old name"
        fix = None
        if info.replacement_in_target:
            fix = ctx.rename_fix(opt, info.replacement, f"Rename to `{info.replacement}`", "safe")
        yield Finding(ctx.name_span(opt), msg, fix=fix)
