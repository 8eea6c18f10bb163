"""Place a YAML scalar's value in the file: an OffsetMap and a Token per scalar node.

PyYAML's composer gives every node a start and end mark whose ``index`` is a
character offset into the text that was parsed.  A scalar's value differs from
its raw text by the scalar style's rules: quotes, ``''`` and backslash escapes,
line folding, block indentation and chomping.  This module undoes those rules
while recording which characters of the value stand verbatim in the file, so
a token found inside a value (a flag inside an ``sh -c`` script) can be placed
and, when it lies in one verbatim stretch, edited.

Every map is checked against the value PyYAML computed; when the two disagree
the map falls back to pointing at the scalar (nothing editable) rather than
guessing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from linter.launch import EnvVar, Launch, Setting, Span, Token, VersionHint
from linter.lazy_re import lazy_re
from linter.offset_map import OffsetMap

if TYPE_CHECKING:
    from yaml.nodes import ScalarNode  # PyYAML is imported by the YAML readers, not for a shell file

_ESCAPE_LEN = {"x": 2, "u": 4, "U": 8}
_SIMPLE_ESCAPES = frozenset('0abt\tnvfre "/\\N_LP')


# characters the decoding loop must look at one by one; runs of others are copied whole
_SPECIAL = lazy_re("[ \t\r\n\x85\u2028\u2029'\\\\]")


def _is_break(c: str) -> bool:
    return c in "\r\n\x85\u2028\u2029"


def _flow_map(text: str, start: int, end: int, style: str | None) -> tuple[str, OffsetMap]:
    """Decode a plain, single- or double-quoted scalar ``text[start:end]`` with its map."""
    if style in ("'", '"'):
        base, stop = start + 1, end - 1
    else:
        base, stop = start, end
    out: list[str] = []
    size = [0]  # characters in ``out``
    omap = OffsetMap(fallback=start)
    pending: list[tuple[int, str]] = []  # whitespace not yet known to be kept
    i = base

    def emit(c: str, pos: int | None) -> None:
        if pos is not None:
            omap.add(size[0], pos, len(c))
        out.append(c)
        size[0] += len(c)

    def flush() -> None:
        for pos, c in pending:
            emit(c, pos)
        pending.clear()

    while i < stop:
        c = text[i]
        if c in " \t":
            pending.append((i, c))
            i += 1
            continue
        if _is_break(c):
            pending.clear()
            i += 2 if text.startswith("\r\n", i) else 1
            breaks = 0
            while True:
                j = i
                while j < stop and text[j] in " \t":
                    j += 1
                if j < stop and _is_break(text[j]):
                    breaks += 1
                    i = j + (2 if text.startswith("\r\n", j) else 1)
                    continue
                i = j
                break
            for _ in range(breaks):
                emit("\n", None)
            if not breaks:
                emit(" ", None)
            continue
        flush()
        if style == "'" and c == "'" and i + 1 < stop and text[i + 1] == "'":
            emit("'", None)
            i += 2
            continue
        if style == '"' and c == "\\" and i + 1 < stop:
            e = text[i + 1]
            if _is_break(e):
                i += 1
                i += 2 if text.startswith("\r\n", i) else 1
                while i < stop and text[i] in " \t":
                    i += 1
                # escaped break: following empty lines still give newlines
                while i < stop and _is_break(text[i]):
                    emit("\n", None)
                    i += 2 if text.startswith("\r\n", i) else 1
                    while i < stop and text[i] in " \t":
                        i += 1
                continue
            if e in _ESCAPE_LEN:
                n = _ESCAPE_LEN[e]
                try:
                    emit(chr(int(text[i + 2 : i + 2 + n], 16)), None)
                except ValueError:
                    emit("?", None)
                i += 2 + n
                continue
            emit({"0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f",
                  "r": "\r", "e": "\x1b", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}.get(e, e), None)
            i += 2
            continue
        m = _SPECIAL.search(text, i + 1, stop)
        j = m.start() if m else stop
        emit(text[i:j], i)  # a run of ordinary characters, verbatim (a 5 MB line in one step)
        i = j
    if style in ("'", '"'):
        flush()  # trailing spaces inside quotes are content
    return "".join(out), omap


def _block_map(text: str, start: int, end: int, value: str) -> OffsetMap | None:
    """Map a literal block scalar's value (``|``); None when the layout is not understood."""
    omap = OffsetMap(fallback=start)
    nl = text.find("\n", start, max(end, start))
    if nl == -1:
        return omap if value == "" else None
    pos = nl + 1
    lines: list[tuple[int, int]] = []  # (line start, content end excluding the break)
    while pos < end:
        e = text.find("\n", pos, end)
        if e == -1:
            lines.append((pos, end))
            break
        lines.append((pos, e))
        pos = e + 1
    # indentation: the first line with content, compared with the value's first line
    indent = None
    first_value_line = value.split("\n", 1)[0]
    for ls, le in lines:
        raw = text[ls:le].rstrip("\r")
        if raw.strip(" "):
            lead = len(raw) - len(raw.lstrip(" "))
            indent = lead - (len(first_value_line) - len(first_value_line.lstrip(" ")))
            break
    if indent is None:
        return omap if value.strip("\n") == "" else None
    built: list[str] = []
    length = 0
    for ls, le in lines:
        line_end = le - 1 if le > ls and text[le - 1] == "\r" else le
        content_start = min(ls + indent, line_end)
        content = text[content_start:line_end]
        omap.add(length, content_start, len(content))
        built.append(content)
        length += len(content)
        if le < end and text[le] == "\n":
            if line_end == le:  # a bare LF stands verbatim
                omap.add(length, le, 1)
            built.append("\n")
            length += 1
    full = "".join(built)
    if not full.startswith(value):
        # clip/strip chomping keeps fewer trailing breaks; anything else is unexpected
        return None
    omap.segments = [(s, f, min(n, len(value) - s)) for s, f, n in omap.segments if s < len(value)]
    return omap


