"""LMCache's unified block size N: the attention block size vLLM picks for a hybrid model.

vLLM computes it in ``Platform._align_hybrid_block_size`` (vllm/platforms/interface.py:
0.28 L767-947, 0.32 L939-1125, 0.33 L940-1137) when ``model_config.is_hybrid``, after
the attention backend is chosen, and logs "Setting attention block size to N tokens to
ensure that attention page size is >= mamba page size."  This module is a port of
that function and of what it calls, reading a model's ``config.json`` and the launch's
settings.  The per-release facts it needs are data generated from the wheels by
``tools/extract_hybrid.py`` (``rules/data/hybrid.json``): which architectures are
``IsHybrid`` / ``SupportsMambaPrefixCaching``, how each sizes its Mamba/GDN/KDA state
(the calculator and its arguments as an expression tree over config fields), the MLA
model types, the ``auto`` Mamba SSM dtype overrides, and which parts of the alignment
exist in which release.

Ported (all releases 0.28-0.33 unless noted; lines are 0.33's unless noted):

* attention page of one token: ``FullAttentionSpec(block_size=1)`` =
  ``max(1, kv_heads // tp) * (head_size + head_size_v) * dtype bytes``
  (v1/kv_cache_interface.py L552-604; ``get_num_kv_heads`` config/model.py L1663-1683);
  MLA: ``MLAAttentionSpec``, one latent of ``kv_lora_rank + qk_rope_head_dim`` values,
  no V (kv_cache_interface.py L729-745; ``get_head_size``
  transformers_utils/model_arch_config_convertor.py L91-103);
* the Mamba page: ``MambaSpec.page_size_bytes`` = sum of prod(shape) x dtype bytes
  (kv_cache_interface.py L1094-1130) over the shapes and dtypes of
  ``MambaStateShapeCalculator`` / ``MambaStateDtypeCalculator``
  (model_executor/layers/mamba/mamba_utils.py: ``mamba1_state_shape``,
  ``mamba2_state_shape`` with ``extra_groups_for_head_shards``,
  ``short_conv_state_shape``, ``gated_delta_net_state_shape``, ``kda_state_shape``,
  ``linear_attention_state_shape`` and their dtypes; conv state layout "SD");
* the alignment: ``A = max(min kernel block of the backend, --block-size)`` (default
  ``CacheConfig.DEFAULT_BLOCK_SIZE`` 16), ``max(A, 128)`` for MLA (interface.py L1081-1088),
  in 0.33 align mode ``lcm(A, prefill checkpoint alignment)`` (L1089-1094: 64 with the
  FlashInfer GDN prefill, v1/attention/backends/gdn_attn.py L34),
  ``N = A * cdiv(mamba_page, A * attn_page_1_token)`` and from 0.32 rounded up to the
  lcm of the backends' kernel blocks (L1095-1103); in 0.28-0.31 mode ``all`` (only for
  ``SupportsMambaPrefixCaching`` classes) ``N = lcm(chunk, A) * cdiv(cdiv(mamba_page,
  attn_page_1_token), lcm(chunk, A))`` with the config's ``mamba_chunk_size`` /
  ``chunk_size`` (0.28 interface.py L890-901; config/model.py ``get_mamba_chunk_size``);
  N is at least the block size already set (``if cache_config.block_size < N``).

Not ported, and reported as N unknown: packed KV layouts (``turboquant_*``,
``ultraquant_4bit``, ``octave_*``, ``nvfp4*``, ``*_per_token_head``, ``fp8_ds_mla``),
the ReplaySSM / recover-SSM state records (off by default), architectures with several
state layouts (Qwen4Exp ``get_mamba_specs_from_config``) and those whose state
function the extractor could not read.  The GPU enters only through the attention
kernel block (16 for FlashAttention, FlashInfer and Triton on CUDA; ``MultipleOf(16)``
in flash_attn.py L357-367, triton_attn.py L339-340) and, in 0.33, through the GDN
prefill backend (FlashInfer on SM90, and on SM100/SM120 with CUDA 13 when
``head_k_dim == 128``: model_executor/layers/mamba/gdn/qwen_gdn_linear_attn.py L148-271).
"""

from __future__ import annotations

import math
from typing import Any

from packaging.version import Version

from linter import knowledge
from linter.records import Frozen, _set

