"""Run the pipeline on files: source -> launches -> argument model -> rules -> diagnostics.

Each stage only reads the output of the one before: extractors never see
releases, the argument model never sees files, rules never parse text.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextlib import contextmanager

from packaging.version import InvalidVersion, Version

from linter import argmodel, kinds, knowledge
from linter.checking import FileContext, LaunchContext
from linter.diagnostic import Diagnostic, Finding, Severity, matches
from linter.launch import Launch, Span, Token, VersionHint
from linter.records import Record, replace
from linter.source_file import MAX_FILE_BYTES, DecodeError, NotRegularFile, SourceFile, read_file  # noqa: F401 - the reader, here for its callers
from linter.sources import Extraction
from linter.sources.words import nearest_pin

class Settings(Record):
    __slots__ = ("target", "fallback", "select", "extend_select", "ignore", "per_file_ignores", "gpu_memory_gib", "model_configs", "roots", "vllm_images", "built_images")

    target: Version | None
    # the release of a launch with neither a target nor a pin (None: the newest known); the
    # language server's configured ``target-version``, which a file's pin beats
    fallback: Version | None
    select: frozenset[str] | None  # codes or prefixes; None = the default set
    extend_select: frozenset[str]
    ignore: frozenset[str]
    # path -> codes or prefixes ignored in that file (``per-file-ignores`` of the configuration)
    per_file_ignores: Callable[[str], frozenset[str]] | None
    # Pre-flight facts the files do not hold (VL802/VL803): GPU memory from ``gpu-memory-gib``,
    # and local config.json files from ``--model-config [MODEL=]PATH`` (key "" = every model).
    gpu_memory_gib: float | None
    model_configs: dict[str, str]
    # The real paths given on the command line: a ``--config FILE`` a launch names is read
    # only when its real path is one of them or inside one (None: no limit, for library use).
    roots: tuple[str, ...] | None
    # ``vllm-images`` of the configuration: glob patterns of images whose entrypoint is vLLM's
    vllm_images: tuple[str, ...]
    # Dockerfiles of the run whose final stage runs a vLLM image (real path -> that image), see
    # :mod:`linter.built_images`: ``docker build -t NAME`` of one makes ``docker run NAME`` vLLM's
    built_images: dict[str, str]

    def __init__(self, target=None, fallback=None, select=None, extend_select=frozenset(), ignore=frozenset(), per_file_ignores=None, gpu_memory_gib=None, model_configs=None, roots=None, vllm_images=(), built_images=None):
        self.target = target
        self.fallback = fallback
        self.select = select
        self.extend_select = extend_select
        self.ignore = ignore
        self.per_file_ignores = per_file_ignores
        self.gpu_memory_gib = gpu_memory_gib
        self.model_configs = ({} if model_configs is None else model_configs)
        self.roots = roots
        self.vllm_images = vllm_images
        self.built_images = ({} if built_images is None else built_images)

    def enabled(self, code: str, default: bool) -> bool:
        """``--select``/``--extend-select``/``--ignore`` keep ``code`` (``default``: it is in the default set)."""
        if matches(code, self.ignore):
            return False
        if self.select is not None:
            return matches(code, self.select) or matches(code, self.extend_select)
        return default or matches(code, self.extend_select)

    def fails(self, d: Diagnostic) -> bool:
        """Whether ``d`` fails the run (exit code 1): errors and warnings do; a note (info) only
        when its code is selected by name or by a prefix narrower than every rule's (``--select``
        / ``--extend-select``, or the configuration's), not by ``ALL`` nor ``VL``."""
        if d.severity is not Severity.INFO:
            return True
        chosen = (self.select or frozenset()) | self.extend_select
        return any(c not in ("ALL", "VL") and d.code.startswith(c) for c in chosen)

    def ignored_in(self, path: str) -> frozenset[str]:
        """The codes (or prefixes) per-file ignores silence in ``path``."""
        return self.per_file_ignores(path) if self.per_file_ignores is not None else frozenset()


class LaunchReport(Record):
    __slots__ = ("launch", "version", "pin", "reason")

    launch: Launch
    version: Version
    pin: str | None
    reason: str  # "target", "pin", "newest", "configured", "pin-outside-range"

    def __init__(self, launch, version, pin, reason):
        self.launch = launch
        self.version = version
        self.pin = pin
        self.reason = reason


