"""Launches in Python source: ``LLM(...)``/``EngineArgs(...)`` calls, argv lists and command strings.

Parsed once, with CPython's own parser (the stdlib :mod:`ast`): the tree
decides whether a call can launch and gives every node's place.  ``ast``
columns are UTF-8 byte offsets within a line; :class:`_Places` turns them into
the character offsets a :class:`~linter.launch.Span` holds (lines end at
``\\n``, ``\\r\\n`` or a lone ``\\r``, as CPython counts them).  String literals
are re-read from the file text (:func:`_literal_pieces`, :func:`decode_body`)
so every decoded character keeps its place: implicit concatenation, f-string
fields, escapes and CRLF included.  libcst, which keeps whitespace, is used
only by the fix check (:mod:`linter.fix_check`).

What is found:

* ``LLM(...)``, ``EngineArgs(...)``, ``AsyncEngineArgs(...)`` (under any alias
  the module's imports give them) become ``style="settings"`` launches, one
  :class:`~linter.launch.Setting` per keyword argument.
* argv lists handed to ``subprocess.run/Popen/call/check_call/check_output``,
  ``os.exec*`` and ``asyncio.create_subprocess_exec`` go through
  :func:`linter.sources.commands.match_words`.
* shell strings (``os.system``, ``shell=True``, ``shlex.split``,
  ``asyncio.create_subprocess_shell``) go to the shell extractor with an
  :class:`~linter.offset_map.OffsetMap` built from the Python literal.

* Ray Serve LLM ``LLMConfig(...)`` (from ``ray.serve.llm``): ``engine_kwargs``
  are the settings, ``model_loading_config``'s ``model_source`` (else
  ``model_id``) the model, ``runtime_env["env_vars"]`` the environment; and
  ``Deployment.bind(**kw)`` into a class whose ``__init__(**kw)`` builds
  ``AsyncEngineArgs(**kw)``: bind's keywords are that launch's settings.
* LangChain's ``VLLM(...)`` and LlamaIndex's ``Vllm(...)``, which build ``vllm.LLM``:
  their ``model``, ``tensor_parallel_size``, ``trust_remote_code``, ``dtype``,
  ``download_dir`` and the entries of ``vllm_kwargs`` are the settings (the wrapper's
  own field names never edited); their sampling fields are not vLLM's.
* containers: docker-py ``containers.run/create(image, command, entrypoint=,
  environment=)``, Kubernetes and KServe client models (``V1Container``,
  ``V1beta1ModelSpec`` ... with ``command``/``args``/``image``/``env``).  The
  args of a KServe ``huggingface`` model spec are weak evidence (the runtime
  takes flags of its own first).
* ``RemoteOpenAIServer(MODEL, ARGS)``, the test server of vLLM's ``tests/utils.py``
  (and of the plugins that copy it), which runs ``vllm serve MODEL *ARGS``: weak
  evidence (a helper of the repository's own), reported and never edited.
* anywhere else, an argv list or command string whose head starts vLLM is a
  launch: returned, handed to a runner vllm-lint does not know
  (``conn.run(cmd)``), or only bound.  ``" ".join(cmd)`` read by a shell is a
  script whose elements are shell words; ``shlex.join(cmd)`` keeps the argv.
  A command read by a known runner is not read again where it is logged.
* ``os.environ["VLLM_X"] = ...`` (``setdefault``, ``update``, ``putenv``)
  before a local launch is its environment (not a container's).
* IPython line magics are read around; a ``!`` line is a shell command.

A list bound to a name in the same scope (``cmd = [...]``, ``cmd += [...]``,
``cmd.append(x)``, ``cmd.extend([...])``) is followed; conditions and loops
are not evaluated (every append counts once), and what is appended inside a
branch or loop the list was not made in (``if big: cmd += ["--max-model-len",
"32768"]``) is conditional: it may not be given at all.  A conditional element
(``"--a" if c else "--b"``, ``[...] if c else []``) gives both options, noted
on the launch; a conditional value is one unknown word.

A module that names vLLM only in comment lines and docstrings, with none of the calls read
whatever their words say, is neither parsed nor walked (:func:`_starts_nothing`, a scan of its
comments and strings): nothing in it can launch, and nothing is reported for it.

The reading depends on the running Python's grammar; syntax newer than it (``f"{d["k"]}"``,
``type X = ...`` before 3.12) is checked with libcst's parser and, when valid, read around
(:func:`_newer_syntax_masked`): never a syntax error.  libcst is tried only on a module that
holds such syntax (:data:`_NEWER_MARK`).  A documentation block (``doc=True``,
Markdown) may be pseudo-code: ``LLM(model=<your-model>, ...)`` is read with the placeholder an
unknown value, and a block that cannot be read and holds no launch says nothing.
"""

from __future__ import annotations

import ast
import bisect
import json
import re
import sys
import warnings
from typing import Any

from linter.discovery import VLLM_WORDS
from linter.launch import EnvVar, Launch, Setting, Span, Token
from linter.lazy_re import lazy_re
from linter.offset_map import OffsetMap
from linter.placeholders import DOC_PLACEHOLDER
from linter.records import Record, replace
from linter.source_file import SourceFile
from linter.sources import Extraction, Problem
from linter.sources import embedded_shell
from linter.sources.commands import is_vllm_image, match_words, sub_token
from linter.sources.placed import PlacedText
from linter.sources.words import kept_env, shell_script_index

# A Python string expression, decoded: the project's one placed-text type.
PyString = PlacedText

SETTINGS_CLASSES = ("LLM", "EngineArgs", "AsyncEngineArgs")
ARGV_CALLS = frozenset(
    {"subprocess.run", "subprocess.Popen", "subprocess.call", "subprocess.check_call", "subprocess.check_output"}
)
# function -> index of the argv list argument
EXECV_CALLS = {"os.execv": 1, "os.execvp": 1, "os.execve": 1, "os.execvpe": 1, "os.spawnv": 2, "os.spawnvp": 2, "os.spawnve": 2, "os.spawnvpe": 2, "os.posix_spawn": 1, "os.posix_spawnp": 1, "pty.spawn": 0}
# function -> (index of argv[0], number of trailing non-argv arguments)
EXECL_CALLS = {"os.execl": (1, 0), "os.execlp": (1, 0), "os.execle": (1, 1), "os.execlpe": (1, 1)}
EXEC_ARGS_CALLS = frozenset({"asyncio.create_subprocess_exec"})
SHELL_CALLS = frozenset(
    {"os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput", "asyncio.create_subprocess_shell", "shlex.split"}
)
_LINE_RE = lazy_re(r"\r\n|\r|\n")
_MENTION_RE = lazy_re("|".join(map(re.escape, VLLM_WORDS)), re.IGNORECASE)
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_PREFIXES = frozenset({"r", "u", "b", "f", "br", "rb", "fr", "rf"})
_PYTHON = f"Python {sys.version_info[0]}.{sys.version_info[1]}"


# ---------------------------------------------------------------------------
# Places: ast (line, UTF-8 byte column) -> character offsets


