"""Configuration: ``[tool.vllm-lint]`` in ``pyproject.toml``, or ``vllm-lint.toml`` / ``.vllm-lint.toml``.

Found from the working folder upwards; the nearest folder with one wins.  In
one folder ``.vllm-lint.toml`` beats ``vllm-lint.toml``, which beats
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
from dataclasses import dataclass, field

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

import pathspec

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
}
_CODE_KEYS = ("select", "extend-select", "ignore")


class ConfigError(Exception):
    """The configuration file cannot be used; the message names the file and the key."""


@dataclass
class Config:
    path: str | None = None  # the file it was read from (None: no file)
    root: str = field(default_factory=os.getcwd)  # its folder: per-file-ignores patterns are relative to it
    target_version: str | None = None
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] | None = None
    extend_exclude: list[str] = field(default_factory=list)
    include: list[str] | None = None
    respect_gitignore: bool = True
    gpu_memory_gib: float | None = None

    def per_file_matcher(self):
        """``path -> codes`` for :class:`linter.engine.Settings.per_file_ignores`, or None when empty."""
        if not self.per_file_ignores:
            return None
        specs = [(pathspec.GitIgnoreSpec.from_lines([pattern]), frozenset(codes)) for pattern, codes in self.per_file_ignores.items()]
        root = self.root

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
    from rules._lib.base import all_rules

    return list(all_rules())


def _check_codes(values: list[str], key: str, where: str, known: list[str]) -> list[str]:
    out = []
    for value in values:
        code = value.strip().upper()
        if not code:  # a prefix of every code that selects none of them
            raise ConfigError(f"{where}: `{key}` holds an empty code; write rule codes or prefixes (`VL1`), or `ALL`")
        if code != "ALL" and not any(k.startswith(code) for k in known):
            raise ConfigError(f"{where}: `{key}` names `{value}`, which is neither a rule code nor a prefix of one (see `vllm-lint --list-rules`)")
        out.append(code)
    return out


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
    for pattern in patterns:
        try:
            spec = pathspec.GitIgnoreSpec.from_lines([pattern])
            spec.match_file("a")
        except Exception as exc:  # pathspec raises its own errors and re.error
            raise ConfigError(f"{where}: `{key}` holds {pattern!r}, which is not a gitignore-style pattern ({exc})") from None


def load(path: str) -> Config:
    """Read and check one configuration file."""
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
    cfg = Config(path=os.path.abspath(path), root=os.path.dirname(os.path.abspath(path)))
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
        if key == "per-file-ignores":
            _check_patterns(value, key, where)
            known = known or _known_codes()
            value = {pattern: _check_codes(codes, f"per-file-ignores.\"{pattern}\"", where, known) for pattern, codes in value.items()}
        setattr(cfg, key.replace("-", "_"), value)
    return cfg


def resolve(explicit: str | None = None, start: str | None = None) -> Config:
    """The configuration in force: ``explicit`` (``--config``), else the nearest file found, else defaults."""
    if explicit is not None:
        if not os.path.isfile(explicit):
            raise ConfigError(f"{explicit}: no such configuration file")
        return load(explicit)
    found = find(start)
    return load(found) if found else Config()