class FileResult(Record):
    __slots__ = ("path", "diagnostics", "launches", "src", "named_configs", "standalone", "no_launch")

    path: str
    diagnostics: list[Diagnostic]
    launches: list[LaunchReport]
    src: SourceFile | None
    named_configs: list[tuple[str, Version]]  # ``--config FILE`` targets found
    # the file holds launches of its own (a manifest, a script), not only a vLLM config file's settings
    standalone: bool
    # the file mentions vLLM (or LMCache) and can start a server, but no launch was found in it:
    # the summary says so rather than "All checks passed", and ``--show-launches`` lists it
    no_launch: bool

    def __init__(self, path, diagnostics=None, launches=None, src=None, named_configs=None, standalone=False, no_launch=False):
        self.path = path
        self.diagnostics = ([] if diagnostics is None else diagnostics)
        self.launches = ([] if launches is None else launches)
        self.src = src
        self.named_configs = ([] if named_configs is None else named_configs)
        self.standalone = standalone
        self.no_launch = no_launch


def extractor(kind: str):
    """The source module that reads files of ``kind`` (its row in :data:`linter.kinds.KINDS`), or None."""
    return kinds.reader(kind)


def extract(src: SourceFile, kind: str) -> Extraction:
    module = extractor(kind)
    if module is None:
        return Extraction()
    out = None
    if kind == "dockerfile":  # read already to find the images the tree builds (linter.built_images)
        from linter.built_images import take
        from linter.sources.commands import vllm_image_patterns

        out = take(src, vllm_image_patterns())
    if out is None:
        out = module.extract(src)
    if out.written:  # data files its scripts write from heredocs (a --config file, a manifest)
        from linter.sources import written_files

        written_files.read(src, out)
    return out


def input_problem(code: str, path: str, message: str, settings: Settings, span: Span = Span(0, 0)) -> FileResult:
    """The result of a file that could not be read (VL002, VL003): its rule's diagnostic, unless
    ``--select``/``--ignore`` or the file's per-file ignores leave that code out."""
    from rules.input_problem import RULES

    rule = RULES[code]
    if not settings.enabled(code, rule.default) or matches(code, settings.ignored_in(path)):
        return FileResult(path)
    return FileResult(path, [rule.stamp(path, Finding(span, message))])


def _pin_version(hint: VersionHint | None) -> Version | None:
    if hint is None:
        return None
    text = hint.version.strip()
    from linter.sources.commands import version_of_tag

    v = version_of_tag(text)
    if v is None:
        return None
    try:
        return Version(v)
    except InvalidVersion:
        return None


def choose_release(launch: Launch, pins: list[VersionHint], settings: Settings, inherited: Version | None = None) -> tuple[Version, Version | None, str]:
    """(release to check against, pinned version, reason).

    ``inherited``: for a config file named by ``--config FILE``, the release of the
    launch naming it; ``--target-version`` still wins over it, and it over any pin.
    """
    # An LMCache server's image tag is LMCache's release, not vLLM's.
    own = launch.version_hint if launch.program == "vllm" else None
    hint = own or (pins[0] if pins else None)
    pin = _pin_version(hint)
    if settings.target is not None:
        return settings.target, pin, "target-history" if knowledge.is_names_only(settings.target) else "target"
    if inherited is not None:
        return inherited, pin, "inherited"
    if pin is not None:
        known = knowledge.nearest_known(pin)
        if known is not None:
            return known, pin, "pin"
        hist = knowledge.history_release_for(pin)
        if hist is not None:
            return hist, pin, "pin-history"
        return knowledge.newest(), pin, "pin-outside-range"
    if settings.fallback is not None:
        return settings.fallback, None, "configured"
    return knowledge.newest(), None, "newest"