class _Places:
    """Character offsets of ``ast`` positions in one text."""

    def __init__(self, text: str, shift: list[int] | None = None) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _LINE_RE.finditer(text)]
        self.shift = shift  # characters (ASCII blanks) removed from each line before parsing
        self._hot: list[int] | None = None

    @property
    def hot(self) -> list[int]:
        """The 1-based lines that mention vLLM, LMCache or Ray Serve LLM (found on first use:
        a syntax error's place needs only the line starts)."""
        if self._hot is None:
            self._hot = sorted({bisect.bisect_right(self.starts, a) for a, _b in _mentions(self.text)})  # overlapping ones share a line
        return self._hot

    def at(self, lineno: int, col: int) -> int:
        start = self.starts[lineno - 1]
        if self.shift is not None:
            col += self.shift[lineno - 1]
        if col <= 0:
            return start
        head = self.text[start : start + col]
        if head.isascii():  # col ASCII characters are col bytes
            return start + col
        end = self.starts[lineno] if lineno < len(self.starts) else len(self.text)
        return start + len(self.text[start:end].encode("utf-8")[:col].decode("utf-8"))

    def span(self, node: ast.AST) -> Span:
        a = self.at(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        b = self.at(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return Span(a, max(a, b))


# ---------------------------------------------------------------------------
# Python string literals -> PlacedText


def decode_body(body: str, file_start: int, *, raw: bool, fmt: bool = False, is_bytes: bool = False,
                into: PlacedText | None = None) -> tuple[str, OffsetMap]:
    """Undo a literal body's escapes, recording which characters stand verbatim.

    ``file_start`` is the file offset of ``body[0]``.  ``fmt``: an f-string text
    part (``{{``/``}}`` stand for one brace).  ``into`` is the placed text being
    assembled (a new one by default); its value and runs are returned.
    """
    out = PlacedText(start=file_start, end=file_start + len(body)) if into is None else into
    i = 0
    run = 0  # start of the current verbatim run in body
    length = len(body)

    def flush(upto: int) -> None:
        if upto > run:
            out.lit(body[run:upto], file_start + run)

    while i < length:
        c = body[i]
        if c == "\r":  # CPython reads every line end as \n
            flush(i)
            if body.startswith("\r\n", i):
                out.lit("\n", file_start + i + 1)
                i += 2
            else:
                out.lit("\n", None)
                i += 1
            run = i
            continue
        if fmt and c in "{}" and body.startswith(c * 2, i):
            flush(i)
            out.lit(c, file_start + i)
            i += 2
            run = i
            continue
        if c != "\\" or i + 1 >= length:
            i += 1
            continue
        if fmt and body[i + 1] in "{}":  # a backslash never escapes a brace: it stays, the brace is read next
            i += 1
            continue
        if raw:
            i += 2  # a backslash keeps the next character (even a quote) verbatim
            continue
        nxt = body[i + 1]
        if nxt in "\r\n":  # line continuation inside the literal
            flush(i)
            i += 3 if body.startswith("\r\n", i + 1) else 2
            run = i
            continue
        if nxt in _SIMPLE_ESCAPES:
            flush(i)
            out.lit(_SIMPLE_ESCAPES[nxt], None)
            i += 2
            run = i
            continue
        if nxt in "01234567":
            j = i + 1
            while j < min(i + 4, length) and body[j] in "01234567":
                j += 1
            flush(i)
            out.lit(chr(int(body[i + 1 : j], 8)), None)
            i = j
            run = i
            continue
        width = {"x": 2, "u": 4, "U": 8}.get(nxt)
        if width and not (is_bytes and nxt != "x"):
            digits = body[i + 2 : i + 2 + width]
            if len(digits) == width and all(d in "0123456789abcdefABCDEF" for d in digits):
                flush(i)
                out.lit(chr(int(digits, 16)), None)
                i += 2 + width
                run = i
                continue
        if nxt == "N" and not is_bytes and body.startswith("{", i + 2):
            close = body.find("}", i + 3)
            if close != -1:
                import unicodedata

                try:
                    ch = unicodedata.lookup(body[i + 3 : close])
                except KeyError:
                    ch = None
                if ch is not None:
                    flush(i)
                    out.lit(ch, None)
                    i = close + 1
                    run = i
                    continue
        i += 2  # unknown escape: both characters stay
    flush(length)
    return out.value, out.omap


def _skip_string(raw: str, i: int) -> int:
    """Index just after the string literal starting at ``raw[i]`` (prefix included)."""
    j = i
    while j < len(raw) and raw[j] not in "'\"":
        j += 1
    prefix = raw[i:j].lower()
    quote = raw[j : j + 3] if raw[j : j + 3] in ('"""', "'''") else raw[j : j + 1]
    k = j + len(quote)
    return _body_end(raw, k, quote, "f" in prefix) + len(quote)


def _field_end(raw: str, i: int) -> int:
    """``raw[i]`` is the ``{`` of an f-string field: the index just after its ``}``."""
    depth = 0
    spec = False
    j = i + 1
    while j < len(raw):
        c = raw[j]
        if spec:  # format spec: literal text and nested fields
            if c == "{":
                j = _field_end(raw, j)
                continue
            if c == "}":
                return j + 1
            j += 1
            continue
        if c in "'\"":
            j = _skip_string(raw, j)
            continue
        if c.isalpha() or c == "_":  # a name, or the prefix of a nested string literal
            k = j
            while k < len(raw) and (raw[k].isalnum() or raw[k] == "_"):
                k += 1
            if k < len(raw) and raw[k] in "'\"" and raw[j:k].lower() in _PREFIXES:
                j = _skip_string(raw, j)
            else:
                j = k
            continue
        if c in "([{":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "}":
            if depth == 0:
                return j + 1
            depth -= 1
        elif c == ":" and depth == 0 and not raw.startswith(":=", j):
            spec = True
        elif c == "#":
            while j < len(raw) and raw[j] not in "\r\n":
                j += 1
            continue
        j += 1
    return len(raw)


def _body_end(raw: str, k: int, quote: str, fmt: bool) -> int:
    """Index of the closing quote of a body starting at ``raw[k]``."""
    while k < len(raw):
        c = raw[k]
        if c == "\\":
            k += 1 if fmt and raw[k + 1 : k + 2] in ("{", "}") else 2  # a backslash never escapes a brace
            continue
        if raw.startswith(quote, k):
            return k
        if fmt and c == "{":
            if raw.startswith("{{", k):
                k += 2
                continue
            k = _field_end(raw, k)
            continue
        k += 1
    return len(raw)


class _Piece(Record):
    __slots__ = ("start", "end", "prefix", "body_start", "body_end")

    start: int  # offset of the literal in the raw text
    end: int
    prefix: str
    body_start: int
    body_end: int

    def __init__(self, start, end, prefix, body_start, body_end):
        self.start = start
        self.end = end
        self.prefix = prefix
        self.body_start = body_start
        self.body_end = body_end


def _literal_pieces(raw: str) -> list[_Piece] | None:
    """The string literals of a (possibly implicitly concatenated) string expression's text."""
    pieces: list[_Piece] = []
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        if c in " \t\f\r\n\\":
            i += 1
            continue
        if c == "#":
            while i < n and raw[i] not in "\r\n":
                i += 1
            continue
        j = i
        while j < n and raw[j].isalpha():
            j += 1
        if j >= n or raw[j] not in "'\"":
            return None
        quote = raw[j : j + 3] if raw[j : j + 3] in ('"""', "'''") else raw[j]
        prefix = raw[i:j].lower()
        body_start = j + len(quote)
        body_end = _body_end(raw, body_start, quote, "f" in prefix)
        pieces.append(_Piece(i, body_end + len(quote), prefix, body_start, body_end))
        i = body_end + len(quote)
    return pieces


def _placeholder(expr_code: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]+", "_", expr_code).strip("_") or "expr"
    if name[0].isdigit():
        name = "_" + name
    return "${" + name[:40] + "}"


def _decode_fstring_body(raw: str, a: int, b: int, base: int, out: PlacedText, *, raw_mode: bool, placeholders: bool) -> None:
    """The text parts and fields of an f-string body ``raw[a:b]`` (``base``: file offset of ``raw[0]``)."""
    k = a
    text_start = a
    while k < b:
        c = raw[k]
        if c == "\\":
            if not raw_mode and raw.startswith("N{", k + 1):  # \N{NAME}: not a field
                close = raw.find("}", k + 3, b)
                k = close + 1 if close != -1 else b
                continue
            # a backslash never escapes a brace: ``\{x}`` is a backslash and a field
            k += 2 if k + 1 < b and raw[k + 1] not in "{}" else 1
            continue
        if c in "{}" and raw.startswith(c * 2, k):
            k += 2
            continue
        if c == "{":
            decode_body(raw[text_start:k], base + text_start, raw=raw_mode, fmt=True, into=out)
            end = min(_field_end(raw, k), b)
            field = raw[k:end]
            if placeholders:
                inner = field[1:-1].split("!")[0].split(":")[0].rstrip("=")
                out.unknown(_placeholder(inner.strip()), None)
            else:
                out.unknown(field, base + k)
            k = end
            text_start = k
            continue
        k += 1
    decode_body(raw[text_start:b], base + text_start, raw=raw_mode, fmt=True, into=out)


def _fill_template(s: PlacedText, style: str) -> PlacedText:
    """Replace ``{...}`` (``str.format``) or ``%s`` / ``%(name)d`` fields with shell placeholders."""
    value = s.value
    out = PlacedText(start=s.start, end=s.end)
    i = 0
    count = 0

    def keep(j: int) -> None:
        out.put(value[j], s.omap.to_file(j))

    def field_(name: str) -> None:
        nonlocal count
        out.unknown(_placeholder(name or f"arg{count}"), None)
        count += 1

    while i < len(value):
        c = value[i]
        if style == "brace" and c in "{}":
            if value.startswith(c * 2, i):
                keep(i)
                i += 2
                continue
            if c == "{":
                depth, j = 1, i + 1
                while j < len(value) and depth:
                    depth += {"{": 1, "}": -1}.get(value[j], 0)
                    j += 1
                field_(value[i + 1 : j - 1].split("!")[0].split(":")[0])
                i = j
                continue
        if style == "percent" and c == "%" and i + 1 < len(value):
            if value[i + 1] == "%":
                keep(i)
                i += 2
                continue
            j = i + 1
            name = ""
            if value[j] == "(":
                close = value.find(")", j)
                if close != -1:
                    name = value[j + 1 : close]
                    j = close + 1
            while j < len(value) and value[j] in "#0- +123456789.*hlL":
                j += 1
            if j < len(value):
                field_(name)
                i = j + 1
                continue
        keep(i)
        i += 1
    return out


# ---------------------------------------------------------------------------


class _Binding(Record):
    __slots__ = ("expr", "elements", "mutated", "branch", "argument", "added")

    expr: ast.expr | None
    elements: list[ast.expr] | None  # set for a list being built (ast.Starred for a splat)
    mutated: bool
    branch: tuple[int, ...]  # the branches and loops it was bound in (:attr:`_Extractor.branch`)
    argument: bool  # a parameter bound to a call's argument or its default (:meth:`_Extractor.call_through`)
    # of a dict: the keys set after it is built (``kw["quantization"] = q``, ``kw.update(x=1)``), with their
    # values, whether only under a condition (in a branch or loop it was not built in), and whether the
    # key is an item that can be deleted as one (of ``update(...)``; not the target of ``kw[k] = v``)
    added: list[tuple[ast.expr | ast.keyword, ast.expr, bool, bool]]

    def __init__(self, expr=None, elements=None, mutated=False, branch=(), argument=False, added=None):
        self.expr = expr
        self.elements = elements
        self.mutated = mutated
        self.branch = branch
        self.argument = argument
        self.added = [] if added is None else added


def _bound_name(expr: ast.AST) -> str | None:
    """The name a binding is kept under: ``x``, or ``self.x`` (an attribute of the instance a
    method runs on, kept in its class's scope)."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return f"self.{expr.attr}"
    return None


def _starred(value: ast.expr) -> ast.Starred:
    return ast.Starred(value=value, ctx=ast.Load())


def _reading(launch: Launch) -> tuple:
    """What a launch read through a call checks: its words and settings, where each is written."""
    return (launch.span.start, launch.entrypoint, tuple((t.value, t.span.start, t.conditional) for t in launch.args),
            tuple((st.name.value, st.name.span.start, st.value.value if st.value is not None else None,
                   st.value.span.start if st.value is not None else None) for st in launch.settings),
            tuple((e.name.value, e.value.value if e.value is not None else None) for e in launch.env))


def _unknown(el: ast.expr) -> ast.expr:
    """An element that stands where ``el`` is and names nothing (a name no code can bind): an unknown word."""
    inner = el.value if isinstance(el, ast.Starred) else el
    name = ast.copy_location(ast.Name(id=" caller's", ctx=ast.Load()), inner)
    name.end_lineno, name.end_col_offset = inner.end_lineno, inner.end_col_offset
    return _starred(name) if isinstance(el, ast.Starred) else name


# Fields that never hold a node that can launch, and nodes with no such field.
_NOT_NODES = frozenset({"ctx", "type_comment", "kind", "id", "attr", "arg", "op", "level", "simple", "conversion", "is_async", "type_ignores"})
_LEAVES = frozenset({ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal, ast.alias})
_FIELDS: dict[type, tuple[str, ...]] = {}


class _TooDeep(Exception):
    pass


# functions read through their calls inside one another, and calls of one function read through it
_MAX_CALLS = 2
_MAX_CALLS_READ = 64
_MAX_BODIES_READ = 256  # a file's calls read through in all (a generated module of thousands of calls)

# libcst's native parser overflowed the C stack on deep nesting; CPython's own parser
# refuses more than 200 nested brackets, but builds trees of a thousand nested unary
# operators.  The walk below is recursive: deeper trees are reported, not read.
_MAX_NESTING = 200


class _Extractor:
    def __init__(self, src: SourceFile, places: _Places) -> None:
        self.src = src
        self.places = places
        self.result = Extraction()
        self.imports: dict[str, str] = {}
        self.star_vllm = False
        self.scopes: list[dict[str, _Binding]] = [{}]
        self.launched: set[int] = set()  # bindings and expressions already read as a launch
        self.provisional: dict[int, list[Launch]] = {}  # commands that are only built, returned or handed on
        self.module_env: list[EnvVar] = []  # os.environ["VLLM_*"] set so far, in source order
        self.functions: list[tuple[str, str | None, str | None]] = []  # (name, **kwargs parameter, class)
        self.classes: list[str] = []
        self.class_scopes: list[dict[str, _Binding]] = []  # ``self.cmd = [...]`` in a method binds ``self.cmd`` there
        self.forwarders: dict[str, Launch] = {}  # class or function -> settings launch fed by its **kwargs
        self.word_notes: list[str] = []
        self.alive: list[object] = []
        self.conditional_nodes: set[int] = set()  # elements of one branch of ``[...] if c else [...]``, or appended in one
        # the branches and loops (``if``, ``for``, ``while``, ``except``, ``case`` bodies) the walk is in, by id
        self.branch: tuple[int, ...] = ()
        # module-level functions by name (:meth:`call_through`), the one whose definition is being walked, the
        # launches its definition gave on its own, and those read through a call (name -> calls read)
        self.defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.defining: str | None = None
        self.own: dict[str, list[Launch]] = {}
        self.calls_read: dict[str, int] = {}
        self.calling: list[str] = []
        self.readings: set[tuple] = set()  # what the calls read through gave (:func:`_reading`)
        self.through_budget = _MAX_BODIES_READ  # bodies read again for calls, in the whole file

    # -- positions -----------------------------------------------------------

    def span(self, node: ast.AST) -> Span:
        return self.places.span(node)

    def code(self, node: ast.AST) -> str:
        s = self.span(node)
        return self.src.text[s.start : s.end]

    # -- walking ---------------------------------------------------------------

    def walk(self, node: ast.AST, depth: int = 0) -> None:
        if depth > _MAX_NESTING:
            raise _TooDeep
        cls = type(node)
        handler = _HANDLERS.get(cls)
        if handler is not None and handler(self, node, depth) is False:
            return
        names = _FIELDS.get(cls)
        if names is None:
            names = _FIELDS[cls] = () if cls in _LEAVES else tuple(f for f in cls._fields if f not in _NOT_NODES)
        for name in names:
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.walk(item, depth + 1)
            elif isinstance(value, ast.AST):
                self.walk(value, depth + 1)

    # -- names -----------------------------------------------------------------

    def on_import(self, node: ast.Import, depth: int) -> None:
        for alias in node.names:
            if alias.asname is not None:
                self.imports[alias.asname] = alias.name
            else:
                root = alias.name.split(".", 1)[0]
                self.imports.setdefault(root, root)

    def on_import_from(self, node: ast.ImportFrom, depth: int) -> None:
        if node.level or node.module is None:
            return
        mod = node.module
        for alias in node.names:
            if alias.name == "*":
                if mod == "vllm" or mod.startswith("vllm."):
                    self.star_vllm = True
                continue
            self.imports[alias.asname or alias.name] = f"{mod}.{alias.name}"

    def qualname(self, expr: ast.AST) -> str | None:
        dotted = _dotted(expr)
        return None if dotted is None else self.qualify(dotted)

    def qualify(self, dotted: str) -> str:
        root, _, rest = dotted.partition(".")
        full = self.imports.get(root, root)
        return f"{full}.{rest}" if rest else full

    def settings_class(self, qn: str) -> str | None:
        last = qn.rsplit(".", 1)[-1]
        if last not in SETTINGS_CLASSES:
            return None
        if qn.startswith("vllm."):
            return last
        if qn == last and self.star_vllm:
            return last
        return None

    def lookup(self, name: str) -> _Binding | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    # -- scopes and bindings ------------------------------------------------

    def on_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, depth: int) -> bool:
        if len(self.scopes) == 1:
            self.imports.pop(node.name, None)  # a module-level def shadows an import of the same name
        # decorators and defaults belong to the outer scope; parameters shadow outer names
        for child in [*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.walk(child, depth + 1)
        a = node.args
        scope = {p.arg: _Binding() for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x is not None)]}
        self.scopes.append(scope)
        self.functions.append((node.name, a.kwarg.arg if a.kwarg is not None else None, self.classes[-1] if self.classes else None))
        defining = self.defining
        if len(self.scopes) == 2 and not self.classes and not self.calling and self.defs.get(node.name) is node:
            self.defining = node.name
        try:
            for stmt in node.body:
                self.walk(stmt, depth + 1)
            self.unused_commands(scope)
        finally:
            self.scopes.pop()
            self.functions.pop()
            self.defining = defining
        return False

    def on_class(self, node: ast.ClassDef, depth: int) -> bool:
        if len(self.scopes) == 1:
            self.imports.pop(node.name, None)  # from here on the name is this class, not an import
        for child in [*node.decorator_list, *node.bases, *node.keywords]:
            self.walk(child, depth + 1)
        scope: dict[str, _Binding] = {}
        self.scopes.append(scope)
        self.classes.append(node.name)
        self.class_scopes.append(scope)
        try:
            for stmt in node.body:
                self.walk(stmt, depth + 1)
            # ``CMD = [...]`` as a class attribute, or ``self.cmd = [...]`` in a method, run as ``self.cmd``
            self.unused_commands(scope)
        finally:
            self.scopes.pop()
            self.classes.pop()
            self.class_scopes.pop()
        return False

    def on_for(self, node: ast.For | ast.AsyncFor, depth: int) -> bool:
        self._bind(node.target, None)
        self.walk(node.target, depth + 1)
        self.walk(node.iter, depth + 1)
        self._in_branch(node, [*node.body, *node.orelse], depth)
        return False

    def on_if(self, node: ast.If | ast.While, depth: int) -> bool:
        self.walk(node.test, depth + 1)
        self._in_branch(node, [*node.body, *node.orelse], depth)
        return False

    def on_try(self, node: ast.Try, depth: int) -> bool:
        for stmt in node.body:
            self.walk(stmt, depth + 1)
        self._in_branch(node, [*node.handlers, *node.orelse], depth)
        for stmt in node.finalbody:
            self.walk(stmt, depth + 1)
        return False

    def on_match(self, node: ast.Match, depth: int) -> bool:
        self.walk(node.subject, depth + 1)
        self._in_branch(node, node.cases, depth)
        return False

    def _in_branch(self, node: ast.AST, children: list, depth: int) -> None:
        """Walk ``children``, statements that may run or not (or more than once), as in the branch ``node``."""
        outer = self.branch
        self.branch = (*outer, id(node))
        try:
            for child in children:
                self.walk(child, depth + 1)
        finally:
            self.branch = outer

    def _appended(self, b: _Binding, extra: list[ast.expr]) -> list[ast.expr]:
        """``extra``, appended to the list of ``b`` here: conditional when this is a branch or
        loop the list was not made in."""
        if self.branch != b.branch:
            self._mark_conditional(extra)
        return extra

    def _mark_conditional(self, elements) -> None:
        """``elements`` (list element expressions) are given only under a condition: their tokens are conditional."""
        self.conditional_nodes.update(id(el) for el in elements)
        self.alive.extend(elements)  # an id names its object only while the object lives

    def on_with_item(self, node: ast.withitem, depth: int) -> None:
        if node.optional_vars is not None:
            self._bind(node.optional_vars, None)

    def _bind(self, target: ast.expr, value: ast.expr | None) -> None:
        name = _bound_name(target)
        scope: dict[str, _Binding] | None = None
        if isinstance(target, ast.Name):
            scope = self.scopes[-1]
        elif name is not None and self.class_scopes and self.functions:
            scope = self.class_scopes[-1]  # ``self.x = ...`` in a method: kept in its class's scope
        if scope is not None:
            elements = self.list_elements(value) if value is not None else None
            scope[name] = _Binding(expr=value, elements=elements, branch=self.branch)  # type: ignore[index]
        elif isinstance(target, (ast.Tuple, ast.List)):
            for el in target.elts:
                self._bind(el.value if isinstance(el, ast.Starred) else el, None)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            b = self.lookup(target.value.id)
            if b is not None and not self._set_key(b, target.slice, value, item=False):
                b.mutated = True

    def on_assign(self, node: ast.Assign, depth: int) -> None:
        for t in node.targets:
            if isinstance(t, ast.Subscript) and self.qualname(t.value) == "os.environ":
                self.set_environ(t.slice, node.value)
                continue
            if isinstance(t, ast.Attribute) and self.qualname(t) == "sys.argv":
                # ``sys.argv = ["vllm", "serve", ...]`` before calling vLLM's ``main()``
                self.use(node.value, node.value, strings=False)
                continue
            self._bind(t, node.value)

    def on_return(self, node: ast.Return, depth: int) -> None:
        if node.value is not None:
            self.use(node.value, node.value)

    def set_environ(self, key: ast.expr, value: ast.expr | None) -> None:
        """``os.environ["VLLM_X"] = v`` (and setdefault, update, putenv): the environment of later launches."""
        name = self.string(key)
        if name is None or name.opaque or not kept_env(name.value):
            return
        self.module_env.append(EnvVar(self.str_token(name), self.setting_value(value)[0] if value is not None else None))

    def environ_call(self, node: ast.Call, qn: str) -> bool:
        if qn in ("os.environ.setdefault", "os.putenv") and len(node.args) == 2:
            self.set_environ(node.args[0], node.args[1])
            return True
        if qn == "os.environ.update":
            for arg in node.args:
                items = self.dict_items(arg)
                for k, v, _ in (items[0] if items else []):
                    if kept_env(k.value):
                        self.module_env.append(EnvVar(k, v))
            for kw in node.keywords:
                if kw.arg is not None and kept_env(kw.arg):
                    self.module_env.append(EnvVar(self.keyword_token(kw), self.setting_value(kw.value)[0]))
            return True
        return False

    def on_ann_assign(self, node: ast.AnnAssign, depth: int) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def on_aug_assign(self, node: ast.AugAssign, depth: int) -> None:
        name = _bound_name(node.target)
        if name is None:
            self._bind(node.target, None)
            return
        b = self.lookup(name)
        if b is None:
            return
        if b.elements is not None and isinstance(node.op, ast.Add):
            extra = self.list_elements(node.value)
            b.elements = b.elements + self._appended(b, extra if extra is not None else [_starred(node.value)])
        else:
            b.mutated = True
            b.expr = None
            b.elements = None

    def _mutation(self, node: ast.Call) -> None:
        func = node.func
        name = _bound_name(func.value) if isinstance(func, ast.Attribute) else None
        if name is None:
            return
        b = self.lookup(name)
        if b is None:
            return
        method = func.attr
        if b.elements is not None and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred):
            if method == "append":
                b.elements = b.elements + self._appended(b, [node.args[0]])
                return
            if method == "extend":
                extra = self.list_elements(node.args[0])
                b.elements = b.elements + self._appended(b, extra if extra is not None else [_starred(node.args[0])])
                return
        if method == "update" and self._updated(b, node):
            return
        if method in ("append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "__setitem__"):
            b.mutated = True

    def _set_key(self, b: _Binding, key: ast.expr | ast.keyword, value: ast.expr | None, *, item: bool = True) -> bool:
        """``kw["name"] = value`` on a dict built as a literal: a key it holds from here on."""
        if value is None or not isinstance(b.expr, (ast.Dict, ast.Call)):
            return False
        if not isinstance(key, ast.keyword):
            s = self.string(key)
            if s is None or s.opaque:
                return False
        if isinstance(b.expr, ast.Call) and self.qualname(b.expr.func) != "dict":
            return False
        b.added.append((key, value, self.branch != b.branch, item))
        self.alive.extend((key, value))
        return True

    def _updated(self, b: _Binding, node: ast.Call) -> bool:
        """``kw.update(name=value)`` or ``kw.update({"name": value})``: keys set as by ``kw["name"] = value``."""
        if len(node.args) > 1 or any(kw.arg is None for kw in node.keywords):
            return False
        if node.args:
            other = node.args[0]
            if not isinstance(other, ast.Dict) or any(k is None for k in other.keys):
                return False
            pairs = list(zip(other.keys, other.values))
        else:
            pairs = []
        pairs.extend((kw, kw.value) for kw in node.keywords)
        return all(self._set_key(b, k, v) for k, v in pairs)  # type: ignore[arg-type]

    def list_elements(self, expr: ast.expr | None, depth: int = 0) -> list[ast.expr] | None:
        """The elements of a list/tuple expression (following names and ``+``), or None."""
        if expr is None or depth > 20:
            return None
        if isinstance(expr, (ast.List, ast.Tuple)):
            return list(expr.elts)
        name = _bound_name(expr)
        if name is not None:
            b = self.lookup(name)
            if b is None:
                return None
            return list(b.elements) if b.elements is not None else None
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            left = self.list_elements(expr.left, depth + 1)
            if left is None:
                return None
            right = self.list_elements(expr.right, depth + 1)
            return left + (right if right is not None else [_starred(expr.right)])
        if isinstance(expr, ast.Call) and self.qualname(expr.func) in ("list", "tuple") and len(expr.args) == 1 and not expr.keywords:
            return self.list_elements(expr.args[0], depth + 1)
        if isinstance(expr, ast.IfExp):  # ``[...] if c else [...]``: both branches' elements, conditional
            body = self.list_elements(expr.body, depth + 1)
            orelse = self.list_elements(expr.orelse, depth + 1)
            if body is None or orelse is None:
                return None
            return self.conditional(body, orelse, expr)
        return None

    def conditional(self, body: list[ast.expr], orelse: list[ast.expr], expr: ast.IfExp) -> list[ast.expr]:
        """The elements of both branches when they give different options, else of the first."""
        def names(elements: list[ast.expr]) -> set[str]:
            out = set()
            for el in elements:
                s = self.string(el) if not isinstance(el, ast.Starred) else None
                if s is not None and s.value.startswith("-"):
                    out.add(s.value.split("=", 1)[0])
            return out

        first, second = names(body), names(orelse)
        if first & second:
            self.word_notes.append(f"conditional: only the first branch of `{self.code(expr)}` is read (both set the same options)")
            return body
        if body and orelse:
            self.word_notes.append(f"conditional options: both branches of `{self.code(expr)}` are listed")
        self._mark_conditional((*body, *orelse))
        return body + orelse

    def resolve(self, expr: ast.expr, depth: int = 0) -> ast.expr:
        """Follow a name to the expression last assigned to it in scope."""
        while (name := _bound_name(expr)) is not None and depth < 20:
            b = self.lookup(name)
            if b is None or b.expr is None or b.elements is not None or b.mutated:
                return expr
            expr = b.expr
            depth += 1
        return expr

    # -- strings --------------------------------------------------------------

    def string(self, node: ast.expr, *, placeholders: bool = False) -> PyString | None:
        """A string expression's value and places (bytes decoded as Latin-1), or None for others.

        ``placeholders``: f-string fields become ``${name}`` (for a shell script);
        otherwise they stay as written, marked opaque.
        """
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            fmt = False
        elif isinstance(node, ast.JoinedStr):
            fmt = True
        else:
            return None
        span = self.span(node)
        raw = self.src.text[span.start : span.end]
        out = PlacedText(start=span.start, end=span.end)
        pieces = _literal_pieces(raw)
        if pieces is None:
            pieces = []
        for piece in pieces:
            body_at = span.start + piece.body_start
            if out.anchor is None and piece.body_start == piece.body_end:
                out.anchor = body_at
            if "f" in piece.prefix:
                _decode_fstring_body(raw, piece.body_start, piece.body_end, span.start, out,
                                     raw_mode="r" in piece.prefix, placeholders=placeholders)
            else:
                decode_body(raw[piece.body_start : piece.body_end], body_at, raw="r" in piece.prefix,
                            is_bytes="b" in piece.prefix, into=out)
        if not fmt:
            expected = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value  # type: ignore[union-attr]
            if not pieces or out.value != expected:  # never place what is not proven: the value, no places
                out = PlacedText(start=span.start, end=span.end)
                out.lit(expected, None)
        return out

    @staticmethod
    def is_bytes(node: ast.expr) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, bytes)

    def str_token(self, s: PlacedText) -> Token:
        return s.token(self.src)

    def opaque_token(self, node: ast.AST, *, splat: bool = False) -> Token:
        span = self.span(node)
        text = self.src.text[span.start : span.end]
        return Token(text, span, None, ((0, len(text)),), splat)

    # -- argv -------------------------------------------------------------------

    def given(self, expr: ast.expr) -> ast.Constant | None:
        """``model`` or ``str(port)`` naming a parameter that a call read through gave a literal
        (:meth:`call_through`): that literal, where the call writes it."""
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "str" and self.lookup("str") is None \
                and len(expr.args) == 1 and not expr.keywords:
            inner = self.given(expr.args[0])
            return inner if inner is not None and isinstance(inner.value, (str, int)) and not isinstance(inner.value, bool) else None
        if not isinstance(expr, ast.Name):
            return None
        b = self.lookup(expr.id)
        if b is None or not b.argument or b.mutated or not isinstance(b.expr, ast.Constant):
            return None
        return b.expr if not isinstance(b.expr.value, bytes) else None

    def element_token(self, expr: ast.expr) -> Token:
        given = self.given(expr)
        if given is not None:
            return self.element_token(given)
        s = self.string(expr)
        if s is not None:
            return self.str_token(s)
        if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool):
            span = self.span(expr)
            text = self.src.text[span.start : span.end]
            return Token(text, span, span.start)
        qn = self.qualname(expr)
        if qn == "sys.executable":
            return Token("python", self.span(expr))
        if isinstance(expr, ast.Call) and self.qualname(expr.func) == "shutil.which" and expr.args:
            s = self.string(expr.args[0])
            if s is not None and not s.opaque:
                return Token(s.value, self.span(expr))
        return self.opaque_token(expr)

    def words(self, expr: ast.expr, depth: int = 0) -> tuple[list[Token], list[ast.expr | None]] | None:
        """argv tokens of a list expression (and the expression behind each token)."""
        elements = self.list_elements(expr)
        if elements is None:
            target = self.resolve(expr)
            # "vllm serve x --y 1".split(), cmd.split() with cmd bound to such a string, .split(" ")
            if (isinstance(target, ast.Call) and isinstance(target.func, ast.Attribute)
                    and target.func.attr == "split" and not target.keywords and _blank_split(target.args)):
                text = self.resolve(target.func.value)
                s = self.string(text)
                if s is not None and not self.is_bytes(text) and (not target.args or _single_spaced(s.value)):
                    toks = self.split_words(s)
                    return toks, [None] * len(toks)
            return None
        tokens: list[Token] = []
        nodes: list[ast.expr | None] = []
        for el in elements:
            if isinstance(el, ast.Starred):
                inner = self.words(el.value, depth + 1) if depth < 10 else None
                if inner is not None:
                    tokens.extend(inner[0])
                    nodes.extend(inner[1])
                else:
                    tokens.append(self.opaque_token(el.value, splat=True))
                    nodes.append(None)
            elif isinstance(el, ast.IfExp):
                for tok, node in self.conditional_element(el):
                    tokens.append(tok)
                    nodes.append(node)
            else:
                tok = self.element_token(el)
                tokens.append(replace(tok, conditional=True) if id(el) in self.conditional_nodes else tok)
                nodes.append(el)
        return tokens, nodes

    def conditional_element(self, el: ast.IfExp) -> list[tuple[Token, ast.expr | None]]:
        """``"--a" if c else "--b"``: both options (conditional); a conditional value is one unknown word."""
        branches = []
        for branch in (el.body, el.orelse):
            s = self.string(branch)
            if s is None and not (isinstance(branch, ast.Constant) and branch.value is None):
                return [(self.opaque_token(el), None)]
            branches.append((branch, s))
        options = [(b, s) for b, s in branches if s is not None and s.value.startswith("-") and not s.opaque]
        empty = [b for b, s in branches if s is None or s.value == ""]
        if len(options) + len(empty) != 2 or not options:
            return [(self.opaque_token(el), None)]
        if len(options) == 2 and options[0][1].value.split("=", 1)[0] == options[1][1].value.split("=", 1)[0]:
            self.word_notes.append(f"conditional: only the first branch of `{self.code(el)}` is read (both set the same option)")
            options = options[:1]
        elif len(options) == 2:
            self.word_notes.append(f"conditional options: both branches of `{self.code(el)}` are listed")
        else:
            self.word_notes.append(f"conditional option: `{options[0][1].value}` (from `{self.code(el)}`)")
        return [(replace(self.str_token(s), conditional=True), b) for b, s in options]

    def split_words(self, s: PlacedText) -> list[Token]:
        out = []
        value = s.value
        for m in re.finditer(r"\S+", value):
            a, b = m.span()
            span, exact = s.sub_span(a, b, self.src)
            if not exact:
                first = s.omap.nearest(a)
                span = Span(first, max(first, s.omap.span_end(b)))
            opaque = tuple((max(x, a) - a, min(y, b) - a) for x, y in s.merged_opaque() if x < b and a < y)
            out.append(Token(m.group(), span, span.start if exact else None, opaque))
        return out

    def argv_launch(self, call: ast.AST, tokens: list[Token], nodes: list[ast.expr | None], env: list[EnvVar], *,
                    image_entrypoint: bool = False, image: Token | None = None, evidence: str = "", strong: bool = True,
                    provisional: int | None = None, local: bool = True) -> bool:
        """A launch from argv words, or from the script of ``bash -c SCRIPT``; whether one was found."""
        notes, self.word_notes = self.word_notes, []
        m = match_words(tokens, image_entrypoint=image_entrypoint)
        if m is None:
            # ["bash", "-c", "vllm serve ..."]
            i = shell_script_index(tokens)
            if i is not None and nodes[i] is not None:
                return self.shell_script(nodes[i], env, provisional=provisional)  # type: ignore[arg-type]
            return False
        envs = list(env)
        for name, value in m.env:
            if kept_env(name.value):
                envs.append(EnvVar(name, value))
        if not evidence:
            evidence = f"`{' '.join(t.value for t in m.entry)}` command in a Python argv"
        self.add_launch(Launch(
            path=self.src.path, kind="python", span=self.span(call), program=m.program, entrypoint=m.entrypoint,
            style="argv", entry=m.entry, args=m.args, env=envs, image=m.image or image, group=self.src.path,
            notes=notes, evidence=evidence, strong=strong,
        ), provisional, local=local)
        return True

    def add_launch(self, launch: Launch, provisional: int | None = None, *, local: bool = True) -> None:
        """``local``: the launch runs in this process or its child, so it inherits ``os.environ``."""
        if self.module_env and local:
            launch.env = [*self.module_env, *launch.env]
        if self.defining is not None:
            self.own.setdefault(self.defining, []).append(launch)
        if provisional is None:
            self.result.launches.append(launch)
        else:
            self.provisional.setdefault(provisional, []).append(launch)

    # -- commands that are built, returned or handed to a runner vLLM-lint does not know

    def key(self, expr: ast.expr) -> int:
        """What a use of ``expr`` reads: the binding of a name, the list of a join, else the expression."""
        argv = self.quoted_join(expr)
        if argv is not None:
            expr = argv
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "join" and len(expr.args) == 1:
            expr = expr.args[0]
            if isinstance(expr, ast.Call) and self.qualname(expr.func) == "map" and len(expr.args) == 2:
                expr = expr.args[1]
        obj: object = expr
        name = _bound_name(expr)
        if name is not None:
            b = self.lookup(name)
            if b is not None:
                obj = b
        self.alive.append(obj)  # an id names its object only while the object lives
        return id(obj)

    def use(self, expr: ast.expr, at: ast.AST, *, strings: bool = True) -> None:
        """An argv list or command string whose head starts vLLM, wherever it goes: a launch."""
        if not self.mentions(expr):
            return
        k = self.key(expr)
        if k in self.launched or k in self.provisional:
            return
        argv = self.quoted_join(expr)
        elements = self.list_elements(argv if argv is not None else expr)
        if elements is not None:
            if self.vllmish(elements):
                w = self.words(argv if argv is not None else expr)
                if w is not None:
                    self.argv_launch(at, w[0], w[1], [], provisional=k)
            self.word_notes = []
            return
        if not strings:
            return
        s = self.script(expr)
        if s is not None and _command_head(s.value):
            self.run_script(s, [], provisional=k)

    def hot(self, node: ast.AST) -> bool:
        """Whether a line of ``node`` names vLLM or LMCache."""
        lines = self.places.hot
        i = bisect.bisect_left(lines, node.lineno)  # type: ignore[attr-defined]
        return i < len(lines) and lines[i] <= node.end_lineno  # type: ignore[attr-defined]

    def mentions(self, expr: ast.expr, depth: int = 0) -> bool:
        """Cheap test before reading a use: vLLM is named on its lines or where its names were bound."""
        if self.hot(expr):
            return True
        if depth > 4:
            return False
        nodes = [expr]
        if isinstance(expr, ast.Call):
            nodes.extend(a.value if isinstance(a, ast.Starred) else a for a in expr.args)
            if isinstance(expr.func, ast.Attribute):
                nodes.append(expr.func.value)
        for node in nodes:
            name = _bound_name(node)
            if name is not None:
                b = self.lookup(name)
                if b is None:
                    continue
                if b.elements is not None and self.vllmish(b.elements):
                    return True
                if b.expr is not None and self.mentions(b.expr, depth + 1):
                    return True
            elif node is not expr and isinstance(node, ast.Call) and self.mentions(node, depth + 1):
                return True
        return False

    def vllmish(self, elements: list[ast.expr]) -> bool:
        """Cheap test before reading words: a literal among the first elements names vLLM or LMCache."""
        for el in elements[:30]:
            if isinstance(el, ast.Constant) and isinstance(el.value, str):
                low = el.value.lower()
                if "vllm" in low or "lmcache" in low:
                    return True
        return False

    def unused_commands(self, scope: dict[str, _Binding]) -> None:
        """argv lists bound in a scope and never handed to anything vllm-lint reads."""
        for b in scope.values():
            if b.elements is not None and b.expr is not None and id(b) not in self.launched and id(b) not in self.provisional:
                self.alive.append(b)
                if self.vllmish(b.elements):
                    w = self.words(ast.List(elts=b.elements, ctx=ast.Load()))
                    if w is not None:
                        self.argv_launch(b.expr, w[0], w[1], [], provisional=id(b))
                    self.word_notes = []

    def finish(self) -> None:
        self.unused_commands(self.scopes[0])
        for k, launches in self.provisional.items():
            if k not in self.launched:
                self.result.launches.extend(launches)
        # a function read through its calls: its body read on its own (parameters unknown) gives way to them
        replaced = {id(launch) for name in self.calls_read for launch in self.own.get(name, ())}
        if replaced:
            self.result.launches = [launch for launch in self.result.launches if id(launch) not in replaced]
        self.result.launches.sort(key=lambda launch: launch.span.start)

    # -- module-level functions read through their calls ------------------------

    def call_through(self, node: ast.Call, depth: int) -> bool:
        """``start_server("Qwen/Qwen3-8B", extra_args=["--max-model-len", "8192"])`` calling a
        function of the module whose body starts vLLM: the body is read again with the call's
        arguments as its parameters, so the options written at the call are checked (and fixed)
        there.  Whether the call gave a launch."""
        func = node.func
        if not isinstance(func, ast.Name):
            return False
        fdef = self.defs.get(func.id)
        if (fdef is None or func.id in self.imports or self.lookup(func.id) is not None or func.id in self.calling
                or func.id == self.defining or len(self.calling) >= _MAX_CALLS or self.calls_read.get(func.id, 0) >= _MAX_CALLS_READ or not (func.id in self.own or self.hot(fdef))):
            return False
        if self.through_budget <= 0:
            return False
        scope = self.arguments(fdef, node)
        if scope is None or not any(b.argument for b in scope.values()):
            return False  # a call that does not fit, or gives nothing the body's own reading lacks
        self.through_budget -= 1
        saved = (self.result, self.launched, self.provisional, self.module_env, self.forwarders, self.scopes, self.branch,
                 self.defining, self.word_notes)
        self.result, self.launched, self.provisional = Extraction(), set(), {}
        self.module_env, self.forwarders, self.scopes = list(self.module_env), dict(self.forwarders), [self.scopes[0], scope]
        self.branch, self.defining, self.word_notes = (), None, []
        self.calling.append(func.id)
        a = fdef.args
        self.functions.append((fdef.name, a.kwarg.arg if a.kwarg is not None else None, None))
        try:
            for stmt in fdef.body:
                self.walk(stmt, depth + 1)
            self.unused_commands(scope)
            launches = self.result.launches
            for k, provisional in self.provisional.items():
                if k not in self.launched:
                    launches.extend(provisional)
        finally:
            self.functions.pop()
            self.calling.pop()
            (self.result, self.launched, self.provisional, self.module_env, self.forwarders, self.scopes, self.branch,
             self.defining, self.word_notes) = saved
        if not launches:
            return False
        self.calls_read[func.id] = self.calls_read.get(func.id, 0) + 1
        line = node.lineno
        for launch in launches:
            reading = _reading(launch)
            if reading in self.readings:  # ``start()`` called again as before: nothing new to check
                continue
            self.readings.add(reading)
            launch.notes.append(f"read through the call of `{func.id}` on line {line}: its arguments are the function's parameters")
            if self.defining is not None:
                self.own.setdefault(self.defining, []).append(launch)
            self.result.launches.append(launch)
        for arg in _call_arguments(node):  # what the call hands on is read through it, not run by it
            self.launched.add(self.key(arg.value if isinstance(arg, (ast.Starred, ast.keyword)) else arg))
        return True

    def arguments(self, fdef: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call) -> dict[str, _Binding] | None:
        """The function's parameters bound to the call's arguments (read in the caller's scope)
        and to their defaults; None when the call does not fit the function."""
        a = fdef.args
        params = [*a.posonlyargs, *a.args]
        names = {p.arg for p in [*params, *a.kwonlyargs]}
        defaults: dict[str, ast.expr] = {p.arg: d for p, d in zip(params[len(params) - len(a.defaults):], a.defaults)}
        defaults.update((p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None)
        given: dict[str, ast.expr | None] = {}
        extra: list[ast.expr] = []
        unknown_rest = False  # a ``*xs`` or ``**kw`` at the call: the parameters it may fill are unknown
        for i, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                unknown_rest = True
                break
            if i < len(params):
                given[params[i].arg] = arg
            elif a.vararg is not None:
                extra.append(arg)
            else:
                return None
        for kw in call.keywords:
            if kw.arg is None:
                unknown_rest = True
            elif kw.arg in names and kw.arg not in {p.arg for p in a.posonlyargs}:
                given[kw.arg] = kw.value
            elif a.kwarg is None:
                return None
        scope: dict[str, _Binding] = {}
        for p in [*params, *a.kwonlyargs]:
            if p.arg in given:
                scope[p.arg] = self.argument(given[p.arg], names)
            elif p.arg in defaults and not unknown_rest:
                scope[p.arg] = self.argument(defaults[p.arg], names, caller=False)
            else:
                scope[p.arg] = _Binding()
        if a.vararg is not None:
            scope[a.vararg.arg] = _Binding() if unknown_rest else self.argument(ast.Tuple(elts=extra, ctx=ast.Load()), names)
        if a.kwarg is not None:
            scope[a.kwarg.arg] = _Binding()
        return scope

    def argument(self, expr: ast.expr | None, params: set[str], *, caller: bool = True) -> _Binding:
        """A parameter's binding to ``expr``: a list's elements, or the expression, as the caller
        reads them.  What the caller's own names hold is unknown inside the function (its scope
        is not the caller's), so an element naming one is an unknown word there."""
        if expr is None:
            return _Binding()
        elements = self.list_elements(expr) if caller else None
        if elements is None and not caller and isinstance(expr, (ast.List, ast.Tuple)):
            elements = list(expr.elts)
        if elements is not None:
            kept = [el if self.same_inside(el, params) else _unknown(el) for el in elements]
            self.alive.extend(kept)
            for el, k in zip(elements, kept):
                if id(el) in self.conditional_nodes and k is not el:
                    self._mark_conditional([k])
            return _Binding(expr=ast.List(elts=kept, ctx=ast.Load()), elements=kept, argument=True)
        value = self.resolve(expr) if caller else expr
        if isinstance(value, ast.Name) or not self.same_inside(value, params):
            return _Binding()
        return _Binding(expr=value, argument=isinstance(value, (ast.Constant, ast.JoinedStr)))

    def same_inside(self, expr: ast.expr, params: set[str]) -> bool:
        """Whether every name ``expr`` reads means inside the function what it means here: a
        module-level name (or builtin) that no parameter shadows."""
        for n in ast.walk(expr.value if isinstance(expr, ast.Starred) else expr):
            if isinstance(n, ast.Name) and (n.id in params or self.lookup(n.id) is not self.scopes[0].get(n.id)):
                return False
        return True

    def env_vars(self, call: ast.Call) -> list[EnvVar]:
        value = _keyword(call, "env")
        if value is None:
            return []
        items = self.dict_items(value)
        if items is None:
            return []
        return [EnvVar(k, v) for k, v, _ in items[0] if kept_env(k.value)]

    # -- shell ---------------------------------------------------------------------

    def script(self, expr: ast.expr, depth: int = 0) -> PlacedText | None:
        expr = self.resolve(expr)
        s = self.string(expr, placeholders=True)
        if s is not None:
            return None if self.is_bytes(expr) else s
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add) and depth < 10:
            left = self.script(expr.left, depth + 1)
            right = self.script(expr.right, depth + 1)
            if left is None and right is None:
                return None
            span = self.span(expr)
            out = PlacedText(start=span.start, end=span.end)
            out.extend(left if left is not None else self._script_placeholder(expr.left))
            out.extend(right if right is not None else self._script_placeholder(expr.right))
            return out
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "join" and len(expr.args) == 1 and not expr.keywords:
            return self.joined(expr)
        # "vllm serve {} --port {}".format(m, p) and "vllm serve %s" % m
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "format":
            s = self.string(expr.func.value)
            if s is not None and not self.is_bytes(expr.func.value) and not s.opaque:
                return _fill_template(s, "brace")
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
            s = self.string(expr.left)
            if s is not None and not self.is_bytes(expr.left) and not s.opaque:
                return _fill_template(s, "percent")
        return None

    def _script_placeholder(self, expr: ast.expr) -> PlacedText:
        span = self.span(expr)
        out = PlacedText(start=span.start, end=span.end)
        out.unknown(_placeholder(self.code(expr)), None)
        return out

    def quoted_join(self, expr: ast.expr) -> ast.expr | None:
        """The argv list behind ``shlex.join(x)``, ``" ".join(shlex.quote(a) for a in x)``, ``" ".join(map(shlex.quote, x))``."""
        if not isinstance(expr, ast.Call) or len(expr.args) != 1 or expr.keywords:
            return None
        if self.qualname(expr.func) == "shlex.join":
            return expr.args[0]
        if not (isinstance(expr.func, ast.Attribute) and expr.func.attr == "join"):
            return None
        arg = expr.args[0]
        if isinstance(arg, ast.Call) and self.qualname(arg.func) == "map" and len(arg.args) == 2 and self.qualname(arg.args[0]) == "shlex.quote":
            return arg.args[1]
        if isinstance(arg, (ast.GeneratorExp, ast.ListComp)) and len(arg.generators) == 1:
            gen = arg.generators[0]
            elt = arg.elt
            if (not gen.ifs and isinstance(gen.target, ast.Name) and isinstance(elt, ast.Call) and self.qualname(elt.func) == "shlex.quote"
                    and len(elt.args) == 1 and isinstance(elt.args[0], ast.Name) and elt.args[0].id == gen.target.id):
                return gen.iter
        return None

    def joined(self, expr: ast.Call) -> PlacedText | None:
        """``" ".join(cmd)``: the script a shell reads, each element placed (its words are shell words)."""
        sep = self.string(expr.func.value) if isinstance(expr.func, ast.Attribute) else None
        if sep is None or not sep.value or sep.value.strip():
            return None
        arg = expr.args[0]
        if isinstance(arg, ast.Call) and self.qualname(arg.func) == "map" and len(arg.args) == 2 and self.qualname(arg.args[0]) == "str":
            arg = arg.args[1]
        elements = self.list_elements(arg)
        if elements is None:
            return None
        span = self.span(expr)
        out = PlacedText(start=span.start, end=span.end)
        for i, el in enumerate(elements):
            if i:
                out.lit(sep.value, None)
            value = el.value if isinstance(el, ast.Starred) else el
            s = None if isinstance(el, ast.Starred) or self.is_bytes(el) else self.string(el, placeholders=True)
            if s is not None:
                out.extend(s)
            elif isinstance(value, ast.Constant) and isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
                vspan = self.span(value)
                out.lit(self.src.text[vspan.start : vspan.end], vspan.start)
            else:
                out.extend(self._script_placeholder(value))
        return out

    def shell_script(self, expr: ast.expr, env: list[EnvVar], *, provisional: int | None = None) -> bool:
        argv = self.quoted_join(self.resolve(expr))
        if argv is not None:  # every element quoted for the shell: the words are the argv
            w = self.words(argv)
            return w is not None and self.argv_launch(expr, w[0], w[1], env, provisional=provisional)
        s = self.script(expr)
        if s is None:
            return False
        return self.run_script(s, env, provisional=provisional)

    def run_script(self, s: PlacedText, env: list[EnvVar], *, provisional: int | None = None) -> bool:
        extraction = embedded_shell.extract(self.src, s.value, s.offset_map(), kind="python", group=self.src.path)
        for launch in extraction.launches:
            launch.env.extend(env)
            if self.module_env:
                launch.env = [*self.module_env, *launch.env]
            if not launch.evidence:
                launch.evidence = f"`{' '.join(t.value for t in launch.entry)}` command in a Python string"
        if provisional is None:
            self.result.extend(extraction)
        else:
            self.provisional.setdefault(provisional, []).extend(extraction.launches)
            self.result.problems.extend(extraction.problems)
            self.result.pins.extend(extraction.pins)
        return bool(extraction.launches)

    # -- settings ---------------------------------------------------------------

    def setting_value(self, expr: ast.expr) -> tuple[Token, str]:
        given = self.given(expr) if isinstance(expr, ast.Name) else None
        if given is not None:
            return self.setting_value(given)
        span = self.span(expr)
        text = self.src.text[span.start : span.end]
        s = self.string(expr)
        if s is not None and not s.opaque and not self.is_bytes(expr):
            return self.str_token(s), "str"
        number = expr.operand if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)) else expr
        if isinstance(number, ast.Constant) and type(number.value) in (int, float):
            if type(number.value) is float:
                return Token(text, span, span.start), "float"
            value = str(ast.literal_eval(expr))
            return Token(value, span, span.start if value == text else None), "int"
        if isinstance(expr, ast.Constant) and (expr.value is None or isinstance(expr.value, bool)):
            return Token(text, span, span.start), ("null" if expr.value is None else "bool")
        if isinstance(expr, (ast.List, ast.Tuple, ast.Dict)):
            try:
                value = json.dumps(ast.literal_eval(expr), separators=(",", ":"), ensure_ascii=False)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                pass  # not a literal (names, calls), or not JSON (sets, bytes, complex numbers)
            else:
                return Token(value, span), "json"
        return Token(text, span, None, ((0, len(text)),)), "opaque"

    def dict_items(self, expr: ast.expr) -> tuple[list[tuple[Token, Token, str]], list[str]] | None:
        """Keys and values of a dict literal or ``dict(k=v)`` (following a name), with notes."""
        notes: list[str] = []
        if isinstance(expr, ast.Name):
            b = self.lookup(expr.id)
            if b is None or b.expr is None:
                return None
            if b.mutated:
                notes.append(f"{expr.id} is changed after it is built; only its literal keys are known")
            found = self.dict_items(b.expr)
            if found is None:
                return None
            return self.added_items(b, expr.id, found[0], [*notes, *found[1]])
        items: list[tuple[Token, Token, str]] = []
        if isinstance(expr, ast.Dict):
            for key_node, value_node in zip(expr.keys, expr.values):
                if key_node is None:  # **other
                    self._merge(value_node, f"**{self.code(value_node)}", items, notes)
                    continue
                key = self.string(key_node)
                if key is None or key.opaque or self.is_bytes(key_node):
                    notes.append(f"key {self.code(key_node)} not resolved")
                    continue
                value, kind = self.setting_value(value_node)
                items.append((self.str_token(key), value, kind))
            return items, notes
        if isinstance(expr, ast.Call) and self.qualname(expr.func) == "dict":
            for arg in expr.args:
                self._merge(arg.value if isinstance(arg, ast.Starred) else arg, self.code(arg), items, notes)
            for kw in expr.keywords:
                if kw.arg is None:
                    self._merge(kw.value, f"**{self.code(kw.value)}", items, notes)
                    continue
                value, kind = self.setting_value(kw.value)
                items.append((self.keyword_token(kw), value, kind))
            return items, notes
        return None

    def added_items(self, b: _Binding, name: str, items: list[tuple[Token, Token, str]], notes: list[str]
                    ) -> tuple[list[tuple[Token, Token, str]], list[str]]:
        """The items of a dict with the keys set after it was built: a key set again replaces its
        value, unless only under a condition (its first value is kept, with a note); a new key set
        under a condition is a conditional setting."""
        for key_node, value_node, conditional, item in b.added:
            key = self.keyword_token(key_node) if isinstance(key_node, ast.keyword) else self.str_token(self.string(key_node))  # type: ignore[arg-type]
            if not item:  # ``kw["name"] = v``: a statement, not an item a fix can rename or delete in place
                key = replace(key, value_start=None)
            value, kind = self.setting_value(value_node)
            at = next((i for i, (k, _v, _kind) in enumerate(items) if k.value == key.value), None)
            if at is not None and conditional:
                notes.append(f"{name}[{key.value!r}] may be set again under a condition ({self.code(value_node)})")
            elif at is not None:
                items[at] = (items[at][0], value, kind)
            elif conditional:
                items.append((replace(key, conditional=True), replace(value, conditional=True), kind))
            else:
                items.append((key, value, kind))
        return items, notes

    def _merge(self, expr: ast.expr, label: str, items: list[tuple[Token, Token, str]], notes: list[str]) -> None:
        """The items of a mapping spread into another (``**other``, ``dict(other)``); ``os.environ`` adds none of note."""
        inner = self.dict_items(expr)
        if inner is None:
            if self.qualname(expr) != "os.environ":
                notes.append(f"{label} not resolved")
            return
        items.extend(inner[0])
        notes.extend(inner[1])

    def keyword_token(self, kw: ast.keyword) -> Token:
        """The keyword name of ``name=value`` (ast places the keyword node at its name)."""
        start = self.span(kw).start
        return Token(kw.arg or "", Span(start, start + len(kw.arg or "")), start)

    def call_settings(self, call: ast.Call) -> tuple[list[Setting], list[str], str | None]:
        """Settings from a call's arguments (positional model first), its notes, and the ``**kwargs`` it forwards."""
        settings: list[Setting] = []
        notes: list[str] = []
        forwarded = None
        positional = 0
        for item in _call_arguments(call):
            if isinstance(item, ast.keyword):
                if item.arg is not None:
                    value, kind = self.setting_value(item.value)
                    settings.append(Setting(self.keyword_token(item), value, kind))  # type: ignore[arg-type]
                    continue
                items = self.dict_items(item.value)
                if items is None:
                    notes.append(f"**{self.code(item.value)}: keyword arguments not known statically")
                    if isinstance(item.value, ast.Name) and self.functions and self.functions[-1][1] == item.value.id:
                        forwarded = item.value.id
                else:
                    for name, value, kind in items[0]:
                        settings.append(Setting(name, value, kind))  # type: ignore[arg-type]
                    notes.extend(items[1])
            elif isinstance(item, ast.Starred):
                notes.append(f"*{self.code(item.value)}: positional arguments not known statically")
                positional = -1_000
            else:
                if positional == 0:
                    value, kind = self.setting_value(item)
                    # the model, given positionally: no keyword to edit
                    settings.append(Setting(Token("model", value.span, None), value, kind))  # type: ignore[arg-type]
                else:
                    notes.append(f"positional argument {self.code(item)} not mapped to a setting")
                positional += 1
        return settings, notes, forwarded

    def settings_launch(self, call: ast.Call, entrypoint: str, qn: str) -> None:
        settings, notes, forwarded = self.call_settings(call)
        launch = Launch(
            path=self.src.path, kind="python", span=self.span(call), entrypoint=entrypoint, style="settings",
            entry=[Token(self.code(call.func), self.span(call.func), self.span(call.func).start)],
            settings=settings, group=self.src.path, notes=notes,
            evidence=f"{entrypoint} imported from {qn.rsplit('.', 1)[0] if '.' in qn else 'vllm (import *)'}", strong=True,
        )
        self.add_launch(launch)
        if forwarded is not None:  # ``def __init__(self, **kw): AsyncEngineArgs(**kw)``: the keywords come from .bind(...)
            name, _kw, cls = self.functions[-1]
            self.forwarders[cls if name == "__init__" and cls else name] = launch

    def bind_launch(self, call: ast.Call, owner: str, inner: Launch) -> None:
        """``Deployment.bind(model=..., max_model_len=...)`` (Ray Serve): the keywords of the settings launch inside it."""
        settings, notes, _ = self.call_settings(call)
        # positional arguments of bind() go to __init__'s own parameters, not to the forwarded keywords
        settings = [s for s in settings if not (s.value is not None and s.name.span == s.value.span and not s.name.editable)]
        kept = [n for n in inner.notes if not n.startswith("**")]
        if inner in self.result.launches:
            self.result.launches.remove(inner)
        self.add_launch(Launch(
            path=self.src.path, kind="python", span=self.span(call), entrypoint=inner.entrypoint, style="settings",
            entry=list(inner.entry), settings=[*inner.settings, *settings], group=self.src.path, notes=[*kept, *notes],
            evidence=f"{inner.evidence}, given the keywords of {owner}.bind(...)", strong=True,
        ), local=False)

    def llm_config_launch(self, call: ast.Call) -> None:
        """Ray Serve LLM: ``LLMConfig(model_loading_config=..., engine_kwargs=dict(...), runtime_env=...)``."""
        settings: list[Setting] = []
        notes: list[str] = []
        loading = _keyword(call, "model_loading_config")
        if loading is not None:
            model = self.mapping_get(loading, "model_source") or self.mapping_get(loading, "model_id")
            if model is not None:
                value, kind = self.setting_value(model)
                settings.append(Setting(Token("model", value.span, None), value, kind))  # type: ignore[arg-type]
        engine = _keyword(call, "engine_kwargs")
        if engine is not None:
            items = self.dict_items(engine)
            if items is None:
                notes.append(f"engine_kwargs={self.code(engine)} not known statically")
            else:
                settings.extend(Setting(k, v, kind) for k, v, kind in items[0])  # type: ignore[arg-type]
                notes.extend(items[1])
        env: list[EnvVar] = []
        runtime = _keyword(call, "runtime_env")
        env_vars = self.mapping_get(runtime, "env_vars") if runtime is not None else None
        if env_vars is not None:
            items = self.dict_items(env_vars)
            env = [EnvVar(k, v) for k, v, _ in (items[0] if items else []) if kept_env(k.value)]
        self.add_launch(Launch(
            path=self.src.path, kind="python", span=self.span(call), entrypoint="LLMConfig", style="settings",
            entry=[Token(self.code(call.func), self.span(call.func), self.span(call.func).start)],
            settings=settings, env=env, group=self.src.path, notes=notes,
            evidence="LLMConfig imported from ray.serve.llm (engine_kwargs are vLLM's engine arguments)", strong=True,
        ), local=False)

    def wrapper_launch(self, call: ast.Call, qn: str) -> None:
        """LangChain's ``VLLM(...)`` and LlamaIndex's ``Vllm(...)`` build ``vllm.LLM`` in the process:
        their ``model``, ``tensor_parallel_size``, ``trust_remote_code``, ``dtype`` and
        ``download_dir`` are passed to it as they are, with the entries of ``vllm_kwargs``; their
        other fields (``max_new_tokens``, ``temperature``) are sampling parameters, not vLLM's
        engine arguments.  The wrapper's own field names are not edited (a field vLLM renamed
        is still the wrapper's); the entries of ``vllm_kwargs`` are vLLM's own keywords."""
        settings: list[Setting] = []
        notes: list[str] = []
        for kw in call.keywords:
            if kw.arg in WRAPPER_ENGINE_FIELDS:
                value, kind = self.setting_value(kw.value)
                name = self.keyword_token(kw)
                settings.append(Setting(Token(name.value, name.span, None), value, kind))  # type: ignore[arg-type]
            elif kw.arg == "vllm_kwargs":
                items = self.dict_items(kw.value)
                if items is None:
                    notes.append(f"vllm_kwargs={self.code(kw.value)} not known statically")
                else:
                    settings.extend(Setting(k, v, kind) for k, v, kind in items[0])  # type: ignore[arg-type]
                    notes.extend(items[1])
            elif kw.arg is None:
                notes.append(f"**{self.code(kw.value)}: keyword arguments not known statically")
        cls = qn.rsplit(".", 1)[-1]
        self.add_launch(Launch(
            path=self.src.path, kind="python", span=self.span(call), entrypoint=cls, style="settings",
            entry=[Token(self.code(call.func), self.span(call.func), self.span(call.func).start)],
            settings=settings, group=self.src.path, notes=notes,
            evidence=f"{cls} imported from {qn.rsplit('.', 1)[0]}, which builds vllm.LLM from its engine fields and vllm_kwargs",
            strong=True,
        ), local=False)

    def mapping_get(self, expr: ast.expr, key: str) -> ast.expr | None:
        """The value of ``key`` in a dict literal, ``dict(...)`` or any call's keywords (following a name)."""
        expr = self.resolve(expr)
        if isinstance(expr, ast.Dict):
            for k, v in zip(expr.keys, expr.values):
                if isinstance(k, ast.Constant) and k.value == key:
                    return v
            return None
        if isinstance(expr, ast.Call):
            return _keyword(expr, key)
        return None

    # -- containers -----------------------------------------------------------------

    def container_launch(self, call: ast.Call, entry: ast.expr | None, argv: ast.expr | None, image_expr: ast.expr | None,
                         env: list[EnvVar], *, runtime: str = "") -> None:
        """A container started from Python: ``entry`` replaces the image's entrypoint, ``argv`` follows it.

        docker-py ``containers.run(image, command, entrypoint=...)``; Kubernetes and KServe
        client models (``V1Container(command=..., args=...)``, ``V1beta1ModelSpec(args=...)``).
        """
        entry_w = self.command_words(entry) if entry is not None else ([], [])
        argv_w = self.command_words(argv) if argv is not None else ([], [])
        if entry_w is None or argv_w is None:
            return
        image = self.element_token(image_expr) if image_expr is not None else None
        tokens, nodes = [*entry_w[0], *argv_w[0]], [*entry_w[1], *argv_w[1]]
        if entry is None and image is not None and not image.is_opaque and is_vllm_image(image.value):
            self.argv_launch(call, argv_w[0], argv_w[1], env, image_entrypoint=True, image=image,
                             evidence=f"image {image.value} whose entrypoint takes the arguments", local=False)
            return
        if entry is None and runtime and argv is not None:
            if match_words(argv_w[0]) is None:  # args handed to the runtime's vLLM server
                self.argv_launch(call, argv_w[0], argv_w[1], env, image_entrypoint=True, image=image,
                                 evidence=f"arguments of a {runtime}", strong=False, local=False)
                return
        if tokens:
            self.argv_launch(call, tokens, nodes, env, image=image, local=False)

    def command_words(self, expr: ast.expr) -> tuple[list[Token], list[ast.expr | None]] | None:
        """Words of a command given as a list or as one string (split as docker-py and Kubernetes do not: by blanks)."""
        if isinstance(expr, ast.Constant) and expr.value is None:
            return [], []
        w = self.words(expr)
        if w is not None:
            return w
        s = self.string(self.resolve(expr))
        if s is None:
            return None
        toks = self.split_words(s)
        return toks, [None] * len(toks)

    def container_env(self, expr: ast.expr | None) -> list[EnvVar]:
        """``environment={"K": v}`` / ``["K=v"]`` (docker-py); ``env=[V1EnvVar(name=, value=), {"name":, "value":}]``."""
        if expr is None:
            return []
        items = self.dict_items(expr)
        if items is not None:
            return [EnvVar(k, v) for k, v, _ in items[0] if kept_env(k.value)]
        out: list[EnvVar] = []
        for el in self.list_elements(expr) or []:
            s = self.string(el)
            if s is not None:
                tok = self.str_token(s)
                if "=" in tok.value and kept_env(tok.value):
                    eq = tok.value.index("=")
                    out.append(EnvVar(sub_token(tok, 0, eq), sub_token(tok, eq + 1, len(tok.value))))
                continue
            name = self.mapping_get(el, "name")
            n = self.string(name) if name is not None else None
            if n is not None and not n.opaque and kept_env(n.value):
                value = self.mapping_get(el, "value")
                out.append(EnvVar(self.str_token(n), self.setting_value(value)[0] if value is not None else None))
        return out

    # -- calls -------------------------------------------------------------------

    def on_call(self, node: ast.Call, depth: int) -> None:
        self._mutation(node)
        qn = self.qualname(node.func)
        if qn is not None and self.known_call(node, qn):
            return
        func = node.func
        if self.ipython_system(node):
            return
        if isinstance(func, ast.Attribute):
            if func.attr == "bind":
                base = func.value
                if isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and base.func.attr == "options":
                    base = base.func.value
                owner = _dotted(base)
                inner = self.forwarders.get(owner.rsplit(".", 1)[-1]) if owner else None
                if inner is not None:
                    self.bind_launch(node, owner, inner)  # type: ignore[arg-type]
                    return
            if func.attr in ("run", "create") and isinstance(func.value, ast.Attribute) and func.value.attr == "containers":
                image = _arg(node, 0, "image")
                command = _arg(node, 1, "command")
                for expr in (command, _keyword(node, "entrypoint")):
                    if expr is not None:
                        self.launched.add(self.key(expr))
                self.container_launch(node, _keyword(node, "entrypoint"), command, image, self.container_env(_keyword(node, "environment")))
                return
        if self.call_through(node, depth):
            return
        last = qn.rsplit(".", 1)[-1] if qn else ""
        if last == "RemoteOpenAIServer" and self.test_server_launch(node):
            return
        if last.startswith("V1") and (_keyword(node, "args") is not None or _keyword(node, "command") is not None):
            fmt = self.mapping_get(_keyword(node, "model_format"), "name") if _keyword(node, "model_format") is not None else None
            fmt_s = self.string(fmt) if fmt is not None else None
            runtime = "KServe huggingface model spec" if fmt_s is not None and fmt_s.value.lower() == "huggingface" else ""
            for k in ("args", "command"):
                if _keyword(node, k) is not None:
                    self.launched.add(self.key(_keyword(node, k)))  # type: ignore[arg-type]
            self.container_launch(node, _keyword(node, "command"), _keyword(node, "args"), _keyword(node, "image"),
                                  self.container_env(_keyword(node, "env")), runtime=runtime)
            return
        # an unknown runner (``conn.run(cmd)``, ``pool.submit(start, cmd)``): a command handed to it is a launch
        strings = last not in _NOT_RUNNERS and not last.endswith(_MESSAGE_CLASSES)
        for arg in node.args:
            self.use(arg.value if isinstance(arg, ast.Starred) else arg, node, strings=strings)
        for kw in node.keywords:
            if kw.arg not in _NOT_COMMAND_KEYWORDS:
                self.use(kw.value, node, strings=strings)

    def ipython_system(self, node: ast.Call) -> bool:
        """``get_ipython().system("...")`` (and ``getoutput``), what nbconvert and jupytext write
        for a ``!`` line: a shell command, read as the ``!`` line is (its ``pip install vllm==``
        pin included), each ``{expr}`` a Python value IPython fills in, unknown here."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in _IPYTHON_SHELL and isinstance(func.value, ast.Call)
                and isinstance(func.value.func, ast.Name) and func.value.func.id == "get_ipython"
                and self.lookup("get_ipython") is None and "get_ipython" not in self.defs):
            return False
        expr = _arg(node, 0, "cmd")
        if expr is None:
            return True
        self.launched.add(self.key(expr))
        s = self.script(expr)
        if s is not None:
            self.run_script(_magic_fields(s), [])
        return True

    def test_server_launch(self, node: ast.Call) -> bool:
        """``RemoteOpenAIServer(MODEL, ARGS)``, the test server of vLLM's ``tests/utils.py`` (and
        of the plugins that copy it), runs ``vllm serve MODEL *ARGS``: a launch of the model and
        the argument list (weak evidence: a helper of the repository's own, reported and never
        edited)."""
        model, args = _arg(node, 0, "model"), _arg(node, 1, "vllm_serve_args")
        if model is None or args is None:
            return False
        w = self.words(args)
        if w is None:
            return False
        self.launched.add(self.key(args))
        at = self.span(node.func)
        entry = [Token("vllm", at), Token("serve", at)]
        return self.argv_launch(
            node, [*entry, self.element_token(model), *w[0]], [None, None, model, *w[1]], [],
            evidence="vLLM's test server `RemoteOpenAIServer(MODEL, ARGS)`, which runs `vllm serve MODEL ARGS`", strong=False,
        )

    def known_call(self, node: ast.Call, qn: str) -> bool:
        cls = self.settings_class(qn)
        if cls is not None:
            self.settings_launch(node, cls, qn)
            return True
        if qn.startswith("ray.serve.llm") and qn.rsplit(".", 1)[-1] == "LLMConfig":
            self.llm_config_launch(node)
            return True
        if qn in WRAPPER_CLASSES:
            self.wrapper_launch(node, qn)
            return True
        if self.environ_call(node, qn):
            return True
        if qn in ARGV_CALLS:
            args_expr = _arg(node, 0, "args")
            if args_expr is None:
                return True
            self.launched.add(self.key(args_expr))
            env = self.env_vars(node)
            shell = _arg(node, 8, "shell")
            if isinstance(shell, ast.Constant) and shell.value is True:
                elements = self.list_elements(args_expr)
                if elements is not None:
                    if elements and not isinstance(elements[0], ast.Starred):
                        self.shell_script(elements[0], env)
                    return True
                self.shell_script(args_expr, env)
                return True
            w = self.words(args_expr)
            if w is not None:
                self.argv_launch(node, w[0], w[1], env)
            return True
        if qn in EXECV_CALLS:
            args_expr = _arg(node, EXECV_CALLS[qn], None)
            if args_expr is not None:
                self.launched.add(self.key(args_expr))
                w = self.words(args_expr)
                if w is not None:
                    self.argv_launch(node, w[0], w[1], [])
            return True
        if qn in EXECL_CALLS:
            first, trailing = EXECL_CALLS[qn]
            self._positional_argv(node, list(node.args[first : len(node.args) - trailing]))
            return True
        if qn in EXEC_ARGS_CALLS:
            self._positional_argv(node, list(node.args), env=self.env_vars(node))
            return True
        if qn in SHELL_CALLS:
            expr = _arg(node, 0, "cmd" if qn != "shlex.split" else "s")
            if expr is not None:
                self.launched.add(self.key(expr))
                self.shell_script(expr, self.env_vars(node))
            return True
        return False

    def _positional_argv(self, node: ast.Call, args: list[ast.expr], env: list[EnvVar] | None = None) -> None:
        w = self.words(ast.List(elts=args, ctx=ast.Load()))
        if w is not None:
            self.argv_launch(node, w[0], w[1], env or [])


# Calls whose string arguments are messages, not commands (a list is still read).
_NOT_RUNNERS = frozenset({"print", "debug", "info", "warning", "warn", "error", "exception", "critical", "log", "write",
                          "echo", "secho", "add_argument", "format", "startswith", "endswith", "find", "replace", "split",
                          "append", "extend", "insert", "index", "count", "get", "join", "fail", "exit", "abort", "skip"})
# ``raise SystemExit("vllm serve failed: ...")``, ``ValueError(...)``, ``warnings.warn(UserWarning(...))``:
# an exception's or a warning's text is a message
_MESSAGE_CLASSES = ("Error", "Exception", "Exit", "Warning", "Interrupt")
_NOT_COMMAND_KEYWORDS = frozenset({"help", "description", "epilog", "usage", "msg", "message", "doc", "text", "prompt", "title"})


def _blank_split(args: list[ast.expr]) -> bool:
    """``.split()`` or ``.split(" ")``: the separators a command string is cut into words with."""
    return not args or (len(args) == 1 and isinstance(args[0], ast.Constant) and args[0].value == " ")


def _single_spaced(value: str) -> bool:
    """Whether ``value.split(" ")`` gives the words ``value.split()`` does (no empty word between two blanks)."""
    return "  " not in value and not any(c in value for c in "\t\n\r\f\v") and value == value.strip(" ")


def _command_head(value: str) -> bool:
    """Whether a command string starts vLLM (after env assignments and wrappers)."""
    low = value.lower()
    if "vllm" not in low and "lmcache" not in low:
        return False
    words = value.split(None, 40)[:40]
    return match_words([Token(w, Span(0, 0)) for w in words]) is not None


_HANDLERS: dict[type, Any] = {
    ast.Import: _Extractor.on_import,
    ast.ImportFrom: _Extractor.on_import_from,
    ast.FunctionDef: _Extractor.on_function,
    ast.AsyncFunctionDef: _Extractor.on_function,
    ast.ClassDef: _Extractor.on_class,
    ast.For: _Extractor.on_for,
    ast.AsyncFor: _Extractor.on_for,
    ast.If: _Extractor.on_if,
    ast.While: _Extractor.on_if,
    ast.Try: _Extractor.on_try,
    ast.Match: _Extractor.on_match,
    ast.withitem: _Extractor.on_with_item,
    ast.Assign: _Extractor.on_assign,
    ast.AnnAssign: _Extractor.on_ann_assign,
    ast.AugAssign: _Extractor.on_aug_assign,
    ast.Call: _Extractor.on_call,
    ast.Return: _Extractor.on_return,
}
if hasattr(ast, "TryStar"):  # ``except*`` (Python 3.11)
    _HANDLERS[ast.TryStar] = _Extractor.on_try


def _call_arguments(call: ast.Call) -> list[ast.expr | ast.keyword]:
    """Positional arguments and keywords in source order (ast keeps them apart)."""
    items: list[ast.expr | ast.keyword] = [*call.args, *call.keywords]
    items.sort(key=lambda n: (n.lineno, n.col_offset))
    return items


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _arg(call: ast.Call, index: int, keyword: str | None) -> ast.expr | None:
    if keyword is not None:
        value = _keyword(call, keyword)
        if value is not None:
            return value
    for i, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return None  # *args before it: its position is unknown
        if i == index:
            return arg
    return None


def _dotted(expr: ast.AST) -> str | None:
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(expr.id)
    return ".".join(reversed(parts))


def _might_launch(text: str) -> bool:
    """A launch names vLLM or LMCache somewhere (a command word, an import, an image), or Ray Serve LLM."""
    if text.isascii():  # what _MENTION_RE finds, without its case-blind scan (ten times slower)
        low = text.lower()
        return any(word in low for word in VLLM_WORDS)
    return _MENTION_RE.search(text) is not None


# The wrappers of other libraries that build ``vllm.LLM`` in the process (LangChain's ``VLLM``,
# LlamaIndex's ``Vllm``), and the fields of theirs that are passed to it unchanged
WRAPPER_CLASSES = frozenset({
    "langchain_community.llms.VLLM", "langchain_community.llms.vllm.VLLM",
    "langchain.llms.VLLM", "langchain.llms.vllm.VLLM",
    "llama_index.llms.vllm.Vllm", "llama_index.llms.vllm.base.Vllm",
})
WRAPPER_ENGINE_FIELDS = frozenset({"model", "tensor_parallel_size", "trust_remote_code", "dtype", "download_dir"})


# What a reading needs to find in the text, wherever the module writes it: a call read whatever
# its words say has its module's first name and its own last name there (``subprocess.run``,
# ``from subprocess import run as go``, ``import subprocess as sp``), and one of these words is
# in one of the two (tests hold them to the call tables); the container and Ray Serve LLM forms
# have names of their own (docker-py ``containers.run``, Kubernetes/KServe ``V1...`` models,
# ``LLMConfig``).  Every other launch needs vLLM named in a string or an import.
_READ_WORDS = ("subprocess", "exec", "spawn", "system", "popen", "shlex", "containers", "V1", "LLMConfig")
# A comment, or a string literal without its prefix (CPython's tokenizer, for valid code)
_LEXEME = lazy_re(
    r"#[^\r\n]*"
    r'|"""[^"\\]*(?:(?:\\(?:\r\n|[\s\S])|"(?!""))[^"\\]*)*"""'
    r"|'''[^'\\]*(?:(?:\\(?:\r\n|[\s\S])|'(?!''))[^'\\]*)*'''"
    r'|"[^"\\\r\n]*(?:\\(?:\r\n|[\s\S])[^"\\\r\n]*)*"'
    r"|'[^'\\\r\n]*(?:\\(?:\r\n|[\s\S])[^'\\\r\n]*)*'"
)
# escapes that decode to a letter, and a line continuation inside a string (decodes to nothing)
_LETTER_ESCAPE = lazy_re(r"\\(?:[xuUN0-7]|\r|\n)")
_STATEMENT_END = lazy_re(r"[ \t\f]*(?:\r|\n|\Z)")


