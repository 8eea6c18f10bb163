"""Shell scripts: every simple command that starts vLLM, as argv tokens placed in the file.

The script is parsed with tree-sitter-bash.  Each simple command (wherever it
stands: pipelines, lists, subshells, function bodies, ``$( )``, heredoc-fed
scripts, ``sh -c '...'`` strings) is turned into words after shell quote
removal, and :func:`linter.sources.commands.match_words` decides whether the
words start vLLM or an LMCache server.

Positions: every word is evaluated character by character; each character of
a word's value remembers the offset in the script it came from (or ``None``
when it was produced by an escape or by nothing in the script).  The caller's
:class:`~linter.offset_map.OffsetMap` maps script offsets to file offsets, so
an embedded script (a YAML ``run:`` block, a Dockerfile ``RUN``, a quoted
``sh -c`` string) places its tokens exactly in the file.

Public API:

``extract(src)``
    a whole script file.
``extract_script(src, script, offsets, *, kind="shell", group="", editable=True)``
    a script embedded in another file; ``offsets`` maps offsets in ``script``
    to offsets in ``src.text``.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

import tree_sitter as _ts
import tree_sitter_bash as _tsb

from linter.launch import EnvVar, Launch, Span, Token, VersionHint
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import Comment, Extraction, Problem
from linter.sources import commands

__all__ = ["extract", "extract_script", "SHELLS", "pip_pins_in_words"]

_LANGUAGE = _ts.Language(_tsb.language())

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "busybox"})
_ENV_PREFIXES = ("VLLM_", "LMCACHE_")
_MAX_DEPTH = 6
# Work budget: characters of word values placed in the file, per character of
# the script.  Each nested ``$( )`` re-reads the text inside it, so a hostile
# script (thousands of nested substitutions) would cost quadratic time and
# memory; past the budget the script is reported as too complex instead.
_WORK_PER_CHAR = 8
_WORK_PER_TOKEN = 16  # a token costs far more than one character (objects, position lists)
_WORK_MIN = 200_000

_GLOB_CHARS = frozenset("*?[")
_SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
_SSH_VALUE_OPTS = frozenset("-B -b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w".split())
_SHELL_VALUE_OPTS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


_MAX_TREE_DEPTH = 256  # syntax tree levels (a ``$( )`` adds about two); real scripts stay under 40


def _deeper_than(root: _ts.Node, limit: int) -> int | None:
    """The start byte of the first node deeper than ``limit`` levels, or None (a cursor walk, no recursion)."""
    cursor = root.walk()
    depth = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            if depth > limit:
                return cursor.node.start_byte
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return None
            depth -= 1


class _TooComplex(Exception):
    """The script needs more work than its budget (deeply nested substitutions, huge commands)."""


def _parser() -> _ts.Parser:
    return _ts.Parser(_LANGUAGE)


# ---------------------------------------------------------------------------
# Evaluated words


@dataclass
class _Word:
    """A word after quote removal: its value, where each character came from, what is unknown."""

    chars: list[str] = field(default_factory=list)
    pos: list[int | None] = field(default_factory=list)  # script offset of each character
    opaque: list[tuple[int, int]] = field(default_factory=list)
    splat: bool = False
    start: int = 0  # script span of the raw word
    end: int = 0
    anchor: int | None = None  # script offset where an empty value stands (inside "")

    @property
    def value(self) -> str:
        return "".join(self.chars)

    def lit(self, text: str, start: int | None) -> None:
        for k, ch in enumerate(text):
            self.chars.append(ch)
            self.pos.append(None if start is None else start + k)

    def put(self, ch: str, p: int | None) -> None:
        self.chars.append(ch)
        self.pos.append(p)

    def unknown(self, text: str, start: int | None, *, splat: bool = False) -> None:
        a = len(self.chars)
        self.lit(text, start)
        if text:
            self.opaque.append((a, len(self.chars)))
        self.splat = self.splat or splat

    def extend(self, other: _Word) -> None:
        off = len(self.chars)
        self.chars.extend(other.chars)
        self.pos.extend(other.pos)
        self.opaque.extend((a + off, b + off) for a, b in other.opaque)
        self.splat = self.splat or other.splat
        if self.anchor is None and not self.chars:
            self.anchor = other.anchor

    def merged_opaque(self) -> tuple[tuple[int, int], ...]:
        out: list[tuple[int, int]] = []
        for a, b in sorted(self.opaque):
            if out and a <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return tuple(out)


@dataclass
class _Assignment:
    name: str
    start: int  # script offset of the assignment
    scalar: _Word | None = None
    array: list[_Word] | None = None


# ---------------------------------------------------------------------------
# The extraction context of one script


class _Script:
    def __init__(
        self,
        src: SourceFile,
        script: str,
        offsets: OffsetMap,
        *,
        kind: str,
        group: str,
        editable: bool,
        depth: int,
        inherited_env: list[EnvVar] | None = None,
        out: Extraction,
        fpos: dict[int, list[int | None]],
        budget: list[int] | None = None,
    ) -> None:
        self.src = src
        # shared with nested scripts (``sh -c``, heredocs): one budget per extraction
        self.budget = budget if budget is not None else [max(_WORK_MIN, _WORK_PER_CHAR * len(script))]
        self.script = script
        self.offsets = offsets
        self.kind = kind
        self.group = group
        self.editable = editable
        self.depth = depth
        self.inherited_env = list(inherited_env or [])
        self.out = out
        self.fpos = fpos  # id(token) -> file offset of each value character
        self._keep: list[Token] = []  # keeps tokens alive while fpos is keyed by id
        # tree-sitter gets the script with the \r of each \r\n removed (bash
        # itself would keep it, but a CRLF script is meant as a script); p2s maps
        # parse-text offsets back to script offsets.
        if "\r\n" in script:
            parts: list[str] = []
            p2s: list[int] = []
            i = 0
            n = len(script)
            while i < n:
                ch = script[i]
                if ch == "\r" and i + 1 < n and script[i + 1] == "\n":
                    i += 1
                    continue
                parts.append(ch)
                p2s.append(i)
                i += 1
            p2s.append(n)
            self.text = "".join(parts)
            self.p2s: list[int] | None = p2s
        else:
            self.text = script
            self.p2s = None
        data = self.text.encode("utf-8", "surrogatepass")
        self.data = data
        if len(data) != len(self.text):
            b2p = [0] * (len(data) + 1)
            b = 0
            for k, ch in enumerate(self.text):
                ln = len(ch.encode("utf-8", "surrogatepass"))
                for j in range(ln):
                    b2p[b + j] = k
                b += ln
            b2p[len(data)] = len(self.text)
            self.b2p: list[int] | None = b2p
        else:
            self.b2p = None
        self.assignments: dict[str, list[_Assignment]] = {}
        self.exports: list[tuple[int, EnvVar]] = []  # (script offset, var)
        self.launch_nodes: dict[int, Launch] = {}

    # -- positions ---------------------------------------------------------

    def p(self, byte: int) -> int:
        """Parse-text offset of a byte offset."""
        return byte if self.b2p is None else self.b2p[byte]

    def s(self, pidx: int) -> int:
        """Script offset of a parse-text offset."""
        return pidx if self.p2s is None else self.p2s[pidx]

    def sbyte(self, byte: int) -> int:
        return self.s(self.p(byte))

    def send(self, byte: int) -> int:
        """Script offset just after the character that ends at ``byte`` (skips a dropped \\r)."""
        k = self.p(byte)
        return self.s(k - 1) + 1 if k > 0 else 0

    def ntext(self, node: _ts.Node) -> str:
        return self.text[self.p(node.start_byte) : self.p(node.end_byte)]

    def lit_range(self, w: _Word, pstart: int, pend: int) -> None:
        for k in range(pstart, pend):
            w.put(self.text[k], self.s(k))

    def file_span(self, start: int, end: int) -> Span:
        a = self.offsets.nearest(start)
        b = self.offsets.span_end(end) if end > start else a
        return Span(a, max(a, b))

    # -- tokens ------------------------------------------------------------

    def spend(self, work: int) -> None:
        self.budget[0] -= work
        if self.budget[0] < 0:
            raise _TooComplex

    def token(self, w: _Word) -> Token:
        self.spend(len(w.pos))
        value = w.value
        fpos: list[int | None] = []
        for p in w.pos:
            fpos.append(None if p is None else self.offsets.to_file(p))
        value_start: int | None = None
        if self.editable:
            if value:
                f0 = fpos[0]
                if f0 is not None and all(f == f0 + k for k, f in enumerate(fpos)):
                    if self.src.text[f0 : f0 + len(value)] == value:
                        value_start = f0
            elif w.anchor is not None:
                value_start = self.offsets.contiguous(w.anchor, w.anchor)
        tok = Token(value, self.file_span(w.start, w.end), value_start, w.merged_opaque(), w.splat)
        self.fpos[id(tok)] = fpos
        self._keep.append(tok)
        return tok

    # -- word evaluation ---------------------------------------------------

    def eval_word(self, node: _ts.Node, *, quoted: bool = False, assignment: bool = False) -> list[_Word]:
        """The word(s) a node expands to (more than one only for a resolved array or split variable)."""
        w = _Word(start=self.sbyte(node.start_byte), end=self.send(node.end_byte))
        multi = self._eval_into(w, node, quoted=quoted, whole=True, assignment=assignment)
        self.spend(len(w.pos) + _WORK_PER_TOKEN)
        if multi is not None:
            return multi
        return [w]

    def _eval_into(self, w: _Word, node: _ts.Node, *, quoted: bool, whole: bool, assignment: bool = False) -> list[_Word] | None:
        t = node.type
        ps, pe = self.p(node.start_byte), self.p(node.end_byte)
        if t in ("word", "number", "variable_name", "special_variable_name", "extglob_pattern", "file_descriptor", "test_operator", "regex"):
            self._unquoted_text(w, ps, pe, glob=not quoted and not assignment)
            return None
        if t == "raw_string":
            w.anchor = self.s(ps + 1)
            self.lit_range(w, ps + 1, max(ps + 1, pe - 1))
            return None
        if t == "ansi_c_string":
            w.anchor = self.s(ps + 2)
            self._ansi_c(w, ps + 2, max(ps + 2, pe - 1))
            return None
        if t in ("string", "translated_string"):
            return self._double_quoted(w, node, whole=whole)
        if t == "concatenation":
            prev_end = ps
            for child in node.children:
                cs, ce = self.p(child.start_byte), self.p(child.end_byte)
                if cs > prev_end:
                    self._unquoted_text(w, prev_end, cs, glob=not quoted and not assignment)
                self._eval_into(w, child, quoted=quoted, whole=False, assignment=assignment)
                prev_end = ce
            if pe > prev_end:
                self._unquoted_text(w, prev_end, pe, glob=not quoted and not assignment)
            return None
        if t in ("simple_expansion", "expansion"):
            return self._expansion(w, node, quoted=quoted, whole=whole, assignment=assignment)
        if t in ("command_substitution", "process_substitution", "arithmetic_expansion", "brace_expression"):
            w.unknown(self.text[ps:pe], self.s(ps), splat=not quoted and not assignment and t == "command_substitution")
            return None
        if t == "$":
            # ``$"..."`` split by the grammar: the ``$`` itself is dropped by bash.
            nxt = node.next_sibling
            if nxt is not None and nxt.start_byte == node.end_byte and nxt.type in ("string", "raw_string"):
                return None
            w.lit("$", self.s(ps))
            return None
        # Anything else (ERROR, unexpected nodes): keep the text, unknown.
        w.unknown(self.text[ps:pe], self.s(ps))
        return None

    def _unquoted_text(self, w: _Word, ps: int, pe: int, *, glob: bool) -> None:
        k = ps
        text = self.text
        first = len(w.chars)
        while k < pe:
            ch = text[k]
            if ch == "\\" and k + 1 < pe:
                nxt = text[k + 1]
                if nxt == "\n":
                    k += 2
                    continue
                w.put(nxt, self.s(k + 1))
                k += 2
                continue
            if glob and ch in _GLOB_CHARS:
                w.unknown(ch, self.s(k))
            else:
                w.put(ch, self.s(k))
            k += 1
        if glob and first == 0 and w.chars[first:first + 1] == ["~"]:
            end = first + 1
            while end < len(w.chars) and w.chars[end] != "/":
                end += 1
            w.opaque.append((first, end))

    def _ansi_c(self, w: _Word, ps: int, pe: int) -> None:
        simple = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
                  "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?"}
        text = self.text
        k = ps
        while k < pe:
            ch = text[k]
            if ch != "\\" or k + 1 >= pe:
                w.put(ch, self.s(k))
                k += 1
                continue
            nxt = text[k + 1]
            if nxt in simple:
                w.put(simple[nxt], None)
                k += 2
                continue
            if nxt in "xuU":
                limit = {"x": 2, "u": 4, "U": 8}[nxt]
                j = k + 2
                while j < pe and j < k + 2 + limit and text[j] in "0123456789abcdefABCDEF":
                    j += 1
                if j > k + 2:
                    try:
                        w.put(chr(int(text[k + 2 : j], 16)), None)
                    except (ValueError, OverflowError):
                        w.unknown(text[k:j], None)
                    k = j
                    continue
            if nxt in "01234567":
                j = k + 1
                while j < pe and j < k + 4 and text[j] in "01234567":
                    j += 1
                w.put(chr(int(text[k + 1 : j], 8) & 0xFF), None)
                k = j
                continue
            if nxt == "c" and k + 2 < pe:
                w.put(chr(ord(text[k + 2]) & 0x1F), None)
                k += 3
                continue
            w.put("\\", self.s(k))
            w.put(nxt, self.s(k + 1))
            k += 2

    def _double_quoted(self, w: _Word, node: _ts.Node, *, whole: bool = False) -> list[_Word] | None:
        ps, pe = self.p(node.start_byte), self.p(node.end_byte)
        inner_start = ps + 1
        if node.type == "translated_string" or self.text[ps] == "$":
            inner_start = ps + 2
        closing = node.children[-1] if node.children else None
        inner_end = pe - 1 if closing is not None and closing.type == '"' and not closing.is_missing and pe - 1 >= inner_start else pe
        w.anchor = self.s(inner_start)
        inner = [c for c in node.children if c.type not in ('"',)]
        if whole and len(inner) == 1 and inner[0].type in ("simple_expansion", "expansion"):
            c = inner[0]
            if self.p(c.start_byte) == inner_start and self.p(c.end_byte) == inner_end:
                return self._expansion(w, c, quoted=True, whole=True, assignment=False)
        prev = inner_start
        for child in node.children:
            cs, ce = self.p(child.start_byte), self.p(child.end_byte)
            if child.type in ('"', "string_content") or ce <= inner_start or cs >= inner_end:
                continue
            if cs > prev:
                self._dq_text(w, prev, cs)
            self._eval_into(w, child, quoted=True, whole=False)
            prev = ce
        if inner_end > prev:
            self._dq_text(w, prev, inner_end)
        return None

    def _dq_text(self, w: _Word, ps: int, pe: int) -> None:
        text = self.text
        k = ps
        while k < pe:
            ch = text[k]
            if ch == "\\" and k + 1 < pe and text[k + 1] in '$`"\\\n':
                if text[k + 1] != "\n":
                    w.put(text[k + 1], self.s(k + 1))
                k += 2
                continue
            w.put(ch, self.s(k))
            k += 1

    def _expansion(self, w: _Word, node: _ts.Node, *, quoted: bool, whole: bool, assignment: bool) -> list[_Word] | None:
        ps, pe = self.p(node.start_byte), self.p(node.end_byte)
        raw = self.text[ps:pe]
        name, subscript, plain, is_length = _expansion_shape(node, self)
        splat = False
        if name in ("@", "*"):
            splat = name == "@" or not quoted
        elif subscript in ("@", "*") and not is_length:
            splat = subscript == "@" or not quoted
        elif not quoted and not assignment:
            splat = True  # word splitting of an unquoted expansion
        # Simple local resolution.
        if plain and name and self.depth >= 0:
            a = self._resolve(name, self.s(ps))
            if a is not None:
                if subscript in ("@", "*") and a.array is not None and whole and (quoted or all(_plain_static(x) for x in a.array)):
                    if subscript == "@" or not quoted:
                        return [_copy_word(x) for x in a.array]
                if subscript is None and a.scalar is not None:
                    val = a.scalar
                    if quoted or assignment:
                        if whole:
                            return [_copy_word(val)]
                        w.extend(val)
                        return None
                    fields = _split_fields(val)
                    if fields is not None:
                        if whole:
                            return fields
                        if len(fields) == 1:
                            w.extend(fields[0])
                            return None
        w.unknown(raw, self.s(ps), splat=splat)
        return None

    def _resolve(self, name: str, use_at: int) -> _Assignment | None:
        lst = self.assignments.get(name)
        if not lst or len(lst) != 1:
            return None
        a = lst[0]
        if a.start >= use_at:
            return None
        return a

    # -- pass 1: assignments ----------------------------------------------

    def collect_assignments(self, root: _ts.Node) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            t = node.type
            if t == "variable_assignment":
                parent = node.parent
                if parent is not None and parent.type == "command":
                    pass  # ``A=1 cmd``: only for that command
                else:
                    self._record_assignment(node)
            elif t == "for_statement":
                var = node.child_by_field_name("variable")
                if var is not None:
                    self._count(self.ntext(var), node)
            elif t == "command":
                name = node.child_by_field_name("name")
                if name is not None and self.ntext(name) in ("read", "mapfile", "readarray", "getopts", "unset", "printf"):
                    for arg in node.children_by_field_name("argument"):
                        txt = self.ntext(arg)
                        if txt.isidentifier():
                            self._count(txt, node)
            elif t == "declaration_command":
                for c in node.named_children:
                    if c.type == "variable_name":
                        pass  # ``export X``/``local X`` does not change X's value
            stack.extend(reversed(node.children))

    def _count(self, name: str, node: _ts.Node) -> None:
        self.assignments.setdefault(name, []).append(_Assignment(name, self.sbyte(node.start_byte)))

    def _record_assignment(self, node: _ts.Node) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        if name_node.type == "subscript":
            base = name_node.child_by_field_name("name")
            self._count(self.ntext(base) if base is not None else self.ntext(name_node), node)
            return
        name = self.ntext(name_node)
        a = _Assignment(name, self.sbyte(node.start_byte))
        appending = any(c.type == "+=" for c in node.children)
        value = node.child_by_field_name("value")
        if appending:
            self.assignments.setdefault(name, []).append(a)
            self.assignments[name].append(_Assignment(name, a.start))
            return
        if value is None:
            w = _Word(start=self.send(node.end_byte), end=self.send(node.end_byte))
            w.anchor = w.start
            a.scalar = w
        elif value.type == "array":
            elems: list[_Word] = []
            ok = True
            for c in value.named_children:
                if c.type == "comment":
                    continue
                ws = self.eval_word(c)
                for x in ws:
                    if x.opaque or x.splat:
                        ok = False
                elems.extend(ws)
            if ok:
                a.array = elems
        else:
            ws = self.eval_word(value, assignment=True)
            if len(ws) == 1 and not ws[0].opaque and not ws[0].splat:
                a.scalar = ws[0]
        self.assignments.setdefault(name, []).append(a)

    # -- pass 2: commands --------------------------------------------------

    def run(self) -> None:
        tree = _parser().parse(self.data)
        root = tree.root_node
        if self.depth == 0:  # the script's comments, for suppressions: found in this parse, not a second one
            self.out.comments = self.comments(root)
        deep = _deeper_than(root, _MAX_TREE_DEPTH)
        if deep is not None:
            at = self.sbyte(deep)
            self.out.problems.append(Problem(self.file_span(at, at), f"shell script nested too deeply to analyse (more than {_MAX_TREE_DEPTH} levels); its commands are not checked"))
            return
        self.report_errors(root)
        self.collect_assignments(root)
        self.walk(root)

    def comments(self, root: _ts.Node) -> list[Comment]:
        out = []
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type == "comment":
                span = self.file_span(self.sbyte(node.start_byte), self.send(node.end_byte))
                out.append(Comment(span.start, span.end, self.src.text[span.start : span.end].rstrip("\r")))
                continue
            stack.extend(node.children)
        return out

    def report_errors(self, root: _ts.Node) -> None:
        if not root.has_error:
            return
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_missing:
                at = self.sbyte(node.start_byte)
                span = self.file_span(at, at)
                what = node.type if node.type.strip() else "token"
                self.out.problems.append(Problem(span, f"shell parse error: missing {what!r}"))
                continue
            if node.type == "ERROR":
                s, e = self.sbyte(node.start_byte), self.send(node.end_byte)
                snippet = self.ntext(node).strip().splitlines()[0][:40] if self.ntext(node).strip() else ""
                self.out.problems.append(Problem(self.file_span(s, e), f"shell parse error: cannot parse {snippet!r}"))
                continue
            if node.has_error:
                stack.extend(reversed(node.children))

    def walk(self, root: _ts.Node) -> None:
        stack = [root]
        containers: list[_ts.Node] = []
        while stack:
            node = stack.pop()
            t = node.type
            if t == "ERROR":
                continue
            if t == "command":
                self.command(node)
            elif t == "declaration_command":
                self.declaration(node)
            elif t == "redirected_statement":
                self.heredocs(node)
            if t in ("program", "compound_statement", "do_group", "subshell", "if_statement", "else_clause", "elif_clause", "case_item"):
                containers.append(node)
            stack.extend(reversed(node.children))
        for node in containers:
            self.check_comment_breaks(node)

    def declaration(self, node: _ts.Node) -> None:
        first = node.children[0].type if node.children else ""
        flags = [self.ntext(c) for c in node.children if c.type == "word" and self.ntext(c).startswith("-")]
        exported = first == "export" or any("x" in f for f in flags)
        if not exported:
            return
        for c in node.named_children:
            if c.type == "variable_assignment":
                var = self.assignment_env(c)
                if var is not None:
                    self.exports.append((self.sbyte(c.start_byte), var))
            elif c.type == "variable_name":
                name = self.ntext(c)
                if not name.startswith(_ENV_PREFIXES):
                    continue
                a = self._resolve(name, self.sbyte(c.start_byte))
                val_tok = self.token(_copy_word(a.scalar)) if a is not None and a.scalar is not None else None
                self.exports.append((self.sbyte(c.start_byte), EnvVar(self.name_token(c), val_tok)))

    def name_token(self, node: _ts.Node) -> Token:
        w = _Word(start=self.sbyte(node.start_byte), end=self.send(node.end_byte))
        self.lit_range(w, self.p(node.start_byte), self.p(node.end_byte))
        return self.token(w)

    def words_of(self, node: _ts.Node) -> list[_Word]:
        """The words of a simple command (name and arguments), adjacent nodes joined."""
        parts: list[_ts.Node] = []
        for i, c in enumerate(node.children):
            f = node.field_name_for_child(i)
            if f in ("name", "argument"):
                parts.append(c)
        words: list[_Word] = []
        prev_end = -1
        pending_start = False
        for c in parts:
            if c.type == "command_name":
                inner = c.named_children
                c = inner[0] if len(inner) == 1 else c
            ws = self.eval_word(c)
            if words and c.start_byte == prev_end and len(ws) == 1 and not (c.type == "$"):
                last = words[-1]
                last.extend(ws[0])
                last.end = ws[0].end
            elif c.type == "$" and not ws[0].chars:
                # ``$"..."``: the ``$`` is dropped; the string joins what the ``$`` joined
                prev_end = c.end_byte if (words and c.start_byte == prev_end) else -1
                if prev_end == -1:
                    pending_start = True
                continue
            elif words and c.start_byte == prev_end and c.type == "$":
                words[-1].extend(ws[0])
                words[-1].end = ws[0].end
            else:
                if pending_start and len(ws) == 1:
                    ws[0].start = self.sbyte(c.start_byte) - 1  # the raw word includes the ``$``
                words.extend(ws)
            pending_start = False
            prev_end = c.end_byte
        return words

    def command(self, node: _ts.Node) -> None:
        if node.has_error:
            return  # reported as a parse error; its words are not known
        nxt = node.next_sibling
        if nxt is not None and nxt.type == "ERROR" and "\n" not in self.text[self.p(node.end_byte) : self.p(nxt.start_byte)]:
            return  # the command runs on into text that does not parse
        words = self.words_of(node)
        if not words:
            return
        tokens = [self.token(w) for w in words]
        self.pip_pins(tokens)
        m = commands.match_words(tokens)
        if m is not None:
            self.make_launch(node, m)
            return
        self.nested(node, words, tokens)

    def assignment_env(self, c: _ts.Node) -> EnvVar | None:
        """The ``VLLM_*``/``LMCACHE_*`` variable a ``NAME=value`` node sets, or None."""
        name_node = c.child_by_field_name("name")
        if name_node is None or not self.ntext(name_node).startswith(_ENV_PREFIXES):
            return None
        value = c.child_by_field_name("value")
        if value is not None:
            val = self.token(self.eval_word(value, assignment=True)[0])
        else:
            at = self.send(c.end_byte)
            val = self.token(_Word(start=at, end=at, anchor=at))
        return EnvVar(self.name_token(name_node), val)

    def prefix_env(self, node: _ts.Node) -> list[EnvVar]:
        env: list[EnvVar] = []
        for c in node.children:
            if c.type == "variable_assignment":
                var = self.assignment_env(c)
                if var is not None:
                    env.append(var)
        return env

    def make_launch(self, node: _ts.Node, m: commands.Match) -> None:
        s, e = self.sbyte(node.start_byte), self.send(node.end_byte)
        env: list[EnvVar] = []
        if m.image is None:
            env.extend(self.inherited_env)
            env.extend(v for at, v in self.exports if at < s)
            env.extend(self.prefix_env(node))
        env.extend(EnvVar(n, v) for n, v in m.env if n.value.startswith(_ENV_PREFIXES))
        env = _dedupe_env(env)
        launch = Launch(
            path=self.src.path,
            kind=self.kind,
            span=self.file_span(s, e),
            program=m.program,  # type: ignore[arg-type]
            entrypoint=m.entrypoint,
            entry=list(m.entry),
            args=list(m.args),
            env=env,
            image=m.image,
            group=self.group,
            editable=self.editable,
            shell_words=True,
        )
        if m.image is not None:
            launch.version_hint = self.image_hint(m.image)
        self.out.launches.append(launch)
        self.launch_nodes[node.id] = launch

    def image_hint(self, image: Token) -> VersionHint | None:
        ref = commands.parse_image(image.value)
        if ref.tag is None or ref.tag_offset is None:
            return None
        a, b = ref.tag_offset, ref.tag_offset + len(ref.tag)
        if image.opaque_in(a, b):
            return None
        span, ok = self.sub_span(image, a, b)
        return VersionHint(ref.tag, span, "image-tag", ok)

    def sub_span(self, tok: Token, a: int, b: int) -> tuple[Span, bool]:
        """The file span of ``tok.value[a:b]`` and whether it stands there verbatim."""
        fpos = self.fpos.get(id(tok))
        if fpos is not None and b > a and self.editable:
            seg = fpos[a:b]
            f0 = seg[0]
            if f0 is not None and all(f == f0 + k for k, f in enumerate(seg)) and self.src.text[f0 : f0 + (b - a)] == tok.value[a:b]:
                return Span(f0, f0 + (b - a)), True
        if tok.value_start is not None:
            return Span(tok.value_start + a, tok.value_start + b), True
        return tok.span, False

    def pip_pins(self, tokens: list[Token]) -> None:
        for tok, version, a, b in pip_pins_in_words(tokens):
            span, ok = self.sub_span(tok, a, b)
            self.out.pins.append(VersionHint(version, span, "pip-pin", ok))

    # -- nested scripts ----------------------------------------------------

    def sub_map(self, w: _Word) -> OffsetMap:
        m = OffsetMap(fallback=self.offsets.nearest(w.start))
        for i, p in enumerate(w.pos):
            if p is None:
                continue
            f = self.offsets.to_file(p)
            if f is not None:
                m.add(i, f, 1)
        return m

    def nested(self, node: _ts.Node, words: list[_Word], tokens: list[Token]) -> None:
        if self.depth >= _MAX_DEPTH:
            return
        script_word = _nested_script_word(words, tokens)
        if script_word is None:
            return
        if isinstance(script_word, _Word):
            self.sub_script(script_word.value, self.sub_map(script_word), node)
        else:
            # several words joined by single spaces (ssh, eval)
            joined = _Word()
            for k, w in enumerate(script_word):
                if k:
                    joined.put(" ", None)
                joined.extend(w)
            self.sub_script(joined.value, self.sub_map(joined), node)

    def sub_script(self, script: str, omap: OffsetMap, node: _ts.Node) -> None:
        at = self.sbyte(node.start_byte)
        env = list(self.inherited_env) + [v for a, v in self.exports if a < at]
        inner = _Script(
            self.src, script, omap, kind=self.kind, group=self.group, editable=self.editable,
            depth=self.depth + 1, inherited_env=env, out=self.out, fpos=self.fpos, budget=self.budget,
        )
        inner.run()
        self._keep.extend(inner._keep)

    def heredocs(self, node: _ts.Node) -> None:
        body_cmd = node.child_by_field_name("body")
        for i, c in enumerate(node.children):
            if c.type != "heredoc_redirect":
                continue
            body = None
            dashed = False
            feeds = False
            for h in c.children:
                if h.type == "heredoc_body":
                    body = h
                elif h.type == "<<-":
                    dashed = True
                elif h.type == "pipeline":
                    for pc in h.named_children:
                        if pc.type == "command" and self._is_shell_sink(self.words_of(pc)):
                            feeds = True
                elif h.type == "file_redirect":
                    dest = h.child_by_field_name("destination")
                    if dest is not None and self.ntext(dest).endswith(_SCRIPT_SUFFIXES):
                        feeds = True
            if body is None or body_cmd is None:
                continue
            words = self.words_of(body_cmd) if body_cmd.type == "command" else []
            if words:
                if self._is_shell_sink(words):
                    feeds = True
                head = posixpath.basename(words[0].value)
                if head in ("cat", "tee") and any(w.value.endswith(_SCRIPT_SUFFIXES) for w in words[1:]):
                    feeds = True
            for r in node.children:
                if r.type == "file_redirect":
                    dest = r.child_by_field_name("destination")
                    if dest is not None and self.ntext(dest).endswith(_SCRIPT_SUFFIXES):
                        feeds = True
            parent = node.parent
            if parent is not None and parent.type == "pipeline":
                after = False
                for pc in parent.named_children:
                    if pc.id == node.id:
                        after = True
                        continue
                    if after and pc.type == "command" and self._is_shell_sink(self.words_of(pc)):
                        feeds = True
            if not feeds or self.depth >= _MAX_DEPTH:
                continue
            ps, pe = self.p(body.start_byte), self.p(body.end_byte)
            # The body starts at the beginning of its line (the grammar skips <<- tabs).
            while ps > 0 and self.text[ps - 1] == "\t":
                ps -= 1
            w = _Word()
            at_line_start = True
            for k in range(ps, pe):
                ch = self.text[k]
                if dashed and at_line_start and ch == "\t":
                    continue
                at_line_start = ch == "\n"
                w.put(ch, self.s(k))
            self.sub_script(w.value, self.sub_map(w), node)

    @staticmethod
    def _is_shell_sink(words: list[_Word]) -> bool:
        """The command reads a script on stdin (``bash``, ``sudo sh -s``, ``ssh host``)."""
        vals = [w.value for w in words]
        for k, v in enumerate(vals):
            b = posixpath.basename(v)
            if b in SHELLS:
                rest = vals[k + 1 :]
                if any(r.startswith("-") and not r.startswith("--") and "c" in r for r in rest):
                    return False
                if any(not r.startswith(("-", "+")) for r in rest):
                    return False  # a script file argument
                return True
        if vals and posixpath.basename(vals[0]) == "ssh":
            return _ssh_command(vals) == []
        return False

    # -- continued commands broken by a comment ----------------------------

    def check_comment_breaks(self, node: _ts.Node) -> None:
        kids = node.named_children
        for k in range(2, len(kids)):
            cmt, nxt, prev = kids[k - 1], kids[k], kids[k - 2]
            if cmt.type != "comment":
                continue
            first = _first_command(nxt)
            if first is None:
                continue
            name = first.child_by_field_name("name")
            if name is None or not self.ntext(name).startswith("-"):
                continue
            prev_cmd = _first_command(prev)
            launch = self.launch_nodes.get(prev_cmd.id) if prev_cmd is not None else None
            gap = self.text[self.p(prev.end_byte) : self.p(cmt.start_byte)]
            if launch is None and not gap.rstrip(" \t\n").endswith("\\"):
                continue
            if "\\" not in gap:
                continue
            msg = (
                "a comment line inside a backslash-continued command ends the command; "
                f"{self.ntext(name)!r} and what follows run as a separate command"
            )
            s, e = self.sbyte(nxt.start_byte), self.send(nxt.end_byte)
            self.out.problems.append(Problem(self.file_span(s, e), msg))
            if launch is not None:
                launch.notes.append(msg)


# ---------------------------------------------------------------------------
# Helpers


def _first_command(node: _ts.Node) -> _ts.Node | None:
    while node is not None:
        if node.type == "command":
            return node
        if node.type in ("redirected_statement", "pipeline", "list"):
            node = node.named_children[0] if node.named_children else None
            continue
        return None
    return None


def _expansion_shape(node: _ts.Node, ctx: _Script) -> tuple[str | None, str | None, bool, bool]:
    """``(name, subscript, plain, is_length)`` of ``$X``/``${X}``/``${X[@]}``; plain means no operator."""
    if node.type == "simple_expansion":
        for c in node.named_children:
            if c.type in ("variable_name", "special_variable_name"):
                return ctx.ntext(c), None, True, False
        return None, None, False, False
    name: str | None = None
    subscript: str | None = None
    plain = True
    is_length = False
    for c in node.children:
        if c.type in ("${", "}"):
            continue
        if c.type in ("variable_name", "special_variable_name") and name is None:
            name = ctx.ntext(c)
        elif c.type == "subscript":
            base = c.child_by_field_name("name")
            idx = c.child_by_field_name("index")
            name = ctx.ntext(base) if base is not None else None
            subscript = ctx.ntext(idx) if idx is not None else None
            if subscript not in ("@", "*"):
                plain = False
        elif c.type == "#" and name is None:
            is_length = True
            plain = False
        else:
            plain = False
    return name, subscript, plain, is_length


def _copy_word(w: _Word) -> _Word:
    return _Word(list(w.chars), list(w.pos), list(w.opaque), w.splat, w.start, w.end, w.anchor)


def _plain_static(w: _Word) -> bool:
    return not w.opaque and not w.splat and not any(c in " \t\n" or c in _GLOB_CHARS for c in w.chars)


def _split_fields(w: _Word) -> list[_Word] | None:
    """Default-IFS word splitting of a static value; None when globbing could apply."""
    if any(c in _GLOB_CHARS for c in w.chars):
        return None
    fields: list[_Word] = []
    cur: _Word | None = None
    for ch, p in zip(w.chars, w.pos):
        if ch in " \t\n":
            if cur is not None:
                fields.append(cur)
                cur = None
            continue
        if cur is None:
            cur = _Word(start=p if p is not None else w.start, end=w.end)
        cur.put(ch, p)
        if p is not None:
            cur.end = p + 1
    if cur is not None:
        fields.append(cur)
    if len(fields) == 1 and len(fields[0].chars) == len(w.chars):
        fields[0].start, fields[0].end = w.start, w.end
    return fields


def _dedupe_env(env: list[EnvVar]) -> list[EnvVar]:
    last: dict[str, int] = {}
    for k, v in enumerate(env):
        last[v.name.value] = k
    return [v for k, v in enumerate(env) if last[v.name.value] == k]


def _ssh_command(vals: list[str]) -> list[int] | None:
    """Indices of the remote command words of an ``ssh`` command ([] when none)."""
    k = 1
    while k < len(vals):
        v = vals[k]
        if v == "--":
            k += 1
            break
        if v.startswith("-") and len(v) > 1:
            k += 2 if v in _SSH_VALUE_OPTS else 1
            continue
        break
    if k >= len(vals):
        return None if k > len(vals) else []
    return list(range(k + 1, len(vals)))


def _nested_script_word(words: list[_Word], tokens: list[Token]) -> _Word | list[_Word] | None:
    """The word (or words) of a command that the command runs as a shell script."""
    vals = [t.value for t in tokens]
    for k, v in enumerate(vals):
        b = posixpath.basename(v)
        if b in SHELLS:
            j = k + 1
            has_c = False
            while j < len(vals):
                o = vals[j]
                if o in _SHELL_VALUE_OPTS:
                    j += 2
                    continue
                if o.startswith(("-", "+")) and len(o) > 1 and not o.startswith("--"):
                    has_c = has_c or "c" in o[1:]
                    j += 1
                    continue
                if o.startswith("--") and len(o) > 2:
                    j += 1
                    continue
                break
            if has_c and j < len(vals):
                return words[j]
            if b != "busybox":
                return None
        if b == "su":
            for j in range(k + 1, len(vals)):
                o = vals[j]
                if o in ("-c", "--command") and j + 1 < len(vals):
                    return words[j + 1]
                if o.startswith("--command="):
                    w = _Word(start=words[j].start, end=words[j].end)
                    cut = len("--command=")
                    w.chars, w.pos = words[j].chars[cut:], words[j].pos[cut:]
                    w.opaque = [(max(0, a - cut), b2 - cut) for a, b2 in words[j].opaque if b2 > cut]
                    w.splat = words[j].splat
                    return w
            return None
        if b == "ssh":
            idx = _ssh_command(vals[k:])
            if not idx:
                return None
            ws = [words[k + i] for i in idx]
            return ws[0] if len(ws) == 1 else ws
        if b == "eval" and k == 0:
            ws = words[1:]
            if not ws:
                return None
            return ws[0] if len(ws) == 1 else ws
    return None


def pip_pins_in_words(tokens: list[Token]) -> list[tuple[Token, str, int, int]]:
    """``(token, version, start, end)`` for each ``vllm==X`` of a ``pip install``-like command.

    ``start``/``end`` index the version inside ``token.value``.
    """
    from packaging.requirements import InvalidRequirement, Requirement

    vals = [t.value for t in tokens]
    start = None
    for k, v in enumerate(vals):
        b = posixpath.basename(v)
        is_pip = b == "pip" or (b.startswith("pip3") and b[4:].replace(".", "").isdigit()) or b == "pip3"
        if is_pip or (b == "uv" and k + 1 < len(vals) and vals[k + 1] in ("pip", "add")):
            for j in range(k + 1, len(vals)):
                if vals[j] in ("install", "add"):
                    start = j + 1
                    break
            if start is not None:
                break
    if start is None:
        return []
    out: list[tuple[Token, str, int, int]] = []
    for tok in tokens[start:]:
        v = tok.value
        if not v.lower().startswith("vllm") or "==" not in v:
            continue
        try:
            req = Requirement(v)
        except InvalidRequirement:
            continue
        if req.name.lower() != "vllm":
            continue
        specs = list(req.specifier)
        if len(specs) != 1 or specs[0].operator not in ("==", "==="):
            continue
        version = specs[0].version
        at = v.find(version, v.find("=="))
        if at < 0 or tok.opaque_in(at, at + len(version)):
            continue
        out.append((tok, version, at, at + len(version)))
    return out


def _attach_pins(ex: Extraction, first_launch: int = 0) -> None:
    """Give launches that run outside an image the nearest pip pin (preceding first)."""
    pins = sorted((p for p in ex.pins if p.origin == "pip-pin"), key=lambda p: p.span.start)
    if not pins:
        return
    for launch in ex.launches[first_launch:]:
        if launch.version_hint is not None or launch.image is not None:
            continue
        before = [p for p in pins if p.span.start <= launch.span.start]
        launch.version_hint = before[-1] if before else pins[0]


# ---------------------------------------------------------------------------
# Public API


def extract_script(
    src: SourceFile,
    script: str,
    offsets: OffsetMap,
    *,
    kind: str = "shell",
    group: str = "",
    editable: bool = True,
) -> Extraction:
    """Launches, pins and parse problems of a shell script embedded in ``src``.

    ``offsets`` maps offsets in ``script`` to offsets in ``src.text``
    (``OffsetMap.identity(0, len(src.text))`` for a whole file).  Never raises.
    """
    out = Extraction()
    try:
        ctx = _Script(src, script, offsets, kind=kind, group=group or src.path, editable=editable,
                      depth=0, out=out, fpos={})
        ctx.run()
    except _TooComplex:
        at = offsets.nearest(0)
        out.problems.append(Problem(Span(at, at), "shell script too large or too deeply nested to analyse (over its work budget); not every command in it was checked"))
    except Exception as exc:  # noqa: BLE001 - a linter must never crash on input
        at = offsets.nearest(0)
        out.problems.append(Problem(Span(at, at), f"shell extraction failed: {type(exc).__name__}: {exc}"))
    _attach_pins(out)
    if not editable:
        for launch in out.launches:
            launch.editable = False
    return out


def extract(src: SourceFile) -> Extraction:
    """A whole shell script file."""
    return extract_script(src, src.text, OffsetMap.identity(0, len(src.text)), kind="shell", group=src.path)
