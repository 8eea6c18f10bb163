"""Map offsets in an extracted string (an embedded script, a YAML scalar's value) to the file.

A YAML literal block, a quoted scalar or a Python string holds text that is
the file's text with some characters dropped (indentation, quotes) or changed
(escapes).  An :class:`OffsetMap` records the stretches of the extracted string
that stand verbatim in the file, so a token found in the string can be placed
exactly in the file, and edited when it lies inside one stretch.
"""

from __future__ import annotations

import bisect

from linter.records import Record


class OffsetMap(Record):
    """Piecewise-verbatim mapping from string offsets to file offsets.

    ``segments`` are ``(string_start, file_start, length)`` triples, sorted by
    ``string_start`` and non-overlapping: ``string[s:s+n] == file[f:f+n]``.
    Characters outside every segment (unescaped characters, folded line
    breaks) have no exact place; :meth:`nearest` gives the closest one for
    reporting.
    """

    __slots__ = ("segments", "fallback")

    segments: list[tuple[int, int, int]]
    fallback: int  # where to point when nothing maps (the scalar's start)

    def __init__(self, segments=None, fallback=0):
        self.segments = ([] if segments is None else segments)
        self.fallback = fallback

    @classmethod
    def identity(cls, file_start: int, length: int) -> OffsetMap:
        return cls([(0, file_start, length)], file_start)

    def add(self, string_start: int, file_start: int, length: int) -> None:
        if length <= 0:
            return
        if self.segments:
            s, f, n = self.segments[-1]
            if s + n == string_start and f + n == file_start:
                self.segments[-1] = (s, f, n + length)
                return
        self.segments.append((string_start, file_start, length))

    def compose(self, outer: OffsetMap) -> OffsetMap:
        """This map followed by ``outer``: from this string to the file ``outer`` maps into.

        A string placed in a script (a shell word: script offsets) is placed in the file
        the script is embedded in; runs split where ``outer``'s runs break.
        """
        out = OffsetMap(fallback=outer.nearest(self.fallback))
        osegs = outer.segments
        if len(osegs) == 1:
            o_s, o_f, o_n = osegs[0]
            for s, f, n in self.segments:
                lo, hi = max(f, o_s), min(f + n, o_s + o_n)
                if lo < hi:
                    out.add(s + lo - f, o_f + lo - o_s, hi - lo)
            return out
        for s, f, n in self.segments:
            k = max(0, bisect.bisect_right(osegs, (f, float("inf"), 0)) - 1)
            while k < len(osegs):
                o_s, o_f, o_n = osegs[k]
                if o_s >= f + n:
                    break
                lo, hi = max(f, o_s), min(f + n, o_s + o_n)
                if lo < hi:
                    out.add(s + lo - f, o_f + lo - o_s, hi - lo)
                k += 1
        return out

    def _segment(self, i: int) -> tuple[int, int, int] | None:
        segments = self.segments
        if len(segments) == 1:  # a script that is the whole file, a plain scalar: most maps
            seg = segments[0]
            return seg if seg[0] <= i < seg[0] + seg[2] else None
        k = bisect.bisect_right(segments, (i, float("inf"), 0)) - 1
        if k < 0:
            return None
        s, f, n = segments[k]
        return (s, f, n) if s <= i < s + n else None

    def to_file(self, i: int) -> int | None:
        """The file offset of string offset ``i``, or None if it has no exact place."""
        seg = self._segment(i)
        return None if seg is None else seg[1] + i - seg[0]

    def contiguous(self, start: int, end: int) -> int | None:
        """File offset of ``start`` when ``string[start:end]`` stands verbatim in one piece."""
        if end <= start:
            seg = self._segment(start) or self._segment(start - 1)
            if seg is None:
                return None
            return seg[1] + start - seg[0]
        seg = self._segment(start)
        if seg is None or end > seg[0] + seg[2]:
            return None
        return seg[1] + start - seg[0]

    def nearest(self, i: int) -> int:
        """A file offset at or near string offset ``i``, for diagnostics."""
        exact = self.to_file(i)
        if exact is not None:
            return exact
        k = bisect.bisect_right(self.segments, (i, float("inf"), 0)) - 1
        if k >= 0:
            s, f, n = self.segments[k]
            return f + n
        return self.segments[0][1] if self.segments else self.fallback

    def span_end(self, end: int) -> int:
        """The file offset just after string offset ``end - 1``."""
        if end <= 0:
            return self.nearest(0)
        last = self.to_file(end - 1)
        return last + 1 if last is not None else self.nearest(end)
