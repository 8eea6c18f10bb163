"""## removed-option (VL101)

What it does: finds options that an earlier vLLM release accepted and the
target release no longer does.

Why is this bad? argparse rejects the option ("unrecognized arguments") and the
server exits before it loads the model; in Kubernetes the pod goes into
CrashLoopBackOff with the reason buried in its log.

Example:
    vllm serve meta-llama/Llama-3.1-8B-Instruct --swap-space 16 --use-v2-block-manager

Use instead: drop the option, or use its replacement when the release notes
name one (the message says which).

Fix safety: a replacement that exists in the target release is offered as an
unsafe fix (the replacement's semantics may differ); dropping an option is never
automatic.

Versions: every release; driven by the option inventories of 0.28.0 to 0.33.0
(rules/data/releases) and the history back to 0.6.0 (rules/data/history.json).
"""

from linter.diagnostic import Severity
from rules import lifecycle
from rules.base import Rule, register

rule = register(Rule("VL101", "removed-option", "Option removed in the target release", Severity.ERROR, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        info = lifecycle.classify(ctx, opt)
        if info is None or info.status != "removed":
            continue
        msg = f"`{opt.written}` was removed: last accepted by vLLM {info.last_accepted}, not by {ctx.version}"
        fix = None
        if info.replacement:
            msg += f"; use `{info.replacement}`"
            if info.replacement_in_target:
                fix = ctx.rename_fix(opt, info.replacement, f"Replace with `{info.replacement}`", "unsafe")
        yield ctx.diagnostic(ctx.name_span(opt), msg, fix=fix)
