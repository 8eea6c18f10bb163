"""Values of JSON options that vLLM deprecates or rewrites, read from the release wheels.

``python -m tools.extract_value_renames --all`` writes ``rules/data/value_renames.json``:
for every release of ``tools.extract_inventory.RELEASES``, every ``if`` in
``vllm/config/*.py`` and ``vllm/distributed/kv_transfer/**.py`` that

* compares a config field with string constants (``self.F == "x"``, ``self.F in ("a", "b")``,
  ``self.F in get_args(SomeLiteral)``, with ``and self.F != "y"`` exclusions), where the field
  is ``self.F`` of a config class held by a ``VllmConfig`` field (``SpeculativeConfig`` ->
  ``speculative_config``) or an attribute chain ``....<vllm config field>.F``
  (``vllm_config.kv_transfer_config.kv_role``), and
* logs or warns a message that says "deprecated" in its body,

is one entry: the option (``--`` + the ``VllmConfig`` field, kept only when the release's
inventory has it as a JSON option), the key ``F``, the values, the message as written, and
``replacement`` when the same body assigns one string constant to the field (vLLM itself then
maps every old value to that one: an exact rewrite).  A check inside a KV connector class
(``class NixlBaseConnector`` in ``kv_transfer/``) holds only for the connectors registered
with ``KVConnectorFactory.register_connector`` whose class is that class or derives from it
(module-level aliases such as ``NixlConnector = NixlPullConnector`` followed), recorded as
``when: {"kv_connector": ["NixlConnector", ...]}``.  Each entry carries file:line.

Examples in 0.28-0.33: ``method`` of ``--speculative-config`` (every ``MTPModelTypes`` value
but ``mtp`` becomes ``mtp``, config/speculative.py) and ``kv_role: kv_both`` with
NixlConnector (deprecated, no single replacement).

Static reading (``ast``); nothing of vLLM runs.  Output is byte-for-byte reproducible
(``tests/tools/test_extract_value_renames.py``).
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

from tools import generated
from tools.extract_inventory import RELEASES
from tools.extract_value_sets import Sources
from tools.wheels import wheel_path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rules" / "data" / "value_renames.json"
SCANNED = ("vllm/config/", "vllm/distributed/kv_transfer/")
_LOG_CALLS = {"warning", "warning_once", "warn", "warning_first", "info_once", "info"}


def config_fields(src: Sources) -> dict[str, str]:
    """``VllmConfig`` field -> the class named in its annotation (``speculative_config`` ->
    ``SpeculativeConfig``), from vllm/config/vllm.py."""
    tree = src.tree("vllm/config/vllm.py")
    out: dict[str, str] = {}
    for cls in tree.body if tree is not None else []:
        if isinstance(cls, ast.ClassDef) and cls.name == "VllmConfig":
            for stmt in cls.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    names = [n.id for n in ast.walk(stmt.annotation) if isinstance(n, ast.Name) and n.id.endswith("Config")]
                    if names:
                        out[stmt.target.id] = names[0]
    return out


def json_options(version: str) -> set[str]:
    data = json.loads((ROOT / "rules" / "data" / "releases" / f"{version}.json").read_text(encoding="utf-8"))
    return {o["names"][0] for o in data["options"] if o.get("json")}


def _literals(tree: ast.Module) -> dict[str, ast.expr]:
    out = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(target, ast.Name) and getattr(node, "value", None) is not None:
            out[target.id] = node.value
    return out


def _literal_strings(expr: ast.expr, named: dict[str, ast.expr], depth: int = 0) -> list[str] | None:
    """The strings of ``Literal["a", Other, ...]`` (names resolved in the module), else None."""
    if depth > 5:
        return None
    if isinstance(expr, ast.Name) and expr.id in named:
        return _literal_strings(named[expr.id], named, depth + 1)
    if isinstance(expr, ast.Subscript) and ast.unparse(expr.value).endswith("Literal"):
        elts = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        out: list[str] = []
        for e in elts:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                out.append(e.value)
            else:
                inner = _literal_strings(e, named, depth + 1)
                if inner is None:
                    return None
                out.extend(inner)
        return out
    return None


def _strings(expr: ast.expr, named: dict[str, ast.expr]) -> list[str] | None:
    """The string constants ``expr`` stands for: a constant, a tuple/list/set of them,
    ``get_args(SomeLiteral)``."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in expr.elts):
            return [e.value for e in expr.elts]
        return None
    if isinstance(expr, ast.Call) and ast.unparse(expr.func).endswith("get_args") and len(expr.args) == 1:
        return _literal_strings(expr.args[0], named)
    return None


