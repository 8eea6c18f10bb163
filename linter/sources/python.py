"""Launches in Python source: ``LLM(...)``/``EngineArgs(...)`` calls and subprocess argv.

Parsed with libcst (a concrete syntax tree keeps every character's place).
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

A list bound to a name in the same scope (``cmd = [...]``, ``cmd += [...]``,
``cmd.append(x)``, ``cmd.extend([...])``) is followed; conditions and loops
are not evaluated (every append counts once).
"""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import tokenize
import warnings
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst._nodes.internal import CodegenState

from linter.launch import EnvVar, Launch, Setting, Span, Token
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import Extraction, Problem
from linter.sources.commands import match_words
from linter.sources.words import kept_env, shell_script_index

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
_LINE_RE = re.compile(r"\r\n|\r|\n")
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


# ---------------------------------------------------------------------------
# Python string literals -> (value, OffsetMap)


def _split_literal(code: str) -> tuple[str, str, int]:
    """``rb'''x'''`` -> (prefix lowercased, quote, offset of the body)."""
    i = 0
    while i < len(code) and code[i] not in "'\"":
        i += 1
    prefix = code[:i].lower()
    quote = code[i : i + 3] if code[i : i + 3] in ('"""', "'''") else code[i]
    return prefix, quote, i + len(quote)


def decode_body(body: str, file_start: int, *, raw: bool, fmt: bool = False, is_bytes: bool = False,
                out: list[str] | None = None, omap: OffsetMap | None = None, pos: int = 0) -> tuple[str, OffsetMap]:
    """Undo a literal body's escapes, recording which characters stand verbatim.

    ``file_start`` is the file offset of ``body[0]``.  ``fmt``: an f-string text
    part (``{{``/``}}`` stand for one brace).  ``out``/``omap``/``pos`` let callers
    append to a value being assembled (``pos`` = its current length).
    """
    out = [] if out is None else out
    omap = OffsetMap(fallback=file_start) if omap is None else omap
    n = pos
    i = 0
    run = 0  # start of the current verbatim run in body
    length = len(body)

    def flush(upto: int) -> None:
        nonlocal n
        if upto > run:
            omap.add(n, file_start + run, upto - run)
            out.append(body[run:upto])
            n += upto - run

    def emit(text: str, mapped_at: int | None = None) -> None:
        nonlocal n
        if mapped_at is not None:
            omap.add(n, file_start + mapped_at, len(text))
        out.append(text)
        n += len(text)

    while i < length:
        c = body[i]
        if c == "\r":
            flush(i)
            if body.startswith("\r\n", i):
                emit("\n", i + 1)
                i += 2
            else:
                emit("\n")
                i += 1
            run = i
            continue
        if fmt and c in "{}" and body.startswith(c * 2, i):
            flush(i)
            emit(c, i)
            i += 2
            run = i
            continue
        if c != "\\" or i + 1 >= length:
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
            emit(_SIMPLE_ESCAPES[nxt])
            i += 2
            run = i
            continue
        if nxt in "01234567":
            j = i + 1
            while j < min(i + 4, length) and body[j] in "01234567":
                j += 1
            flush(i)
            emit(chr(int(body[i + 1 : j], 8)))
            i = j
            run = i
            continue
        width = {"x": 2, "u": 4, "U": 8}.get(nxt)
        if width and not (is_bytes and nxt != "x"):
            digits = body[i + 2 : i + 2 + width]
            if len(digits) == width and all(d in "0123456789abcdefABCDEF" for d in digits):
                flush(i)
                emit(chr(int(digits, 16)))
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
                    emit(ch)
                    i = close + 1
                    run = i
                    continue
        i += 2  # unknown escape: both characters stay
    flush(length)
    return "".join(out), omap


@dataclass
class PyString:
    """A string expression: its value, where its characters are, and its unknown parts."""

    value: str
    omap: OffsetMap
    span: Span
    opaque: list[tuple[int, int]] = field(default_factory=list)
    single: bool = True  # one literal, not an implicit concatenation
    is_bytes: bool = False


