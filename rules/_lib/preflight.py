"""Pre-flight estimates shared by VL802/VL803: will the KV cache hold one request at full length?

Not a rule module.  It answers, for one parsed launch, from the files alone:

* the model's size facts: from a local ``config.json`` the user names
  (``--model-config``), else the Hugging Face cache folder
  (``~/.cache/huggingface/hub/models--ORG--NAME/snapshots/*/config.json``, never the
  network), else the shipped table ``rules/data/models.yaml``;
* the GPU: ``gpu-memory-gib`` from the configuration, else the Kubernetes node
  selector / affinity label the extractor recorded (``Launch.resources``), looked up
  in ``rules/data/gpus.yaml``;
* the KV cache pool vLLM would size and what one request of ``--max-model-len``
  tokens needs from it.

The arithmetic follows vLLM 0.33 (file and line references are inside the wheel):

* pool per GPU = total memory x ``--gpu-memory-utilization`` - weights per rank -
  everything else vLLM measures at start-up (``v1/worker/gpu_worker.py``
  ``determine_available_memory`` L641-757: the peak activation memory of a profile
  forward pass, non-torch allocations and, by default since 0.21, the CUDA graph
  estimate).  Those cannot be read from files: :data:`OVERHEAD_GIB` stands for them.
* full attention needs ``cdiv(len, 16) * page`` per layer (``FullAttentionSpec``,
  ``v1/kv_cache_interface.py`` L643-648), page = 16 tokens x 2 x KV heads per rank
  (``max(1, kv_heads // tp)``, ``config/model.py`` L1683) x head dim x dtype bytes;
* sliding-window layers hold ``min(window - 1 + tokens in flight, len)`` tokens plus
  one block (``SlidingWindowSpec.max_admission_blocks_per_request`` L918-942);
* MLA layers hold ``kv_lora_rank + qk_rope_head_dim`` values per token, one copy on
  every rank (``get_num_kv_heads`` returns 1 for MLA, L1673-1675);
* hybrid models page attention in blocks of LMCache's N tokens and hold, per sequence
  and Mamba/GDN layer, 2 state pages in `align` mode (+1 prefill checkpoint where the
  layer exports one), each padded to one attention page (linter/hybrid_block.py);
* vLLM refuses to start when one request of ``max_model_len`` tokens needs more than
  the pool (``v1/core/kv_cache_planning.py`` ``_check_enough_kv_cache_memory``).

Everything is an estimate; every answer is ``None`` when a number the estimate needs
is not known statically (an unknown model or GPU, an opaque value, an option that
changes the sizes: quantization, pipeline parallelism, speculative decoding ...).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

from linter import bounded_json
from linter import knowledge
from linter.argmodel import ParsedLaunch
from linter.records import Frozen, Record, _set
from linter.source_file import read_file
from rules._lib import hybrid_facts as hf
from rules._lib.local_facts import GiB, Gpu, gpu_for, hf_cache_config

# linter.hybrid_block is imported by the functions that use it: a model that is not hybrid
# (most) needs none of it
if TYPE_CHECKING:
    from linter import hybrid_block as hb

DATA = Path(__file__).resolve().parent.parent / "data"

# Memory vLLM takes besides the weights and the KV cache, per GPU, in GiB: the peak
# activations of its profile run (max-num-batched-tokens tokens), non-torch allocations
# (CUDA context, NCCL and cuBLAS workspaces) and the CUDA graph pool.  vLLM measures them
# at start-up; no file says them.  1 GiB is a floor rather than a typical value: it
# leaves the predicted pool optimistic, so VL802 reports a launch only when even that
# optimistic pool cannot hold one request.  Where it comes from: vLLM's own accounting
# (gpu_worker.py L748-757 in 0.33: available = requested - non_kv_cache_memory - cudagraph
# estimate) with the smallest values those terms take for a single-GPU dense model with
# CUDA graphs; it is a stated assumption, not a measurement of the launch.
OVERHEAD_GIB = 1.0

# What a finding says of OVERHEAD_GIB: vLLM measures these terms in a profile run at start-up
# (v1/worker/gpu_worker.py determine_available_memory, L641-757 in 0.33), so no file gives
# them and the constant stays; it is a floor, and the real pool is smaller.
FLOOR_NOTE = (f"activation memory, non-torch allocations and CUDA graphs are counted as a {OVERHEAD_GIB:g} GiB floor "
              "(vLLM measures them in its start-up profile run, v1/worker/gpu_worker.py determine_available_memory; "
              "1.5-3 GiB is typical for an 8B model on one H100), so the real pool is smaller")

BLOCK = 16  # vLLM's default --block-size on CUDA (config/cache.py)

# vLLM's default --gpu-memory-utilization before the release inventories (0.28+) give it.
OLD_DEFAULT_UTILIZATION = 0.9

DTYPE_BYTES = {"bfloat16": 2, "float16": 2, "half": 2, "float32": 4, "float": 4}
KV_DTYPE_BYTES = {"bfloat16": 2, "float16": 2, "fp8": 1, "fp8_e4m3": 1, "fp8_e5m2": 1, "fp8_inc": 1}

# Options whose presence changes the sizes in ways the estimate does not model.
UNMODELLED = (
    "quantization",
    "pipeline_parallel_size",
    "speculative_config",
    "hf_overrides",
    "decode_context_parallel_size",
    "cpu_offload_gb",
    "kv_offloading_size",
    "block_size",
    "num_gpu_blocks_override",
    "kv_cache_dtype_skip_layers",
)


# ---------------------------------------------------------------------------
# Model size facts


class SizeFacts(Frozen):
    __slots__ = ("model", "layers", "kv_heads", "head_dim", "dtype", "sliding_window", "full_layers", "sliding_layers", "mamba_layers", "mamba_state_bytes", "mla", "weight_bytes", "weight_note", "max_len", "source")

    model: str
    layers: int
    kv_heads: int
    head_dim: int
    dtype: str
    sliding_window: int | None
    full_layers: int | None  # None: every layer (no layer kinds given)
    sliding_layers: int
    mamba_layers: int
    mamba_state_bytes: int | None
    mla: tuple[int, int] | None  # (kv_lora_rank, qk_rope_head_dim)
    weight_bytes: int | None  # all ranks together
    weight_note: str  # how the weights were counted, for messages
    max_len: int | None  # max_position_embeddings (the configured length)
    source: str  # "the models table", or the config.json path

    def __init__(self, model, layers, kv_heads, head_dim, dtype, sliding_window=None, full_layers=None, sliding_layers=0, mamba_layers=0, mamba_state_bytes=None, mla=None, weight_bytes=None, weight_note="", max_len=None, source=""):
        _set(self, "model", model)
        _set(self, "layers", layers)
        _set(self, "kv_heads", kv_heads)
        _set(self, "head_dim", head_dim)
        _set(self, "dtype", dtype)
        _set(self, "sliding_window", sliding_window)
        _set(self, "full_layers", full_layers)
        _set(self, "sliding_layers", sliding_layers)
        _set(self, "mamba_layers", mamba_layers)
        _set(self, "mamba_state_bytes", mamba_state_bytes)
        _set(self, "mla", mla)
        _set(self, "weight_bytes", weight_bytes)
        _set(self, "weight_note", weight_note)
        _set(self, "max_len", max_len)
        _set(self, "source", source)

    @property
    def attention_layers(self) -> int:
        if self.full_layers is not None:
            return self.full_layers
        return 0 if self.sliding_window else self.layers


def _int(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


_MAX_COUNT = 1 << 32  # no layer, head or dimension count of a real model comes near


def _count(value) -> int | None:
    """A positive count from a config.json (a layer, head or dimension number), or None:
    a config file of the wrong type or of absurd size gives no estimate, never a crash."""
    n = _int(value)
    return n if n is not None and 0 < n <= _MAX_COUNT else None


def from_table(name: str) -> SizeFacts | None:
    m = knowledge.models().get(name.strip().rstrip("/"))
    if m is None or not m.num_hidden_layers:
        return None
    layers = int(m.num_hidden_layers)
    kinds = m.layer_types
    dtype = str(m.torch_dtype)
    weights = None
    note = ""
    if m.parameters:
        per = float(m.weight_bytes_per_parameter or DTYPE_BYTES.get(dtype, 2))
        weights = int(float(m.parameters) * per)
        note = f"{float(m.parameters) / 1e9:g}B parameters x {per:g} bytes"
    mla = m.mla
    heads = int(m.num_attention_heads or 0)
    return SizeFacts(
        model=m.model,
        layers=layers,
        kv_heads=int(m.num_key_value_heads or heads),
        head_dim=int(m.head_dim or 0),
        dtype=dtype,
        sliding_window=_int(m.sliding_window),
        full_layers=_int(kinds.full_attention) if kinds is not None else None,
        sliding_layers=_int(kinds.sliding_attention) or 0 if kinds is not None else 0,
        mamba_layers=_int(kinds.mamba) or 0 if kinds is not None else 0,
        mamba_state_bytes=_int(m.mamba_state_bytes),
        mla=(mla.kv_lora_rank, mla.qk_rope_head_dim) if mla is not None else None,
        weight_bytes=weights,
        weight_note=note,
        max_len=_configured_len(m),
        source="the models table",
    )


def _configured_len(m: knowledge.ModelEntry) -> int | None:
    if m.derived_max_model_len:
        return m.derived_max_model_len[max(m.derived_max_model_len)]
    return _int(m.max_position_embeddings)


_ATTENTION_KINDS = ("full_attention", "attention")
_SLIDING_KINDS = ("sliding_attention", "sliding_window_attention")
_MAMBA_KINDS = ("mamba", "linear_attention", "mamba2", "gdn")


def from_config(path: str, name: str | None = None) -> SizeFacts | None:
    """Size facts from a Hugging Face ``config.json`` (its text config for multimodal models).

    Weights come from ``model.safetensors.index.json`` (``metadata.total_size``) or
    ``model.safetensors`` beside it; without either the weights stay unknown.  Hybrid
    models (Mamba/GDN layers) count their layer kinds here; their state pages are sized by
    :func:`hybrid_pages` (linter/hybrid_block.py) from the same config.json.
    """
    try:
        raw = bounded_json.read(path)  # never blocks on a pipe, bounded in size and depth
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict):
        return None
    cfg = raw.get("text_config") if isinstance(raw.get("text_config"), dict) else raw
    layers = _count(cfg.get("num_hidden_layers"))
    heads = _count(cfg.get("num_attention_heads"))
    if not layers or not heads:
        return None
    kv_heads = _count(cfg.get("num_key_value_heads")) or heads
    head_dim = _count(cfg.get("head_dim")) or ((_count(cfg.get("hidden_size")) or 0) // heads)
    dtype = str(cfg.get("torch_dtype") or cfg.get("dtype") or raw.get("torch_dtype") or raw.get("dtype") or "bfloat16")
    window = _count(cfg.get("sliding_window"))
    types = cfg.get("layer_types")
    full = sliding = mamba = 0
    kinds_known = False
    if isinstance(types, list) and types:
        kinds_known = True
        for t in types:
            t = str(t)
            if t in _ATTENTION_KINDS:
                full += 1
            elif t in _SLIDING_KINDS:
                sliding += 1
            elif t in _MAMBA_KINDS:
                mamba += 1
            else:
                return None  # a layer kind the estimate does not know
    elif window and _count(cfg.get("sliding_window_pattern")):
        pattern = _count(cfg.get("sliding_window_pattern")) or 1  # Gemma 3: every pattern-th layer is global
        full = layers // pattern
        sliding = layers - full
        kinds_known = True
    interval = _int(cfg.get("full_attention_interval"))
    if not kinds_known and interval and cfg.get("linear_num_value_heads"):
        full = layers // interval  # Qwen3-Next / Qwen3.5: every interval-th layer is full attention
        mamba = layers - full
        kinds_known = True
    if (cfg.get("mamba_d_state") or cfg.get("linear_num_value_heads")) and not mamba:
        return None  # hybrid whose layer kinds the config does not list
    mla = None
    rank, rope = _count(cfg.get("kv_lora_rank")), _int(cfg.get("qk_rope_head_dim"))
    if rank and rope is not None and 0 <= rope <= _MAX_COUNT:
        mla = (rank, rope)
    if window and not kinds_known and not cfg.get("use_sliding_window", True):
        window = None  # Qwen2-style configs carry a window they do not use
    folder = os.path.dirname(os.path.abspath(path))
    weights, note = _checkpoint_bytes(folder)
    max_len = _count(cfg.get("max_position_embeddings"))
    return SizeFacts(
        model=name or str(raw.get("_name_or_path") or path),
        layers=layers,
        kv_heads=kv_heads,
        head_dim=head_dim,
        dtype=dtype,
        sliding_window=window,
        full_layers=full if kinds_known else None,
        sliding_layers=sliding,
        mamba_layers=mamba,
        mla=mla,
        weight_bytes=weights,
        weight_note=note,
        max_len=max_len,
        source=path,
    )


def _checkpoint_bytes(folder: str) -> tuple[int | None, str]:
    index = os.path.join(folder, "model.safetensors.index.json")
    try:
        meta = bounded_json.read(index, 1 << 26)  # big checkpoints list many tensors
        total = meta.get("metadata", {}).get("total_size") if isinstance(meta, dict) else None
        if isinstance(total, int) and not isinstance(total, bool) and total > 0:
            return total, "the checkpoint's model.safetensors.index.json total_size"
    except (OSError, ValueError, AttributeError):
        pass
    single = os.path.join(folder, "model.safetensors")
    if os.path.isfile(single):
        return os.path.getsize(single), "the size of model.safetensors"
    return None, ""


def size_facts(model: str | None, model_configs: dict[str, str] | None = None) -> SizeFacts | None:
    """The size facts of ``model``: a named config.json, the HF cache, then the table."""
    if not model:
        return None
    configs = model_configs or {}
    path = configs.get(model) or configs.get("")
    if path:
        return from_config(path, model)
    cached = hf_cache_config(model)
    if cached:
        found = from_config(cached, model)
        if found is not None:
            return found
    return from_table(model)


# ---------------------------------------------------------------------------
# The estimate


class HybridPages(Frozen):
    """How vLLM pages a hybrid model (linter/hybrid_block.py): attention blocks of N tokens,
    and every Mamba layer's state padded to one attention page (N x attention bytes per token)."""

    __slots__ = ("block", "attn_page_1_token", "state_pages", "how")

    block: int  # N
    attn_page_1_token: int  # bytes per token of one attention layer on one rank
    state_pages: int  # pages per Mamba layer per sequence (align: 2 + speculative + checkpoint)
    how: str

    def __init__(self, block, attn_page_1_token, state_pages, how):
        _set(self, "block", block)
        _set(self, "attn_page_1_token", attn_page_1_token)
        _set(self, "state_pages", state_pages)
        _set(self, "how", how)