def _comparisons(test: ast.expr, named: dict[str, ast.expr]) -> tuple[str, list[str]] | None:
    """(subject, values) when ``test`` selects string values of one subject, else None."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    subject, values, excluded = None, None, set()
    for part in parts:
        if not (isinstance(part, ast.Compare) and len(part.ops) == 1):
            return None
        left, op, right = ast.unparse(part.left), part.ops[0], part.comparators[0]
        if subject is not None and left != subject:
            return None
        strings = _strings(right, named)
        if strings is None:
            return None
        if isinstance(op, (ast.Eq, ast.In)) and values is None:
            subject, values = left, strings
        elif isinstance(op, (ast.NotEq, ast.NotIn)):
            subject = left
            excluded.update(strings)
        else:
            return None
    if subject is None or values is None:
        return None
    return subject, [v for v in values if v not in excluded]


def _message(call: ast.Call) -> str | None:
    """The text of a log/warn call's first argument (f-string parts joined), if a string."""
    if not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}" for v in arg.values)
    return None


def _deprecation(body: list[ast.stmt]) -> tuple[str, int] | None:
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
            if stmt.value.func.attr in _LOG_CALLS:
                text = _message(stmt.value)
                if text is not None and "deprecat" in text.lower():
                    return text, stmt.lineno
    return None


def _assigned(body: list[ast.stmt], subject: str) -> str | None:
    found = [s.value.value for s in body if isinstance(s, ast.Assign) and len(s.targets) == 1
             and ast.unparse(s.targets[0]) == subject and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)]
    return found[0] if len(found) == 1 else None


def _scan(path: str, tree: ast.Module, by_class: dict[str, str], fields: dict[str, str]) -> list[dict]:
    named = _literals(tree)
    out: list[dict] = []

    def visit(node: ast.AST, cls: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name)
                continue
            if isinstance(child, ast.If):
                entry = _entry(child, cls)
                if entry is not None:
                    out.append(entry)
            visit(child, cls)

    def _entry(node: ast.If, cls: str | None) -> dict | None:
        found = _comparisons(node.test, named)
        if found is None:
            return None
        subject, values = found
        chain = subject.split(".")
        if len(chain) == 2 and chain[0] == "self" and cls in by_class:
            field = by_class[cls]
        elif len(chain) >= 3 and chain[-2] in fields:
            field = chain[-2]
        else:
            return None
        warned = _deprecation(node.body)
        if warned is None or not values:
            return None
        text, line = warned
        replacement = _assigned(node.body, subject)
        entry = {
            "option": "--" + field.replace("_", "-"),
            "key": chain[-1],
            "values": [v for v in values if v != replacement],
            "replacement": replacement,
            "message": text,
            "source": f"{path} L{node.lineno}-{node.end_lineno} (warning L{line})",
        }
        if path.startswith("vllm/distributed/kv_transfer/") and cls is not None:
            entry["when"] = {"kv_connector": cls}  # a class name: extract() turns it into the registered names
        return entry

    visit(tree, None)
    return out


def connector_names(src: Sources) -> dict[str, list[str]]:
    """class name -> the registered connector names (``KVConnectorFactory.register_connector(
    "Name", module, "Class")``) whose class is it or derives from it, in kv_transfer/."""
    bases: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    registered: dict[str, str] = {}
    for path in sorted(src.names):
        if not (path.startswith("vllm/distributed/kv_transfer/") and path.endswith(".py")):
            continue
        tree = src.tree(path)
        for node in ast.walk(tree) if tree is not None else []:
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, []).extend(ast.unparse(b).split(".")[-1] for b in node.bases)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Name):
                aliases[node.targets[0].id] = node.value.id
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "register_connector"
                  and len(node.args) == 3 and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)):
                registered[node.args[0].value] = node.args[2].value

    def ancestry(name: str) -> set[str]:
        seen: set[str] = set()
        todo = [name]
        while todo:
            n = todo.pop()
            for _ in range(5):
                if n in aliases and n not in bases:
                    n = aliases[n]
            if n in seen:
                continue
            seen.add(n)
            todo.extend(bases.get(n, []))
        return seen

    out: dict[str, list[str]] = {}
    for name, cls in sorted(registered.items()):
        for ancestor in ancestry(cls):
            out.setdefault(ancestor, []).append(name)
    return out


def extract(version: str) -> dict:
    src = Sources(wheel_path(version))
    fields = config_fields(src)
    by_class = {cls: field for field, cls in fields.items()}
    options = json_options(version)
    entries: list[dict] = []
    for path in sorted(src.names):
        if path.startswith(SCANNED) and path.endswith(".py"):
            tree = src.tree(path)
            if tree is not None:
                entries.extend(e for e in _scan(path, tree, by_class, fields) if e["option"] in options)
    connectors = connector_names(src)
    for e in entries:
        if "when" in e:
            names = connectors.get(e["when"]["kv_connector"])
            e["when"] = {"kv_connector": names} if names else {"kv_connector-class": e["when"]["kv_connector"]}
    out: dict[str, list[dict]] = {}
    for e in entries:
        out.setdefault(e.pop("option"), []).append(e)
    return {k: sorted(v, key=lambda e: (e["key"], e["source"])) for k, v in sorted(out.items())}


def render(data: dict) -> str:
    return generated.json_text(data)


def build(versions: list[str]) -> dict:
    return generated.build("extract_value_renames", versions, extract)


def main(argv: list[str] | None = None) -> int:
    return generated.main(__doc__, OUT, lambda: render(build(RELEASES)), argv)


if __name__ == "__main__":
    sys.exit(main())