def _fill_template(s: PyString, style: str) -> PyString:
    """Replace ``{...}`` (``str.format``) or ``%s`` / ``%(name)d`` fields with shell placeholders."""
    value = s.value
    out: list[str] = []
    omap = OffsetMap(fallback=s.omap.fallback)
    opaque: list[tuple[int, int]] = []
    n = 0
    i = 0
    count = 0

    def keep(j: int) -> None:
        nonlocal n
        f = s.omap.to_file(j)
        if f is not None:
            omap.add(n, f, 1)
        out.append(value[j])
        n += 1

    def field_(name: str) -> None:
        nonlocal n, count
        text = _placeholder(name or f"arg{count}")
        count += 1
        opaque.append((n, n + len(text)))
        out.append(text)
        n += len(text)

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
    return PyString("".join(out), omap, s.span, opaque, single=False)


# ---------------------------------------------------------------------------


@dataclass
class _Binding:
    expr: cst.BaseExpression | None = None
    elements: list[cst.BaseElement] | None = None  # set for a list being built
    mutated: bool = False


def _placeholder(expr_code: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]+", "_", expr_code).strip("_") or "expr"
    if name[0].isdigit():
        name = "_" + name
    return "${" + name[:40] + "}"


class _Extractor:
    def __init__(self, src: SourceFile, module: cst.Module, positions: Any) -> None:
        self.src = src
        self.module = module
        self.positions = positions
        self.result = Extraction()
        self.imports: dict[str, str] = {}
        self.star_vllm = False
        self.scopes: list[dict[str, _Binding]] = [{}]
        self._shell_mod: Any = None

    # -- positions -----------------------------------------------------------

    def span(self, node: cst.CSTNode) -> Span:
        start, end = self.positions[node]
        return Span(start, end)

    def code(self, node: cst.CSTNode) -> str:
        s = self.span(node)
        return self.src.text[s.start : s.end]

    # -- names -----------------------------------------------------------------

    def collect_imports(self, nodes: list[cst.CSTNode]) -> None:
        for node in nodes:
            if isinstance(node, cst.Import):
                for alias in node.names:
                    full = _dotted(alias.name)
                    if full is None:
                        continue
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        self.imports[alias.asname.name.value] = full
                    else:
                        root = full.split(".", 1)[0]
                        self.imports.setdefault(root, root)
            elif isinstance(node, cst.ImportFrom):
                if node.relative or node.module is None:
                    continue
                mod = _dotted(node.module)
                if mod is None:
                    continue
                if isinstance(node.names, cst.ImportStar):
                    if mod == "vllm" or mod.startswith("vllm."):
                        self.star_vllm = True
                    continue
                for alias in node.names:
                    name = _dotted(alias.name)
                    if name is None:
                        continue
                    local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else name
                    self.imports[local] = f"{mod}.{name}"

    def qualname(self, expr: cst.BaseExpression) -> str | None:
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

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        # parameters shadow outer names with values unknown here
        params = node.params
        scope: dict[str, _Binding] = {}
        for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
            scope[param.name.value] = _Binding()
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                scope[star.name.value] = _Binding()
        self.scopes.append(scope)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._bind(node.asname.name, None)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scopes.append({})

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.scopes.pop()

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Name):
            elements = self.list_elements(value) if value is not None else None
            self.scopes[-1][target.value] = _Binding(expr=value, elements=elements)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._bind(el.value, None)
        elif isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            b = self.lookup(target.value.value)
            if b is not None:
                b.mutated = True

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if not isinstance(node.target, cst.Name):
            self._bind(node.target, None)
            return
        b = self.lookup(node.target.value)
        if b is None:
            return
        if b.elements is not None and isinstance(node.operator, cst.AddAssign):
            extra = self.list_elements(node.value)
            b.elements = b.elements + (extra if extra is not None else [cst.StarredElement(value=node.value)])
        else:
            b.mutated = True
            b.expr = None
            b.elements = None

    def _mutation(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return
        b = self.lookup(func.value.value)
        if b is None:
            return
        method = func.attr.value
        if b.elements is not None and node.args and not node.args[0].star:
            if method == "append" and len(node.args) == 1:
                b.elements = b.elements + [cst.Element(value=node.args[0].value)]
                return
            if method == "extend" and len(node.args) == 1:
                extra = self.list_elements(node.args[0].value)
                b.elements = b.elements + (extra if extra is not None else [cst.StarredElement(value=node.args[0].value)])
                return
        if method in ("append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "__setitem__"):
            b.mutated = True

    def list_elements(self, expr: cst.BaseExpression | None, depth: int = 0) -> list[cst.BaseElement] | None:
        """The elements of a list/tuple expression (following names and ``+``), or None."""
        if expr is None or depth > 20:
            return None
        if isinstance(expr, (cst.List, cst.Tuple)):
            return list(expr.elements)
        if isinstance(expr, cst.Name):
            b = self.lookup(expr.value)
            if b is None:
                return None
            return list(b.elements) if b.elements is not None else None
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
            left = self.list_elements(expr.left, depth + 1)
            if left is None:
                return None
            right = self.list_elements(expr.right, depth + 1)
            return left + (right if right is not None else [cst.StarredElement(value=expr.right)])
        if isinstance(expr, cst.Call) and self.qualname(expr.func) in ("list", "tuple") and len(expr.args) == 1:
            return self.list_elements(expr.args[0].value, depth + 1)
        return None

    def resolve(self, expr: cst.BaseExpression, depth: int = 0) -> cst.BaseExpression:
        """Follow a name to the expression last assigned to it in scope."""
        while isinstance(expr, cst.Name) and depth < 20:
            b = self.lookup(expr.value)
            if b is None or b.expr is None or b.elements is not None or b.mutated:
                return expr
            expr = b.expr
            depth += 1
        return expr

    # -- strings --------------------------------------------------------------

    def string(self, node: cst.BaseExpression, *, placeholders: bool = False) -> PyString | None:
        """A string literal's value and map, or None for other expressions."""
        if isinstance(node, cst.SimpleString):
            span = self.span(node)
            prefix, quote, body_off = _split_literal(node.value)
            body = node.value[body_off : len(node.value) - len(quote)]
            value, omap = decode_body(body, span.start + body_off, raw="r" in prefix, is_bytes="b" in prefix)
            return PyString(value, omap, span, is_bytes="b" in prefix)
        if isinstance(node, cst.ConcatenatedString):
            left = self.string(node.left, placeholders=placeholders)
            right = self.string(node.right, placeholders=placeholders)
            if left is None or right is None:
                return None
            omap = OffsetMap(list(left.omap.segments), left.omap.fallback)
            shift = len(left.value)
            for s, f, n in right.omap.segments:
                omap.add(s + shift, f, n)
            opaque = left.opaque + [(s + shift, e + shift) for s, e in right.opaque]
            return PyString(left.value + right.value, omap, self.span(node), opaque, single=False, is_bytes=left.is_bytes)
        if isinstance(node, cst.FormattedString):
            span = self.span(node)
            raw = "r" in node.prefix.lower()
            out: list[str] = []
            omap = OffsetMap(fallback=span.start)
            opaque: list[tuple[int, int]] = []
            n = 0
            for part in node.parts:
                pspan = self.span(part)
                if isinstance(part, cst.FormattedStringText):
                    decode_body(part.value, pspan.start, raw=raw, fmt=True, out=out, omap=omap, pos=n)
                    n = sum(len(x) for x in out)
                else:
                    text = self.src.text[pspan.start : pspan.end]
                    if placeholders:
                        text = _placeholder(self.code(part.expression))
                    else:
                        omap.add(n, pspan.start, len(text))
                    opaque.append((n, n + len(text)))
                    out.append(text)
                    n += len(text)
            return PyString("".join(out), omap, span, opaque)
        return None

    def str_token(self, s: PyString) -> Token:
        value_start = None
        if s.single:
            if s.value:
                value_start = s.omap.contiguous(0, len(s.value))
            else:
                _, _, body_off = _split_literal(self.src.text[s.span.start : s.span.end])
                value_start = s.span.start + body_off
        return Token(s.value, s.span, value_start, tuple(s.opaque))

    def opaque_token(self, node: cst.CSTNode, *, splat: bool = False) -> Token:
        span = self.span(node)
        text = self.src.text[span.start : span.end]
        return Token(text, span, None, ((0, len(text)),), splat)

    # -- argv -------------------------------------------------------------------

    def element_token(self, expr: cst.BaseExpression) -> Token:
        s = self.string(expr)
        if s is not None:
            return self.str_token(s)
        if isinstance(expr, (cst.Integer, cst.Float)):
            span = self.span(expr)
            return Token(expr.value, span, span.start)
        qn = self.qualname(expr)
        if qn == "sys.executable":
            return Token("python", self.span(expr))
        if isinstance(expr, cst.Call) and self.qualname(expr.func) == "shutil.which" and expr.args:
            s = self.string(expr.args[0].value)
            if s is not None and not s.opaque:
                return Token(s.value, self.span(expr))
        return self.opaque_token(expr)

    def words(self, expr: cst.BaseExpression, depth: int = 0) -> tuple[list[Token], list[cst.BaseExpression | None]] | None:
        """argv tokens of a list expression (and the expression behind each token)."""
        elements = self.list_elements(expr)
        if elements is None:
            target = self.resolve(expr)
            # "vllm serve x --y 1".split()
            if (isinstance(target, cst.Call) and isinstance(target.func, cst.Attribute)
                    and target.func.attr.value == "split" and not target.args):
                s = self.string(target.func.value)
                if s is not None and not s.is_bytes:
                    return self.split_words(s), [None] * len(self.split_words(s))
            return None
        tokens: list[Token] = []
        nodes: list[cst.BaseExpression | None] = []
        for el in elements:
            if isinstance(el, cst.StarredElement):
                inner = self.words(el.value, depth + 1) if depth < 10 else None
                if inner is not None:
                    tokens.extend(inner[0])
                    nodes.extend(inner[1])
                else:
                    tokens.append(self.opaque_token(el.value, splat=True))
                    nodes.append(None)
            else:
                tokens.append(self.element_token(el.value))
                nodes.append(el.value)
        return tokens, nodes

    def split_words(self, s: PyString) -> list[Token]:
        out = []
        for m in re.finditer(r"\S+", s.value):
            a, b = m.span()
            start = s.omap.contiguous(a, b)
            first = s.omap.nearest(a)
            span = Span(first, max(first, s.omap.span_end(b))) if start is None else Span(start, start + b - a)
            opaque = tuple((max(x, a) - a, min(y, b) - a) for x, y in s.opaque if x < b and a < y)
            out.append(Token(m.group(), span, start if s.single else None, opaque))
        return out

    def argv_launch(self, call: cst.Call, tokens: list[Token], nodes: list[cst.BaseExpression | None], env: list[EnvVar]) -> None:
        m = match_words(tokens)
        if m is None:
            # ["bash", "-c", "vllm serve ..."]
            k = shell_script_index(tokens)
            if k is not None and nodes[k] is not None:
                self.shell_script(nodes[k], env)
            return
        envs = list(env)
        for name, value in m.env:
            if kept_env(name.value):
                envs.append(EnvVar(name, value))
        self.result.launches.append(Launch(
            path=self.src.path, kind="python", span=self.span(call), program=m.program, entrypoint=m.entrypoint,
            style="argv", entry=m.entry, args=m.args, env=envs, image=m.image, group=self.src.path,
        ))

    def env_vars(self, call: cst.Call) -> list[EnvVar]:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "env":
                items = self.dict_items(arg.value)
                if items is None:
                    return []
                return [EnvVar(k, v) for k, v, _ in items[0] if kept_env(k.value)]
        return []

    # -- shell ---------------------------------------------------------------------

    def script(self, expr: cst.BaseExpression, depth: int = 0) -> PyString | None:
        expr = self.resolve(expr)
        s = self.string(expr, placeholders=True)
        if s is not None:
            return None if s.is_bytes else s
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add) and depth < 10:
            left = self.script(expr.left, depth + 1)
            right = self.script(expr.right, depth + 1)
            if left is None and right is None:
                return None
            parts = [left if left is not None else self._script_placeholder(expr.left),
                     right if right is not None else self._script_placeholder(expr.right)]
            omap = OffsetMap(list(parts[0].omap.segments), parts[0].omap.fallback)
            shift = len(parts[0].value)
            for s_, f, n in parts[1].omap.segments:
                omap.add(s_ + shift, f, n)
            return PyString(parts[0].value + parts[1].value, omap, self.span(expr), single=False)
        # "vllm serve {} --port {}".format(m, p) and "vllm serve %s" % m
        if (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format"):
            s = self.string(expr.func.value)
            if s is not None and not s.is_bytes and not s.opaque:
                return _fill_template(s, "brace")
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo):
            s = self.string(expr.left)
            if s is not None and not s.is_bytes and not s.opaque:
                return _fill_template(s, "percent")
        return None

    def _script_placeholder(self, expr: cst.BaseExpression) -> PyString:
        text = _placeholder(self.code(expr))
        span = self.span(expr)
        return PyString(text, OffsetMap(fallback=span.start), span, [(0, len(text))], single=False)

    def shell_module(self) -> Any:
        if self._shell_mod is None:
            try:
                from linter.sources import shell as mod  # written in parallel; optional until it lands

                self._shell_mod = mod if hasattr(mod, "extract_script") else False
            except ImportError:
                self._shell_mod = False
        return self._shell_mod

    def shell_script(self, expr: cst.BaseExpression, env: list[EnvVar]) -> None:
        # " ".join([...]) handed to a shell: the words are (nearly) an argv
        target = self.resolve(expr)
        if (isinstance(target, cst.Call) and isinstance(target.func, cst.Attribute) and target.func.attr.value == "join"
                and len(target.args) == 1):
            sep = self.string(target.func.value)
            if sep is not None and sep.value.strip() == "" and sep.value:
                w = self.words(target.args[0].value)
                if w is not None:
                    self.argv_launch(expr if isinstance(expr, cst.Call) else target, w[0], w[1], env)
                    return
        s = self.script(expr)
        if s is None:
            return
        mod = self.shell_module()
        if not mod:
            return
        try:
            extraction = mod.extract_script(self.src, s.value, s.omap, kind="python", group=self.src.path)
        except Exception as exc:  # the shell extractor must not take the Python one down
            self.result.problems.append(Problem(s.span, f"shell string not analysed: {type(exc).__name__}: {exc}"))
            return
        if not isinstance(extraction, Extraction):
            extraction = Extraction(launches=list(extraction or []))
        if env:
            for launch in extraction.launches:
                launch.env.extend(env)
        self.result.extend(extraction)

    # -- settings ---------------------------------------------------------------

    def setting_value(self, expr: cst.BaseExpression) -> tuple[Token, str]:
        span = self.span(expr)
        text = self.src.text[span.start : span.end]
        s = self.string(expr)
        if s is not None and not s.opaque and not s.is_bytes:
            tok = self.str_token(s)
            return tok, "str"
        if isinstance(expr, cst.Integer) or (isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)) and isinstance(expr.expression, cst.Integer)):
            value = str(_literal(expr))
            return Token(value, span, span.start if value == text else None), "int"
        if isinstance(expr, cst.Float) or (isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)) and isinstance(expr.expression, cst.Float)):
            return Token(text, span, span.start), "float"
        if isinstance(expr, cst.Name) and expr.value in ("True", "False", "None"):
            return Token(expr.value, span, span.start), ("null" if expr.value == "None" else "bool")
        if isinstance(expr, (cst.List, cst.Tuple, cst.Dict)):
            try:
                obj = _literal(expr)
                value = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
            except (_NotLiteral, TypeError, ValueError):
                pass
            else:
                return Token(value, span), "json"
        return Token(text, span, None, ((0, len(text)),)), "opaque"

    def dict_items(self, expr: cst.BaseExpression) -> tuple[list[tuple[Token, Token, str]], list[str]] | None:
        """Keys and values of a dict literal or ``dict(k=v)`` (following a name), with notes."""
        notes: list[str] = []
        if isinstance(expr, cst.Name):
            b = self.lookup(expr.value)
            if b is None or b.expr is None:
                return None
            if b.mutated:
                notes.append(f"{expr.value} is changed after it is built; only its literal keys are known")
            expr = b.expr
        items: list[tuple[Token, Token, str]] = []
        if isinstance(expr, cst.Dict):
            for el in expr.elements:
                if isinstance(el, cst.StarredDictElement):
                    inner = self.dict_items(el.value)
                    if inner is None:
                        notes.append(f"**{self.code(el.value)} not resolved")
                    else:
                        items.extend(inner[0])
                        notes.extend(inner[1])
                    continue
                key = self.string(el.key)
                if key is None or key.opaque:
                    notes.append(f"key {self.code(el.key)} not resolved")
                    continue
                value, kind = self.setting_value(el.value)
                items.append((self.str_token(key), value, kind))
            return items, notes
        if isinstance(expr, cst.Call) and self.qualname(expr.func) == "dict":
            for arg in expr.args:
                if arg.keyword is not None:
                    value, kind = self.setting_value(arg.value)
                    kspan = self.span(arg.keyword)
                    items.append((Token(arg.keyword.value, kspan, kspan.start), value, kind))
                elif arg.star == "**" or not arg.star:
                    inner = self.dict_items(arg.value)
                    if inner is None:
                        if self.qualname(arg.value) != "os.environ":
                            notes.append(f"{self.code(arg.value)} not resolved")
                    else:
                        items.extend(inner[0])
                        notes.extend(inner[1])
            return items, notes
        return None

    def settings_launch(self, call: cst.Call, entrypoint: str) -> None:
        settings: list[Setting] = []
        notes: list[str] = []
        positional = 0
        for arg in call.args:
            if arg.keyword is not None:
                kspan = self.span(arg.keyword)
                value, kind = self.setting_value(arg.value)
                settings.append(Setting(Token(arg.keyword.value, kspan, kspan.start), value, kind))  # type: ignore[arg-type]
            elif arg.star == "**":
                items = self.dict_items(arg.value)
                if items is None:
                    notes.append(f"**{self.code(arg.value)}: keyword arguments not known statically")
                else:
                    for name, value, kind in items[0]:
                        settings.append(Setting(name, value, kind))  # type: ignore[arg-type]
                    notes.extend(items[1])
            elif arg.star == "*":
                notes.append(f"*{self.code(arg.value)}: positional arguments not known statically")
                positional = -1_000
            else:
                if positional == 0:
                    value, kind = self.setting_value(arg.value)
                    # the model, given positionally: no keyword to edit
                    settings.append(Setting(Token("model", value.span, None), value, kind))  # type: ignore[arg-type]
                else:
                    notes.append(f"positional argument {self.code(arg.value)} not mapped to a setting")
                positional += 1
        self.result.launches.append(Launch(
            path=self.src.path, kind="python", span=self.span(call), entrypoint=entrypoint, style="settings",
            entry=[Token(self.code(call.func), self.span(call.func), self.span(call.func).start)],
            settings=settings, group=self.src.path, notes=notes,
        ))

    # -- calls -------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        self._mutation(node)
        qn = self.qualname(node.func)
        if qn is None:
            return
        cls = self.settings_class(qn)
        if cls is not None:
            self.settings_launch(node, cls)
            return
        if qn in ARGV_CALLS:
            args_expr = _arg(node, 0, "args")
            if args_expr is None:
                return
            env = self.env_vars(node)
            shell = _arg(node, 8, "shell")
            if isinstance(shell, cst.Name) and shell.value == "True":
                elements = self.list_elements(args_expr)
                if elements is not None:
                    if elements and isinstance(elements[0], cst.Element):
                        self.shell_script(elements[0].value, env)
                    return
                self.shell_script(args_expr, env)
                return
            w = self.words(args_expr)
            if w is not None:
                self.argv_launch(node, w[0], w[1], env)
            return
        if qn in EXECV_CALLS:
            args_expr = _arg(node, EXECV_CALLS[qn], None)
            if args_expr is not None:
                w = self.words(args_expr)
                if w is not None:
                    self.argv_launch(node, w[0], w[1], [])
            return
        if qn in EXECL_CALLS:
            first, trailing = EXECL_CALLS[qn]
            args = list(node.args[first : len(node.args) - trailing])
            self._positional_argv(node, args)
            return
        if qn in EXEC_ARGS_CALLS:
            self._positional_argv(node, [a for a in node.args if a.keyword is None], env=self.env_vars(node))
            return
        if qn in SHELL_CALLS:
            expr = _arg(node, 0, "cmd" if qn != "shlex.split" else "s")
            if expr is not None:
                self.shell_script(expr, self.env_vars(node))

    def _positional_argv(self, node: cst.Call, args: list[cst.Arg], env: list[EnvVar] | None = None) -> None:
        elements: list[cst.BaseElement] = []
        for a in args:
            if a.keyword is not None or a.star == "**":
                continue
            elements.append(cst.StarredElement(value=a.value) if a.star == "*" else cst.Element(value=a.value))
        w = self.words(cst.List(elements=elements))
        if w is not None:
            self.argv_launch(node, w[0], w[1], env or [])


