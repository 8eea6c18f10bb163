"""Source extractors: one module per file kind, each turning a file into launches.

Each extractor module exposes ``extract(src: SourceFile) -> Extraction``; its
row in :data:`linter.kinds.KINDS` says which kind of file it reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from linter.launch import Launch, Span, VersionHint
from linter.lazy_re import lazy_re
from linter.records import Frozen, Record, _set

# within :func:`readings_kept`, where readers keep what they made of the last texts they read
# (each reader under a key of its own): one store per block, so per thread and never shared
_KEPT_READINGS: ContextVar[dict | None] = ContextVar("kept_readings", default=None)


@contextmanager
def readings_kept() -> Iterator[None]:
    """Within this block a reader that parses a text it parsed already (the same str object)
    gives its earlier reading again (:func:`reading`: the fixer's extractions,
    :func:`linter.sources.yaml_nodes.compose_documents`): the fixer's passes read each text
    twice, its lint and its check.  Outside, nothing is kept
    (a check reads each text once; keeping its last ones would only hold their memory), and
    what the block kept goes with it."""
    token = _KEPT_READINGS.set({})
    try:
        yield
    finally:
        _KEPT_READINGS.reset(token)


def kept_readings() -> dict | None:
    """The store of the :func:`readings_kept` block this runs in, or None outside one."""
    return _KEPT_READINGS.get()


_T = TypeVar("_T")
READINGS_KEPT = 2  # texts a reader keeps the readings of, within a block: a pass reads two


def reading(reader: str, text: str, make: Callable[[], _T]) -> _T:
    """``make()``, the reading of ``text`` by ``reader`` (a name: each reader keeps its own);
    within :func:`readings_kept`, what it gave for this very str object if it is one of the
    reader's last :data:`READINGS_KEPT` (an identity test: no hash of a text of megabytes)."""
    store = kept_readings()
    if store is None:
        return make()
    kept: list[tuple[str, _T]] = store.setdefault(reader, [])
    for seen, got in kept:
        if seen is text:
            return got
    got = make()
    if len(kept) >= READINGS_KEPT:
        del kept[0]
    kept.append((text, got))
    return got


# the note of a launch the shell reader read again past a parse error on its line (only for
# a line that starts vLLM: :meth:`linter.sources.shell._Script.recover`)
READ_PAST_AN_ERROR = "read past a shell parse error: the unreadable part is an unknown word"


class Problem(Frozen):
    """Something in a file that could not be read (a parse error, a template that hides structure)."""

    __slots__ = ("span", "message")

    span: Span
    message: str

    def __init__(self, span, message):
        _set(self, "span", span)
        _set(self, "message", message)


class Comment(Frozen):
    """A comment of the file, as its own syntax reads it (a ``#`` inside a string is none)."""

    __slots__ = ("start", "end", "text", "alone")

    start: int  # character offset of the ``#``
    end: int  # offset just after the comment's last character (line end excluded)
    text: str
    # whether nothing but blanks stands before it on its line; None: as the file's text says (a
    # reader of text held in another file says it: a notebook cell's line starts inside a JSON string)
    alone: bool | None

    def __init__(self, start, end, text, alone=None):
        _set(self, "start", start)
        _set(self, "end", end)
        _set(self, "text", text)
        _set(self, "alone", alone)


class WrittenFile(Frozen):
    """A data file a script writes from a heredoc (``cat > cfg.yaml <<EOF``), read later as its format.

    ``target`` is the path as the script writes it (after quote removal and variables: ``$DIR``
    stays as written when unknown).  ``ranges`` are the file ranges of the body's text (one per
    line of a ``<<-`` body, whose leading tabs are not written; one for a plain body).  ``unknown`` are the file ranges of expansions
    (``$LEN`` in an unquoted heredoc): their values are not known.
    """

    __slots__ = ("target", "ranges", "span", "at", "unknown", "editable")

    target: str
    ranges: tuple[tuple[int, int], ...]
    span: Span  # the body in the file
    at: int  # file offset of the command that writes it
    unknown: tuple[tuple[int, int], ...]
    editable: bool

    def __init__(self, target, ranges, span, at, unknown=(), editable=True):
        _set(self, "target", target)
        _set(self, "ranges", ranges)
        _set(self, "span", span)
        _set(self, "at", at)
        _set(self, "unknown", unknown)
        _set(self, "editable", editable)


