"""Read a launch the way one vLLM release's ``vllm serve`` parser reads it.

Two stages, as in vLLM:

1. ``FlexibleArgumentParser.parse_args`` rewrites the argv: ``vllm serve``
   moves ``--model X`` to the positional slot, pulls ``--config FILE`` options
   in, turns underscores into dashes in option names, expands ``-O3``, and
   gathers dotted keys (``--compilation-config.mode 3``) into JSON values that it
   appends at the end.
2. argparse resolves each option string (exact, ``--opt=value``, unique prefix
   when ``allow_abbrev``, ambiguous prefix, unknown), and consumes values by
   ``nargs``.

Every item keeps a pointer to the token (and the range inside it) that it came
from, so rules can point at, and fix, exactly what the user wrote.  Tokens that
are not known statically (``$VAR``, templates) are *opaque*: the model never
draws a conclusion from an opaque part.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Mapping
from typing import Any, Literal

from linter import bounded_json, knowledge
from linter.knowledge import OptionSpec, Release
from linter.launch import Launch, Setting, Token
from linter.lazy_re import lazy_re
from linter.records import Record

_NEGATIVE_NUMBER = lazy_re(r"^-\d+$|^-\d*\.\d+$")

# ``template``: a chart value key that is no vLLM option; what it does depends on the
# chart's template (production-stack's ``v1: 1`` sets VLLM_USE_V1), so it is not judged.
Match = Literal["exact", "normalized", "abbrev", "ambiguous", "unknown", "template"]


class Item(Record):
    """One argv string after vLLM's rewriting, with where it came from."""

    __slots__ = ("text", "token", "start", "end", "opaque", "splat", "dotted_from", "from_config")

    text: str
    token: Token | None
    start: int  # range of ``token.value`` this item's text came from
    end: int
    opaque: bool  # some part is unknown
    splat: bool  # may be any number of argv strings
    dotted_from: list[ParsedDotted] | None
    from_config: bool

    def __init__(self, text, token, start=0, end=0, opaque=False, splat=False, dotted_from=None, from_config=False):
        self.text = text
        self.token = token
        self.start = start
        self.end = end
        self.opaque = opaque
        self.splat = splat
        self.dotted_from = dotted_from
        self.from_config = from_config


class ParsedDotted(Record):
    """A ``--opt.key value`` argument that vLLM gathers into a JSON value."""

    __slots__ = ("key", "path", "append", "value", "name_item", "value_item")

    key: str
    path: list[str]
    append: bool
    value: str | None
    name_item: Item
    value_item: Item | None

    def __init__(self, key, path, append, value, name_item, value_item):
        self.key = key
        self.path = path
        self.append = append
        self.value = value
        self.name_item = name_item
        self.value_item = value_item


class ParsedOption(Record):
    """An option as the release's parser resolved it."""

    __slots__ = ("written", "normalized", "spec", "matched", "match", "candidates", "name", "name_range", "values", "explicit", "negative", "dotted", "from_config", "setting")

    written: str  # the option string as written (e.g. "--max_num_seq")
    normalized: str  # after vLLM's underscore rewriting (e.g. "--max-num-seq")
    spec: OptionSpec | None  # the action argparse matched, None if unknown/ambiguous
    matched: str | None  # the option string argparse matched (e.g. "--max-num-seqs")
    match: Match
    candidates: list[str]  # for ambiguous prefixes
    name: Item  # the item of the option name
    name_range: tuple[int, int]  # range of the option name inside name.token.value
    values: list[Item]
    explicit: bool  # value given with "=" in the same token
    negative: bool  # a --no-x form
    dotted: list[ParsedDotted] | None
    from_config: bool
    setting: Setting | None  # for keyword launches

    def __init__(self, written, normalized, spec, matched, match, candidates, name, name_range, values=None, explicit=False, negative=False, dotted=None, from_config=False, setting=None):
        self.written = written
        self.normalized = normalized
        self.spec = spec
        self.matched = matched
        self.match = match
        self.candidates = candidates
        self.name = name
        self.name_range = name_range
        self.values = ([] if values is None else values)
        self.explicit = explicit
        self.negative = negative
        self.dotted = dotted
        self.from_config = from_config
        self.setting = setting

    @property
    def value(self) -> str | None:
        return self.values[0].text if self.values else None

    @property
    def value_item(self) -> Item | None:
        return self.values[0] if self.values else None

    @property
    def value_opaque(self) -> bool:
        return any(v.opaque or v.splat for v in self.values)

    @property
    def dest(self) -> str | None:
        return self.spec.dest if self.spec else None

    @property
    def known_value(self) -> str | None:
        """The (last) value when it is fully known, else None (no value, ``$VAR``, a template)."""
        if not self.values or self.value_opaque:
            return None
        return self.values[-1].text

    @property
    def int_value(self) -> int | None:
        """The known value as vLLM reads an int option: plain, with ``_``, or human-readable
        (:func:`human_readable_int`: 1k = 1000, 1K = 1024)."""
        text = self.known_value
        if text is None:
            return None
        return human_readable_int(text.replace("_", ""))

    @property
    def json_object(self) -> dict | None:
        """The JSON object the option holds (``--opt '{...}'``, dotted ``--opt.key v``, ``opt={...}``)."""
        text = self.known_value
        if text is None:
            return None
        try:
            value = bounded_json.loads(text)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def name_token(self) -> Token | None:
        return self.name.token