def _folded_map(text: str, start: int, end: int, value: str) -> tuple[OffsetMap, bool]:
    """The map of a folded block scalar (``>``): each line's text where it occurs in the value,
    and whether the map is exact: every line found, in order, and nothing of the value left
    unplaced but the spaces and line breaks that folding and indentation made."""
    omap = OffsetMap(fallback=start)
    nl = text.find("\n", start, max(end, start))
    if nl == -1:
        return omap, False
    pos, cursor, exact = nl + 1, 0, True
    while pos < end:
        e = text.find("\n", pos, end)
        e = end if e == -1 else e
        raw = text[pos:e].rstrip("\r")
        stripped = raw.strip(" ")
        if stripped:
            lead = len(raw) - len(raw.lstrip(" "))
            k = value.find(stripped, cursor)
            if k != -1 and not value[cursor:k].strip(" \n"):
                omap.add(k, pos + lead, len(stripped))
                cursor = k + len(stripped)
            else:
                exact = False
        pos = e + 1
    exact = exact and not value[cursor:].strip(" \n")
    return omap, exact


def folds(node: ScalarNode) -> bool:
    """Whether the scalar's line breaks read as spaces: a folded block (``>``), or a plain or
    single-quoted scalar written over several lines.  A word alone on one of its lines can go with
    its line; the lines around still fold into one."""
    if node.style == ">":
        return True
    return node.style in (None, "'") and node.start_mark.line != node.end_mark.line


def approximate(src_or_text, node: ScalarNode) -> bool:
    """Whether the scalar's map only approximates where its characters stand: a folded block
    whose lines could not all be placed (its words are then not editable)."""
    if node.style != ">":
        return False
    text = src_or_text if isinstance(src_or_text, str) else src_or_text.text
    return not _scalar_info(text, node)[1]


def fold_spans(nodes) -> list[Span]:
    """The spans of the scalars among ``nodes`` whose line breaks read as spaces (:func:`folds`),
    each once: a launch's ``folds``."""
    from yaml.nodes import ScalarNode  # nodes are PyYAML's: it is imported already

    out: list[Span] = []
    for node in nodes:
        if isinstance(node, ScalarNode) and folds(node):
            span = Span(node.start_mark.index, max(node.start_mark.index, node.end_mark.index))
            if span not in out:
                out.append(span)
    return out


def scalar_offsets(src_or_text, node: ScalarNode) -> OffsetMap:
    """The OffsetMap from ``node.value`` to the file (``src`` may be a SourceFile or the text)."""
    text = src_or_text if isinstance(src_or_text, str) else src_or_text.text
    return _scalar_info(text, node)[0]


