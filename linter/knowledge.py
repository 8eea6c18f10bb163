"""The knowledge base: what each vLLM release accepts, loaded from ``rules/data``.

``rules/data/releases/<version>.json`` are generated from the release wheels by
``tools/extract_inventory.py``; ``rules/data/history.json`` (0.6.0 to 0.27.x,
option strings only) by ``tools/extract_history.py``; ``rules/data/migrations.yaml``
is curated, each fact citing the code.  Files are read lazily, once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from linter.records import Frozen, Record, _set, field_names, replace


DATA = Path(__file__).resolve().parent.parent / "rules" / "data"


class UnknownRelease(ValueError):
    """A ``--target-version`` that names no release in the knowledge base."""


class OptionSpec(Frozen):
    """One argparse action of ``vllm serve`` in one release."""

    _fields = ("names", "negative_names", "dest", "action", "takes_value", "nargs", "type", "choices", "default", "deprecated", "group", "json", "hidden", "raw")
    __slots__ = (*_fields, "_primary")  # ``_primary``: :attr:`primary`, worked out on first use
    _compare = ("names", "negative_names", "dest", "action", "takes_value", "nargs", "type", "choices", "default", "deprecated", "group", "json", "hidden")
    _shown = ("names", "negative_names", "dest", "action", "takes_value", "nargs", "type", "choices", "default", "deprecated", "group", "json", "hidden")

    names: tuple[str, ...]
    negative_names: frozenset[str]
    dest: str
    action: str
    takes_value: bool
    nargs: Any
    type: str | None
    choices: tuple[Any, ...] | None
    default: Any
    deprecated: bool
    group: str | None
    json: bool
    hidden: bool
    raw: dict

    def __init__(self, names, negative_names, dest, action, takes_value, nargs, type, choices, default, deprecated, group, json, hidden, raw=None):
        _set(self, "names", names)
        _set(self, "negative_names", negative_names)
        _set(self, "dest", dest)
        _set(self, "action", action)
        _set(self, "takes_value", takes_value)
        _set(self, "nargs", nargs)
        _set(self, "type", type)
        _set(self, "choices", choices)
        _set(self, "default", default)
        _set(self, "deprecated", deprecated)
        _set(self, "group", group)
        _set(self, "json", json)
        _set(self, "hidden", hidden)
        _set(self, "raw", ({} if raw is None else raw))

    @classmethod
    def from_json(cls, d: dict) -> OptionSpec:
        choices = d.get("choices")
        return cls(
            names=tuple(d["names"]),
            negative_names=frozenset(d.get("negative_names") or ()),
            dest=d["dest"],
            action=d.get("action", "store"),
            takes_value=bool(d.get("takes_value", True)),
            nargs=d.get("nargs"),
            type=d.get("type"),
            choices=tuple(choices) if choices is not None else None,
            default=d.get("default"),
            deprecated=bool(d.get("deprecated", False)),
            group=d.get("group"),
            json=bool(d.get("json", False)),
            hidden=bool(d.get("hidden", False)),
            raw=d,
        )

    @property
    def help(self) -> str | None:
        """The help text ``vllm serve --help`` shows for it in this release (expanded as argparse
        expands it, unwrapped), or None: hidden, without help, or not recorded (history)."""
        text = self.raw.get("help")
        return text if isinstance(text, str) else None

    @property
    def primary(self) -> str:
        """The long option name people write (``--tensor-parallel-size``, not ``-tp``).  Asked
        for thousands of times a run (each release's specs, the rules' lookups): kept."""
        try:
            return self._primary
        except AttributeError:
            positives = [n for n in self.names if n not in self.negative_names]
            longs = [n for n in positives if n.startswith("--")]
            primary = (longs or positives or list(self.names))[0]
            _set(self, "_primary", primary)
            return primary

    def value_count(self) -> tuple[int, int | None]:
        """(minimum, maximum) number of argv values the positive form consumes."""
        if not self.takes_value:
            return 0, 0
        n = self.nargs
        if n is None:
            return 1, 1
        if n == "?":
            return 0, 1
        if n == "*":
            return 0, None
        if n == "+":
            return 1, None
        if isinstance(n, int):
            return n, n
        return 1, 1


class _Specs(Mapping):
    """A read-only table of option specs by a key (an option string, a dest), each spec built
    the first time it is looked up (:meth:`Release._spec`); its keys, membership and order
    need none built."""

    __slots__ = ("_places", "_spec")

    def __init__(self, places: dict[str, int], spec: Callable[[int], OptionSpec]):
        self._places = places
        self._spec = spec

    def __getitem__(self, key: str) -> OptionSpec:
        return self._spec(self._places[key])

    def get(self, key, default=None):
        i = self._places.get(key)
        return default if i is None else self._spec(i)

    def __contains__(self, key) -> bool:
        return key in self._places

    def __iter__(self):
        return iter(self._places)

    def __len__(self) -> int:
        return len(self._places)


class Release(Record):
    """The option inventory of one vLLM release.

    Made from the inventory's data, or from its JSON ``text`` and the ``places`` of its values in
    it (``rules/data/release_names.compiled.json``, :func:`inventory_places`): then an option's
    entry is parsed when its spec is first built, and the rest of the inventory when first asked
    for (a run meets five releases in each process and looks up a few dozen of each one's 300
    options: parsing each whole inventory took 2-3 ms)."""

    _fields = ("version", "data")  # no ``__slots__``: its ``cached_property`` values live in its ``__dict__``
    _shown = ("version",)

    version: Version
    data: dict

    def __init__(self, version, data=None, *, text: str | None = None, places: dict | None = None):
        self.version = version
        if text is None:
            self.data = data
        self._text, self._places = text, places

    @cached_property
    def data(self) -> dict:
        """(A release made from its text: the whole inventory, parsed when first asked for.)"""
        return json.loads(self._text)

    def _placed(self) -> bool:
        """Made from its text, and not parsed whole since (then the parsed data answers)."""
        return self._places is not None and "data" not in self.__dict__

    def _option(self, i: int) -> dict:
        """The inventory entry of the ``i``-th option."""
        if self._placed():
            start, end = self._places["options"][i][:2]
            return json.loads(self._text[start:end])
        return self.data["options"][i]

    @cached_property
    def _heads(self) -> list[dict]:
        """Each option's ``names``, ``dest`` and ``negative_names``, in inventory order: what the
        tables by a key read (:meth:`specs_by`), without the entries parsed."""
        if self._placed():
            return [{"names": names, "dest": dest, "negative_names": negative} for _s, _e, dest, names, negative in self._places["options"]]
        return self.data["options"]

    def _part(self, key: str, default):
        """The inventory's top-level value ``key``."""
        if self._placed():
            at = self._places["parts"].get(key)
            return default if at is None else json.loads(self._text[at[0]:at[1]])
        return self.data.get(key, default)

    @cached_property
    def name(self) -> str:
        return str(self.version)

    @cached_property
    def _specs(self) -> list:
        """The spec of each option of the inventory, by its place, built when first asked for
        (:meth:`_spec`): a run looks up a few dozen options of each release it meets, of 300."""
        return [None] * len(self._heads)

    def _spec(self, i: int) -> OptionSpec:
        spec = self._specs[i]
        if spec is None:
            spec = OptionSpec.from_json(self._option(i))
            extra = self.platform_choices.get(spec.primary) if spec.choices is not None else None
            if extra:
                # choices that depend on the platform (rules/data/value_sets.json): the inventory was
                # built on vLLM's CPU platform; a GPU host also accepts its device type (`cuda`)
                spec = replace(spec, choices=spec.choices + tuple(c for c in extra if c not in spec.choices))
            self._specs[i] = spec
        return spec

    @cached_property
    def options(self) -> list[OptionSpec]:
        return [self._spec(i) for i in range(len(self._specs))]

    @cached_property
    def value_sets(self) -> dict[str, dict]:
        """Value sets vLLM checks when it builds its config (``--kv-cache-dtype``,
        ``--quantization``) and platform-dependent choices, by option string."""
        return value_sets_for(self.version)

    @cached_property
    def value_renames(self) -> dict[str, list[dict]]:
        """Values of JSON options that vLLM deprecates or rewrites to another value, by option
        string (``rules/data/value_renames.json``)."""
        return value_renames_for(self.version)

    @cached_property
    def env_deprecations(self) -> dict[str, dict]:
        """``VLLM_*`` variables deprecated outside envs.py (the MoRIIO connector's ...)."""
        return env_deprecations_for(self.version)

    @cached_property
    def platform_choices(self) -> dict[str, tuple[str, ...]]:
        """option -> the choices each platform adds (its ``device_type``)."""
        out = {}
        for option, facts in self.value_sets.items():
            types = facts.get("platform-device-types")
            if types:
                out[option] = tuple(types)
        return out

    @cached_property
    def by_name(self) -> Mapping[str, OptionSpec]:
        """Option string -> its spec (of the last option registering it, as argparse's table)."""
        return self.specs_by(lambda o: o["names"], last=True)

    @cached_property
    def names(self) -> frozenset[str]:
        """Every option string (``by_name``'s keys), without building the specs: what a
        question about another release (was this option accepted then?) needs."""
        return frozenset(n for o in self._heads for n in o["names"])

    @cached_property
    def by_dest(self) -> Mapping[str, OptionSpec]:
        """Dest -> the spec of the first option storing it."""
        return self.specs_by(lambda o: (o["dest"],))

    def specs_by(self, keys: Callable[[dict], Iterable[str]], *, last: bool = False) -> Mapping[str, OptionSpec]:
        """A table of the specs by the keys ``keys`` gives of each option's inventory entry (its
        ``names``, ``dest``...), the first option to give a key keeping it (``last``: the last
        one; either way the keys in the order they first come); no spec is built until it is
        looked up."""
        places: dict[str, int] = {}
        for i, o in enumerate(self._heads):
            for key in keys(o):
                if last:
                    places[key] = i
                else:
                    places.setdefault(key, i)
        return _Specs(places, self._spec)

    @cached_property
    def option_strings(self) -> list[str]:
        """Every option string, in parser registration order (argparse's dict order)."""
        return list(self.by_name)

    @cached_property
    def option_order(self) -> tuple[list[str], dict[str, int]]:
        """The option strings sorted (the abbreviations of a prefix are a stretch of them: what
        :func:`linter.argmodel.resolve_option` looks up), and each one's place in
        :attr:`option_strings`."""
        return sorted(self.option_strings), {n: i for i, n in enumerate(self.option_strings)}

    @cached_property
    def parser(self) -> dict:
        return self._part("parser", {})

    @cached_property
    def positionals(self) -> list[dict]:
        return list(self._part("positionals", []))

    @cached_property
    def env(self) -> dict[str, dict]:
        return {e["name"]: e for e in self._part("env", [])}

    @cached_property
    def env_elsewhere(self) -> list[dict]:
        """The ``VLLM_*`` variables read outside envs.py (the inventory's ``env_elsewhere``)."""
        return list(self._part("env_elsewhere", []))

    @cached_property
    def partial(self) -> bool:
        """A names-only inventory from the history: its options' values are not known."""
        return bool(self._part("partial", False))

    @property
    def allow_abbrev(self) -> bool:
        return bool(self.parser.get("allow_abbrev", True))


