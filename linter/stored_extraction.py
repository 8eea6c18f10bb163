"""An :class:`~linter.sources.Extraction` as plain JSON data, and back, for the extraction cache.

The cache (:mod:`linter.cache`) keeps what the readers found in a file apart
from what the argument model and the rules made of it, so that a new
``--target-version``, selection or knowledge update re-runs only those.  Each
class of the extraction has one fixed list layout here (no pickle: a cache
file is data, never code); :func:`decode` rebuilds equal objects
(``decode(encode(x)) == x``, tuples as tuples; but for ``written``, the data
files the scripts write, which :func:`linter.engine.extract` has read into the
launches already), and raises ``ValueError`` on anything it does not recognise,
which the cache treats as a miss.
"""

from __future__ import annotations

from typing import get_args

from linter.launch import EnvVar, Launch, Origin, Program, Setting, SettingKind, Span, Style, Token, VersionHint
from linter.records import field_names
from linter.sources import Comment, Extraction, Problem


class BadExtraction(ValueError):
    """A stored extraction that is not one :func:`encode` could have written."""


# -- checks: every value read back is of the type and range encode writes, every span
# inside the file's text (``size``: its length in characters)

def _str(v) -> str:
    if not isinstance(v, str):
        raise BadExtraction("not a string")
    return v


def _bool(v) -> bool:
    if not isinstance(v, bool):
        raise BadExtraction("not a boolean")
    return v


def _flag(v) -> bool:
    if v not in (0, 1) or isinstance(v, bool):
        raise BadExtraction("not a flag")
    return bool(v)


