"""Text placed in a file: the one type for a decoded string and where its characters stand.

A shell word after quote removal, a Dockerfile exec-form string, a Python
string literal and a YAML scalar's value are all the same thing to the rest of
the pipeline: a value, the stretches of it that stand verbatim in the file (an
:class:`~linter.offset_map.OffsetMap`, stored as runs, never one entry per
character), the parts that cannot be known statically (``$VAR``, ``{{ }}``),
and whether it may expand to several argv elements.  :meth:`PlacedText.token`
turns it into the :class:`~linter.launch.Token` a launch holds.
"""

from __future__ import annotations


from linter.launch import Span, Token
from linter.offset_map import OffsetMap
from linter.records import Record
from linter.source_file import SourceFile


class PlacedText(Record):
    """A decoded string built piece by piece, with the file offset of each verbatim run.

    ``start``/``end`` is the file span of the raw text (quotes included).
    ``anchor`` is where an empty value stands (inside ``""``), so a fix can
    still write into it.  ``opaque`` ranges are offsets into :attr:`value`.
    """

    __slots__ = ("start", "end", "anchor", "splat", "opaque", "omap", "conditional", "alternatives", "_parts", "_len", "_joined")
    _shown = ("start", "end", "anchor", "splat", "opaque", "omap", "conditional", "alternatives", "_len")
    __eq__ = object.__eq__  # equal only to itself, and hashable so (as the dataclass with ``eq=False``)
    __hash__ = object.__hash__

    start: int
    end: int
    anchor: int | None
    splat: bool
    opaque: list[tuple[int, int]]
    omap: OffsetMap
    conditional: bool  # present only under a condition the file does not settle
    alternatives: tuple[str, ...]  # the values it may take (a variable set per branch); kept by copy, not by extend
    _parts: list[str]
    _len: int
    _joined: str | None

    def __init__(self, start=0, end=0, anchor=None, splat=False, opaque=None, omap=None, conditional=False, alternatives=(), _parts=None, _len=0, _joined=None):
        self.start = start
        self.end = end
        self.anchor = anchor
        self.splat = splat
        self.opaque = ([] if opaque is None else opaque)
        self.omap = (OffsetMap() if omap is None else omap)
        self.conditional = conditional
        self.alternatives = alternatives
        self._parts = ([] if _parts is None else _parts)
        self._len = _len
        self._joined = _joined

    # -- building ---------------------------------------------------------
    def lit(self, text: str, file_start: int | None) -> None:
        """Append ``text``; it stands verbatim at ``file_start`` (None: produced, e.g. by an escape)."""
        if not text:
            return
        if file_start is not None:
            self.omap.add(self._len, file_start, len(text))
        self._parts.append(text)
        self._len += len(text)
        self._joined = None

    def put(self, ch: str, file_pos: int | None) -> None:
        """Append one character (``lit`` of a single character)."""
        self.lit(ch, file_pos)

    def unknown(self, text: str, file_start: int | None, *, splat: bool = False) -> None:
        """Append text whose value cannot be known statically (kept as written, marked opaque)."""
        a = self._len
        self.lit(text, file_start)
        if text:
            self.opaque.append((a, self._len))
        self.splat = self.splat or splat

    def extend(self, other: PlacedText) -> None:
        """Append ``other`` (its runs, unknown parts and splat mark shift by the current length)."""
        off = self._len
        if self.anchor is None and not self._len:
            self.anchor = other.anchor
        for s, f, n in other.omap.segments:
            self.omap.add(s + off, f, n)
        self.opaque.extend((a + off, b + off) for a, b in other.opaque)
        self._parts.extend(other._parts)
        self._len += other._len
        self._joined = None
        self.splat = self.splat or other.splat
        self.conditional = self.conditional or other.conditional
        self.alternatives = ()  # a word joined with more is none of the values alone

    def copy(self) -> PlacedText:
        """An independent copy (a variable's value used at several places)."""
        out = PlacedText(self.start, self.end, self.anchor, self.splat)
        out.extend(self)
        out.anchor, out.splat, out.conditional, out.alternatives = self.anchor, self.splat, self.conditional, self.alternatives
        return out

    def slice(self, a: int, b: int) -> PlacedText:
        """``value[a:b]`` with its runs and unknown parts (its raw span: where ``a`` and ``b`` stand)."""
        out = PlacedText()
        if b <= a:
            return out
        out._parts = [self.value[a:b]]
        out._len = b - a
        for s, f, n in self.omap.segments:
            lo, hi = max(s, a), min(s + n, b)
            if lo < hi:
                out.omap.add(lo - a, f + lo - s, hi - lo)
        out.opaque = [(max(x, a) - a, min(y, b) - a) for x, y in self.opaque if x < b and a < y]
        first, last = self.omap.to_file(a), self.omap.to_file(b - 1)
        out.start = first if first is not None else self.start
        out.end = last + 1 if last is not None else self.end
        return out

    def placed_in(self, outer: OffsetMap, start: int, end: int) -> PlacedText:
        """This text with its runs mapped through ``outer`` (script offsets to file offsets)."""
        out = PlacedText(start, end, None, self.splat, list(self.opaque), self.omap.compose(outer), self.conditional, self.alternatives)
        out._parts = [self.value] if self._len else []
        out._len = self._len
        if self.anchor is not None:
            out.anchor = outer.contiguous(self.anchor, self.anchor)
        return out

    # -- reading ----------------------------------------------------------
    @property
    def value(self) -> str:
        if self._joined is None:
            self._joined = "".join(self._parts)
            self._parts = [self._joined] if self._joined else []
        return self._joined

    def __len__(self) -> int:
        return self._len

    def merged_opaque(self) -> tuple[tuple[int, int], ...]:
        out: list[tuple[int, int]] = []
        for a, b in sorted(self.opaque):
            if out and a <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return tuple(out)

    def offset_map(self) -> OffsetMap:
        """The runs, with the raw text's start as the fallback place."""
        return OffsetMap(list(self.omap.segments), self.start)

    def verbatim_start(self, src: SourceFile, a: int = 0, b: int | None = None) -> int | None:
        """File offset of ``value[a:b]`` when it stands verbatim, in one piece, in ``src``."""
        b = self._len if b is None else b
        if b <= a:
            return self.anchor if self._len == 0 else None
        f0 = self.omap.contiguous(a, b)
        if f0 is None or src.text[f0 : f0 + (b - a)] != self.value[a:b]:
            return None
        return f0

    def sub_span(self, a: int, b: int, src: SourceFile) -> tuple[Span, bool]:
        """(file span, exact) of ``value[a:b]``: exact when it stands verbatim, else the raw span."""
        f0 = self.verbatim_start(src, a, b) if b > a else None
        if f0 is not None:
            return Span(f0, f0 + (b - a)), True
        return Span(self.start, max(self.start, self.end)), False

    def token(self, src: SourceFile) -> Token:
        """The launch token: editable (``value_start`` set) only when the whole value is verbatim."""
        return Token(self.value, Span(self.start, max(self.start, self.end)), self.verbatim_start(src), self.merged_opaque(), self.splat, self.conditional, self.alternatives)