def _starts_nothing(text: str) -> bool:
    """Whether the module provably holds nothing the reader reads as a launch, parsed or not.

    True when no call the reader reads whatever its words are is written (:data:`_READ_WORDS`),
    no ``!`` shell magic line or interpreter prompt is there, and every mention of
    vLLM, LMCache or Ray Serve LLM is in a comment line or a docstring (a plain string that is a
    statement of its own): every other launch needs one in a string or an import, and a string
    whose value could name vLLM while its text does not (an escape that makes a letter, ``"v"
    "llm"``) makes the answer False.  The scan is CPython's tokenizer for comments and strings;
    a quote it cannot pair, an f-string whose fields do not close (PEP 701 quotes) or an unusual
    prefix answers False as well.  Then the module is neither parsed nor walked (a 100 KB module
    that names vLLM in a docstring costs a scan, not a tenth of a second) and nothing is
    reported for it, a syntax error included: no launch was lost.
    """
    if "\0" in text or ">>>" in text or any(word in text for word in _READ_WORDS) or _shell_magic(text):
        return False
    mentions = _mentions(text)
    gaps: list[str] = []  # the code between lexemes, in order
    held: list[int] = []  # for each lexeme holding a mention: how many gaps precede it (its bracket depth must be 0)
    k = 0
    end = 0
    run: str | None = None  # the end of the last string literal while adjacent ones may follow (implicit concatenation)
    for m in _LEXEME.finditer(text):
        a, b = m.span()
        gap = text[end:a]
        if '"' in gap or "'" in gap:
            return False  # a quote this scan cannot pair
        gaps.append(gap)
        end = b
        inside = k < len(mentions) and mentions[k][0] < b
        if inside:
            if mentions[k][0] < a:
                return False  # named in code
            while k < len(mentions) and mentions[k][0] < b:
                if mentions[k][1] > b:
                    return False
                k += 1
        if text[a] == "#":
            if inside:
                if not _line_start(text, a, gap):
                    return False  # a comment after code makes that code's line one that names vLLM
                held.append(len(gaps))
            if gap.strip(" \t\f\r\n"):
                run = None
            continue
        p = a
        while p > a - len(gap) and (text[p - 1].isalnum() or text[p - 1] == "_"):
            p -= 1
        prefix = text[p:a].lower()
        if prefix and prefix not in _PREFIXES:
            return False
        if inside:  # a docstring: a plain string that is a statement of its own
            if "f" in prefix or not _line_start(text, p, gap[: len(gap) - len(prefix)]) or not _STATEMENT_END.match(text, b):
                return False
            held.append(len(gaps))
            run = None
            continue
        body = m.group()[3:-3] if m.group().startswith(('"""', "'''")) else m.group()[1:-1]
        if "f" in prefix:
            fields = body.replace("{{", "").replace("}}", "")
            if fields.count("{") != fields.count("}"):
                return False  # a field this scan ends inside (PEP 701 quotes): not read as CPython reads it
        if "r" not in prefix and "\\" in body and _LETTER_ESCAPE.search(body) is not None:
            return False
        if run is not None and not gap[: len(gap) - len(prefix)].strip(" \t\f\r\n\\"):
            run += body  # each body is mention-free: one would cross into this one
            if _MENTION_RE.search(run) is not None:
                return False
            run = run[-12:]
        else:
            run = body[-12:]
    if k < len(mentions):
        return False  # named in code after the last lexeme
    tail = text[end:]
    if '"' in tail or "'" in tail:
        return False
    depth = 0
    done = 0
    for n in held:
        code = "".join(gaps[done:n])
        depth += code.count("(") + code.count("[") + code.count("{") - code.count(")") - code.count("]") - code.count("}")
        done = n
        if depth != 0:
            return False
    return True


