"""Configuration: ``[tool.vllm-lint]`` in ``pyproject.toml``, or ``vllm-lint.toml`` / ``.vllm-lint.toml``.

Resolved per file, as ruff does: the file that applies to a linted file is the
nearest one in the folders above it (:class:`Resolver`; the walk itself uses the one
above the working folder, and each walked file is then also held to its own file's
``exclude``/``include``).  In one folder ``.vllm-lint.toml`` beats ``vllm-lint.toml``, which beats
``pyproject.toml`` (as ruff orders its files); a ``pyproject.toml`` without a
``[tool.vllm-lint]`` table does not count.  ``--config FILE`` names the file
instead (a ``pyproject.toml`` is read at ``[tool.vllm-lint]``, any other file
at its top level).

Keys::

    target-version = "0.32"
    select = ["VL1", "VL2"]          # codes or prefixes; replaces the default set
    extend-select = ["VL302"]        # added to it
    ignore = ["VL205"]
    per-file-ignores = { "legacy/*.sh" = ["VL102"], "*.md" = ["VL1"] }
    exclude = ["vendor"]             # replaces the default excludes
    extend-exclude = ["charts/old"]
    include = ["deploy/**"]          # walked files must also match one of these
    respect-gitignore = true
    gpu-memory-gib = 80              # memory of one GPU, for the KV cache estimate (VL802/VL803)
    extend = "../pyproject.toml"     # start from that file's settings (path relative to this file)

``extend`` (as ruff's): the named file is read first (it may extend another; a
cycle is an error) and this file's keys replace its values.  Every value remembers
the file it came from (:attr:`Config.sources`, printed by ``--show-settings``).
    vllm-images = ["registry.example.com/team/serve*"]   # images whose entrypoint is vLLM's (globs)

``per-file-ignores`` patterns are gitignore-style and match paths relative to
the configuration file's folder.  Command-line options override the file:
``--target-version`` replaces it, ``--select`` replaces ``select`` and drops
the file's ``extend-select`` and ``ignore`` (ruff's order: a later selection
starts afresh), ``--ignore`` and ``--extend-select`` add to the file's.

An unknown key, a value of the wrong type, an unknown or empty rule code, a
pattern gitignore syntax refuses or a number that is not finite and positive is
a :class:`ConfigError` naming the key and the file (exit code 2); so is a file
that is not a regular file, over :data:`MAX_CONFIG_BYTES`, not UTF-8 or nested
too deeply for the TOML parser.  Files are read without blocking (a named pipe
in the place of one is refused, never waited on).
"""

from __future__ import annotations

import math
import os
import sys


from linter.records import Frozen, Record, _set, replace
from linter.source_file import NotRegularFile, read_file

CONFIG_NAMES = (".vllm-lint.toml", "vllm-lint.toml")
MAX_CONFIG_BYTES = 1024 * 1024  # a pyproject.toml of a big monorepo is a few tens of KB
MAX_GPU_GIB = 1 << 20  # 1 PiB: above any one GPU's memory for a long while
SECTION = "vllm-lint"

_STR = "a string"
_BOOL = "true or false"
_LIST = "a list of strings"
_TABLE = "a table of pattern = [codes]"
_NUM = "a positive number"
_PATTERN_KEYS = ("exclude", "extend-exclude", "include")
KEYS: dict[str, str] = {
    "target-version": _STR,
    "select": _LIST,
    "extend-select": _LIST,
    "ignore": _LIST,
    "per-file-ignores": _TABLE,
    "exclude": _LIST,
    "extend-exclude": _LIST,
    "include": _LIST,
    "respect-gitignore": _BOOL,
    "gpu-memory-gib": _NUM,
    "extend": _STR,
    "vllm-images": _LIST,
}
_CODE_KEYS = ("select", "extend-select", "ignore")


class ConfigError(Exception):
    """The configuration file cannot be used; the message names the file and the key."""


