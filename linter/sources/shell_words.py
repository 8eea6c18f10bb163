"""Shell words: what each word of a script evaluates to, and where its characters stand.

The lower layer of the shell reader (:mod:`linter.sources.shell` walks the commands).
A :class:`WordEvaluator` holds one script's parse text and turns a tree-sitter-bash
word node into :class:`~linter.sources.placed.PlacedText` after shell quote removal:
literal characters keep their script offsets (as runs, never one entry per
character), expansions that cannot be resolved statically stay as written and
are marked unknown, and an unquoted expansion may split into several words.

Positions: tree-sitter reads the script as UTF-8 bytes with the ``\\r`` of each
``\\r\\n`` removed (bash would keep it, but a CRLF script is meant as a script).
Three offset spaces meet here: bytes (tree-sitter), parse text (the script
without those ``\\r``) and script offsets (what a word's runs hold).  Both
conversions are sparse (the multibyte characters, the dropped ``\\r``), so a
4 MB script costs no per-character table.

Variables: :meth:`WordEvaluator.collect_assignments` reads every assignment
before the commands are walked; a ``$VAR`` use resolves to the value that can
reach it (see :meth:`WordEvaluator._resolve`).
"""

from __future__ import annotations

import bisect
import re

import tree_sitter as _ts

from linter.lazy_re import lazy_re
from linter.records import Record
from linter.sources.placed import PlacedText

__all__ = ["Word", "Assignment", "TooComplex", "WordEvaluator", "split_fields", "plain_static"]

Word = PlacedText

_GLOB_CHARS = frozenset("*?[")
_GLOB_OR_ESCAPE = lazy_re(r"[\\*?\[]")
_ESCAPE = lazy_re(r"\\")
_DQ_ESCAPE = lazy_re(r'\\[$`"\\\n]')
_FIELD = lazy_re(r"[^ \t\n]+")
_NON_ASCII = lazy_re(r"[^\x00-\x7f]+")
_TEMPLATE = lazy_re(r"\{\{[^\n]*?\}\}|\{%[^\n]*?%\}")
# Work budget: characters of word values placed in the file, per character of
# the script.  Each nested ``$( )`` re-reads the text inside it, so a hostile
# script (thousands of nested substitutions) would cost quadratic time and
# memory; past the budget the script is reported as too complex instead.
WORK_PER_CHAR = 8
WORK_PER_TOKEN = 16  # a token costs far more than one character (objects, runs)
WORK_MIN = 200_000


class TooComplex(Exception):
    """The script needs more work than its budget (deeply nested substitutions, huge commands)."""


class Assignment(Record):
    __slots__ = ("name", "start", "scalar", "array", "branches", "union", "appended")

    name: str
    start: int  # script offset of the assignment
    scalar: Word | None
    array: list[Word] | None
    # script ranges of the branches, loops and ``&&``/``||`` sides the assignment stands in
    branches: list[tuple[int, int]]
    union: list[Word] | None  # values from several branches (see ``_resolve``)
    # ``A+=(...)``: the elements it appends (``array`` is then the whole array after it)
    appended: list[Word] | None

    def __init__(self, name, start, scalar=None, array=None, branches=None, union=None, appended=None):
        self.name = name
        self.start = start
        self.scalar = scalar
        self.array = array
        self.branches = ([] if branches is None else branches)
        self.union = union
        self.appended = appended


_BRANCHES = frozenset({
    "if_statement", "elif_clause", "else_clause", "case_item", "while_statement", "until_statement",
    "for_statement", "c_style_for_statement", "function_definition", "subshell",
})