class _NotLiteral(Exception):
    pass


def _literal(expr: cst.BaseExpression) -> Any:
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
        v = expr.evaluated_value
        if isinstance(v, bytes) or v is None:
            raise _NotLiteral
        return v
    if isinstance(expr, (cst.Integer, cst.Float)):
        return expr.evaluated_value
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        v = _literal(expr.expression)
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise _NotLiteral
        return -v if isinstance(expr.operator, cst.Minus) else v
    if isinstance(expr, cst.Name) and expr.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[expr.value]
    if isinstance(expr, (cst.List, cst.Tuple)):
        out = []
        for el in expr.elements:
            if not isinstance(el, cst.Element):
                raise _NotLiteral
            out.append(_literal(el.value))
        return out
    if isinstance(expr, cst.Dict):
        d = {}
        for el in expr.elements:
            if not isinstance(el, cst.DictElement):
                raise _NotLiteral
            key = _literal(el.key)
            if isinstance(key, (list, dict)):
                raise _NotLiteral
            d[key] = _literal(el.value)
        return d
    raise _NotLiteral


def _arg(call: cst.Call, index: int, keyword: str | None) -> cst.BaseExpression | None:
    positional = 0
    for arg in call.args:
        if arg.keyword is not None:
            if keyword is not None and arg.keyword.value == keyword:
                return arg.value
            continue
        if arg.star:
            return None  # *args before it: its position is unknown
        if positional == index:
            return arg.value
        positional += 1
    return None