class ArgError(Record):
    """Something the release's parser rejects (argparse error or vLLM's own check)."""

    __slots__ = ("kind", "message", "item", "option")

    kind: str  # missing-value, unexpected-value, extra-positional, invalid-choice, invalid-json, invalid-type, negative-decimal, model-twice, option-with-space
    message: str
    item: Item | None
    option: ParsedOption | None

    def __init__(self, kind, message, item, option=None):
        self.kind = kind
        self.message = message
        self.item = item
        self.option = option


class ParsedLaunch(Record):
    __slots__ = ("launch", "release", "options", "positionals", "errors", "model_option", "config_files", "config_equals", "uncertain", "config_options")

    launch: Launch
    release: Release
    options: list[ParsedOption]
    positionals: list[Item]
    errors: list[ArgError]
    model_option: Item | None  # ``--model X`` moved to the positional slot by ``vllm serve``
    config_files: list[Item]  # ``--config FILE`` values
    config_equals: list[Item]  # ``--config=FILE`` (ignored by vLLM)
    uncertain: bool  # a splat token makes argv positions uncertain
    # Options read from the ``--config`` file the launch names, in the order vLLM
    # inserts them (before the command line's own, which win).  They are linted
    # where they are written, in the config file, so rules do not report them here.
    config_options: list[ParsedOption]

    def __init__(self, launch, release, options=None, positionals=None, errors=None, model_option=None, config_files=None, config_equals=None, uncertain=False, config_options=None):
        self.launch = launch
        self.release = release
        self.options = ([] if options is None else options)
        self.positionals = ([] if positionals is None else positionals)
        self.errors = ([] if errors is None else errors)
        self.model_option = model_option
        self.config_files = ([] if config_files is None else config_files)
        self.config_equals = ([] if config_equals is None else config_equals)
        self.uncertain = uncertain
        self.config_options = ([] if config_options is None else config_options)

    def add_error(self, error: ArgError) -> None:
        if error.item is not None and error.item.from_config:
            return
        self.errors.append(error)

    def find(self, dest: str) -> list[ParsedOption]:
        """Every setting of ``dest``, config file first: the last one wins."""
        return [o for o in [*self.config_options, *self.options] if o.spec is not None and o.spec.dest == dest]

    def last(self, dest: str) -> ParsedOption | None:
        found = self.find(dest)
        return found[-1] if found else None

    # -- readings shared by the rules ---------------------------------------
    @property
    def model_item(self) -> Item | None:
        """The item naming the model (positional, moved ``--model``, or ``model=``), if any."""
        if self.launch.style == "settings" or self.launch.entrypoint not in ("vllm serve", "image"):
            opt = self.last("model")
            return opt.values[-1] if opt is not None and opt.values else None
        if self.model_option is not None:
            return self.model_option
        if self.positionals:
            first = self.positionals[0]
            return None if first.splat else first
        opt = self.last("model")
        return opt.values[-1] if opt is not None and opt.values else None

    @property
    def model(self) -> str | None:
        """The model the launch serves, when it is written out (not ``$MODEL``, not a template)."""
        item = self.model_item
        if item is None or item.opaque or item.splat:
            return None
        return item.text

    def flag(self, dest: str) -> tuple[bool, bool | None, ParsedOption | None]:
        """(set, on, option) of a boolean option; ``on`` None when it is not known statically."""
        opt = self.last(dest)
        if opt is None:
            return False, None, None
        if opt.setting is None and opt.spec is not None and not opt.spec.takes_value:
            return True, not opt.negative, opt
        text = opt.known_value
        if text is None:
            return True, None, opt
        low = text.strip().lower()
        if low in ("true", "1", "yes"):
            return True, not opt.negative, opt
        if low in ("false", "0", "no", "none"):
            if self.launch.entrypoint == "config" and "--no-" + opt.written not in self.release.by_name:
                return False, None, None  # vLLM drops `key: false` without a `--no-key` option string (VL210)
            return True, opt.negative, opt
        return True, None, opt

    def int_value(self, dest: str) -> int | None:
        """The int value of ``dest`` that wins (see :attr:`ParsedOption.int_value`), None when unset or unknown."""
        opt = self.last(dest)
        return opt.int_value if opt is not None else None

    def spelling(self, dest: str) -> str:
        """How this launch's own syntax spells the option of ``dest``: ``--max-model-len``,
        ``max_model_len=`` (Python keywords), ``max-model-len: `` (a ``--config`` file)."""
        if self.launch.style == "settings" and self.launch.entrypoint != "config":
            return f"{dest}="
        if self.launch.entrypoint == "config":
            return dest.replace("_", "-") + ": "
        spec = self.release.by_dest.get(dest)
        return spec.primary if spec is not None else "--" + dest.replace("_", "-")