def lint_source(src: SourceFile, kind: str, settings: Settings, rules: dict, *, inherited: Version | None = None,
                reader: Callable[[SourceFile, str], Extraction] = extract) -> FileResult:
    """Lint one decoded file.  ``inherited``: see :func:`choose_release` (named config files only).
    ``reader``: what gives the file's extraction (:func:`extract`, or the extraction cache's
    front of it, :func:`linter.batch.cached_extract`)."""
    from rules.input_problem import parse_error, unreadable

    result = FileResult(src.path, src=src)
    from linter.sources.commands import vllm_images

    with vllm_images(settings.vllm_images, settings.built_images):
        extraction = reader(src, kind)
    if settings.enabled(parse_error.code, parse_error.default):
        result.diagnostics.extend(parse_error.stamp(src.path, Finding(p.span, p.message)) for p in extraction.problems)
    # The knowledge base sees launches only now: a config candidate is kept when
    # its keys really are vLLM options of the release it is checked against.
    contexts: list[LaunchContext] = []
    for launch in extraction.launches:
        if extraction.pins and launch.version_hint is None and launch.program == "vllm":
            launch.version_hint = nearest_pin(launch.span.start, extraction.pins)
        version, pin, reason = choose_release(launch, extraction.pins, settings, inherited)
        release = knowledge.release(version)
        named = None
        # a config file the file writes itself (a heredoc) is linted there, as its own launch
        if launch.style == "argv" and launch.config is None:
            named, outside = config_path(launch, src.path, settings.roots)
            if outside is not None and settings.enabled(unreadable.code, unreadable.default):
                result.diagnostics.append(unreadable.stamp(src.path, Finding(
                    outside.span,
                    f"`--config {outside.value}` names a file outside the linted folder; not read (name it on the command line to check it)",
                )))
        if named is not None:
            result.named_configs.append((named, version))
        config = launch.config.settings if launch.config is not None else _config_settings(named)
        parsed = argmodel.parse(launch, release, config=config)
        candidate = next((n for n in launch.notes if n.startswith("candidate")), None)
        if candidate is not None and not _looks_like_vllm_config(parsed, 2 if candidate == "candidate" else 1):
            continue
        if not launch.strong and launch.style == "argv" and not _weak_argv_holds(parsed):
            continue  # weak evidence that the argument model does not confirm: not vLLM's
        if launch.entrypoint == "chart" and not parsed.options and not launch.env:
            continue  # a chart entry that names only the model: nothing of vLLM's to check
        pin_known = knowledge.nearest_known(pin) if pin is not None else None
        ctx = LaunchContext(src, parsed, pin, pin_known, settings.target is not None, settings=settings)
        contexts.append(ctx)
        result.launches.append(LaunchReport(launch, version, str(pin) if pin else None, reason))
        if launch.program != "vllm":
            continue
        for rule in _selected(rules, settings, "launch", version):
            found = rule.run(ctx)
            if not launch.strong:  # weak evidence: report, never edit
                found = (replace(d, fix=None) if d.fix is not None else d for d in found)
            result.diagnostics.extend(found)
    fctx = FileContext(src, tuple(contexts))
    for rule in _selected(rules, settings, "file"):
        result.diagnostics.extend(rule.run(fctx))
    if not result.launches and kinds.holds_launches(kind):
        from linter.discovery import might_launch

        result.no_launch = might_launch(src.text.encode("utf-8", "surrogatepass"))
    from linter.suppression import finish  # per-file ignores, inline suppressions, then VL901

    # one finding per place: launches that share text (compose services merging one `<<: *anchor`)
    # find the same thing in it once
    seen_at: set[tuple[str, int, int, str]] = set()
    unique = []
    for d in result.diagnostics:
        at = (d.code, d.span.start, d.span.end, d.message)
        if at not in seen_at:
            seen_at.add(at)
            unique.append(d)
    result.diagnostics = finish(src, kind, unique, settings, extraction.comments, extraction.directives)
    if not any(rep.launch.strong for rep in result.launches):
        # No strong launch: --fix changes no byte, except to remove a `# vllm-lint: ignore`
        # directive that silences nothing (VL901): that comment is vllm-lint's own.
        result.diagnostics = [replace(d, fix=None) if d.fix is not None and d.code != "VL901" else d for d in result.diagnostics]
    result.diagnostics.sort(key=lambda d: (d.span.start, d.code))
    result.standalone = any(rep.launch.kind != "vllm-config" for rep in result.launches)
    return result


# the rules and settings of the run (held, so that no other pair takes their ids) and, per scope
# and release, the rules of that scope the settings select that apply to the release
_SELECTED: list = [None, None, 0, {}]