def parse_version(text: str) -> Version:
    text = text.strip()
    if text[:1] in ("v", "V"):
        text = text[1:]
    return Version(text)


@cache
def known_versions() -> tuple[Version, ...]:
    folder = DATA / "releases"
    found = []
    for p in folder.glob("*.json"):
        try:
            found.append(Version(p.stem))
        except InvalidVersion:
            continue
    return tuple(sorted(found))


def newest() -> Version:
    versions = known_versions()
    if not versions:
        raise UnknownRelease("no release inventories in rules/data/releases")
    return versions[-1]


def resolve_version(text: str) -> Version:
    """``0.31``, ``0.31.0`` and ``v0.31.0`` -> Version('0.31.0') when that release is known."""
    return _resolve(text, (known_versions(),))


def resolve_target(text: str) -> Version:
    """A release to check against: a known release (:func:`resolve_version`), else one of the
    history (0.6.0 to 0.27.x; option names only, see :func:`release`).  ``0.27`` is the first
    release of that minor the history knows, as ``0.31`` is 0.31.0."""
    return _resolve(text, (known_versions(), history_versions()))


def _resolve(text: str, tables: tuple[tuple[Version, ...], ...]) -> Version:
    """The release ``text`` names in the first of ``tables`` that has it (``X.Y``: its first release)."""
    try:
        wanted = parse_version(text)
    except InvalidVersion:
        raise UnknownRelease(_unknown_message(text)) from None
    for versions in tables:
        for v in versions:
            if v == wanted:  # Version("0.31") == Version("0.31.0"): return the file's spelling
                return v
        if len(wanted.release) == 2:
            same_minor = [v for v in versions if v.release[:2] == wanted.release]
            if same_minor:
                return same_minor[0]
    raise UnknownRelease(_unknown_message(text))


