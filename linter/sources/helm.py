"""Helm (Go template) YAML: mask ``{{ ... }}`` actions so the YAML parses, positions intact.

Every action is replaced by filler of the same length (as many line ends), so each
offset in the masked text is the same offset in the file:

* a line holding only actions and blanks reads as nothing (control flow,
  ``{{- toYaml ... | nindent 8 }}``, comments), and so does the white space a
  chomping ``{{-``/``-}}`` trims (see :func:`_blank_gone`: a shell continuation
  across such a line goes on, as it does once rendered);
* an action beside other text becomes ``x`` characters (an output action in
  a value, a key or a quoted string) or spaces (a control action);
* the text of an ``{{ else }}`` branch is dropped, so the first branch of each
  conditional is what is read (``{{ if .P }}{{ .P }}{{ else }}5555{{ end }}`` is
  the one value ``{{ .P }}``) and a list does not get both alternatives; except
  where both branches are whole items of one YAML list (``- "--enable-x"`` /
  ``- "--no-enable-x"``): both are read, each word conditional.

Tokens that overlap an output action get the file's text back as their
value, with the action as an opaque range, and are not editable; tokens
inside a ``range`` body may stand for any number of words (``splat``).
"""

from __future__ import annotations


from linter import placeholders
from linter.lazy_re import lazy_re
from linter.launch import EnvVar, Launch, Setting, Span, Token, VersionHint
from linter.records import Record
from linter.source_file import SourceFile

_CONTROL = frozenset({"if", "else", "end", "range", "with", "define", "block", "break", "continue"})


class Masked(Record):
    __slots__ = ("text", "outputs", "ranges", "unclosed", "branches")

    text: str
    outputs: list[tuple[int, int]]  # output actions (file offsets)
    ranges: list[tuple[int, int]]  # bodies of range blocks
    unclosed: int | None  # offset of a ``{{`` without ``}}``
    branches: list[tuple[int, int]]  # both bodies of an if/else whose branches are items of one list, both read

    def __init__(self, text, outputs=None, ranges=None, unclosed=None, branches=None):
        self.text = text
        self.outputs = ([] if outputs is None else outputs)
        self.ranges = ([] if ranges is None else ranges)
        self.unclosed = unclosed
        self.branches = ([] if branches is None else branches)


def _actions(text: str) -> tuple[list[tuple[int, int]], int | None]:
    """``(start, end)`` of every ``{{ ... }}`` (not GitHub's ``${{``), strings inside respected."""
    out = []
    i = 0
    n = len(text)
    while True:
        s = text.find("{{", i)
        if s == -1:
            return out, None
        if s > 0 and text[s - 1] == "$":
            i = s + 2
            continue
        j = s + 2
        while j < n:
            c = text[j]
            if text.startswith("}}", j):
                break
            if c in "\"`":
                k = j + 1
                while k < n and text[k] != c and text[k] != "\n":
                    k += 2 if (c == '"' and text[k] == "\\") else 1
                j = k + 1
                continue
            if text.startswith("/*", j):
                k = text.find("*/", j + 2)
                j = n if k == -1 else k + 2
                continue
            j += 1
        if j >= n:
            return out, s
        out.append((s, j + 2))
        i = j + 2


def _keyword(action: str) -> str:
    body = action[2:-2].strip()
    body = body.lstrip("-").strip()
    if body.startswith("/*"):
        return "comment"
    word = body.split(None, 1)[0] if body else ""
    if word.startswith("$") and ":=" in body or (word.startswith("$") and " = " in body):
        return "assign"
    return word


def has_template(text: str) -> bool:
    return bool(_actions(text)[0])


