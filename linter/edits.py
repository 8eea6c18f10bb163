"""Edits that depend on how a token is written: splitting one argv element in two.

A fix that only renames text inside a token is a plain replacement.  Turning
one element (`"--max-model-len 8192"`, `--config=FILE`) into two needs the
element's own syntax: a new item of a YAML block sequence on its own line with
the same indentation and quoting, a new item of a flow list (YAML, JSON or a
Python list) after a comma, or a second shell word.  The result must read back
as exactly the intended strings, so an edit is offered only when each part can
be written in the element's quoting without escapes.
"""

from __future__ import annotations

import re

from linter.diagnostic import Edit
from linter.kinds import EditStyle, edit_style
from linter.launch import Launch, Token
from linter.source_file import SourceFile

_SHELL_SAFE = re.compile(r"^[A-Za-z0-9_./:=,@%+-]+$")
_YAML_INDICATORS = tuple("?:,[]{}#&*!|>'\"%@`")
# YAML 1.1 plain scalars that do not load as strings (numbers, booleans, null)
_YAML_NOT_STRING = re.compile(r"^(?:[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0x[0-9a-fA-F_]+|0o?[0-7_]+|(?i:true|false|yes|no|on|off|y|n|null)|~)$")


def _quote(raw: str) -> str:
    return raw[0] if raw[:1] in ("'", '"') and len(raw) >= 2 and raw[-1] == raw[0] else ""


def _writable(part: str, quote: str, style: EditStyle) -> bool:
    """Whether ``part`` reads back as itself when written between ``quote`` characters."""
    if not part:
        return False
    if quote == '"':
        bad = '"\\$`' if style == "words" else '"\\'
        return not any(c in part for c in bad)
    if quote == "'":
        return "'" not in part and (style != "python-items" or "\\" not in part)
    if style == "words":
        return bool(_SHELL_SAFE.match(part))
    if style in ("python-items", "json-items"):
        return False  # string literals and JSON strings are always quoted
    return bool(_SHELL_SAFE.match(part)) and not part.startswith(_YAML_INDICATORS) and not _YAML_NOT_STRING.match(part)


def split_element(src: SourceFile, launch: Launch, tok: Token, parts: tuple[str, str]) -> Edit | None:
    """An edit that writes ``tok`` as the two elements ``parts``, in the token's own style.

    None when the token is not written verbatim, the launch is not editable, or
    the parts cannot be written in the token's quoting without escapes.
    """
    if tok.value_start is None or not launch.editable or tok.is_opaque:
        return None
    raw = src.text[tok.span.start : tok.span.end]
    quote = _quote(raw)
    inner = raw[1:-1] if quote else raw
    if inner != tok.value:
        return None
    # a word of a shell command line, in a script or embedded in YAML, a Dockerfile or a Python string
    style = "words" if launch.shell_words else edit_style(launch.kind)
    if style is None:
        return None  # a kind whose elements are never split (a --config file's values)
    written = []
    for p in parts:
        if _writable(p, quote, style):
            written.append(quote + p + quote)
        elif not quote and style != "words" and _writable(p, '"', style):
            written.append('"' + p + '"')  # a YAML plain `8192` would load as a number: quote it
        else:
            return None
    a, b = written
    if style == "words":
        return Edit(tok.span, f"{a} {b}")
    line_start = src.text.rfind("\n", 0, tok.span.start) + 1
    before = src.text[line_start : tok.span.start]
    if re.fullmatch(r"\s*-\s+", before):  # a YAML block sequence item: a new item below, same indentation
        after = src.text[tok.span.end : src.text.find("\n", tok.span.end) if "\n" in src.text[tok.span.end :] else len(src.text)]
        if after.strip() and not after.lstrip().startswith("#"):
            return None
        newline = "\r\n" if src.text[tok.span.end :].startswith("\r\n") or src.text[line_start - 2 : line_start] == "\r\n" else "\n"
        return Edit(tok.span, f"{a}{newline}{before}{b}")
    prev = src.text[: tok.span.start].rstrip()
    if prev.endswith(("[", ",")):  # a flow list (YAML, JSON exec form, Python list)
        return Edit(tok.span, f"{a}, {b}")
    return None
