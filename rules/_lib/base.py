"""What a rule is: a code, a name, a release range, a page of docs and a check.

Each rule lives in its own module under ``rules/`` and registers itself with
:func:`register`; the folder is the registry (:func:`rule_modules`), and what
rules share lives in ``rules/_lib``; its module docstring is the page ``vllm-lint --explain CODE``
prints, in ruff's order (What it does, Why is this bad?, Example, Use instead,
Fix safety, Versions).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from packaging.version import Version

from linter.diagnostic import Diagnostic, Finding, Severity
from linter.records import Record

if TYPE_CHECKING:
    from linter.checking import FileContext, LaunchContext


class Rule(Record):
    _fields = ("code", "name", "summary", "severity", "since", "until", "default", "fixable", "doc", "scope", "module", "_check")
    __slots__ = ("code", "name", "summary", "severity", "since", "until", "default", "fixable", "_page", "scope", "module", "_check")  # (``doc``: ``_page``)
    _shown = ("code", "name", "summary", "severity", "since", "until", "default", "fixable", "doc", "scope", "module")

    code: str
    name: str  # kebab-case
    summary: str  # one line, for --list-rules and SARIF shortDescription
    severity: Severity
    since: str | None  # first release the rule applies to (inclusive)
    until: str | None  # first release it no longer applies to (exclusive)
    default: bool  # selected unless the user opts in
    fixable: bool
    doc: str  # the page (kept as written, cleaned when read)
    # "launch": the check sees one launch at a time; "file": all launches of a file.
    # A rule without a check (input problems, unused suppressions) is stamped by the
    # pipeline stage that finds its problems (:meth:`stamp`).
    scope: str
    module: str  # the module that registered the rule (set by :func:`register`)
    _check: Callable[..., Iterable[Finding]] | None

    def __init__(self, code, name, summary, severity=Severity.ERROR, since=None, until=None, default=True, fixable=False, doc="", scope="launch", module="", _check=None):
        self.code = code
        self.name = name
        self.summary = summary
        self.severity = severity
        self.since = since
        self.until = until
        self.default = default
        self.fixable = fixable
        self.doc = doc
        self.scope = scope
        self.module = module
        self._check = _check

    @property
    def doc(self) -> str:
        """The rule's page: its module's docstring unless given, as :func:`inspect.cleandoc`
        cleans a docstring (imported by the few that read a page, not by every run that
        registers the rules: inspect and what it imports were 3 ms of a one-file run)."""
        import inspect

        return inspect.cleandoc(self._page)

    @doc.setter
    def doc(self, text: str) -> None:
        self._page = text

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
        """The check's findings on ``ctx``, stamped (a launch's release for a launch rule).

        A launch rule runs once per launch: VL601 asks the launch rules what would still stop
        the launch (:func:`rules._lib.blocking.blockers`) on the context the engine runs them
        on, and the answers of the launch being checked are kept for the other asker
        (:func:`launch_memo`)."""
        if self._check is None:
            return iter(())
        if self.scope != "launch":
            return self._stamped(ctx, None)
        memo = launch_memo(ctx)
        got = memo.get(self.code)
        if got is None:
            got = memo[self.code] = list(self._stamped(ctx, ctx.release.name))
        return iter(got)

    def _stamped(self, ctx, version: str | None) -> Iterator[Diagnostic]:
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


# the file whose launches were asked about last, and for each of its launch contexts (by id, the
# context held beside its answers, so no other has that id) what was worked out (:func:`launch_memo`)
_MEMO: list = [None, {}]


def launch_memo(ctx: LaunchContext) -> dict:
    """A dict for answers worked out once per launch: a rule's diagnostics (VL601, after the
    launch rules ran, asks them again for each launch of the file:
    :func:`rules._lib.blocking.blockers`), an option's lifecycle (four rules ask).  The launches
    of the file being checked are the only ones remembered."""
    if _MEMO[0] is not ctx.src:
        _MEMO[0], _MEMO[1] = ctx.src, {}
    kept = _MEMO[1].get(id(ctx))
    if kept is None or kept[0] is not ctx:
        kept = _MEMO[1][id(ctx)] = (ctx, {})
    return kept[1]


_REGISTRY: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    """Register ``rule``, taking its docs from the calling module's docstring."""
    if rule.code in _REGISTRY and _REGISTRY[rule.code] is not rule:
        raise ValueError(f"duplicate rule code {rule.code}")
    # the caller's module and docstring, read from its frame (``inspect.stack()`` would
    # read every source file on the stack: a third of a second per run)
    caller = sys._getframe(1).f_globals
    rule.module = rule.module or caller.get("__name__", "")
    if not rule._page:
        rule.doc = caller.get("__doc__") or ""
    _REGISTRY[rule.code] = rule
    return rule