# ---------------------------------------------------------------------------
# Stage 1: vLLM's rewriting


def _item(tok: Token) -> Item:
    return Item(tok.value, tok, 0, len(tok.value), opaque=tok.is_opaque, splat=tok.splat)


def _sub(it: Item, start: int, end: int, text: str | None = None) -> Item:
    """An item for ``it.text[start:end]`` (only for items whose text mirrors the token)."""
    tok = it.token
    s, e = it.start + start, it.start + end
    opaque = bool(tok is not None and tok.opaque_in(s, e))
    return Item(text if text is not None else it.text[start:end], tok, s, e, opaque=opaque, splat=it.splat)


def _underscores(arg: str) -> str:
    """vLLM: underscores become dashes between ``--`` and the first ``.`` of the key."""
    if "=" in arg:
        key, value = arg.split("=", 1)
        return _underscores_key(key) + "=" + value
    return _underscores_key(arg)


def _underscores_key(key: str) -> str:
    dot = key.find(".", 2)
    head, tail = (key, "") if dot == -1 else (key[:dot], key[dot:])
    return "--" + head[2:].replace("_", "-") + tail


_CAMEL_BREAK = lazy_re(r"(?<=[a-z0-9])(?=[A-Z])")


def _squash(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "")


_CHART_KEYS: dict[str, Mapping[str, OptionSpec]] = {}


def chart_option(release: Release, key: str) -> OptionSpec | None:
    """The option a chart values key names: its words in any spelling (``maxModelLen``,
    ``max_model_len``, ``enableLoRA``) equal to an option's words, else None."""
    table = _CHART_KEYS.get(release.name)
    if table is None:
        table = _CHART_KEYS[release.name] = release.specs_by(_chart_keys)
    return table.get(_squash(key))


def _chart_keys(option: dict) -> list[str]:
    """The chart keys an option of a release's inventory answers to: its dest's words, then each
    positive long name's."""
    negative = option.get("negative_names")
    keys = [_squash(option["dest"])]
    for n in option["names"]:  # (a loop, not a generator: each release a run meets builds its table, 300 options)
        if n[:2] == "--" and not (negative and n in negative):
            keys.append(_squash(n[2:]))
    return keys


def _chart_history(release: Release, key: str) -> str | None:
    """The option string a chart key spells when that option belongs to another release."""
    dashed = "--" + _CAMEL_BREAK.sub("-", key).replace("_", "-").lower()
    if knowledge.last_accepted_before(dashed, release.version) or knowledge.first_accepted_after(dashed, release.version):
        return dashed
    return None


def _config_items(release: Release, settings: list[Setting]) -> list[Item]:
    """What vLLM's ``load_config_file`` turns a config file into (0.28 to 0.33)."""
    out: list[Item] = []

    def add(text: str, token: Token | None = None) -> None:
        out.append(Item(text, token, 0, len(text), opaque=bool(token is not None and token.is_opaque), from_config=True))

    for s in settings:
        key = s.name.value
        value = s.value.value if s.value is not None else ""
        if s.kind == "opaque" or s.name.is_opaque:
            continue
        if s.kind == "bool":
            if value.lower() in ("true", "yes", "on", "y"):
                add("--" + key)
            elif "--no-" + key in release.by_name:
                add("--no-" + key)
            continue
        if s.kind == "json":
            try:
                data = bounded_json.loads(value)
            except ValueError:
                continue
            if isinstance(data, list):
                if data:
                    add("--" + key)
                    for v in data:
                        add(str(v))
                continue
            add("--" + key)
            add(json.dumps(data))
            continue
        add("--" + key)
        add("None" if s.kind == "null" else value, s.value)
    return out


