"""Regular expressions compiled on first use.

A module's ``_X = re.compile(...)`` runs when the module is imported, whether the run ever
matches it or not: the start path's three dozen cost a one-file run several milliseconds.
``_X = lazy_re(...)`` compiles on the first method call instead; from then on the
compiled pattern's methods are the object's own attributes (no indirection left).  Use it for
patterns called through their methods (``_X.match(s)``, ``_X.sub(...)``); a pattern handed to
another API that wants an :class:`re.Pattern` is compiled as usual.
"""

from __future__ import annotations

import re

__all__ = ["lazy_re"]

_BOUND = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "pattern", "flags", "groups", "groupindex")


class _LazyPattern:
    def __init__(self, pattern: str | bytes, flags: int):
        self._source = (pattern, flags)

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_source":  # copy, pickle, repr probes: not a use
            raise AttributeError(name)
        compiled = re.compile(*self._source)
        for attr in _BOUND:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_re({self._source[0]!r}, {self._source[1]!r})"


def lazy_re(pattern: str | bytes, flags: int = 0) -> re.Pattern:
    """``re.compile(pattern, flags)``, compiled the first time it is used."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]
