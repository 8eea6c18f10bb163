"""What would still stop a launch from starting after ``--fix --unsafe-fixes``.

A pin may move to the target only with the flags (VL601): when every finding of the
launch that stops the start (an error) has a fix that ``--unsafe-fixes`` applies.  The
launch rules are asked here, on the same context, so the answer is what the fixer
would see; a rule the user did not select is not asked.
"""

from __future__ import annotations

from linter.diagnostic import Diagnostic, Severity, matches


def _selected(rule, settings, path: str) -> bool:
    if settings is None:
        return rule.default
    return settings.enabled(rule.code, rule.default) and not matches(rule.code, settings.ignored_in(path))


def blockers(lctx) -> list[Diagnostic]:
    """The errors of ``lctx``'s launch that no applicable fix removes (no fix, or display-only)."""
    from rules._lib.base import all_rules

    out: list[Diagnostic] = []
    for rule in all_rules().values():
        if rule.scope != "launch" or rule._check is None or not rule.applies_to(lctx.version) or not _selected(rule, lctx.settings, lctx.src.path):
            continue
        for d in rule.run(lctx):
            if d.severity == Severity.ERROR and (d.fix is None or d.fix.applicability == "display-only"):
                out.append(d)
    return out