def is_names_only(version: Version) -> bool:
    """``version`` is known from the history only (option names; no choices nor types)."""
    return version not in known_versions() and version in history_versions()


def _unknown_message(text: str) -> str:
    known = ", ".join(str(v) for v in known_versions())
    history = history_versions()
    names = f"; option names only: {history[0]} to {history[-1]}" if history else ""
    return f"unknown vLLM release {text!r}; known releases: {known}{names}"


def nearest_known(version: Version) -> Version | None:
    """The known release whose options a pinned release would have (same minor, else None).

    A pin to 0.31.2 is checked as 0.31.0 (patch releases do not change options
    in the releases we have data for); a pin outside the known range gives None.
    """
    same_minor = [v for v in known_versions() if v.release[:2] == version.release[:2]]
    if same_minor:
        below = [v for v in same_minor if v <= version]
        return (below or same_minor)[-1]
    return None


@cache
def release(version: Version | str) -> Release:
    """The inventory of ``version``: a full one, or a names-only one from the history."""
    if isinstance(version, str):
        version = resolve_version(version)
    for known in known_versions():
        if known == version:  # Version("0.32") == Version("0.32.0"): use the file's spelling
            version = known
            break
    path = DATA / "releases" / f"{version}.json"
    if not path.exists() and version in history_versions():
        return Release(version, _history_inventory(version))
    data = path.read_bytes()  # (read once: checked against the compiled names, then parsed)
    entry = _entry_for(version, data)
    places = entry.get("places") if entry is not None else None
    if isinstance(places, dict):
        return Release(version, text=data.decode("utf-8"), places=places)
    return Release(version, json.loads(data.decode("utf-8")))


@cache
def _parsed(text: str) -> Version:
    """``Version(text)`` for a release the data files name, parsed once a run: the history's
    462 runs of accepted releases name 60 releases (a names-only inventory asked each run's
    two ends: 900 parses, 1.4 ms of a one-file run pinned to an old release)."""
    return Version(text)


@cache
def history_versions() -> tuple[Version, ...]:
    return tuple(_parsed(v) for v in history().get("releases", []))


def history_release_for(pin: Version) -> Version | None:
    """The history release that stands for a pin older than the first inventory."""
    same_minor = [v for v in history_versions() if v.release[:2] == pin.release[:2]]
    if not same_minor:
        return None
    below = [v for v in same_minor if v <= pin]
    return (below or same_minor)[-1]


# parse_args refuses ``vllm serve --served-model-name X`` without a positional model in the
# 0.14.1 wheel (vllm/utils/argparse_utils.py:284) and not in 0.11.0 (vllm/utils/__init__.py has
# no such check); the releases between are not known to, so it is not said of them.
_SERVED_NAME_CHECK_SEEN = Version("0.14.1")


def _history_inventory(version: Version) -> dict:
    """A names-only inventory: which option strings ``version`` accepted, and whether they take a value.

    The history records option strings, not argparse actions, so aliases are
    separate entries and choices and types are unknown (rules that need them stay
    silent on such a release).
    """
    options = []
    for name, info in sorted(history().get("options", {}).items()):
        if any(_parsed(a) <= version <= _parsed(b) for a, b in info.get("accepted", [])):
            deprecated_in = info.get("deprecated_in")
            options.append(
                {
                    "names": [name],
                    "negative_names": [name] if name.startswith("--no-") else [],
                    "dest": name.lstrip("-").replace("-", "_"),
                    "takes_value": bool(info.get("takes_value", True)),
                    "deprecated": bool(deprecated_in and _parsed(deprecated_in) <= version),
                }
            )
    # ``vllm serve --model X`` is moved to the positional slot, with a deprecation warning, from
    # the release whose parse_args says so (0.11.1); before it ``--model`` is an ordinary option
    moved_in = history().get("options", {}).get("--model", {}).get("deprecated_in")
    return {
        "schema": 1,
        "vllm_version": str(version),
        "partial": True,
        "parser": {"allow_abbrev": True, "underscores_as_dashes": True, "dotted_json": True, "config_option": "--config",
                   "model_option_moved": bool(moved_in) and _parsed(moved_in) <= version,
                   "served_name_needs_model": version >= _SERVED_NAME_CHECK_SEEN},
        "positionals": [{"dest": "model_tag", "nargs": "?"}],
        "options": options,
        "env": [],
    }


