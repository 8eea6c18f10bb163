"""Diagnostics and the edits that fix them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from linter.launch import Span


class Severity(str, Enum):
    ERROR = "error"  # the server fails to start, or the option is rejected
    WARNING = "warning"  # accepted, but ignored, deprecated or changes meaning
    INFO = "info"  # worth knowing; nothing fails


Applicability = Literal["safe", "unsafe", "display-only"]


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[span.start:span.end]`` with ``content`` (character offsets)."""

    span: Span
    content: str


@dataclass(frozen=True, slots=True)
class Fix:
    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability = "safe"


@dataclass(frozen=True, slots=True)
class Finding:
    """What a check found, before its rule stamps it with code, severity, path and release.

    ``severity`` overrides the rule's own (a removed value is an error, a deprecated one a
    warning); ``version`` is the release a file-wide rule's finding is about (a launch
    rule's findings take their launch's).
    """

    span: Span
    message: str
    fix: Fix | None = None
    severity: Severity | None = None
    version: str | None = None
    related: tuple[tuple[str, Span], ...] = ()
    # ruff's `= help:` lines: the history, the arithmetic, what else to know, below a short headline
    notes: tuple[str, ...] = ()


def matches(code: str, codes: Iterable[str]) -> bool:
    """``codes`` (of ``--select``, ``--ignore``, per-file ignores, ...) name ``code``: itself, a prefix of it, or ``ALL``."""
    return any(c == "ALL" or (c and code.startswith(c)) for c in codes)


@dataclass(slots=True)
class Diagnostic:
    code: str
    message: str
    path: str
    span: Span
    severity: Severity = Severity.ERROR
    fix: Fix | None = None
    vllm_version: str | None = None  # the release the launch was checked against
    related: list[tuple[str, Span]] = field(default_factory=list)
    notes: tuple[str, ...] = ()  # shown as `= help:` lines under the message