def action_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every ``{{ ... }}`` action of ``text`` (closed ones)."""
    return _actions(text)[0]


def mask(text: str) -> Masked:
    actions, unclosed = _actions(text)
    chars = list(text)
    result = Masked(text, unclosed=unclosed)
    kinds = [_keyword(text[s:e]) for s, e in actions]
    # conditional structure: the text of else branches is dropped (the first branch of each
    # conditional is what is read, so a list does not get both alternatives); note range bodies
    stack: list[tuple[str, int, int | None, int | None]] = []  # (keyword, body start, else end, else start of a lone else)
    skip: list[tuple[int, int]] = []
    for (s, e), kw in zip(actions, kinds):
        if kw in ("if", "with", "range", "define", "block"):
            stack.append((kw, e, None, None))
        elif kw == "else" and stack:
            k, body, else_at, _lone = stack[-1]
            if else_at is not None:
                skip.append((else_at, s))
            stack[-1] = (k, body, e, s if else_at is None else -1)
        elif kw == "end" and stack:
            k, body, else_at, lone = stack.pop()
            if else_at is not None and k == "if" and lone is not None and lone >= 0 and _list_items(text, body, lone, else_at, s):
                result.branches += [(body, lone), (else_at, s)]  # ``- "--enable-x"`` / ``- "--no-enable-x"``: both read
            elif else_at is not None:
                skip.append((else_at, s))
            if k == "range":
                result.ranges.append((body, s if else_at is None else else_at))
    gone: list[tuple[int, int]] = list(skip)  # text that rendering removes
    kept_lines: set[tuple[int, int]] = set()  # lines of unchomped actions: rendered as their indentation
    for (s, e), kw in zip(actions, kinds):
        line_start = text.rfind("\n", 0, s) + 1
        line_end = text.find("\n", e)
        line_end = len(text) if line_end == -1 else line_end
        control = kw in _CONTROL or kw in ("comment", "assign")
        alone = _only_actions(text, line_start, line_end, actions)
        inside = any(a <= s and e <= b for a, b in skip)
        if not (control or alone or inside):
            for i in range(s, e):
                if chars[i] not in "\r\n":
                    chars[i] = "x"
            result.outputs.append((s, e))
            continue
        if not control and not inside:
            result.outputs.append((s, e))  # blanked, but the rendered text has something here
        a, b = s, e
        chomps = text.startswith("{{-", s) or text[e - 3 : e] == "-}}"
        if alone:
            # a line of actions renders as its indentation (a chomping ``{{-`` eats that and the
            # line end before it too): the line's text goes, with the line end before it, unless
            # that line end closes a shell continuation (the rendered script has a blank line there)
            a = min(a, line_start)
            b = max(b, line_end if line_end > 0 and text[line_end - 1] != "\r" else line_end - 1)
            if line_start > 0 and (text.startswith("{{-", s) or _before_break(text, line_start) != "\\"):
                a = min(a, line_start - (2 if text[max(0, line_start - 2) : line_start] == "\r\n" else 1))
        if text.startswith("{{-", s):  # trims all white space before it, line ends included
            while a > 0 and text[a - 1] in _WHITE:
                a -= 1
        if text[e - 3 : e] == "-}}":  # trims all white space after it
            while b < len(text) and text[b] in _WHITE:
                b += 1
        gone.append((a, b))
        if alone and not chomps:
            kept_lines.add((a, b))
    for a, b in _merged(gone):
        _blank_gone(text, chars, a, b, keep_indent=(a, b) in kept_lines)
    if unclosed is not None:
        for i in range(unclosed, len(text)):
            if chars[i] not in "\r\n":
                chars[i] = " "
    result.text = "".join(chars)
    return result


_WHITE = " \t\r\n"


_ACTION_LINE = lazy_re(r"[ \t]*(?:\{\{.*?\}\}[ \t]*)+\r?")
_ITEM = lazy_re(r"""([ \t]*)- ["']?--?[A-Za-z]""")  # an option word (``- "--no-enable-x"``), not a program or a value


def _list_items(text: str, body: int, else_start: int, else_end: int, end: int) -> bool:
    """Both bodies of ``{{ if }} BODY {{ else }} BODY {{ end }}`` are options, whole items of
    one YAML list (lines of ``- --opt`` at one indentation, or of actions alone): rendering
    keeps one of them, and reading both keeps the list whole (alternative programs, ``-
    /opt/venv/bin/vllm`` or ``- vllm``, are not read both)."""
    indents = set()
    for a, b in ((body, else_start), (else_end, end)):
        lines = text[a:b].split("\n")
        # the first line's rest after the opening action and the last line's text before the
        # closing one belong to the action lines (chomped or blank)
        items = 0
        for ln in lines:
            if not ln.strip() or _ACTION_LINE.fullmatch(ln):
                continue
            m = _ITEM.match(ln)
            if m is None:
                return False
            indents.add(m.group(1))
            items += 1
        if not items:
            return False
    return len(indents) == 1


def _before_break(text: str, line_start: int) -> str:
    """The last character of the line before ``line_start`` (its line end excluded)."""
    k = line_start - 1
    if k > 0 and text[k] == "\n" and text[k - 1] == "\r":
        k -= 1
    return text[k - 1] if k > 0 else ""


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _blank_gone(text: str, chars: list[str], a: int, b: int, *, keep_indent: bool = False) -> None:
    """Fill ``text[a:b]``, which rendering removes, with same-length text that reads as nothing.

    The removed text becomes spaces, its line ends too, so the text before it and the text after
    it join as they do once rendered (offsets stay true; only the masked text's line count
    changes); text after the gap on its last line keeps the column it has once rendered.  Two
    joins need more than spaces:

    * a shell continuation (``\\`` just before the gap): the ``\\`` moves to the gap's end, so
      the command goes on across the gap;
    * a line of unchomped actions alone (``keep_indent``) renders as a line of its indentation:
      its line end stays, after the spaces that stand for the actions, so the line keeps its
      indentation only (a block scalar's first line sets the block's indentation, and a blank
      line in a folded scalar is a line end of the script, as once rendered).
    """
    for i in range(a, b):
        chars[i] = " "
    if keep_indent:
        k = a + (2 if text.startswith("\r\n", a) else 1 if text[a] in "\r\n" else 0)
        if k > a:  # the gap starts with the line end before the line: it moves past the actions
            indent = len(text[k:b]) - len(text[k:b].lstrip(" \t"))
            brk = text[a:k]
            at = b - indent - len(brk)
            chars[at : at + len(brk)] = list(brk)
        return
    if a > 0 and text[a - 1] == "\\" and b > a:
        chars[a - 1] = " "
        chars[b - 1] = "\\"
        return
    breaks = [text[i] for i in range(a, b) if text[i] in "\r\n"]
    if breaks and b < len(text) and text[b] not in "\r\n":
        # text follows the gap on its line (``{{- /* ... */ -}}`` before ``apiVersion:``): it
        # stands, on a line of its own, at the column where the gap began, as once rendered
        col = a - (text.rfind("\n", 0, a) + 1)
        at = b - col - len(breaks)
        if at >= a:
            chars[at : at + len(breaks)] = breaks


