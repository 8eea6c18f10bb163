"""Shell scripts: every simple command that starts vLLM, as argv tokens placed in the file.

The script is parsed with tree-sitter-bash.  Each simple command (wherever it
stands: pipelines, lists, subshells, function bodies, ``$( )``, heredoc-fed
scripts, ``sh -c '...'`` strings) is turned into words after shell quote
removal, and :func:`linter.sources.commands.match_words` decides whether the
words start vLLM or an LMCache server.

Beyond one command: a heredoc body written to ``X.yaml``/``X.json`` (or fed to ``kubectl
apply -f -``) is recorded as a :class:`~linter.sources.WrittenFile` for
:mod:`linter.sources.written_files` (the config file of a ``--config X`` launch, a manifest);
``docker exec NAME`` runs with the ``VLLM_*`` env and image pin of the script's ``docker run
--name NAME``; ``docker build -t NAME`` of a Dockerfile built FROM a vLLM image
(:mod:`linter.built_images`) makes ``docker run NAME`` vLLM's.

Variables: the value that reaches a word is followed (assignments, defaults, branches as
conditional alternatives, arrays and ``ARGS+=(...)`` appends).  A function whose body starts
vLLM with its arguments (``vllm serve "$model" "$@"``) is read through each call, the call's
words standing for ``$1``, ``"$@"``..., so options written at the call are checked there.
The words ``vllm serve`` handed to a script of the repository (``./launch-cluster.sh exec vllm
serve MODEL ...``) are a weak launch (:func:`linter.sources.commands.forwarded`).

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

import os
import posixpath

import tree_sitter as _ts

from linter.launch import EnvVar, Launch, Span, Token, VersionHint
from linter.lazy_re import lazy_re
from linter.offset_map import OffsetMap
from linter.records import Frozen, _set, replace
from linter.source_file import SourceFile
from linter.sources import READ_PAST_AN_ERROR, Comment, Extraction, Problem, WrittenFile, char_offsets, commands
from linter.sources.placed import PlacedText
from linter.sources.shell_words import LAUNCH_TEXT, TooComplex, Word, WordEvaluator, copy_word
from linter.sources.words import SHELLS, kept_env, nearest_pin, shell_script_index

__all__ = ["extract", "extract_script", "parses", "pip_pins_in_words"]


def _bash_grammar():
    """tree-sitter-bash's compiled grammar: its ``_binding`` extension module, loaded from the
    package's folder without running the package's ``__init__``, which imports
    ``importlib.resources`` (and through it ``tempfile``, ``shutil``, ``random``: a third of the
    start of a one-file run beyond click) for a highlight query the linter never reads.  The
    package itself when its folder holds no such module (another layout of the package)."""
    import importlib.machinery
    import importlib.util

    spec = importlib.util.find_spec("tree_sitter_bash")  # a top-level package: found, not imported
    for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_binding" + suffix)
            if os.path.isfile(path):
                loader = importlib.machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
                module = importlib.util.module_from_spec(importlib.util.spec_from_file_location("tree_sitter_bash._binding", path, loader=loader))
                loader.exec_module(module)
                return module
    import tree_sitter_bash

    return tree_sitter_bash


_LANGUAGE = _ts.Language(_bash_grammar().language())

_MAX_DEPTH = 6
_MAX_CALLS = 2  # functions read through their calls inside one another
# calls of one function read through it (each reads its body again: a script of thousands of
# calls must stay within its work budget); later calls are not read through
_MAX_CALLS_READ = 64
_MAX_RESTARTS = 8  # later words a broken line is read again from (a budget, not a grammar)

SCRIPT_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
# files that are data, not scripts
_DATA_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".py", ".md", ".txt", ".conf", ".ini", ".cfg", ".env", ".j2", ".tpl")
# data files a heredoc may write that the YAML readers read (JSON is YAML's flow style)
_WRITTEN_SUFFIXES = (".yaml", ".yml", ".json")
_MAX_WRITTEN = 32  # data heredocs read per file (each is parsed on its own)
_BODY_ESCAPE = lazy_re(r"\\[$`\\]")
# ``-f -`` just before a heredoc (``kubectl apply -f - <<EOF``)
_STDIN_DASH = lazy_re(r"(?:^|\s)(?:-f|--filename)[ \t]+-[ \t]*<<")
_SSH_VALUE_OPTS = frozenset("-B -b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w".split())


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


def _parser() -> _ts.Parser:
    return _ts.Parser(_LANGUAGE)


def parses(text: str) -> bool:
    """Whether bash parses ``text`` without an error: what tells a documentation comment
    (``# Don't forget the token``, ``# Options for serve.sh (vllm serve --config x.yaml)``)
    from a command after a bare ``# `` root prompt (:mod:`linter.sources.markdown`)."""
    return not _parser().parse(_final_continuation_blanked(text.encode("utf-8", "surrogatepass"))).root_node.has_error


_FINAL_CONTINUATION = lazy_re(rb"(?<!\\)\\\r?\n\s*\Z")


def _final_continuation_blanked(data: bytes) -> bytes:
    """``data`` with a line continuation at the very end read as the blank it is to bash.

    ``A=1 && vllm serve m \\`` as a script's last line (a YAML block scalar whose last flag
    keeps its ``\\``) is valid bash; tree-sitter-bash reads an error after an assignment there."""
    m = _FINAL_CONTINUATION.search(data)
    return data if m is None else data[: m.start()] + b" " + data[m.start() + 1 :]


# ---------------------------------------------------------------------------
# The extraction context of one script


class _Script(WordEvaluator):
    """The command walker of one script (its words are evaluated by :class:`WordEvaluator`)."""

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
        placed: dict[int, PlacedText],
        budget: list[int] | None = None,
    ) -> None:
        super().__init__(script, budget)
        self.src = src
        self.offsets = offsets
        self.kind = kind
        self.group = group
        self.editable = editable
        self.depth = depth
        self.inherited_env = list(inherited_env or [])
        self.out = out
        self.placed = placed  # id(token) -> the token's text placed in the file (its runs)
        self._keep: list[Token] = []  # keeps tokens alive while ``placed`` is keyed by id
        self.exports: list[tuple[int, EnvVar]] = []  # (script offset, var)
        self.launch_nodes: dict[int, Launch] = {}
        self.recovering = False  # lines read again after a parse error (never re-recovered)
        self.dangling: list[tuple[int, int, str | None]] = []  # redirections whose file is on the next line
        self.openers: dict[int, tuple[int, int]] = {}  # where a closing word is missing -> its opening word
        self.outer_assignments: dict[str, list] | None = None
        self.calling: list[str] = []  # the functions whose call is being read (innermost last)
        self.called: dict[str, _ts.Node] = {}  # functions read through a call that started vLLM
        self.calls_read: dict[str, int] = {}  # how many calls of each function were read through it
        self.through_calls: set[int] = set()  # ids of the launches read through a call
        # ``docker run --name NAME``: the ``VLLM_*`` env of each named container (shared with nested scripts)
        self.containers: dict[str, tuple[list[EnvVar], Token | None]] = {}

    def file_span(self, start: int, end: int) -> Span:
        a = self.offsets.nearest(start)
        b = self.offsets.span_end(end) if end > start else a
        return Span(a, max(a, b))

    # -- tokens ------------------------------------------------------------

    def in_file(self, w: Word) -> PlacedText:
        """``w`` (runs in script offsets) placed in the file through the script's offset map."""
        span = self.file_span(w.start, w.end)
        return w.placed_in(self.offsets, span.start, span.end)

    def token(self, w: Word) -> Token:
        self.spend(len(w))
        fw = self.in_file(w)
        tok = fw.token(self.src)
        if not self.editable and tok.value_start is not None:
            tok = replace(tok, value_start=None)
        if tok.value_start is None and fw.omap.segments:
            # a token not verbatim in one piece: keep its runs for a part of it (an image tag)
            self.placed[id(tok)] = fw
            self._keep.append(tok)
        return tok

    # -- word evaluation ---------------------------------------------------

    # -- pass 2: commands --------------------------------------------------

    def run(self) -> None:
        tree = _parser().parse(_final_continuation_blanked(self.data))
        root = tree.root_node
        if self.depth == 0:  # the script's comments, for suppressions: found in this parse, not a second one
            self.out.comments = self.comments(root)
        deep = _deeper_than(root, _MAX_TREE_DEPTH)
        if deep is not None:
            at = self.sbyte(deep)
            self.out.problems.append(Problem(self.file_span(at, at), f"shell script nested too deeply to analyse (more than {_MAX_TREE_DEPTH} levels); its commands are not checked"))
            return
        errors = self.parse_errors(root)
        self.collect_assignments(root)
        first = len(self.out.launches)
        self.walk(root)
        if self.called:
            # a function's body read on its own ("$@" unknown) gives way to its calls' readings
            bodies = [self.file_span(self.sbyte(b.start_byte), self.send(b.end_byte)) for b in self.called.values()]
            self.out.launches[first:] = [
                launch for launch in self.out.launches[first:]
                if id(launch) in self.through_calls or not any(b.start <= launch.span.start < b.end for b in bodies)
            ]
        errors = sorted(errors + self.dangling)
        if errors:
            self.recover(root, errors, first)

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

    def parse_errors(self, root: _ts.Node) -> list[tuple[int, int, str | None]]:
        """``(parse start, parse end, missing token or None)`` of each place tree-sitter could not read.

        A missing token's range is the construct it would close (a heredoc, a quote), ending
        where the token is missing.
        """
        out: list[tuple[int, int, str | None]] = []
        if not root.has_error:
            return out
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_missing:
                at = self.p(node.start_byte)
                opener = node.parent if node.parent is not None and node.parent.type != "program" else node
                out.append((min(at, self.p(opener.start_byte)), at, node.type if node.type.strip() else "token"))
                if node.type in _CLOSERS and opener is not node:
                    if opener.type == "do_group" and opener.parent is not None:
                        opener = opener.parent  # ``for``/``while``/``until``/``select``, not ``do``
                    first_tok = opener.children[0] if opener.children else opener
                    self.openers[at] = (self.p(first_tok.start_byte), self.p(first_tok.end_byte))
                continue
            if node.type == "ERROR":
                # the statement around it may have taken the next lines' words as its own
                top = node
                while top.parent is not None and top.parent.type not in ("program", "compound_statement", "do_group") and top.parent.has_error:
                    top = top.parent
                out.append((self.p(node.start_byte), max(self.p(node.end_byte), self.p(top.end_byte)), None))
                continue
            if node.has_error:
                stack.extend(reversed(node.children))
        return sorted(out)

    def logical_lines(self, ps: int, pe: int) -> tuple[int, int]:
        """The backslash-continued lines around parse text ``[ps, pe)``."""
        text = self.text
        a = text.rfind("\n", 0, ps) + 1
        while a >= 2 and text[a - 2] == "\\":  # the previous line continues into this one
            a = text.rfind("\n", 0, a - 1) + 1
        b = text.find("\n", max(pe, a))
        while b != -1 and b > 0 and text[b - 1] == "\\":
            b = text.find("\n", b + 1)
        return a, (len(text) if b == -1 else b)

    def inside_text(self, root: _ts.Node, a: int, b: int) -> bool:
        """The line lies inside a heredoc body or a quoted string (data, not commands)."""
        node = root.descendant_for_byte_range(self.byte(a), self.byte(max(a, b - 1)))
        while node is not None:
            if node.type in ("heredoc_body", "string", "raw_string", "ansi_c_string", "heredoc_redirect"):
                return True
            node = node.parent
        return False

    def recover(self, root: _ts.Node, errors: list[tuple[int, int, str | None]], first: int) -> None:
        """Read the lines tree-sitter could not; report a parse error only where a launch was lost.

        Valid bash that the grammar cannot read (``case`` patterns such as ``*"a"*"b"*)``,
        ``${a:+${a};}``, ``exec 3<>/dev/tcp/...``) and lines that start nothing of vLLM's
        are not problems of this linter.  A line that starts vLLM (``vllm serve``, an
        entrypoint module, a vLLM image) is read again alone (its unreadable part one unknown
        word); the problem is reported when no launch covers it, or when the script is really
        broken there (an unterminated quote or heredoc).
        """
        lines: list[tuple[int, int]] = []  # logical lines holding an error
        for ps, pe, _ in errors:
            a, b = self.logical_lines(ps, ps)
            while True:
                if not lines or lines[-1][0] < a:
                    lines.append((a, b))
                if b >= pe or b >= len(self.text):
                    break
                a, b = self.logical_lines(b + 1, b + 1)
        for a, b in sorted(set(lines)):
            if not LAUNCH_TEXT.search(self.text[a:b]):
                continue  # nothing here starts vLLM: not this linter's problem
            sa = self.s(a)
            sb = self.send(self.byte(b)) if b > a else sa
            fspan = self.file_span(sa, sb)
            inside = [(ps, pe, m) for ps, pe, m in errors if ps <= b and a <= pe]
            covered = self.covered(fspan, first)
            # a line after an unclosed quote or backtick is text, not a command
            quoted = [e for e in inside if e[2] is None and e[0] < a and self.text[e[0] : e[0] + 1] in "\"'`"]
            if not covered and self.depth < _MAX_DEPTH and not self.recovering and not quoted and not self.inside_text(root, a, b):
                before = len(self.out.launches)
                # the line alone, else from each later word up to the vLLM words (past a
                # broken prefix such as a ``case`` pattern of an unclosed ``case``)
                launch_at = LAUNCH_TEXT.search(self.text, a, b).start()
                starts = [a] + [m.start() for m in _PIECE.finditer(self.text, a, launch_at + 1) if m.start() > a]
                starts = starts[:1] + starts[1:][-_MAX_RESTARTS:]  # the words nearest the vLLM words
                for k in starts:
                    sk = self.s(k)
                    w = Word(start=sk, end=sb)
                    self.lit_range(w, k, b)
                    self.sub_script(w.value, self.sub_map(w), None, at=sk, recovering=True)
                    covered = self.covered(fspan, first)
                    if covered:
                        break
                for launch in self.out.launches[before:]:
                    launch.notes.append(READ_PAST_AN_ERROR)
            broken = [(ps, pe, m) for ps, pe, m in inside if m is not None or self.text[ps : ps + 1] in "\"'"]
            if covered and not broken:
                continue
            ps, pe, missing = (broken or inside or [(a, a, None)])[0]
            if missing in ('"', "'", "`") and self.text[ps : ps + 1] == missing:
                pe = ps + 1  # the quote that is never closed
                missing = "closing quote"
            elif missing is not None and pe in self.openers:
                # a construct never closed: point at its opening word (``if``, ``$(``, ``for``),
                # not at the end of the file where the closing word is missing
                closer = missing
                ps, pe = self.openers[pe]
                missing = "opener"
            elif missing == "word":
                # ``cmd &&`` / ``cmd |`` at the end: point at the operator
                k = pe
                while k > a and self.text[k - 1] in " \t\r\n\\":
                    k -= 1
                ps = k
                while ps > a and self.text[ps - 1] in "&|;!":
                    ps -= 1
                pe = k if ps < k else pe
            elif missing is not None:
                ps = pe  # point at the place the token is missing
            elif self.text[ps : ps + 1] in "\"'":
                pe = ps + 1  # the quote that is never closed
                missing = "closing quote"
            else:
                ps, pe = max(ps, a), min(max(pe, ps), b)
            s0 = self.s(ps)
            span = self.file_span(s0, self.send(self.byte(pe)) if pe > ps else s0)
            where = self.src.text[span.start : span.end].strip().splitlines()
            near = f" near {where[0][:40]!r}" if where and len(where[0]) > 1 else ""
            if missing == "closing quote":
                what = "a quote here is never closed (bash rejects the script)"
            elif missing == "opener":
                what = f"this {self.text[ps:pe]!r} is never closed (missing {closer!r}; bash rejects the script)"
                near = ""
            elif missing == "word":
                what = "a command is missing after this operator (bash rejects the script)"
                near = ""
            elif missing is not None:
                what = f"missing {missing!r}"
            else:
                what = "cannot read this command" if not covered else "the command is read up to here"
            lost = "" if covered else "; the vLLM command here is not checked"
            if self.recovering:
                continue  # a line read again: the script around it says what is broken
            self.out.problems.append(Problem(span, f"shell parse error: {what}{near}{lost}"))

    def covered(self, span: Span, first: int) -> bool:
        return any(l.span.start < max(span.end, span.start + 1) and span.start < max(l.span.end, l.span.start + 1)
                   for l in self.out.launches[first:])

    def walk(self, root: _ts.Node) -> None:
        stack = [root]
        containers: list[_ts.Node] = []
        while stack:
            node = stack.pop()
            t = node.type
            if t == "ERROR" and not self.recovering:
                continue  # read again line by line (:meth:`recover`); inside one line, its commands are read
            if t == "command":
                if not self.shifted(node) and not self.set_positional(node):
                    self.command(node)
                    self.call(node)
            elif t == "declaration_command":
                self.declaration(node)
            elif t == "redirected_statement":
                self.heredocs(node)
            elif t == "file_redirect":
                self.check_redirect(node)
            if t in ("program", "compound_statement", "do_group", "subshell", "if_statement", "else_clause", "elif_clause", "case_item"):
                containers.append(node)
            stack.extend(reversed(node.children))
        for node in containers:
            self.check_comment_breaks(node)

    def set_positional(self, node: _ts.Node) -> bool:
        """``set -- WORDS``: the positional parameters from here on, so that a later ``"$@"``
        gives these words (``set -- serve "$MODEL" --port 8000``, then ``set -- "$@"
        --trust-remote-code`` under a condition, then ``exec vllm "$@"``).  The words a branch,
        a loop or an ``&&``/``||`` adds are conditional; ``"$@"`` keeps the words it stands for."""
        name = node.child_by_field_name("name")
        if name is None or self.ntext(name) != "set":
            return False
        args = node.children_by_field_name("argument")
        if not args or self.ntext(args[0]) != "--" or self.recovering:
            return False
        branch = bool(self._branches(node))
        words: list[Word] = []
        for arg in args[1:]:
            got = self.eval_word(arg)
            if self.ntext(arg) not in ('"$@"', "$@", '"${@}"', "${@}"):
                for w in got:
                    w.conditional = w.conditional or branch
            words.extend(got)
        self.positional = words
        return True

    def call(self, node: _ts.Node) -> None:
        """A call of a function whose body starts vLLM with its arguments (``run_serve "$MODEL"
        --max-model-len 8192``): the body read again with this call's words as ``$1``,
        ``"$@"``..., so the options written at the call are checked where they are written."""
        if not self.functions or self.recovering:
            return
        name = node.child_by_field_name("name")
        if name is None:
            return
        fname = self.ntext(name)
        body = self.functions.get(fname)
        if body is None or fname in self.calling or len(self.calling) >= _MAX_CALLS or body.start_byte <= node.start_byte < body.end_byte:
            return
        if self.calls_read.get(fname, 0) >= _MAX_CALLS_READ:
            return
        self.calls_read[fname] = self.calls_read.get(fname, 0) + 1
        args = self.words_of(node)[1:]
        lo, hi = self.sbyte(body.start_byte), self.send(body.end_byte)
        saved = (self.positional, self.assignments, list(self.exports))
        # the body's assignments again, with this call's arguments
        self.assignments = {k: [a for a in v if not lo <= a.start < hi] for k, v in self.assignments.items()}
        self.calling.append(fname)
        first = len(self.out.launches)
        written, pins = len(self.out.written), len(self.out.pins)
        try:
            self.positional = list(args)
            self.collect_assignments(body)
            self.positional = list(args)
            self.walk(body)
        finally:
            self.positional, self.assignments, self.exports = saved
            self.calling.pop()
            # the body's heredoc files and pins were recorded when it was read on its own
            del self.out.written[written:], self.out.pins[pins:]
        for launch in self.out.launches[first:]:
            self.through_calls.add(id(launch))
            launch.notes.append(f"read through the call of `{fname}`: its arguments are the function's $1, \"$@\"...")
        if len(self.out.launches) > first:
            self.called[fname] = body

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
                if not kept_env(name):
                    continue
                a = self._resolve(name, self.sbyte(c.start_byte))
                val_tok = self.token(copy_word(a.scalar)) if a is not None and a.scalar is not None else None
                self.exports.append((self.sbyte(c.start_byte), EnvVar(self.name_token(c), val_tok)))

    def name_token(self, node: _ts.Node) -> Token:
        w = Word(start=self.sbyte(node.start_byte), end=self.send(node.end_byte))
        self.lit_range(w, self.p(node.start_byte), self.p(node.end_byte))
        return self.token(w)

    def words_of(self, node: _ts.Node) -> list[Word]:
        """The words of a simple command (name and arguments), adjacent nodes joined."""
        parts: list[_ts.Node | _Piece] = []
        for i, c in enumerate(node.children):
            f = node.field_name_for_child(i)
            if f in ("name", "argument"):
                parts.append(c)
            elif c.type == "ERROR":
                parts.extend(self.error_pieces(c))
        parts.extend(self.words_after_redirects(node))
        nxt = node.next_sibling
        if nxt is not None and nxt.type == "ERROR" and "\n" not in self.text[self.p(node.end_byte) : self.p(nxt.start_byte)]:
            parts.extend(self.error_pieces(nxt))  # the command runs on into text that does not parse
        if node.has_error:
            parts = self.same_line(node, parts)
        words: list[Word] = []
        prev_end = -1
        pending_start = False
        for c in parts:
            if isinstance(c, _Piece):
                ws = [self.piece_word(c)]
                if words and c.start_byte == prev_end:
                    words[-1].extend(ws[0])
                    words[-1].end = ws[0].end
                else:
                    words.extend(ws)
                prev_end = c.end_byte
                pending_start = False
                continue
            if c.type == "command_name":
                inner = c.named_children
                c = inner[0] if len(inner) == 1 else c
            ws = self.eval_word(c)
            if words and c.start_byte == prev_end and len(ws) == 1 and not (c.type == "$"):
                last = words[-1]
                last.extend(ws[0])
                last.end = ws[0].end
            elif c.type == "$" and not len(ws[0]):
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

    def check_redirect(self, node: _ts.Node) -> None:
        """``cmd >`` at the end of a line: bash rejects it; tree-sitter takes the next line as the file."""
        dests = [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "destination"]
        if dests and "\n" in self.text[self.p(node.start_byte) : self.p(dests[0].start_byte)].replace("\\\n", ""):
            self.dangling.append((self.p(node.start_byte), self.p(node.end_byte), None))

    def words_after_redirects(self, node: _ts.Node) -> list[_ts.Node]:
        """Arguments written after a redirection (``vllm serve m 2>err.log --port 8000``).

        bash takes one word after a redirection operator; tree-sitter-bash gives the redirection
        every word up to the end of the command, so the others are given back to the command.
        """
        parent = node.parent
        if parent is None or parent.type != "redirected_statement":
            return []
        body = parent.child_by_field_name("body")
        if body is None or body.id != node.id:
            return []
        out: list[_ts.Node] = []
        for r in parent.children:
            if r.type != "file_redirect":
                continue
            dests = [c for i, c in enumerate(r.children) if r.field_name_for_child(i) == "destination"]
            prev = self.p(r.start_byte)
            for k, d in enumerate(dests):
                if "\n" in self.text[prev : self.p(d.start_byte)].replace("\\\n", ""):
                    break  # bash never reads a word of the next line here
                if k:
                    out.append(d)
                prev = self.p(d.end_byte)
        return out

    def same_line(self, node: _ts.Node, parts: list) -> list:
        """The parts of a broken command that stand on its own logical line.

        Past a parse error tree-sitter may hand the words of the next lines to this
        command; bash never continues a command over an unescaped newline outside a word.
        """
        out = []
        prev = self.p(node.start_byte)
        for c in parts:
            cs = self.p(c.start_byte)
            gap = self.text[prev:cs]
            if "\n" in gap.replace("\\\n", ""):
                break
            out.append(c)
            prev = self.p(c.end_byte)
        return out

    def error_pieces(self, node: _ts.Node) -> list[_Piece]:
        """The blank-separated stretches of text tree-sitter could not parse (each one word)."""
        ps, pe = self.p(node.start_byte), self.p(node.end_byte)
        k = ps
        while True:  # up to the end of the command's line (later lines are read on their own)
            nl = self.text.find("\n", k, pe)
            if nl == -1 or nl == 0 or self.text[nl - 1] != "\\":
                pe = pe if nl == -1 else nl
                break
            k = nl + 1
        out = []
        for m in _PIECE.finditer(self.text, ps, pe):
            if m.group() == "\\" and self.text[m.end() : m.end() + 1] == "\n":
                continue  # a line continuation
            out.append(_Piece(self.byte(m.start()), self.byte(m.end()), m.start(), m.end(), bool(_LITERAL_PIECE.fullmatch(m.group()))))
        return out

    def piece_word(self, piece: _Piece) -> Word:
        """A plain literal stays literal (``--max-model-len``); anything else is one unknown word."""
        w = Word(start=self.s(piece.ps), end=self.s(piece.pe - 1) + 1)
        if piece.literal:
            self.lit_range(w, piece.ps, piece.pe)
        else:
            w.unknown(self.text[piece.ps : piece.pe], self.s(piece.ps))
        return w

    def command(self, node: _ts.Node) -> None:
        words = self.words_of(node)
        if not words:
            return
        tokens = [self.token(w) for w in words]
        self.pip_pins(tokens)
        build = commands.docker_build(tokens)
        if build is not None:
            commands.note_built(build.tags, _dockerfile_places(self.src.path, build))
        run = commands.docker_run(tokens)
        if run is not None and run.name is not None and not run.name.is_opaque:
            # ``docker exec NAME vllm serve`` later runs with this container's environment
            image = tokens[run.image_index] if run.image_index < len(tokens) else None
            self.containers[run.name.value] = ([EnvVar(n, v) for n, v in run.env if kept_env(n.value)], image)
        m = commands.match_words(tokens)
        if m is None:
            m = commands.forwarded(tokens)
        if m is not None:
            past = node.has_error or words[-1].end > self.send(node.end_byte)  # words after a redirection
            self.make_launch(node, m, end=words[-1].end if past else None)
            return
        self.nested(node, words, tokens)

    def assignment_env(self, c: _ts.Node) -> EnvVar | None:
        """The ``VLLM_*``/``LMCACHE_*`` variable a ``NAME=value`` node sets, or None."""
        name_node = c.child_by_field_name("name")
        if name_node is None or not kept_env(self.ntext(name_node)):
            return None
        value = c.child_by_field_name("value")
        if value is not None:
            val = self.token(self.eval_word(value, assignment=True)[0])
        else:
            at = self.send(c.end_byte)
            val = self.token(Word(start=at, end=at, anchor=at))
        return EnvVar(self.name_token(name_node), val)

    def prefix_env(self, node: _ts.Node) -> list[EnvVar]:
        env: list[EnvVar] = []
        for c in node.children:
            if c.type == "variable_assignment":
                var = self.assignment_env(c)
                if var is not None:
                    env.append(var)
        return env

    def make_launch(self, node: _ts.Node, m: commands.Match, *, end: int | None = None) -> None:
        s, e = self.sbyte(node.start_byte), self.send(node.end_byte) if end is None else end
        env: list[EnvVar] = []
        if m.image is None:
            env.extend(self.inherited_env)
            env.extend(v for at, v in self.exports if at < s)
            env.extend(self.prefix_env(node))
        container = self.containers.get(m.container.value) if m.container is not None and not m.container.is_opaque else None
        if container is not None:
            env.extend(container[0])  # the ``-e`` of its ``docker run --name``
        env.extend(EnvVar(n, v) for n, v in m.env if kept_env(n.value))
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
            evidence=m.evidence,
            strong=m.strong,
            mounts=list(m.mounts),
        )
        if m.image is not None and m.base is not None:
            # built here FROM a vLLM image: that image's release (its tag stands in the Dockerfile)
            found = commands.release_tag(m.base)
            launch.version_hint = VersionHint(found[0], m.image.span, "image-tag", False) if found else None
        elif m.image is not None:
            launch.version_hint = self.image_hint(m.image)
        elif container is not None and container[1] is not None:
            launch.version_hint = self.image_hint(container[1])  # the image the container runs
        self.out.launches.append(launch)
        self.launch_nodes[node.id] = launch

    def image_hint(self, image: Token) -> VersionHint | None:
        if image.alternatives:
            # one of several images: pinned only when they all name the same release (not
            # editable here: the tags stand at the assignments)
            tags = {(commands.release_tag(a) or ("",))[0] for a in image.alternatives}
            return VersionHint(tags.pop(), image.span, "image-tag", False) if len(tags) == 1 and "" not in tags else None
        found = commands.release_tag(image.value)
        if found is None:
            return None
        tag, a = found
        b = a + len(tag)
        if image.opaque_in(a, b):
            return None
        span, ok = self.sub_span(image, a, b)
        return VersionHint(tag, span, "image-tag", ok)

    def sub_span(self, tok: Token, a: int, b: int) -> tuple[Span, bool]:
        """The file span of ``tok.value[a:b]`` and whether it stands there verbatim."""
        fw = self.placed.get(id(tok))
        if fw is not None and b > a and self.editable:
            span, ok = fw.sub_span(a, b, self.src)
            if ok:
                return span, True
        if tok.value_start is not None:
            return Span(tok.value_start + a, tok.value_start + b), True
        return tok.span, False

    def pip_pins(self, tokens: list[Token]) -> None:
        for tok, version, a, b in pip_pins_in_words(tokens):
            span, ok = self.sub_span(tok, a, b)
            self.out.pins.append(VersionHint(version, span, "pip-pin", ok))

    # -- nested scripts ----------------------------------------------------

    def sub_map(self, w: Word) -> OffsetMap:
        """Where the characters of ``w``'s value stand in the file (for a script inside it)."""
        m = w.omap.compose(self.offsets)
        m.fallback = self.offsets.nearest(w.start)
        return m

    def nested(self, node: _ts.Node, words: list[Word], tokens: list[Token]) -> None:
        if self.depth >= _MAX_DEPTH:
            return
        script_word = _nested_script_word(words, tokens)
        if script_word is None:
            return
        if isinstance(script_word, Word):
            self.sub_script(script_word.value, self.sub_map(script_word), node)
        else:
            # several words joined by single spaces (ssh, eval)
            joined = Word()
            for k, w in enumerate(script_word):
                if k:
                    joined.lit(" ", None)
                joined.extend(w)
            self.sub_script(joined.value, self.sub_map(joined), node)

    def sub_script(self, script: str, omap: OffsetMap, node: _ts.Node | None, *, at: int | None = None, recovering: bool = False) -> None:
        at = self.sbyte(node.start_byte) if node is not None else (at or 0)
        env = list(self.inherited_env) + [v for a, v in self.exports if a < at]
        inner = _Script(
            self.src, script, omap, kind=self.kind, group=self.group, editable=self.editable,
            depth=self.depth + 1, inherited_env=env, out=self.out, placed=self.placed, budget=self.budget,
        )
        inner.containers = self.containers
        if recovering:
            # the same script, read again: its variables are this script's
            inner.recovering = True
            inner.outer_assignments = self.assignments
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
                    if dest is not None and self.ntext(dest).endswith(SCRIPT_SUFFIXES):
                        feeds = True
            if body is None or body_cmd is None:
                continue
            words = self.words_of(body_cmd) if body_cmd.type == "command" else []
            if words:
                if self._is_shell_sink(words):
                    feeds = True
                head = posixpath.basename(words[0].value)
                if head in ("cat", "tee") and any(w.value.endswith(SCRIPT_SUFFIXES) for w in words[1:]):
                    feeds = True
            for r in node.children:
                if r.type == "file_redirect":
                    dest = r.child_by_field_name("destination")
                    if dest is not None and self.ntext(dest).endswith(SCRIPT_SUFFIXES):
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
            if not feeds and LAUNCH_TEXT.search(self.ntext(body)) and self._writes_script(node, words):
                # ``cat > "$F" <<EOF`` / ``tee "$(mktemp)"``: a body that starts vLLM is a
                # script whatever file it is written to (it is run later)
                feeds = True
            if not feeds:
                self.written_file(node, c, body, words, dashed)
                continue
            if self.depth >= _MAX_DEPTH:
                continue
            w = self.body_word(body, dashed)
            self.sub_script(w.value, self.sub_map(w), node)

    def body_word(self, body: _ts.Node, dashed: bool) -> Word:
        """The text a heredoc body hands on, as written (expansions kept as text), placed in the script."""
        ps, pe = self.p(body.start_byte), self.p(body.end_byte)
        # The body starts at the beginning of its line (the grammar skips <<- tabs).
        while ps > 0 and self.text[ps - 1] == "\t":
            ps -= 1
        w = Word()
        if not dashed:  # one run (lit_range splits it where a \r was dropped)
            self.lit_range(w, ps, pe)
            return w
        k = ps
        while k < pe:
            if dashed:
                while k < pe and self.text[k] == "\t":
                    k += 1  # ``<<-`` strips leading tabs
            nl = self.text.find("\n", k, pe)
            nl = pe if nl == -1 else nl + 1
            self.lit_range(w, k, nl)
            k = nl
        return w

    def written_file(self, node: _ts.Node, redirect: _ts.Node, body: _ts.Node, words: list[Word], dashed: bool) -> None:
        """``cat > cfg.yaml <<EOF`` / ``tee run.json <<'EOF'``: the body is a data file, read as its format.

        Recorded as a :class:`~linter.sources.WrittenFile` (the YAML readers cannot be
        called from here: they call this reader for their own scripts).  A file appended
        to (``>>``) is only part of its content: not recorded.
        """
        head = posixpath.basename(words[0].value) if words else ""
        readers = [[w.value for w in words]]
        # (the text before the heredoc's ``<<``, not the body: a manifest may be megabytes)
        if _STDIN_DASH.search(self.text, self.p(node.start_byte), self.p(max(node.start_byte, min(node.end_byte, redirect.start_byte + 2)))):
            # ``kubectl apply -f - <<EOF``: the grammar leaves the ``-`` before ``<<`` out of the words
            readers[0].append("-")
        readers += [[w.value for w in self.words_of(h)] for pl in redirect.children if pl.type == "pipeline" for h in pl.named_children if h.type == "command"]
        parent = node.parent
        if parent is not None and parent.type == "pipeline":
            readers += [[w.value for w in self.words_of(pc)] for pc in parent.named_children if pc.type == "command" and pc.start_byte > node.start_byte]
        if any(_applies_stdin(vals) for vals in readers):
            self.record_written("-", node, redirect, body, dashed)  # a manifest read from standard input
            return
        if head not in ("cat", "tee"):
            return
        targets = [w for w in words[1:] if not w.value.startswith("-")] if head == "tee" else []
        for r in [*node.children, *redirect.children]:
            if r.type != "file_redirect":
                continue
            op = r.children[0].type if r.children else ""
            dest = r.child_by_field_name("destination")
            if dest is not None and op in (">", ">|", "&>"):
                ws = self.eval_word(dest)
                if len(ws) == 1:
                    targets.append(ws[0])
        target = next((t for t in targets if t.value.lower().endswith(_WRITTEN_SUFFIXES)), None)
        if target is not None:
            self.record_written(target.value, node, redirect, body, dashed)

    def record_written(self, target: str, node: _ts.Node, redirect: _ts.Node, body: _ts.Node, dashed: bool) -> None:
        fmap = self.body_word(body, dashed).omap.compose(self.offsets)
        ranges = [(f, f + n) for _s, f, n in fmap.segments]
        if not ranges:
            return
        if len(self.out.written) >= _MAX_WRITTEN:
            return
        text = self.src.text
        start = self.sbyte(redirect.start_byte)
        quoted = any(h.type == "heredoc_start" and any(q in self.ntext(h) for q in "'\"\\") for h in redirect.children)
        unknown: list[tuple[int, int]] = []
        if not quoted:  # an unquoted body expands ``$X``, ``$( )`` and backslash escapes: those values are unknown
            stack = list(body.children)
            while stack:
                n = stack.pop()
                if n.type in ("simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"):
                    sp = self.file_span(self.sbyte(n.start_byte), self.send(n.end_byte))
                    unknown.append((sp.start, sp.end))
                else:
                    stack.extend(n.children)
            for a, b in ranges:
                for m in _BODY_ESCAPE.finditer(text, a, b):
                    unknown.append((m.start(), m.end()))
        self.out.written.append(WrittenFile(
            target, tuple(ranges), Span(ranges[0][0], ranges[-1][1]),
            self.offsets.nearest(start), tuple(sorted(unknown)), self.editable,
        ))

    def _writes_script(self, node: _ts.Node, words: list[Word]) -> bool:
        """``cat``/``tee`` write the heredoc to a file that is not data (``"$F"``, ``$(mktemp)``, ``run``).

        Printed to the terminal (``cat <<EOF`` alone) it is a message; read by a program
        (``python3 -``, ``kubectl apply -f -``) or written to a YAML/JSON/... file it is data.
        """
        head = posixpath.basename(words[0].value) if words else ""
        if head not in ("cat", "tee"):
            return False
        targets = [w.value for w in words[1:] if not w.value.startswith("-")] if head == "tee" else []
        for r in node.children:
            if r.type == "file_redirect":
                op = r.children[0].type if r.children else ""
                dest = r.child_by_field_name("destination")
                if dest is not None and op in (">", ">>", ">|", "&>"):
                    targets.append(self.ntext(dest))
        return bool(targets) and not any(t.lower().endswith(_DATA_SUFFIXES) for t in targets)

    @staticmethod
    def _is_shell_sink(words: list[Word]) -> bool:
        """The command reads a script on stdin (``bash``, ``sudo sh -s``, ``ssh host``)."""
        vals = [w.value for w in words]
        for k, v in enumerate(vals):
            b = posixpath.basename(v)
            if b == "busybox":
                continue
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


