"""JSON from the files vllm-lint reads, within bounds.

Every JSON vllm-lint decodes comes from a repository or the machine it runs
on: option values (``--kv-transfer-config '{...}'``), a model's
``config.json`` (``--model-config``, the Hugging Face cache), the cache pack.
:func:`loads` refuses a value nested deeper than :data:`MAX_DEPTH` before
decoding it (a 2 KB value of 1,000 ``[`` would otherwise raise
:class:`RecursionError` in the decoder, or in whatever walks the result), and
:func:`read` reads a file through :func:`linter.source_file.read_file` (regular
files only, never blocking, at most ``limit`` bytes).  Both raise
:class:`ValueError` (:class:`TooDeep`, :class:`TooBig`) or :class:`OSError`,
which callers already treat as "not valid JSON" or "unreadable".
"""

from __future__ import annotations

import json
import re

from linter.lazy_re import lazy_re

MAX_DEPTH = 100  # vLLM's own config values nest a few levels; the cache pack five
MAX_FILE_BYTES = 16 * 1024 * 1024  # a config.json is a few KB; an index.json under 1 MB

_STRING = lazy_re(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)  # a string literal ("unrolled": no alternation per character)
_BRACKET = lazy_re(r"[\[\]{}]")
_NOT_BRACKET = lazy_re(r"[^\[\]{}]+")
_PAIR = lazy_re(r"\[\]|\{\}")


class TooDeep(ValueError):
    """The JSON nests deeper than the limit."""


class TooBig(ValueError):
    """The JSON file is over the size limit."""


def depth(text: str) -> int:
    """How deeply the arrays and objects of ``text`` nest (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= 1:
        return text.count("[") + text.count("{")
    deepest = level = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def deeper_than(text: str, limit: int) -> bool:
    """``depth(text) > limit``, in passes of the C regex engine: with strings and everything but
    brackets gone, each pass deletes every innermost ``[]``/``{}`` pair, so well-nested
    brackets are gone after as many passes as they nest deep; whatever is left after ``limit``
    passes (too deep, or brackets that do not pair) is counted by :func:`depth`."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):
        brackets = _PAIR.sub("", brackets)
        if not brackets:
            return False
    return depth(text) > limit


def loads(text: str | bytes, max_depth: int = MAX_DEPTH):
    """``json.loads(text)``, refusing (:class:`TooDeep`) a value nested deeper than ``max_depth``."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")  # UnicodeDecodeError is a ValueError
    if deeper_than(text, max_depth):
        raise TooDeep(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise TooDeep(f"nested deeper than {max_depth} levels") from None


def read(path: str, limit: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH):
    """The JSON value of the regular file ``path``: never blocks on a pipe, never reads past ``limit``."""
    from linter.source_file import read_file

    data = read_file(path, limit)
    if len(data) > limit:
        raise TooBig(f"over {limit} bytes")
    return loads(data, max_depth)
