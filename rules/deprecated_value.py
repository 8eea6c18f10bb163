"""## deprecated-value (VL107)

What it does: finds option values that vLLM deprecated or removed, using the
value facts of rules/data/migrations.yaml (for example `--tokenizer-mode slow`).

Why is this bad? A deprecated value logs a warning and may be replaced at
startup; a removed value is an invalid choice and the server exits.

A fact may name a key of a JSON option (`method` of `--speculative-config`,
written `--speculative-config '{"method": "medusa"}'` or
`--speculative-config.method medusa`) and further values removed the same way
(`also-values`).  `--mamba-cache-mode all` has a rule of its own (VL301).

Example:
    vllm serve Qwen/Qwen3-8B --tokenizer-mode slow

Use instead:
    vllm serve Qwen/Qwen3-8B --tokenizer-mode auto

Fix safety: the fact says (`applicability`); value changes are usually unsafe
because behaviour changes (cache hit rates, memory).  A value inside JSON text,
a value listed in `also-values` (the replacement stands for the fact's own
value), and a replacement of several argv strings (`model worker` for
`--collect-detailed-traces model,worker`: one edit would make one string of it)
get no fix.

Also finds deprecated quantization methods (`DEPRECATED_QUANTIZATION_METHODS`,
read from each release's wheel into `rules/data/value_sets.json`: `fbgemm_fp8`,
`fp_quant` in 0.28-0.33): without `--allow-deprecated-quantization` vLLM raises
"The quantization method ... is deprecated ... To bypass, set
`--allow-deprecated-quantization`" (error); with it, a warning.

Versions: per fact, from `deprecated-in` (warning) and `removed-in` (error).
"""


from linter import bounded_json
from linter.diagnostic import Finding, Severity
from rules._lib import facts
from rules._lib.base import Rule, register

rule = register(Rule("VL107", "deprecated-value", "Value deprecated or removed in the target release", Severity.WARNING, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.spec is None or not opt.values or opt.value_opaque:
            continue
        option = opt.spec.primary
        for key, value, item, editable in _values(opt, option):
            fact = facts.value_fact(option, value, key)
            state = fact.state_at(ctx.version) if fact is not None else None
            if state is None:
                continue
            when = fact.removed_in if state == "removed" else fact.deprecated_in
            shown = f"`{opt.written} {value}`" if key is None else f"`{key}: {value}` of `{opt.written}`"
            msg = f"{shown} is {state} in vLLM {when}" if state == "removed" else f"{shown} is deprecated since vLLM {when}"
            fix = None
            # the replacement stands for the fact's own value, not for its also-values
            if fact.replacement is not None and value == str(fact.value):
                msg += f"; use `{fact.replacement}`"
                if editable and len(str(fact.replacement).split()) == 1:  # several words are several argv strings: no text edit makes them
                    fix = ctx.replace_item_fix(item, str(fact.replacement), f"Change the value to `{fact.replacement}`", fact.applicability)
            yield Finding(ctx.item_span(item), msg, fix=fix, severity=Severity.ERROR if state == "removed" else Severity.WARNING)
    yield from deprecated_quantization(ctx)


def _values(opt, option):
    """(JSON key or None, value, item to point at, whether the item is the value alone) for the
    values of ``opt`` that facts may name: the plain value, and each key of a JSON value,
    written as ``--opt.key value`` (its own item) or inside the JSON text (the whole value)."""
    if not facts.value_facts(option):
        return
    keys = {f.key for f in facts.value_facts(option) if f.key is not None}
    if not keys:
        yield None, opt.value, opt.values[0], True
        return
    if opt.dotted:
        for d in opt.dotted:
            if len(d.path) == 1 and d.path[0] in keys and d.value is not None and d.value_item is not None and not d.value_item.opaque:
                yield d.path[0], d.value, d.value_item, True
        return
    try:
        data = bounded_json.loads(opt.value)
    except ValueError:
        return  # invalid-json (VL204) reports it
    if isinstance(data, dict):
        for key in sorted(keys):
            if isinstance(data.get(key), str):
                yield key, data[key], opt.values[0], False


def deprecated_quantization(ctx):
    quant = ctx.release.value_sets.get("--quantization") or {}
    deprecated = quant.get("deprecated") or []
    opt = ctx.parsed.last("quantization")
    if not deprecated or opt is None or not opt.values or opt.value_opaque:
        return
    value = opt.values[-1].text
    if value not in deprecated:
        return
    bypass = quant.get("deprecated-bypass")
    _, allowed, _ = ctx.parsed.flag("allow_deprecated_quantization")
    on = allowed is True
    where = quant.get("deprecated-error") or quant.get("deprecated-source")
    if on or not bypass:
        yield Finding(
            ctx.item_span(opt.values[-1]),
            f"`{opt.written} {value}` is a deprecated quantization method in vLLM {ctx.version} and will be removed ({where})",
            severity=Severity.WARNING,
        )
        return
    yield Finding(
        ctx.item_span(opt.values[-1]),
        f"`{opt.written} {value}` is a deprecated quantization method: vLLM {ctx.version} refuses to start unless "
        f"`{bypass}` is given ({where})",
        severity=Severity.ERROR,
    )
