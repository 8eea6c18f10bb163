"""Hybrid-model facts of each vLLM release, read statically from its wheel.

``python -m tools.extract_hybrid --all`` writes ``rules/data/hybrid.json``: for every
release in ``tools.extract_inventory.RELEASES``,

* every architecture of the release's model registry
  (``vllm/model_executor/models/registry.py``, all ``_*_MODELS`` tables) whose class
  is ``IsHybrid`` or ``IsAttentionFree``, with ``SupportsMambaPrefixCaching`` (the
  ``all`` cache mode up to 0.31), resolved through the class bases in the model files;
* how that class sizes one Mamba/GDN/KDA layer's state: the
  ``MambaStateShapeCalculator`` / ``MambaStateDtypeCalculator`` method its
  ``get_mamba_state_shape_from_config`` / ``get_mamba_state_dtype_from_config``
  return, with every argument turned into a small expression tree over the
  config.json fields (``{"field": [...]}``), the tensor-parallel size
  (``{"param": "tp"}``) and the speculative tokens (``{"param": "num_spec"}``);
  branches taken only under a non-default cache flag (``use_replayssm``,
  ``use_kda_recoverssm``) are listed under ``"unless"`` and not followed;
* the facts of ``Platform._align_hybrid_block_size`` (vllm/platforms/interface.py)
  that differ per release: whether the ``all`` mode keeps its own formula, whether
  the result is rounded to the lcm of every attention backend's kernel block (0.32+),
  whether ``align`` mode aligns to the Mamba layers' prefill checkpoint (0.33), with
  lines, and ``FLASHINFER_GDN_CHECKPOINT_ALIGNMENT`` (v1/attention/backends/gdn_attn.py).

Nothing of vLLM is imported or run: every fact is an exact reading of the source
(``ast``).  A class whose functions use a construct the walk does not know is recorded
with ``"unresolved"`` and the reason, never guessed.  Output is byte-for-byte
reproducible (``tests/tools/test_extract_hybrid.py`` regenerates it when the wheels
are cached).

Wheels come from ``tools.wheels.wheel_path`` (``tools/.cache/wheels``).
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from pathlib import Path

from tools import generated
from tools.extract_inventory import RELEASES
from tools.wheels import wheel_path

OUT = Path(__file__).resolve().parent.parent / "rules" / "data" / "hybrid.json"

MARKERS = ("IsHybrid", "IsAttentionFree", "SupportsMambaPrefixCaching")
FLAG_CONDITIONS = ("use_replayssm", "use_kda_recoverssm")


class Unresolved(Exception):
    pass


# ---------------------------------------------------------------------------
# Reading the wheel


class Sources:
    def __init__(self, wheel: Path):
        self.zf = zipfile.ZipFile(wheel)
        self.names = set(self.zf.namelist())
        self._trees: dict[str, ast.Module | None] = {}

    def text(self, name: str) -> str | None:
        if name not in self.names:
            return None
        return self.zf.read(name).decode("utf-8")

    def tree(self, name: str) -> ast.Module | None:
        if name not in self._trees:
            text = self.text(name)
            self._trees[name] = ast.parse(text) if text is not None else None
        return self._trees[name]


def module_file(src: Sources, module: str) -> str | None:
    """The file of a registry module: ``qwen3_5`` or a dotted ``vllm.models.kimi_k3``."""
    dotted = module if module.startswith("vllm.") else f"vllm.model_executor.models.{module}"
    base = dotted.replace(".", "/")
    for cand in (base + ".py", base + "/__init__.py"):
        if cand in src.names:
            return cand
    return None


def registry(src: Sources) -> dict[str, tuple[str, str]]:
    """arch -> (module, class) from every ``_X_MODELS = {...}`` literal of registry.py."""
    tree = src.tree("vllm/model_executor/models/registry.py")
    out: dict[str, tuple[str, str]] = {}
    assert tree is not None
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if not any(isinstance(t, ast.Name) and t.id.endswith("_MODELS") for t in targets):
            continue
        if not isinstance(node.value, ast.Dict):
            continue
        for k, v in zip(node.value.keys, node.value.values):
            if isinstance(k, ast.Constant) and isinstance(v, ast.Tuple) and len(v.elts) == 2:
                mod, cls = v.elts
                if isinstance(mod, ast.Constant) and isinstance(cls, ast.Constant):
                    out.setdefault(k.value, (mod.value, cls.value))
    return out


class Classes:
    """Class definitions by file, with import resolution for base names."""

    def __init__(self, src: Sources):
        self.src = src

    def mro(self, file: str, cls: ast.ClassDef, depth: int = 0) -> list[tuple[str, ast.ClassDef | None, str]]:
        """(file, class, name) for the class and its bases, depth first (Python's MRO for these trees)."""
        out = [(file, cls, cls.name)]
        if depth > 12:
            return out
        for base in cls.bases:
            name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else None
            if isinstance(base, ast.Subscript):
                inner = base.value
                name = inner.id if isinstance(inner, ast.Name) else None
            if name is None:
                continue
            found = self.find(file, name)
            if found is None:
                out.append((file, None, name))
            else:
                out.extend(self.mro(found[0], found[1], depth + 1))
        return out


def _imports(tree: ast.Module) -> list[ast.ImportFrom]:
    """Top-level ``from x import y``; inside ``if TYPE_CHECKING ... else`` the last ``else`` first."""
    out: list[ast.ImportFrom] = []
    later: list[ast.ImportFrom] = []

    def walk_if(node: ast.If) -> None:
        # the final else (CUDA in vllm/models/kimi_k3/__init__.py) wins over the TYPE_CHECKING branch
        orelse = node.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            walk_if(orelse[0])
        else:
            out.extend(n for n in orelse if isinstance(n, ast.ImportFrom))
        later.extend(n for n in node.body if isinstance(n, ast.ImportFrom))

    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            out.append(node)
        elif isinstance(node, ast.If):
            walk_if(node)
    return out + later


def _resolve_from(file: str, imp: ast.ImportFrom) -> str | None:
    """The ``.py`` path an import names (``_existing`` falls back to the package's ``__init__.py``)."""
    if imp.level:
        parts = file.split("/")[:-1]
        for _ in range(imp.level - 1):
            parts = parts[:-1]
        mod = "/".join(parts) + ("/" + imp.module.replace(".", "/") if imp.module else "")
    else:
        if not imp.module or not imp.module.startswith("vllm"):
            return None
        mod = imp.module.replace(".", "/")
    return mod + ".py"


def _existing(src: Sources, path: str | None) -> str | None:
    if path is None:
        return None
    if path in src.names:
        return path
    alt = path[:-3] + "/__init__.py" if path.endswith(".py") else None
    return alt if alt in src.names else None


class Resolver(Classes):
    def find(self, file, name, depth=0):  # type: ignore[override]
        if depth > 8:
            return None
        tree = self.src.tree(file)
        if tree is None:
            return None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return file, node
        for imp in _imports(tree):
            for alias in imp.names:
                if (alias.asname or alias.name) != name:
                    continue
                target = _existing(self.src, _resolve_from(file, imp))
                if target is None:
                    continue
                found = self.find(target, alias.name, depth + 1)
                if found is not None:
                    return found
        return None


# ---------------------------------------------------------------------------
# Turning a state function into an expression tree


def _method(mro, name: str) -> tuple[str, ast.FunctionDef] | None:
    for file, cls, _ in mro:
        if cls is None:
            continue
        for node in cls.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return file, node
    return None


class Expr:
    """Converts the expressions of a ``get_mamba_state_*_from_config`` body."""

    def __init__(self, env: dict[str, object]):
        self.env = env  # local name -> converted value or a marker string

    def conv(self, node: ast.AST):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, type(None), bool)):
            return {"const": node.value}
        if isinstance(node, ast.Name):
            if node.id in self.env:
                value = self.env[node.id]
                if isinstance(value, dict):
                    return value
                raise Unresolved(f"name {node.id} used as a value")
            raise Unresolved(f"unknown name {node.id}")
        if isinstance(node, ast.BinOp):
            ops = {ast.Mult: "*", ast.Add: "+", ast.Sub: "-", ast.FloorDiv: "//"}
            op = ops.get(type(node.op))
            if op is None:
                raise Unresolved(f"operator {type(node.op).__name__}")
            return {"op": op, "args": [self.conv(node.left), self.conv(node.right)]}
        if isinstance(node, ast.IfExp):
            test = node.test
            # `vllm_config.speculative_config.num_speculative_tokens if vllm_config.speculative_config else 0`
            if _path(test) in (["vllm_config", "speculative_config"], ["speculative_config"]):
                return {"param": "num_spec"}
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)):
                if isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
                    left = self.conv(test.left)
                    yes, no = self.conv(node.body), self.conv(node.orelse)
                    if isinstance(test.ops[0], ast.IsNot):
                        yes, no = no, yes
                    return {"if-none": left, "then": yes, "else": no}
            raise Unresolved(f"conditional {ast.unparse(test)}")
        if isinstance(node, ast.Call):
            fn = node.func
            if isinstance(fn, ast.Name) and fn.id == "int" and len(node.args) == 1:
                return {"int": self.conv(node.args[0])}
            if isinstance(fn, ast.Name) and fn.id == "getattr" and len(node.args) in (2, 3):
                target = node.args[0]
                marker = self.env.get(target.id) if isinstance(target, ast.Name) else None
                if isinstance(marker, str) and marker.startswith(("config:", "text:")):
                    # `getattr(config, "head_dim", ...)` on a local bound to hf_config (bailing_moe_linear.py in 0.33)
                    prefix = [p for p in marker.split(":", 1)[1].split(".") if p]
                    base = {"field": prefix, "text": True} if marker.startswith("text:") else {"field": prefix}
                else:
                    base = self.conv(target)
                if "field" not in base or not isinstance(node.args[1], ast.Constant):
                    raise Unresolved("getattr on a non-config value")
                out = {**base, "field": base["field"] + [node.args[1].value]}
                if len(node.args) == 3:
                    out["default"] = self.conv(node.args[2])
                return out
            raise Unresolved(f"call {ast.unparse(fn)}")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            base = self.conv(node.value)
            if "field" not in base:
                raise Unresolved("subscript of a non-config value")
            return {**base, "field": base["field"] + [node.slice.value]}
        if isinstance(node, ast.Attribute):
            path = _path(node)
            if path is None:
                raise Unresolved(f"attribute {ast.unparse(node)}")
            head = path[0]
            if path[-1] == "tensor_parallel_size":
                return {"param": "tp"}
            if path == ["vllm_config", "num_speculative_tokens"]:
                return {"param": "num_spec"}
            if path[:2] == ["vllm_config", "model_config"] and path[2:3] == ["dtype"]:
                return {"param": "model_dtype"}
            if path[:2] == ["vllm_config", "cache_config"] and path[2] in ("mamba_cache_dtype", "mamba_ssm_cache_dtype"):
                return {"param": path[2]}
            if path[:1] == ["cache_config"] and path[1] in ("mamba_cache_dtype", "mamba_ssm_cache_dtype"):
                return {"param": path[1]}
            value = self.env.get(head)
            if isinstance(value, str) and value.startswith("config:"):  # `hf_config` or a sub-config of it
                return {"field": [p for p in value[len("config:"):].split(".") if p] + path[1:]}
            if value == "text:":
                return {"field": path[1:], "text": True}
            if value == "vllm:parallel_config" and path[1] == "tensor_parallel_size":
                return {"param": "tp"}
            if head == "vllm_config" and path[1:3] == ["model_config", "hf_config"]:
                return {"field": path[3:]}
            if head == "vllm_config" and path[1:3] == ["model_config", "hf_text_config"]:
                return {"field": path[3:], "text": True}
            raise Unresolved(f"attribute {ast.unparse(node)}")
        raise Unresolved(f"expression {type(node).__name__}")