class _Piece(Frozen):
    """A stretch of unparseable text inside a command (byte and parse offsets)."""

    __slots__ = ("start_byte", "end_byte", "ps", "pe", "literal", "type")

    start_byte: int
    end_byte: int
    ps: int
    pe: int
    literal: bool
    type: str

    def __init__(self, start_byte, end_byte, ps, pe, literal, type="piece"):
        _set(self, "start_byte", start_byte)
        _set(self, "end_byte", end_byte)
        _set(self, "ps", ps)
        _set(self, "pe", pe)
        _set(self, "literal", literal)
        _set(self, "type", type)


_PIECE = lazy_re(r"[^ \t\n]+")
# tokens that close a construct opened earlier (a missing one is reported at the opening word)
_CLOSERS = frozenset({"fi", "done", "esac", ")", "}", "]]", "]", "))"})
_LITERAL_PIECE = lazy_re(r"[A-Za-z0-9_./:=,+@%-]+")


def _dockerfile_places(script: str, build: commands.DockerBuild) -> list[str]:
    """Where the Dockerfile of ``docker build`` may stand (real paths): ``-f FILE`` or
    ``CONTEXT/Dockerfile``, relative to the script's folder or to a folder above it (a script
    under ``scripts/`` is often run from the repository's root)."""
    if build.file == "-":
        return []
    rel = build.file or posixpath.join(build.context or ".", "Dockerfile")
    if os.path.isabs(rel):
        return [os.path.realpath(rel)]
    out = []
    folder = os.path.dirname(os.path.abspath(script)) if script else os.getcwd()
    for _ in range(4):
        out.append(os.path.realpath(os.path.join(folder, rel)))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return out