def _scalar_info(text: str, node: ScalarNode) -> tuple[OffsetMap, bool]:
    start, end = node.start_mark.index, node.end_mark.index
    style = node.style
    value = node.value
    if style == "|":
        omap = _block_map(text, start, end, value)
        return (omap, True) if omap is not None else (OffsetMap(fallback=start), False)
    if style == ">":
        return _folded_map(text, start, end, value)
    if start >= end or end > len(text):
        return OffsetMap(fallback=min(start, len(text))), False
    decoded, omap = _flow_map(text, start, end, style)
    if decoded != value:
        return OffsetMap(fallback=start), False
    return omap, True


def scalar_token(src_or_text, node: ScalarNode) -> Token:
    """A Token for a scalar node: its value, its span, and value_start when it stands verbatim."""
    text = src_or_text if isinstance(src_or_text, str) else src_or_text.text
    start, end = node.start_mark.index, min(node.end_mark.index, len(text))
    end = max(end, start)
    omap, exact = _scalar_info(text, node)
    value_start = None
    if exact:
        value_start = omap.contiguous(0, len(node.value))
        if value_start is not None and text[value_start : value_start + len(node.value)] != node.value:
            value_start = None
    if node.style in ("|", ">"):
        # the span of a block scalar ends at its last content character
        stop = end
        while stop > start and text[stop - 1] in " \t\r\n":
            stop -= 1
        end = stop
    return Token(node.value, Span(start, end), value_start)


def sub_token(text: str, omap: OffsetMap, value: str, start: int, end: int, opaque=(), splat=False) -> Token:
    """A Token for ``value[start:end]`` of a string placed in the file by ``omap``."""
    piece = value[start:end]
    vs = omap.contiguous(start, end)
    if vs is not None and text[vs : vs + len(piece)] != piece:
        vs = None
    s = omap.nearest(start)
    e = omap.span_end(end) if end > start else s
    if e < s:
        e = s
    return Token(piece, Span(s, e), vs, tuple(opaque), splat)


def remap_token(tok: Token, omap: OffsetMap, text: str, *, editable: bool = True) -> Token:
    """Move a token found in an extracted string (offsets into that string) into the file;
    ``editable``: where it stands verbatim, a fix may write there."""
    s = omap.nearest(tok.span.start)
    e = max(s, omap.span_end(tok.span.end))
    vs = None
    if tok.value_start is not None and editable:
        vs = omap.contiguous(tok.value_start, tok.value_start + len(tok.value))
        if vs is not None and text[vs : vs + len(tok.value)] != tok.value:
            vs = None
    return Token(tok.value, Span(s, e), vs, tok.opaque, tok.splat, tok.conditional, tok.alternatives)


def remap_launch(launch: Launch, omap: OffsetMap, text: str, *, editable: bool, note: str, verbatim: bool = True) -> Launch:
    """Move a launch found in a string held in the file (a script in a YAML scalar, a notebook
    cell in a JSON string) into the file's coordinates, with ``note``.  Its version hint (an
    image tag, a pip pin) comes along, editable where it stands verbatim; ``editable`` False:
    the launch is not edited (a folded scalar, a notebook); ``verbatim`` False: its tokens keep
    no place to write at either (a notebook's JSON string)."""
    def t(tok: Token | None) -> Token | None:
        return None if tok is None else remap_token(tok, omap, text, editable=verbatim)

    def span(sp: Span) -> Span:
        s = omap.nearest(sp.start)
        return Span(s, max(s, omap.span_end(sp.end)))

    launch.entry = [t(x) for x in launch.entry]  # type: ignore[misc]
    launch.args = [t(x) for x in launch.args]  # type: ignore[misc]
    launch.env = [EnvVar(t(e.name), t(e.value)) for e in launch.env]  # type: ignore[arg-type]
    launch.settings = [Setting(t(s.name), t(s.value), s.kind) for s in launch.settings]
    launch.image = t(launch.image)
    hint = launch.version_hint
    if hint is not None:
        start = omap.contiguous(hint.span.start, hint.span.end)
        exact = start is not None and text[start : start + len(hint.version)] == hint.version and editable
        launch.version_hint = VersionHint(hint.version, Span(start, start + len(hint.version)) if exact else span(hint.span),  # type: ignore[operator]
                                          hint.origin, hint.editable and exact)
    launch.span = span(launch.span)
    launch.folds = [span(f) for f in launch.folds]
    if not editable:
        launch.editable = False
    launch.notes.append(note)
    return launch