def _path(node: ast.AST) -> list[str] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return parts[::-1]
    return None


def _bind(env: dict[str, object], name: str, value: ast.AST, conv: Expr) -> None:
    path = _path(value)
    if path is not None:
        if path in (["vllm_config", "parallel_config"], ["vllm_config", "cache_config"]):
            env[name] = "vllm:" + path[1]
            return
        if path[:3] == ["vllm_config", "model_config", "hf_config"]:
            # `hf_config` itself, or a sub-config such as `hf_config.text_config` (lfm2_vl.py in 0.33):
            # its fields are read under that key of config.json
            env[name] = "config:" + ".".join(path[3:])
            return
        if path == ["vllm_config", "model_config", "hf_text_config"]:
            env[name] = "text:"
            return
    env[name] = conv.conv(value)


CALCULATORS = ("MambaStateShapeCalculator", "MambaStateDtypeCalculator")


def state_function(file: str, fn: ast.FunctionDef) -> dict:
    """{calculator, args, kwargs, unless, source} of a state shape/dtype function."""
    env: dict[str, object] = {}
    conv = Expr(env)
    unless: list[str] = []
    result = None
    for stmt in fn.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # docstring
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            call = _calculator_call(stmt.value)
            if call is not None:
                env[stmt.targets[0].id] = {"call": call}
                continue
            _bind(env, stmt.targets[0].id, stmt.value, conv)
            continue
        if isinstance(stmt, ast.If):
            flag = _path(stmt.test)
            if flag and flag[-1] in FLAG_CONDITIONS:
                unless.append(flag[-1])
                continue
            raise Unresolved(f"if {ast.unparse(stmt.test)}")
        if isinstance(stmt, ast.Return):
            value = stmt.value
            call = _calculator_call(value)
            if call is None and isinstance(value, ast.Name) and isinstance(env.get(value.id), dict) and "call" in env[value.id]:  # type: ignore[operator]
                call = env[value.id]["call"]  # type: ignore[index]
            if call is None:
                raise Unresolved(f"return {ast.unparse(value) if value is not None else ''}")
            result = call
            break
        raise Unresolved(f"statement {type(stmt).__name__}")
    if result is None:
        raise Unresolved("no return")
    calc_node: ast.Call = result
    method = calc_node.func.attr  # type: ignore[union-attr]
    args = [conv.conv(a) for a in calc_node.args]
    kwargs = {k.arg: conv.conv(k.value) for k in calc_node.keywords if k.arg}
    out = {"calculator": method, "args": args, "kwargs": dict(sorted(kwargs.items())), "source": f"{file} L{fn.lineno}-{fn.end_lineno}"}
    if unless:
        out["unless"] = unless
    return out