def _mentions(text: str) -> list[tuple[int, int]]:
    """Where :data:`_MENTION_RE` matches (every place it could, overlapping ones included)."""
    if not text.isascii():  # lower() keeps offsets only for ASCII
        return [(m.start(), m.end()) for m in _MENTION_RE.finditer(text)]
    low = text.lower()
    out = []
    for word in VLLM_WORDS:
        i = low.find(word)
        while i >= 0:
            out.append((i, i + len(word)))
            i = low.find(word, i + 1)
    return sorted(out)


def _shell_magic(text: str) -> bool:
    """Whether a line starts with ``!`` after blanks (an IPython shell magic, which is read as a
    command when the module is not Python; ``%`` magics are only masked)."""
    i = text.find("!")
    while i >= 0:
        j = i
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        if j == 0 or text[j - 1] in "\r\n":
            return True
        i = text.find("!", i + 1)
    return False


def _line_start(text: str, at: int, gap: str) -> bool:
    """Whether only blanks precede ``at`` on its line (``gap``: the code before it), and that line
    does not continue the one before (a backslash before its end)."""
    nl = max(gap.rfind("\n"), gap.rfind("\r"))
    if nl < 0 and len(gap) < at:
        return False  # a lexeme before it on the same line
    if gap[nl + 1 :].strip(" \t\f"):
        return False
    line = at - (len(gap) - nl - 1)
    j = line - 1
    if j >= 1 and text[j] == "\n" and text[j - 1] == "\r":
        j -= 1
    return not (j >= 1 and text[j - 1] == "\\")


