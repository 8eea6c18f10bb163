"""Source extractors: one module per file kind, each turning a file into launches.

Each extractor module exposes ``extract(src: SourceFile) -> Extraction``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from linter.launch import Launch, Span, VersionHint


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a file that could not be read (a parse error, a template that hides structure)."""

    span: Span
    message: str


@dataclass
class Extraction:
    launches: list[Launch] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    pins: list[VersionHint] = field(default_factory=list)  # file-level release pins (FROM, vllm==)

    def extend(self, other: Extraction) -> None:
        self.launches.extend(other.launches)
        self.problems.extend(other.problems)
        self.pins.extend(other.pins)