def _dotted(expr: cst.CSTNode) -> str | None:
    parts = []
    while isinstance(expr, cst.Attribute):
        parts.append(expr.attr.value)
        expr = expr.value
    if not isinstance(expr, cst.Name):
        return None
    parts.append(expr.value)
    return ".".join(reversed(parts))


# ---------------------------------------------------------------------------
# Fast traversal and positions.  libcst's own visitors rebuild every node and its
# PositionProvider tracks lines and columns with a regex per token; both cost
# several times the parse.  These read the dataclass fields directly and count
# characters during one code generation pass.

_SKIP_FIELDS = ("whitespace", "lpar", "rpar", "leading_lines", "lines_after_decorators", "header", "footer",
                "comma", "semicolon", "equal", "colon", "dot", "star", "operator", "asynchronous")
_FIELDS: dict[type, tuple[str, ...]] = {}


def _children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    names = _FIELDS.get(type(node))
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(node) if not f.name.startswith(_SKIP_FIELDS))
        _FIELDS[type(node)] = names
    for name in names:
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            yield value
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, cst.CSTNode):
                    yield item


def _walk(node: cst.CSTNode, visitor: Any, handlers: dict[type, tuple[Any, Any]]) -> None:
    """Call ``visitor.visit_<Type>`` / ``leave_<Type>`` around each node, in source order."""
    pair = handlers.get(type(node))
    if pair is None:
        name = type(node).__name__
        pair = (getattr(type(visitor), "visit_" + name, None), getattr(type(visitor), "leave_" + name, None))
        handlers[type(node)] = pair
    if pair[0] is not None:
        pair[0](visitor, node)
    for child in _children(node):
        _walk(child, visitor, handlers)
    if pair[1] is not None:
        pair[1](visitor, node)


