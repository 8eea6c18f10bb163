"""Inline suppressions: ``# vllm-lint: ignore[CODE,...] reason`` and ``# vllm-lint: ignore-file[CODE]``.

A line suppression at the end of the flagged line silences the listed codes
on that line; alone on its line, it silences them on the next line (the "line
before" form).  Lines joined by a trailing backslash count as one: a comment
at the end of a continued command covers the whole command, and a comment on
the line before a continued command covers all of it.
``ignore-file`` anywhere in the file silences the listed codes in the whole
file, or every code when it lists none.

Comments are found with each file kind's own tokenisation, so a ``#`` inside
a string never counts: by the file's reader while it parses (shell,
Dockerfiles: ``Extraction.comments``), or by the finder its row in
:data:`linter.kinds.KINDS` names (:mod:`linter.sources.comments`).

A suppression that suppresses nothing, names an unknown code, or cannot be
read is reported as VL901 (``rules/unused_suppression.py``) with a safe fix
that removes it, so suppressions do not rot.  Codes that are not enabled in
this run are not judged, and nothing is judged unused in a file with a parse
error (VL001): its findings may be incomplete.
"""

from __future__ import annotations

import re

from linter.diagnostic import Diagnostic, Edit, Finding, Fix, matches
from linter.kinds import KINDS, comment_finder, reader
from linter.launch import Span
from linter.lazy_re import lazy_re
from linter.records import Record
from linter.source_file import SourceFile
from linter.sources import Comment
from linter.sources.comments import plain_line_comments, requirements_comments

CODE = "VL901"
MARKER = "vllm-lint"