@cache
def history() -> dict:
    """Option strings accepted by releases before the first inventory (0.6.0 to 0.27.x)."""
    path = DATA / "history.json"
    if not path.exists():
        return {"releases": [], "options": {}}
    with path.open(encoding="utf-8") as f:
        return json.load(f)


@cache
def _per_release(filename: str) -> dict:
    path = DATA / filename
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as f:
        return json.load(f).get("releases", {})


def for_release(filename: str, version: Version) -> dict:
    """The entry of a generated per-release file for ``version``'s minor release, else {}."""
    data = _per_release(filename)
    for v in sorted(data, key=_parsed, reverse=True):
        if _parsed(v).release[:2] == version.release[:2]:
            return data[v]
    return {}


def value_sets_for(version: Version) -> dict[str, dict]:
    """``rules/data/value_sets.json`` (tools/extract_value_sets.py) for ``version``."""
    return for_release("value_sets.json", version)


def value_renames_for(version: Version) -> dict[str, list[dict]]:
    """``rules/data/value_renames.json`` (tools/extract_value_renames.py) for ``version``."""
    return for_release("value_renames.json", version)


@cache
def value_rename_since(option: str, key: str, value: str) -> Version | None:
    """The first release in value_renames.json whose code deprecates ``value`` of ``key``."""
    data = _per_release("value_renames.json")
    for v in sorted(data, key=_parsed):
        if any(e["key"] == key and value in e["values"] for e in data[v].get(option) or []):
            return _parsed(v)
    return None


def env_deprecations_for(version: Version) -> dict[str, dict]:
    """``rules/data/env_deprecations.json`` (tools/extract_env_deprecations.py) for ``version``."""
    return for_release("env_deprecations.json", version)


COMPILED = ".compiled.json"  # ``X.yaml`` -> ``X.compiled.json`` beside it (tools/compile_knowledge.py)


def data_yaml(name: str) -> dict:
    """A curated YAML file of ``rules/data`` (empty when the file is missing).

    The YAML is the source of truth; its compiled JSON form (``X.compiled.json``, written by
    ``tools/compile_knowledge.py``) is read instead while it holds the YAML's checksum, so a
    run needs no PyYAML for the knowledge, and an edited YAML is never read stale."""
    path = DATA / name
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return {}
    try:
        with open(DATA / (name.rsplit(".", 1)[0] + COMPILED), "rb") as f:
            compiled = json.load(f)
        if compiled.get("checksum") == source_digest(text):
            return compiled["data"]
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    return parse_data_yaml(text)


def source_digest(text: bytes) -> str:
    """The :func:`linter.hashes.checksum` a compiled file keeps of its source."""
    from linter.hashes import checksum

    return checksum(text)


def parse_data_yaml(text: bytes) -> dict:
    from linter.sources.pyyaml import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


def _fields(cls, entry: dict) -> dict:
    """``entry``'s keys as ``cls``'s field names (dashes become underscores); a key that is
    not a field raises, so a misspelt fact fails the data tests instead of being ignored."""
    out = {}
    for key, value in entry.items():
        name = key.replace("-", "_")
        if name not in field_names(cls):
            raise ValueError(f"{cls.__name__}: unknown field `{key}` in {entry}")
        out[name] = tuple(value) if isinstance(value, list) else value
    return out


def _version(text: str | None) -> Version | None:
    return _parsed(str(text)) if text else None


class OptionFact(Frozen):
    """An option string renamed, dropped, deprecated or accepted again (``options:``)."""

    __slots__ = ("option", "source", "names", "added_in", "deprecated_in", "removed_in", "returned_in", "absent_in", "replacement", "replacement_available_in", "fix", "applicability", "note")

    option: str
    source: str
    names: tuple[str, ...]
    added_in: str | None
    deprecated_in: str | None
    removed_in: str | None
    returned_in: str | None
    absent_in: tuple[str, ...]  # releases that reject it, whatever happened around them
    replacement: str | None
    replacement_available_in: str | None
    fix: str  # rename | drop | change-value | manual
    applicability: str
    note: str

    def __init__(self, option, source, names=(), added_in=None, deprecated_in=None, removed_in=None, returned_in=None, absent_in=(), replacement=None, replacement_available_in=None, fix="manual", applicability="unsafe", note=""):
        _set(self, "option", option)
        _set(self, "source", source)
        _set(self, "names", names)
        _set(self, "added_in", added_in)
        _set(self, "deprecated_in", deprecated_in)
        _set(self, "removed_in", removed_in)
        _set(self, "returned_in", returned_in)
        _set(self, "absent_in", absent_in)
        _set(self, "replacement", replacement)
        _set(self, "replacement_available_in", replacement_available_in)
        _set(self, "fix", fix)
        _set(self, "applicability", applicability)
        _set(self, "note", note)

    @property
    def spellings(self) -> tuple[str, ...]:
        return self.names or (self.option,)

    def deprecated_at(self, target: Version) -> bool:
        """Deprecated, and not yet removed, in ``target``."""
        dep, rem = _version(self.deprecated_in), _version(self.removed_in)
        return dep is not None and dep <= target and not (rem is not None and rem <= target)

    def gone_in(self, target: Version) -> bool:
        """``target`` rejects the option: listed as absent, or removed and not back yet."""
        if str(target) in self.absent_in:
            return True
        removed, back = _version(self.removed_in), _version(self.returned_in)
        return removed is not None and removed <= target and not (back is not None and back <= target)


