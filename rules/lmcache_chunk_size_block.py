"""## lmcache-chunk-size-block (VL404)

What it does: where an `lmcache server` runs beside a vLLM launch that uses
`LMCacheMPConnector` with a Mamba/GDN hybrid model (the same Kubernetes pod, the
same compose file, the same script), checks that the server's `--chunk-size`
(its default from the lmcache release's parser, `rules/data/lmcache.json`: 256 in
0.4.7 to 0.5.6) is a multiple of LMCache's unified block size N for that model.
N is computed as vLLM computes it (`linter/hybrid_block.py`, a port of
`Platform._align_hybrid_block_size`) from the model's config.json (a model folder
in the tree, `--model-config`, the Hugging Face cache, or the shipped table
`rules/data/hybrid_configs.yaml`) and the launch's tensor-parallel size, KV cache
and Mamba state dtypes, speculative tokens and block size; on vLLM 0.33 the GPU
(FlashInfer GDN prefill on Hopper) can change it, and each GPU condition is named.

Where N is not known for the launch, the rule says how to read it from vLLM's
startup log (`Setting attention block size to N tokens`) instead of guessing.

Why is this bad? The vLLM side of the connector checks the chunk size when it
starts: lmcache up to 0.5.4 fails an assertion ("LMCache chunk size should be a
multiple of vLLM block size"), 0.5.5 and later raise `ValueError: LMCache chunk
size C must be a multiple of B`.

Example (vLLM 0.32, one GPU, N = 784):
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}' &
    lmcache server --chunk-size 256 --l1-size-gb 20 --eviction-policy LRU

Use instead (vLLM 0.32):
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}' &
    lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU

On vLLM 0.33 on H100/H200 the FlashInfer GDN prefill aligns N to 64 tokens
(832 for Qwen3.6-27B); `--gdn-prefill-backend triton` keeps 784.

Fix safety: none offered.

Versions: vLLM 0.28 and later.  Source: lmcache
integration/vllm/vllm_multi_process_adapter.py (0.5.4 L617, L1153; 0.5.6
L779-785, L1499-1505); default chunk size v1/multiprocess/config.py L381-384 (0.5.6); N from vllm/platforms/interface.py (0.32 L1086-1093, 0.33
L1086-1105).
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(
    Rule(
        "VL404", "lmcache-chunk-size-block", "LMCache `--chunk-size` is not a multiple of the hybrid model's block size",
        Severity.ERROR, since="0.28.0", scope="file",
    )
)



@rule.check
def check(fctx):
    reported: set[tuple[int, int]] = set()
    for lctx, facts in hf.mp_hybrid_launches(fctx, rule):
        v = lctx.version
        sizes = hf.block_sizes(lctx, facts)
        lm_version, _ = hf.lmcache_version(fctx, lctx)
        lm = hf.lmcache_release(lm_version)
        default_chunk = lm.default("--chunk-size") if lm is not None else None
        for server in hf.lmcache_servers(fctx, lctx):
            found = server.last("--chunk-size")
            if found is None:
                if server.uncertain or not isinstance(default_chunk, int):
                    continue
                chunk, span, written = default_chunk, hf.entry_span(server.launch), f"the default `--chunk-size` {default_chunk}"
            else:
                text, span = hf.token_value(*found)
                if text is None or span is None:
                    continue
                try:
                    chunk = int(text)
                except ValueError:
                    continue
                written = f"`--chunk-size {chunk}`"
            key = (span.start, span.end)
            if key in reported:
                continue
            if not sizes.known:
                reported.add(key)
                yield Finding(
                    span,
                    f"{written} must be a multiple of LMCache's block size N for {facts.model} on vLLM {v}, and N is not "
                    f"known here ({sizes.reason}); {hf.N_UNKNOWN_HINT}",
                    version=str(v), severity=Severity.INFO,
                )
                continue
            bad = [r for r in sizes.rows if chunk % r.n]
            if not bad:
                continue
            reported.add(key)
            severity = Severity.ERROR if len(bad) == len(sizes.rows) else Severity.WARNING
            good = [r for r in sizes.rows if not chunk % r.n]
            where = "" if not good else f" on {bad[0].gpu}"
            advice = f"set `--chunk-size {bad[0].n}` (or a multiple)"
            if good and bad[0].gdn_prefill == "flashinfer":
                advice += f", or keep {chunk} and add `--gdn-prefill-backend triton` to the vLLM launch"
            yield Finding(
                span,
                f"{written} is not a multiple of LMCache's block size N = {bad[0].n} for {facts.model} on vLLM {v}{where}; "
                f"the connector fails at startup: {advice} ({sizes.how(bad[0])})",
                version=str(v), severity=severity,
            )