# vllm/utils/torch_utils.py STR_DTYPE_TO_TORCH_DTYPE (L40-62 in 0.33) and the byte size of
# each torch dtype.  Only the dense dtypes: the packed formats are not ported.
DTYPE_BYTES = {
    "float32": 4, "float": 4, "half": 2, "float16": 2, "bfloat16": 2,
    "fp8": 1, "fp8_e4m3": 1, "fp8_e5m2": 1, "fp8_inc": 1, "int8": 1,
}
# torch_dtype values of config.json
CONFIG_DTYPES = {"float32": "float32", "float16": "float16", "bfloat16": "bfloat16", "half": "float16", "float": "float32"}


class NotComputed(Exception):
    """N cannot be computed for this model and launch; the message says why."""


class Deployment(Frozen):
    """The launch settings N depends on (all at vLLM's defaults unless given)."""

    __slots__ = ("tp", "kv_cache_dtype", "dtype", "mamba_cache_dtype", "mamba_ssm_cache_dtype", "num_spec", "block_size", "mamba_block_size", "mamba_cache_mode", "kernel_block", "gdn_prefill")

    tp: int
    kv_cache_dtype: str
    dtype: str
    mamba_cache_dtype: str
    mamba_ssm_cache_dtype: str
    num_spec: int
    block_size: int | None  # --block-size
    mamba_block_size: int | None  # --mamba-block-size (0.28-0.31 `all` mode)
    mamba_cache_mode: str  # what hybrids get with prefix caching on (the default)
    kernel_block: int  # smallest kernel block of the attention backend
    gdn_prefill: str  # triton | flashinfer (0.33 align-mode checkpoint alignment)

    def __init__(self, tp=1, kv_cache_dtype="auto", dtype="auto", mamba_cache_dtype="auto", mamba_ssm_cache_dtype="auto", num_spec=0, block_size=None, mamba_block_size=None, mamba_cache_mode="align", kernel_block=16, gdn_prefill="triton"):
        _set(self, "tp", tp)
        _set(self, "kv_cache_dtype", kv_cache_dtype)
        _set(self, "dtype", dtype)
        _set(self, "mamba_cache_dtype", mamba_cache_dtype)
        _set(self, "mamba_ssm_cache_dtype", mamba_ssm_cache_dtype)
        _set(self, "num_spec", num_spec)
        _set(self, "block_size", block_size)
        _set(self, "mamba_block_size", mamba_block_size)
        _set(self, "mamba_cache_mode", mamba_cache_mode)
        _set(self, "kernel_block", kernel_block)
        _set(self, "gdn_prefill", gdn_prefill)


class BlockSize(Frozen):
    __slots__ = ("n", "attn_page_1_token", "mamba_page", "architecture", "steps")

    n: int
    attn_page_1_token: int
    mamba_page: int
    architecture: str
    steps: tuple[str, ...]

    def __init__(self, n, attn_page_1_token, mamba_page, architecture, steps=()):
        _set(self, "n", n)
        _set(self, "attn_page_1_token", attn_page_1_token)
        _set(self, "mamba_page", mamba_page)
        _set(self, "architecture", architecture)
        _set(self, "steps", steps)

    def derivation(self) -> str:
        return "; ".join(self.steps)

    def summary(self) -> str:
        """The pages and the final step, for one-line messages."""
        final = [s for s in self.steps if s.startswith(("N = ", "mode all", "rounded", "the block size", "MLA", "FlashInfer"))]
        return f"{self.attn_page_1_token} B of attention page per token, {self.mamba_page} B of state per Mamba layer, " + "; ".join(final)


def release_facts(version: Version) -> dict | None:
    """The facts of ``version``'s minor release (0.31.2 reads 0.31.0), else None."""
    return knowledge.for_release("hybrid.json", version) or None


def architecture(config: dict) -> str | None:
    archs = config.get("architectures")
    if isinstance(archs, list) and archs and isinstance(archs[0], str):
        return archs[0]
    return None


def text_config(config: dict) -> dict:
    tc = config.get("text_config")
    return tc if isinstance(tc, dict) else config