def _selected(rules: dict, settings: Settings, scope: str, version: Version | None = None) -> list:
    """The rules of ``rules`` of ``scope`` that ``settings`` select (and, for launch rules,
    that apply to ``version``), in their order: worked out once per run and release, not for
    every launch (a selection's matching and a rule's release range cost more than most checks)."""
    memo = _SELECTED
    if memo[0] is not rules or memo[1] is not settings or memo[2] != len(rules):
        memo[:] = [rules, settings, len(rules), {}]
    key = (scope, version)
    got = memo[3].get(key)
    if got is None:
        got = memo[3][key] = [
            rule for rule in rules.values()
            if rule.scope == scope and settings.enabled(rule.code, rule.default) and (version is None or rule.applies_to(version))
        ]
    return got


def config_candidates(launch: Launch, path: str, name: str) -> list[str]:
    """Where the file ``--config NAME`` of ``launch`` (in the file ``path``) may be, in order:
    a relative name next to the launch's file, then as given; an absolute name in a container
    first on the host file a mount of the launch shows there (compose
    ``./cfg.yaml:/etc/vllm/cfg.yaml``, or a folder holding it), then as given."""
    if not os.path.isabs(name):
        return [os.path.join(os.path.dirname(path), name), name]
    out: list[str] = []
    for target, source in launch.mounts:
        target = target.rstrip("/") or "/"
        if name == target:
            rest = ""
        elif name.startswith(target.rstrip("/") + "/"):
            rest = name[len(target.rstrip("/")) :]
        else:
            continue
        host = os.path.join(os.path.dirname(path), source) + rest
        if host not in out:
            out.append(host)
    return out + [name]


def config_path(launch: Launch, path: str, roots: tuple[str, ...] | None = None) -> tuple[str | None, Token | None]:
    """(the file that ``--config FILE`` names, when it can be found next to the launch's file,
    or None; the ``FILE`` token when that file exists but its real path lies outside ``roots``).

    A file outside the paths given is never read: a launch in a pull request must not be
    able to make vllm-lint print a file of the machine it runs on (``--config ../secret.yml``,
    an absolute path, an in-tree symbolic link to anywhere)."""
    args = launch.args
    for i, tok in enumerate(args[:-1]):
        if tok.value != "--config" or tok.is_opaque:
            continue
        target = args[i + 1]
        if target.is_opaque or not target.value.endswith((".yaml", ".yml")):
            return None, None
        for c in config_candidates(launch, path, target.value):
            if os.path.isfile(c):
                if roots is not None and not within(c, roots):
                    return None, target
                from linter.discovery import tidy_path

                return tidy_path(c), None  # `deploy/./x.yaml` is printed `deploy/x.yaml`
        return None, None
    return None, None


def linted_roots(paths: Iterable[str]) -> tuple[str, ...]:
    """The folders whose files a launch's ``--config FILE`` may read, from the paths given.

    A folder given is a root as it is.  A file given (a pre-commit hook passes changed
    files one by one) stands for the working folder when it lies inside it, so a
    ``--config serve.yaml`` beside it is still read; otherwise for its own folder.
    Standard input (``-``) reads under the working folder.
    """
    cwd = os.path.realpath(os.curdir)
    out: list[str] = []
    for p in paths:
        real = os.path.realpath(os.curdir if p == "-" else p)
        if not os.path.isdir(real):
            real = cwd if within(real, (cwd,)) else os.path.dirname(real)
        if real not in out:
            out.append(real)
    return tuple(out)


def within(path: str, roots: Iterable[str]) -> bool:
    """Whether the real path of ``path`` is one of ``roots`` or inside one of them (symbolic links resolved)."""
    try:
        real = os.path.realpath(path)
        for root in roots:
            top = os.path.realpath(root)
            if real == top or os.path.commonpath([real, top]) == top:
                return True
    except (OSError, ValueError):  # a link loop, a path on another drive
        return False
    return False


# real path -> settings of each config file named by ``--config FILE``, while a run
# holds it (:func:`config_files_read_once`); None outside a run
_NAMED_SETTINGS: dict[str, object] | None = None


@contextmanager
def config_files_read_once():
    """Within this block a config file named by ``--config FILE`` is read once, however
    many launches name it (:mod:`linter.project` holds it around a run)."""
    global _NAMED_SETTINGS
    outer = _NAMED_SETTINGS
    if outer is None:
        _NAMED_SETTINGS = {}
    try:
        yield
    finally:
        if outer is None:
            _NAMED_SETTINGS = None