def _rewrite(parsed: ParsedLaunch, items: list[Item], serve: bool, config: list[Setting] | None = None) -> list[Item]:
    release = parsed.release
    parser = release.parser
    if serve and parser.get("model_option_moved", True):
        model_idx = next(
            (i for i, it in enumerate(items) if not it.opaque and (it.text == "--model" or it.text.startswith("--model="))),
            None,
        )
        if model_idx is not None:
            it = items[model_idx]
            if it.text == "--model":
                value = items[model_idx + 1] if model_idx + 1 < len(items) else None
                rest = model_idx + 2
            else:
                value = _sub(it, len("--model="), len(it.text))
                rest = model_idx + 1
            if value is None:
                parsed.add_error(ArgError("missing-value", "--model expects a value", it))
            parsed.model_option = value or it
            moved = [value] if value is not None else []
            items = moved + items[:model_idx] + items[rest:]

    if serve and parser.get("served_name_needs_model", True) and items and not items[0].opaque and items[0].text.startswith("-"):
        texts = [it.text for it in items if not it.opaque]
        if not any(t == "--config" or t.startswith("--config=") for t in texts) and any(
            re.match(r"^--served[-_]model[-_]name(=.+|$)", t) for t in texts
        ):
            parsed.add_error(
                ArgError("model-not-first", "`vllm serve` needs the model as its first positional argument when --served-model-name is given", items[0])
            )

    if parser.get("config_option", "--config"):
        for i, it in enumerate(items):
            if it.opaque:
                continue
            if it.text == "--config" and i + 1 < len(items):
                parsed.config_files.append(items[i + 1])
            elif it.text.startswith("--config="):
                parsed.config_equals.append(it)
        if any(it.text == "--config" for it in items if not it.opaque):
            i = next(i for i, it in enumerate(items) if it.text == "--config")
            if i + 1 < len(items):
                pulled = _config_items(release, config) if config is not None else []
                rest = items[:i] + items[i + 2 :]
                # vLLM: config options go right after the positional model (cli > config > defaults)
                model_first = serve and rest and not rest[0].text.startswith("-")
                items = (rest[:1] + pulled + rest[1:]) if model_first else (pulled + rest)
            else:
                parsed.add_error(ArgError("missing-value", "--config expects a file (vLLM: no config file specified)", items[i]))
                items = items[:i]

    out: list[Item] = []
    underscores = parser.get("underscores_as_dashes", True)
    o_flag = "optimization-level" if parser.get("optimization_shorthand") == "-O" and "--optimization-level" in release.by_name else None
    for i, it in enumerate(items):
        text = it.text
        if it.opaque and it.token is not None and it.token.opaque_in(it.start, it.start + min(len(text), 2)):
            out.append(it)
            continue
        if text.startswith("--") and underscores:
            new = _underscores(text)
            out.append(Item(new, it.token, it.start, it.end, it.opaque, it.splat, from_config=it.from_config))
        elif o_flag == "optimization-level" and text.startswith("-O") and text != "-O":
            level = text[3:] if text[2:3] == "=" else text[2:]
            out.append(Item("--optimization-level", it.token, it.start, it.start + 2))
            out.append(_sub(it, len(text) - len(level), len(text)))
        elif o_flag == "optimization-level" and text == "-O" and i + 1 < len(items) and items[i + 1].text in {"0", "1", "2", "3"}:
            out.append(Item("--optimization-level", it.token, it.start, it.end))
        else:
            out.append(it)

    if not parser.get("dotted_json", True):
        return out
    # Dotted keys: gathered into one JSON value per option and appended at the end.
    delete: set[int] = set()
    gathered: dict[str, list[ParsedDotted]] = {}
    for i, it in enumerate(out):
        if i in delete:
            continue
        # an unknown value (``-O.attention_backend=${BACKEND}``) leaves the dotted key known
        key_end = it.start + (it.text.index("=") if "=" in it.text else len(it.text))
        if it.opaque and it.token is not None and it.token.opaque_in(it.start, key_end):
            continue
        text = it.text
        if not (text.startswith("-") and "." in text):
            continue
        if text.startswith("--") and "." not in text.split("=", 1)[0] and "=" in text:
            continue
        if "=" in text:
            key_text, value_text = text.split("=", 1)
            if "." not in key_text:
                continue
            value_item: Item | None = Item(value_text, it.token, it.end - len(value_text), it.end, it.opaque)
        else:
            key_text = text
            if i + 1 < len(out):
                value_item = out[i + 1]
                value_text = value_item.text
                delete.add(i + 1)
            else:
                value_item, value_text = None, None
        append = key_text.endswith("+")
        if append:
            key_text = key_text[:-1]
        key, *path = key_text.split(".")
        # A value that is not JSON is fine here: vLLM falls back to a human-readable
        # int or the raw string (see _dotted_json), so nothing is checked.
        name_item = Item(key, it.token, it.start, it.start + len(key) if it.text.startswith(key) else it.end, it.opaque)
        gathered.setdefault(key, []).append(ParsedDotted(key, path, append, value_text, name_item, value_item))
        delete.add(i)
    out = [it for i, it in enumerate(out) if i not in delete]
    for key, parts in gathered.items():
        first = parts[0]
        # A synthetic ``--opt`` + JSON pair; the name points at the first dotted token.
        name = Item(key, first.name_item.token, first.name_item.start, first.name_item.end, first.name_item.opaque, dotted_from=parts)
        value = Item(_dotted_json(parts), None, opaque=any(p.value_item is not None and p.value_item.opaque for p in parts), dotted_from=parts)
        out.append(name)
        out.append(value)
    return out


