"""Inline suppressions: ``# vllm-lint: ignore[CODE,...] reason`` and ``# vllm-lint: ignore-file[CODE]``.

A line suppression at the end of the flagged line silences the listed codes
on that line; alone on its line, it silences them on the next line (the "line
before" form).  Lines joined by a trailing backslash count as one: a comment
at the end of a continued command covers the whole command, and a comment on
the line before a continued command covers all of it.
``ignore-file`` anywhere in the file silences the listed codes in the whole
file, or every code when it lists none.

Comments are found with each file kind's own tokenisation, so a ``#`` inside
a string never counts: Python's :mod:`tokenize`; tree-sitter-bash ``comment``
nodes for shell; tree-sitter-dockerfile comments plus bash comments inside
shell-form instructions for Dockerfiles; for YAML, every ``#`` preceded by
white space (or at a line start) that no token of PyYAML's scanner covers
(quoted and block scalars are tokens), plus bash comments inside literal
block scalars (a script in ``args: |``); Markdown code fences by their
language; requirements files by pip's rule.

A suppression that suppresses nothing, names an unknown code, or cannot be
read is reported as VL901 (``rules/unused_suppression.py``) with a safe fix
that removes it, so suppressions do not rot.  Codes that are not enabled in
this run are not judged, and nothing is judged unused in a file with a parse
error (VL001): its findings may be incomplete.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from linter.diagnostic import Diagnostic, Edit, Finding, Fix, matches
from linter.kinds import comment_finder
from linter.launch import Span
from linter.source_file import SourceFile

CODE = "VL901"
MARKER = "vllm-lint"

# token-level patterns on the text of one comment (found by the file's tokeniser)
_DIRECTIVE_START = re.compile(r"#\s*vllm-lint\s*:", re.IGNORECASE)
_DIRECTIVE = re.compile(
    r"#\s*vllm-lint\s*:\s*(?P<kind>ignore-file|ignore)(?![\w-])\s*(?:\[(?P<codes>[^\]]*)\])?(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_CODE_TOKEN = re.compile(r"[A-Za-z]+[0-9]+")


@dataclass(frozen=True)
class Comment:
    start: int  # character offset of the ``#``
    end: int  # offset just after the comment's last character (line end excluded)
    text: str


@dataclass
class Suppression:
    comment: Comment
    start: int  # offset of the directive's ``#`` (may be inside a longer comment)
    file_level: bool
    codes: list[tuple[str, Span]] | None  # None: every code (``ignore-file`` without a list)
    codes_span: Span | None  # the text between the brackets
    reason: str
    lines: frozenset[int] = frozenset()
    problem: str | None = None  # why the directive cannot be read
    used: set[str] = field(default_factory=set)

    def covers(self, d: Diagnostic, line: int) -> bool:
        if self.problem is not None:
            return False
        if not self.file_level and line not in self.lines:
            return False
        return self.codes is None or any(c == d.code for c, _ in self.codes)


# ---------------------------------------------------------------------------
# Finding comments


def _chars(data: bytes, offsets) -> dict[int, int]:
    """Character offsets of byte offsets (all on character boundaries), decoding the text once."""
    out: dict[int, int] = {}
    prev_b = prev_c = 0
    for b in sorted(set(offsets)):
        prev_c += len(data[prev_b:b].decode("utf-8", "replace"))
        prev_b = b
        out[b] = prev_c
    return out


def _masked(text: str, ranges: list[tuple[int, int]]) -> tuple[int, str]:
    """The stretch of ``text`` from the first range to the last with everything outside the ranges
    blanked (line ends kept), and where it starts: offsets in it plus the start are file offsets."""
    base, end = min(a for a, _ in ranges), max(b for _, b in ranges)
    out = [c if c in "\r\n" else " " for c in text[base:end]]
    for a, b in ranges:
        out[a - base : b - base] = text[a:b]
    return base, "".join(out)


def _shifted(found: list[Comment], base: int) -> list[Comment]:
    return [Comment(c.start + base, c.end + base, c.text) for c in found]


def _ts_comments(text: str, language) -> list[Comment]:
    import tree_sitter as ts

    data = text.encode("utf-8")
    tree = ts.Parser(language).parse(data)
    spans: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            spans.append((node.start_byte, node.end_byte))
            continue
        stack.extend(node.children)
    conv = _chars(data, [b for span in spans for b in span])
    out = []
    for sb, eb in spans:
        s, e = conv[sb], conv[eb]
        out.append(Comment(s, e, text[s:e].rstrip("\r")))
    return out


def _bash_language():
    from linter.sources.shell import _LANGUAGE  # the grammar the shell extractor loaded

    return _LANGUAGE


def shell_comments(text: str) -> list[Comment]:
    return _ts_comments(text, _bash_language())


def dockerfile_comments(text: str) -> list[Comment]:
    import tree_sitter as ts

    from linter.sources.dockerfile import _LANGUAGE as language  # loaded once, its wheel's warning handled there

    data = text.encode("utf-8")
    tree = ts.Parser(language).parse(data)
    comment_spans: list[tuple[int, int]] = []
    shell_spans: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            continue  # a broken instruction (reported as VL001): its "comments" may be strings
        if node.type == "comment":
            comment_spans.append((node.start_byte, node.end_byte))
            continue
        if node.type == "shell_command":  # RUN/CMD/ENTRYPOINT shell form: the shell reads `#` comments
            shell_spans.append((node.start_byte, node.end_byte))
            continue
        stack.extend(node.children)
    conv = _chars(data, [b for span in comment_spans + shell_spans for b in span])
    out: list[Comment] = []
    for sb, eb in comment_spans:
        s, e = conv[sb], conv[eb]
        out.append(Comment(s, e, text[s:e].rstrip("\r")))
    if shell_spans:
        base, masked = _masked(text, [(conv[a], conv[b]) for a, b in shell_spans])
        out.extend(_shifted(shell_comments(masked), base))
    return out


def python_comments(text: str) -> list[Comment]:
    starts = [0]
    for i, c in enumerate(text):
        if c == "\n":
            starts.append(i + 1)
    out: list[Comment] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                (row, col), (erow, ecol) = tok.start, tok.end
                out.append(Comment(starts[row - 1] + col, starts[erow - 1] + ecol, tok.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # keep the comments before the error; the file is reported as VL001 anyway
    return out


def _hash_comments(text: str, covered: list[tuple[int, int]]) -> list[Comment]:
    """``#`` at a line start or after white space, outside ``covered`` ranges, to the end of its line."""
    import bisect

    covered = sorted(covered)
    starts = [a for a, _ in covered]
    out: list[Comment] = []
    i = text.find("#")
    while i != -1:
        k = bisect.bisect_right(starts, i) - 1
        inside = k >= 0 and covered[k][0] <= i < covered[k][1]
        if not inside and (i == 0 or text[i - 1] in " \t\r\n"):
            end = text.find("\n", i)
            end = len(text) if end == -1 else end
            out.append(Comment(i, end, text[i:end].rstrip("\r")))
            i = text.find("#", end)
            continue
        i = text.find("#", i + 1)
    return out


