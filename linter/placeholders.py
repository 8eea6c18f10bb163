"""Placeholders and template holes in values: parts whose real value is not in the file.

Documentation and deployment files leave holes that a person or a tool fills
later: ``<MODEL>`` and ``<your-token>`` (documentation), ``{max_model_len}`` (a
recipe's ``str.format`` command template), ``${VAR}`` (envsubst, compose), ``$(VAR)``
(Kubernetes), ``{{ .Values.x }}`` / ``{{ if .P }}..{{ end }}`` (Go and Helm
templates, Jinja), ``${{ matrix.x }}`` (GitHub Actions) and a bare ``...``.  Such
a part is an unknown value: never "expects an integer", never a second model,
never an unknown option.  :func:`holes` finds them in a value; :func:`mark`
adds them to a token's opaque ranges.
"""

from __future__ import annotations

import re

from linter.launch import Token
from linter.lazy_re import lazy_re
from linter.records import replace
from linter.source_file import SourceFile

# a documentation placeholder, ``<MODEL>``, ``<your hf token>``: its opening and name, then ``>``
# (one spelling for values, shell text and Python pseudo-code: :data:`DOC_PLACEHOLDER`)
_PLACEHOLDER_NAME = r"<[A-Za-z][A-Za-z0-9 _./:-]*"
DOC_PLACEHOLDER = _PLACEHOLDER_NAME + ">"

_HOLE = lazy_re(
    r"\$\{\{.*?\}\}"  # ${{ github expression }}
    r"|\{\{.*?\}\}"  # {{ go / helm / jinja }}
    r"|\{%.*?%\}"  # {% jinja statement %}
    r"|\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:?+=-][^}]*)?\}"  # ${VAR}, ${VAR:-default}
    r"|\$\([A-Za-z_][A-Za-z0-9_]*\)"  # $(VAR)
    r"|\{[A-Za-z_][A-Za-z0-9_.]*\}"  # {name}: a str.format template field
    r"|" + DOC_PLACEHOLDER +  # <MODEL>, <your hf token>
    r"|^(?:\.\.\.|\u2026)$",  # a value left out
    re.S,
)


def holes(value: str) -> list[tuple[int, int]]:
    """Ranges of ``value`` that are placeholders or template actions."""
    return [(m.start(), m.end()) for m in _HOLE.finditer(value)]


def _go_blocks(value: str, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A Go/Helm conditional ``{{ if }}A{{ else }}B{{ end }}`` is one unknown value, branches included."""
    out: list[tuple[int, int]] = []
    depth, start = 0, 0
    for s, e in ranges:
        action = value[s:e].strip("{}- \t\n")
        word = action.split(None, 1)[0] if action.split() else ""
        if word in ("if", "range", "with", "define", "block"):
            if depth == 0:
                start = s
            depth += 1
        elif word == "end" and depth:
            depth -= 1
            if depth == 0:
                out.append((start, e))
                continue
        if depth == 0:
            out.append((s, e))
    if depth:  # unclosed: everything from the opening action on is unknown
        out.append((start, len(value)))
    return out


def mark(tok: Token | None) -> Token | None:
    """``tok`` with its placeholders and template actions added to ``opaque``."""
    if tok is None:
        return None
    found = holes(tok.value)
    if not found:
        return tok
    found = _go_blocks(tok.value, found)
    merged: list[tuple[int, int]] = []
    for a, b in sorted(set(tok.opaque) | set(found)):  # one range where ranges overlap
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    # ``...`` (a value or a list of words left out) may stand for any number of words
    splat = tok.splat or tok.value.strip() in ("...", "\u2026")
    return replace(tok, opaque=tuple(merged), splat=splat)  # conditional, alternatives kept



# A command synopsis in documentation (argparse's usage notation): ``[--port PORT]`` (an optional
# group over several words), ``[--enforce-eager]``, ``{auto,half,bfloat16}`` (a choice of values;
# not JSON, which quotes its keys).  In a document such a word is a hole, not a value.
_SYNOPSIS = lazy_re(r"\[-[^\[\]]*\]?|[^\[\]]*\]|\{[A-Za-z0-9_.-]+(?:[,|][A-Za-z0-9_.-]+)+\}")


def mark_doc(tok: Token | None) -> Token | None:
    """:func:`mark`, and a word of a documented command synopsis is wholly unknown (:data:`_SYNOPSIS`)."""
    tok = mark(tok)
    if tok is None or tok.is_opaque and tok.opaque_in(0, len(tok.value)):
        return tok
    v = tok.value
    if _SYNOPSIS.fullmatch(v) and not (v.startswith("[") and v.endswith("]") and not v.startswith("[-")):
        return replace(tok, opaque=((0, len(v)),))
    return tok


# A documentation placeholder in a shell command (``vllm serve <MODEL>``, ``--model <model
# storage path>``): bash would read ``<MODEL>`` as redirections, so the command reader is given
# a stand-in word instead.  Not ``<<EOF``, ``<(cmd)``, ``< file`` or ``<in.txt >out.txt``
# (a real redirection has no ``>`` closing the name, or a space before it).
_SHELL_HOLE = lazy_re(r"(?<![<\w$])" + _PLACEHOLDER_NAME + r"(?<! )>(?![>&\w])")


def shell_holes(script: str) -> list[tuple[int, int]]:
    """Ranges of documentation placeholders (``<MODEL>``) in a shell script's text."""
    return [(m.start(), m.end()) for m in _SHELL_HOLE.finditer(script)]


def stand_in(text: str, ranges: list[tuple[int, int]]) -> str:
    """``text`` with each range replaced by a shell variable of the same length (``$___``), so a
    shell reader sees one unknown word there and every offset stays true (:func:`restore`)."""
    if not ranges:
        return text
    parts, last = [], 0
    for s, e in ranges:
        parts.append(text[last:s])
        parts.append("$" + "_" * (e - s - 1))
        last = e
    parts.append(text[last:])
    return "".join(parts)


def restore(src: SourceFile, tok: Token, exprs: list[tuple[int, str]]) -> Token:
    """Put the original texts back into a token whose value holds their ``$___`` stand-ins, as
    unknown parts.  ``exprs`` are ``(file offset, original text)`` of every stand-in."""
    if "$__" not in tok.value:
        return tok
    inside = [text for at, text in exprs if tok.span.start <= at < tok.span.end]
    value, opaque, pos = tok.value, list(tok.opaque), 0
    for text in inside:
        k = value.find("$" + "_" * (len(text) - 1), pos)
        if k == -1:
            continue
        value = value[:k] + text + value[k + len(text):]
        opaque.append((k, k + len(text)))
        pos = k + len(text)
    if value == tok.value:
        return tok
    vs = tok.value_start
    if vs is not None and src.text[vs : vs + len(value)] != value:
        vs = None
    return Token(value, tok.span, vs, tuple(sorted(set(opaque))), tok.splat)
