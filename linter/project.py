"""Lint or fix a set of files: the one orchestration that the CLI (and a language server) calls.

Nothing here parses arguments, prints or exits: the CLI turns its arguments
into :class:`~linter.engine.Settings` and a list of candidates, calls
:func:`lint` or :func:`fix`, and prints what they return.

* :func:`candidates` - the files to lint under some paths, as the configuration's
  ``include``/``exclude`` and ``.gitignore`` decide (:func:`linter.discovery.discover`);
* :func:`lint` - one :class:`~linter.engine.FileResult` per linted candidate;
  ``compact=True`` lints through :mod:`linter.batch` (every core on large runs,
  the result cache), with results as the reports need them (launches without
  their tokens); ``compact=False`` in this process, launches and tokens kept;
* :func:`fix` - fix every candidate in memory, write the changed files (or not,
  for a diff), and return a :class:`FixRun`;
* :func:`lint_document` / :func:`fix_document` - one file given as bytes (standard
  input, an editor's unsaved buffer);
* :func:`lint_tree` / :func:`fix_tree` - :func:`lint` / :func:`fix` with the settings of
  each file's own configuration (``settings_of(path)``, a
  :meth:`linter.config.Resolver.settings_for`): the candidates sharing settings are
  linted together, the results returned in the candidates' order.

Named config files.  A file named by a launch's ``--config FILE`` is a vLLM
config file whatever its content: :func:`lint` and :func:`fix` lint (fix) it
once per run as kind ``vllm-config``, in place of what the walk made of it (or of
nothing, if the walk skipped it), against its *inherited release*: the release
of the first launch naming it (``--target-version`` still wins;
:func:`linter.engine.choose_release`, reason ``"inherited"``).  Within a run each
such file is also read only once for the launches that name it
(:func:`linter.engine.config_files_read_once`).

Per-file ignores apply to every result under the path it is reported at (a
named config's result stands under the walk's name of the file).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from packaging.version import Version

from linter.diagnostic import Diagnostic
from linter.discovery import Candidate
from linter.engine import FileResult, Settings, config_files_read_once, input_problem, lint_file, lint_source
from linter.records import Frozen, Record, _set, replace

NAMED_KIND = "vllm-config"  # the kind a file named by ``--config FILE`` is linted as


def candidates(paths: Sequence[str], cfg=None, *, respect_gitignore: bool = True, force_exclude: bool = False, config_of: Callable | None = None,
               listed: Callable[[str, frozenset[str], str], None] | None = None, screener=None) -> list[Candidate]:
    """The files to lint under ``paths``, with ``cfg`` (a :class:`linter.config.Config`, or None
    for the defaults) deciding ``exclude``, ``extend-exclude`` and ``include``.

    ``config_of(path)``: the configuration of each file (a :meth:`linter.config.Resolver.config_for`);
    a walked file whose own configuration is not ``cfg`` must also pass that one's
    ``exclude``/``extend-exclude``/``include``, matched from its folder (as ruff applies a
    nested configuration's excludes below it); ``listed``: see :func:`linter.discovery.discover`; ``screener``: a
    :class:`linter.batch.Screener`, given each candidate as the walk finds it.  Paths are tidied as ruff prints them
    (``./x`` is ``x``; :func:`linter.discovery.tidy_path`)."""
    from linter.discovery import discover, tidy_path

    found = discover(
        paths,
        exclude=cfg.exclude if cfg is not None else None,
        extend_exclude=cfg.extend_exclude if cfg is not None else (),
        include=cfg.include if cfg is not None else None,
        respect_gitignore=respect_gitignore,
        force_exclude=force_exclude,
        listed=listed,
    )
    out = []
    own_config = _per_folder(config_of) if config_of is not None else None
    for c in found:
        if c.explicit:  # (a walked path is born tidy: its root is tidied, then names are joined on)
            tidy = tidy_path(c.path)
            if tidy != c.path:
                c = replace(c, path=tidy)
        if own_config is not None and c.status == "ok" and (not c.explicit or force_exclude):
            own = own_config(c)
            if own is not cfg and _excluded_by(own, c.path):
                continue
        out.append(c)
        if screener is not None:
            screener.add(c)
    if screener is not None:
        screener.walked()
    return out


def _per_folder(of: Callable[[str], Any]) -> Callable[[Candidate], Any]:
    """``of(c.path)`` for each candidate ``c`` (a file's configuration or settings), asked once for
    walked files of one folder in a row: the walk yields a folder's files together, and what
    applies to a file depends on its folder alone (:meth:`linter.config.Resolver.config_for`
    keeps its answers by the folder part of the path as written).  A file named on the command
    line, or a path where another separator may stand (Windows), is asked about on its own."""
    if os.altsep is not None:
        return lambda c: of(c.path)
    last: list = [None, None]  # (folder, its answer)

    def ask(c: Candidate):
        if c.explicit:
            return of(c.path)
        folder = c.path[: c.path.rfind(os.sep) + 1]
        if folder != last[0]:
            last[0], last[1] = folder, of(c.path)
        return last[1]

    return ask


def _excluded_by(cfg, path: str) -> bool:
    """``cfg``'s ``exclude``/``extend-exclude``/``include`` leave out ``path`` (matched from its folder)."""
    from linter.discovery import DEFAULT_EXCLUDES, _excluded_path, _matches, _spec

    if cfg.path is None or not ({"exclude", "extend-exclude", "include"} & set(cfg.sources)):
        return False
    rel = os.path.relpath(os.path.abspath(path), cfg.root).replace(os.sep, "/")
    if rel.startswith("../"):
        return False
    excl = _spec([*(DEFAULT_EXCLUDES if cfg.exclude is None else cfg.exclude), *cfg.extend_exclude])
    if _excluded_path(excl, rel):
        return True
    return cfg.include is not None and not _matches(_spec(cfg.include), rel, False)


def _grouped(candidates: Iterable[Candidate], settings_of: Callable[[str], Settings]) -> list[tuple[Settings, list[int], list[Candidate]]]:
    """The candidates (``unknown`` ones left out) by the settings that apply to them, in order of first appearance."""
    groups: dict[int, tuple[Settings, list[int], list[Candidate]]] = {}
    settings_here = _per_folder(settings_of)
    last = group = None  # (files in a row share their settings: the group is looked up when they change)
    for i, c in enumerate(candidates):
        if c.status == "unknown":
            continue
        s = settings_here(c)
        if s is not last:
            group = groups.setdefault(id(s), (s, [], []))
            last = s
        group[1].append(i)
        group[2].append(c)
    return list(groups.values())


def lint_tree(candidates: Iterable[Candidate], settings_of: Callable[[str], Settings], *, compact: bool = False, cache=None, screener=None) -> list[FileResult]:
    """:func:`lint` with each file's own settings; results in the candidates' order, then the
    named config files no candidate is."""
    groups = _grouped(candidates, settings_of)
    if not groups:
        return []
    if len(groups) == 1:
        return lint(groups[0][2], groups[0][0], compact=compact, cache=cache, screener=screener)
    placed: list[tuple[int, FileResult]] = []
    extra: list[FileResult] = []
    for settings, indices, members in groups:
        results = lint(members, settings, compact=compact, cache=cache, screener=screener)
        placed.extend(zip(indices, results[: len(indices)]))
        extra.extend(results[len(indices) :])
    placed.sort(key=lambda pr: pr[0])
    return _named_once([r for _i, r in placed], extra, lambda r: r.path, lambda r, where: _renamed(r, where))


def _named_once(items: list, extra: list, path_of: Callable, place: Callable) -> list:
    """``items`` and then ``extra`` (named config files one group appended): an extra file
    that another group walked replaces that group's item, under the walked name (as within one group)."""
    if not extra:
        return items
    places = _Places([path_of(it) for it in items])
    out = list(items)
    for it in extra:
        i = places.find(os.path.realpath(path_of(it)))
        if i is None:
            out.append(it)
        else:
            out[i] = place(it, path_of(items[i]))
    return out


def fix_tree(candidates: Iterable[Candidate], settings_of: Callable[[str], Settings], *, unsafe: bool = False, write: bool = False, roots: Sequence[str] | None = None,
             screener=None) -> FixRun:
    """:func:`fix` with each file's own settings (the files sharing settings fixed together);
    ``screener``: the :class:`linter.batch.Screener` the walk fed, whose flags spare reading
    the walked files it found no vLLM word in."""
    groups = _grouped(candidates, settings_of)
    flags = screener.flags() if screener is not None and groups else None
    if not groups:
        return FixRun()
    if len(groups) == 1:
        return fix(groups[0][2], groups[0][0], unsafe=unsafe, write=write, roots=roots, flags=flags)
    run = FixRun()
    parts = [fix(members, settings, unsafe=unsafe, write=write, roots=roots, flags=flags) for settings, _indices, members in groups]
    # a config file one group fixed as named by its launch and another walked is reported once,
    # as the named one (a second write of it would be refused: write_atomic finds its bytes changed)
    named = [{os.path.realpath(ff.path) for ff in part.files if ff.kind == NAMED_KIND} for part in parts]
    walked = {os.path.realpath(c.path): c.path for _s, _i, members in groups for c in members} if any(named) else {}
    for k, part in enumerate(parts):
        elsewhere = set().union(*(n for j, n in enumerate(named) if j != k)) - named[k]
        for ff in part.files:  # a named file stands under the walk's name of it, as within one group
            real = os.path.realpath(ff.path)
            if ff.kind == NAMED_KIND and real in walked and ff.path != walked[real]:
                ff.path = walked[real]
                if ff.outcome.remaining is not None:
                    _renamed(ff.outcome.remaining, ff.path)
        run.files.extend(ff for ff in part.files if not (elsewhere and ff.kind != NAMED_KIND and os.path.realpath(ff.path) in elsewhere))
        run.changed.extend((walked.get(os.path.realpath(p), p) if os.path.realpath(p) in named[k] else p, fixes) for p, fixes in part.changed)
        run.problems.extend(part.problems)
        run.broken = run.broken or part.broken
        run.remaining.extend(r for r in part.remaining if not elsewhere or os.path.realpath(r.path) not in elsewhere)
    return run


# ---------------------------------------------------------------------------
# named config files: once per run, in place of the walked file


def _named_configs(found: Iterable[list[tuple[str, Version]]]) -> Iterator[tuple[str, str, Version]]:
    """(path as named, real path, inherited release) of each config file that ``found`` (the
    ``named_configs`` of each result, in order) names, once: the first launch naming it decides."""
    done: set[str] = set()
    for named in found:
        for path, version in named:
            real = os.path.realpath(path)
            if real not in done:
                done.add(real)
                yield path, real, version


class _Places:
    """Which of the first ``walked`` items has a given real path (realpath of every item only when needed)."""

    def __init__(self, paths: list[str]):
        self.paths = paths
        self.by_path: dict[str, int] | None = None
        self.by_abs: dict[str, int] | None = None
        self.by_real: dict[str, int] | None = None

    def find(self, real: str) -> int | None:
        if self.by_path is None:
            self.by_path = {p: i for i, p in enumerate(self.paths)}
        # first as a walk spells it (the path from the working folder, or an absolute one): a
        # lookup, where the absolute path of every item costs 5 ms on a 4,000-file tree
        for spelled in (os.path.relpath(real), real):
            i = self.by_path.get(spelled)
            if i is not None and os.path.realpath(self.paths[i]) == real:
                return i
        if self.by_abs is None:
            cwd = os.getcwd()  # os.path.abspath, with the working folder asked once
            self.by_abs = {_absolute(cwd, p): i for i, p in enumerate(self.paths)}
        i = self.by_abs.get(real)
        if i is not None and os.path.realpath(self.paths[i]) == real:
            return i
        if not os.path.lexists(real):
            return None  # every item is a file that was there: none leads to a path that is not
        if self.by_real is None:
            self.by_real = {os.path.realpath(p): i for i, p in enumerate(self.paths)}
        return self.by_real.get(real)


def _absolute(cwd: str, path: str) -> str:
    """``os.path.normpath(os.path.join(cwd, path))``; a relative path with nothing to normalise
    (no ``.`` or ``..`` component, no repeated separator: a walked path) is only joined."""
    sep = os.sep
    if os.altsep is None and path and not path.startswith((".", sep)) and not path.endswith(sep) and f"{sep}." not in path and sep * 2 not in path:
        return (cwd if cwd.endswith(sep) else cwd + sep) + path
    return os.path.normpath(os.path.join(cwd, path))


def _renamed(result: FileResult, path: str) -> FileResult:
    """``result`` reported under ``path`` (the walk's name of the same file)."""
    result.path = path
    for d in result.diagnostics:
        d.path = path
    return result


def both_readings(walked: FileResult, named: FileResult) -> FileResult:
    """A file the walk read and a launch names as ``--config FILE``, as one result.

    A plain config file is read once, as a vLLM config file against the release of the
    launch naming it (``named`` replaces ``walked``).  A file with launches of its own (a
    Kubernetes manifest named as a config) keeps both readings: its own findings, and
    what vLLM would make of it as a config file (an identical finding once)."""
    if not walked.standalone:
        return _renamed(named, walked.path)
    seen = {(d.code, d.span, d.message) for d in walked.diagnostics}
    for d in named.diagnostics:
        if (d.code, d.span, d.message) not in seen:
            d.path = walked.path
            walked.diagnostics.append(d)
    walked.diagnostics.sort(key=lambda d: (d.span.start, d.code))
    walked.launches.extend(named.launches)
    return walked


def _with_named(items: list, path_of: Callable, named_of: Callable, redo: Callable) -> list:
    """``items`` with each config file they name redone by ``redo(path, inherited)`` (None: left
    as it was) in place of the item of the same real path, or appended.  ``redo`` returns
    ``new(where, item)``: the item of that path (``item``: the walked one, or None)."""
    places = _Places([path_of(it) for it in items])
    out = list(items)
    for path, real, version in _named_configs([named_of(it) for it in items]):
        new = redo(path, version)
        if new is None:
            continue
        i = places.find(real)
        if i is not None:
            out[i] = new(path_of(items[i]), items[i])
        else:
            out.append(new(path, None))
    return out


# ---------------------------------------------------------------------------
# lint


def _per_file_ignores(results: list[FileResult], settings: Settings) -> list[FileResult]:
    """A named config's result now stands under the walked path: that path's per-file ignores apply."""
    if settings.per_file_ignores is not None:
        from linter.diagnostic import matches

        for r in results:
            ignored = settings.ignored_in(r.path)
            if ignored:
                r.diagnostics = [d for d in r.diagnostics if not matches(d.code, ignored)]
    return results


def with_built_images(settings: Settings, candidates: list[Candidate], cache=None) -> Settings:
    """``settings`` knowing which of the candidate Dockerfiles build a vLLM image (:mod:`linter.built_images`;
    ``cache``: a :class:`linter.cache.Cache` that answers for unchanged ones)."""
    from linter.built_images import collect

    found = collect(candidates, settings.vllm_images, cache)
    return replace(settings, built_images=found) if found else settings


def lint(candidates: Iterable[Candidate], settings: Settings, *, compact: bool = False, cache=None, screener=None) -> list[FileResult]:
    """One result per candidate (an ``error`` one becomes VL003, an ``unknown`` one is skipped), in
    order, then the named config files that no candidate is (see the module docstring).

    ``compact``: results as the reports need them (launches without their tokens), linted on
    every core and through ``cache`` (a :class:`linter.cache.Cache`, saved at the end), by
    :mod:`linter.batch`; else full results (each launch and the file's text), in this process.
    ``screener``: the :class:`linter.batch.Screener` the walk fed (compact results only).
    """
    candidates = list(candidates)
    settings = with_built_images(settings, candidates, cache if compact else None)
    with config_files_read_once():
        if compact:
            from linter.batch import lint_many, lint_named

            ahead: dict = {}  # the config files the launches name, linted by the shares that found them
            results = lint_many(candidates, settings, None, cache=cache, screener=screener, ahead=ahead)  # rules imported by the first file the cache does not serve

            def redo(path: str, inherited: Version):
                named = lint_named(path, settings, None, cache, inherited, ahead)
                return lambda where, walked: both_readings(walked, named) if walked is not None else _renamed(named, where)
        else:
            from rules._lib.base import all_rules

            rules = all_rules()
            results = []
            for c in candidates:
                if c.status == "error":
                    results.append(input_problem("VL003", c.path, f"cannot read: {c.reason}", settings))
                elif c.status != "unknown":
                    results.append(lint_file(c.path, c.kind, settings, rules, prefilter=not c.explicit))

            def redo(path: str, inherited: Version):
                named = lint_file(path, NAMED_KIND, settings, rules, inherited=inherited)
                return lambda where, walked: both_readings(walked, named) if walked is not None else _renamed(named, where)

        results = _with_named(results, lambda r: r.path, lambda r: r.named_configs, redo)
    if cache is not None:
        cache.save()
    return _per_file_ignores(results, settings)


class DocumentCheck(Frozen):
    """What a document given as bytes (standard input, an editor's buffer) is to vllm-lint,
    before it is linted (:func:`check_document`)."""

    __slots__ = ("kind", "excluded", "too_big")

    kind: str | None  # the kind it is read as; None: not a kind vllm-lint reads
    excluded: bool  # force-exclude: the configuration's excludes or .gitignore leave it out
    too_big: FileResult | None  # over the size limit: not read, this VL003 result instead

    def __init__(self, kind, excluded=False, too_big=None):
        _set(self, "kind", kind)
        _set(self, "excluded", excluded)
        _set(self, "too_big", too_big)


def check_document(path: str, data: bytes, settings: Settings, cfg, *, force_exclude: bool = False,
                   respect_gitignore: bool = True, fallback_kind: str | None = None,
                   origin: str = "standard input") -> DocumentCheck:
    """The checks of a document named ``path`` whose bytes are ``data`` (at most
    ``MAX_FILE_BYTES + 1`` of them need be read), in order: over the size limit (VL003,
    naming ``origin``); with ``force_exclude``, left out by ``cfg``'s ``exclude``/
    ``extend-exclude`` (or by ``.gitignore`` when ``respect_gitignore``); its kind
    (:func:`linter.discovery.classify`, else ``fallback_kind``: an unnamed editor buffer's
    language).  The command line's standard input and the language server share them."""
    from linter.discovery import DEFAULT_EXCLUDES, _force_excluded, _spec, classify
    from linter.engine import MAX_FILE_BYTES

    if len(data) > MAX_FILE_BYTES:
        return DocumentCheck(None, too_big=input_problem("VL003", path, f"{origin} is over the {MAX_FILE_BYTES}-byte limit; not read", settings))
    if force_exclude:
        excl = _spec([*(DEFAULT_EXCLUDES if cfg.exclude is None else cfg.exclude), *cfg.extend_exclude])
        if _force_excluded(path, excl, respect_gitignore):
            return DocumentCheck(None, excluded=True)
    return DocumentCheck(classify(path, data[:256]) or fallback_kind)


def lint_document(path: str, data: bytes, settings: Settings, kind: str, *, cache=None, store: bool = False) -> FileResult:
    """Lint ``data`` as the file ``path`` of ``kind`` (``linter.discovery.classify`` names kinds)
    would be: standard input, or an editor's buffer.  Named config files are not followed.

    ``cache`` (a :class:`linter.cache.Cache`): the extraction is taken from its extraction pack
    when one of these very bytes is there (keyed by their digest, so an unsaved buffer can only
    meet its own reading); with ``store`` a new one is kept and the pack saved - for bytes that
    are the file's on disk, as an entry replaces the path's earlier one.  The compact results
    pack is not used: it keeps no launches, which an editor's hover and completion read."""
    from rules._lib.base import all_rules

    if cache is None:
        return lint_file(path, kind, settings, all_rules(), data=data)
    from linter.batch import built_key, cached_extract, images_key

    stored: list = []
    digest, images, built = cache.digest(data), images_key(settings), built_key(settings)
    result = lint_file(path, kind, settings, all_rules(), data=data,
                       reader=lambda src, k: cached_extract(cache, src, k, digest, stored, images, built))
    if store and stored:
        cache.put_extraction(*stored[0])
        cache.save()
    return result


# ---------------------------------------------------------------------------
# fix


class FixRun(Record):
    """What :func:`fix` did.

    ``files``: every file read and fixed in memory (a :class:`linter.fixer.FileFix`, whose
    ``outcome`` holds the original and fixed text and the fixes applied), in order;
    ``changed``: (path, fixes applied) of each file that changed - written, or with
    ``write=False`` that would be; ``problems``: (path, message) of each broken fix (a bug;
    that file is left as it was) and each refused write, in order; ``broken``: a fix was
    broken; ``remaining``: the diagnostics left, one result per file, for the reports.
    """

    __slots__ = ("files", "changed", "problems", "broken", "remaining")

    files: list
    changed: list[tuple[str, list[Diagnostic]]]
    problems: list[tuple[str, str]]
    broken: bool
    remaining: list[FileResult]

    def __init__(self, files=None, changed=None, problems=None, broken=False, remaining=None):
        self.files = ([] if files is None else files)
        self.changed = ([] if changed is None else changed)
        self.problems = ([] if problems is None else problems)
        self.broken = broken
        self.remaining = ([] if remaining is None else remaining)

    @property
    def applied(self) -> int:
        """How many fixes were applied (or would be)."""
        return sum(len(fixes) for _path, fixes in self.changed)


def fix(candidates: Iterable[Candidate], settings: Settings, *, unsafe: bool = False, write: bool = False, roots: Sequence[str] | None = None,
        flags: dict | None = None) -> FixRun:
    """Fix every candidate in memory (``unsafe``: unsafe fixes too) and, with ``write``, write each
    changed file atomically (:func:`linter.fixer.write_atomic`).

    Named config files are fixed as the check lints them (the module docstring), after the
    fixes of the files naming them.  ``roots``: the paths given on the command line; a file
    whose real path lies outside all of them (through a symbolic link, or named by a
    ``--config`` path) is never written.  A candidate that cannot be fixed (unreadable, too
    big, not text) is linted instead, as :func:`lint` would, so ``--fix`` and the check report
    the same; a walked file that cannot hold a launch (its bytes, or the screener's ``flags``,
    :class:`linter.batch.Screener`, say so) has the check's empty result, unread again.
    """
    from linter.batch import screened_out
    from linter.fixer import CANNOT_LAUNCH, FixError, fix_file, write_atomic
    from rules._lib.base import all_rules

    rules = all_rules()
    run = FixRun()
    candidates = list(candidates)
    settings = with_built_images(settings, candidates)
    with config_files_read_once():
        files = []
        unfixed: list[Candidate] = []
        empty: set[int] = set()  # (the ids of) the unfixed ones that cannot hold a launch
        for c in candidates:
            if c.status in ("error", "unknown"):
                ff = None
            elif flags and screened_out(flags.get(c.path), c.kind, not c.explicit, settings):
                ff = CANNOT_LAUNCH
            else:
                ff = fix_file(c.path, c.kind, settings, rules, unsafe, prefilter=not c.explicit)
            if ff is None or ff is CANNOT_LAUNCH:
                unfixed.append(c)  # reported (or skipped) by the lint below
                if ff is CANNOT_LAUNCH:
                    empty.add(id(c))
            else:
                files.append(_bytes_for_the_write(ff, write))
        fixed_named: set[str] = set()
        # a file with launches of its own (a manifest) named as a config: its own fixes are
        # made; its reading as a config file is reported, from the file as written
        config_reading: dict[int, tuple[str, Version]] = {}

        def redo(path: str, inherited: Version):
            named = fix_file(path, NAMED_KIND, settings, rules, unsafe, inherited=inherited)
            if named is None:
                return None
            _bytes_for_the_write(named, write)
            fixed_named.add(os.path.realpath(path))

            def placed(where: str, walked):
                if walked is not None and walked.outcome.remaining is not None and walked.outcome.remaining.standalone:
                    config_reading[id(walked)] = (path, inherited)
                    return walked
                named.path = where
                if named.outcome.remaining is not None:
                    _renamed(named.outcome.remaining, where)
                return named

            return placed

        files = _with_named(files, lambda ff: ff.path, lambda ff: ff.outcome.remaining.named_configs if ff.outcome.remaining is not None else [], redo)
        unfixed = [c for c in unfixed if os.path.realpath(c.path) not in fixed_named] if fixed_named else unfixed
        for ff in files:
            outcome = ff.outcome
            if outcome.error:
                run.broken = True
                run.problems.append((ff.path, outcome.error))
            if outcome.fixed != outcome.original:
                if not write:
                    run.changed.append((ff.path, outcome.applied))
                else:
                    try:
                        write_atomic(ff.path, ff.data, ff.src.encode(outcome.fixed), list(roots) if roots is not None else None)
                        run.changed.append((ff.path, outcome.applied))
                    except FixError as exc:
                        run.problems.append((ff.path, str(exc)))
                        # the report describes the file as it is on disk now (another process may
                        # have rewritten it), not the text this run read
                        outcome.remaining = _renamed(lint_file(ff.path, ff.kind, settings, rules, inherited=ff.inherited), ff.path)
            if outcome.remaining is not None:
                if id(ff) in config_reading:
                    path, inherited = config_reading[id(ff)]
                    outcome.remaining = both_readings(outcome.remaining, lint_file(path, NAMED_KIND, settings, rules, inherited=inherited))
                run.remaining.append(outcome.remaining)
        run.files = files
    # lint's results for the others: one per candidate but the unknown ones, in order, then the
    # config files they name (none: no launch is read in a file that cannot be fixed)
    linted = iter(lint([c for c in unfixed if id(c) not in empty], settings))
    for c in unfixed:
        if id(c) in empty:
            run.remaining.append(FileResult(c.path))  # what lint_file answers for it
        elif c.status != "unknown":
            run.remaining.append(next(linted))
    run.remaining.extend(linted)
    return run


def _bytes_for_the_write(ff, write: bool):
    """``ff`` (a :class:`linter.fixer.FileFix`) holding the bytes it was read as only while a write
    will compare them with the file's (:func:`linter.fixer.write_atomic`): not without ``write``
    (``--diff``), nor for a file its fixes leave as it was.  A run keeps every fixed file to its
    end (the config files the launches name are fixed after them), so the platform tree of
    ``bench/run.py`` held its 20 MB of manifests and scripts twice, as bytes and as text:
    ``--diff`` there peaked at 148 MB, 131 MB without them."""
    if not write or ff.outcome.fixed == ff.outcome.original:
        ff.data = None
    return ff


def fix_document(path: str, data: bytes, settings: Settings, kind: str, *, unsafe: bool = False):
    """Fix ``data`` as the file ``path`` of ``kind`` would be, in memory: a
    :class:`linter.fixer.FileFix` (``src.encode(outcome.fixed)`` is the fixed bytes), or
    None when the bytes are not text (then :func:`lint_document` says why)."""
    from linter.fixer import FileFix, fix_source
    from linter.source_file import DecodeError, SourceFile
    from rules._lib.base import all_rules

    try:
        src = SourceFile.from_bytes(path, data)
    except DecodeError:
        return None
    return FileFix(path, kind, data, src, fix_source(src, kind, settings, all_rules(), unsafe))
