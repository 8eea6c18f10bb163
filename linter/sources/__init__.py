"""Source extractors: one module per file kind, each turning a file into launches.

Each extractor module exposes ``extract(src: SourceFile) -> Extraction``; its
row in :data:`linter.kinds.KINDS` says which kind of file it reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from linter.launch import Launch, Span, VersionHint


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a file that could not be read (a parse error, a template that hides structure)."""

    span: Span
    message: str


@dataclass(frozen=True)
class Comment:
    """A comment of the file, as its own syntax reads it (a ``#`` inside a string is none)."""

    start: int  # character offset of the ``#``
    end: int  # offset just after the comment's last character (line end excluded)
    text: str


@dataclass
class Extraction:
    launches: list[Launch] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    pins: list[VersionHint] = field(default_factory=list)  # file-level release pins (FROM, vllm==)
    # the file's comments, found by a reader while it parsed (None: its kind's row names a finder);
    # a nested extraction's comments are its own and ``extend`` does not merge them
    comments: list[Comment] | None = None

    def extend(self, other: Extraction) -> None:
        self.launches.extend(other.launches)
        self.problems.extend(other.problems)
        self.pins.extend(other.pins)