def classify(config: dict, version: Version) -> dict | None:
    """The registry entry of the config's architecture when vLLM treats the model as hybrid.

    ``ModelConfig.is_hybrid`` (config/model.py L2041-2049 in 0.33, L1890-1898 in 0.29):
    the class is ``IsHybrid`` and ``layer_types`` is absent or holds a non-attention kind
    (granite-4.0-micro has only attention layers).
    """
    rel = release_facts(version)
    arch = architecture(config)
    if rel is None or arch is None:
        return None
    entry = rel["architectures"].get(arch)
    if entry is None or not entry.get("hybrid"):
        return None
    layer_types = config.get("layer_types")
    if isinstance(layer_types, list) and all(t in ("attention", "full_attention") for t in layer_types):
        return None
    return entry


# ---------------------------------------------------------------------------
# Config fields and the expression trees of hybrid.json


def _field(config: dict, node: dict, text_only: bool) -> Any:
    scope = text_config(config) if (node.get("text") or text_only) else config
    value: Any = scope
    for part in node["field"]:
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            if "default" in node:
                return _eval(node["default"], config, {}, text_only)
            raise NotComputed(f"config.json has no `{'.'.join(map(str, node['field']))}`")
    return value


def _eval(node: dict, config: dict, params: dict, text_only: bool) -> Any:
    if "const" in node:
        return node["const"]
    if "param" in node:
        return params[node["param"]]
    if "field" in node:
        return _field(config, node, text_only)
    if "op" in node:
        a, b = (_eval(x, config, params, text_only) for x in node["args"])
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
            raise NotComputed("a state size field is not a number")
        return {"*": a * b, "+": a + b, "-": a - b, "//": a // b if b else 0}[node["op"]]
    if "int" in node:
        return int(_eval(node["int"], config, params, text_only))
    if "if-none" in node:
        try:
            probe = _eval(node["if-none"], config, params, text_only)
        except NotComputed:
            probe = None
        return _eval(node["then"] if probe is None else node["else"], config, params, text_only)
    raise NotComputed(f"unknown expression {sorted(node)}")


def _divide(a: int, b: int) -> int:
    # vllm/distributed/utils.py divide(): asserts divisibility
    if b <= 0 or a % b:
        raise NotComputed(f"{a} is not divisible by the tensor-parallel size {b}")
    return a // b


# MambaStateShapeCalculator (model_executor/layers/mamba/mamba_utils.py, 0.33 L150-310;
# unchanged in 0.28-0.32 for the default conv layout "SD").
def _extra_groups(n_groups: int, tp: int) -> int:
    return 0 if n_groups % tp == 0 else tp - n_groups


def _shapes(calculator: str, a: dict) -> list[tuple[int, ...]]:
    tp = a["tp_world_size"] if "tp_world_size" in a else a.get("tp_size", 1)
    spec = a.get("num_spec", 0)
    if calculator == "mamba1_state_shape":
        conv = _divide(a["intermediate_size"], tp)
        return [(a["conv_kernel"] - 1, conv), (_divide(a["intermediate_size"], tp), a["state_size"])]
    if calculator == "mamba2_state_shape":
        n_groups = a["n_groups"] + _extra_groups(a["n_groups"], tp)
        conv_dim = a["intermediate_size"] + 2 * n_groups * a["state_size"]
        return [(a["conv_kernel"] - 1 + spec, _divide(conv_dim, tp)), (_divide(a["num_heads"], tp), a["head_dim"], a["state_size"])]
    if calculator == "short_conv_state_shape":
        return [(a["conv_kernel"] - 1 + spec, _divide(a["intermediate_size"], tp))]
    if calculator == "gated_delta_net_state_shape":
        conv_dim = a["head_k_dim"] * a["num_k_heads"] * 2 + a["head_v_dim"] * a["num_v_heads"]
        return [
            (a["conv_kernel_size"] - 1 + spec, _divide(conv_dim, tp)),
            (_divide(a["num_v_heads"], tp), a["head_v_dim"], a["head_k_dim"]),
        ]
    if calculator == "kda_state_shape":
        nk = a.get("num_k_heads") or a["num_heads"]
        hk = a.get("head_k_dim") or a["head_dim"]
        conv_dim = a["num_heads"] * a["head_dim"] + 2 * nk * hk
        return [
            (a.get("conv_kernel_size", 4) - 1 + spec, _divide(conv_dim, tp)),
            (_divide(a["num_heads"], tp), a["head_dim"], a["head_dim"]),
        ]
    if calculator == "linear_attention_state_shape":
        return [(a["num_heads"] // tp, a["head_dim"], a["head_dim"])]
    raise NotComputed(f"the state calculator `{calculator}` is not ported")


_PORTED = frozenset({
    "mamba1_state_shape", "mamba2_state_shape", "short_conv_state_shape", "gated_delta_net_state_shape",
    "kda_state_shape", "linear_attention_state_shape", "mamba1_state_dtype", "mamba2_state_dtype",
    "gated_delta_net_state_dtype", "kda_state_dtype", "short_conv_state_dtype", "linear_attention_state_dtype",
})


def _arguments(fn: dict, config: dict, params: dict, rel: dict) -> dict:
    """The calculator's arguments by name, positional ones bound by the release's signature."""
    text_only = fn.get("config") == "text_config"
    sig = (rel["align"].get("calculators") or {}).get(fn["calculator"])
    names = sig["params"] if sig else None
    if names is None or fn["calculator"] not in _PORTED:
        raise NotComputed(f"`{fn['calculator']}` is not ported")
    out = {}
    for name, node in zip(names, fn.get("args", [])):
        out[name] = _eval(node, config, params, text_only)
    for name, node in (fn.get("kwargs") or {}).items():
        out[name] = _eval(node, config, params, text_only)
    for name, value in out.items():
        if name not in ("model_dtype", "mamba_cache_dtype", "mamba_ssm_cache_dtype") and not (
            isinstance(value, int) and not isinstance(value, bool)
        ):
            raise NotComputed(f"the state argument `{name}` is {value!r}, not a whole number")
    return out


def _state_dtype_bytes(calculator: str, a: dict, version: Version) -> list[int]:
    """MambaStateDtypeCalculator (mamba_utils.py, 0.33 L50-140)."""
    model = a["model_dtype"]
    conv = _kv_bytes(a.get("mamba_cache_dtype", "auto"), model, what="--mamba-cache-dtype")
    ssm_name = a.get("mamba_ssm_cache_dtype", "auto")
    if calculator in ("short_conv_state_dtype", "linear_attention_state_dtype"):
        return [conv]
    if calculator == "kda_state_dtype":
        # 0.28/0.29: (conv, float32) whatever the SSM dtype; 0.30+: auto -> float32
        if ssm_name == "auto" or version < Version("0.30"):
            return [conv, 4]
        if ssm_name not in ("float32", "bfloat16"):
            raise NotComputed(f"KDA recurrent state supports only auto, float32 and bfloat16, not {ssm_name}")
        return [conv, DTYPE_BYTES[ssm_name]]
    if calculator in ("mamba1_state_dtype", "mamba2_state_dtype", "gated_delta_net_state_dtype"):
        ssm = conv if ssm_name == "auto" else _kv_bytes(ssm_name, model, what="--mamba-ssm-cache-dtype")
        return [conv, ssm]
    raise NotComputed(f"the dtype calculator `{calculator}` is not ported")


def _kv_bytes(name: str, model_dtype: str, what: str = "--kv-cache-dtype") -> int:
    if name == "auto":
        return DTYPE_BYTES[model_dtype]
    if name in DTYPE_BYTES:
        return DTYPE_BYTES[name]
    raise NotComputed(f"`{what} {name}` uses a packed layout the port does not size")


def model_dtype(config: dict, dep: Deployment) -> str:
    """``ModelConfig.dtype``: ``--dtype``, else the config's ``torch_dtype``/``dtype`` with
    float32 downcast to bfloat16 on CUDA (config/model.py ``_resolve_auto_dtype`` L2423-2465)."""
    if dep.dtype != "auto":
        name = CONFIG_DTYPES.get(dep.dtype)
        if name is None:
            raise NotComputed(f"`--dtype {dep.dtype}` is not a dense dtype the port knows")
        return name
    tc = text_config(config)
    raw = tc.get("torch_dtype") or tc.get("dtype") or config.get("torch_dtype") or config.get("dtype") or "bfloat16"
    name = CONFIG_DTYPES.get(str(raw))
    if name is None:
        raise NotComputed(f"config.json's dtype `{raw}` is not one the port knows")
    return "bfloat16" if name == "float32" else name


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def attention_page_1_token(config: dict, rel: dict, dep: Deployment, dtype: str) -> tuple[int, bool, str]:
    """(bytes, uses MLA, how) of one token's attention page on one rank."""
    tc = text_config(config)
    kv = _kv_bytes(dep.kv_cache_dtype, dtype)
    mla_types = set((rel["align"].get("mla-model-types") or {}).get("value") or [])
    if tc.get("model_type") in mla_types and _int(tc.get("kv_lora_rank")):
        rope = _int(tc.get("qk_rope_head_dim")) or 0
        head = tc["kv_lora_rank"] + rope
        return head * kv, True, f"MLA latent (kv_lora_rank {tc['kv_lora_rank']} + qk_rope_head_dim {rope}) x {kv} B"
    heads = _int(tc.get("num_attention_heads"))
    total_kv = _int(tc.get("num_key_value_heads")) or heads
    head_dim = _int(tc.get("head_dim")) or ((_int(tc.get("hidden_size")) or 0) // heads if heads else 0)
    if not total_kv or not head_dim:
        raise NotComputed("config.json lacks the attention head counts")
    per_rank = max(1, total_kv // dep.tp)
    return per_rank * 2 * head_dim * kv, False, f"{per_rank} KV heads x 2 x head_dim {head_dim} x {kv} B"


def mamba_page(config: dict, entry: dict, rel: dict, dep: Deployment, dtype: str, version: Version) -> tuple[int, str]:
    if entry.get("multiple-specs"):
        raise NotComputed("the architecture has several Mamba state layouts (get_mamba_specs_from_config), not ported")
    shape_fn, dtype_fn = entry.get("state-shape") or {}, entry.get("state-dtype") or {}
    for fn in (shape_fn, dtype_fn):
        if "unresolved" in fn:
            raise NotComputed(f"vLLM's state function could not be read ({fn['unresolved']})")
    ssm = dep.mamba_ssm_cache_dtype
    update = entry.get("ssm-dtype-update")
    if ssm == "auto" and update:
        scope = text_config(config) if update.get("text") else config
        ssm = str(scope.get(update["field"]) or update.get("default") or "auto")
    params = {
        "tp": dep.tp, "num_spec": dep.num_spec, "model_dtype": dtype,
        "mamba_cache_dtype": dep.mamba_cache_dtype, "mamba_ssm_cache_dtype": ssm,
    }
    shapes = _shapes(shape_fn["calculator"], _arguments(shape_fn, config, params, rel))
    sizes = _state_dtype_bytes(dtype_fn["calculator"], _arguments(dtype_fn, config, params, rel), version)
    if len(sizes) != len(shapes):
        raise NotComputed("state shapes and dtypes do not pair up")
    total = sum(math.prod(s) * b for s, b in zip(shapes, sizes))
    parts = " + ".join(f"{'x'.join(map(str, s))} x {b} B" for s, b in zip(shapes, sizes))
    return total, f"{shape_fn['calculator']}: {parts} = {total} B"


def mamba_chunk_size(config: dict) -> int:
    """``ModelConfig.get_mamba_chunk_size`` (config/model.py, 0.29 L1798-1813)."""
    tc = text_config(config)
    for key in ("mamba_chunk_size", "chunk_size"):
        if _int(tc.get(key)):
            return tc[key]
    return 2048


def block_size(config: dict, version: Version, dep: Deployment = Deployment()) -> BlockSize:
    """N for ``config`` (a config.json dict) on ``version`` with ``dep``; raises NotComputed."""
    rel = release_facts(version)
    if rel is None:
        raise NotComputed(f"no hybrid facts for vLLM {version}")
    entry = classify(config, version)
    if entry is None:
        raise NotComputed(f"vLLM {version} does not treat `{architecture(config)}` as a hybrid model")
    align = rel["align"]
    dtype = model_dtype(config, dep)
    attn, mla, attn_how = attention_page_1_token(config, rel, dep, dtype)
    mamba, mamba_how = mamba_page(config, entry, rel, dep, dtype, version)
    default_block = (align.get("default-block-size") or {}).get("value", 16)
    cache_block = dep.block_size or default_block
    steps = [f"attention page per token {attn} B ({attn_how})", f"Mamba page {mamba} B ({mamba_how})"]
    kernel = max(dep.kernel_block, cache_block)
    steps.append(f"A = max(kernel block {dep.kernel_block}, block size {cache_block}) = {kernel}")
    if mla and align.get("mla-128"):
        kernel = max(kernel, 128)
        steps.append(f"MLA: A = max(A, 128) = {kernel}")
    mode = dep.mamba_cache_mode
    if mode == "all" and not (align.get("all-mode-formula") and entry.get("mamba-prefix-caching")):
        mode = "align"  # 0.28-0.31 fall back to align for classes without the marker; 0.32 rejects `all`
    if mode == "all":
        chunk = dep.mamba_block_size or mamba_chunk_size(config)
        unit = math.lcm(chunk, kernel)
        n = unit * math.ceil(math.ceil(mamba / attn) / unit)
        steps.append(f"mode all: N = {unit} x ceil(ceil({mamba} / {attn}) / {unit}) with lcm(chunk {chunk}, A {kernel}) = {unit}: {n}")
    else:
        if mode == "align" and align.get("prefill-checkpoint-alignment"):
            ckpt = _checkpoint_alignment(entry, align, dep)
            if ckpt:
                kernel = math.lcm(kernel, ckpt)
                steps.append(f"FlashInfer GDN prefill checkpoints: A = lcm(A, {ckpt}) = {kernel}")
        n = kernel * math.ceil(mamba / (kernel * attn))
        steps.append(f"N = {kernel} x ceil({mamba} / ({kernel} x {attn})) = {n}")
        if align.get("backend-lcm"):
            backend = dep.kernel_block
            rounded = backend * math.ceil(n / backend)
            if rounded != n:
                steps.append(f"rounded to the backends' kernel block {backend}: {rounded}")
            n = rounded
    if cache_block > n:
        steps.append(f"the block size {cache_block} is already larger: N = {cache_block}")
        n = cache_block
    return BlockSize(n, attn, mamba, architecture(config) or "", tuple(steps))


def _checkpoint_alignment(entry: dict, align: dict, dep: Deployment) -> int | None:
    """``get_mamba_prefill_checkpoint_alignment`` (model_executor/layers/mamba/abstract.py
    L98-113 in 0.33): the lcm of every Mamba layer's alignment, None unless all declare one.
    Only the Qwen GDN layer declares one, with the FlashInfer prefill in align mode
    (qwen_gdn_linear_attn.py L691-697, L736)."""
    layers = entry.get("checkpoint-layers") or []
    fi = align.get("flashinfer-gdn-checkpoint-alignment")
    if dep.gdn_prefill != "flashinfer" or fi is None:
        return None
    if any(layer.endswith("qwen_gdn_linear_attn") for layer in layers):
        return int(fi["value"])
    return None


def prefill_checkpoint_blocks(entry: dict, version: Version, dep: Deployment) -> int:
    """``MambaSpec.num_prefill_checkpoint_blocks`` in align mode: 1 for Mamba2 mixer layers
    from 0.32 (model_executor/layers/mamba/mamba_mixer2.py L1108-1118 in 0.33) and for the Qwen
    GDN layer when it exports FlashInfer checkpoints (0.33, qwen_gdn_linear_attn.py
    L739-750); KDA layers decide at run time (models/kimi_k3/nvidia/kda.py) and count 0 here."""
    calc = (entry.get("state-shape") or {}).get("calculator")
    if calc == "mamba2_state_shape" and version >= Version("0.32"):
        return 1
    rel = release_facts(version) or {}
    if _checkpoint_alignment(entry, rel.get("align") or {}, dep):
        return 1
    return 0


def gdn_prefill_matters(config: dict, version: Version) -> bool:
    """Whether 0.33's GDN prefill backend (hence the GPU) changes N for this model."""
    rel = release_facts(version)
    entry = classify(config, version)
    if rel is None or entry is None or not rel["align"].get("prefill-checkpoint-alignment"):
        return False
    return any(layer.endswith("qwen_gdn_linear_attn") for layer in entry.get("checkpoint-layers") or [])


def load_config(path: str) -> dict | None:
    """A config.json as a dict, None when unreadable (never raises)."""
    from linter import bounded_json

    try:
        raw = bounded_json.read(path)  # never blocks on a pipe, bounded in size and depth
    except (OSError, ValueError):
        return None
    return raw if isinstance(raw, dict) else None