class WordEvaluator:
    """One script's parse text, its offset conversions, its variables and its words."""

    def __init__(self, script: str, budget: list[int] | None) -> None:
        self.script = script
        # shared with nested scripts (``sh -c``, heredocs): one budget per extraction
        self.budget = budget if budget is not None else [max(WORK_MIN, WORK_PER_CHAR * len(script))]
        # parse offsets of the ``\n`` whose ``\r`` was dropped (sorted)
        self.drops: list[int] = []
        if "\r\n" in script:
            pieces = script.split("\r\n")
            k = 0
            for piece in pieces[:-1]:
                k += len(piece)
                self.drops.append(k)
                k += 1
            self.text = "\n".join(pieces)
        else:
            self.text = script
        # Template actions (``{{ .Values.port }}``, ``{% if x %}``) left in a script by a
        # generator: tree-sitter reads each as one plain word (same length, so every
        # offset holds), and the words holding one are unknown there.
        self.templates: list[tuple[int, int]] = []  # script offsets
        parse_text = self.text
        if "{{" in self.text or "{%" in self.text:
            pieces: list[str] = []
            prev = 0
            for m in _TEMPLATE.finditer(self.text):
                if not m.group().isascii():
                    continue
                pieces.append(self.text[prev : m.start()])
                pieces.append("x" * (m.end() - m.start()))
                prev = m.end()
                self.templates.append((self.s(m.start()), self.s(m.end() - 1) + 1))
            pieces.append(self.text[prev:])
            parse_text = "".join(pieces)
        self.data = parse_text.encode("utf-8", "surrogatepass")
        # byte offsets where a multibyte character starts, and the extra bytes before each
        self.mb_at: list[int] = []
        self.mb_extra: list[int] = [0]
        if len(self.data) != len(self.text):  # visit the runs of non-ASCII characters only
            extra = 0
            for m in _NON_ASCII.finditer(self.text):
                b = m.start() + extra
                for ch in m.group():
                    n = len(ch.encode("utf-8", "surrogatepass"))
                    self.mb_at.append(b)
                    extra += n - 1
                    self.mb_extra.append(extra)
                    b += n
        # parse offsets of the multibyte characters
        self.mb_p = [b - self.mb_extra[i] for i, b in enumerate(self.mb_at)]
        self.assignments: dict[str, list[Assignment]] = {}
        # the arguments of the function call being read (``$1``, ``"$@"``; ``shift`` drops the
        # first), or None: a script's own arguments are unknown
        self.positional: list[Word] | None = None
        # functions whose body starts vLLM with the call's arguments: name -> body node
        self.functions: dict[str, _ts.Node] = {}

    # -- positions ---------------------------------------------------------

    def p(self, byte: int) -> int:
        """Parse-text offset of a byte offset (a character boundary)."""
        if not self.mb_at:
            return byte
        return byte - self.mb_extra[bisect.bisect_left(self.mb_at, byte)]

    def s(self, pidx: int) -> int:
        """Script offset of a parse-text offset."""
        if not self.drops:
            return pidx
        return pidx + bisect.bisect_right(self.drops, pidx)

    def byte(self, pidx: int) -> int:
        """Byte offset of a parse-text offset (the inverse of :meth:`p`)."""
        if not self.mb_at:
            return pidx
        k = bisect.bisect_left(self.mb_p, pidx)
        return pidx + self.mb_extra[k]

    def sbyte(self, byte: int) -> int:
        return self.s(self.p(byte))

    def send(self, byte: int) -> int:
        """Script offset just after the character that ends at ``byte`` (skips a dropped \\r)."""
        k = self.p(byte)
        return self.s(k - 1) + 1 if k > 0 else 0

    def ntext(self, node: _ts.Node) -> str:
        return self.text[self.p(node.start_byte) : self.p(node.end_byte)]

    def lit_range(self, w: Word, pstart: int, pend: int) -> None:
        """Append parse text ``[pstart, pend)`` verbatim (one run per stretch between dropped \\r)."""
        if pend <= pstart:
            return
        cur = pstart
        if self.drops:
            i = bisect.bisect_right(self.drops, pstart)
            while i < len(self.drops) and self.drops[i] < pend:
                d = self.drops[i]
                w.lit(self.text[cur:d], self.s(cur))
                cur = d
                i += 1
        w.lit(self.text[cur:pend], self.s(cur))

    def spend(self, work: int) -> None:
        self.budget[0] -= work
        if self.budget[0] < 0:
            raise TooComplex

    # -- word evaluation ---------------------------------------------------

    def eval_word(self, node: _ts.Node, *, quoted: bool = False, assignment: bool = False) -> list[Word]:
        """The word(s) a node expands to (more than one only for a resolved array or split variable)."""
        w = Word(start=self.sbyte(node.start_byte), end=self.send(node.end_byte))
        multi = self._eval_into(w, node, quoted=quoted, whole=True, assignment=assignment)
        self.spend(len(w) + WORK_PER_TOKEN)
        out = multi if multi is not None else [w]
        if self.templates:
            for x in out:
                self.mark_templates(x)
        return out

    def mark_templates(self, w: Word) -> None:
        """Mark the characters of ``w`` that stand in a template action as unknown."""
        lo = w.start
        k = bisect.bisect_right(self.templates, (lo, 1 << 62)) - 1
        for a, b in self.templates[max(0, k) :]:
            if a >= w.end:
                break
            for vs, f, n in w.omap.segments:
                x, y = max(a, f), min(b, f + n)
                if x < y:
                    w.opaque.append((vs + x - f, vs + y - f))

    def _eval_into(self, w: Word, node: _ts.Node, *, quoted: bool, whole: bool, assignment: bool = False) -> list[Word] | None:
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
            return self._double_quoted(w, node, whole=whole, assignment=assignment)
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

    def _unquoted_text(self, w: Word, ps: int, pe: int, *, glob: bool) -> None:
        text = self.text
        first = len(w)
        special = _GLOB_OR_ESCAPE if glob else _ESCAPE
        run = ps
        while True:
            m = special.search(text, run, pe)
            if m is None:
                break
            j = m.start()
            self.lit_range(w, run, j)
            if text[j] != "\\":
                w.unknown(text[j], self.s(j))  # a glob character: the match is not known
                run = j + 1
            elif j + 1 < pe:
                if text[j + 1] != "\n":  # a backslash-newline is removed
                    w.lit(text[j + 1], self.s(j + 1))
                run = j + 2
            else:
                self.lit_range(w, j, j + 1)
                run = j + 1
        self.lit_range(w, run, pe)
        if glob and first == 0 and pe > ps and text[ps] == "~":
            value = w.value
            slash = value.find("/", 1)
            w.opaque.append((0, len(value) if slash == -1 else slash))

    def _ansi_c(self, w: Word, ps: int, pe: int) -> None:
        simple = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
                  "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?"}
        text = self.text
        k = ps
        while k < pe:
            ch = text[k]
            if ch != "\\" or k + 1 >= pe:
                j = text.find("\\", k + 1, pe)
                j = pe if j == -1 else j
                self.lit_range(w, k, j)
                k = j
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
            self.lit_range(w, k, k + 2)
            k += 2

    def _double_quoted(self, w: Word, node: _ts.Node, *, whole: bool = False, assignment: bool = False) -> list[Word] | None:
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
                return self._expansion(w, c, quoted=True, whole=True, assignment=assignment)
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

    def _dq_text(self, w: Word, ps: int, pe: int) -> None:
        text = self.text
        run = ps
        while True:
            m = _DQ_ESCAPE.search(text, run, pe)
            if m is None or m.end() > pe:
                break
            j = m.start()
            self.lit_range(w, run, j)
            if text[j + 1] != "\n":
                w.lit(text[j + 1], self.s(j + 1))
            run = j + 2
        self.lit_range(w, run, pe)

    def _expansion(self, w: Word, node: _ts.Node, *, quoted: bool, whole: bool, assignment: bool) -> list[Word] | None:
        ps, pe = self.p(node.start_byte), self.p(node.end_byte)
        raw = self.text[ps:pe]
        name, subscript, plain, is_length = expansion_shape(node, self)
        splat = False
        if name in ("@", "*"):
            splat = name == "@" or not quoted
        elif subscript in ("@", "*") and not is_length:
            splat = subscript == "@" or not quoted
        elif not quoted and not assignment:
            splat = True  # word splitting of an unquoted expansion
        default = _operand(node, (":-", "-", ":=", "="))
        if default is not None and assignment and name and self._resolve(name, self.s(ps)) is None:
            # ``IMG=${IMG:-vllm/vllm-openai:v0.30.0}``: the script's own value, unless the
            # environment gives another one
            d = Word(start=w.start, end=w.end)
            self._eval_into(d, default, quoted=True, whole=False)
            if _has_literal(d) and self.p(default.end_byte) == pe - 1:
                w.extend(d)
                return None
        alternate = _operand(node, (":+", "+"))
        if alternate is not None and whole and not quoted and not assignment:
            # ``${V:+--max-model-len "$V"}``: the words of the alternate, present only when V is set
            words = self.alternate_words(alternate, self.p(node.end_byte) - 1)
            for x in words:
                x.conditional = True
            return words
        pos = self.positional
        if pos is not None and plain and subscript is None and name is not None and (name == "@" or (name.isdigit() and name != "0")):
            # the arguments of the function call being read: ``"$@"`` each of them, ``$1`` one
            if name == "@":
                if whole and (quoted or all(plain_static(x) for x in pos)):
                    return [copy_word(x) for x in pos]
            elif int(name) <= len(pos):
                val = pos[int(name) - 1]
                if quoted or assignment or plain_static(val):
                    if whole:
                        return [copy_word(val)]
                    w.extend(val)
                    return None
        # Simple local resolution.
        if plain and name:
            a = self._resolve(name, self.s(ps))
            if a is not None:
                if subscript in ("@", "*") and a.array is not None and whole and (quoted or all(plain_static(x) for x in a.array)):
                    if subscript == "@" or not quoted:
                        return [copy_word(x) for x in a.array]
                if subscript is None and a.union is not None:
                    single = [m.value for m in a.union if plain_static(m)]
                    if whole and not assignment and len(single) == len(a.union) and (quoted or not any(v.startswith("-") for v in single)):
                        # ``IMG`` set per branch to one word each, used as one word: one of those
                        # values (unknown which), never their words side by side
                        w.unknown(raw, self.s(ps))
                        w.alternatives = tuple(dict.fromkeys(single))
                        return None
                    if not quoted and not assignment and whole:
                        words: list[Word] = []
                        for member in a.union:
                            fields = split_fields(member)
                            if fields is None:
                                break
                            words.extend(fields)
                        else:
                            for x in words:
                                x.conditional = True
                            return words
                if subscript is None and a.scalar is not None:
                    val = a.scalar
                    if quoted or assignment:
                        if whole:
                            return [copy_word(val)]
                        w.extend(val)
                        return None
                    fields = split_fields(val)
                    if fields is not None:
                        if whole:
                            return fields
                        if len(fields) == 1:
                            w.extend(fields[0])
                            return None
        w.unknown(raw, self.s(ps), splat=splat)
        return None

    def alternate_words(self, first: _ts.Node, pend: int) -> list[Word]:
        """The words of an unquoted ``${V:+WORDS}`` operand (parse text up to ``pend``), split as bash splits them."""
        ps = self.p(first.start_byte)
        nodes = [first]
        sib = first.next_sibling
        while sib is not None and self.p(sib.start_byte) < pend:
            nodes.append(sib)
            sib = sib.next_sibling
        parts: list[_ts.Node] = []
        for n in nodes:
            parts.extend(n.children if n.type == "concatenation" else [n])
        words: list[Word] = []
        cur: Word | None = None
        prev = ps

        def gap(a: int, b: int) -> None:
            nonlocal cur
            for m in re.finditer(r"[^ \t\n]+|[ \t\n]+", self.text[a:b]):
                if m.group()[0] in " \t\n":
                    if cur is not None:
                        words.append(cur)
                    cur = None
                    continue
                if cur is None:
                    cur = Word(start=self.s(a + m.start()), end=self.s(a + m.end() - 1) + 1)
                self._unquoted_text(cur, a + m.start(), a + m.end(), glob=True)
                cur.end = self.s(a + m.end() - 1) + 1

        for c in parts:
            cs, ce = self.p(c.start_byte), self.p(c.end_byte)
            if cs > prev:
                gap(prev, cs)
            if c.type in ("word", "number"):
                gap(cs, ce)
            else:
                if cur is None:
                    cur = Word(start=self.s(cs), end=self.s(ce - 1) + 1 if ce > cs else self.s(cs))
                self._eval_into(cur, c, quoted=False, whole=False)
                cur.end = self.s(ce - 1) + 1 if ce > cs else cur.end
            prev = max(prev, ce)
        if pend > prev:
            gap(prev, pend)
        if cur is not None:
            words.append(cur)
        return words

    def _resolve(self, name: str, use_at: int) -> Assignment | None:
        """The value of ``name`` that reaches ``use_at``.

        The last assignment before the use wins when it runs whenever the use runs; an
        assignment inside a branch the use is not in (``if``, ``case``, a loop, the right
        side of ``&&``/``||``) may or may not have run, so the earlier ones reach the use
        too: their values are a union (``Assignment.union``), each word of it conditional.
        An array appended to in such a branch (``if [[ -n $LORA ]]; then ARGS+=(--enable-lora);
        fi``) is the array before it with the appended elements conditional, as the Python
        reader counts each ``cmd.append`` once.  An unknown member (``read X``, ``for X in``)
        makes the value unknown.
        """
        lst = self.assignments.get(name)
        outer = getattr(self, "outer_assignments", None)
        if outer is not None and name in outer:
            lst = outer[name]  # a line read again after a parse error: the script's variables
            use_at = 1 << 62
        if not lst:
            return None
        reaching: list[Assignment] = []
        settled = False
        for a in reversed(lst):
            if a.start >= use_at:
                continue
            reaching.append(a)
            if not any(not (s <= use_at < e) for s, e in a.branches):
                settled = True
                break
        if not reaching or any(a.scalar is None and a.array is None for a in reaching):
            return None
        if len(reaching) == 1 and settled:
            return reaching[0]
        if settled and reaching[-1].array is not None and all(a.appended is not None for a in reaching[:-1]):
            words = [copy_word(x) for x in reaching[-1].array]
            for a in reversed(reaching[:-1]):  # the oldest append first
                for x in a.appended:  # type: ignore[union-attr]
                    y = copy_word(x)
                    y.conditional = True
                    words.append(y)
            return Assignment(name, reaching[0].start, array=words)
        if any(a.scalar is None for a in reaching):
            return None
        values = {a.scalar.value for a in reaching if a.scalar is not None}
        if len(values) == 1:
            return reaching[0]  # every branch sets the same value
        return Assignment(name, reaching[0].start, union=[a.scalar for a in reversed(reaching) if a.scalar is not None])

    def _branches(self, node: _ts.Node) -> list[tuple[int, int]]:
        """Script ranges of the constructs that may skip ``node`` (branches, loops, ``&&``/``||``)."""
        out: list[tuple[int, int]] = []
        child = node
        parent = node.parent
        while parent is not None:
            t = parent.type
            if t in _BRANCHES or (t == "list" and parent.named_children and parent.named_children[0].id != child.id):
                out.append((self.sbyte(parent.start_byte), self.send(parent.end_byte)))
            child, parent = parent, parent.parent
        return out

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
            elif t == "function_definition":
                self._function(node)
            elif t == "command":
                if self.shifted(node):
                    continue
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

    def _function(self, node: _ts.Node) -> None:
        """Keep a function whose body starts vLLM (or an LMCache server) with its arguments
        (``vllm serve "$model" "$@"``, after ``local model=$1; shift``): its calls are read through it."""
        name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
        if name is None or body is None:
            return
        text = self.text[self.p(body.start_byte) : self.p(body.end_byte)]
        if _POSITIONAL.search(text) and LAUNCH_TEXT.search(text):
            self.functions[self.ntext(name)] = body

    def shifted(self, node: _ts.Node) -> bool:
        """``node`` is ``shift [N]`` while a call's arguments are read: the first N (1) are dropped."""
        if self.positional is None:
            return False
        name = node.child_by_field_name("name")
        if name is None or self.ntext(name) != "shift":
            return False
        args = node.children_by_field_name("argument")
        count = self.ntext(args[0]) if len(args) == 1 else "1" if not args else ""
        if count.isdigit():
            del self.positional[: int(count)]
        else:
            at = self.sbyte(node.start_byte)
            rest = Word(start=at, end=at)  # unknown how many
            rest.unknown("$@", None, splat=True)
            self.positional = [rest]
        return True

    def _count(self, name: str, node: _ts.Node) -> None:
        """``name`` gets a value the script does not show (``read``, ``for``, ``a[i]=``)."""
        self.assignments.setdefault(name, []).append(Assignment(name, self.sbyte(node.start_byte), branches=self._branches(node)))

    def _record_assignment(self, node: _ts.Node) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        if name_node.type == "subscript":
            base = name_node.child_by_field_name("name")
            self._count(self.ntext(base) if base is not None else self.ntext(name_node), node)
            return
        name = self.ntext(name_node)
        a = Assignment(name, self.sbyte(node.start_byte), branches=self._branches(node))
        appending = any(c.type == "+=" for c in node.children)
        value = node.child_by_field_name("value")
        if value is None:
            w = Word(start=self.send(node.end_byte), end=self.send(node.end_byte))
            w.anchor = w.start
            a.scalar = w
        elif value.type == "array":
            elems: list[Word] = []
            for c in value.named_children:
                if c.type != "comment":
                    elems.extend(self.eval_word(c))  # unknown elements stay unknown words
            if appending:
                # ``A+=(...)``: the array that reaches here, then the new elements (an array
                # never assigned before is empty: bash exports no arrays); unknown when the
                # array before is
                before = self.assignments.get(name)
                prev = self._resolve(name, a.start) if before and any(b.start < a.start for b in before) else Assignment(name, a.start, array=[])
                if prev is not None and prev.array is not None:
                    a.array = [copy_word(x) for x in prev.array] + elems
                    a.appended = elems
            else:
                a.array = elems
        else:
            ws = self.eval_word(value, assignment=True)
            val = ws[0] if len(ws) == 1 else None
            if val is not None and appending:
                # ``OPTS+=" --x 1"``: the value that reaches here, then the new text
                prev = self._resolve(name, a.start)
                if prev is not None and prev.scalar is not None:
                    joined = prev.scalar.copy()
                else:
                    joined = Word(start=val.start, end=val.start)
                    joined.unknown("${" + name + "}", None, splat=True)
                joined.extend(val)
                val = joined
            if val is not None and _has_literal(val):
                a.scalar = val
            else:
                a.scalar = None
                a.array = None
        self.assignments.setdefault(name, []).append(a)


