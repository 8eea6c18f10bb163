"""``VLLM_*`` variables vLLM deprecates outside ``vllm/envs.py``, read from the wheels.

``python -m tools.extract_env_deprecations --all`` writes
``rules/data/env_deprecations.json``: per release of ``tools.extract_inventory.RELEASES``,
every ``VLLM_*`` variable that

* is a key of a module-level ``*DEPRECATED*ENV*`` dict whose module warns that the
  variable "is deprecated and ignored" (the MoRIIO connector's ``_DEPRECATED_ENV_VARS``,
  read with ``if env_var in os.environ`` so the inventory's scan of
  ``os.environ.get("...")`` calls does not see them), with the replacement the warning
  names; or
* is named by a literal message "The environment variable VLLM_X is deprecated ...".

Each with file:line, whether it is ignored, and the advice of the message.  Static
reading (``ast``) of every ``vllm/**.py``; byte-for-byte reproducible.
"""

from __future__ import annotations

import ast
import re
import sys
import zipfile
from pathlib import Path

from tools import generated
from tools.extract_inventory import RELEASES
from tools.wheels import wheel_path

OUT = Path(__file__).resolve().parent.parent / "rules" / "data" / "env_deprecations.json"
MESSAGE = re.compile(r"The environment variable (VLLM_\w+|%s) is deprecated( and ignored)?\.?\s*(.*)", re.S)


def _strings(tree: ast.AST):
    """Every string constant (implicitly concatenated literals are one constant)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node


def _advice(text: str, key: str | None) -> str:
    text = " ".join(text.split())
    if key is not None:
        text = text.replace("%r", repr(key)).replace("%s", key)
    return text.rstrip()


def scan_module(path: str, tree: ast.Module) -> dict[str, dict]:
    out: dict[str, dict] = {}
    messages = [(n, MESSAGE.search(n.value)) for n in _strings(tree)]
    messages = [(n, m) for n, m in messages if m]
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if not names or not re.search(r"DEPRECATED.*ENV", names[0]) or not isinstance(getattr(node, "value", None), ast.Dict):
            continue
        generic = [(n, m) for n, m in messages if m.group(1) == "%s"]
        for k, v in zip(node.value.keys, node.value.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.startswith("VLLM_")):
                continue
            key = v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else None
            entry = {"ignored": False, "source": f"{path} L{k.lineno} ({names[0]})"}
            if generic:
                msg_node, m = generic[0]
                entry["ignored"] = bool(m.group(2))
                entry["advice"] = _advice(m.group(3), key)
                entry["message"] = f"{path} L{msg_node.lineno}"
            out[k.value] = entry
    for node, m in messages:
        name = m.group(1)
        if name == "%s" or name in out:
            continue
        out[name] = {
            "ignored": bool(m.group(2)),
            "advice": _advice(m.group(3), None),
            "source": f"{path} L{node.lineno}",
        }
    return out


def extract(version: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    with zipfile.ZipFile(wheel_path(version)) as zf:
        for name in sorted(zf.namelist()):
            if not (name.startswith("vllm/") and name.endswith(".py")) or name == "vllm/envs.py":
                continue
            text = zf.read(name).decode("utf-8")
            if "deprecated" not in text or "VLLM_" not in text:
                continue
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for var, entry in scan_module(name, tree).items():
                out.setdefault(var, entry)
    return dict(sorted(out.items()))


def render(data: dict) -> str:
    return generated.json_text(data)


def build(versions: list[str]) -> dict:
    return generated.build("extract_env_deprecations", versions, extract)


def main(argv: list[str] | None = None) -> int:
    return generated.main(__doc__, OUT, lambda: render(build(RELEASES)), argv)


if __name__ == "__main__":
    sys.exit(main())