def _applies_stdin(vals: list[str]) -> bool:
    """``kubectl apply -f -`` (``create``, ``replace``; ``oc`` too): the command reads manifests on stdin."""
    if not vals or posixpath.basename(vals[0]) not in ("kubectl", "oc"):
        return False
    if not any(v in ("apply", "create", "replace") for v in vals[1:4]):
        return False
    return "--filename=-" in vals or "-f-" in vals or any(a in ("-f", "--filename") and b == "-" for a, b in zip(vals, vals[1:]))


def _first_command(node: _ts.Node) -> _ts.Node | None:
    while node is not None:
        if node.type == "command":
            return node
        if node.type in ("redirected_statement", "pipeline", "list"):
            node = node.named_children[0] if node.named_children else None
            continue
        return None
    return None


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


# programs whose option's value is a shell script they run: su(1), Slurm's sbatch(1) ``--wrap``
_SCRIPT_OPTIONS = {"su": ("-c", "--command"), "sbatch": ("--wrap",)}

# tmux(1): the commands that run a shell command, and their options that take a value
_TMUX_RUNS = {
    "new-session": "-c -e -F -f -n -s -t -x -y", "new": "-c -e -F -f -n -s -t -x -y",
    "new-window": "-c -e -F -n -t", "neww": "-c -e -F -n -t",
    "split-window": "-c -e -F -l -t", "splitw": "-c -e -F -l -t",
    "send-keys": "-N -t", "send": "-N -t",
}
_TMUX_KEYS = frozenset({"Enter", "C-m", "KPEnter", "C-j"})


