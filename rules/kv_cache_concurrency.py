"""## kv-cache-concurrency (VL803)

What it does: for launches whose model and GPU are known (see VL802), reports the
predicted KV cache pool per GPU and how many requests of the maximum length it
holds at once, the number vLLM logs at start-up as its maximum concurrency.  Off by
default; select it with `--extend-select VL803`.

Why is this bad? It is not: it is information for sizing.  A concurrency below 1
is VL802's start-up failure; a concurrency just above 1 means long requests queue
behind each other.

Example:
    apiVersion: v1
    kind: Pod
    metadata: {name: qwen3-8b}
    spec:
      nodeSelector: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.32.0
          args: [Qwen/Qwen3-8B, --max-model-len, "32768"]

reports a pool of about 57.0 GiB: room for about 12.7 requests of 32,768 tokens.

Use instead: nothing needs to change (this is information).  Where the files do
not say which GPU serves the launch there is no estimate:
    apiVersion: v1
    kind: Pod
    metadata: {name: qwen3-8b}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.32.0
          args: [Qwen/Qwen3-8B, --max-model-len, "32768"]

Fix safety: none (information).

Versions: all releases.  The same estimate as VL802 (rules/_lib/preflight.py):
activation memory and CUDA graphs are counted only as a 1 GiB floor (vLLM measures
them in its start-up profile run; no file gives them), so the real pool is smaller.
A hybrid model (attention + Mamba/GDN layers) on a known GPU whose config.json is not
found, or whose N cannot be computed, gets a finding that says so instead of silence.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib import preflight
from rules._lib.base import Rule, register
from rules.kv_cache_too_small import length_words, settings_of, where

rule = register(Rule("VL803", "kv-cache-concurrency", "Predicted KV cache pool and concurrency at the maximum length", Severity.INFO, default=False))


@rule.check
def check(ctx):
    gpu_gib, configs = settings_of(ctx)
    est = preflight.estimate(ctx, gpu_memory_gib=gpu_gib, model_configs=configs)
    if est is None:
        gap = preflight.hybrid_gap(ctx, gpu_memory_gib=gpu_gib, model_configs=configs)
        if gap is not None:  # a hybrid on a known GPU: say why there is no estimate, not nothing
            yield Finding(hf.model_span(ctx), "no KV cache estimate for this hybrid model", notes=(gap,))
        return
    if not est.fits:
        return  # VL802 reports it
    yield Finding(
        where(ctx),
        f"predicted KV cache: about {preflight.gib(est.pool_bytes)} per GPU, room for about {est.concurrency:.1f} requests "
        f"of {est.length:,} tokens at once",
        notes=(
            f"the pool: {est.describe_pool()}",
            f"one request of {length_words(est, ctx)} needs {preflight.gib(est.need())} ({est.facts.model}, {est.kv_dtype} KV cache); "
            "vLLM logs its own figure as the maximum concurrency",
            f"an estimate: {preflight.FLOOR_NOTE}",
            *est.notes,
        ),
    )