def _parse(text: str) -> ast.Module | SyntaxError | Problem:
    try:
        with warnings.catch_warnings():  # invalid escapes warn on stderr (SyntaxWarning on 3.12+)
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (RecursionError, MemoryError):
        return Problem(Span(0, 0), "Python source nested too deeply to analyse (nested too deeply for Python's own parser)")
    except SyntaxError as exc:
        if exc.msg and exc.msg.startswith("too many"):
            return Problem(Span(0, 0), f"Python source nested too deeply to analyse (Python's own parser refuses it: {exc.msg})")
        return exc
    except ValueError as exc:  # NUL characters
        return Problem(Span(0, 0), f"Python source not parsed: {exc}")


def _syntax_problem(text: str, exc: SyntaxError) -> Problem:
    places = _Places(text)
    line = min(max(exc.lineno or 1, 1), len(places.starts))
    start = min(places.starts[line - 1] + max((exc.offset or 1) - 1, 0), len(text))  # offset: 1-based characters
    return Problem(Span(start, min(start + 1, len(text))), f"Python syntax error: {exc.msg} (as {_PYTHON} reads it)")


def _dedent(text: str) -> tuple[str, list[int]] | None:
    """The text with the indentation common to all its code lines removed, and what each line lost.

    A module indented as a whole (a Markdown code block inside a block quote or a
    list item, handed over in place) is valid Python once dedented.
    """
    starts = [0] + [m.end() for m in _LINE_RE.finditer(text)]
    ends = [*starts[1:], len(text)]
    common: str | None = None
    for a, b in zip(starts, ends):
        line = text[a:b].rstrip("\r\n")
        body = line.lstrip(" \t")
        if not body or body.startswith("#"):
            continue
        lead = line[: len(line) - len(body)]
        if common is None or not lead.startswith(common):
            common = lead if common is None else _common_prefix(common, lead)
    if not common:
        return None
    out: list[str] = []
    shift: list[int] = []
    for a, b in zip(starts, ends):
        line = text[a:b]
        k = 0
        while k < len(common) and k < len(line) and line[k] == common[k]:
            k += 1
        out.append(line[k:])
        shift.append(k)
    return "".join(out), shift