def _dotted_json(parts: list[ParsedDotted]) -> str:
    root: dict[str, Any] = {}
    for p in parts:
        raw = p.value or ""
        if p.append:
            value: Any = raw.split(",")
        else:
            try:
                value = bounded_json.loads(raw)
            except ValueError:
                value = raw
        d = root
        for k in p.path[:-1]:
            d = d.setdefault(k, {}) if isinstance(d.get(k, {}), dict) else {}
        if p.path:
            if p.append and isinstance(d.get(p.path[-1]), list):
                d[p.path[-1]] += value
            else:
                d[p.path[-1]] = value
    return json.dumps(root)


# ---------------------------------------------------------------------------
# Stage 2: argparse


class _Resolved(Record):
    __slots__ = ("kind", "spec", "option_string", "explicit", "candidates", "match")

    kind: Literal["positional", "option", "unknown", "ambiguous"]
    spec: OptionSpec | None
    option_string: str | None
    explicit: str | None
    candidates: list[str]
    match: Match

    def __init__(self, kind, spec=None, option_string=None, explicit=None, candidates=None, match="exact"):
        self.kind = kind
        self.spec = spec
        self.option_string = option_string
        self.explicit = explicit
        self.candidates = ([] if candidates is None else candidates)
        self.match = match


def resolve_option(release: Release, arg: str) -> _Resolved:
    """argparse's ``_parse_optional`` for one release's option table."""
    if not arg or arg[0] != "-":
        return _Resolved("positional")
    by_name = release.by_name
    if arg in by_name:
        return _Resolved("option", by_name[arg], arg)
    if len(arg) == 1:
        return _Resolved("positional")
    if "=" in arg:
        opt, explicit = arg.split("=", 1)
        if opt in by_name:
            return _Resolved("option", by_name[opt], opt, explicit)
    tuples = _option_tuples(release, arg)
    if len(tuples) > 1:
        return _Resolved("ambiguous", candidates=[t[1] for t in tuples], match="ambiguous")
    if len(tuples) == 1:
        spec, opt, explicit = tuples[0]
        return _Resolved("option", spec, opt, explicit, match="abbrev")
    if _NEGATIVE_NUMBER.match(arg) and not any(_NEGATIVE_NUMBER.match(o) for o in by_name):
        return _Resolved("positional")
    if " " in arg:
        return _Resolved("positional")
    return _Resolved("unknown", match="unknown")


def _option_tuples(release: Release, arg: str) -> list[tuple[OptionSpec, str, str | None]]:
    """argparse's ``_get_option_tuples``: the options ``arg`` abbreviates, in registration order
    (found through :func:`_starting`, not by testing every option string of the release)."""
    out: list[tuple[OptionSpec, str, str | None]] = []
    by_name = release.by_name
    if len(arg) >= 2 and arg[1] == "-":
        if not release.allow_abbrev:
            return out
        prefix, explicit = (arg.split("=", 1) + [None])[:2] if "=" in arg else (arg, None)
        for opt in _starting(release, prefix):
            out.append((by_name[opt], opt, explicit))
    else:
        short_prefix, short_explicit = arg[:2], arg[2:]
        # ``opt == arg[:2]`` or ``opt.startswith(arg)``: both start with ``arg[:2]``
        for opt in _starting(release, short_prefix):
            if opt == short_prefix:
                out.append((by_name[opt], opt, short_explicit))
            elif opt.startswith(arg):
                out.append((by_name[opt], opt, None))
    return out


