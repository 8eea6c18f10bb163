"""Value sets vLLM checks outside argparse, and choices that depend on the platform.

``python -m tools.extract_value_sets --all`` writes ``rules/data/value_sets.json``: for
every release of ``tools.extract_inventory.RELEASES``, read statically from its wheel:

* ``--kv-cache-dtype``: the ``CacheDType`` Literal (vllm/config/cache.py), which
  ``CacheConfig`` validates when the engine builds its config (0.33 dropped the
  argparse ``choices``, so ``fp9`` parses and fails at start-up);
* ``--quantization``: the ``QuantizationMethods`` Literal and
  ``DEPRECATED_QUANTIZATION_METHODS``
  (vllm/model_executor/layers/quantization/__init__.py), which ``ModelConfig``
  checks ("Unknown quantization method", and the deprecated ones need
  ``--allow-deprecated-quantization``, config/model.py);
* ``--mm-processor-device``: its ``choices`` are ``["auto", "cpu"]`` plus
  ``current_platform.device_type`` (engine/arg_utils.py), so the inventories, built on
  vLLM's CPU platform, lack ``cuda``; recorded here with the ``device_type`` of each
  in-tree platform class (vllm/platforms/*.py).

Each fact carries file:line.  Static reading (``ast``); nothing of vLLM runs.  Output
is byte-for-byte reproducible (``tests/tools/test_extract_value_sets.py``).
"""

from __future__ import annotations

import ast
import sys
import zipfile
from pathlib import Path

from tools import generated
from tools.extract_inventory import RELEASES
from tools.wheels import wheel_path

OUT = Path(__file__).resolve().parent.parent / "rules" / "data" / "value_sets.json"


class Sources:
    def __init__(self, wheel: Path):
        self.zf = zipfile.ZipFile(wheel)
        self.names = set(self.zf.namelist())

    def tree(self, name: str) -> ast.Module | None:
        if name not in self.names:
            return None
        return ast.parse(self.zf.read(name).decode("utf-8"))


def _assigned(tree: ast.Module, name: str) -> ast.AST | None:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and getattr(node, "value", None) is not None:
            return node
    return None


def literal_values(src: Sources, path: str, name: str) -> dict | None:
    """``Name = Literal["a", "b", ...]`` -> {values, source}."""
    tree = src.tree(path)
    node = _assigned(tree, name) if tree is not None else None
    if node is None:
        return None
    value = node.value
    if isinstance(value, ast.Subscript) and ast.unparse(value.value).endswith("Literal"):
        sl = value.slice
        elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        values = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return {"values": values, "source": f"{path} L{node.lineno}-{node.end_lineno}"}
    return None


def list_values(src: Sources, path: str, name: str) -> dict | None:
    tree = src.tree(path)
    node = _assigned(tree, name) if tree is not None else None
    if node is None or not isinstance(node.value, (ast.List, ast.Tuple)):
        return None
    return {
        "values": [e.value for e in node.value.elts if isinstance(e, ast.Constant)],
        "source": f"{path} L{node.lineno}-{node.end_lineno}",
    }


def _find_line(src: Sources, path: str, needle: str) -> int | None:
    if path not in src.names:
        return None
    for i, line in enumerate(src.zf.read(path).decode("utf-8").splitlines(), 1):
        if needle in line:
            return i
    return None


def platform_device_types(src: Sources) -> dict[str, list[str]]:
    """device_type -> the platform classes (vllm/platforms/*.py) that declare it."""
    out: dict[str, list[str]] = {}
    for name in sorted(n for n in src.names if n.startswith("vllm/platforms/") and n.endswith(".py")):
        tree = src.tree(name)
        if tree is None:
            continue
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            for stmt in cls.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
                if any(isinstance(t, ast.Name) and t.id == "device_type" for t in targets):
                    v = getattr(stmt, "value", None)
                    if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value:
                        out.setdefault(v.value, []).append(f"{cls.name} ({name} L{stmt.lineno})")
    return dict(sorted(out.items()))


def mm_processor_device(src: Sources) -> dict | None:
    path = "vllm/engine/arg_utils.py"
    tree = src.tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        if not node.args or not isinstance(node.args[0], ast.Constant) or node.args[0].value != "--mm-processor-device":
            continue
        choices = next((k.value for k in node.keywords if k.arg == "choices"), None)
        if choices is None:
            return None
        text = ast.unparse(choices)
        base: list[str] = []
        if isinstance(choices, ast.BinOp) and isinstance(choices.left, ast.List):
            base = [e.value for e in choices.left.elts if isinstance(e, ast.Constant)]
        platform = "current_platform.device_type" in text
        types = platform_device_types(src) if platform else {}
        excluded = [t for t in ("", "cpu") if "not in ('', 'cpu')" in text]
        return {
            "base": base,
            "platform-device-types": {t: c for t, c in types.items() if t not in excluded and t not in base},
            "choices-expression": text,
            "source": f"{path} L{node.lineno}",
        }
    return None


def extract(version: str) -> dict:
    src = Sources(wheel_path(version))
    out: dict = {}
    cache = literal_values(src, "vllm/config/cache.py", "CacheDType")
    if cache is not None:
        line = _find_line(src, "vllm/config/cache.py", "Invalid kv_cache_dtype")
        out["--kv-cache-dtype"] = {**cache, "checked-by": f"vllm/config/cache.py L{line}" if line else None}
    qpath = "vllm/model_executor/layers/quantization/__init__.py"
    quant = literal_values(src, qpath, "QuantizationMethods")
    if quant is not None:
        dep = list_values(src, qpath, "DEPRECATED_QUANTIZATION_METHODS")
        unknown = _find_line(src, "vllm/config/model.py", "Unknown quantization method")
        bypass = _find_line(src, "vllm/config/model.py", "set `--allow-deprecated-quantization`")
        out["--quantization"] = {
            **quant,
            "checked-by": f"vllm/config/model.py L{unknown}" if unknown else None,
            "deprecated": dep["values"] if dep else [],
            "deprecated-source": dep["source"] if dep else None,
            "deprecated-bypass": "--allow-deprecated-quantization" if bypass else None,
            "deprecated-error": f"vllm/config/model.py L{bypass}" if bypass else None,
        }
    mm = mm_processor_device(src)
    if mm is not None:
        out["--mm-processor-device"] = mm
    return {k: {kk: vv for kk, vv in v.items() if vv is not None} for k, v in out.items()}


def render(data: dict) -> str:
    return generated.json_text(data)


def build(versions: list[str]) -> dict:
    return generated.build("extract_value_sets", versions, extract)


def main(argv: list[str] | None = None) -> int:
    return generated.main(__doc__, OUT, lambda: render(build(RELEASES)), argv)


if __name__ == "__main__":
    sys.exit(main())