def _tmux_command(vals: list[str]) -> list[int] | None:
    """Indices of the shell command words of ``tmux new-session/new-window/split-window ... CMD``
    or of the keys ``tmux send-keys -t T "CMD" Enter`` types (the Enter keys dropped)."""
    k = 1
    while k < len(vals) and vals[k].startswith("-"):
        k += 2 if vals[k] in ("-L", "-S", "-f", "-T") else 1  # tmux's own options
    if k >= len(vals) or vals[k] not in _TMUX_RUNS:
        return None
    takes = frozenset(_TMUX_RUNS[vals[k]].split())
    k += 1
    while k < len(vals) and vals[k].startswith("-") and vals[k] != "--":
        k += 2 if vals[k] in takes else 1
    if k < len(vals) and vals[k] == "--":
        k += 1
    idx = [i for i in range(k, len(vals)) if vals[i] not in _TMUX_KEYS]
    return idx or None


def _nested_script_word(words: list[Word], tokens: list[Token]) -> Word | list[Word] | None:
    """The word (or words) of a command that the command runs as a shell script."""
    vals = [t.value for t in tokens]
    run = commands.docker_run(tokens)
    if run is not None and run.entrypoint is not None and run.image_index < len(tokens):
        # ``docker run --entrypoint bash IMAGE -c SCRIPT``: the image's words follow the shell
        j = shell_script_index([run.entrypoint, *tokens[run.image_index + 1 :]], prefixes=False)
        return words[run.image_index + j] if j is not None else None
    for k, v in enumerate(vals):
        b = posixpath.basename(v)
        if b == "busybox":
            continue  # ``busybox sh -c``: the applet name follows
        if b in SHELLS:
            j = shell_script_index(tokens[k:], prefixes=False)
            return words[k + j] if j is not None else None
        if b in _SCRIPT_OPTIONS:  # ``su -c SCRIPT``, ``sbatch --wrap SCRIPT``
            options = _SCRIPT_OPTIONS[b]
            for j in range(k + 1, len(vals)):
                o = vals[j]
                if o in options and j + 1 < len(vals):
                    return words[j + 1]
                name = o.split("=", 1)[0]
                if name in options and name.startswith("--") and "=" in o:
                    w = words[j].slice(len(name) + 1, len(words[j]))
                    w.splat = words[j].splat
                    return w
            return None
        if b in ("ssh", "tmux"):  # the remote command / the command tmux runs
            idx = (_ssh_command if b == "ssh" else _tmux_command)(vals[k:])
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
        version = _exact_pin(v)
        if version is None:
            continue
        at = v.find(version, v.find("=="))
        if at < 0 or tok.opaque_in(at, at + len(version)):
            continue
        out.append((tok, version, at, at + len(version)))
    return out