class Config(Record):
    __slots__ = ("path", "root", "target_version", "select", "extend_select", "ignore", "per_file_ignores", "exclude", "extend_exclude", "include", "respect_gitignore", "gpu_memory_gib", "extend", "sources", "per_file_root", "extends", "vllm_images")

    path: str | None  # the file it was read from (None: no file)
    root: str  # its folder: per-file-ignores patterns are relative to it
    target_version: str | None
    select: list[str] | None
    extend_select: list[str]
    ignore: list[str]
    per_file_ignores: dict[str, list[str]]
    exclude: list[str] | None
    extend_exclude: list[str]
    include: list[str] | None
    respect_gitignore: bool
    gpu_memory_gib: float | None
    extend: str | None
    # key (as written in the file) -> the configuration file that set it (absent: the default)
    sources: dict[str, str]
    per_file_root: str | None  # the folder of the file that set per-file-ignores (default: root)
    extends: list[str]  # the files ``extend`` read, nearest first
    vllm_images: list[str]

    def __init__(self, path=None, root=None, target_version=None, select=None, extend_select=None, ignore=None, per_file_ignores=None, exclude=None, extend_exclude=None, include=None, respect_gitignore=True, gpu_memory_gib=None, extend=None, sources=None, per_file_root=None, extends=None, vllm_images=None):
        self.path = path
        self.root = (os.getcwd() if root is None else root)
        self.target_version = target_version
        self.select = select
        self.extend_select = ([] if extend_select is None else extend_select)
        self.ignore = ([] if ignore is None else ignore)
        self.per_file_ignores = ({} if per_file_ignores is None else per_file_ignores)
        self.exclude = exclude
        self.extend_exclude = ([] if extend_exclude is None else extend_exclude)
        self.include = include
        self.respect_gitignore = respect_gitignore
        self.gpu_memory_gib = gpu_memory_gib
        self.extend = extend
        self.sources = ({} if sources is None else sources)
        self.per_file_root = per_file_root
        self.extends = ([] if extends is None else extends)
        self.vllm_images = ([] if vllm_images is None else vllm_images)

    def per_file_matcher(self):
        """``path -> codes`` for :class:`linter.engine.Settings.per_file_ignores`, or None when empty."""
        if not self.per_file_ignores:
            return None
        from linter.discovery import gitignore_spec  # only when the configuration has per-file ignores

        specs = [(gitignore_spec([pattern]), frozenset(codes)) for pattern, codes in self.per_file_ignores.items()]
        root = self.per_file_root or self.root

        def codes_for(path: str) -> frozenset[str]:
            absolute = os.path.abspath(path)
            rel = os.path.relpath(absolute, root).replace(os.sep, "/")
            if rel.startswith("../"):
                rel = absolute.replace(os.sep, "/").lstrip("/")
            out: set[str] = set()
            for spec, codes in specs:
                if spec.match_file(rel):
                    out |= codes
            return frozenset(out)

        return codes_for


