"""## kv-cache-too-small (VL802)

What it does: predicts, from the files alone, whether the KV cache vLLM will size
can hold one request of `--max-model-len` tokens, for launches whose model and GPU
are known: the model from the shipped table (`rules/data/models.yaml`), a local
`config.json` named with `--model-config [MODEL=]PATH`, or the Hugging Face cache
folder (`~/.cache/huggingface/hub/models--ORG--NAME`; never the network); the GPU
from a Kubernetes `nvidia.com/gpu.product` or `cloud.google.com/gke-accelerator`
node selector (or a required node affinity with one value), looked up in
`rules/data/gpus.yaml`, or from `gpu-memory-gib` in the configuration.

Why is this bad? vLLM refuses to start when one request at the maximum length
does not fit ("To serve at least one request with the model's max seq len ...");
in Kubernetes the pod restarts forever.  Without `--max-model-len` vLLM serves the
model's configured length (40,960 tokens for Qwen/Qwen3-8B, 131,072 for
Llama 3.1), which small GPUs often cannot hold.

How it is computed (an estimate, documented in `rules/_lib/preflight.py`):

* KV bytes per token and layer = 2 x KV heads per GPU (`max(1, kv_heads // tp)`) x
  head dim x KV dtype bytes (`--kv-cache-dtype`, `auto` = the model dtype).
  Qwen/Qwen3-8B: 2 x 36 layers x 8 x 128 x 2 B = 144 KiB per token, 5.6 GiB for
  one 40,960-token request.  Sliding-window layers hold only their window (plus
  the tokens in flight); MLA layers hold `kv_lora_rank + qk_rope_head_dim` values
  per token on every GPU; hybrid models count their full-attention layers plus one
  Mamba state per sequence.
* The pool per GPU = GPU memory x `--gpu-memory-utilization` (the release's
  default: 0.92 in 0.28-0.33) - weights per GPU (parameters x dtype bytes /
  tensor-parallel size) - 1 GiB assumed for activations, non-torch memory and CUDA
  graphs.  vLLM measures those at start-up; 1 GiB is a floor, so the pool is
  optimistic and the rule reports only launches that fail even then.

Example (an L4 has 22.5 GiB):
    apiVersion: v1
    kind: Pod
    metadata: {name: qwen3-8b}
    spec:
      nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.32.0
          args: [Qwen/Qwen3-8B, --gpu-memory-utilization, "0.8"]

Use instead: a `--max-model-len` at or below the length the message gives, a
larger `--gpu-memory-utilization`, `--kv-cache-dtype fp8`, more tensor
parallelism or a larger GPU:
    apiVersion: v1
    kind: Pod
    metadata: {name: qwen3-8b}
    spec:
      nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.32.0
          args: [Qwen/Qwen3-8B, --gpu-memory-utilization, "0.8", --max-model-len, "12288"]

Fix safety: none offered (the right length is a product decision).

Versions: all releases (the default utilization comes from each release's
inventory; 0.9 before 0.28).  Launches with options the estimate does not model
(`--quantization`, `--pipeline-parallel-size`, `--speculative-config`,
`--hf-overrides`, `--cpu-offload-gb`, `--block-size` ...), opaque values, unknown
models or unknown GPUs are not reported.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib import preflight
from rules._lib.base import Rule, register

rule = register(Rule("VL802", "kv-cache-too-small", "The KV cache cannot hold one request at the maximum length: vLLM will not start", Severity.ERROR))


def settings_of(ctx) -> tuple[float | None, dict[str, str]]:
    s = getattr(ctx, "settings", None)
    return getattr(s, "gpu_memory_gib", None), dict(getattr(s, "model_configs", None) or {})


def where(ctx):
    """The `--max-model-len` value when set, else the model, else the launch."""
    opt = ctx.parsed.last("max_model_len")
    if opt is not None and opt.values and not opt.from_config:
        return ctx.item_span(opt.values[-1])
    return hf.model_span(ctx)


def length_words(est: preflight.Estimate, ctx) -> str:
    if est.length_from_config:
        return f"the model's configured length ({est.length:,} tokens; no `{ctx.parsed.spelling('max_model_len')}` is set)"
    return f"{est.length:,} tokens"


@rule.check
def check(ctx):
    gpu_gib, configs = settings_of(ctx)
    est = preflight.estimate(ctx, gpu_memory_gib=gpu_gib, model_configs=configs)
    if est is None or est.fits:
        return
    largest = est.largest_length()
    option = ctx.parsed.spelling("max_model_len").rstrip(" :=")
    todo = (
        f"set `{option}` to about {largest:,} or less, or add GPUs"
        if largest > 0
        else "the weights alone take nearly the whole budget: add GPUs or quantize the model"
    )
    yield Finding(
        where(ctx),
        f"predicted start-up failure on vLLM {ctx.version}: one request needs {preflight.gib(est.need())} of KV cache per GPU, "
        f"about {preflight.gib(max(est.pool_bytes, 0))} is left: {todo}",
        notes=(
            f"one request of {length_words(est, ctx)} of {est.facts.model} with a {est.kv_dtype} KV cache needs "
            f"{preflight.gib(est.need())} per GPU; left: {est.describe_pool()}",
            (f"the largest length that fits is about {largest:,} tokens; " if largest > 0 else "")
            + f"an estimate from the files: activation memory and CUDA graphs are counted only as the "
            f"{preflight.OVERHEAD_GIB:g} GiB constant" + "".join(f"; {n}" for n in est.notes),
        ),
    )