def _only_actions(text: str, ls: int, le: int, actions: list[tuple[int, int]]) -> bool:
    rest = []
    last = ls
    for s, e in actions:
        if e <= ls or s >= le:
            continue
        rest.append(text[last:max(last, s)])
        last = max(last, e)
    rest.append(text[last:le])
    return "".join(rest).strip() == ""


def _fix(src: SourceFile, m: Masked, tok: Token | None, within: Span | None = None) -> Token | None:
    fixed = _fixed(src, m, tok, within)
    if fixed is not None and not fixed.conditional and any(a <= fixed.span.start and fixed.span.end <= b for a, b in m.branches):
        return Token(fixed.value, fixed.span, fixed.value_start, fixed.opaque, fixed.splat, True, fixed.alternatives)
    return fixed


def _fixed(src: SourceFile, m: Masked, tok: Token | None, within: Span | None = None) -> Token | None:
    if tok is None:
        return None
    overlapping = [(s, e) for s, e in m.outputs if s < tok.span.end and tok.span.start < e]
    # a templated word inside a ``range`` that lies within the launch stands for any number of words
    splat = tok.splat or (bool(overlapping) and within is not None and any(
        within.start < a and a <= tok.span.start and tok.span.end <= b for a, b in m.ranges))
    if not overlapping:
        return tok if splat == tok.splat else Token(tok.value, tok.span, tok.value_start, tok.opaque, splat)
    if tok.value_start is not None:
        vs = tok.value_start
        real = src.text[vs : vs + len(tok.value)]
        opaque = tuple((max(s, vs) - vs, min(e, vs + len(real)) - vs) for s, e in overlapping if s < vs + len(real) and vs < e)
        # a conditional around the output (``{{ if .P }}{{ .P }}{{ else }}5555{{ end }}``) is
        # one unknown value with it
        return placeholders.mark(Token(real, tok.span, None, tuple(tok.opaque) + opaque, splat))
    # not verbatim (a quoted shell word with escapes): the whole value is unknown; it shows
    # the file's actions, not the masking, where each action's filler is found in order
    value, at = tok.value, 0
    for s, e in sorted(overlapping):
        k = value.find("x" * (e - s), at)
        if k == -1:
            break
        value = value[:k] + src.text[s:e] + value[k + e - s :]
        at = k + e - s
    return Token(value, tok.span, None, ((0, len(value)),), splat)


def unmask(src: SourceFile, m: Masked, launch: Launch) -> Launch:
    """Give a launch found in the masked text the file's real text and its opaque ranges."""
    launch.path = src.path
    launch.entry = [_fix(src, m, t, launch.span) for t in launch.entry]
    launch.args = [_fix(src, m, t, launch.span) for t in launch.args]
    launch.env = [EnvVar(_fix(src, m, e.name), _fix(src, m, e.value)) for e in launch.env]
    launch.settings = [Setting(_fix(src, m, s.name), _fix(src, m, s.value), "opaque" if _touches(m, s.value) else s.kind) for s in launch.settings]
    launch.image = _fix(src, m, launch.image)
    hint = launch.version_hint
    if hint is not None and any(s < hint.span.end and hint.span.start < e for s, e in m.outputs):
        launch.version_hint = VersionHint(src.text[hint.span.start:hint.span.end], hint.span, hint.origin, False)
    if any(s < launch.span.end and launch.span.start < e for s, e in m.outputs):
        launch.notes.append("templated: parts are only known after rendering")
    return launch


def _touches(m: Masked, tok: Token | None) -> bool:
    return tok is not None and any(s < tok.span.end and tok.span.start < e for s, e in m.outputs)


class MaskedSource(SourceFile):
    """The masked text, remembering the file's own text (for names shown to users)."""

    original_text: str = ""


def masked_source(src: SourceFile, m: Masked) -> SourceFile:
    masked = MaskedSource(src.path, m.text, src.encoding, src.bom)
    masked.original_text = src.text
    return masked


def problem_span(m: Masked) -> Span | None:
    if m.unclosed is None:
        return None
    return Span(m.unclosed, m.unclosed + 2)