@dataclass
class _OffsetState(CodegenState):
    """Code generation that only counts characters: node -> (start, end) offsets, syntactic like PositionProvider."""

    computed: dict = field(default_factory=dict)
    offset: int = 0
    stack: list = field(default_factory=list)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.offset += len(value)

    def pop_trailing_newline(self) -> None:
        pass

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.stack.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.stack.pop()
        if node not in self.computed:
            self.computed[node] = (start, self.offset)

    @contextmanager
    def record_syntactic_position(self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
                                  end_node: cst.CSTNode | None = None) -> Iterator[None]:
        start = self.offset
        try:
            yield
        finally:
            end = self.offset
            if start_node is not None:
                start = self.computed[start_node][0]
            if end_node is not None:
                end = self.computed[end_node][1]
            self.computed[node] = (start, end)


def _positions(module: cst.Module) -> dict:
    state = _OffsetState(default_indent=module.default_indent, default_newline=module.default_newline)
    module._codegen(state)
    return state.computed


class _Scan:
    """One cheap pass: the import statements and the dotted names of every called function."""

    def __init__(self) -> None:
        self.imports: list[cst.CSTNode] = []
        self.called: set[str] = set()

    def visit_Import(self, node: cst.Import) -> None:
        self.imports.append(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.imports.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        dotted = _dotted(node.func)
        if dotted is not None:
            self.called.add(dotted)


# A launch needs one of these words in the text: the name of a settings class, or
# of the module or function that starts a process (``import subprocess``,
# ``os.system``, ``os.execvp``, ``pty.spawn``, ``shlex.split``).
_TRIGGERS = ("LLM", "EngineArgs", "subprocess", "system", "exec", "popen", "shlex", "spawn", "getoutput")


# libcst's native parser overflows the C stack (a segmentation fault, not an
# exception) on a few thousand nested brackets or unary operators, and takes
# minutes and gigabytes on long operator chains.  CPython's own parser refuses
# more than 200 nested brackets and 100 indentation levels; vllm-lint reads no
# file whose syntax tree is deeper than this.
_MAX_NESTING = 200
_MAX_RUN_TOKENS = 1000  # tokens between commas in one statement, when CPython cannot parse the file


def _too_deep(text: str) -> str | None:
    """Why the text must not reach libcst (nested too deeply), or None.

    CPython's parser (it only builds a tree, it runs nothing) measures the
    nesting; a file it refuses for another reason (syntax newer than the
    running Python, a real syntax error) is measured on its tokens instead.
    """
    try:
        with warnings.catch_warnings():  # invalid escapes warn on stderr (SyntaxWarning on 3.12+)
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (RecursionError, MemoryError):
        return "nested too deeply for Python's own parser"
    except SyntaxError as exc:
        if exc.msg and exc.msg.startswith("too many"):
            return f"Python's own parser refuses it: {exc.msg}"
        return _too_deep_tokens(text)
    except ValueError:  # NUL characters: libcst reports them
        return None
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > _MAX_NESTING:
            return f"more than {_MAX_NESTING} levels of nested expressions"
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return None


def _too_deep_tokens(text: str) -> str | None:
    depth = 0
    count = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.OP:
                if tok.string in "([{":
                    depth += 1
                    if depth > _MAX_NESTING:
                        return f"more than {_MAX_NESTING} nested brackets"
                elif tok.string in ")]}":
                    depth = max(0, depth - 1)
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or tok.string == ",":
                count = 0
            else:
                count += 1  # an operator chain (``not not ...``, ``a+b+...``) nests in libcst
                if count > _MAX_RUN_TOKENS:
                    return f"an expression of more than {_MAX_RUN_TOKENS} tokens"
    except (tokenize.TokenError, SyntaxError, RecursionError, MemoryError):
        return None  # libcst reports the error itself
    return None


def _might_launch(text: str) -> bool:
    lowered = text.lower()
    if "vllm" not in lowered and "lmcache" not in lowered:
        return False
    return any(word in text for word in _TRIGGERS)


def _has_candidate(extractor: _Extractor, called: set[str]) -> bool:
    """Whether any call could be a launch (decided before positions, which cost more than parsing)."""
    interesting = ARGV_CALLS | set(EXECV_CALLS) | set(EXECL_CALLS) | EXEC_ARGS_CALLS | SHELL_CALLS
    for dotted in called:
        qn = extractor.qualify(dotted)
        if qn in interesting or extractor.settings_class(qn) is not None:
            return True
    return False


def extract(src: SourceFile) -> Extraction:
    if not _might_launch(src.text):
        return Extraction()
    deep = _too_deep(src.text)
    if deep is not None:
        return Extraction(problems=[Problem(Span(0, 0), f"Python source nested too deeply to analyse ({deep})")])
    try:
        module = cst.parse_module(src.text)
    except cst.ParserSyntaxError as exc:
        line_starts = [0] + [m.end() for m in _LINE_RE.finditer(src.text)]
        line = min(max(exc.raw_line, 1), len(line_starts))
        start = min(line_starts[line - 1] + max(exc.raw_column, 0), len(src.text))
        end = min(start + 1, len(src.text))
        return Extraction(problems=[Problem(Span(start, end), f"Python syntax error: {exc.message}")])
    except (RecursionError, Exception) as exc:  # libcst raises a few other kinds on odd input
        return Extraction(problems=[Problem(Span(0, 0), f"Python source not parsed: {type(exc).__name__}: {exc}")])
    try:
        if module.code != src.text:  # libcst did not round-trip (a lone CR line end): offsets would drift
            return Extraction(problems=[Problem(Span(0, 0), "Python source not analysed: unusual line ends")])
        scan = _Scan()
        _walk(module, scan, {})
        extractor = _Extractor(src, module, None)
        extractor.collect_imports(scan.imports)
        if not _has_candidate(extractor, scan.called):
            return Extraction()
        extractor.positions = _positions(module)
        _walk(module, extractor, {})
    except RecursionError:
        return Extraction(problems=[Problem(Span(0, 0), "Python source nested too deeply to analyse")])
    return extractor.result
