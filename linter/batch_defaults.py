"""The ``--max-num-batched-tokens`` vLLM picks when the launch does not set it.

A port of ``EngineArgs.get_batch_defaults`` and
``_set_default_max_num_seqs_and_batched_tokens_args`` (vllm/engine/arg_utils.py, 0.33
L2940-3039 and L3151-3240; 0.28 L2553-2644 and L2756-2845) over the per-release facts
``tools/extract_batch_defaults.py`` reads from the wheels (``rules/data/batch_defaults.json``):

1. the GPU tier: total memory >= 160 GiB; >= 70 GiB unless the name has "a100" (and,
   0.33, unless GB10); else the smallest tier (``vllm serve``: 16384 / 8192 / 2048;
   ``LLM(...)``: 16384 / 16384 / 8192); a usage context without an entry (``EngineArgs``)
   takes ``SchedulerConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS``;
2. batched data-parallel MoE (``ParallelConfig.use_batched_dp_moe``: an all2all backend
   of ``deepep_low_latency`` / ``nixl_ep``, expert parallelism and data parallelism > 1)
   takes ``DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP`` (256) instead;
3. ``--performance-mode throughput`` doubles it;
4. without chunked prefill, at least ``max_model_len``;
5. at most ``max_num_seqs * max_model_len``.

TPU and CPU platforms have their own values and are not modelled (GPU launches only).
"""

from __future__ import annotations


from packaging.version import Version

from linter import knowledge
from linter.records import Frozen, _set


class Gpu(Frozen):
    __slots__ = ("name", "memory_gib")

    name: str
    memory_gib: float

    def __init__(self, name, memory_gib):
        _set(self, "name", name)
        _set(self, "memory_gib", memory_gib)


class Default(Frozen):
    __slots__ = ("value", "condition", "derivation")

    value: int
    condition: str  # the GPUs it holds for
    derivation: str

    def __init__(self, value, condition, derivation):
        _set(self, "value", value)
        _set(self, "condition", condition)
        _set(self, "derivation", derivation)


def facts_for(version: Version) -> dict | None:
    return knowledge.for_release("batch_defaults.json", version) or None


def _tier_holds(tier: dict, gpu: Gpu) -> bool:
    if gpu.memory_gib < tier.get("min-memory-gib", 0):
        return False
    name = gpu.name.lower()
    if any(x in name for x in tier.get("exclude-names", [])):
        return False
    if tier.get("exclude-gb10") and "gb10" in name:
        return False
    return True


def _describe(tier: dict, rest: bool) -> str:
    if "min-memory-gib" not in tier:
        return "other GPUs" if rest else "every GPU"
    text = f"GPUs with {tier['min-memory-gib']} GiB or more"
    excluded = list(tier.get("exclude-names", [])) + (["GB10"] if tier.get("exclude-gb10") else [])
    if excluded:
        text += " except " + " and ".join(x.upper() for x in excluded)
    return text


def batched_tokens(
    version: Version,
    *,
    usage: str | None,  # "serve" | "llm" | None (EngineArgs)
    gpu: Gpu | None = None,
    batched_dp_moe: bool = False,
    throughput: bool = False,
    chunked_prefill: bool = True,
    max_model_len: int | None = None,
    max_num_seqs: int | None = None,
) -> list[Default] | None:
    """vLLM's default for each GPU condition (one entry when the GPU is known), or None."""
    facts = facts_for(version)
    if facts is None:
        return None
    tiers = facts["gpu-tiers"]
    if not tiers or any("unresolved" in t for t in tiers):
        return None
    sched = facts["scheduler"]
    source = facts["get-batch-defaults"]
    chosen = [t for t in tiers if _tier_holds(t, gpu)][:1] if gpu is not None else tiers
    out = []
    for i, tier in enumerate(chosen):
        cond = f"{gpu.name} ({gpu.memory_gib:.0f} GiB)" if gpu is not None else _describe(tier, rest=i == len(tiers) - 1)
        steps = []
        value = (tier.get("max-num-batched-tokens") or {}).get(usage or "", sched["DEFAULT_MAX_NUM_BATCHED_TOKENS"])
        steps.append(f"get_batch_defaults gives {value} ({source} L{tier['line']})")
        seqs = max_num_seqs
        if seqs is None:
            seqs = (tier.get("max-num-seqs") or {}).get(usage or "", sched["DEFAULT_MAX_NUM_SEQS"])
            if throughput and facts.get("throughput-doubles"):
                seqs *= 2
        dp = facts.get("batched-dp-moe") or {}
        if batched_dp_moe and dp.get("used"):
            value = sched["DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP"]
            steps.append(f"batched data-parallel MoE: {value} ({dp.get('source')})")
        if throughput and facts.get("throughput-doubles"):
            value *= 2
            steps.append(f"--performance-mode throughput doubles it: {value}")
        if not chunked_prefill and max_model_len is not None:
            value = max(max_model_len, value)
        if max_model_len is not None and facts.get("cap-max-num-seqs-times-max-model-len") and seqs * max_model_len < value:
            value = seqs * max_model_len
            steps.append(f"capped at max_num_seqs {seqs} x max_model_len {max_model_len} = {value}")
        out.append(Default(value, cond, "; ".join(steps)))
    return out


def uses_batched_dp_moe(version: Version, *, all2all_backend: str | None, expert_parallel: bool, data_parallel_size: int) -> bool:
    """``ParallelConfig.use_batched_dp_moe`` (vllm/config/parallel.py, 0.33 L796-805)."""
    facts = facts_for(version) or {}
    dp = facts.get("batched-dp-moe") or {}
    if not dp:
        return False
    return (
        all2all_backend in dp.get("all2all-backends", [])
        and (expert_parallel or not dp.get("needs-expert-parallel"))
        and (data_parallel_size > 1 or not dp.get("needs-data-parallel"))
    )