# ---------------------------------------------------------------------------
# Helpers


# a function body that uses its arguments (see :meth:`WordEvaluator._function`)
_POSITIONAL = lazy_re(r"\$(?:[@1-9]|\{[@1-9]\})")
# text that starts vLLM or an LMCache server, before any reading: a function body read through its calls, a
# heredoc body that is a script (:mod:`linter.sources.shell`)
LAUNCH_TEXT = lazy_re(r"\bvllm\s+serve\b|\bvllm\.entrypoints\.|\blmcache\s+server\b|\bvllm/vllm-|\bvllm-openai\b")


def expansion_shape(node: _ts.Node, ctx: WordEvaluator) -> tuple[str | None, str | None, bool, bool]:
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


def _operand(node: _ts.Node, operators: tuple[str, ...]) -> _ts.Node | None:
    """The first node of the operand after one of ``operators`` in ``${V<op>operand}``."""
    if node.type != "expansion":
        return None
    kids = node.children
    for k, c in enumerate(kids):
        if c.type in operators and k + 1 < len(kids) and kids[k + 1].type != "}":
            return kids[k + 1]
    return None


def copy_word(w: Word) -> Word:
    return w.copy()


def plain_static(w: Word) -> bool:
    """A known value that stays one word unquoted (no blank, no glob character)."""
    return not w.opaque and not w.splat and not any(c in " \t\n" or c in _GLOB_CHARS for c in w.value)