def _offset(v, size: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= size:
        raise BadExtraction("offset outside the file")
    return v


def _span(s, e, size: int) -> Span:
    if _offset(s, size) > _offset(e, size):
        raise BadExtraction("span outside the file")
    return Span(s, e)


def _comment(row: list, size: int) -> Comment:
    s, e, t, alone = row
    if alone not in (None, True, False):
        raise BadExtraction("malformed comment")
    return Comment(_span(s, e, size).start, e, _str(t), alone)


def _list(v, width: int | None = None) -> list:
    if not isinstance(v, list) or (width is not None and not all(isinstance(r, list) and len(r) == width for r in v)):
        raise BadExtraction("malformed rows")
    return v


def _row(v, width: int) -> list:
    if not isinstance(v, list) or len(v) != width:
        raise BadExtraction("malformed row")
    return v


def _one_of(v, allowed):
    if v not in allowed or not isinstance(v, str):
        raise BadExtraction("unknown value")
    return v


_SETTING_KINDS = get_args(SettingKind)  # the aliases, not get_type_hints: that evaluates every annotation of the classes
_ORIGINS = get_args(Origin)
_PROGRAMS = get_args(Program)  # once: typing's get_args on every launch read back was a tenth of the decoding
_STYLES = get_args(Style)


def _tok(t: Token | None):
    if t is None:
        return None
    return [t.value, t.span.start, t.span.end, t.value_start, [list(o) for o in t.opaque] if t.opaque else 0, 1 if t.splat else 0,
            1 if t.conditional else 0, list(t.alternatives) if t.alternatives else 0]


def _untok(d, size: int) -> Token | None:
    if d is None:
        return None
    value, s, e, vs, opaque, splat, conditional, alternatives = _row(d, 8)
    pieces = () if opaque == 0 else tuple((_offset(a, size), _offset(b, size)) for a, b in _list(opaque, 2))
    if any(a > b for a, b in pieces):
        raise BadExtraction("opaque piece outside the file")
    values = () if alternatives == 0 else tuple(_str(a) for a in _list(alternatives))
    if alternatives != 0 and not values:
        raise BadExtraction("empty alternatives")
    return Token(_str(value), _span(s, e, size), None if vs is None else _offset(vs, size), pieces, _flag(splat), _flag(conditional), values)


def _tokens(d, size: int) -> list[Token]:
    out = [_untok(t, size) for t in _list(d)]
    if None in out:
        raise BadExtraction("missing token")
    return out


def _hint(h: VersionHint | None):
    return None if h is None else [h.version, h.span.start, h.span.end, h.origin, h.editable]


def _unhint(d, size: int) -> VersionHint | None:
    if d is None:
        return None
    version, s, e, origin, editable = _row(d, 5)
    return VersionHint(_str(version), _span(s, e, size), _one_of(origin, _ORIGINS), _bool(editable))


def _unsetting(d, size: int) -> Setting:
    name, value, kind = _row(d, 3)
    if name is None:
        raise BadExtraction("missing setting name")
    return Setting(_untok(name, size), _untok(value, size), _one_of(kind, _SETTING_KINDS))


def _unenv(d, size: int) -> EnvVar:
    name, value = _row(d, 2)
    if name is None:
        raise BadExtraction("missing variable name")
    return EnvVar(_untok(name, size), _untok(value, size))


def _unresources(d, size: int) -> dict[str, str]:
    if not isinstance(d, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in d.items()):
        raise BadExtraction("malformed resources")
    return dict(d)


def _unloose(d, size: int) -> int | None:
    if d is None:
        return None
    if not isinstance(d, int) or isinstance(d, bool) or d < 0:
        raise BadExtraction("malformed loose_from")
    return d


# Launch: field name -> (to JSON, from JSON and the text's size); every field of Launch must
# be here (a new one fails the round trip test rather than being dropped silently)
def _checked(check):
    return (lambda v: v, lambda v, size: check(v))


_LAUNCH = {
    "path": _checked(_str), "kind": _checked(_str), "entrypoint": _checked(_str), "group": _checked(_str),
    "evidence": _checked(_str),
    "program": _checked(lambda v: _one_of(v, _PROGRAMS)), "style": _checked(lambda v: _one_of(v, _STYLES)),
    "editable": _checked(_bool), "shell_words": _checked(_bool), "strong": _checked(_bool),
    "span": (lambda s: [s.start, s.end], lambda d, size: _span(*_row(d, 2), size)),
    "entry": (lambda ts: [_tok(t) for t in ts], _tokens),
    "args": (lambda ts: [_tok(t) for t in ts], _tokens),
    "settings": (lambda ss: [[_tok(s.name), _tok(s.value), s.kind] for s in ss], lambda d, size: [_unsetting(r, size) for r in _list(d)]),
    "env": (lambda es: [[_tok(e.name), _tok(e.value)] for e in es], lambda d, size: [_unenv(r, size) for r in _list(d)]),
    "version_hint": (_hint, _unhint),
    "image": (_tok, _untok),
    "notes": (list, lambda d, size: [_str(n) for n in _list(d)]),
    "resources": (dict, _unresources),
    "loose_from": (lambda v: v, _unloose),
    "folds": (lambda ss: [[s.start, s.end] for s in ss], lambda d, size: [_span(*_row(r, 2), size) for r in _list(d)]),
    "mounts": (lambda ms: [[a, b] for a, b in ms], lambda d, size: [(_str(a), _str(b)) for a, b in (_row(r, 2) for r in _list(d))]),
    # a config file a heredoc of the script writes, linked to the launch naming it: that
    # launch is one of the extraction's own, stored as its place in their list and linked
    # again by :func:`decode` (:func:`_link`)
    "config": (None, None),
}
_LAUNCH_FIELDS = field_names(Launch)
assert set(_LAUNCH_FIELDS) == set(_LAUNCH), "linter.stored_extraction does not know every field of Launch"
assert _SETTING_KINDS and _ORIGINS, "linter.stored_extraction cannot read the values of Setting.kind and VersionHint.origin"


def _place(launch: Launch, launches: list[Launch]) -> int | None:
    """Where ``launch.config`` stands in ``launches`` (by identity), None when it has none."""
    if launch.config is None:
        return None
    return next(i for i, other in enumerate(launches) if other is launch.config)


def _link(rows: list, launches: list[Launch]) -> None:
    """Set each launch's ``config`` to the launch its row names by place: another launch of
    the list that itself names none (a heredoc's config file names no config)."""
    at = _LAUNCH_FIELDS.index("config")
    for launch, row in zip(launches, rows):
        i = row[at]
        if i is None:
            continue
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(launches) or rows[i][at] is not None or launches[i] is launch:
            raise BadExtraction("malformed config link")
        launch.config = launches[i]


def storable(x: Extraction) -> bool:
    """Whether :func:`encode` keeps all of ``x`` that the engine reads: each launch's linked
    config file is one of its launches (the data files its scripts write were read into
    them by :func:`linter.engine.extract`; ``written`` itself is not kept).  Otherwise the
    extraction is read again each run rather than stored in part."""
    ids = {id(launch) for launch in x.launches}
    return all(launch.config is None or (id(launch.config) in ids and launch.config.config is None) for launch in x.launches)


def encode(x: Extraction) -> dict:
    out: dict = {}
    if x.launches:
        out["L"] = [[_place(launch, x.launches) if name == "config" else _LAUNCH[name][0](getattr(launch, name)) for name in _LAUNCH_FIELDS]
                    for launch in x.launches]
    if x.problems:
        out["P"] = [[p.span.start, p.span.end, p.message] for p in x.problems]
    if x.pins:
        out["V"] = [_hint(h) for h in x.pins]
    if x.comments is not None:
        out["C"] = [[c.start, c.end, c.text, c.alone] for c in x.comments]
    if x.directives is not None:
        out["D"] = [[c.start, c.end, c.text, c.alone] for c in x.directives]
    return out


def decode(d: dict, size: int) -> Extraction:
    """The extraction :func:`encode` wrote as ``d``, for a text of ``size`` characters; raises
    :class:`BadExtraction` (a ValueError) for anything else: an unknown part, a wrong type or
    value, a span outside the text."""
    if not isinstance(d, dict) or not set(d) <= {"L", "P", "V", "C", "D"}:
        raise BadExtraction("not a stored extraction")
    rows = _list(d.get("L", []), len(_LAUNCH_FIELDS))
    launches = [
        Launch(**{name: _LAUNCH[name][1](v, size) for name, v in zip(_LAUNCH_FIELDS, row, strict=True) if name != "config"})
        for row in rows
    ]
    _link(rows, launches)
    problems = [Problem(_span(s, e, size), _str(m)) for s, e, m in _list(d.get("P", []), 3)]
    pins = [_unhint(h, size) for h in _list(d.get("V", []))]
    if None in pins:
        raise BadExtraction("missing pin")
    comments = [_comment(row, size) for row in _list(d["C"], 4)] if "C" in d else None
    directives = [_comment(row, size) for row in _list(d["D"], 4)] if "D" in d else None
    return Extraction(launches, problems, pins, comments, directives=directives)