def _starting(release: Release, prefix: str) -> list[str]:
    """The option strings of ``release`` that start with ``prefix``, in registration order
    (``by_name``'s): a bisection of its sorted strings (:attr:`Release.option_order`)."""
    ordered, place = release.option_order
    found = []
    for i in range(bisect.bisect_left(ordered, prefix), len(ordered)):
        if not ordered[i].startswith(prefix):
            break
        found.append(ordered[i])
    return sorted(found, key=place.__getitem__)


def _argparse(parsed: ParsedLaunch, items: list[Item], positional_slots: int) -> None:
    release = parsed.release
    kinds: list[_Resolved] = []
    after_dashdash = False
    for it in items:
        if after_dashdash:
            kinds.append(_Resolved("positional"))
            continue
        if it.text == "--" and not it.opaque:
            after_dashdash = True
            kinds.append(_Resolved("positional", match="exact"))
            continue
        if it.splat and _literal_option_name(it):
            # ``--opt=$V`` unquoted: the name before ``=`` is literal, only the value (and how
            # many words it splits into) is unknown
            kinds.append(resolve_option(release, it.text))
            continue
        if it.splat or (it.opaque and it.token is not None and it.token.opaque_in(it.start, it.start + 1)):
            kinds.append(_Resolved("positional", match="exact"))
            continue
        filled = _holes_filled(it)
        r = resolve_option(release, filled)
        if filled is not it.text and r.explicit:  # the value as written (same length), holes and all
            r = _Resolved(r.kind, spec=r.spec, option_string=r.option_string, explicit=it.text[len(it.text) - len(r.explicit):],
                          candidates=r.candidates, match=r.match)
        kinds.append(r)

    i = 0
    n = len(items)
    while i < n:
        it, r = items[i], kinds[i]
        if it.text == "--" and not it.opaque:
            i += 1
            continue
        if r.kind == "positional":
            if it.splat or it.opaque:
                parsed.uncertain = parsed.uncertain or it.splat
            if it.token is not None and it.token.conditional:
                parsed.uncertain = True  # present only when a variable is set: never the model
                i += 1
                continue
            parsed.positionals.append(it)
            i += 1
            continue
        if it.splat:
            parsed.uncertain = True  # ``--opt=$V``: the value may split into more words
        written = it.token.value[it.start : it.end] if it.token is not None else it.text
        name_len = len(written.split("=", 1)[0]) if "=" in written else len(written)
        option = ParsedOption(
            written=written.split("=", 1)[0] if r.explicit is not None or "=" in written else written,
            normalized=it.text.split("=", 1)[0] if "=" in it.text else it.text,
            spec=r.spec,
            matched=r.option_string,
            match=r.match,
            candidates=r.candidates,
            name=_literal_name(it, name_len) if "=" in it.text else it,
            name_range=(it.start, it.start + name_len),
            from_config=it.from_config,
            dotted=it.dotted_from,
        )
        if r.kind == "option" and option.match == "exact" and option.written != option.normalized:
            option.match = "normalized"
        (parsed.config_options if it.from_config else parsed.options).append(option)
        i += 1
        if r.kind != "option":
            # Unknown or ambiguous: argparse errors; do not guess whether a value follows,
            # but skip a following plain word that is clearly its value (``--unknown 5``).
            if "=" not in it.text and i < n and kinds[i].kind == "positional" and not items[i].splat:
                option.values.append(items[i])
                i += 1
            continue
        spec = r.spec
        assert spec is not None
        option.negative = r.option_string in spec.negative_names
        if r.explicit is not None:
            value_item = Item(r.explicit, it.token, it.end - len(r.explicit), it.end, it.opaque, it.splat, from_config=it.from_config, dotted_from=it.dotted_from)
            option.explicit = True
            if not spec.takes_value or option.negative:
                parsed.add_error(ArgError("unexpected-value", f"{r.option_string} takes no value", value_item, option))
            else:
                option.values.append(value_item)
            continue
        if not spec.takes_value or option.negative:
            continue
        lo, hi = spec.value_count()
        j = i
        while j < n and kinds[j].kind == "positional" and (hi is None or len(option.values) < hi):
            if items[j].text == "--" and not items[j].opaque:
                break
            option.values.append(items[j])
            j += 1
        i = j
        if len(option.values) < lo:
            if any(v.splat for v in option.values) or (i < n and items[i].splat):
                continue
            parsed.add_error(
                ArgError("missing-value", f"{r.option_string} expects {'a value' if lo == 1 else f'{lo} values'}", it, option)
            )

    # Positionals: ``vllm serve`` has one optional positional (the model).
    extra = parsed.positionals[positional_slots:]
    if not parsed.uncertain:
        for it in extra:
            if it.opaque:
                continue
            kind = "option-with-space" if it.text.startswith("-") and " " in it.text else "extra-positional"
            parsed.add_error(ArgError(kind, f"unrecognized argument {it.text!r}", it))


