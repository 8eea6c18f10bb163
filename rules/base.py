"""What a rule is: a code, a name, a release range, a page of docs and a check.

Each rule lives in its own module under ``rules/`` and registers itself with
:func:`register`; its module docstring is the page ``vllm-lint --explain CODE``
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
    if not rule.doc:
        # the caller's module docstring, read from its frame (``inspect.stack()`` would
        # read every source file on the stack: a third of a second per run)
        caller = sys._getframe(1).f_globals
        rule.doc = inspect.cleandoc(caller.get("__doc__") or "")
    _REGISTRY[rule.code] = rule
    return rule


RULE_MODULES = (
    "rules.input_problem",
    "rules.removed_option",
    "rules.renamed_option",
    "rules.deprecated_option",
    "rules.unknown_option",
    "rules.option_not_yet_available",
    "rules.invalid_value",
    "rules.deprecated_value",
    "rules.abbreviated_option",
    "rules.ambiguous_abbreviation",
    "rules.option_value_one_element",
    "rules.invalid_json",
    "rules.duplicate_option",
    "rules.parser_error",
    "rules.config_equals_ignored",
    "rules.model_option",
    "rules.negative_decimal",
    "rules.config_false",
    "rules.no_effect_option",
    "rules.mamba_cache_mode_all",
    "rules.hybrid_kv_cache_manager",
    "rules.lmcache_connector_v1_hybrid",
    "rules.lmcache_hybrid_mamba_align",
    "rules.lmcache_hybrid_batched_tokens",
    "rules.lmcache_chunk_size_block",
    "rules.lmcache_separate_object_groups",
    "rules.lmcache_l1_size",
    "rules.lmcache_mp_hma_flag",
    "rules.max_model_len_unset",
    "rules.yarn_max_model_len_changed",
    "rules.pin_older_than_target",
    "rules.entrypoint_repeated",
    "rules.kv_cache_too_small",
    "rules.kv_cache_concurrency",
    "rules.env_var",
    "rules.unused_suppression",
)


def all_rules() -> dict[str, Rule]:
    if not _REGISTRY:
        for name in RULE_MODULES:
            importlib.import_module(name)
    return dict(sorted(_REGISTRY.items()))
