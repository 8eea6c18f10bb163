"""vLLM release pins in pip requirements and constraints files.

Only exact pins count: ``vllm==0.30.0``, ``vllm[audio]==0.30.0``,
``vllm===0.30.0`` (``>=``, ``~=`` and ranges say nothing exact about the
release that runs).  Each line is parsed with :mod:`packaging.requirements`;
lines pip reads as options (``-r``, ``--index-url``), URLs and editable
installs are skipped.  A requirements file has no launches.
"""

from __future__ import annotations

import re

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from linter.launch import Span, VersionHint
from linter.source_file import SourceFile
from linter.sources import Extraction

PINNED_NAMES = frozenset({"vllm"})
_LINE_RE = re.compile(r"[^\n]*\n?")  # one physical line (a token-level split, not a parser)


def _logical_lines(text: str):
    """``(start offset, line text)`` per logical line: ``\\`` continuations joined, comments cut.

    Joined lines keep their text only when the pin is on the first physical line;
    otherwise the pin is still found but its span is recomputed from the physical line.
    """
    pending: list[tuple[int, str]] = []
    for m in _LINE_RE.finditer(text):
        raw = m.group()
        if not raw:
            break
        line = raw.rstrip("\r\n")
        start = m.start()
        if line.endswith("\\"):
            pending.append((start, line[:-1]))
            continue
        pending.append((start, line))
        yield pending
        pending = []
    if pending:
        yield pending


def _strip_comment(line: str) -> str:
    # pip: a comment starts at "#" at the line start or after whitespace
    if line.lstrip().startswith("#"):
        return ""
    cut = re.search(r"\s#", line)
    return line[: cut.start()] if cut else line


def extract(src: SourceFile) -> Extraction:
    out = Extraction()
    text = src.text
    for pieces in _logical_lines(text):
        joined = "".join(_strip_comment(p) if i == len(pieces) - 1 else p for i, (_, p) in enumerate(pieces))
        stripped = joined.strip()
        if not stripped or stripped.startswith("-"):
            continue
        option = re.search(r"\s--?[A-Za-z]", stripped)  # per-requirement options: --hash=..., --config-settings
        if option:
            stripped = stripped[: option.start()].strip()
        try:
            req = Requirement(stripped)
        except InvalidRequirement:
            continue
        if canonicalize_name(req.name) not in PINNED_NAMES or req.url:
            continue
        specs = list(req.specifier)
        if len(specs) != 1 or specs[0].operator not in ("==", "==="):
            continue
        version = specs[0].version
        if version.endswith(".*"):
            continue  # a prefix match, not a pin
        # place the version text in the file: after the operator, on the physical line that holds it
        for start, piece in pieces:
            op = piece.find(specs[0].operator)
            while op != -1:
                at = op + len(specs[0].operator)
                while at < len(piece) and piece[at] in " \t":
                    at += 1
                if piece.startswith(version, at):
                    out.pins.append(VersionHint(version, Span(start + at, start + at + len(version)), "requirements"))
                    break
                op = piece.find(specs[0].operator, op + 1)
            else:
                continue
            break
    return out