def yaml_comments(text: str) -> list[Comment]:
    import yaml

    covered: list[tuple[int, int]] = []
    literal_blocks: list[tuple[int, int]] = []
    end_of_scan = len(text)
    try:
        for tok in yaml.scan(text, Loader=yaml.SafeLoader):
            a, b = tok.start_mark.index, tok.end_mark.index
            if isinstance(tok, yaml.ScalarToken) and b > a:
                covered.append((a, b))
                if tok.style == "|":
                    literal_blocks.append((a, b))
            elif isinstance(tok, (yaml.DirectiveToken, yaml.TagToken, yaml.AnchorToken, yaml.AliasToken)) and b > a:
                covered.append((a, b))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        end_of_scan = mark.index if mark is not None else 0
    out = [c for c in _hash_comments(text, covered) if c.start < end_of_scan]
    if end_of_scan < len(text):  # past a scanner error: a `#` after white space, outside quotes on its line
        out.extend(c for c in _plain_line_comments(text) if c.start >= end_of_scan)
    for a, b in literal_blocks:  # a script in a literal block: its shell comments
        first_nl = text.find("\n", a)
        if first_nl == -1 or first_nl >= b:
            continue
        out.extend(_shifted(shell_comments(text[first_nl + 1 : b]), first_nl + 1))
    return out