def _has_literal(w: Word) -> bool:
    """Some character of the value outside its unknown parts is not blank."""
    value = w.value
    k = 0
    for a, b in w.merged_opaque():
        if value[k:a].strip():
            return True
        k = b
    return bool(value[k:].strip())


def split_fields(w: Word) -> list[Word] | None:
    """Default-IFS word splitting of a value; None when globbing could apply.

    Blanks inside an unknown part (``$(cmd a b)``) do not split here; a field holding an
    unknown part may split further when the script runs (``splat``).
    """
    value = w.value
    unknown = w.merged_opaque()
    k = 0
    for a, b in unknown:
        if any(c in _GLOB_CHARS for c in value[k:a]):
            return None
        k = b
    if any(c in _GLOB_CHARS for c in value[k:]):
        return None
    fields: list[Word] = []
    start: int | None = None
    i, n = 0, len(value)
    u = 0
    while i <= n:
        while u < len(unknown) and unknown[u][1] <= i:
            u += 1
        inside = u < len(unknown) and unknown[u][0] <= i < unknown[u][1]
        if i < n and (inside or value[i] not in " \t\n"):
            if start is None:
                start = i
            if inside:
                i = unknown[u][1]
                continue
            i += 1
            continue
        if start is not None:
            f = w.slice(start, i)
            f.splat = bool(f.opaque)
            f.conditional = w.conditional
            fields.append(f)
            start = None
        i += 1
    if len(fields) == 1 and len(fields[0]) == len(w):
        fields[0].start, fields[0].end = w.start, w.end
    return fields