# token-level patterns on the text of one comment (found by the file's tokeniser)
_DIRECTIVE_START = lazy_re(r"#\s*vllm-lint\s*:", re.IGNORECASE)
_DIRECTIVE = lazy_re(
    r"#\s*vllm-lint\s*:\s*(?P<kind>ignore-file|ignore)(?![\w-])\s*(?:\[(?P<codes>[^\]]*)\])?(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_CODE_TOKEN = lazy_re(r"[A-Za-z]+[0-9]+")


class Suppression(Record):
    __slots__ = ("comment", "start", "file_level", "codes", "codes_span", "reason", "lines", "problem", "used")

    comment: Comment
    start: int  # offset of the directive's ``#`` (may be inside a longer comment)
    file_level: bool
    codes: list[tuple[str, Span]] | None  # None: every code (``ignore-file`` without a list)
    codes_span: Span | None  # the text between the brackets
    reason: str
    lines: frozenset[int]
    problem: str | None  # why the directive cannot be read
    used: set[str]

    def __init__(self, comment, start, file_level, codes, codes_span, reason, lines=frozenset(), problem=None, used=None):
        self.comment = comment
        self.start = start
        self.file_level = file_level
        self.codes = codes
        self.codes_span = codes_span
        self.reason = reason
        self.lines = lines
        self.problem = problem
        self.used = (set() if used is None else used)

    def covers(self, d: Diagnostic, line: int) -> bool:
        if self.problem is not None:
            return False
        if not self.file_level and line not in self.lines:
            return False
        return self.codes is None or any(c == d.code for c, _ in self.codes)


# ---------------------------------------------------------------------------
# Finding comments


def comments(src: SourceFile, kind: str, found: list[Comment] | None = None) -> list[Comment]:
    """The comments of ``src``: those its reader ``found`` while it parsed, when its kind's row
    names no finder of its own; else what that finder finds."""
    finder = comment_finder(kind)
    if finder is None and found is None:
        module = reader(kind)
        if module is not None:  # not given what the reader found: read the file now
            found = module.extract(src).comments
        if found is None:
            # a reader that stopped before its parse: quotes followed line by line; an unknown kind: pip's rule
            finder = plain_line_comments if kind in KINDS else requirements_comments
    if finder is not None:
        try:
            found = finder(src.text)
        except Exception:  # a tokeniser failure must never stop linting
            found = plain_line_comments(src.text)
    unique = {(c.start, c.end): c for c in found}
    return [unique[k] for k in sorted(unique)]


# ---------------------------------------------------------------------------
# Reading directives


def _continued(src: SourceFile, line: int) -> bool:
    return 1 <= line <= len(src.line_starts) and src.line_text(line).endswith("\\")


def _lines_covered(src: SourceFile, comment: Comment, line: int) -> frozenset[int]:
    """A trailing comment covers its own line; a comment alone on its line covers the next line.

    Lines joined by a trailing backslash are one line: a trailing comment on
    the last line of a continued command covers the whole command, and a
    comment line before a continued command covers all of it.
    """
    last = len(src.line_starts)
    lines = {line}
    alone = comment.alone if comment.alone is not None else not src.text[src.line_starts[line - 1] : comment.start].strip()
    if not alone:
        k = line - 1
        while k >= 1 and _continued(src, k):
            lines.add(k)
            k -= 1
        return frozenset(lines)
    k = line + 1
    lines.add(k)
    while k < last and _continued(src, k):
        k += 1
        lines.add(k)
    return frozenset(lines)


def parse(src: SourceFile, comment: Comment) -> Suppression | None:
    m = _DIRECTIVE_START.search(comment.text)
    if m is None:
        return None
    offset = comment.start + m.start()
    text = comment.text[m.start() :]
    line, _ = src.line_col(offset)
    d = _DIRECTIVE.match(text)
    if d is None:
        return Suppression(comment, offset, False, [], None, "", problem="cannot read this suppression; write `# vllm-lint: ignore[CODE] reason` or `# vllm-lint: ignore-file[CODE]`")
    file_level = d.group("kind").lower() == "ignore-file"
    raw = d.group("codes")
    reason = d.group("rest").strip()
    codes: list[tuple[str, Span]] | None
    codes_span = None
    problem = None
    if raw is None:
        codes = None
        if not file_level:
            problem = "`ignore` needs the codes it silences: `# vllm-lint: ignore[CODE] reason`"
    else:
        base = offset + d.start("codes")
        codes_span = Span(base, base + len(raw))
        codes = []
        for part in re.finditer(r"[^,\s]+", raw):
            token = part.group(0)
            if _CODE_TOKEN.fullmatch(token) is None:
                problem = f"`{token}` is not a rule code"
                continue
            codes.append((token.upper(), Span(base + part.start(), base + part.end())))
        if not codes and problem is None:
            problem = "empty code list"
    sup = Suppression(comment, offset, file_level, codes, codes_span, reason, problem=problem)
    if not file_level:
        sup.lines = _lines_covered(src, comment, line)
    return sup


def directive_comments(src: SourceFile, kind: str) -> list[Comment] | None:
    """The comments of ``src`` that hold a directive, for a kind whose row names a comment
    finder (None for the others: their readers report the comments, ``Extraction.comments``).
    What :func:`suppressions` reads of such a file, kept with its stored extraction
    (``Extraction.directives``) so that a run whose results miss (a new ``--target-version``)
    does not search a multi-megabyte text for the marker again."""
    if comment_finder(kind) is None:
        return None
    if MARKER not in src.text.lower():
        return []
    return [c for c in comments(src, kind) if _DIRECTIVE_START.search(c.text) is not None]


def suppressions(src: SourceFile, kind: str, found: list[Comment] | None = None, directives: list[Comment] | None = None) -> list[Suppression]:
    """The suppressions of ``src``; ``found``: the comments its reader found; ``directives``:
    :func:`directive_comments` of ``src``, when its stored extraction holds them."""
    if directives is not None and comment_finder(kind) is not None:
        return [s for s in (parse(src, c) for c in directives) if s is not None]
    if found is not None and comment_finder(kind) is None:
        # the comments are the reader's: a directive starts in one of them (:func:`parse`), so
        # their texts are searched, not the whole file lower-cased (a 3.5 MB manifest)
        if _DIRECTIVE_START.search("\n".join(c.text for c in found)) is None:
            return []
    elif MARKER not in src.text.lower():
        return []
    out = []
    for c in comments(src, kind, found):
        s = parse(src, c)
        if s is not None:
            out.append(s)
    return out


# ---------------------------------------------------------------------------
# Applying them


def _removal(src: SourceFile, sup: Suppression) -> Edit:
    """An edit that deletes the directive (the whole comment, or the whole line when it held nothing else)."""
    text = src.text
    start, end = sup.start, sup.comment.end
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    line_start = text.rfind("\n", 0, start) + 1
    if start == line_start:  # nothing else on the line: drop the line and its line end
        if end < len(text) and text[end] == "\r":
            end += 1
        if end < len(text) and text[end] == "\n":
            end += 1
        elif line_start > 0:  # the last line without a line end: take the previous line end
            start = line_start - 1
            if start > 0 and text[start - 1] == "\r":
                start -= 1
    return Edit(Span(start, end), "")


def _unused_diagnostic(src: SourceFile, sup: Suppression, unused: list[str], unknown: list[str], version: str | None) -> Diagnostic:
    parts = []
    if unknown:
        parts.append(f"unknown rule code{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
    if unused:
        parts.append(f"nothing to suppress for {', '.join(unused)}")
    listed = [c for c, _ in sup.codes or []]
    keep = [c for c in listed if c not in unused and c not in unknown]
    if sup.codes is None:
        message = "unused suppression: `ignore-file` silences nothing in this file"
        fix = Fix("Remove the unused suppression", (_removal(src, sup),))
    elif keep:
        message = "unused suppression: " + "; ".join(parts)
        assert sup.codes_span is not None
        fix = Fix(f"Keep only {', '.join(keep)}", (Edit(sup.codes_span, ", ".join(keep)),))
    else:
        message = "unused suppression: " + "; ".join(parts)
        fix = Fix("Remove the unused suppression", (_removal(src, sup),))
    if src.text[sup.comment.start : sup.comment.end] != sup.comment.text:
        fix = None  # a comment of text held in a string (a notebook cell's) that escapes stand in: not edited
    return _vl901(src, Finding(Span(sup.start, sup.comment.end), message, fix), version)


def _vl901(src: SourceFile, finding: Finding, version: str | None) -> Diagnostic:
    from rules.unused_suppression import rule

    return rule.stamp(src.path, finding, version)


def apply(
    src: SourceFile, kind: str, diagnostics: list[Diagnostic], settings, known_codes=None, ignored: frozenset[str] = frozenset(),
    found: list[Comment] | None = None, directives: list[Comment] | None = None,
) -> list[Diagnostic]:
    """The diagnostics that no suppression silences, plus VL901 for suppressions that silence nothing.

    ``found``: the comments the file's reader found while it parsed (``Extraction.comments``);
    ``directives``: those that hold a directive, kept with a stored extraction (``Extraction.directives``).
    """
    sups = suppressions(src, kind, found, directives)
    if not sups:
        return diagnostics
    from rules._lib.base import all_rules

    rules = all_rules()
    if known_codes is None:
        known_codes = set(rules)
    kept: list[Diagnostic] = []
    for d in diagnostics:
        line, _ = src.line_col(min(d.span.start, len(src.text)))
        hit = [s for s in sups if s.covers(d, line)]
        if not hit:
            kept.append(d)
        for s in hit:
            s.used.add(d.code)
    if not settings.enabled(CODE, rules[CODE].default) or matches(CODE, ignored):
        return kept
    version = next((d.vllm_version for d in diagnostics if d.vllm_version), None)
    # Part of the file could not be parsed: findings may be missing there, so "unused" cannot be told
    # (and --fix must not delete a suppression that is still needed).  Unknown codes still can.
    partial = any(d.code == "VL001" for d in diagnostics)
    extra: list[Diagnostic] = []
    for s in sups:
        if s.problem is not None:
            extra.append(_vl901(src, Finding(Span(s.start, s.comment.end), f"unreadable suppression: {s.problem}"), version))
            continue
        if s.codes is None:
            if not s.used and not partial:
                extra.append(_unused_diagnostic(src, s, [], [], version))
            continue
        unknown = [c for c, _ in s.codes if c not in known_codes]
        unused = [
            c for c, _ in s.codes
            if c in known_codes and c not in s.used and c != CODE and c in rules and settings.enabled(c, rules[c].default) and not matches(c, ignored) and not partial
        ]
        if unknown or unused:
            extra.append(_unused_diagnostic(src, s, unused, unknown, version))
    # VL901 itself can be silenced (``ignore[VL901]``, ``ignore-file[VL901]``)
    for d in extra:
        line, _ = src.line_col(d.span.start)
        hit = [s for s in sups if s.covers(d, line) and s.codes is not None]
        if not hit:
            kept.append(d)
    return kept


def finish(src: SourceFile, kind: str, diagnostics: list[Diagnostic], settings, found: list[Comment] | None = None,
           directives: list[Comment] | None = None) -> list[Diagnostic]:
    """Per-file ignores of the configuration, then inline suppressions (and VL901); ``found``: the
    comments the file's reader found (``Extraction.comments``); ``directives``: those holding a
    directive, kept with a stored extraction (``Extraction.directives``)."""
    ignored = settings.ignored_in(src.path)
    if ignored:
        diagnostics = [d for d in diagnostics if not matches(d.code, ignored)]
    return apply(src, kind, diagnostics, settings, ignored=ignored, found=found, directives=directives)