def _config_settings(found: str | None):
    """The settings of the config file a launch names, or None (not named, not found, unreadable)."""
    if found is None:
        return None
    memo = _NAMED_SETTINGS
    key = os.path.realpath(found) if memo is not None else ""
    if memo is not None and key in memo:
        return memo[key]
    out = None
    try:
        data = read_file(found)
        cfg = SourceFile.from_bytes(found, data) if len(data) <= MAX_FILE_BYTES else None
    except (OSError, DecodeError):
        cfg = None
    if cfg is not None:
        from linter.sources import vllm_config

        launches = vllm_config.extract(cfg).launches
        out = launches[0].settings if launches else None
    if memo is not None:
        memo[key] = out
    return out


def _weak_argv_holds(parsed: argmodel.ParsedLaunch) -> bool:
    """A weak argv launch (an image merely named like vLLM's) is vLLM's when its options are.

    Most of its options are real options of the release and none is foreign (a fork's or a
    wrapper's own flag says the entrypoint is not plain vLLM).  An unknown flag that is a near
    miss of one of the release's options (``--max-num-chunked-tokens``) is a typo worth
    reporting, as in a config candidate (:func:`_looks_like_vllm_config`), not a foreign flag.
    """
    import difflib

    target = parsed.release.version
    known = foreign = 0
    misses: list[str] = []
    for o in parsed.options:
        if o.spec is not None or o.match != "unknown" or o.name.opaque:
            known += 1
        elif knowledge.last_accepted_before(o.normalized, target) is not None:
            known += 1  # an option of an older release (reported as removed), still vLLM's
        else:
            misses.append(o.normalized)
    names = parsed.release.option_strings
    foreign = sum(1 for m in misses if not difflib.get_close_matches(m, names, n=1, cutoff=0.85))
    return foreign == 0 and known * 2 >= len(parsed.options)


def _looks_like_vllm_config(parsed: argmodel.ParsedLaunch, least: int = 2) -> bool:
    """A weak config candidate (keys that look like option names) is vLLM's when most of its
    keys are options of the release and none is foreign: an unknown key must be a near miss
    of an option (a typo worth reporting), not another program's key (``shm_size``, ``backends``).
    ``least``: the options it must hold (1 for a mapping under a vLLM-named key)."""
    import difflib

    release = parsed.release

    def vllms(o: argmodel.ParsedOption) -> bool:  # an option of this release, or of an earlier or later one
        if o.spec is not None and o.match in ("exact", "normalized"):
            return True
        return o.spec is None and o.match == "unknown" and (
            knowledge.last_accepted_before(o.normalized, release.version) is not None
            or knowledge.first_accepted_after(o.normalized, release.version) is not None)

    known = sum(1 for o in parsed.options if vllms(o))
    if known < least or known * 2 <= len(parsed.options):
        return False
    names = release.option_strings
    for o in parsed.options:
        if o.spec is None and o.match not in ("ambiguous", "abbrev") and not vllms(o):
            if not difflib.get_close_matches(o.normalized, names, n=1, cutoff=0.85):
                return False
    return True


def lint_file(path: str, kind: str, settings: Settings, rules: dict, data: bytes | None = None, *, prefilter: bool = False,
              inherited: Version | None = None, reader: Callable[[SourceFile, str], Extraction] = extract) -> FileResult:
    """Read and lint one file; reading problems become VL002/VL003 diagnostics.

    ``prefilter``: skip files whose bytes cannot hold a launch (walked files;
    a file named on the command line is always read in full).  ``inherited``:
    see :func:`choose_release`.
    """
    if data is None:
        try:
            size = os.path.getsize(path)
            if size > MAX_FILE_BYTES:
                return input_problem("VL003", path, f"file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit; skipped", settings)
            data = read_file(path)
            if len(data) > MAX_FILE_BYTES:  # grew since its size was taken
                return input_problem("VL003", path, f"file is over the {MAX_FILE_BYTES}-byte limit; skipped", settings)
        except OSError as exc:
            return input_problem("VL003", path, f"cannot read file: {exc.strerror or exc}", settings)
    if prefilter and kinds.prefiltered(kind):
        from linter.discovery import image_needles, might_launch

        if not might_launch(data, image_needles(settings.vllm_images, bool(settings.built_images))):
            return FileResult(path)
    try:
        src = SourceFile.from_bytes(path, data)
    except DecodeError as exc:
        return input_problem("VL002", path, str(exc), settings)
    return lint_source(src, kind, settings, rules, inherited=inherited, reader=reader)