def _tomllib():
    """The TOML reader, imported when a configuration file is read (not on every start)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    return tomllib


def _read(path: str) -> dict:
    """The TOML table of ``path``: a regular file read without blocking, within bounds."""

    try:
        data = read_file(path, MAX_CONFIG_BYTES)
    except NotRegularFile:
        raise ConfigError(f"{path}: cannot read the configuration: not a regular file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the configuration: {exc.strerror or exc}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: the configuration is over {MAX_CONFIG_BYTES} bytes; not read")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None
    tomllib = _tomllib()
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deeply to read") from None


def _has_section(path: str) -> bool:
    try:
        data = _read(path)
    except ConfigError:
        return True  # let load() report the problem
    return isinstance(data.get("tool"), dict) and SECTION in data["tool"]


def find(start: str | None = None) -> str | None:
    """The configuration file that applies in ``start`` (default: the working folder), or None."""
    folder = os.path.abspath(start or os.getcwd())
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return candidate
        pyproject = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(pyproject) and _has_section(pyproject):
            return pyproject
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _known_codes() -> list[str]:
    from rules._lib.base import rule_codes

    return rule_codes()


def _check_codes(values: list[str], key: str, where: str, known: list[str]) -> list[str]:
    out = []
    for value in values:
        code = value.strip().upper()
        if not code:  # a prefix of every code that selects none of them
            raise ConfigError(f"{where}: `{key}` holds an empty code; write rule codes or prefixes (`VL1`), or `ALL`")
        if code != "ALL" and not any(k.startswith(code) for k in known):
            raise ConfigError(f"{where}: `{key}` names `{value.strip()}`, which is neither a rule code nor a prefix of one (see `vllm-lint --list-rules`)")
        out.append(code)
    return out


# an image reference (``[registry[:port]/]path[:tag][@digest]``) with glob characters
_IMAGE_PATTERN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:@*?[]!")


def _check_image_pattern(value: str, where: str) -> str:
    pattern = value.strip()
    bad = sorted({c for c in pattern if c not in _IMAGE_PATTERN_CHARS})
    if not pattern or bad or pattern.strip("*?/") == "":
        why = f"holds {', '.join(repr(c) for c in bad)}" if bad else "matches every image" if pattern else "is empty"
        raise ConfigError(f"{where}: `vllm-images` names {value!r}, which {why}; give image names or glob patterns such as \"registry.example.com/team/serve*\"")
    return pattern


def _typed(value, kind: str, key: str, where: str):
    def bad():
        got = type(value).__name__
        return ConfigError(f"{where}: `{key}` must be {kind}, not {got} ({value!r})")

    if kind == _STR:
        if not isinstance(value, str):
            raise bad()
        return value
    if kind == _BOOL:
        if not isinstance(value, bool):
            raise bad()
        return value
    if kind == _LIST:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise bad()
        return list(value)
    if kind == _NUM:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 < value <= MAX_GPU_GIB:
            raise bad()
        return float(value)
    if kind == _TABLE:
        if not isinstance(value, dict):
            raise bad()
        for pattern, codes in value.items():
            if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                raise ConfigError(f"{where}: `{key}.\"{pattern}\"` must be {_LIST}, not {type(codes).__name__} ({codes!r})")
        return dict(value)
    raise AssertionError(kind)


def _check_patterns(patterns, key: str, where: str) -> None:
    """Every pattern compiles as gitignore syntax (else discovery would fail on it later)."""
    from linter.discovery import gitignore_spec  # only when the configuration has patterns

    for pattern in patterns:
        try:
            spec = gitignore_spec([pattern])
            spec.match_file("a")
        except Exception as exc:  # pathspec raises its own errors and re.error
            raise ConfigError(f"{where}: `{key}` holds {pattern!r}, which is not a gitignore-style pattern ({exc})") from None


def load(path: str, _chain: tuple[str, ...] = ()) -> Config:
    """Read and check one configuration file (and the files it ``extend``s)."""
    absolute = os.path.abspath(path)
    if absolute in _chain:
        cycle = " -> ".join([*_chain, absolute])
        raise ConfigError(f"{path}: `extend` makes a cycle: {cycle}")
    data = _read(path)
    if os.path.basename(path) == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get(SECTION, {}) if isinstance(tool, dict) else {}
        where = f"{path} [tool.{SECTION}]"
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: must be a table")
    else:
        table = data
        where = path
    folder = os.path.dirname(absolute)
    cfg = Config(path=absolute, root=folder)
    if "extend" in table:
        base_path = _typed(table["extend"], _STR, "extend", where)
        base_path = os.path.join(folder, os.path.expanduser(base_path))
        if not os.path.isfile(base_path):
            raise ConfigError(f"{where}: `extend` names {table['extend']!r}, which is not a file")
        base = load(base_path, (*_chain, absolute))
        cfg = replace(base, path=absolute, root=folder, sources=dict(base.sources), per_file_root=base.per_file_root or base.root, extends=[os.path.abspath(base_path), *base.extends])
    known: list[str] | None = None
    for key, value in table.items():
        kind = KEYS.get(key)
        if kind is None:
            hint = ""
            if key.replace("_", "-") in KEYS:
                hint = f" (did you mean `{key.replace('_', '-')}`?)"
            raise ConfigError(f"{where}: unknown key `{key}`{hint}; known keys: {', '.join(KEYS)}")
        value = _typed(value, kind, key, where)
        if key in _CODE_KEYS:
            known = known or _known_codes()
            value = _check_codes(value, key, where, known)
        if key in _PATTERN_KEYS:
            _check_patterns(value, key, where)
        if key == "vllm-images":
            value = [_check_image_pattern(v, where) for v in value]
        if key == "per-file-ignores":
            _check_patterns(value, key, where)
            known = known or _known_codes()
            value = {pattern: _check_codes(codes, f"per-file-ignores.\"{pattern}\"", where, known) for pattern, codes in value.items()}
            cfg.per_file_root = folder
        setattr(cfg, key.replace("-", "_"), value)
        cfg.sources[key] = absolute
    return cfg


def check_codes(values, where: str) -> list[str]:
    """Rule codes or prefixes given on the command line (``--select VL1,VL205``), upper-cased;
    a value that is neither is a :class:`ConfigError` naming ``where`` (the option)."""
    out: list[str] = []
    given = [code for value in values for code in value.split(",") if code.strip()]
    if given:  # the rules are imported only when a code is to be checked (a warm run never imports them)
        known = _known_codes()
        for code in given:
            out.extend(_check_codes([code], where, "command line", known))
    return out


def resolve(explicit: str | None = None, start: str | None = None) -> Config:
    """The configuration in force: ``explicit`` (``--config``), else the nearest file found, else defaults."""
    if explicit is not None:
        if not os.path.isfile(explicit):
            raise ConfigError(f"{explicit}: no such configuration file")
        return load(explicit)
    found = find(start)
    return load(found) if found else Config()


# ---------------------------------------------------------------------------
# per file: the nearest configuration above each file, and the settings it makes


class Overrides(Frozen):
    """What the command line says over every configuration file (None / empty: nothing).

    ``target`` is a release already resolved (:func:`linter.knowledge.resolve_target`);
    ``select`` replaces the file's selection and drops its ``extend-select`` and ``ignore``
    (ruff's order: a later selection starts afresh); ``extend_select``/``ignore`` add to them.
    """

    __slots__ = ("target", "select", "extend_select", "ignore", "model_configs", "roots", "pins_beat_configured")

    target: object
    select: frozenset[str] | None
    extend_select: frozenset[str]
    ignore: frozenset[str]
    model_configs: dict
    roots: tuple[str, ...] | None  # what a launch's ``--config FILE`` may read (:attr:`linter.engine.Settings.roots`)
    # the language server: the configuration's ``target-version`` is only the release of a launch
    # without a pin (:attr:`linter.engine.Settings.fallback`); the command line: it beats pins
    pins_beat_configured: bool

    def __init__(self, target=None, select=None, extend_select=frozenset(), ignore=frozenset(), model_configs=None, roots=None, pins_beat_configured=False):
        _set(self, "target", target)
        _set(self, "select", select)
        _set(self, "extend_select", extend_select)
        _set(self, "ignore", ignore)
        _set(self, "model_configs", ({} if model_configs is None else model_configs))
        _set(self, "roots", roots)
        _set(self, "pins_beat_configured", pins_beat_configured)


def target_of(cfg: Config):
    """The release ``target-version`` of ``cfg`` names, or None; an unknown one is a ConfigError."""
    if cfg.target_version is None:
        return None
    from linter import knowledge

    try:
        return knowledge.resolve_target(cfg.target_version)
    except knowledge.UnknownRelease as exc:
        where = cfg.sources.get("target-version", cfg.path)
        raise ConfigError(f"{where}: `target-version`: {exc}") from None


def settings(cfg: Config, overrides: Overrides = Overrides()):
    """The :class:`linter.engine.Settings` that ``cfg`` and what is said over it make: the command
    line's options, or the language server's client options (:func:`client_overrides`).  The one
    builder of both: defaults < configuration file < overrides."""
    from linter.engine import Settings

    fresh = overrides.select is not None
    target = fallback = None
    if overrides.target is not None:
        target = overrides.target  # the configuration's target-version is not even read
    elif overrides.pins_beat_configured:
        fallback = target_of(cfg)
    else:
        target = target_of(cfg)
    return Settings(
        target=target,
        fallback=fallback,
        select=overrides.select if fresh else (frozenset(cfg.select) if cfg.select is not None else None),
        extend_select=overrides.extend_select | (frozenset() if fresh else frozenset(cfg.extend_select)),
        ignore=overrides.ignore | (frozenset() if fresh else frozenset(cfg.ignore)),
        per_file_ignores=cfg.per_file_matcher(),
        gpu_memory_gib=cfg.gpu_memory_gib,
        vllm_images=tuple(cfg.vllm_images),
        model_configs=dict(overrides.model_configs),
        roots=overrides.roots,
    )


def client_overrides(options) -> tuple[Overrides, list[str]]:
    """The language server's client options (``initializationOptions``, or the ``vllm-lint``
    section of ``workspace/didChangeConfiguration``) as the layer over the configuration that the
    command line's options are: ``targetVersion`` (checks every launch, as ``--target-version``),
    ``select``, ``extendSelect``, ``ignore`` (a list, or ``"VL1,VL2"`` as the command line takes
    them).  The configuration's ``target-version`` stays below a file's pin.  A value the server
    cannot use is left out and described in the problems (the editor's log), never fatal."""
    problems: list[str] = []
    target = None
    if options.get("targetVersion"):
        from linter import knowledge

        try:
            target = knowledge.resolve_target(str(options["targetVersion"]))
        except knowledge.UnknownRelease as exc:
            problems.append(f"targetVersion: {exc}")

    def codes(key: str) -> frozenset[str]:
        value = options.get(key) or ()
        items = value.split(",") if isinstance(value, str) else value if isinstance(value, (list, tuple)) else [value]
        given = [str(c).strip() for c in items if str(c).strip()]
        if not given:
            return frozenset()
        known, out = _known_codes(), set()
        for code in given:
            try:
                out.update(_check_codes([code], key, "client settings", known))
            except ConfigError as exc:
                problems.append(str(exc))
        return frozenset(out)

    select = codes("select")
    overrides = Overrides(target=target, select=select or None, extend_select=codes("extendSelect"),
                          ignore=codes("ignore"), pins_beat_configured=True)
    return overrides, problems


class Resolver:
    """The configuration and settings of each file: ``--config FILE`` for every file when given,
    else the nearest configuration file above the file (each folder looked up once), else the
    defaults.  Settings are made once per configuration, so files under one file share them."""

    def __init__(self, explicit: str | None = None, overrides: Overrides = Overrides()):
        self.overrides = overrides
        self.explicit = resolve(explicit) if explicit is not None else None
        self._found: dict[str, str | None] = {}
        self._loaded: dict[str | None, Config] = {}
        self._settings: dict[str | None, object] = {}
        self._by_folder: dict[str, Config] = {}
        self._listed: dict[str, frozenset[str]] = {}  # folder -> its entry names, as a walk listed them
        self._prefixes: dict[str, str] = {}  # the paths' prefix of a walked folder's files -> that folder

    def reload(self) -> None:
        """Forget what was read (``--watch``: a configuration file may have changed)."""
        if self.explicit is not None:
            self.explicit = resolve(self.explicit.path)
        self._found.clear()
        self._loaded.clear()
        self._settings.clear()
        self._by_folder.clear()
        self._listed.clear()
        self._prefixes.clear()

    def note_listing(self, folder: str, names: frozenset[str], prefix: str | None = None) -> None:
        """The entry names of the absolute ``folder`` (a walk listed it): a configuration file is
        looked for there only under a name it holds (a walk asks about a thousand folders);
        ``prefix``: what the paths of its files start with (:func:`linter.discovery.discover`),
        whose folder :meth:`config_for` then knows without making a path absolute."""
        self._listed[folder] = names
        if prefix is not None:
            self._prefixes[prefix] = folder

    def _find(self, folder: str) -> str | None:
        chain = []
        while folder not in self._found:
            chain.append(folder)
            hit = None
            names = self._listed.get(folder)
            for name in CONFIG_NAMES:
                if (names is None or name in names) and os.path.isfile(os.path.join(folder, name)):
                    hit = os.path.join(folder, name)
                    break
            if hit is None and (names is None or "pyproject.toml" in names):
                pyproject = os.path.join(folder, "pyproject.toml")
                if os.path.isfile(pyproject) and _has_section(pyproject):
                    hit = pyproject
            parent = os.path.dirname(folder)
            if hit is not None or parent == folder:
                self._found[folder] = hit
                break
            folder = parent
        answer = self._found[folder]
        for f in chain:
            self._found[f] = answer
        return answer

    def config_in(self, folder: str) -> Config:
        """The configuration that applies to the files of ``folder``."""
        if self.explicit is not None:
            return self.explicit
        return self._config_at(os.path.abspath(folder))

    def _config_at(self, folder: str) -> Config:
        """:meth:`config_in` of the absolute, normalised ``folder`` (no explicit configuration)."""
        found = self._find(folder)
        got = self._loaded.get(found)
        if got is None:
            got = self._loaded[found] = load(found) if found is not None else Config()
        return got

    def config_for(self, path: str) -> Config:
        """The configuration that applies to the file ``path`` (remembered by the folder part
        of ``path``: a walk asks for thousands of files of a few folders)."""
        cut = path.rfind(os.sep) if os.altsep is None else max(path.rfind(os.sep), path.rfind(os.altsep))
        folder, name = path[: cut + 1], path[cut + 1 :]  # the folder as written (a key only): no os.path.split
        if name in ("", ".", ".."):  # ``a/..`` is not in the folder ``a``
            return self.config_in(os.path.dirname(os.path.abspath(path)))
        hit = self._by_folder.get(folder)
        if hit is None:
            # (a walked folder as the walk made it absolute; abspath normalises: not again)
            hit = self.explicit if self.explicit is not None else self._config_at(self._prefixes.get(folder) or os.path.dirname(os.path.abspath(path)))
            self._by_folder[folder] = hit
        return hit

    def root(self) -> Config:
        """The configuration of the working folder (it decides the walk)."""
        return self.config_in(os.getcwd())

    def settings_for(self, path: str):
        cfg = self.config_for(path)
        got = self._settings.get(cfg.path)
        if got is None:
            got = self._settings[cfg.path] = settings(cfg, self.overrides)
        return got


def describe(path: str, resolver: Resolver) -> str:
    """What applies to the file ``path`` and where each value comes from (``--show-settings``):
    a configuration file, ``command line`` (the resolver's overrides), or ``default``."""
    cfg = resolver.config_for(path)
    o = resolver.overrides
    fresh = o.select is not None
    lines = [f"Settings for {path}", f"Configuration file: {cfg.path or '(none: defaults)'}"]
    if cfg.extends:
        lines.append(f"Extends: {' -> '.join(cfg.extends)}")
    lines.append("")
    for key in KEYS:
        if key == "extend":
            continue
        value = getattr(cfg, key.replace("-", "_"))
        where = cfg.sources.get(key, "default")
        if key == "target-version" and o.target is not None:
            value, where = str(o.target), "command line"
        elif key == "select" and fresh:
            value, where = sorted(o.select), "command line"
        elif key in ("extend-select", "ignore"):
            extra = o.extend_select if key == "extend-select" else o.ignore
            if fresh:
                value, where = sorted(extra), "command line (a --select drops the file's)"
            elif extra:
                value, where = [*value, *sorted(set(extra) - set(value))], f"{where} + command line"
        shown = _toml_value(value)
        if value is None:
            shown = {"target-version": "(unset: each file's pin, else the newest known release)", "select": "(unset: the default rules)",
                     "exclude": "(unset: the default excludes, .git, .venv, node_modules ...)", "include": "(unset: every file of a known kind)",
                     "gpu-memory-gib": "(unset: from the GPU the launch names, if any)"}.get(key, shown)
        lines.append(f"{key} = {shown}  # {where}")
    return "\n".join(lines) + "\n"


def _toml_value(value) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return "[" + ", ".join(f'"{v}"' for v in items) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f'"{k}" = {_toml_value(v)}' for k, v in value.items()) + " }" if value else "{}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)