def rule_modules() -> list[str]:
    """The rule modules: every top-level module of the ``rules`` package (one rule, or one
    family of codes, each); its subpackages (``_lib``) hold what rules share.  The names
    ``pkgutil.iter_modules`` gives for modules, without importing pkgutil (a one-file run
    asks this to trust the rule index)."""
    from importlib.machinery import all_suffixes

    import rules

    # the test of inspect.getmodulename, without importing inspect: the longest suffix first
    suffixes = sorted(all_suffixes(), key=len, reverse=True)
    names = set()
    for folder in rules.__path__:
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for entry in entries:
            name = next((entry[: -len(s)] for s in suffixes if entry.endswith(s)), None)  # None for a folder: a subpackage
            if name and name != "__init__" and "." not in name:
                names.add(f"rules.{name}")
    return sorted(names)


INDEX = Path(__file__).resolve().parent.parent / "data" / "rule_index.json"  # tools/gen_rule_index.py


def index_data() -> dict:
    """What ``rules/data/rule_index.json`` holds, from the rules themselves: for each rule
    module its codes (whether each is on by default) and the checksum of its source
    (:func:`linter.hashes.checksum`)."""
    from linter.hashes import checksum

    modules: dict[str, dict] = {}
    for code, rule in all_rules().items():
        modules.setdefault(rule.module, {"codes": {}})["codes"][code] = rule.default
    for name in modules:
        modules[name]["checksum"] = checksum(_source(name))
    return {"schema": 1, "generated-by": "python -m tools.gen_rule_index", "modules": dict(sorted(modules.items()))}


def _source(module: str) -> bytes:
    import rules

    return (Path(rules.__path__[0]) / (module.rpartition(".")[2] + ".py")).read_bytes()


_index: list = []  # [rule_index()], once asked
_read: list = []  # [(module -> its codes, module -> its source's checksum) or None], once read


def rule_index() -> dict[str, dict[str, bool]] | None:
    """Rule module -> {code: on by default}, from ``rules/data/rule_index.json`` without
    importing a rule; None when the index does not name exactly the rule modules of the
    folder or a module's source is not the one indexed (then every module is imported)."""
    if not _index:
        codes = _indexed()
        _index.append(codes if codes is not None and all(_fresh(name) for name in codes) else None)
    return _index[0]


def _indexed() -> dict[str, dict[str, bool]] | None:
    """:func:`rule_index` before any module's source is checked (:func:`_fresh`): None when the
    index cannot be read or does not name exactly the rule modules of the folder."""
    if not _read:
        _read.append(_read_index())
    return _read[0][0] if _read[0] is not None else None


def _read_index() -> tuple[dict[str, dict[str, bool]], dict[str, str]] | None:
    import json

    try:
        modules = json.loads(INDEX.read_bytes())["modules"]
        if sorted(modules) != rule_modules():
            return None
        codes = {name: {str(c): bool(d) for c, d in entry["codes"].items()} for name, entry in modules.items()}
        return codes, {name: str(entry["checksum"]) for name, entry in modules.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _fresh(name: str) -> bool:
    """Whether the source of the indexed rule module ``name`` is the one the index describes."""
    from linter.hashes import checksum

    try:
        return _read[0][1][name] == checksum(_source(name))
    except (OSError, TypeError, KeyError, IndexError):
        return False


def rule_codes() -> list[str]:
    """Every rule code, sorted (from the index: no rule imported)."""
    index = rule_index()
    if index is None:
        return list(all_rules())
    return sorted(c for codes in index.values() for c in codes)


def rules_for(enabled: Callable[[str, bool], bool]) -> dict[str, Rule]:
    """The rules, by code, of every rule module with a code ``enabled(code, default)`` keeps
    (:meth:`linter.engine.Settings.enabled`): the others are not imported.  Callers still
    check each rule's selection (the dict may hold rules imported for other reasons)."""
    index = _indexed()
    if index is None:
        return all_rules()
    wanted = [name for name, codes in index.items() if any(enabled(c, d) for c, d in codes.items())]
    # a module imported registers its codes itself: only one left out on the index's word must be
    # the source the index describes (one edited to add a selected code is imported then); a run
    # with the default selection checks two modules' sources, not all of them
    if not all(_fresh(name) for name in index if name not in wanted):
        return all_rules()
    for name in wanted:
        importlib.import_module(name)
    return dict(sorted(_REGISTRY.items()))


def rule_for_code(code: str) -> Rule | None:
    """The rule of ``code`` (its module alone imported when the index names it)."""
    index = rule_index()
    module = next((name for name, codes in index.items() if code in codes), None) if index is not None else None
    if module is None:
        return all_rules().get(code)
    importlib.import_module(module)
    return _REGISTRY.get(code)


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
