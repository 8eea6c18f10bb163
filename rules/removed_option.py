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
becomes `--no-enable-log-requests`, safe: same meaning).  A removed option whose
successor takes other values is translated where the release that removed it said
how (`translations:` in migrations.yaml: `--task generate` becomes `--runner
generate`, unsafe).  A replacement that only a deprecation message named is shown,
never applied (display-only): `--disable-log-requests` pointed to
`--enable-log-requests`, the opposite switch.  A removed switch whose successor is its
negation (the target's parser makes `--disable-log-requests` the negative of
`enable_log_requests`, or the curated replacement is `--no-enable-log-requests`) is, as a
Python keyword, the successor with the value flipped: `disable_log_requests=True` becomes
`enable_log_requests=False` (safe: same meaning), for AsyncEngineArgs and Ray Serve's
LLMConfig, whose class has that field; `LLM(...)`/`EngineArgs(...)` take no such keyword, so
there it is deleted (unsafe).  An option that nothing replaces is
deleted with its values, in the launch's own syntax (argv items, shell words and a
`\\` continuation left dangling, a Python keyword, a `--config` key): unsafe, since
whatever it tuned is gone.

Versions: every release; driven by the option inventories of 0.28.0 to 0.33.0
(rules/data/releases) and the history back to 0.6.0 (rules/data/history.json).
"""

from linter import knowledge
from linter.diagnostic import Edit, Finding, Fix, Severity
from rules._lib import lifecycle
from rules._lib.base import Rule, register

rule = register(Rule("VL101", "removed-option", "Option removed in the target release", Severity.ERROR, fixable=True))


def spell(ctx, option: str, opt=None) -> str:
    """``option`` (an option string of the target) as the launch writes options: a flag in argv
    (an argv list inside a keyword launch too: a chart's ``extraArgs``), a Python keyword, a
    ``--config`` key (a negative ``--no-X`` is the key ``no-X``, a keyword ``X=False``)."""
    spec = ctx.release.by_name.get(option)
    if spec is None or ctx.launch.style != "settings" or (opt is not None and opt.setting is None):
        return option
    if option in spec.negative_names:
        if ctx.launch.entrypoint != "config":
            return f"{spec.dest}=False"
        bare = option.lstrip("-")
        return bare.replace("-", "_") if opt is not None and "_" in opt.written else bare  # the writer's choice
    return ctx.parsed.spelling(spec.dest).rstrip(" :=")


def assign(ctx, option: str, value: str) -> str:
    """``option`` set to ``value`` as the launch writes it: ``--runner generate``,
    ``runner="generate"`` (Python keyword), ``runner: generate`` (``--config`` key)."""
    name = spell(ctx, option)
    if ctx.launch.style != "settings":
        return f"{name} {value}"
    return f"{name}: {value}" if ctx.launch.entrypoint == "config" else f'{name}="{value}"'


def _translate(ctx, opt, fact, head):
    """The finding for a removed option whose successor takes other values."""
    value = opt.known_value
    new_name = spell(ctx, fact.replacement)
    if value is None:
        return Finding(ctx.name_span(opt), f"{head}: write `{new_name}` instead (its values differ: see the note)",
                       notes=(f"`{opt.written}` values map to `{fact.replacement}` as {_mapping(fact)}",),
                       fix=Fix(f"Replace with `{fact.replacement}`", (), "display-only"))
    if value not in fact.values:
        return Finding(ctx.name_span(opt), f"{head}: `{value}` has no `{new_name}` equivalent; delete it or pick a `{new_name}` value",
                       notes=(f"the values map as {_mapping(fact)}",))
    new = fact.values[value]
    convert = fact.convert.get(value)
    notes = ()
    if convert is not None and "--convert" in ctx.release.by_name:
        also = assign(ctx, "--convert", convert)
        notes = (f"if the model is a generative one adapted for pooling, also pass `{also}` (what vLLM {fact.last_accepted} did for it)",)
    if new is None:
        fix = ctx.delete_fix(opt, f"Delete `{opt.written}` (`{value}` was the default)", fact.applicability)
        return Finding(ctx.name_span(opt), f"{head}: delete it (`{value}` was the default)", fix=fix, notes=notes)
    shown = assign(ctx, fact.replacement, new)
    fix = None
    rename = ctx.rename_fix(opt, fact.replacement, "")
    value_fix = ctx.replace_item_fix(opt.values[-1], new, "") if ctx.launch.style != "settings" or opt.setting.kind == "str" else None
    if rename is not None and value_fix is not None:
        fix = Fix(f"Replace with `{shown}`", rename.edits + value_fix.edits, fact.applicability)  # type: ignore[arg-type]
    return Finding(ctx.name_span(opt), f"{head}: write `{shown}`", fix=fix, notes=notes)


# keyword launches whose class has the async engine's fields (``enable_log_requests`` is a
# field of AsyncEngineArgs only: vllm/engine/arg_utils.py L3244-3247 in 0.33.0); Ray Serve's
# LLMConfig builds AsyncEngineArgs from its engine_kwargs
_ASYNC_KEYWORDS = ("AsyncEngineArgs", "LLMConfig")


def negated_successor(ctx, info):
    """The target's boolean option that the removed switch ``info.option`` is the negative
    of (``--disable-log-requests`` sets ``enable_log_requests`` to False), or None.  The
    target's parser says so (its ``--disable-X`` twin of an ``--enable-X`` boolean, 0.33), or
    the curated replacement is the target's negative form (``--no-enable-log-requests``)."""
    for name in (info.option, info.replacement):
        spec = ctx.release.by_name.get(name) if name else None
        if spec is not None and not spec.takes_value and name in spec.negative_names:
            return spec
    return None


def _flip(ctx, opt, spec, head, history):
    """A removed Python keyword whose successor is its negation: the successor, the value flipped."""
    setting = opt.setting
    written = ctx.src.text[setting.value.span.start : setting.value.span.end] if setting.value is not None else ""
    flipped = {"True": "False", "False": "True"}.get(written) if setting.kind == "bool" else None
    note = f"`{opt.written}=X` means `{spec.dest}=not X` (vLLM {ctx.version}'s default is `{spec.dest}={spec.default!r}`)"
    if flipped is None:
        return Finding(ctx.name_span(opt), f"{head}: write `{spec.dest}=` with the opposite value", notes=(note, history),
                       fix=Fix(f"Replace with `{spec.dest}`, the value negated", (), "display-only"))
    shown = f"{spec.dest}={flipped}"
    if ctx.launch.entrypoint not in _ASYNC_KEYWORDS:
        return Finding(ctx.name_span(opt), f"{head}: delete it ({ctx.launch.entrypoint} takes no `{spec.dest}`: it is an AsyncEngineArgs field)",
                       notes=(note, history), fix=ctx.delete_fix(opt, f"Delete `{opt.written}`"))
    rename = ctx.rename_fix(opt, spec.primary, "")
    value = Edit(setting.value.span, flipped) if setting.value is not None and setting.value.value_start is not None else None
    fix = Fix(f"Replace with `{shown}`", rename.edits + (value,), "safe") if rename is not None and value is not None else None
    return Finding(ctx.name_span(opt), f"{head}: write `{shown}`", fix=fix, notes=(note, history))


def _mapping(fact) -> str:
    return ", ".join(f"{k} -> {v if v is not None else '(delete)'}" for k, v in fact.values.items())


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        info = lifecycle.classify(ctx, opt)
        if info is None or info.status != "removed":
            continue
        head = f"`{opt.written}` was removed after vLLM {info.last_accepted} ({ctx.version} rejects it)"
        history = f"accepted from vLLM {info.first_seen} to {info.last_accepted}"
        translation = knowledge.migrations().translation(info.option)
        curated = info.fact is not None and info.fact.replacement == info.replacement
        keyword = opt.setting is not None and ctx.launch.style == "settings" and ctx.launch.entrypoint not in ("config", "chart")
        negated = negated_successor(ctx, info) if keyword else None
        if negated is not None:
            yield _flip(ctx, opt, negated, head, history)
        elif translation is not None and translation.replacement in ctx.release.by_name:
            yield _translate(ctx, opt, translation, head)
        elif info.replacement and curated:
            name = spell(ctx, info.replacement, opt)
            fix = None
            if info.replacement_in_target and info.fact.fix == "rename":
                fix = ctx.rename_fix(opt, info.replacement, f"Replace with `{name}`", info.fact.applicability)
            notes = (info.fact.note.strip(),) if info.fact.note else ()
            yield Finding(ctx.name_span(opt), f"{head}: write `{name}` instead", fix=fix, notes=notes)
        elif info.replacement:
            # From a deprecation message: related, not necessarily the same meaning.
            name = spell(ctx, info.replacement, opt)
            shown = Fix(f"Replace with `{name}` (check its meaning first)", (Edit(ctx.name_span(opt), name),), "display-only")
            yield Finding(ctx.name_span(opt), f"{head}: move its setting to `{name}` (check its meaning first)", fix=shown,
                          notes=(f"{history}; vLLM's deprecation message pointed to `{info.replacement}`",))
        else:
            fix = ctx.delete_fix(opt, f"Delete `{opt.written}`" + (" and its value" if opt.values else ""))
            yield Finding(ctx.name_span(opt), f"{head}: delete it", fix=fix,
                          notes=(f"{history}; no later release reads it and nothing replaces it",))