def _calculator_call(node: ast.AST | None) -> ast.Call | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        base = node.func.value
        if isinstance(base, ast.Name) and base.id in CALCULATORS:
            return node
    return None


def delegated(file: str, fn: ast.FunctionDef) -> str | None:
    """``OtherClass.get_mamba_state_*(temp_vllm_config)`` on the text config (Kimi-K3)."""
    for stmt in fn.body:
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call):
            f = stmt.value.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr == fn.name:
                return f.value.id
    return None


# ---------------------------------------------------------------------------
# One release


def _line(text: str, pattern: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if re.search(pattern, line):
            return i
    return None


def platform_facts(src: Sources) -> dict:
    path = "vllm/platforms/interface.py"
    text = src.text(path) or ""
    tree = src.tree(path)
    assert tree is not None
    fn = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "_align_hybrid_block_size":
            fn = node
    assert fn is not None, "no _align_hybrid_block_size"
    body = ast.get_source_segment(text, fn) or ""
    start = fn.lineno

    def at(pattern: str) -> str | None:
        for i, line in enumerate(body.splitlines()):
            if re.search(pattern, line):
                return f"{path} L{start + i}"
        return None

    out: dict = {"function": f"{path} L{fn.lineno}-{fn.end_lineno}"}
    out["all-mode-formula"] = at(r'mamba_cache_mode == "all"')
    out["backend-lcm"] = at(r"backend_block_alignment = lcm")
    out["mla-128"] = at(r"kernel_block_alignment_size = max\(kernel_block_alignment_size, 128\)")
    out["prefill-checkpoint-alignment"] = at(r"get_mamba_prefill_checkpoint_alignment\(vllm_config\)")
    out["indexer-alignment"] = at(r"_get_indexer_block_alignment\(vllm_config\)")
    out["log-line"] = at(r"Setting attention block size to %d tokens")
    gdn = src.text("vllm/v1/attention/backends/gdn_attn.py") or ""
    m = re.search(r"^FLASHINFER_GDN_CHECKPOINT_ALIGNMENT = (\d+)", gdn, re.M)
    if m:
        out["flashinfer-gdn-checkpoint-alignment"] = {
            "value": int(m.group(1)),
            "source": f"vllm/v1/attention/backends/gdn_attn.py L{_line(gdn, r'^FLASHINFER_GDN_CHECKPOINT_ALIGNMENT =')}",
        }
    cache = src.text("vllm/config/cache.py") or ""
    mm = re.search(r"^MambaCacheMode = Literal\[([^\]]*)\]", cache, re.M)
    if mm:
        out["mamba-cache-modes"] = {
            "value": [s.strip().strip("\"'") for s in mm.group(1).split(",")],
            "source": f"vllm/config/cache.py L{_line(cache, r'^MambaCacheMode = Literal')}",
        }
    m = re.search(r"DEFAULT_BLOCK_SIZE: ClassVar\[int\] = (\d+)", cache)
    if m:
        out["default-block-size"] = {"value": int(m.group(1)), "source": f"vllm/config/cache.py L{_line(cache, r'DEFAULT_BLOCK_SIZE: ClassVar')}"}
    out["mla-model-types"] = mla_model_types(src)
    out["calculators"] = calculator_signatures(src)
    return {k: v for k, v in out.items() if v is not None}


def calculator_signatures(src: Sources) -> dict:
    """Parameter names of every ``MambaState{Shape,Dtype}Calculator`` method (mamba_utils.py),
    so positional arguments bind as in that release."""
    path = "vllm/model_executor/layers/mamba/mamba_utils.py"
    tree = src.tree(path)
    out: dict = {}
    if tree is None:
        return out
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in CALCULATORS:
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and not fn.name.startswith("_"):
                    names = [a.arg for a in fn.args.args if a.arg != "cls"]
                    out[fn.name] = {"params": names, "source": f"{path} L{fn.lineno}"}
    return dict(sorted(out.items()))


def mla_model_types(src: Sources) -> dict:
    """The ``model_type`` tuple of ``is_deepseek_mla`` (MLA attention: one latent per token)."""
    for path in ("vllm/transformers_utils/model_arch_config_convertor.py", "vllm/config/model.py"):
        tree = src.tree(path)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "is_deepseek_mla":
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Compare) and isinstance(sub.ops[0], ast.In) and isinstance(sub.comparators[0], ast.Tuple):
                        values = [e.value for e in sub.comparators[0].elts if isinstance(e, ast.Constant)]
                        return {"value": sorted(values), "source": f"{path} L{node.lineno}-{node.end_lineno}"}
    return {"unresolved": "no is_deepseek_mla"}