def _common_prefix(a: str, b: str) -> str:
    k = 0
    while k < len(a) and k < len(b) and a[k] == b[k]:
        k += 1
    return a[:k]


# a magic line, or a name assigned its output (``files = !ls``, ``t = %timeit -o f()``)
_MAGIC_RE = lazy_re(r"(?m)^[ \t]*(?:[A-Za-z_][\w.]*[ \t]*=[ \t]*)?([!%])[^\r\n]*")
_PIP_MAGIC = lazy_re(r"%pip[ \t]")


def _mask_magics(text: str) -> tuple[str, list[tuple[int, int]]]:
    """IPython line magics (``!pip install vllm``, ``%env X=1``) turned into comments of the same length.

    They are not Python (CPython refuses the cell), but a notebook cell or a Markdown
    block copied from one is read around them; a ``!`` line is a shell command, with the lines
    a trailing backslash continues it onto (IPython joins them before it runs the command), and
    so is ``%pip install ...`` (IPython runs ``pip`` with the rest of the line: its pins count).
    Each stays a statement, as IPython makes it one (``0#...``, ``x = 0#...``): the only line
    of an ``if`` body (``if colab:\n    !pip install vllm``) keeps the block a block.
    Returns the masked text and the ``(start, end)`` of each such command.
    """
    chars = list(text)
    shell: list[tuple[int, int]] = []
    end = 0  # the end of the last ``!`` command: the lines it continued onto are its own
    for m in _MAGIC_RE.finditer(text):
        if m.start() < end:
            continue
        chars[m.start(1)] = "0"
        if m.start(1) + 1 < m.end():
            chars[m.start(1) + 1] = "#"
        if not (m.group(1) == "!" or _PIP_MAGIC.match(text, m.start(1))):
            continue
        start, end = m.start(1) + 1, m.end()
        line = text[m.start() : end]
        # IPython joins a line that ends with a backslash to the next before it runs the command
        # (``!vllm serve m \`` then ``  --port 8000``): the lines it continues onto are the command's
        while line.rstrip(" \t").endswith("\\") and end < len(text):
            a = end + (2 if text.startswith("\r\n", end) else 1)
            b = text.find("\n", a)
            b = len(text) if b == -1 else b - (text[b - 1] == "\r")
            line = text[a:b]
            lead = len(line) - len(line.lstrip(" \t"))
            if lead < len(line):
                chars[a + lead] = "#"  # a comment to Python, the same length
            end = b
        shell.append((start, end))
    return "".join(chars), shell


