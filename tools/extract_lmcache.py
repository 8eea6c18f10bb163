"""Per-release LMCache facts, read statically from the lmcache wheels.

``python -m tools.extract_lmcache --all`` writes ``rules/data/lmcache.json``: for every
release in :data:`RELEASES`,

* every option of ``lmcache server``: the ``add_arguments`` of
  ``lmcache/cli/commands/server.py`` is followed through the ``add_*_args(parser)``
  helpers it calls (across modules, through argument groups) to each
  ``add_argument`` call, whose names, ``type``, ``default``, ``required``, ``choices``
  and ``action`` are recorded (``BooleanOptionalAction`` adds the ``--no-`` name);
  a keyword whose value is computed at run time (``choices=available_backends()``) is
  recorded as ``{"dynamic": "<source text>"}``, never guessed;
* the connector facts the LMCache rules use, from
  ``lmcache/integration/vllm/lmcache_mp_connector.py``: whether
  ``validate_mamba_step_alignment`` rejects ``max_num_batched_tokens >= 2 * block_size``
  (the upper bound, gone in 0.5.4), and whether ``LMCacheMPConnector`` subclasses
  ``SupportsHMA``; each with file:line.

Static reading (``ast``) because building the real parser needs torch and LMCache's
CUDA extensions (``ServerCommand.add_arguments`` silently registers nothing without
them).  Output is byte-for-byte reproducible (``tests/tools/test_extract_lmcache.py``).
A new LMCache release is one entry in :data:`RELEASES` and one run.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tools import generated

RELEASES = ["0.4.7", "0.5.0", "0.5.1", "0.5.2", "0.5.3", "0.5.4", "0.5.5", "0.5.6"]
OUT = Path(__file__).resolve().parent.parent / "rules" / "data" / "lmcache.json"
CACHE = Path(os.environ.get("VLLM_LINT_LMCACHE_WHEELS", Path(__file__).parent / ".cache" / "lmcache-wheels"))
SERVER = "lmcache/cli/commands/server.py"
CONNECTOR = "lmcache/integration/vllm/lmcache_mp_connector.py"


def wheel_path(version: str, cache: Path = CACHE) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    found = sorted(cache.glob(f"lmcache-{version}-*.whl"))
    if not found:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
             "-q", "-d", str(cache), f"lmcache=={version}"],
            check=True,
        )
        found = sorted(cache.glob(f"lmcache-{version}-*.whl"))
    if not found:
        raise FileNotFoundError(f"pip downloaded no wheel for lmcache=={version}")
    return found[0]


class Sources:
    def __init__(self, wheel: Path):
        self.zf = zipfile.ZipFile(wheel)
        self.names = set(self.zf.namelist())
        self._trees: dict[str, ast.Module | None] = {}
        self._texts: dict[str, str] = {}

    def text(self, name: str) -> str:
        if name not in self._texts:
            self._texts[name] = self.zf.read(name).decode("utf-8") if name in self.names else ""
        return self._texts[name]

    def tree(self, name: str) -> ast.Module | None:
        if name not in self._trees:
            self._trees[name] = ast.parse(self.text(name)) if name in self.names else None
        return self._trees[name]

    def module(self, dotted: str) -> str | None:
        base = dotted.replace(".", "/")
        for cand in (base + ".py", base + "/__init__.py"):
            if cand in self.names:
                return cand
        return None


def _imports(tree: ast.AST) -> dict[str, tuple[str, str]]:
    """local name -> (module, name) for every ``from lmcache... import`` in ``tree`` (nested too)."""
    out: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lmcache") and not node.level:
            for a in node.names:
                out[a.asname or a.name] = (node.module, a.name)
    return out


def _function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


class Walker:
    def __init__(self, src: Sources):
        self.src = src
        self.options: list[dict] = []

    def constant(self, file: str, node: ast.AST, depth: int = 0):
        """The value of a keyword argument, or {"dynamic": text}."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.Tuple, ast.List)):
            values = [self.constant(file, e, depth) for e in node.elts]
            if any(isinstance(v, dict) and "dynamic" in v for v in values):
                return {"dynamic": ast.unparse(node)}
            return values
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add, ast.Sub)):
            a, b = self.constant(file, node.left, depth), self.constant(file, node.right, depth)
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
                return a * b if isinstance(node.op, ast.Mult) else a + b if isinstance(node.op, ast.Add) else a - b
            return {"dynamic": ast.unparse(node)}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            return -node.operand.value
        if isinstance(node, ast.Name) and depth < 4:
            tree = self.src.tree(file)
            assert tree is not None
            for stmt in tree.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
                if any(isinstance(t, ast.Name) and t.id == node.id for t in targets) and getattr(stmt, "value", None) is not None:
                    return self.constant(file, stmt.value, depth + 1)
            imported = _imports(tree).get(node.id)
            if imported is not None:
                target = self.src.module(imported[0])
                if target is not None:
                    return self.constant(target, ast.Name(id=imported[1]), depth + 1)
        return {"dynamic": ast.unparse(node)}

    def walk(self, file: str, fn: ast.FunctionDef, parser_names: set[str], depth: int = 0) -> None:
        if depth > 10:
            return
        tree = self.src.tree(file)
        assert tree is not None
        imports = _imports(tree)
        imports.update(_imports(fn))
        names = set(parser_names)
        for node in _statements_in_order(fn):
            # group = parser.add_argument_group(...)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                call = node.value
                if isinstance(call.func, ast.Attribute) and call.func.attr in ("add_argument_group", "add_mutually_exclusive_group"):
                    if isinstance(call.func.value, ast.Name) and call.func.value.id in names:
                        for t in node.targets:
                            if isinstance(t, ast.Name):
                                names.add(t.id)
                continue
            if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
                continue
            call = node.value
            f = call.func
            if isinstance(f, ast.Attribute) and f.attr == "add_argument" and isinstance(f.value, ast.Name) and f.value.id in names:
                self.option(file, call)
                continue
            if isinstance(f, ast.Name) and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id in names:
                # add_x_args(parser): a helper in this module or an imported one
                target_file, target_name = file, f.id
                if f.id in imports:
                    mod, target_name = imports[f.id]
                    target_file = self.src.module(mod) or ""
                target_tree = self.src.tree(target_file) if target_file else None
                helper = _function(target_tree, target_name) if target_tree is not None else None
                if helper is not None and helper.args.args:
                    self.walk(target_file, helper, {helper.args.args[0].arg}, depth + 1)

    def option(self, file: str, call: ast.Call) -> None:
        names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if not names or not names[0].startswith("-"):
            return
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        entry: dict = {"names": names, "source": f"{file} L{call.lineno}"}
        action = kw.get("action")
        if action is not None:
            if isinstance(action, ast.Attribute):
                entry["action"] = action.attr
            elif isinstance(action, ast.Constant):
                entry["action"] = action.value
            else:
                entry["action"] = {"dynamic": ast.unparse(action)}
        act = entry.get("action", "store")
        entry["takes_value"] = act not in ("store_true", "store_false", "BooleanOptionalAction", "count", "help", "version")
        if act == "BooleanOptionalAction":
            entry["negative_names"] = ["--no-" + n[2:] for n in names if n.startswith("--")]
        if "type" in kw:
            t = kw["type"]
            entry["type"] = ast.unparse(t)
        for key in ("default", "choices", "nargs", "required", "dest"):
            if key in kw:
                entry[key] = self.constant(file, kw[key])
        if act == "store_true" and "default" not in kw:
            entry["default"] = False
        entry.setdefault("required", False)
        self.options.append(entry)


