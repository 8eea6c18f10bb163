"""## removed-option (VL101)

What it does: finds options that an earlier vLLM release accepted and the
target release no longer does.

Why is this bad? argparse rejects the option ("unrecognized arguments") and the
server exits before it loads the model; in Kubernetes the pod goes into
CrashLoopBackOff with the reason buried in its log.

Example:
    vllm serve meta-llama/Llama-3.1-8B-Instruct --swap-space 16 --use-v2-block-manager

Use instead: drop the option, or use its replacement when the release notes
name one (the message says which):
    vllm serve meta-llama/Llama-3.1-8B-Instruct

Fix safety: a curated replacement (rules/data/migrations.yaml) that exists in the
target release is offered with the fact's applicability (`--disable-log-requests`
becomes `--no-enable-log-requests`, safe: same meaning).  A replacement that only
a deprecation message named is shown, never applied: `--disable-log-requests`
pointed to `--enable-log-requests`, the opposite switch.  Dropping an option is
never automatic.

Versions: every release; driven by the option inventories of 0.28.0 to 0.33.0
(rules/data/releases) and the history back to 0.6.0 (rules/data/history.json).
"""

from linter.diagnostic import Finding, Severity
from rules._lib import lifecycle
from rules._lib.base import Rule, register

rule = register(Rule("VL101", "removed-option", "Option removed in the target release", Severity.ERROR, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        info = lifecycle.classify(ctx, opt)
        if info is None or info.status != "removed":
            continue
        msg = f"`{opt.written}` was removed: last accepted by vLLM {info.last_accepted}, not by {ctx.version}"
        fix = None
        curated = info.fact is not None and info.fact.replacement == info.replacement
        if info.replacement and curated:
            msg += f"; use `{info.replacement}`"
            if info.replacement_in_target and info.fact.fix == "rename":
                fix = ctx.rename_fix(opt, info.replacement, f"Replace with `{info.replacement}`", info.fact.applicability)
        elif info.replacement:
            # From a deprecation message: related, not necessarily the same meaning.
            msg += f"; vLLM pointed to `{info.replacement}` instead (check its meaning before switching)"
        yield Finding(ctx.name_span(opt), msg, fix=fix)