def _exact_pin(word: str) -> str | None:
    """The version of the requirement ``word`` when it pins vLLM to one release (``vllm==X``,
    ``vllm[audio]===X ; python_version > "3.9"``), else None.

    ``vllm==0.32.0`` (digits and dots) is read here; any other form by
    :mod:`packaging.requirements`, imported then (a fifth of a one-file run's start)."""
    if word[:4].lower() == "vllm" and word[4:6] == "==" and word[6:7] != "=":
        parts = word[6:].split(".")
        if all(p.isascii() and p.isdigit() for p in parts):
            return word[6:]
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        req = Requirement(word)
    except InvalidRequirement:
        return None
    if req.name.lower() != "vllm":
        return None
    specs = list(req.specifier)
    if len(specs) != 1 or specs[0].operator not in ("==", "==="):
        return None
    return specs[0].version


def _attach_pins(ex: Extraction) -> None:
    """Give launches that run outside an image the nearest pip pin (preceding first)."""
    pins = [p for p in ex.pins if p.origin == "pip-pin"]
    if not pins:
        return
    for launch in ex.launches:
        if launch.version_hint is None and launch.image is None:
            launch.version_hint = nearest_pin(launch.span.start, pins)


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
                      depth=0, out=out, placed={})
        ctx.run()
    except TooComplex:
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


def script_comments(text: str) -> list[Comment]:
    """The bash comments of ``text`` (parsed on its own: a Markdown block, a shell-form instruction)."""
    data = text.encode("utf-8", "surrogatepass")
    tree = _parser().parse(data)
    spans: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            spans.append((node.start_byte, node.end_byte))
            continue
        stack.extend(node.children)
    conv = char_offsets(data, [b for span in spans for b in span])
    out = []
    for sb, eb in spans:
        s, e = conv[sb], conv[eb]
        out.append(Comment(s, e, text[s:e].rstrip("\r")))
    return out


def extract(src: SourceFile) -> Extraction:
    """A whole shell script file."""
    return extract_script(src, src.text, OffsetMap.identity(0, len(src.text)), kind="shell", group=src.path)