_HUMAN_INT = lazy_re(r"(\d+(?:\.\d+)?)([kKmMgGtT])")


def _holes_filled(it: Item) -> str:
    """``it.text`` with each unknown part (a template hole) as letters: argparse takes a word
    with a space for a positional, but ``--task={{ .Values.task }}`` renders without the
    spaces of its action, so only a space written outside a hole counts."""
    text = it.text
    if not it.opaque or it.token is None or " " not in text:
        return text
    chars = list(text)
    for a, b in it.token.opaque:
        for i in range(max(a, it.start) - it.start, min(b, it.end) - it.start):
            if 0 <= i < len(chars):
                chars[i] = "x"
    return "".join(chars)


def _literal_name(it: Item, name_len: int) -> Item:
    """The name item of ``--name=value``: known when the name stands literally (the value may not)."""
    if not _literal_option_name(it):
        return it
    return Item(it.text, it.token, it.start, it.end, opaque=False, splat=False, from_config=it.from_config, dotted_from=it.dotted_from)


def _literal_option_name(it: Item) -> bool:
    """``--name=...`` whose name and ``=`` stand literally in the word."""
    if not it.text.startswith("-") or "=" not in it.text or it.token is None:
        return False
    eq = it.text.index("=")
    lo, hi = it.start, it.start + eq + 1
    if any(a < hi and lo < b for a, b in it.token.opaque):
        return False
    return it.token.value[lo:hi] == it.text[: eq + 1]


def human_readable_int(text: str) -> int | None:
    """vLLM's ``human_readable_int`` (vllm/utils/argparse_utils.py): ``32k`` = 32,000, ``32K`` = 32,768."""
    value = text.strip()
    m = _HUMAN_INT.fullmatch(value)
    if m:
        number, suffix = m.groups()
        if suffix in "kmgt":
            return int(float(number) * 10 ** (3 * ("kmgt".index(suffix) + 1)))
        if "." in number:
            return None  # vLLM: decimals are not allowed with binary suffixes
        return int(number) * 2 ** (10 * ("KMGT".index(suffix) + 1))
    try:
        return int(value)
    except ValueError:
        return None


def convert(spec: OptionSpec, text: str) -> tuple[bool, Any]:
    """(ok, value) of ``text`` through the option's type, as the release's parser converts it."""
    t = spec.type
    if t == "int":
        try:
            return True, int(text)
        except ValueError:
            return False, None
    if t == "float":
        try:
            return True, float(text)
        except ValueError:
            return False, None
    if t == "human_readable_int":
        v = human_readable_int(text)
        return v is not None, v
    if t == "callable:human_readable_int_or_auto":
        if text.strip() == "-1" or text.strip().lower() == "auto":
            return True, -1
        v = human_readable_int(text)
        return v is not None, v
    return True, text


_METAVAR = lazy_re(r"[A-Z][A-Z0-9_]*\Z")  # ``N``, ``MAX_LEN``: argparse's metavar style


def _check_values(parsed: ParsedLaunch) -> None:
    for opt in parsed.options:
        spec = opt.spec
        if spec is not None and spec.primary == "--optimization-level" and opt.written == "-O" and opt.values \
                and opt.values[0].text.startswith("."):
            # ``-O.key=value`` (a compilation-config key in releases where ``-O`` was that
            # option's alias): a parser that rewrites every ``-O...`` to ``--optimization-level``
            # passes ``.key=value`` on as the level, which is no level (the config refuses it)
            v = opt.values[0]
            parsed.add_error(ArgError(
                "invalid-type",
                f"`-O{v.text}` is read as `--optimization-level {v.text}` (this parser turns every `-O...` into the "
                "optimization level), and the server fails at start-up on that level; a compilation-config key is "
                "written `--compilation-config.KEY` here",
                v, opt))
            continue
        if spec is None or not opt.values or opt.value_opaque or parsed.release.partial:
            continue
        if opt.setting is not None and (not spec.takes_value or opt.setting.kind in ("null", "opaque", "bool")):
            continue  # None means "unset"; booleans and expressions are not argv text
        for v in opt.values:
            text = v.text
            ok, value = convert(spec, text)
            if not ok and parsed.launch.kind == "markdown" and _METAVAR.match(text):
                continue  # documentation: ``--tensor-parallel-size N`` names the value, it is not one
            if not ok:
                kind = {"float": "a number"}.get(spec.type or "", "an integer")
                parsed.add_error(ArgError("invalid-type", f"{spec.primary} expects {kind}, got {text!r}", v, opt))
            elif spec.choices is not None and value not in spec.choices and text not in [str(c) for c in spec.choices]:
                parsed.add_error(ArgError("invalid-choice", f"invalid choice {text!r} for {spec.primary}", v, opt))
            elif spec.json and v.dotted_from is None and text.lstrip().startswith(("{", "[")):
                try:
                    bounded_json.loads(text)
                except bounded_json.TooDeep as exc:
                    parsed.add_error(ArgError("invalid-json", f"{spec.primary} value is {exc}; vLLM's parser would fail on it, and vllm-lint does not read it", v, opt))
                except ValueError as exc:
                    parsed.add_error(ArgError("invalid-json", f"{spec.primary} value is not valid JSON: {exc}", v, opt))