class Extraction(Record):
    __slots__ = ("launches", "problems", "pins", "comments", "written", "directives")

    launches: list[Launch]
    problems: list[Problem]
    pins: list[VersionHint]  # file-level release pins (FROM, vllm==)
    # the file's comments, found by a reader while it parsed (None: its kind's row names a finder);
    # a nested extraction's comments are its own and ``extend`` does not merge them
    comments: list[Comment] | None
    # data files the scripts of the file write from heredocs (:mod:`linter.sources.written_files` reads them)
    written: list[WrittenFile]
    # of a kind whose row names a comment finder: the comments that hold a ``vllm-lint:``
    # directive, found when the extraction is stored (:func:`linter.suppression.directive_comments`),
    # so that a new target does not search the text again; None: not looked for
    directives: list[Comment] | None

    def __init__(self, launches=None, problems=None, pins=None, comments=None, written=None, directives=None):
        self.launches = ([] if launches is None else launches)
        self.problems = ([] if problems is None else problems)
        self.pins = ([] if pins is None else pins)
        self.comments = comments
        self.written = ([] if written is None else written)
        self.directives = directives

    def extend(self, other: Extraction) -> None:
        self.launches.extend(other.launches)
        self.problems.extend(other.problems)
        self.pins.extend(other.pins)
        self.written.extend(other.written)


def char_offsets(data: bytes, offsets) -> dict[int, int]:
    """Character offsets of byte offsets (all on character boundaries), decoding the text once."""
    out: dict[int, int] = {}
    prev_b = prev_c = 0
    for b in sorted(set(offsets)):
        prev_c += len(data[prev_b:b].decode("utf-8", "replace"))
        prev_b = b
        out[b] = prev_c
    return out


def masked_stretch(text: str, ranges: list[tuple[int, int]]) -> tuple[int, str]:
    """The stretch of ``text`` from the first range to the last with everything outside the ranges
    blanked (line ends kept), and where it starts: offsets in it plus the start are file offsets."""
    base, end = min(a for a, _ in ranges), max(b for _, b in ranges)
    out: list[str] = []
    cur = base
    for a, b in sorted(ranges):  # every character in some range is kept, whatever their order
        if b <= cur:
            continue
        if a > cur:
            out.append(blanked(text[cur:a]))
            cur = a
        out.append(text[cur:b])
        cur = b
    return base, "".join(out)


_BLANK = lazy_re(r"[^\r\n]")


def blanked(text: str) -> str:
    """``text`` with every character but line ends made a space (offsets and lines kept)."""
    return _BLANK.sub(" ", text)


def shifted(found: list[Comment], base: int) -> list[Comment]:
    return [Comment(c.start + base, c.end + base, c.text) for c in found]


_AT_COLUMN_0 = lazy_re(r"(?m)^\S")


def indented_documents(work: "SourceFile") -> list["SourceFile"]:
    """``work`` (YAML text, everything else blanked) as one source per YAML document when its
    documents are separated by ``---`` lines that stand indented with the whole text: a YAML
    block in a Markdown list item, a heredoc in an indented script (a YAML ``run: |``) keeps its
    indentation, blanked, and an indented ``---`` separates nothing (the stream does not parse).
    A ``---`` more indented than the text's lines (inside a block scalar) is content."""
    from linter.source_file import SourceFile

    text = work.text
    if _AT_COLUMN_0.search(text):
        return [work]  # a line that starts at column 0: no common indentation (a megabyte manifest's usual case)
    lines = [(m, len(m) - len(m.lstrip(" "))) for m in text.split("\n")]
    indents = [ind for line, ind in lines if line.strip()]
    if not indents or min(indents) == 0:
        return [work]
    base = min(indents)
    cuts = []
    at = 0
    for line, ind in lines:
        body = line.strip()
        if ind == base and (body == "---" or body.startswith("--- ") or body.startswith("---\t")):
            cuts.append((at, at + len(line)))
        at += len(line) + 1
    if not cuts:
        return [work]
    out = []
    start = 0
    for a, b in [*cuts, (len(text), len(text))]:
        part = blanked(text[:start]) + text[start:a] + blanked(text[a:])
        if part.strip():
            out.append(SourceFile.from_text(work.path, part))
        start = b
    return out