def ssm_dtype_updates(src: Sources) -> dict[str, dict]:
    """arch -> how ``MODELS_CONFIG_MAP[arch].verify_and_update_config`` replaces an ``auto``
    ``mamba_ssm_cache_dtype``: ``getattr(<config>, NAME, DEFAULT)`` (models/config.py)."""
    path = "vllm/model_executor/models/config.py"
    tree = src.tree(path)
    if tree is None:
        return {}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    mapping: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "MODELS_CONFIG_MAP" and isinstance(node.value, ast.Dict):
                for k, v in zip(node.value.keys, node.value.values):
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Name):
                        mapping[k.value] = v.id

    def update_of(name: str, depth: int = 0) -> dict | None:
        cls = classes.get(name)
        if cls is None or depth > 8:
            return None
        consts = {
            t.id: st.value.value
            for st in cls.body if isinstance(st, (ast.Assign, ast.AnnAssign))
            for t in ([st.target] if isinstance(st, ast.AnnAssign) else st.targets)
            if isinstance(t, ast.Name) and isinstance(getattr(st, "value", None), ast.Constant)
        }
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            assigns = any(
                isinstance(n, ast.Assign) and any(_path(t) and _path(t)[-1] == "mamba_ssm_cache_dtype" for t in n.targets)
                for n in ast.walk(fn)
            )
            if not assigns:
                continue
            for n in ast.walk(fn):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" and len(n.args) >= 2:
                    if isinstance(n.args[1], ast.Constant) and str(n.args[1].value).startswith("mamba_ssm"):
                        default = None
                        if len(n.args) == 3:
                            d = n.args[2]
                            if isinstance(d, ast.Constant):
                                default = d.value
                            elif isinstance(d, ast.Attribute) and d.attr in consts:
                                default = consts[d.attr]
                        holder = _path(n.args[0]) or []
                        return {
                            "field": n.args[1].value,
                            "default": default,
                            "text": bool(holder) and holder[-1] == "hf_text_config",
                            "source": f"{path} {name} L{fn.lineno}-{fn.end_lineno}",
                        }
        for base in cls.bases:
            if isinstance(base, ast.Name):
                found = update_of(base.id, depth + 1)
                if found is not None:
                    return found
        # a helper of another class called as Other.update_...(…)
        for n in ast.walk(cls):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
                other = n.func.value.id
                if other != name and other in classes and n.func.attr.startswith("update_mamba_ssm"):
                    return update_of(other, depth + 1)
        return None

    out = {}
    for arch, cname in mapping.items():
        found = update_of(cname)
        if found is not None:
            out[arch] = found
    return out