# ---------------------------------------------------------------------------
# Keyword launches: ``LLM(max_model_len=...)`` and ``--config`` files


def _parse_settings(parsed: ParsedLaunch) -> None:
    release = parsed.release
    launch = parsed.launch
    for index, setting in enumerate(launch.settings):
        name_tok = setting.name
        key = name_tok.value
        if launch.loose_from is not None and index >= launch.loose_from and chart_option(release, key) is None and _chart_history(release, key) is None:
            continue  # the chart entry's own key (``replicaCount``), not a vLLM setting
        if launch.entrypoint == "config":
            # vLLM's load_config_file turns ``key: value`` into ``--key value``; the
            # argv then goes through the same rewriting and argparse as the command line.
            written = "--" + key
            normalized = _underscores(written)
            r = resolve_option(release, normalized)
        elif launch.entrypoint == "chart":
            # A chart values key (``maxModelLen``, ``enable-prefix-caching``) that the chart's
            # template renders as the option of the same words.
            written = key
            spec = chart_option(release, key)
            normalized = spec.primary if spec is not None else key
            r = _Resolved("option", spec, spec.primary) if spec else _Resolved("unknown", match="template")
            dashed = _chart_history(release, key) if spec is None else None
            if dashed is not None:  # an option of an earlier or later release (``swapSpace``): judged as that option
                normalized, r = dashed, _Resolved("unknown", match="unknown")
        else:
            written = key
            normalized = key
            spec = release.by_dest.get(key)
            r = _Resolved("option", spec, spec.primary) if spec else _Resolved("unknown", match="unknown")
        item = Item(written, name_tok, 0, len(key), name_tok.is_opaque)
        opt = ParsedOption(
            written=key,
            normalized=normalized,
            spec=r.spec,
            matched=r.option_string,
            match=r.match if r.kind != "unknown" or r.match == "template" else "unknown",
            candidates=r.candidates,
            name=item,
            name_range=(0, len(key)),
            setting=setting,
        )
        if r.kind == "option" and opt.match == "exact" and written != normalized:
            opt.match = "normalized"
        if setting.value is not None:
            v = setting.value
            opt.values.append(Item(v.value, v, 0, len(v.value), v.is_opaque or setting.kind == "opaque", v.splat))
        if r.spec is not None and r.option_string in r.spec.negative_names:
            opt.negative = True
        parsed.options.append(opt)


# ---------------------------------------------------------------------------


def parse(launch: Launch, release: Release, config: list[Setting] | None = None) -> ParsedLaunch:
    """Read ``launch`` as ``release``'s parser would.

    ``config``: the settings of the file that the launch's ``--config`` names,
    when the engine could read it; vLLM inserts them into the argv.
    """
    parsed = ParsedLaunch(launch, release)
    if launch.style == "settings":
        _parse_settings(parsed)
        if launch.entrypoint == "chart" and launch.args:
            # a chart's model and its list of extra flags, rendered after the keyed settings
            items = _rewrite(parsed, [_item(t) for t in launch.args], True, None)
            _argparse(parsed, items, len(release.positionals))
        _check_values(parsed)
        return parsed
    serve = launch.entrypoint in ("vllm serve", "image")
    items = [_item(t) for t in launch.args]
    items = _rewrite(parsed, items, serve, config)
    slots = len(release.positionals) if serve else 0
    if not serve:
        slots = 0
    _argparse(parsed, items, slots)
    _check_values(parsed)
    return parsed