_PROMPT_RE = lazy_re(r"(?m)^([ \t]*)(>>>|\.\.\.)( |$)")


def _session_code(text: str) -> str | None:
    """An interpreter session (``>>> x = 1`` / ``... `` / output lines) as its code, in place.

    Prompts become blanks (the dedented read removes them), output lines blank lines.
    """
    if ">>>" not in text:
        return None
    chars = [c if c in "\r\n" else " " for c in text]
    found = False
    for m in _PROMPT_RE.finditer(text):
        end = text.find("\n", m.end())
        end = len(text) if end == -1 else end
        chars[m.end() : end] = text[m.end() : end]
        found = found or m.group(2) == ">>>"
    return "".join(chars) if found else None


_NEWER_STRINGS = ("FormattedString", "ConcatenatedString")
# The syntax newer than 3.11 that libcst's parser reads: the constructs _newer_syntax_masked blanks
# (``type X = ...``, ``def f[T]``/``class C[T]``, f-strings) and 3.14's ``except A, B:`` and
# t-strings, which it accepts and nothing here reads.  A module CPython refuses without any of
# these is a syntax error: libcst (a second parse, and its import) is not tried on it.  On 3.10
# (``except*``, ``*Ts``) it is always tried.
_NEWER_MARK = lazy_re(
    r"\btype(?:[ \t\f]|\\\r?\n)+[^\W\d]\w*(?:[ \t\f]|\\\r?\n)*[=\[]"  # a blank or a line continuation between words
    r"|\b(?:def|class)(?:[ \t\f]|\\\r?\n)+[^\W\d]\w*(?:[ \t\f]|\\\r?\n)*\["
    r"|(?<!\w)(?i:[ft]r?|r[ft])[\"']"
    r"|\bexcept\b(?!(?:[ \t\f]|\\\r?\n)*[(:])[^:]*,"
)
_NEWER = Problem(Span(0, 0), "valid Python of a newer release than the running one")  # a marker, never reported