class ValueFact(Frozen):
    """A value of an option that was deprecated or removed (``values:``).

    ``key``: the value is that key of the option's JSON value (``--speculative-config``
    ``{"method": ...}`` or ``--speculative-config.method``); ``also_values`` are removed
    the same way as ``value``, but ``replacement`` stands for ``value`` only.
    """

    __slots__ = ("option", "value", "source", "key", "also_values", "deprecated_in", "removed_in", "rejected_by", "replacement", "fix", "applicability", "per_release", "note")
    _compare = ("option", "value", "source", "key", "also_values", "deprecated_in", "removed_in", "rejected_by", "replacement", "fix", "applicability", "note")

    option: str
    value: str
    source: str
    key: str | None
    also_values: tuple[str, ...]
    deprecated_in: str | None
    removed_in: str | None
    rejected_by: str | None  # argparse | startup
    replacement: str | None
    fix: str
    applicability: str
    per_release: dict
    note: str

    def __init__(self, option, value, source, key=None, also_values=(), deprecated_in=None, removed_in=None, rejected_by=None, replacement=None, fix="manual", applicability="unsafe", per_release=None, note=""):
        _set(self, "option", option)
        _set(self, "value", value)
        _set(self, "source", source)
        _set(self, "key", key)
        _set(self, "also_values", also_values)
        _set(self, "deprecated_in", deprecated_in)
        _set(self, "removed_in", removed_in)
        _set(self, "rejected_by", rejected_by)
        _set(self, "replacement", replacement)
        _set(self, "fix", fix)
        _set(self, "applicability", applicability)
        _set(self, "per_release", ({} if per_release is None else per_release))
        _set(self, "note", note)

    @property
    def values(self) -> tuple[str, ...]:
        return (str(self.value), *map(str, self.also_values))

    def state_at(self, target: Version) -> str | None:
        """``"removed"``, ``"deprecated"`` or None (still fine) in ``target``."""
        rem, dep = _version(self.removed_in), _version(self.deprecated_in)
        if rem is not None and rem <= target:
            return "removed"
        if dep is not None and dep <= target:
            return "deprecated"
        return None


class EffectFact(Frozen):
    """An option still accepted that no longer (fully) acts (``effects:``)."""

    __slots__ = ("option", "source", "no_effect_from", "until", "why", "scope", "applies_to", "still_read_by", "names_per_release", "meaning", "issue", "note")
    _compare = ("option", "source", "no_effect_from", "until", "why", "scope", "applies_to", "still_read_by", "meaning", "issue", "note")

    option: str
    source: str
    no_effect_from: str | None
    until: str | None
    why: str  # shown to users
    scope: str  # all | hybrid
    applies_to: str | None
    still_read_by: tuple
    names_per_release: dict
    meaning: str
    issue: str
    note: str

    def __init__(self, option, source, no_effect_from=None, until=None, why="", scope="all", applies_to=None, still_read_by=(), names_per_release=None, meaning="", issue="", note=""):
        _set(self, "option", option)
        _set(self, "source", source)
        _set(self, "no_effect_from", no_effect_from)
        _set(self, "until", until)
        _set(self, "why", why)
        _set(self, "scope", scope)
        _set(self, "applies_to", applies_to)
        _set(self, "still_read_by", still_read_by)
        _set(self, "names_per_release", ({} if names_per_release is None else names_per_release))
        _set(self, "meaning", meaning)
        _set(self, "issue", issue)
        _set(self, "note", note)

    def active_at(self, target: Version) -> bool:
        since, until = _version(self.no_effect_from), _version(self.until)
        return since is not None and since <= target and (until is None or target < until)


class EnvFact(Frozen):
    """A ``VLLM_*`` variable removed or renamed (``env:``)."""

    __slots__ = ("name", "source", "added_in", "deprecated_in", "removed_in", "returned_in", "replacement", "note")

    name: str
    source: str
    added_in: str | None
    deprecated_in: str | None
    removed_in: str | None
    returned_in: str | None
    replacement: str | None
    note: str

    def __init__(self, name, source, added_in=None, deprecated_in=None, removed_in=None, returned_in=None, replacement=None, note=""):
        _set(self, "name", name)
        _set(self, "source", source)
        _set(self, "added_in", added_in)
        _set(self, "deprecated_in", deprecated_in)
        _set(self, "removed_in", removed_in)
        _set(self, "returned_in", returned_in)
        _set(self, "replacement", replacement)
        _set(self, "note", note)


class TranslationFact(Frozen):
    """A removed option whose successor takes a different value (``translations:``): the value
    each old value becomes, read from the release code that did the translation itself."""

    __slots__ = ("option", "replacement", "source", "last_accepted", "values", "convert", "applicability", "note")
    _compare = ("option", "replacement", "source", "last_accepted", "applicability", "note")

    option: str
    replacement: str
    source: str
    last_accepted: str | None
    values: dict  # old value -> new value; null: delete the option
    convert: dict  # old value -> the --convert a non-pooling model also needs
    applicability: str
    note: str

    def __init__(self, option, replacement, source, last_accepted=None, values=None, convert=None, applicability="unsafe", note=""):
        _set(self, "option", option)
        _set(self, "replacement", replacement)
        _set(self, "source", source)
        _set(self, "last_accepted", last_accepted)
        _set(self, "values", ({} if values is None else values))
        _set(self, "convert", ({} if convert is None else convert))
        _set(self, "applicability", applicability)
        _set(self, "note", note)


class KeyFact(Frozen):
    """A key of a JSON option renamed (``keys:``): the old key fails startup from ``removed_in``."""

    __slots__ = ("option", "key", "replacement", "source", "last_accepted", "removed_in", "applicability", "note")

    option: str
    key: str
    replacement: str
    source: str
    last_accepted: str | None
    removed_in: str | None
    applicability: str
    note: str

    def __init__(self, option, key, replacement, source, last_accepted=None, removed_in=None, applicability="unsafe", note=""):
        _set(self, "option", option)
        _set(self, "key", key)
        _set(self, "replacement", replacement)
        _set(self, "source", source)
        _set(self, "last_accepted", last_accepted)
        _set(self, "removed_in", removed_in)
        _set(self, "applicability", applicability)
        _set(self, "note", note)

    def gone_in(self, target: Version) -> bool:
        removed = _version(self.removed_in)
        return removed is not None and removed <= target