def checkpoint_layers(src: Sources) -> list[str]:
    """Modules defining a Mamba layer that overrides ``get_prefill_checkpoint_alignment``."""
    out = []
    for name in sorted(src.names):
        if not name.endswith(".py") or name.endswith("layers/mamba/abstract.py"):
            continue
        text = src.text(name) or ""
        if "def get_prefill_checkpoint_alignment" in text:
            out.append(name[:-3].replace("/", "."))
    return out


def hybrid_archs(src: Sources) -> dict[str, dict]:
    reg = registry(src)
    res = Resolver(src)
    ssm = ssm_dtype_updates(src)
    ckpt = checkpoint_layers(src)
    out: dict[str, dict] = {}
    for arch in sorted(reg):
        module, cls_name = reg[arch]
        file = module_file(src, module)
        if file is None:
            continue
        found = res.find(file, cls_name)
        if found is None:
            continue
        mro = res.mro(*found)
        names = {n for _, _, n in mro}
        marks = [m for m in MARKERS if m in names]
        if "IsHybrid" not in marks and "IsAttentionFree" not in marks:
            continue
        entry: dict = {
            "class": f"{found[0]} {cls_name} L{found[1].lineno}",
            "hybrid": "IsHybrid" in marks,
            "attention-free": "IsAttentionFree" in marks,
            "mamba-prefix-caching": "SupportsMambaPrefixCaching" in marks,
        }
        for key, fname in (("state-shape", "get_mamba_state_shape_from_config"), ("state-dtype", "get_mamba_state_dtype_from_config")):
            m = _method(mro, fname)
            if m is None:
                entry[key] = {"unresolved": f"no {fname}"}
                continue
            try:
                entry[key] = _state(res, m[0], m[1], fname)
            except Unresolved as e:
                entry[key] = {"unresolved": str(e), "source": f"{m[0]} L{m[1].lineno}-{m[1].end_lineno}"}
        if arch in ssm:
            entry["ssm-dtype-update"] = ssm[arch]
        files = {f for f, _, _ in mro}
        layers = sorted({mod for f in files for mod in ckpt if _imports_module(src, f, mod)})
        if layers:
            entry["checkpoint-layers"] = layers  # 0.33: align mode aligns N to their prefill checkpoints
        if _method(mro, "get_mamba_specs_from_config") is not None:
            entry["multiple-specs"] = True  # Qwen4Exp: the page is the max over several layouts
        out[arch] = entry
    return out


