"""Helm (Go template) YAML: mask ``{{ ... }}`` actions so the YAML parses, positions intact.

Every action is replaced by filler of the same length (newlines kept), so each
offset in the masked text is the same offset in the file:

* a line holding only actions and blanks becomes blank (control flow,
  ``{{- toYaml ... | nindent 8 }}``, comments);
* an action beside other text becomes ``x`` characters (an output action in
  a value, a key or a quoted string) or spaces (a control action);
* lines of an ``{{ else }}`` branch are blanked, so the first branch of each
  conditional is what is read and a list does not get both alternatives.

Tokens that overlap an output action get the file's text back as their
value, with the action as an opaque range, and are not editable; tokens
inside a ``range`` body may stand for any number of words (``splat``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from linter.launch import EnvVar, Launch, Setting, Span, Token, VersionHint
from linter.source_file import SourceFile

_CONTROL = frozenset({"if", "else", "end", "range", "with", "define", "block", "break", "continue"})


@dataclass
class Masked:
    text: str
    outputs: list[tuple[int, int]] = field(default_factory=list)  # output actions (file offsets)
    ranges: list[tuple[int, int]] = field(default_factory=list)  # bodies of range blocks
    unclosed: int | None = None  # offset of a ``{{`` without ``}}``


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
    # conditional structure: blank whole lines of else branches; note range bodies
    stack: list[tuple[str, int, int | None]] = []  # (keyword, body start, else end)
    skip: list[tuple[int, int]] = []
    for (s, e), kw in zip(actions, kinds):
        if kw in ("if", "with", "range", "define", "block"):
            stack.append((kw, e, None))
        elif kw == "else" and stack:
            k, body, else_at = stack[-1]
            if else_at is None:
                stack[-1] = (k, body, e)
            else:
                skip.append((else_at, s))
                stack[-1] = (k, body, e)
        elif kw == "end" and stack:
            k, body, else_at = stack.pop()
            if else_at is not None:
                skip.append((else_at, s))
            if k == "range":
                result.ranges.append((body, s if else_at is None else else_at))
    blanked: list[tuple[int, int]] = []
    for a, b in skip:
        ls = text.find("\n", a)
        if ls == -1:
            continue
        ls += 1
        le = text.rfind("\n", 0, b)
        if le < ls:
            continue
        blanked.append((ls, le))
        for i in range(ls, le):
            if chars[i] not in "\r\n":
                chars[i] = " "
    for (s, e), kw in zip(actions, kinds):
        line_start = text.rfind("\n", 0, s) + 1
        line_end = text.find("\n", e)
        line_end = len(text) if line_end == -1 else line_end
        control = kw in _CONTROL or kw in ("comment", "assign")
        alone = _only_actions(text, line_start, line_end, actions)
        inside = any(a <= s and e <= b for a, b in blanked)
        filler = " " if (control or alone or inside) else "x"
        for i in range(s, e):
            if chars[i] not in "\r\n":
                chars[i] = filler
            elif chars[i] == "\n" and filler == "x":
                pass
        if not control and not inside:
            result.outputs.append((s, e))
    if unclosed is not None:
        for i in range(unclosed, len(text)):
            if chars[i] not in "\r\n":
                chars[i] = " "
    result.text = "".join(chars)
    return result


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
        return Token(real, tok.span, None, tuple(tok.opaque) + opaque, splat)
    # not verbatim: the whole value is unknown
    return Token(tok.value, tok.span, None, ((0, len(tok.value)),), splat)


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
