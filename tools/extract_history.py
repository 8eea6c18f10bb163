"""Option history of ``vllm serve`` / the OpenAI api_server, back to vLLM 0.6.0.

Run ``python -m tools.extract_history``. For every final vLLM release from
0.6.0 up to 0.27.1 (``pip index versions vllm``, .postN included) it downloads
the wheel with ``pip download --no-deps`` (tools/wheels.py, separate cache),
keeps only the ``vllm/**.py`` files in a small zip next to it, deletes the wheel
and reads the sources STATICALLY (``ast``; nothing from the release is imported).

How the serve parser is found
-----------------------------
The walk starts at the functions that build the serve parser:

* ``vllm/entrypoints/openai/cli_args.py:make_arg_parser`` (api_server and serve),
* ``vllm/scripts.py:main`` (old ``vllm serve``, only what it adds to ``serve_parser``),
* ``vllm/entrypoints/cli/serve.py:ServeSubcommand.subparser_init`` (new ``vllm serve``),

and follows the parser object: a name is a *parser* when it is a parameter that
received a parser, or is assigned from a call involving a parser
(``parser.add_argument_group(...)``, ``X.add_cli_args(parser)``).  Every
``<parser>.add_argument(...)`` contributes its literal option strings; every call
that passes a parser to a function that can be resolved (module functions,
``Class.method``, ``cls.``/``self.``/``super().`` methods, through imports)
is walked too.  Options built from config dataclasses are handled as the
release's code does it:

* ``add_argument("--x", **kw["x"])`` with ``kw = get_kwargs(SomeConfig)``: the
  field's annotation decides whether it is a bool (then, when the release's
  ``get_kwargs`` uses ``argparse.BooleanOptionalAction`` for bools, a
  ``--no-x`` form exists) and the field's attribute docstring is its help;
* ``for key, value in get_kwargs(cls).items(): g.add_argument(f"--{key...}", **value)``
  (FrontendArgs since 0.2x): every dataclass field of the bound class, with
  extra ``"flags"`` and ``"action"`` set by ``_customize_cli_kwargs``.

* ``for arg, type in [("--x", str), ...]: g.add_argument(arg, type=type, ...)``
  (0.11's retired guided-decoding options): one option per list element.

Besides ``add_argument``: ``-O`` counts from 0.12 on, where
``FlexibleArgumentParser.parse_args`` rewrites it to ``--optimization-level``;
where the parser registers a ``BooleanOptionalAction`` replacement with
``_inverse_prefixes`` (0.33), ``--enable-x``/``--disable-x`` pair up; argparse's
own ``-h``/``--help`` are included.

Deprecation (``deprecated_in``): ``deprecated=True``, help text or field
docstring worded as a deprecation of the option (:data:`DEPRECATION_WORDING`),
or a message in the argument/config code that names the option before such
wording.  ``replacement``: :data:`CURATED` (read in the code by hand), else a
single other option named by the deprecation note or message.

Anything the walk cannot resolve is printed as a ``warning:`` line so that a new
pattern is noticed; none is printed for 0.6.0-0.27.1 or 0.28.0-0.33.0.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import io
import json
import os
import re
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from packaging.version import Version

from tools import wheels

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rules" / "data" / "history.json"
CACHE = Path(os.environ.get("VLLM_LINT_WHEEL_CACHE", Path(__file__).parent / ".cache" / "history-wheels"))
FIRST, LAST = Version("0.6.0"), Version("0.27.1")

ENTRY_POINTS = [
    # (module path, qualified function name, names that hold the serve parser at entry)
    ("vllm/entrypoints/openai/cli_args.py", "make_arg_parser", None),
    ("vllm/scripts.py", "main", {"serve_parser"}),
    ("vllm/entrypoints/cli/serve.py", "ServeSubcommand.subparser_init", {"serve_parser"}),
]
# Calls that receive the parser but add no option strings: the platform hook is
# a no-op in vllm/platforms/interface.py (only out-of-tree platforms override it);
# the help helpers only print.
IGNORED_CALLEES = {"pre_register_and_update", "show_filtered_argument_or_group_from_help"}
NO_VALUE_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version",
                    "BooleanOptionalAction"}
# Help/docstring wording that marks THIS option as deprecated (not e.g. "show
# deprecated metrics"): "[DEPRECATED]", "(Deprecated", "Deprecated, use ...",
# "is/are/been deprecated", "deprecated and will be removed", "will be removed".
DEPRECATION_WORDING = re.compile(
    r"\[deprecated|\(deprecated|^\W*deprecated\b|\b(is|are|been|now|was)\s+(now\s+)?deprecated"
    r"|deprecated\s*(and|in favou?r|since|as of|,|;|\.|:)|will be removed", re.I)
OPTION_TOKEN = re.compile(r"(?<![\w-])--?[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


# ----------------------------------------------------------------------------- sources


class Sources:
    """The ``vllm/**.py`` files of one release, parsed on demand."""

    def __init__(self, files: dict[str, bytes]):
        self.files = files
        self._trees: dict[str, ast.Module | None] = {}

    def tree(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            data = self.files.get(path)
            try:
                self._trees[path] = ast.parse(data) if data is not None else None
            except SyntaxError:
                self._trees[path] = None
        return self._trees[path]

    def module_path(self, dotted: str) -> str | None:
        base = dotted.replace(".", "/")
        for cand in (base + ".py", base + "/__init__.py"):
            if cand in self.files:
                return cand
        return None


def package_of(path: str) -> str:
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1])
    return ".".join(parts[:-1])


@dataclass
class Def:
    """A resolved definition: a function or class node inside a module."""
    path: str
    node: ast.AST
    owner: "Def | None" = None  # the class a method belongs to


class Resolver:
    def __init__(self, src: Sources):
        self.src = src

    def lookup(self, path: str, name: str, depth: int = 0) -> Def | None:
        """Resolve module-level ``name`` in module ``path`` (following imports)."""
        tree = self.src.tree(path)
        if tree is None or depth > 8:
            return None
        found: Def | None = None
        for stmt in tree.body:
            for node in self._flatten(stmt):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                    found = Def(path, node)
                elif isinstance(node, ast.ImportFrom):
                    for alias in node.names:
                        if (alias.asname or alias.name) == name:
                            mod = self._import_base(path, node)
                            if mod is None:
                                continue
                            target = self.src.module_path(mod)
                            if target is not None:
                                got = self.lookup(target, alias.name, depth + 1)
                                if got is not None:
                                    found = got
                                    continue
                            sub = self.src.module_path(f"{mod}.{alias.name}")
                            if sub is not None:
                                found = Def(sub, self.src.tree(sub))
        return found

    @staticmethod
    def _flatten(stmt: ast.stmt):
        yield stmt
        if isinstance(stmt, ast.If):  # `if TYPE_CHECKING:` / version switches
            for s in stmt.body + stmt.orelse:
                yield from Resolver._flatten(s)
        elif isinstance(stmt, ast.Try):
            for s in stmt.body + [x for h in stmt.handlers for x in h.body] + stmt.orelse:
                yield from Resolver._flatten(s)

    @staticmethod
    def _import_base(path: str, node: ast.ImportFrom) -> str | None:
        if node.level == 0:
            return node.module
        pkg = package_of(path).split(".")
        if node.level > 1:
            pkg = pkg[: -(node.level - 1)]
        return ".".join(pkg + ([node.module] if node.module else []))

    def resolve_expr(self, path: str, expr: ast.expr) -> Def | None:
        if isinstance(expr, ast.Name):
            return self.lookup(path, expr.id)
        if isinstance(expr, ast.Attribute):
            base = self.resolve_expr(path, expr.value)
            if base is None:
                return None
            if isinstance(base.node, ast.ClassDef):
                return self.method(base, expr.attr)
            if isinstance(base.node, ast.Module):
                return self.lookup(base.path, expr.attr)
        return None

    def bases(self, cls: Def) -> list[Def]:
        out = []
        for b in cls.node.bases:
            d = self.resolve_expr(cls.path, b)
            if d is not None and isinstance(d.node, ast.ClassDef):
                out.append(d)
        return out

    def mro(self, cls: Def, seen=None) -> list[Def]:
        seen = seen if seen is not None else set()
        key = (cls.path, cls.node.name)
        if key in seen:
            return []
        seen.add(key)
        out = [cls]
        for b in self.bases(cls):
            out += self.mro(b, seen)
        return out

    def method(self, cls: Def, name: str, skip_first: bool = False) -> Def | None:
        for c in self.mro(cls)[1 if skip_first else 0:]:
            for stmt in c.node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                    return Def(c.path, stmt, owner=c)
        return None

    def fields(self, cls: Def) -> list[tuple[str, ast.AnnAssign, str, str | None]]:
        """Dataclass fields (name, node, path, attribute docstring), bases first."""
        out: dict[str, tuple] = {}
        for c in reversed(self.mro(cls)):
            body = c.node.body
            for i, stmt in enumerate(body):
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    ann = ast.unparse(stmt.annotation)
                    if "ClassVar" in ann or "InitVar" in ann:
                        continue
                    doc = None
                    if i + 1 < len(body):
                        nxt = body[i + 1]
                        if (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                                and isinstance(nxt.value.value, str)):
                            doc = nxt.value.value
                    out[stmt.target.id] = (stmt.target.id, stmt, c.path, doc)
        return list(out.values())


# ----------------------------------------------------------------------------- extraction


@dataclass
class Option:
    names: list[str]
    takes_value: bool
    deprecated: str | None  # "path:line" where this release marks it deprecated
    help: str
    where: str


@dataclass
class KwInfo:
    """What is known about a ``kw = get_kwargs(Config)`` dict."""
    cls: Def
    overrides: dict[str, dict[str, ast.expr]] = field(default_factory=dict)  # field -> key -> expr


def const_str(e: ast.expr | None) -> str | None:
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        return e.value
    return None


def text_of(e: ast.expr | None) -> str:
    """Best-effort text of a help= expression (literal pieces joined)."""
    if e is None:
        return ""
    parts = []
    for n in ast.walk(e):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            parts.append(n.value)
    return " ".join(parts)


def marks_deprecated(text: str) -> bool:
    return bool(DEPRECATION_WORDING.search(text)) or "DEPRECATED" in text


def action_name(e: ast.expr | None) -> str | None:
    if e is None:
        return None
    if isinstance(e, ast.Constant):
        return str(e.value)
    if isinstance(e, ast.Attribute):
        return e.attr
    if isinstance(e, ast.Name):
        return e.id
    return None


def ann_has(ann: ast.expr, name: str) -> bool:
    for n in ast.walk(ann):
        if isinstance(n, ast.Name) and n.id == name:
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            try:
                if ann_has(ast.parse(n.value, mode="eval").body, name):
                    return True
            except SyntaxError:
                pass
    return False


def ann_names(ann: ast.expr) -> set[str]:
    out = set()
    for n in ast.walk(ann):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Constant) and n.value is None:
            out.add("None")
    return out


class Extractor:
    def __init__(self, src: Sources, version: str):
        self.src = src
        self.version = version
        self.res = Resolver(src)
        self.options: list[Option] = []
        self.warnings: list[str] = []
        self._visited: set = set()
        self._bool_policy = self._get_kwargs_policy()
        self._inverse_prefixes = self._find_inverse_prefixes()

    def _find_inverse_prefixes(self) -> dict[str, str]:
        """vLLM 0.33+: FlexibleArgumentParser registers an ``EnableDisableAction`` in place
        of ``argparse.BooleanOptionalAction`` that also accepts ``--disable-x`` for
        ``--enable-x`` (and the reverse), from its ``_inverse_prefixes`` dict."""
        for path in ("vllm/utils/argparse_utils.py", "vllm/utils/__init__.py", "vllm/utils.py"):
            tree = self.src.tree(path)
            if tree is None:
                continue
            registered = set()
            for n in ast.walk(tree):
                if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "register"
                        and len(n.args) == 3 and const_str(n.args[0]) == "action"
                        and action_name(n.args[1]) == "BooleanOptionalAction"):
                    registered.add(action_name(n.args[2]))
            for n in ast.walk(tree):
                if isinstance(n, ast.ClassDef) and n.name in registered:
                    for stmt in n.body:
                        if (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Dict)
                                and any(isinstance(t, ast.Name) and t.id == "_inverse_prefixes"
                                        for t in stmt.targets)):
                            return {const_str(k): const_str(v) for k, v in zip(stmt.value.keys, stmt.value.values)
                                    if const_str(k) and const_str(v)}
        return {}

    def _boolean_optional_names(self, names: list[str]) -> list[str]:
        """Option strings of a BooleanOptionalAction: ``--no-`` forms, and ``--enable-``/
        ``--disable-`` inverses where the release pairs them."""
        out = list(names) + ["--no-" + o[2:] for o in names if o.startswith("--")]
        for o in names:
            for prefix, inverse in self._inverse_prefixes.items():
                if o.startswith(prefix):
                    out.append(inverse + o[len(prefix):])
        return list(dict.fromkeys(out))

    # What this release's get_kwargs does with bool fields.
    def _get_kwargs_policy(self) -> dict:
        path = "vllm/engine/arg_utils.py"
        tree = self.src.tree(path)
        text = ""
        if tree is not None:
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef) and node.name in ("get_kwargs", "_compute_kwargs"):
                    text += ast.unparse(node)
        boa = "BooleanOptionalAction" in text
        store_true = "store_true" in text
        optional_flag = "{bool, str, type(None)}" in text.replace("NoneType", "type(None)")
        return {"boa": boa, "store_true": store_true, "optional_flag": optional_flag}

    def run(self) -> list[Option]:
        for path, qual, seeds in ENTRY_POINTS:
            fn = self._find_qual(path, qual)
            if fn is None:
                continue
            if seeds is None:
                params = self._params(fn.node)
                seeds = {params[0]} if params else set()
            self.walk(fn, set(seeds), bound=fn.owner, kw_params={})
        self._parse_args_aliases()
        # argparse adds -h/--help to every parser.
        self.options.append(Option(["-h", "--help"], False, None, "", "argparse"))
        return self.options

    def _parse_args_aliases(self) -> None:
        """Option strings that FlexibleArgumentParser.parse_args rewrites before argparse.

        From 0.12 on, ``-O <n>``/``-O<n>`` is rewritten to ``--optimization-level``
        (and ``-O.x`` to ``-cc.x``) instead of being an argparse option.
        """
        have = {n for o in self.options for n in o.names}
        for path in ("vllm/utils/argparse_utils.py", "vllm/utils/__init__.py", "vllm/utils.py"):
            tree = self.src.tree(path)
            if tree is None:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name == "FlexibleArgumentParser":
                    lits = [m for m in ast.walk(node) if isinstance(m, ast.Constant) and isinstance(m.value, str)]
                    values = {m.value for m in lits}
                    # Warnings in parse_args that retire an option (``--model`` with
                    # ``vllm serve``; ``--disable-log-requests`` in 0.11): the first
                    # option named in a deprecation message is the one retired.
                    for m in lits:
                        if not marks_deprecated(m.value):
                            continue
                        named = [t for t in OPTION_TOKEN.findall(m.value) if t in have]
                        if named:
                            for o in self.options:
                                if named[0] in o.names and o.deprecated is None:
                                    o.deprecated = f"{path}:{m.lineno}"
                    if "-O" in values and "-O" not in have and "--optimization-level" in values \
                            and "--optimization-level" in have:
                        line = next(m.lineno for m in lits if m.value == "--optimization-level")
                        self.options.append(Option(["-O"], True, None, "", f"{path}:{line}"))
                    return

    def _find_qual(self, path: str, qual: str) -> Def | None:
        parts = qual.split(".")
        d = self.res.lookup(path, parts[0])
        for p in parts[1:]:
            if d is None or not isinstance(d.node, ast.ClassDef):
                return None
            d = self.res.method(d, p)
        return d

    @staticmethod
    def _params(fn: ast.AST) -> list[str]:
        a = fn.args
        return [x.arg for x in a.posonlyargs + a.args]

    @staticmethod
    def _is_classmethod(fn: ast.AST) -> bool:
        return any(isinstance(d, ast.Name) and d.id == "classmethod" for d in fn.decorator_list)

    @staticmethod
    def _is_staticmethod(fn: ast.AST) -> bool:
        return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)

    def _resolve_callee(self, fn: Def, bound: Def | None, func: ast.expr):
        """(callee Def, bound class for the callee, how many leading params are implicit)."""
        if isinstance(func, ast.Attribute):
            v = func.value
            if isinstance(v, ast.Name) and v.id in ("cls", "self") and bound is not None:
                m = self.res.method(bound, func.attr)
                if m is not None:
                    implicit = 0 if self._is_staticmethod(m.node) else 1
                    return m, bound, implicit
                return None
            if (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super"
                    and fn.owner is not None):
                start = bound if bound is not None else fn.owner
                # methods after the defining class in the bound class's MRO
                mro = self.res.mro(start)
                keys = [(c.path, c.node.name) for c in mro]
                try:
                    i = keys.index((fn.owner.path, fn.owner.node.name))
                except ValueError:
                    i = 0
                for c in mro[i + 1:]:
                    for stmt in c.node.body:
                        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == func.attr:
                            m = Def(c.path, stmt, owner=c)
                            implicit = 0 if self._is_staticmethod(stmt) else 1
                            return m, bound, implicit
                return None
            base = self.res.resolve_expr(fn.path, v)
            if base is not None and isinstance(base.node, ast.ClassDef):
                m = self.res.method(base, func.attr)
                if m is not None:
                    implicit = 1 if self._is_classmethod(m.node) else 0
                    return m, base, implicit
            if base is not None and isinstance(base.node, ast.Module):
                d = self.res.lookup(base.path, func.attr)
                if d is not None and isinstance(d.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    return d, None, 0
            return None
        if isinstance(func, ast.Name):
            d = self.res.lookup(fn.path, func.id)
            if d is not None and isinstance(d.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return d, None, 0
        return None

    def walk(self, fn: Def, parsers: set[str], bound: Def | None, kw_params: dict[str, KwInfo]) -> None:
        key = (fn.path, fn.node.lineno, tuple(sorted(parsers)),
               (bound.path, bound.node.name) if bound else None)
        if key in self._visited:
            return
        self._visited.add(key)
        body = fn.node
        kws: dict[str, KwInfo] = dict(kw_params)
        fkws: dict[str, tuple[KwInfo, str]] = {}  # name = kw["field"]
        loops: dict[str, KwInfo] = {}  # loop variable `key` over kw.items() -> info
        literal_loops: dict[str, list[ast.expr]] = {}  # for arg, type in [("--x", str), ...]

        # Pass 1: names that hold a parser, and get_kwargs dicts (fixpoint over assignments).
        assigns = [n for n in ast.walk(body) if isinstance(n, (ast.Assign, ast.AnnAssign))]
        changed = True
        while changed:
            changed = False
            for a in assigns:
                targets = a.targets if isinstance(a, ast.Assign) else [a.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
                if not names or a.value is None:
                    continue
                val = a.value
                used = {n.id for n in ast.walk(val) if isinstance(n, ast.Name)}
                if isinstance(val, ast.Call) and used & parsers and not (set(names) <= parsers):
                    parsers |= set(names)
                    changed = True
                if isinstance(val, ast.Subscript) and const_str(val.slice):
                    # name = kw["field"]  /  name = get_kwargs(Config)["field"]
                    src_info = self._kw_source(fn, bound, val.value, kws)
                    if src_info is not None:
                        for nm in names:
                            if nm not in fkws:
                                fkws[nm] = (src_info, const_str(val.slice))
                                changed = True
                        continue
                info = self._kw_source(fn, bound, val, kws)
                if info is not None:
                    for nm in names:
                        if nm not in kws:
                            kws[nm] = info
                            changed = True
        for n in ast.walk(body):
            if isinstance(n, ast.For) and isinstance(n.iter, (ast.List, ast.Tuple)):
                targets = n.target.elts if isinstance(n.target, ast.Tuple) else [n.target]
                for i, t in enumerate(targets):
                    if not isinstance(t, ast.Name):
                        continue
                    vals = []
                    for e in n.iter.elts:
                        if isinstance(n.target, ast.Tuple):
                            vals.append(e.elts[i] if isinstance(e, (ast.Tuple, ast.List)) and i < len(e.elts)
                                        else None)
                        else:
                            vals.append(e)
                    if all(v is not None for v in vals):
                        literal_loops[t.id] = vals
            if isinstance(n, ast.For) and isinstance(n.target, ast.Tuple) and len(n.target.elts) == 2:
                it = n.iter
                if (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items"):
                    info = self._kw_source(fn, bound, it.func.value, kws)
                    k, v = n.target.elts
                    if info is not None and isinstance(k, ast.Name) and isinstance(v, ast.Name):
                        loops[k.id] = info
                        loops["value:" + v.id] = info
        # Overrides such as kw["x"]["action"] = ... or kw["x"]["flags"] = [...]
        for n in ast.walk(body):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    self._note_override(t, n.value, kws)
                    if (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                            and t.value.id in fkws and const_str(t.slice)):
                        info, fld = fkws[t.value.id]
                        info.overrides.setdefault(fld, {})[const_str(t.slice)] = n.value
        # Pass 2: calls in source order.
        calls = sorted((n for n in ast.walk(body) if isinstance(n, ast.Call)),
                       key=lambda c: (c.lineno, c.col_offset))
        for call in calls:
            f = call.func
            if isinstance(f, ast.Attribute) and f.attr == "add_argument":
                root = f.value
                while isinstance(root, (ast.Attribute, ast.Call)):
                    root = root.func if isinstance(root, ast.Call) else root.value
                if isinstance(root, ast.Name) and root.id in parsers:
                    self._add_argument_expanded(fn, call, kws, loops, fkws, literal_loops)
                continue
            arg_names = [a.id if isinstance(a, ast.Name) else None for a in call.args]
            kw_arg_names = {k.arg: k.value.id for k in call.keywords if k.arg and isinstance(k.value, ast.Name)}
            if not (set(filter(None, arg_names)) | set(kw_arg_names.values())) & (parsers | set(kws)):
                continue
            got = self._resolve_callee(fn, bound, f)
            if got is None:
                callee_name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if set(filter(None, arg_names)) & parsers and not (
                        (isinstance(f, ast.Name) and hasattr(builtins, f.id)) or callee_name in IGNORED_CALLEES):
                    self.warnings.append(f"{fn.path}:{call.lineno}: parser passed to unresolved "
                                         f"{ast.unparse(f)}")
                continue
            callee, cbound, implicit = got
            params = self._params(callee.node)[implicit:]
            new_parsers, new_kws = set(), {}
            for p, a in zip(params, arg_names):
                if a in parsers:
                    new_parsers.add(p)
                if a in kws:
                    new_kws[p] = kws[a]
            for k, a in kw_arg_names.items():
                if a in parsers:
                    new_parsers.add(k)
                if a in kws:
                    new_kws[k] = kws[a]
            if new_parsers or new_kws:
                self.walk(callee, new_parsers, cbound, new_kws)

    def _kw_source(self, fn: Def, bound: Def | None, val: ast.expr, kws: dict[str, KwInfo]) -> KwInfo | None:
        """``get_kwargs(C)`` / ``cls._customize_cli_kwargs(kw)`` / a name already known."""
        if isinstance(val, ast.Name) and val.id in kws:
            return kws[val.id]
        if not isinstance(val, ast.Call):
            return None
        fname = val.func.attr if isinstance(val.func, ast.Attribute) else getattr(val.func, "id", None)
        if fname == "get_kwargs" and val.args:
            a = val.args[0]
            if isinstance(a, ast.Name) and a.id == "cls" and bound is not None:
                return KwInfo(bound)
            d = self.res.resolve_expr(fn.path, a)
            if d is not None and isinstance(d.node, ast.ClassDef):
                return KwInfo(d)
            self.warnings.append(f"{fn.path}:{val.lineno}: get_kwargs of unresolved {ast.unparse(a)}")
            return None
        for a in val.args:
            if isinstance(a, ast.Name) and a.id in kws:
                return kws[a.id]  # e.g. kw = cls._customize_cli_kwargs(kw)
        return None

    @staticmethod
    def _note_override(target: ast.expr, value: ast.expr, kws: dict[str, KwInfo]) -> None:
        # kw["field"]["key"] = value
        if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Subscript)
                and isinstance(target.value.value, ast.Name) and target.value.value.id in kws):
            fld = const_str(target.value.slice)
            k = const_str(target.slice)
            if fld and k:
                kws[target.value.value.id].overrides.setdefault(fld, {})[k] = value

    def _field(self, info: KwInfo, name: str):
        for fname, node, path, doc in self.res.fields(info.cls):
            if fname == name:
                return node, path, doc
        return None

    def _field_kwargs(self, info: KwInfo, name: str, call: ast.Call, fn: Def):
        """(takes_value, boolean-optional, help text, deprecated location) for a get_kwargs field."""
        got = self._field(info, name)
        if got is None:
            self.warnings.append(f"{fn.path}:{call.lineno}: no field {name!r} in {info.cls.node.name}")
            return True, False, "", None
        node, path, doc = got
        names = ann_names(node.annotation)
        for n in ast.walk(node.annotation):  # string annotations
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                try:
                    names |= ann_names(ast.parse(n.value, mode="eval").body)
                except SyntaxError:
                    pass
        is_bool = "bool" in names
        boa = False
        takes = True
        if is_bool:
            pol = self._bool_policy
            if pol["optional_flag"] and names >= {"bool", "str"} and ("None" in names or "Optional" in names) \
                    and not (names - {"bool", "str", "None", "Optional", "Union"}):
                takes = True
            elif pol["boa"]:
                boa, takes = True, False
            elif pol["store_true"]:
                takes = False
        ov = info.overrides.get(name, {})
        if "action" in ov:
            act = action_name(ov["action"])
            boa = act == "BooleanOptionalAction"
            takes = act not in NO_VALUE_ACTIONS
        dep = None
        if doc and marks_deprecated(doc):
            dep = f"{path}:{node.lineno}"
        if "deprecated" in ov and isinstance(ov["deprecated"], ast.Constant) and ov["deprecated"].value:
            dep = f"{fn.path}:{ov['deprecated'].lineno}"
        return takes, boa, doc or "", dep

    def _add_argument_expanded(self, fn, call, kws, loops, fkws, literal_loops) -> None:
        """Expand ``for arg, type in [("--x", str), ...]: add_argument(arg, type=type)``."""
        used = [n.id for n in ast.walk(call) if isinstance(n, ast.Name) and n.id in literal_loops]
        if not used:
            return self._add_argument(fn, call, kws, loops, fkws)
        count = len(literal_loops[used[0]])
        for i in range(count):
            subst = {name: literal_loops[name][i] for name in used if len(literal_loops[name]) == count}

            class Sub(ast.NodeTransformer):
                def visit_Name(self, node):
                    return subst.get(node.id, node)

            new = Sub().visit(ast.parse(ast.unparse(call), mode="eval")).body
            ast.copy_location(new, call)
            for n in ast.walk(new):
                n.lineno = call.lineno
            # a loop variable used as type=bool is still a value-taking type
            self._add_argument(fn, new, kws, loops, fkws)

    def _add_argument(self, fn: Def, call: ast.Call, kws: dict[str, KwInfo], loops: dict[str, KwInfo],
                      fkws: dict[str, tuple[KwInfo, str]]) -> None:
        where = f"{fn.path}:{call.lineno}"
        names: list[str] = []
        dynamic: list[ast.expr] = []
        for a in call.args:
            s = const_str(a)
            if s is not None:
                names.append(s)
            else:
                dynamic.append(a)
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        splats = [k.value for k in call.keywords if k.arg is None]
        if not names and not dynamic:
            return
        if names and not names[0].startswith("-"):
            return  # positional (model_tag)
        # The FrontendArgs pattern: for key, value in get_kwargs(cls).items(): add_argument(f"--{key}", **value)
        loop_key = None
        for d in dynamic:
            if isinstance(d, ast.JoinedStr):
                for n in ast.walk(d):
                    if isinstance(n, ast.Name) and n.id in loops:
                        loop_key = n.id
            elif isinstance(d, ast.Starred):
                continue  # *extra_flags: taken from the "flags" overrides below
            else:
                self.warnings.append(f"{where}: dynamic option string {ast.unparse(d)}")
        if loop_key is not None:
            info = loops[loop_key]
            for fname, node, path, doc in self.res.fields(info.cls):
                takes, boa, help_text, dep = self._field_kwargs(info, fname, call, fn)
                opt = ["--" + fname.replace("_", "-")]
                flags = info.overrides.get(fname, {}).get("flags")
                extra = [const_str(e) for e in getattr(flags, "elts", [])] if flags is not None else []
                opt = [e for e in extra if e] + opt
                if boa:
                    opt = self._boolean_optional_names(opt)
                self.options.append(Option(opt, takes, dep, help_text, f"{path}:{node.lineno}"))
            return
        if not names:
            return
        takes, boa, help_text, dep = True, False, text_of(kw.get("help")), None
        # **kw["field"] from get_kwargs(Config)
        for s in splats:
            info, fname = None, None
            if isinstance(s, ast.Subscript) and isinstance(s.value, ast.Name) and s.value.id in kws:
                info, fname = kws[s.value.id], const_str(s.slice)
            elif isinstance(s, ast.Name) and s.id in fkws:
                info, fname = fkws[s.id]
            elif isinstance(s, ast.Dict):  # **{**kw["x"], "action": ...}
                for k, v in zip(s.keys, s.values):
                    if k is None and isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) \
                            and v.value.id in kws:
                        info, fname = kws[v.value.id], const_str(v.slice)
                    elif const_str(k) is not None:
                        kw[const_str(k)] = v
            if info is not None and fname is not None:
                takes, boa, h, dep = self._field_kwargs(info, fname, call, fn)
                help_text = help_text or h
            elif info is None:
                self.warnings.append(f"{where}: unresolved **{ast.unparse(s)}")
        if "action" in kw:
            act = action_name(kw["action"])
            boa = act == "BooleanOptionalAction"
            takes = act not in NO_VALUE_ACTIONS
        if "deprecated" in kw and not (isinstance(kw["deprecated"], ast.Constant) and not kw["deprecated"].value):
            dep = where
        if dep is None and marks_deprecated(text_of(kw.get("help"))):
            dep = where
        opts = list(names)
        if boa:
            opts = self._boolean_optional_names(names)
        self.options.append(Option(opts, takes, dep, help_text, where))


# ----------------------------------------------------------------------------- releases


def release_versions() -> list[str]:
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "vllm",
                          "--disable-pip-version-check"], capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("Available versions:"))
    vs = {Version(v.strip()) for v in line.split(":", 1)[1].split(",") if v.strip()}
    return [str(v) for v in sorted(vs) if FIRST <= v <= LAST and not v.is_prerelease and not v.is_devrelease]


def release_sources(version: str, cache: Path = CACHE, keep_wheel: bool = False) -> Sources:
    """The vllm/**.py files of a release; cached as a small zip, the wheel is deleted."""
    small = cache / f"vllm-{version}-py.zip"
    if not small.exists():
        whl = wheels.wheel_path(version, cache=cache)
        buf = io.BytesIO()
        with zipfile.ZipFile(whl) as zin, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
            for n in sorted(zin.namelist()):
                if n.startswith("vllm/") and n.endswith(".py"):
                    zout.writestr(n, zin.read(n))
        tmp = small.with_suffix(".tmp")
        tmp.write_bytes(buf.getvalue())
        tmp.replace(small)
        if not keep_wheel:
            whl.unlink()
    with zipfile.ZipFile(small) as zf:
        return Sources({n: zf.read(n) for n in zf.namelist()})


def sources_from_wheel(whl: Path) -> Sources:
    with zipfile.ZipFile(whl) as zf:
        return Sources({n: zf.read(n) for n in zf.namelist() if n.startswith("vllm/") and n.endswith(".py")})


MESSAGE_FILES = ("vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py",
                 "vllm/entrypoints/cli/serve.py", "vllm/utils/argparse_utils.py", "vllm/config.py")


def string_literals(tree: ast.AST):
    """(text, line) of every string literal; f-strings with their fields as "{}"."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            yield n.value, n.lineno
        elif isinstance(n, ast.JoinedStr):
            yield "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in n.values), n.lineno


def message_deprecations(src: Sources, names: set[str]) -> list[tuple[str, str, str | None]]:
    """Warnings/messages that retire an option: (option, "path:line", option named after it).

    A string literal in the files that build or check the serve arguments (and
    vllm/config*) that names an option BEFORE deprecation wording ("`--x` is
    deprecated", "`--x` will be removed") marks that option; a single other
    option named after the wording ("use `--y` instead") is its replacement.
    """
    paths = [p for p in MESSAGE_FILES if p in src.files]
    paths += sorted(p for p in src.files if p.startswith("vllm/config/") and p.endswith(".py"))
    out = []
    for path in paths:
        tree = src.tree(path)
        if tree is None:
            continue
        for text, line in string_literals(tree):
            m = DEPRECATION_WORDING.search(text)
            if not m:
                continue
            # "`--convert reward` is deprecated" retires a value, not the option
            before = [t for t in OPTION_TOKEN.findall(text[:m.start()]) if t in names
                      and not re.search(rf"[`'\"]{re.escape(t)}[ =][^`'\"]+[`'\"]", text)]
            after = sorted({t for t in OPTION_TOKEN.findall(text[m.end():])
                            if t in names and t not in before and t.startswith("--")})
            for opt in dict.fromkeys(before):
                out.append((opt, f"{path}:{line}", after[0] if len(after) == 1 else None))
    return out


def extract(src: Sources, version: str) -> tuple[dict[str, dict], list[str]]:
    """option string -> {"takes_value", "deprecated", "names", "help", "where"} for one release,
    plus warnings."""
    ex = Extractor(src, version)
    opts = ex.run()
    out: dict[str, dict] = {}
    for o in opts:
        for n in o.names:
            cur = out.setdefault(n, {"takes_value": o.takes_value, "deprecated": None,
                                     "names": list(o.names), "help": o.help, "where": o.where,
                                     "message_replacement": None})
            if o.deprecated and not cur["deprecated"]:
                cur["deprecated"] = o.deprecated
    for opt, where, repl in message_deprecations(src, set(out)):
        for n in out[opt]["names"]:
            if n in out and not out[n]["deprecated"]:
                out[n]["deprecated"] = where
            if n in out and repl and not out[n]["message_replacement"]:
                out[n]["message_replacement"] = (repl, where)
    return out, ex.warnings


# Replacements verified by reading the releases' code (the deprecation/removal
# message or the rename). Option -> (replacement, release whose code says so,
# file, paraphrase).
_SPEC = ("--speculative-config", "0.8.2", "vllm/engine/arg_utils.py",
         "create_speculative_config warns that the standalone speculative options go away "
         "and packs this one into the speculative config dict")
_EPLB = ("--eplb-config", "0.10.2", "vllm/config/parallel.py",
         "the field is flagged as superseded by the matching eplb_config entry")
_LOGREQ = ("--enable-log-requests", "0.11.0", "vllm/utils/__init__.py",
           "FlexibleArgumentParser.parse_known_args warns that the flag gave way to "
           "--enable-log-requests (request logging became opt-in)")
CURATED: dict[str, tuple[str | None, str, str, str]] = {
    **{o: _SPEC for o in (
        "--speculative-model", "--speculative-model-quantization", "--speculative-max-model-len",
        "--speculative-draft-tensor-parallel-size", "-spec-draft-tp", "--num-speculative-tokens",
        "--speculative-disable-mqa-scorer", "--speculative-disable-by-batch-size",
        "--ngram-prompt-lookup-max", "--ngram-prompt-lookup-min", "--spec-decoding-acceptance-method",
        "--typical-acceptance-sampler-posterior-threshold", "--typical-acceptance-sampler-posterior-alpha",
        "--disable-logprobs-during-spec-decoding")},
    **{o: _EPLB for o in ("--num-redundant-experts", "--eplb-window-size", "--eplb-step-interval",
                          "--eplb-log-balancedness", "--no-eplb-log-balancedness")},
    "--disable-log-requests": _LOGREQ,
    "--no-disable-log-requests": _LOGREQ,
    "--disable-mm-preprocessor-cache": (
        "--mm-processor-cache-gb", "0.11.0", "vllm/engine/arg_utils.py",
        "create_model_config warns to pass a cache size of 0 instead"),
    "--enable-multimodal-encoder-data-parallel": (
        "--mm-encoder-tp-mode", "0.11.0", "vllm/engine/arg_utils.py",
        "create_model_config warns to select the data mode of the encoder TP option instead"),
    "--cuda-graph-sizes": (
        "--cudagraph-capture-sizes", "0.11.1", "vllm/engine/arg_utils.py",
        "the old spelling is registered as a deprecated alias of the capture-sizes field"),
    "--rope-scaling": (
        "--hf-overrides", "0.11.0", "vllm/config/model.py",
        "ModelConfig warns to put rope_scaling into the HF overrides JSON instead"),
    "--rope-theta": (
        "--hf-overrides", "0.11.0", "vllm/config/model.py",
        "ModelConfig warns to put rope_theta into the HF overrides JSON instead"),
    "--override-pooler-config": (
        "--pooler-config", "0.11.0", "vllm/config/model.py",
        "ModelConfig warns to use the pooler config field instead"),
    "--task": (
        "--runner", "0.11.0", "vllm/config/model.py",
        "ModelConfig's task handling says to use --runner generate/pooling "
        "(or --convert for pooling tasks on generative models, or nothing)"),
}


def runs(flags: list[bool], releases: list[str]) -> list[list[str]]:
    out, start = [], None
    for i, f in enumerate(flags + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append([releases[start], releases[i - 1]])
            start = None
    return out


def replacement_from_help(opt: str, help_text: str, all_names: set[str]) -> str | None:
    if not marks_deprecated(help_text):
        return None
    base = "--" + opt[5:] if opt.startswith("--no-") else opt
    cands = sorted({t for t in OPTION_TOKEN.findall(help_text)
                    if t not in (opt, base) and t in all_names and t.startswith("--")})
    return cands[0] if len(cands) == 1 else None


def build(per_release: dict[str, dict[str, dict]], releases: list[str]) -> dict:
    every = sorted({n for r in releases for n in per_release[r]})
    options = {}
    for name in every:
        flags = [name in per_release[r] for r in releases]
        last = max(i for i, f in enumerate(flags) if f)
        info_last = per_release[releases[last]][name]
        dep_in = dep_src = None
        for r in releases:
            d = per_release[r].get(name)
            if d and d["deprecated"]:
                dep_in, dep_src = r, d["deprecated"]
                break
        repl = repl_src = None
        if name in CURATED:
            repl, rel, path, para = CURATED[name]
            repl_src = f"{path} in {rel}: {para}"
        else:
            for r in releases:
                d = per_release[r].get(name)
                if d and d["message_replacement"]:
                    repl, where = d["message_replacement"]
                    repl_src = (f"{where.rsplit(':', 1)[0]} in {r}: a deprecation message "
                                f"about it points to {repl}")
                    break
                if d and d["deprecated"]:
                    cand = replacement_from_help(name, d["help"], set(every))
                    if cand:
                        repl = cand
                        repl_src = (f"{d['deprecated'].rsplit(':', 1)[0]} in {r}: "
                                    f"the deprecation note points to {cand}")
                        break
        options[name] = {
            "accepted": runs(flags, releases),
            "takes_value": info_last["takes_value"],
            "deprecated_in": dep_in,
            "deprecated_source": f"{dep_src} in {dep_in}" if dep_src else None,
            "replacement": repl,
            "replacement_source": repl_src,
        }
    return {"schema": 1, "releases": releases, "options": options}


def env_names(src: Sources) -> set[str]:
    """The ``VLLM_*`` keys of ``vllm/envs.py``'s ``environment_variables`` table (static)."""
    tree = src.tree("vllm/envs.py")
    names: set[str] = set()
    if tree is None:
        return names
    for node in ast.walk(tree):
        target = node.targets[0] if isinstance(node, ast.Assign) and node.targets else getattr(node, "target", None)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(target, ast.Name) and target.id == "environment_variables":
            if isinstance(node.value, ast.Dict):
                for k in node.value.keys:
                    if isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.startswith("VLLM_"):
                        names.add(k.value)
    return names


def env_history(per_release: dict[str, set[str]], releases: list[str]) -> dict:
    every = sorted({n for r in releases for n in per_release[r]})
    return {name: {"accepted": runs([name in per_release[r] for r in releases], releases)} for name in every}


def dump(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--output", type=Path, default=OUT)
    ap.add_argument("--keep-wheels", action="store_true", help="do not delete wheels after reading")
    ap.add_argument("--versions", nargs="*", help="only these releases (default: 0.6.0..0.27.1)")
    ap.add_argument("--dump", metavar="WHEEL", type=Path,
                    help="print the option strings a wheel's serve parser accepts, and exit")
    args = ap.parse_args(argv)
    t0 = time.time()
    if args.dump:
        opts, warns = extract(sources_from_wheel(args.dump), args.dump.name)
        for w in warns:
            print("warning:", w, file=sys.stderr)
        print("\n".join(sorted(opts)))
        return 0
    releases = args.versions or release_versions()
    releases = sorted(releases, key=Version)
    per_release = {}
    env_per_release: dict[str, set[str]] = {}
    for v in releases:
        t = time.time()
        src = release_sources(v, keep_wheel=args.keep_wheels)
        env_per_release[v] = env_names(src)
        opts, warns = extract(src, v)
        for w in warns:
            print(f"warning: {v}: {w}", file=sys.stderr)
        per_release[v] = opts
        print(f"{v}: {len(opts)} option strings ({time.time() - t:.1f}s)", file=sys.stderr)
    data = build(per_release, releases)
    data["env"] = env_history(env_per_release, releases)  # VLLM_* variables envs.py reads, per release
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(dump(data), encoding="utf-8")
    print(f"wrote {args.output} ({len(data['options'])} options, {len(releases)} releases) "
          f"in {time.time() - t0:.0f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
