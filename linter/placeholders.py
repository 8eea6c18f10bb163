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

import dataclasses
import re

from linter.launch import Token

_HOLE = re.compile(
    r"\$\{\{.*?\}\}"  # ${{ github expression }}
    r"|\{\{.*?\}\}"  # {{ go / helm / jinja }}
    r"|\{%.*?%\}"  # {% jinja statement %}
    r"|\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:?+=-][^}]*)?\}"  # ${VAR}, ${VAR:-default}
    r"|\$\([A-Za-z_][A-Za-z0-9_]*\)"  # $(VAR)
    r"|\{[A-Za-z_][A-Za-z0-9_.]*\}"  # {name}: a str.format template field
    r"|<[A-Za-z][A-Za-z0-9 _./:-]*>"  # <MODEL>, <your hf token>
    r"|^\.\.\.$",  # a value left out
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
    merged = sorted(set(tok.opaque) | set(found))
    return dataclasses.replace(tok, opaque=tuple(merged))  # conditional, alternatives kept


# A command synopsis in documentation (argparse's usage notation): ``[--port PORT]`` (an optional
# group over several words), ``[--enforce-eager]``, ``{auto,half,bfloat16}`` (a choice of values;
# not JSON, which quotes its keys).  In a document such a word is a hole, not a value.
_SYNOPSIS = re.compile(r"\[-[^\[\]]*\]?|[^\[\]]*\]|\{[A-Za-z0-9_.-]+(?:[,|][A-Za-z0-9_.-]+)+\}")


def mark_doc(tok: Token | None) -> Token | None:
    """:func:`mark`, and a word of a documented command synopsis is wholly unknown (:data:`_SYNOPSIS`)."""
    tok = mark(tok)
    if tok is None or tok.is_opaque and tok.opaque_in(0, len(tok.value)):
        return tok
    v = tok.value
    if _SYNOPSIS.fullmatch(v) and not (v.startswith("[") and v.endswith("]") and not v.startswith("[-")):
        return dataclasses.replace(tok, opaque=((0, len(v)),))
    return tok
