"""Where a key or a value of a JSON option's object is written, for fixes that edit it in place.

The object may be JSON text in an argv string (a shell word, a YAML string, a Python string),
a Python dict keyword or a ``--config`` YAML mapping: :func:`written_object` gives the token
whose text holds it, and the span helpers find one ``key:`` or ``key: value`` pair in that text,
quoted or not.  A pair written more than once, or in a form the patterns do not read
(escaped quotes inside a double-quoted shell word), gives None: no fix rather than a wrong one.
"""

from __future__ import annotations

import re

from linter.launch import Span, Token


def written_object(ctx, opt) -> Token | None:
    """The editable token that holds ``opt``'s JSON object, else None."""
    if opt.setting is not None:  # a Python dict or a YAML mapping: its span is where it is written
        tok = opt.setting.value
        if tok is None or tok.is_opaque:
            return None
    else:
        item = opt.values[-1] if opt.values else None
        tok = item.token if item is not None and ctx.item_editable(item) else None
    if tok is None or not ctx.launch.editable:
        return None
    return tok


def _key(key: str) -> str:
    k = re.escape(key)
    return r"(?:([\"'])" + k + r"\1|(?<![\w\"'])" + k + r"(?![\w\"']))\s*:"


def key_span(ctx, tok: Token, key: str) -> Span | None:
    """The span of ``key`` (without quotes) where it is written once as a key in ``tok``."""
    text = ctx.src.text[tok.span.start : tok.span.end]
    found = list(re.finditer(_key(key), text))
    if len(found) != 1:
        return None
    start = tok.span.start + found[0].start() + (1 if found[0].group(1) else 0)
    return Span(start, start + len(key))


def value_span(ctx, tok: Token, key: str, value: str) -> Span | None:
    """The span of the string ``value`` (without quotes) where ``key: value`` is written once in ``tok``."""
    text = ctx.src.text[tok.span.start : tok.span.end]
    pattern = _key(key) + r"\s*(?P<q>[\"']?)(?P<v>" + re.escape(value) + r")(?P=q)(?![\w\-.])"
    found = [m for m in re.finditer(pattern, text)]
    if len(found) != 1 or len(re.findall(_key(key), text)) != 1:
        return None
    m = found[0]
    if not m.group("q") and not text[m.end("v"):].lstrip(" \t")[:1] in ("", ",", "}", "\n", "\r", "#"):
        return None
    return Span(tok.span.start + m.start("v"), tok.span.start + m.end("v"))