def _imports_module(src: Sources, file: str, module: str) -> bool:
    tree = src.tree(file)
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == module:
            return True
    return False


def _state(res: Resolver, file: str, fn: ast.FunctionDef, fname: str) -> dict:
    other = delegated(file, fn)
    if other is not None:
        found = res.find(file, other)
        if found is None:
            raise Unresolved(f"delegates to unknown {other}")
        m = _method(res.mro(*found), fname)
        if m is None:
            raise Unresolved(f"{other} has no {fname}")
        inner = _read(res, m[0], m[1])
        inner["config"] = "text_config"
        inner["via"] = f"{file} L{fn.lineno}-{fn.end_lineno}"
        return inner
    return _read(res, file, fn)


def _read(res: Resolver, file: str, fn: ast.FunctionDef) -> dict:
    """``state_function`` of ``fn``, or of the module function it only returns the call of."""
    helper = _module_helper(res, file, fn)
    if helper is not None:  # `return _get_kda_state_shape_for_config(vllm_config)` (bailing_moe_v3.py in 0.33)
        inner = state_function(file, helper)
        inner["via"] = f"{file} L{fn.lineno}-{fn.end_lineno}"
        return inner
    return state_function(file, fn)


def _module_helper(res: Resolver, file: str, fn: ast.FunctionDef) -> ast.FunctionDef | None:
    """The module-level function of ``file`` that ``fn`` only returns the call of, passing its
    ``vllm_config`` on unchanged, else None."""
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        return None
    call = body[0].value
    if not isinstance(call.func, ast.Name) or call.keywords or [ast.unparse(a) for a in call.args] != ["vllm_config"]:
        return None
    tree = res.src.tree(file)
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.FunctionDef) and node.name == call.func.id and [a.arg for a in node.args.args] == ["vllm_config"]:
            return node
    return None


def extract(version: str) -> dict:
    src = Sources(wheel_path(version))
    return {"align": platform_facts(src), "architectures": hybrid_archs(src)}


def render(data: dict) -> str:
    """One line per architecture, so a diff between regenerations reads per model."""

    def release(rel: dict) -> list[str]:
        archs = rel["architectures"]
        return [
            f'   "align": {json.dumps(rel["align"], sort_keys=True, ensure_ascii=False)},',
            '   "architectures": {',
            *generated.entries([f"{json.dumps(a)}: {json.dumps(archs[a], sort_keys=True, ensure_ascii=False)}" for a in sorted(archs)]),
            "   }",
        ]

    return generated.line_per_entry(data, release)


def build(versions: list[str]) -> dict:
    return generated.build("extract_hybrid", versions, extract)


def main(argv: list[str] | None = None) -> int:
    return generated.main(__doc__, OUT, lambda: render(build(RELEASES)), argv)


if __name__ == "__main__":
    sys.exit(main())
