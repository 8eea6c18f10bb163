"""What a rule is: a code, a name, a release range, a page of docs and a check.

Each rule lives in its own module under ``rules/`` and registers itself with
:func:`register`; the folder is the registry (:func:`rule_modules`), and what
rules share lives in ``rules/_lib``; its module docstring is the page ``vllm-lint --explain CODE``
prints, in ruff's order (What it does, Why is this bad?, Example, Use instead,
Fix safety, Versions).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from packaging.version import Version

from linter.diagnostic import Diagnostic, Finding, Severity

if TYPE_CHECKING:
    from linter.checking import FileContext, LaunchContext


@dataclass
class Rule:
    code: str
    name: str  # kebab-case
    summary: str  # one line, for --list-rules and SARIF shortDescription
    severity: Severity = Severity.ERROR
    since: str | None = None  # first release the rule applies to (inclusive)
    until: str | None = None  # first release it no longer applies to (exclusive)
    default: bool = True  # selected unless the user opts in
    fixable: bool = False
    doc: str = ""
    # "launch": the check sees one launch at a time; "file": all launches of a file.
    # A rule without a check (input problems, unused suppressions) is stamped by the
    # pipeline stage that finds its problems (:meth:`stamp`).
    scope: str = "launch"
    module: str = ""  # the module that registered the rule (set by :func:`register`)
    _check: Callable[..., Iterable[Finding]] | None = field(default=None, repr=False)

    def applies_to(self, version: Version) -> bool:
        if self.since is not None and version < Version(self.since):
            return False
        if self.until is not None and version >= Version(self.until):
            return False
        return True

    def check(self, fn: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
        self._check = fn
        return fn

    def run(self, ctx: LaunchContext | FileContext) -> Iterator[Diagnostic]:
        """The check's findings on ``ctx``, stamped (a launch's release for a launch rule)."""
        if self._check is None:
            return
        version = str(ctx.version) if self.scope == "launch" else None
        for finding in self._check(ctx):
            yield self.stamp(ctx.src.path, finding, version)

    def stamp(self, path: str, finding: Finding, version: str | None = None) -> Diagnostic:
        """``finding`` as this rule's diagnostic in ``path``: its code, its severity unless the
        finding overrides it, and the release checked against (the finding's own first)."""
        return Diagnostic(
            code=self.code,
            message=finding.message,
            path=path,
            span=finding.span,
            severity=finding.severity or self.severity,
            fix=finding.fix,
            vllm_version=finding.version or version,
            related=list(finding.related),
            notes=tuple(finding.notes),
        )

    @property
    def versions(self) -> str:
        if self.since and self.until:
            return f"{self.since} to before {self.until}"
        if self.since:
            return f"{self.since} and later"
        if self.until:
            return f"before {self.until}"
        return "all releases"


_REGISTRY: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    """Register ``rule``, taking its docs from the calling module's docstring."""
    if rule.code in _REGISTRY and _REGISTRY[rule.code] is not rule:
        raise ValueError(f"duplicate rule code {rule.code}")
    # the caller's module and docstring, read from its frame (``inspect.stack()`` would
    # read every source file on the stack: a third of a second per run)
    caller = sys._getframe(1).f_globals
    rule.module = rule.module or caller.get("__name__", "")
    if not rule.doc:
        rule.doc = inspect.cleandoc(caller.get("__doc__") or "")
    _REGISTRY[rule.code] = rule
    return rule


def rule_modules() -> list[str]:
    """The rule modules: every top-level module of the ``rules`` package (one rule, or one
    family of codes, each); its subpackages (``_lib``) hold what rules share."""
    import pkgutil

    import rules

    return sorted(f"rules.{m.name}" for m in pkgutil.iter_modules(rules.__path__) if not m.ispkg)


_walked = False


def all_rules() -> dict[str, Rule]:
    """Every rule, by code.  The folder is walked once, whatever rule modules were imported
    before (the engine imports ``rules.input_problem`` alone for a file it cannot read)."""
    global _walked
    if not _walked:
        for name in rule_modules():
            importlib.import_module(name)
        _walked = True
    return dict(sorted(_REGISTRY.items()))
