"""## deprecated-value (VL107)

What it does: finds option values that vLLM deprecated or removed, using the
value facts of rules/data/migrations.yaml (for example `--mamba-cache-mode all`).

Why is this bad? A deprecated value logs a warning and may be replaced at
startup; a removed value is an invalid choice and the server exits.

Example:
    vllm serve ibm-granite/granite-4.0-h-small --mamba-cache-mode all

Use instead:
    vllm serve ibm-granite/granite-4.0-h-small --enable-prefix-caching --mamba-cache-mode align

Fix safety: the fact says (`applicability`); value changes are usually unsafe
because behaviour changes (cache hit rates, memory).

Versions: per fact, from `deprecated-in` (warning) and `removed-in` (error).
"""

from packaging.version import Version

from linter.diagnostic import Finding, Severity
from rules._lib import facts
from rules._lib.base import Rule, register

rule = register(Rule("VL107", "deprecated-value", "Value deprecated or removed in the target release", Severity.WARNING, fixable=True))



@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.spec is None or not opt.values or opt.value_opaque:
            continue
        for fact in facts.value_facts(opt.spec.primary):
            value = str(fact.get("value"))
            if opt.value != value or (opt.spec.primary, value) in facts.SPECIFIC_VALUE_RULES:
                continue
            dep = fact.get("deprecated-in")
            rem = fact.get("removed-in")
            if rem and Version(str(rem)) <= ctx.version:
                severity, state = Severity.ERROR, f"removed in vLLM {rem}"
            elif dep and Version(str(dep)) <= ctx.version:
                severity, state = Severity.WARNING, f"deprecated since vLLM {dep}"
            else:
                continue
            replacement = fact.get("replacement")
            msg = f"`{opt.written} {value}` is {state}"
            fix = None
            if replacement is not None:
                msg += f"; use `{replacement}`"
                fix = ctx.replace_item_fix(opt.values[0], str(replacement), f"Change the value to `{replacement}`", fact.get("applicability", "unsafe"))
            yield Finding(ctx.item_span(opt.values[0]), msg, fix=fix, severity=severity)