def _newer_syntax_masked(text: str) -> str | None:
    """Valid Python of a newer release than the running one, with what this ``ast`` cannot read blanked.

    libcst's parser knows the newer grammar (3.12's ``type`` statements and type parameters,
    PEP 701 f-strings such as ``f"{d["k"]}"``).  When it accepts the module, each such
    construct is replaced by text of the same length the running parser reads: a ``type``
    statement by ``pass``, type parameters by blanks, an f-string this Python refuses by a
    name (an unknown value).  Every other place keeps its offset.  None when libcst refuses the
    module as well (then it is a syntax error).
    """
    try:
        import libcst as cst
        from libcst.metadata import MetadataWrapper, PositionProvider

        wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        positions = wrapper.resolve(PositionProvider)
    except Exception:  # noqa: BLE001 - libcst's ParserSyntaxError and its internal limits alike
        return None
    starts = [0] + [m.end() for m in _LINE_RE.finditer(text)]

    def offset(pos) -> int:
        return min(starts[min(pos.line, len(starts)) - 1] + pos.column, len(text))

    chars = list(text)
    done: list[tuple[int, int]] = []

    def blank(a: int, b: int, head: str) -> None:
        """``pass`` / a name of ``_`` / blanks on the first line, blanks after it (line ends kept)."""
        line_end = next((k for k in range(a, b) if text[k] in "\r\n"), b)
        for k in range(a, b):
            if text[k] in "\r\n":
                continue
            if k >= line_end or head == " ":
                chars[k] = " "
            elif head == "pass":
                chars[k] = "pass"[k - a] if k - a < 4 else " "
            else:
                chars[k] = "_"
        done.append((a, b))

    for node, pos in sorted(positions.items(), key=lambda item: (offset(item[1].start), -offset(item[1].end))):
        a, b = offset(pos.start), offset(pos.end)
        if any(x <= a and b <= y for x, y in done):
            continue
        cls = type(node).__name__
        if cls == "TypeAlias":
            blank(a, b, "pass")
        elif cls == "TypeParameters":
            blank(a, b, " ")
        elif cls in _NEWER_STRINGS:
            try:
                _parse_quietly("(" + text[a:b] + "\n)")
            except SyntaxError:
                blank(a, b, "_")
    return "".join(chars)


def _parse_quietly(text: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)


# documentation pseudo-code: an argument left out (``LLM(model="m", ...)``) and a placeholder
# where an expression goes (``LLM(model=<your-model>)``)
_DOC_ELLIPSIS = lazy_re(r"(?<=,)([ \t]*(?:\r?\n[ \t]*)*)\.\.\.(?=\s*[,)])")
# what a launch looks like in Python text (a documentation block that cannot be read and holds
# none of these lost nothing)
_LAUNCH_FORM = lazy_re(
    r"\b(?:LLM|EngineArgs|AsyncEngineArgs|LLMConfig|AsyncLLMEngine\.from_engine_args|LLMEngine\.from_engine_args)\s*\("
    r"|vllm\.entrypoints|\bvllm\s+serve\b|[\"']vllm[\"']\s*,\s*[\"']serve[\"']|vllm/vllm-openai"
)
_DOC_HOLE = lazy_re(DOC_PLACEHOLDER)


def _doc_code(text: str) -> str | None:
    """Pseudo-code of a documentation block as Python of the same length, or None when it is not that.

    Each ``...`` argument becomes blanks and each ``<placeholder>`` CPython stops at becomes a
    name of the same length (an unknown value); the rest of the text is kept.
    """
    out = _DOC_ELLIPSIS.sub(lambda m: m.group(1) + "   ", text)
    starts = [0] + [m.end() for m in _LINE_RE.finditer(out)]
    for _ in range(64):
        tree = _parse(out)
        if isinstance(tree, IndentationError) and tree.msg == "unexpected indent":
            dedented = _dedent(out)
            tree = _parse(dedented[0]) if dedented is not None else tree
            if isinstance(tree, SyntaxError):
                return out if out != text else None  # the caller dedents the same way
        if not isinstance(tree, SyntaxError):
            return out if out != text else None
        line = min(max(tree.lineno or 1, 1), len(starts))
        a, b = starts[line - 1], starts[line] if line < len(starts) else len(out)
        at = a + max((tree.offset or 1) - 1, 0)
        hole = next((m for m in _DOC_HOLE.finditer(out, a, b) if m.start() <= at < m.end() or m.start() >= at), None)
        if hole is None:
            return None
        out = out[: hole.start()] + "_" * len(hole.group()) + out[hole.end() :]
    return None


def _tree(text: str, *, doc: bool = False) -> tuple[ast.Module | SyntaxError | Problem, list[int] | None, list[tuple[int, int]]]:
    """The module's tree (or why there is none), the per-line shift of a dedented read, and shell magics.

    ``doc``: the text is a documentation code block, which may be pseudo-code (:func:`_doc_code`).
    """
    tree = _parse(text)
    if not isinstance(tree, SyntaxError):
        return tree, None, []
    masked, shell = _mask_magics(text)
    session = _session_code(text)
    # (text, its shell magics): the magics are run only from the masked text they were found in
    candidates = ([(masked, shell)] if masked != text else []) + ([(session, [])] if session is not None else []) + [(text, [])]
    if doc:
        candidates += [(d, magics) for d, magics in ((_doc_code(c), m) for c, m in candidates) if d is not None]
    for candidate, magics in candidates:
        again = _parse(candidate) if candidate is not text else tree
        if isinstance(again, IndentationError) and again.msg == "unexpected indent":
            dedented = _dedent(candidate)
            if dedented is not None:
                third = _parse(dedented[0])
                if not isinstance(third, SyntaxError):
                    return third, dedented[1], magics
        if not isinstance(again, SyntaxError):
            return again, None, magics
    newer = _newer_syntax_masked(text) if sys.version_info < (3, 11) or _NEWER_MARK.search(text) is not None else None
    if newer is not None:
        again = _parse(newer)
        if isinstance(again, ast.Module):
            return again, None, []
        return _NEWER, None, []  # valid for a newer Python; this one cannot read it
    return tree, None, []


# ``{expr}`` in a ``!`` line: IPython puts the value of a Python expression there (``{MODEL}``,
# ``{cfg.port}``, ``{args["n"]}``, ``{len(x)}``) before the shell reads the line.  A brace that
# does not hold a name (JSON ``'{"a": 1}'``, brace expansion ``{a,b}``, ``{1..3}``) or follows a
# ``$`` (``${VAR}``, the shell's) stays as written.
_MAGIC_FIELD = lazy_re(r"(?<![${])\{([A-Za-z_][\w.]*(?:\[[^\]\n{}]*\])?(?:\([^)\n{}]*\))?)\}(?!\})")


def _magic_command(text: str, a: int, b: int) -> PlacedText:
    """The IPython ``!`` line ``text[a:b]`` as the shell gets it: each ``{expr}`` is a Python value
    unknown here (a ``${placeholder}``, as an f-string's field), never the braces as written."""
    command = PlacedText(start=a, end=b)
    command.lit(text[a:b], a)
    return _magic_fields(command)


def _magic_fields(s: PlacedText) -> PlacedText:
    """``s`` with each IPython ``{expr}`` field (:data:`_MAGIC_FIELD`) an unknown ``${placeholder}``."""
    value = s.value
    if "{" not in value:
        return s
    out = PlacedText(start=s.start, end=s.end, anchor=s.anchor)
    at = 0
    for m in _MAGIC_FIELD.finditer(value):
        out.extend(s.slice(at, m.start()))
        out.unknown(_placeholder(m.group(1)), None)
        at = m.end()
    if at == 0:
        return s
    out.extend(s.slice(at, len(value)))
    return out


# ``get_ipython().system(cmd)`` and its kin: a ``!`` line as exported to a Python script
_IPYTHON_SHELL = frozenset({"system", "getoutput", "system_piped", "system_raw"})


# an IPython cell magic that makes the whole cell a shell script: ``%%bash``, ``%%sh``, ``%%script bash``
SHELL_CELL = lazy_re(r"\A\s*%%(?:bash|sh|script[ \t]+(?:\S*/)?(?:bash|sh|zsh))\b[^\n]*(?:\n|\Z)")


class Imports:
    """The names a program imported before a piece of it (a notebook's earlier cells share one kernel).

    ``names``: bound name -> qualified name, as :meth:`_Extractor.on_import` keeps them;
    ``star_vllm``: ``from vllm import *`` was run.
    """

    __slots__ = ("names", "star_vllm")

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.star_vllm = False

    def add(self, text: str) -> None:
        """Add what the module-level statements of ``text`` import (text that does not parse adds nothing)."""
        if "import" not in text:
            return
        tree = _tree(text)[0]
        if not isinstance(tree, ast.Module):
            return
        reader = _Extractor(SourceFile("<imports>", text), _Places(text, None))
        reader.imports, reader.star_vllm = self.names, self.star_vllm
        todo: list[ast.AST] = list(tree.body)
        while todo:  # imports in ``if``/``try`` bodies too, never in a def or a class
            node = todo.pop(0)
            if isinstance(node, ast.Import):
                reader.on_import(node, 0)
            elif isinstance(node, ast.ImportFrom):
                reader.on_import_from(node, 0)
            elif isinstance(node, (ast.If, ast.Try, ast.With)) or type(node).__name__ == "TryStar":
                for name in ("body", "orelse", "handlers", "finalbody"):
                    for child in getattr(node, name, []):
                        todo.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.names.pop(node.name, None)  # the name is rebound: no longer the import
        self.star_vllm = reader.star_vllm

    def vllm_names(self) -> set[str]:
        """The names bound to something of vLLM, LMCache or Ray Serve LLM, or to a library's
        wrapper of vLLM (:data:`WRAPPER_CLASSES`)."""
        out = {name for name, qn in self.names.items()
               if qn.split(".", 1)[0] in ("vllm", "lmcache") or qn == "ray.serve.llm" or qn.startswith("ray.serve.llm.")
               or qn in WRAPPER_CLASSES}
        if self.star_vllm:
            out.update(SETTINGS_CLASSES)
        return out


def names_any(text: str, names: set[str]) -> bool:
    """Whether ``text`` has one of ``names`` as a whole word."""
    return any(re.search(rf"(?<![\w.]){re.escape(name)}\b", text) is not None for name in names if name in text)


def extract(src: SourceFile, *, doc: bool = False, imports: Imports | None = None) -> Extraction:
    """``doc``: the text is a documentation code block (Markdown), which may be pseudo-code.

    ``imports``: what the program imported before this text (a notebook's earlier cells): ``LLM(...)``
    in a cell whose ``from vllm import LLM`` is in an earlier one is vLLM's.
    """
    prior = imports is not None and names_any(src.text, imports.vllm_names())
    if not prior and (not _might_launch(src.text) or (not doc and _starts_nothing(src.text) and SHELL_CELL.match(src.text) is None)):
        return Extraction()
    cell = SHELL_CELL.match(src.text)
    if cell is not None:  # a notebook cell (or a block copied from one) that is a shell script
        script = src.text[cell.end() :]
        return embedded_shell.extract(src, script, OffsetMap.identity(cell.end(), len(script)), kind="python", group=src.path)
    tree, shift, magics = _tree(src.text, doc=doc)
    if tree is _NEWER:
        return Extraction()
    if isinstance(tree, SyntaxError) and doc and not _LAUNCH_FORM.search(src.text):
        return Extraction()  # a documentation snippet that starts nothing: no launch was lost
    if isinstance(tree, SyntaxError):
        return Extraction(problems=[_syntax_problem(src.text, tree)])
    if isinstance(tree, Problem):
        return Extraction(problems=[tree])
    extractor = _Extractor(src, _Places(src.text, shift))
    if imports is not None:
        extractor.imports, extractor.star_vllm = dict(imports.names), imports.star_vllm
    extractor.defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    try:
        extractor.walk(tree)
        for a, b in magics:  # ``!vllm serve ...`` in a notebook cell
            extractor.run_script(_magic_command(src.text, a, b), [])
        extractor.finish()
    except (_TooDeep, RecursionError):
        return Extraction(problems=[Problem(Span(0, 0), f"Python source nested too deeply to analyse (more than {_MAX_NESTING} levels of nested expressions)")])
    return extractor.result