class BehaviourFact(Frozen):
    """Parser or config behaviour a rule models, for a range of releases (``behaviour:``)."""

    __slots__ = ("id", "summary", "source", "since", "releases", "examples", "fix", "portable_rewrite", "twins", "hidden_no_forms")
    _compare = ("id", "summary", "source", "since", "releases", "examples", "fix", "twins", "hidden_no_forms")

    id: str
    summary: str
    source: str
    since: str | None
    releases: tuple[str, ...]
    examples: tuple
    fix: str
    portable_rewrite: dict
    twins: tuple[str, ...]
    hidden_no_forms: tuple[str, ...]

    def __init__(self, id, summary, source, since=None, releases=(), examples=(), fix="", portable_rewrite=None, twins=(), hidden_no_forms=()):
        _set(self, "id", id)
        _set(self, "summary", summary)
        _set(self, "source", source)
        _set(self, "since", since)
        _set(self, "releases", releases)
        _set(self, "examples", examples)
        _set(self, "fix", fix)
        _set(self, "portable_rewrite", ({} if portable_rewrite is None else portable_rewrite))
        _set(self, "twins", twins)
        _set(self, "hidden_no_forms", hidden_no_forms)


class Migrations(Frozen):
    """``rules/data/migrations.yaml``, typed."""

    __slots__ = ("schema", "releases", "options", "values", "effects", "env", "behaviour", "translations", "keys")

    schema: int
    releases: tuple[str, ...]
    options: tuple[OptionFact, ...]
    values: tuple[ValueFact, ...]
    effects: tuple[EffectFact, ...]
    env: tuple[EnvFact, ...]
    behaviour: tuple[BehaviourFact, ...]
    translations: tuple[TranslationFact, ...]
    keys: tuple[KeyFact, ...]

    def __init__(self, schema=1, releases=(), options=(), values=(), effects=(), env=(), behaviour=(), translations=(), keys=()):
        _set(self, "schema", schema)
        _set(self, "releases", releases)
        _set(self, "options", options)
        _set(self, "values", values)
        _set(self, "effects", effects)
        _set(self, "env", env)
        _set(self, "behaviour", behaviour)
        _set(self, "translations", translations)
        _set(self, "keys", keys)

    def key_facts(self, option: str) -> list[KeyFact]:
        return [f for f in self.keys if f.option == option]

    def translation(self, option: str) -> TranslationFact | None:
        return next((f for f in self.translations if f.option == option), None)

    def option_facts(self, option: str) -> list[OptionFact]:
        return [f for f in self.options if f.option == option]

    def curated(self, option_string: str) -> OptionFact | None:
        """The option fact that lists ``option_string`` among its spellings."""
        return next((f for f in self.options if option_string in f.spellings), None)

    def value_facts(self, option: str) -> list[ValueFact]:
        return [f for f in self.values if f.option == option]

    def effect_facts(self, option: str) -> list[EffectFact]:
        return [f for f in self.effects if f.option == option]

    def env_fact(self, name: str) -> EnvFact | None:
        return next((f for f in self.env if f.name == name), None)


_SECTIONS = {"options": OptionFact, "values": ValueFact, "effects": EffectFact, "env": EnvFact, "behaviour": BehaviourFact, "translations": TranslationFact, "keys": KeyFact}


@cache
def migrations() -> Migrations:
    """The curated migration facts, read once; an unknown field raises :class:`ValueError`."""
    raw = data_yaml("migrations.yaml")
    top = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in field_names(Migrations):
            raise ValueError(f"migrations.yaml: unknown section `{key}`")
        cls = _SECTIONS.get(key)
        top[name] = tuple(cls(**_fields(cls, e)) for e in value or ()) if cls else (tuple(value) if isinstance(value, list) else value)
    return Migrations(**top)


class RopeScaling(Frozen):
    """``rope-scaling:`` of a model (its config.json ``rope_scaling``)."""

    __slots__ = ("type", "factor", "original_max_position_embeddings")

    type: str
    factor: float | None
    original_max_position_embeddings: int | None

    def __init__(self, type, factor=None, original_max_position_embeddings=None):
        _set(self, "type", type)
        _set(self, "factor", factor)
        _set(self, "original_max_position_embeddings", original_max_position_embeddings)


class LayerTypes(Frozen):
    """``layer-types:``: how many layers of each kind (config.json ``layer_types``)."""

    __slots__ = ("full_attention", "sliding_attention", "mamba")

    full_attention: int | None
    sliding_attention: int
    mamba: int

    def __init__(self, full_attention=None, sliding_attention=0, mamba=0):
        _set(self, "full_attention", full_attention)
        _set(self, "sliding_attention", sliding_attention)
        _set(self, "mamba", mamba)


class Mla(Frozen):
    """``mla:``: multi-head latent attention, whose cache is ``kv_lora_rank + qk_rope_head_dim`` values per layer."""

    __slots__ = ("kv_lora_rank", "qk_rope_head_dim")

    kv_lora_rank: int
    qk_rope_head_dim: int

    def __init__(self, kv_lora_rank, qk_rope_head_dim):
        _set(self, "kv_lora_rank", kv_lora_rank)
        _set(self, "qk_rope_head_dim", qk_rope_head_dim)