def _plain_line_comments(text: str) -> list[Comment]:
    """Fallback for text no tokeniser accepts: quotes are followed within one line."""
    out: list[Comment] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        quote = None
        for j, c in enumerate(line):
            if quote:
                if c == quote:
                    quote = None
                continue
            if c in "'\"" and (j == 0 or line[j - 1] in " \t[{,:-"):
                quote = c
            elif c == "#" and (j == 0 or line[j - 1] in " \t"):
                body = line[j:].rstrip("\r\n")
                out.append(Comment(pos + j, pos + j + len(body), body))
                break
        pos += len(line)
    return out


def helm_comments(text: str) -> list[Comment]:
    try:
        from linter.sources.helm import _actions

        actions, unclosed = _actions(text)
    except Exception:
        return _plain_line_comments(text)
    if unclosed is not None:
        actions.append((unclosed, len(text)))
    blanked = list(text)
    for a, b in actions:
        for i in range(a, b):
            if blanked[i] not in "\r\n":
                blanked[i] = " "
    masked = "".join(blanked)
    return [Comment(c.start, c.end, text[c.start : c.end]) for c in yaml_comments(masked)]


def requirements_comments(text: str) -> list[Comment]:
    return _hash_comments(text, [])  # pip: a `#` at a line start or after white space


def markdown_comments(text: str) -> list[Comment]:
    from linter.sources.markdown import DOCKER_LANGS, PYTHON_LANGS, SHELL_LANGS, YAML_LANGS, fenced_blocks

    out: list[Comment] = []
    for block in fenced_blocks(text):
        if not block.lines:
            continue
        lang = (block.lang or "").lower()
        if lang in YAML_LANGS:
            finder = yaml_comments
        elif lang in DOCKER_LANGS:
            finder = dockerfile_comments
        elif lang in PYTHON_LANGS:
            finder = python_comments
        elif lang in SHELL_LANGS or lang == "":
            finder = shell_comments
        else:
            continue
        base, masked = _masked(text, block.lines)
        if finder is python_comments and block.fence_indent:
            finder = _plain_line_comments  # an indented block does not tokenize as it stands
        out.extend(_shifted(finder(masked), base))
    return out


def comments(src: SourceFile, kind: str, found: list[Comment] | None = None) -> list[Comment]:
    """The comments of ``src``: ``found`` by its reader while it parsed, else by the finder its kind's row names."""
    if found is None:
        finder = comment_finder(kind) or requirements_comments  # an unknown kind: pip's rule, the plainest
        try:
            found = finder(src.text)
        except Exception:  # a tokeniser failure must never stop linting
            found = _plain_line_comments(src.text)
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
    if src.text[src.line_starts[line - 1] : comment.start].strip():
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


def suppressions(src: SourceFile, kind: str) -> list[Suppression]:
    if MARKER not in src.text.lower():
        return []
    out = []
    for c in comments(src, kind):
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
    return _vl901(src, Finding(Span(sup.start, sup.comment.end), message, fix), version)


def _vl901(src: SourceFile, finding: Finding, version: str | None) -> Diagnostic:
    from rules.unused_suppression import rule

    return rule.stamp(src.path, finding, version)


def apply(src: SourceFile, kind: str, diagnostics: list[Diagnostic], settings, known_codes=None, ignored: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """The diagnostics that no suppression silences, plus VL901 for suppressions that silence nothing."""
    sups = suppressions(src, kind)
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


def finish(src: SourceFile, kind: str, diagnostics: list[Diagnostic], settings) -> list[Diagnostic]:
    """Per-file ignores of the configuration, then inline suppressions (and VL901)."""
    ignored = settings.ignored_in(src.path)
    if ignored:
        diagnostics = [d for d in diagnostics if not matches(d.code, ignored)]
    return apply(src, kind, diagnostics, settings, ignored=ignored)
