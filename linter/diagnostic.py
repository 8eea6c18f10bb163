"""Diagnostics and the edits that fix them."""

from __future__ import annotations

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