class ModelEntry(Frozen):
    """One model of ``rules/data/models.yaml`` (its header documents every field)."""

    __slots__ = ("model", "source", "architecture", "hybrid", "mamba_all_mode", "max_position_embeddings", "rope_scaling", "derived_max_model_len", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim", "torch_dtype", "sliding_window", "layer_types", "mla", "mamba_state_bytes", "parameters", "weight_bytes_per_parameter", "size_source")
    _compare = ("model", "source", "architecture", "hybrid", "mamba_all_mode", "max_position_embeddings", "rope_scaling", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim", "torch_dtype", "sliding_window", "layer_types", "mla", "mamba_state_bytes", "parameters", "weight_bytes_per_parameter", "size_source")

    model: str
    source: str
    architecture: str | None
    hybrid: str  # gdn | mamba2 | none
    mamba_all_mode: bool
    max_position_embeddings: int | None
    rope_scaling: RopeScaling | None
    derived_max_model_len: dict  # Version -> int
    # size fields of the pre-flight KV cache rules (VL802/VL803)
    num_hidden_layers: int | None
    num_attention_heads: int | None
    num_key_value_heads: int | None
    head_dim: int | None
    torch_dtype: str
    sliding_window: int | None
    layer_types: LayerTypes | None
    mla: Mla | None
    mamba_state_bytes: int | None
    parameters: str | None
    weight_bytes_per_parameter: int | None
    size_source: str

    def __init__(self, model, source="", architecture=None, hybrid="none", mamba_all_mode=False, max_position_embeddings=None, rope_scaling=None, derived_max_model_len=None, num_hidden_layers=None, num_attention_heads=None, num_key_value_heads=None, head_dim=None, torch_dtype="bfloat16", sliding_window=None, layer_types=None, mla=None, mamba_state_bytes=None, parameters=None, weight_bytes_per_parameter=None, size_source=""):
        _set(self, "model", model)
        _set(self, "source", source)
        _set(self, "architecture", architecture)
        _set(self, "hybrid", hybrid)
        _set(self, "mamba_all_mode", mamba_all_mode)
        _set(self, "max_position_embeddings", max_position_embeddings)
        _set(self, "rope_scaling", rope_scaling)
        _set(self, "derived_max_model_len", ({} if derived_max_model_len is None else derived_max_model_len))
        _set(self, "num_hidden_layers", num_hidden_layers)
        _set(self, "num_attention_heads", num_attention_heads)
        _set(self, "num_key_value_heads", num_key_value_heads)
        _set(self, "head_dim", head_dim)
        _set(self, "torch_dtype", torch_dtype)
        _set(self, "sliding_window", sliding_window)
        _set(self, "layer_types", layer_types)
        _set(self, "mla", mla)
        _set(self, "mamba_state_bytes", mamba_state_bytes)
        _set(self, "parameters", parameters)
        _set(self, "weight_bytes_per_parameter", weight_bytes_per_parameter)
        _set(self, "size_source", size_source)

    @property
    def is_hybrid(self) -> bool:
        return self.hybrid in ("gdn", "mamba2")

    def derived_len(self, version: Version) -> int | None:
        """vLLM's derived max_model_len for ``version`` (the newest behaviour at or before it)."""
        best = None
        for since, n in sorted(self.derived_max_model_len.items()):
            if since <= version:
                best = n
        return best

    @classmethod
    def from_yaml(cls, entry: dict) -> ModelEntry:
        fields = _fields(cls, entry)
        fields["derived_max_model_len"] = {Version(str(k)): int(v) for k, v in (entry.get("derived-max-model-len") or {}).items()}
        for name, part in (("rope_scaling", RopeScaling), ("layer_types", LayerTypes), ("mla", Mla)):
            if fields.get(name) is not None:
                fields[name] = part(**_fields(part, fields[name]))
        return cls(**fields)


@cache
def models() -> dict[str, ModelEntry]:
    """``rules/data/models.yaml`` by model id, read once; an unknown field raises :class:`ValueError`."""
    raw = data_yaml("models.yaml")
    unknown = set(raw) - {"schema", "models"}
    if unknown:
        raise ValueError(f"models.yaml: unknown section {sorted(unknown)}")
    return {m["model"]: ModelEntry.from_yaml(m) for m in raw.get("models") or ()}


NAMES = "release_names" + COMPILED  # the option strings of each inventory (tools/compile_knowledge.py)


@cache
def release_names(version: Version) -> frozenset[str]:
    """Every option string of the inventory of ``version`` (one of :func:`known_versions`).

    What a question about another release (was this option accepted then?) needs, from
    ``rules/data/release_names.compiled.json`` while the names it holds for ``version`` carry
    the checksum of that inventory: a run asks it of every release before its target (a removed
    option) without parsing their inventories.  Else the inventory's own :attr:`Release.names`."""
    entry = _compiled_entry(version)
    if entry is not None and isinstance(entry.get("names"), list):
        return frozenset(entry["names"])
    return release(version).names


@cache
def release_env_names(version: Version) -> frozenset[str]:
    """The ``VLLM_*`` variables the envs.py of ``version`` reads (:attr:`Release.env`'s keys),
    from ``rules/data/release_names.compiled.json`` while its checksum holds (as
    :func:`release_names`): a variable the target does not read is looked up in every
    release before it, which need not parse their inventories.  Else the inventory's own."""
    entry = _compiled_entry(version)
    if entry is not None and isinstance(entry.get("env"), list):
        return frozenset(entry["env"])
    return frozenset(release(version).env)


@cache
def _compiled_entry(version: Version) -> dict | None:
    """The entry of ``version`` in the compiled names, when it carries the checksum of that
    inventory as it is now (else None: the inventory is read instead, never stale)."""
    try:
        return _entry_for(version, (DATA / "releases" / f"{version}.json").read_bytes())
    except OSError:
        return None


def _entry_for(version: Version, data: bytes) -> dict | None:
    """:func:`_compiled_entry` of the inventory of ``version`` whose bytes are ``data``."""
    entry = compiled_names().get(str(version))
    if isinstance(entry, dict):
        try:
            if entry["checksum"] == source_digest(data):
                return entry
        except (KeyError, TypeError):
            pass
    return None


def inventory_places(text: str) -> dict:
    """Where the values of an inventory's JSON ``text`` lie: ``{"parts": {key: [start, end]},
    "options": [[start, end, dest, names, negative_names], ...]}``, ``text[start:end]`` being the
    JSON of a top-level key's value or of an option's entry (read with the json module's own
    decoder, token by token; :class:`Release` parses an entry from its place when it needs it).
    Raises ValueError for text that is not an inventory's JSON object."""
    from json.decoder import WHITESPACE

    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        return WHITESPACE.match(text, i).end()

    def expect(i: int, char: str) -> int:
        if text[i:i + 1] != char:
            raise ValueError(f"expected {char!r} at {i}")
        return skip(i + 1)

    parts: dict[str, list[int]] = {}
    options: list[list] = []
    i = expect(skip(0), "{")
    while text[i:i + 1] != "}":
        key, i = decoder.raw_decode(text, i)
        i = expect(skip(i), ":")
        start = i
        if key == "options":
            i = expect(i, "[")
            while text[i:i + 1] != "]":
                begin = i
                entry, i = decoder.raw_decode(text, i)
                options.append([begin, i, entry["dest"], entry["names"], entry.get("negative_names") or []])
                i = skip(i)
                if text[i:i + 1] == ",":
                    i = skip(i + 1)
            i += 1
        else:
            _value, i = decoder.raw_decode(text, i)
        parts[key] = [start, i]
        i = skip(i)
        if text[i:i + 1] == ",":
            i = skip(i + 1)
    return {"parts": parts, "options": options}


@cache
def compiled_names() -> dict[str, dict]:
    """Release -> {"checksum": its inventory's checksum, "names": its option strings, "env": the
    variables its envs.py reads, "places": :func:`inventory_places` of its text} (empty when the
    compiled file is missing or unreadable)."""
    try:
        with open(DATA / NAMES, "rb") as f:
            out = json.load(f)["releases"]
        return out if isinstance(out, dict) else {}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def last_accepted_before(option: str, version: Version) -> tuple[str, str] | None:
    """The newest release before ``version`` that accepted ``option``, and the first one.

    Looks through the inventories first, then the history.  Returns
    ``(first_seen, last_accepted)`` or None if no release we know ever accepted it.
    """
    last: Version | None = None
    first: Version | None = None
    for v in known_versions():
        if v >= version:
            break
        if option in release_names(v):
            last = v
            first = first or v
    hist = history().get("options", {}).get(option)
    if hist:
        runs = hist.get("accepted", [])
        if runs:
            h_first = _parsed(runs[0][0])
            h_last = _parsed(runs[-1][1])
            first = min(first, h_first) if first else h_first
            if last is None and h_last < version:
                last = h_last
    if last is None:
        return None
    return str(first), str(last)


def first_accepted_after(option: str, version: Version) -> Version | None:
    """The oldest known release after ``version`` that accepts ``option`` (history included)."""
    hist = history().get("options", {}).get(option) or {}
    for first, _last in hist.get("accepted", []):
        if _parsed(first) > version:
            return _parsed(first)
    for v in known_versions():
        if v > version and option in release_names(v):
            return v
    return None


class OptionHistory(Frozen):
    """What the inventories and the history say of one option string across every known release.

    ``runs``: (first, last) releases of each unbroken stretch that accepted it, oldest first,
    over the history (0.6.0 to 0.27.x, names only) and the inventories; ``deprecated_in``: the
    first release whose inventory (or the history) marks it deprecated; ``removed_in``: the
    release after the last run when a newer release rejects it; ``replacement``: the curated
    replacement (``migrations.yaml``), else the history's; ``facts``: the curated facts.
    """

    __slots__ = ("option", "runs", "deprecated_in", "removed_in", "replacement", "facts")

    option: str
    runs: tuple[tuple[Version, Version], ...]
    deprecated_in: Version | None
    removed_in: Version | None
    replacement: str | None
    facts: tuple[OptionFact, ...]

    def __init__(self, option, runs, deprecated_in, removed_in, replacement, facts):
        _set(self, "option", option)
        _set(self, "runs", runs)
        _set(self, "deprecated_in", deprecated_in)
        _set(self, "removed_in", removed_in)
        _set(self, "replacement", replacement)
        _set(self, "facts", facts)


def option_history(option: str) -> OptionHistory:
    """The history of ``option`` (an option string such as ``--max-num-seqs``)."""
    hist = history().get("options", {}).get(option) or {}
    hist_runs = [(_parsed(a), _parsed(b)) for a, b in hist.get("accepted", [])]
    inventory = set(known_versions())
    ordered = sorted(set(history_versions()) | inventory)
    runs: list[tuple[Version, Version]] = []
    deprecated: Version | None = _version(hist.get("deprecated_in"))
    start = prev = None
    for v in ordered:
        if v in inventory:
            spec = release(v).by_name.get(option)
            accepted = spec is not None
            if spec is not None and spec.deprecated and deprecated is None:
                deprecated = v
        else:
            accepted = any(a <= v <= b for a, b in hist_runs)
        if accepted:
            start = start or v
            prev = v
        elif start is not None:
            runs.append((start, prev))
            start = None
    if start is not None:
        runs.append((start, prev))
    removed = None
    if runs and runs[-1][1] != ordered[-1]:
        removed = ordered[ordered.index(runs[-1][1]) + 1]
    facts = tuple(migrations().option_facts(option))
    curated = migrations().curated(option)
    replacement = (curated.replacement if curated is not None else None) or hist.get("replacement")
    return OptionHistory(option, tuple(runs), deprecated, removed, replacement, facts)
