"""## deprecated-option (VL103)

What it does: finds options that the target release still accepts but marks as
deprecated.

Why is this bad? Deprecated options are removed in a later release, and some
already do nothing: plan the change before the upgrade that breaks the launch.
vLLM's own deprecation messages sometimes name a removal release that did not
happen, so this rule trusts the inventories, not the messages.

Example (0.31):
    vllm serve Qwen/Qwen3-8B --log-config-file /etc/vllm/logging.json

Use instead: the replacement the message names, or remove the option:
    vllm serve Qwen/Qwen3-8B --logging-config.pylogging_config_file /etc/vllm/logging.json

Fix safety: a replacement named by the migration facts is offered as an
unsafe fix; otherwise no fix.

Versions: whatever each release's parser marks deprecated (rules/data/releases)
plus the `deprecated-in` facts of rules/data/migrations.yaml.
"""


from linter.diagnostic import Finding, Severity
from rules._lib import facts
from rules._lib.base import Rule, register

rule = register(Rule("VL103", "deprecated-option", "Option deprecated in the target release", Severity.WARNING, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        spec = opt.spec
        if spec is None or spec.dest == "model":
            continue  # `--model`: model-option (VL207) says what matters; `LLM(model=...)` is fine
        found = facts.option_facts(spec.primary) + facts.option_facts(opt.matched or "")
        fact = next((f for f in found if f.deprecated_at(ctx.version)), None)
        if not spec.deprecated and fact is None:
            continue
        if facts.active_effects(spec.primary, ctx.version):
            continue  # no-effect-option (VL108) says more
        msg = f"`{opt.written}` is deprecated in vLLM {ctx.version}"
        replacement = fact.replacement if fact is not None else None
        fix = None
        if replacement:
            msg += f"; use `{replacement}`"
            if replacement in ctx.release.by_name and fact.fix == "rename":
                fix = ctx.rename_fix(opt, replacement, f"Replace with `{replacement}`", "unsafe")
        yield Finding(ctx.name_span(opt), msg, fix=fix)