def _statements_in_order(fn: ast.FunctionDef):
    """Every statement of ``fn`` in source order, inside ``try``/``if``/``with`` blocks too."""
    def visit(body):
        for stmt in body:
            yield stmt
            for attr in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, attr, None)
                if isinstance(inner, list) and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                    yield from visit(inner)
            for h in getattr(stmt, "handlers", []) or []:
                yield from visit(h.body)
    yield from visit(fn.body)


def server_options(src: Sources) -> list[dict]:
    tree = src.tree(SERVER)
    assert tree is not None, f"no {SERVER}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "ServerCommand":
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == "add_arguments":
                    w = Walker(src)
                    w.walk(SERVER, fn, {fn.args.args[1].arg})
                    return w.options
    raise AssertionError("no ServerCommand.add_arguments")


def connector_facts(src: Sources) -> dict:
    tree = src.tree(CONNECTOR)
    out: dict = {}
    if tree is None:
        return out
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "validate_mamba_step_alignment":
            lower = upper = False
            line = None
            for sub in ast.walk(node):
                if not isinstance(sub, ast.If) or not any(isinstance(b, ast.Raise) for b in sub.body):
                    continue
                for cmp in ast.walk(sub.test):
                    if not isinstance(cmp, ast.Compare):
                        continue
                    operands = [cmp.left, *cmp.comparators]
                    for right in operands[1:]:
                        if isinstance(right, ast.BinOp) and isinstance(right.op, ast.Mult) and "block_size" in ast.unparse(right):
                            upper, line = True, sub.lineno  # max_batched < 2 * block_size
                    if any(isinstance(o, ast.Name) and o.id == "block_size" for o in operands):
                        lower, line = True, line or sub.lineno  # block_size <= max_batched / max_batched < block_size
            out["mamba-step-check"] = {
                "lower-bound": lower,
                "upper-bound": upper,
                "source": f"{CONNECTOR} L{node.lineno}-{node.end_lineno}" + (f" (check L{line})" if line else ""),
            }
        if isinstance(node, ast.ClassDef) and node.name == "LMCacheMPConnector":
            bases = [ast.unparse(b) for b in node.bases]
            out["supports-hma"] = {"value": any(b.split(".")[-1] == "SupportsHMA" for b in bases), "source": f"{CONNECTOR} L{node.lineno}"}
    return out


def extract(version: str) -> dict:
    wheel = wheel_path(version)
    src = Sources(wheel)
    options = server_options(src)
    return {"wheel": wheel.name, "server-options": options, "connector": connector_facts(src)}


def render(data: dict) -> str:
    """One line per option, so a diff between releases reads per option."""

    def release(rel: dict) -> list[str]:
        return [
            f'   "connector": {json.dumps(rel["connector"], sort_keys=True)},',
            '   "server-options": [',
            *generated.entries([json.dumps(o, sort_keys=True, ensure_ascii=False) for o in rel["server-options"]]),
            "   ],",
            f'   "wheel": {json.dumps(rel["wheel"])}',
        ]

    return generated.line_per_entry(data, release)


def build(versions: list[str]) -> dict:
    return generated.build("extract_lmcache", versions, extract)


def main(argv: list[str] | None = None) -> int:
    return generated.main(__doc__, OUT, lambda: render(build(RELEASES)), argv)


if __name__ == "__main__":
    sys.exit(main())
