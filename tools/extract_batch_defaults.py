"""vLLM's defaults for ``--max-num-batched-tokens`` / ``--max-num-seqs``, per release.

``python -m tools.extract_batch_defaults --all`` writes ``rules/data/batch_defaults.json``
from each wheel (static ``ast`` reading):

* the GPU tiers of ``EngineArgs.get_batch_defaults`` (vllm/engine/arg_utils.py): for
  each ``if``/``elif``/``else`` branch before the TPU and CPU overrides, the condition
  read into ``min-memory-gib`` (``device_memory >= N * GiB_bytes``), ``exclude-names``
  (``"a100" not in device_name``) and ``exclude-gb10`` (``not is_gb10``), and the values
  per usage context (``OPENAI_API_SERVER`` = ``vllm serve``, ``LLM_CLASS`` = ``LLM(...)``);
* what ``_set_default_max_num_seqs_and_batched_tokens_args`` does after it: the batched
  data-parallel MoE default (``SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP``
  when ``ParallelConfig.use_batched_dp_moe``: the all2all backends it lists, expert
  parallelism, data parallelism > 1), the ``performance_mode == "throughput"`` doubling,
  and the cap ``min(max_num_seqs * max_model_len, ...)``;
* ``SchedulerConfig``'s class defaults (vllm/config/scheduler.py).

A branch whose condition is not one of those forms is recorded with ``"unresolved"``.
"""

from __future__ import annotations

import ast
import sys
import zipfile
from pathlib import Path

from tools import generated
from tools.extract_inventory import RELEASES
from tools.wheels import wheel_path

OUT = Path(__file__).resolve().parent.parent / "rules" / "data" / "batch_defaults.json"
ARG_UTILS = "vllm/engine/arg_utils.py"


def _tree(zf: zipfile.ZipFile, name: str) -> ast.Module:
    return ast.parse(zf.read(name).decode("utf-8"))


def _method(tree: ast.Module, cls: str, name: str) -> ast.FunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for fn in node.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == name:
                    return fn
    return None


def _usage_dict(node: ast.AST) -> dict[str, int] | None:
    if not isinstance(node, ast.Dict):
        return None
    out = {}
    for k, v in zip(node.keys, node.values):
        if isinstance(k, ast.Attribute) and isinstance(v, ast.Constant) and isinstance(v.value, int):
            out[{"OPENAI_API_SERVER": "serve", "LLM_CLASS": "llm"}.get(k.attr, k.attr)] = v.value
        else:
            return None
    return out


def _branch_values(body: list[ast.stmt]) -> dict:
    out: dict = {}
    for stmt in body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
            if isinstance(target, ast.Name) and stmt.value is not None:
                values = _usage_dict(stmt.value)
                if values is not None and target.id == "default_max_num_batched_tokens":
                    out["max-num-batched-tokens"] = values
                elif values is not None and target.id == "default_max_num_seqs":
                    out["max-num-seqs"] = values
    return out


def _condition(test: ast.AST) -> dict:
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    out: dict = {}
    for p in parts:
        text = ast.unparse(p)
        if isinstance(p, ast.Compare) and isinstance(p.ops[0], ast.GtE) and ast.unparse(p.left) == "device_memory":
            right = p.comparators[0]
            if isinstance(right, ast.BinOp) and isinstance(right.left, ast.Constant) and ast.unparse(right.right) == "GiB_bytes":
                out["min-memory-gib"] = right.left.value
                continue
        if isinstance(p, ast.Compare) and isinstance(p.ops[0], ast.NotIn) and isinstance(p.left, ast.Constant) and ast.unparse(p.comparators[0]) == "device_name":
            out.setdefault("exclude-names", []).append(p.left.value)
            continue
        if text == "not is_gb10":
            out["exclude-gb10"] = True
            continue
        out.setdefault("unresolved", []).append(text)
    return out


def gpu_tiers(fn: ast.FunctionDef) -> list[dict]:
    """The if/elif/else chain that assigns both defaults from the device's memory and name."""
    for stmt in fn.body:
        if isinstance(stmt, ast.If) and "device_memory" in ast.unparse(stmt.test):
            tiers = []
            node: ast.stmt | None = stmt
            while node is not None:
                if isinstance(node, ast.If):
                    tiers.append({**_condition(node.test), **_branch_values(node.body), "line": node.lineno})
                    orelse = node.orelse
                    if len(orelse) == 1 and isinstance(orelse[0], ast.If):
                        node = orelse[0]
                        continue
                    tiers.append({**_branch_values(orelse), "line": orelse[0].lineno if orelse else node.lineno})
                node = None
            return tiers
    return []


def _class_int(tree: ast.Module, cls: str, name: str) -> int | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for st in node.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == name:
                    if isinstance(st.value, ast.Constant):
                        return st.value.value
    return None


def batched_dp(tree: ast.Module) -> dict:
    fn = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "use_batched_dp_moe":
            fn = node
    if fn is None:
        return {}
    backends: list[str] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In) and isinstance(node.comparators[0], ast.Tuple):
            backends = [e.value for e in node.comparators[0].elts if isinstance(e, ast.Constant)]
    text = ast.unparse(fn)
    return {
        "all2all-backends": backends,
        "needs-expert-parallel": "self.enable_expert_parallel" in text,
        "needs-data-parallel": "self.data_parallel_size > 1" in text,
        "source": f"vllm/config/parallel.py L{fn.lineno}-{fn.end_lineno}",
    }


def extract(version: str) -> dict:
    with zipfile.ZipFile(wheel_path(version)) as zf:
        args = _tree(zf, ARG_UTILS)
        sched = _tree(zf, "vllm/config/scheduler.py")
        parallel = _tree(zf, "vllm/config/parallel.py")
    fn = _method(args, "EngineArgs", "get_batch_defaults")
    setter = _method(args, "EngineArgs", "_set_default_max_num_seqs_and_batched_tokens_args")
    assert fn is not None and setter is not None
    text = ast.unparse(setter)
    return {
        "gpu-tiers": gpu_tiers(fn),
        "get-batch-defaults": f"{ARG_UTILS} L{fn.lineno}-{fn.end_lineno}",
        "setter": f"{ARG_UTILS} L{setter.lineno}-{setter.end_lineno}",
        "batched-dp-moe": {**batched_dp(parallel), "used": "use_batched_dp_moe" in text},
        "throughput-doubles": "self.performance_mode == 'throughput'" in text,
        "cap-max-num-seqs-times-max-model-len": "self.max_num_seqs * model_config.max_model_len" in text,
        "scheduler": {
            "DEFAULT_MAX_NUM_BATCHED_TOKENS": _class_int(sched, "SchedulerConfig", "DEFAULT_MAX_NUM_BATCHED_TOKENS"),
            "DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP": _class_int(sched, "SchedulerConfig", "DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP"),
            "DEFAULT_MAX_NUM_SEQS": _class_int(sched, "SchedulerConfig", "DEFAULT_MAX_NUM_SEQS"),
        },
    }


def render(data: dict) -> str:
    return generated.json_text(data)


def build(versions: list[str]) -> dict:
    return generated.build("extract_batch_defaults", versions, extract)


def main(argv: list[str] | None = None) -> int:
    return generated.main(__doc__, OUT, lambda: render(build(RELEASES)), argv)


if __name__ == "__main__":
    sys.exit(main())
