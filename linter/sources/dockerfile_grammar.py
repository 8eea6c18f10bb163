"""The tree-sitter grammar of Dockerfiles, and what an edit asks of it without the reader.

:mod:`linter.sources.dockerfile` (the reader) parses with :data:`LANGUAGE`; a fix that
deletes an ``ENV`` entry (:func:`linter.edits.delete_env`) finds the instruction with
:func:`env_instruction_at`.  Apart from the reader, so that such a fix in a run whose
extractions come from the cache (a new ``--target-version``) does not import the reader and
the shell grammar it pulls in.
"""

from __future__ import annotations

import warnings

import tree_sitter as _ts
import tree_sitter_dockerfile as _tsd

from linter.launch import Span
from linter.sources import char_offsets

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # the 0.2 wheel hands over an int pointer
    LANGUAGE = _ts.Language(_tsd.language())


def env_instruction_at(text: str, at: int) -> tuple[Span, list[Span]] | None:
    """The ``ENV`` instruction of ``text`` that holds character offset ``at`` (where a variable's
    name stands), as its span and the spans of its ``NAME=value`` pairs; None when no cleanly
    parsed ``ENV`` instruction of pairs holds it (the legacy ``ENV NAME value`` form gives one
    pair spanning the instruction's body)."""
    data = text.encode("utf-8", "surrogatepass")
    root = _ts.Parser(LANGUAGE).parse(data if data.endswith(b"\n") else data + b"\n").root_node
    byte = len(text[:at].encode("utf-8", "surrogatepass"))
    for node in root.named_children:
        if node.type != "env_instruction" or not node.start_byte <= byte < node.end_byte or node.has_error:
            continue
        pairs = [c for c in node.named_children if c.type == "env_pair"]
        if not pairs:
            return None
        conv = char_offsets(data, [b for n in (node, *pairs) for b in (n.start_byte, min(n.end_byte, len(data)))])
        span = lambda n: Span(conv[n.start_byte], conv[min(n.end_byte, len(data))])  # noqa: E731
        return span(node), [span(p) for p in pairs]
    return None
