"""Diagnostics and the edits that fix them."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Literal

from linter.launch import Span
from linter.records import Frozen, Record, _set


class Severity(str, Enum):
    ERROR = "error"  # the server fails to start, or the option is rejected
    WARNING = "warning"  # accepted, but ignored, deprecated or changes meaning
    INFO = "info"  # worth knowing; nothing fails


Applicability = Literal["safe", "unsafe", "display-only"]


class Edit(Frozen):
    """Replace ``text[span.start:span.end]`` with ``content`` (character offsets)."""

    __slots__ = ("span", "content")

    span: Span
    content: str

    def __init__(self, span, content):
        _set(self, "span", span)
        _set(self, "content", content)


class Fix(Frozen):
    __slots__ = ("message", "edits", "applicability")

    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability

    def __init__(self, message, edits, applicability="safe"):
        _set(self, "message", message)
        _set(self, "edits", edits)
        _set(self, "applicability", applicability)


class Finding(Frozen):
    """What a check found, before its rule stamps it with code, severity, path and release.

    ``severity`` overrides the rule's own (a removed value is an error, a deprecated one a
    warning); ``version`` is the release a file-wide rule's finding is about (a launch
    rule's findings take their launch's).
    """

    __slots__ = ("span", "message", "fix", "severity", "version", "related", "notes")

    span: Span
    message: str
    fix: Fix | None
    severity: Severity | None
    version: str | None
    related: tuple[tuple[str, Span], ...]
    # ruff's `= help:` lines: the history, the arithmetic, what else to know, below a short headline
    notes: tuple[str, ...]

    def __init__(self, span, message, fix=None, severity=None, version=None, related=(), notes=()):
        _set(self, "span", span)
        _set(self, "message", message)
        _set(self, "fix", fix)
        _set(self, "severity", severity)
        _set(self, "version", version)
        _set(self, "related", related)
        _set(self, "notes", notes)


def matches(code: str, codes: Iterable[str]) -> bool:
    """``codes`` (of ``--select``, ``--ignore``, per-file ignores, ...) name ``code``: itself, a prefix of it, or ``ALL``."""
    return any(c == "ALL" or (c and code.startswith(c)) for c in codes)


class Diagnostic(Record):
    __slots__ = ("code", "message", "path", "span", "severity", "fix", "vllm_version", "related", "notes")

    code: str
    message: str
    path: str
    span: Span
    severity: Severity
    fix: Fix | None
    vllm_version: str | None  # the release the launch was checked against
    related: list[tuple[str, Span]]
    notes: tuple[str, ...]  # shown as `= help:` lines under the message

    def __init__(self, code, message, path, span, severity=Severity.ERROR, fix=None, vllm_version=None, related=None, notes=()):
        self.code = code
        self.message = message
        self.path = path
        self.span = span
        self.severity = severity
        self.fix = fix
        self.vllm_version = vllm_version
        self.related = ([] if related is None else related)
        self.notes = notes