class Estimate(Record):
    __slots__ = ("facts", "gpu", "tp", "utilization", "length", "length_from_config", "kv_bytes", "kv_dtype", "weight_bytes_per_rank", "pool_bytes", "in_flight", "notes", "hybrid")

    facts: SizeFacts
    gpu: Gpu
    tp: int
    utilization: float
    length: int
    length_from_config: bool  # --max-model-len not set: the model's configured length
    kv_bytes: float  # per element
    kv_dtype: str
    weight_bytes_per_rank: int
    pool_bytes: int  # predicted KV cache pool per GPU
    in_flight: int  # tokens scheduled but not settled (sliding-window layers)
    notes: list[str]
    hybrid: HybridPages | None

    def __init__(self, facts, gpu, tp, utilization, length, length_from_config, kv_bytes, kv_dtype, weight_bytes_per_rank, pool_bytes, in_flight, notes=None, hybrid=None):
        self.facts = facts
        self.gpu = gpu
        self.tp = tp
        self.utilization = utilization
        self.length = length
        self.length_from_config = length_from_config
        self.kv_bytes = kv_bytes
        self.kv_dtype = kv_dtype
        self.weight_bytes_per_rank = weight_bytes_per_rank
        self.pool_bytes = pool_bytes
        self.in_flight = in_flight
        self.notes = ([] if notes is None else notes)
        self.hybrid = hybrid

    def need(self, length: int | None = None) -> int:
        """Bytes per GPU of KV cache one request of ``length`` tokens needs."""
        n = self.length if length is None else length
        f = self.facts
        h = self.hybrid
        if h is not None:
            # MambaSpec.max_memory_usage_bytes (v1/kv_cache_interface.py L1133-1140 in 0.33):
            # align mode holds 2 + speculative + prefill-checkpoint pages per Mamba layer; the
            # page is padded to the attention page (platforms/interface.py L1115-1137)
            page = h.block * h.attn_page_1_token
            return int(f.attention_layers * math.ceil(n / h.block) * page + f.mamba_layers * h.state_pages * page)
        blocks = math.ceil(n / BLOCK)
        if f.mla is not None:
            per_token = sum(f.mla) * self.kv_bytes
            return int(f.layers * blocks * BLOCK * per_token)
        per_token_layer = 2 * max(1, f.kv_heads // self.tp) * f.head_dim * self.kv_bytes
        total = f.attention_layers * blocks * BLOCK * per_token_layer
        if f.sliding_window:
            sliding = f.sliding_layers if f.full_layers is not None else f.layers
            held = min(f.sliding_window - 1 + self.in_flight, n)
            total += sliding * (math.ceil(held / BLOCK) + 1) * BLOCK * per_token_layer
        if f.mamba_layers:
            total += f.mamba_layers * (f.mamba_state_bytes or 0)
        return int(total)

    @property
    def fits(self) -> bool:
        return self.need() <= self.pool_bytes

    @property
    def concurrency(self) -> float:
        need = self.need()
        return self.pool_bytes / need if need else 0.0

    def largest_length(self) -> int:
        """The largest length (a multiple of the block size) whose request fits the pool."""
        lo, hi = 0, self.length // BLOCK
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.need(mid * BLOCK) <= self.pool_bytes:
                lo = mid
            else:
                hi = mid - 1
        return lo * BLOCK

    def describe_pool(self) -> str:
        total = self.gpu.total_bytes / GiB
        return (
            f"{self.gpu.name} ({total:.1f} GiB) x {self.utilization:g} = {total * self.utilization:.1f} GiB, "
            f"minus {self.weight_bytes_per_rank / GiB:.1f} GiB of weights per GPU ({self.facts.weight_note}"
            f"{f', tensor-parallel size {self.tp}' if self.tp > 1 else ''}), "
            f"minus {OVERHEAD_GIB:g} GiB assumed for activations and CUDA graphs (a floor)"
        )


def _known(parsed: ParsedLaunch, dest: str) -> tuple[bool, str | None]:
    """(set, value): value None when set but not known statically."""
    opt = parsed.last(dest)
    if opt is None:
        return False, None
    return True, opt.known_value


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def estimate(ctx, *, gpu_memory_gib: float | None = None, model_configs: dict[str, str] | None = None) -> Estimate | None:
    """The KV cache estimate of one launch, or None when something it needs is unknown."""
    parsed = ctx.parsed
    launch = ctx.launch
    if launch.program != "vllm" or launch.entrypoint == "config" or parsed.uncertain:
        return None
    if parsed.config_files and not parsed.config_options:
        return None  # options in a --config file that could not be read
    for dest in UNMODELLED:
        if parsed.last(dest) is not None:
            return None
    gpu = gpu_for(launch.resources, gpu_memory_gib)
    if gpu is None:
        return None
    facts = size_facts(parsed.model, model_configs)
    if facts is None or facts.weight_bytes is None or not facts.head_dim:
        return None
    hybrid_config = None
    if facts.mamba_layers:
        from linter import hybrid_block as hb  # here: only a hybrid model needs it

        found = hf.find_config(parsed.model or "", ctx)
        if found is None or hb.classify(found[0], ctx.version) is None:
            return None  # no config.json to size the state pages from
        hybrid_config = found[0]

    tp_set, _ = _known(parsed, "tensor_parallel_size")
    tp = parsed.int_value("tensor_parallel_size") if tp_set else 1
    if tp is None or tp < 1:
        return None

    len_set, _ = _known(parsed, "max_model_len")
    if len_set:
        length = parsed.int_value("max_model_len")
        if length is None or length <= 0:
            return None  # opaque, or -1/"auto": vLLM picks the length itself
    else:
        length = facts.max_len
        if not length:
            return None

    dtype = facts.dtype
    dtype_set, dtype_text = _known(parsed, "dtype")
    if dtype_set:
        if dtype_text is None:
            return None
        if dtype_text != "auto":
            if dtype_text not in DTYPE_BYTES:
                return None
            dtype = dtype_text
    model_bytes = DTYPE_BYTES.get(dtype)
    if model_bytes is None:
        return None
    kv_set, kv_text = _known(parsed, "kv_cache_dtype")
    kv_dtype = "auto" if not kv_set else kv_text
    if kv_dtype is None:
        return None
    kv_bytes = model_bytes if kv_dtype == "auto" else KV_DTYPE_BYTES.get(kv_dtype)
    if kv_bytes is None:
        return None

    util_set, util_text = _known(parsed, "gpu_memory_utilization")
    if util_set:
        utilization = _float(util_text)
    else:
        spec = ctx.release.by_dest.get("gpu_memory_utilization")
        utilization = spec.default if spec is not None and isinstance(spec.default, (int, float)) else OLD_DEFAULT_UTILIZATION
    if utilization is None or not 0 < utilization <= 1:
        return None

    if model_bytes != DTYPE_BYTES.get(facts.dtype):
        return None  # --dtype float32 on a bf16 model: the weights change size too
    weight_per_rank = math.ceil(facts.weight_bytes / tp)

    kv_mem_set, _ = _known(parsed, "kv_cache_memory_bytes")
    if kv_mem_set:
        pool = parsed.int_value("kv_cache_memory_bytes")
        if pool is None:
            return None
    else:
        pool = int(gpu.total_bytes * utilization - weight_per_rank - OVERHEAD_GIB * GiB)

    batched_set, _ = _known(parsed, "max_num_batched_tokens")
    if batched_set:
        batched = parsed.int_value("max_num_batched_tokens")
        if batched is None:
            return None
    else:
        defaults = hf.batch_defaults(ctx)  # get_batch_defaults for this GPU (linter/batch_defaults.py)
        if not defaults or len(defaults) != 1:
            return None
        batched = defaults[0].value
    in_flight = 2 * batched  # async scheduling keeps two batches in flight (config/vllm.py max_concurrent_batches)

    notes: list[str] = []
    count_text = launch.resources.get("gpu-count")
    count = int(count_text) if count_text and count_text.strip().isdigit() else None
    if count is not None and count < tp:
        return None  # fewer GPUs than tensor-parallel ranks: vLLM fails before sizing the cache
    dp = parsed.int_value("data_parallel_size") if parsed.last("data_parallel_size") is not None else 1
    if count is not None and dp is not None and count > tp * dp:
        notes.append(f"the container asks for {count} GPUs but uses {tp * dp} (tensor-parallel size {tp})")

    hybrid = None
    if hybrid_config is not None:
        hybrid = hybrid_pages(ctx, hybrid_config, gpu, tp, kv_dtype)
        if hybrid is None:
            return None
        notes.append(f"hybrid paging as vLLM {ctx.version} does it: {hybrid.how}")

    return Estimate(
        hybrid=hybrid,
        notes=notes,
        facts=facts,
        gpu=gpu,
        tp=tp,
        utilization=float(utilization),
        length=int(length),
        length_from_config=not len_set,
        kv_bytes=float(kv_bytes),
        kv_dtype=dtype if kv_dtype == "auto" else kv_dtype,
        weight_bytes_per_rank=weight_per_rank,
        pool_bytes=pool,
        in_flight=in_flight,
    )


def hybrid_gap(ctx, *, gpu_memory_gib: float | None = None, model_configs: dict[str, str] | None = None) -> str | None:
    """Why a launch of a hybrid model on a known GPU gets no estimate, or None when that is
    not the reason (not a hybrid, no GPU, or the estimate exists).

    A hybrid's KV pages are N tokens long (LMCache's block size, linter/hybrid_block.py) and
    each Mamba/GDN layer holds padded state pages; both need the model's config.json, which
    the launch itself does not carry."""
    from linter import hybrid_block as hb

    parsed = ctx.parsed
    if ctx.launch.program != "vllm" or ctx.launch.entrypoint == "config" or parsed.uncertain:
        return None
    if gpu_for(ctx.launch.resources, gpu_memory_gib) is None:
        return None
    model = (parsed.model or "").strip().rstrip("/")
    if not model:
        return None
    facts = size_facts(model, model_configs)
    row = knowledge.models().get(model)
    family = row.hybrid if row is not None and row.hybrid != "none" else None
    found = hf.find_config(model, ctx)
    classified = hb.classify(found[0], ctx.version) if found is not None else None
    if not (facts is not None and facts.mamba_layers) and family is None and classified is None:
        return None
    what = (f"{family.upper() if family == 'gdn' else 'Mamba2'} layers, rules/data/models.yaml" if family
            else f"{facts.mamba_layers} Mamba/GDN layers, {facts.source}" if facts is not None and facts.mamba_layers
            else f"a hybrid class of vLLM {ctx.version}'s registry")
    if found is None:
        return (f"{model} is a hybrid ({what}): its KV pages are N tokens long and each Mamba layer holds padded "
                "state pages, which only its config.json gives; none was found (a model folder in the tree, "
                "--model-config, the Hugging Face cache, rules/data/hybrid_configs.yaml): "
                f"give one with `--model-config {model}=PATH/config.json` for an estimate")
    config, origin = found
    if classified is None:
        return (f"the config.json of {model} ({origin}) names {hb.architecture(config) or 'no architecture'}, which "
                f"vLLM {ctx.version}'s registry does not list as a hybrid class (rules/data/hybrid.json): N cannot be computed")
    gpu = gpu_for(ctx.launch.resources, gpu_memory_gib)
    tp = parsed.int_value("tensor_parallel_size") if parsed.last("tensor_parallel_size") is not None else 1
    kv = parsed.last("kv_cache_dtype")
    kv_dtype = kv.known_value if kv is not None else "auto"
    if gpu is None or tp is None or tp < 1 or kv_dtype is None:
        return None
    try:
        n = hb.block_size(config, ctx.version, _deployment(gpu, tp, kv_dtype, "align")).n
    except hb.NotComputed as e:
        return f"N for {model} ({origin}) is not computed: {e}"
    if facts is None or facts.weight_bytes is None:
        return (f"N = {n} for {model} ({origin}), but the size of its weights is not known (no checkpoint index "
                "beside the config.json, no parameter count in rules/data/models.yaml), so the pool cannot be predicted")
    return None


def _deployment(gpu: Gpu, tp: int, kv_dtype: str, mode: str) -> hb.Deployment:
    """What N depends on for this launch: FlashInfer's GDN prefill on H100/H200, else Triton."""
    from linter import hybrid_block as hb

    prefill = "flashinfer" if any(k in gpu.name.lower() for k in ("h100", "h200")) else "triton"
    return hb.Deployment(tp=tp, kv_cache_dtype=kv_dtype if kv_dtype in hb.DTYPE_BYTES or kv_dtype == "auto" else "auto",
                         mamba_cache_mode=mode, gdn_prefill=prefill)


def hybrid_pages(ctx, config: dict, gpu: Gpu, tp: int, kv_dtype: str) -> HybridPages | None:
    """N and the state pages per Mamba layer for a hybrid launch (vLLM's defaults: prefix
    caching on, so mode ``align``; no speculative decoding, which the estimate does not model)."""
    from linter import hybrid_block as hb

    pc_set, pc_on, _ = ctx.parsed.flag("enable_prefix_caching")
    mode = "none" if pc_set and pc_on is False else "align"
    dep = _deployment(gpu, tp, kv_dtype, mode)
    try:
        result = hb.block_size(config, ctx.version, dep)
    except hb.NotComputed:
        return None
    entry = hb.classify(config, ctx.version) or {}
    pages = 1
    checkpoint = 0
    if mode == "align":
        pages = 2
        checkpoint = hb.prefill_checkpoint_blocks(entry, ctx.version, dep)
        pages += checkpoint
    how = f"N = {result.n}, {pages} state page{'s' if pages > 1 else ''} per Mamba layer ({mode} mode" + (", one prefill checkpoint" if checkpoint else "") + ")"
    return HybridPages(result.n, result.attn_page_1_token, pages, how)


def gib(n: float) -> str:
    return f"{n / GiB:.1f} GiB"
