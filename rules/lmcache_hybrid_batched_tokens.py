"""## lmcache-hybrid-batched-tokens (VL403)

What it does: on a launch that uses `LMCacheMPConnector` with a Mamba/GDN hybrid
model, checks `--max-num-batched-tokens` against LMCache's unified block size N
(the attention block size vLLM picks for the model, computed from its config.json
as vLLM does: see lmcache-chunk-size-block, VL404):

- below N: LMCache's connector raises at engine startup ("Mamba-hybrid models with
  LMCache require max_num_batched_tokens >= block_size");
- with lmcache up to 0.5.3 (read from an `lmcache/...:0.5.3` image tag in the
  same pod, compose file or script), 2N or more is rejected as well;
- left out, the option takes vLLM's default (`linter/batch_defaults.py`, a port of
  `get_batch_defaults` with its per-release tiers from the wheels: 2048, 8192 or
  16384 for `vllm serve` by GPU, 256 for batched data-parallel MoE, capped at
  `max_num_seqs * max_model_len`), which is checked against the same bounds.

Where N is not known (no config.json at hand, a packed KV cache dtype, an option
the port does not follow, an opaque value) the rule says how to read N from the
startup log instead of guessing.

Why is this bad? The server does not start.

Example (vLLM 0.32, one GPU, N = 784):
    vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens 512 --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'

Use instead:
    vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens 1567 --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'

Fix safety: none offered (the right budget depends on the workload).

Versions: vLLM 0.28 and later; the upper bound where the lmcache release's
connector has it (0.4.7 to 0.5.3, read from the wheels: `rules/data/lmcache.json`,
`python -m tools.extract_lmcache --all`).
Source: lmcache integration/vllm/lmcache_mp_connector.py
`validate_mamba_step_alignment`, which runs in `align` mode (0.5.0 L130 and 0.5.3
L145-178: [N, 2N); 0.5.4 L157-177 and 0.5.6 L371-427, L402: >= N);
N from vllm/platforms/interface.py `_align_hybrid_block_size` (0.32 L1086-1093,
0.33 L1086-1105); GPU defaults from vllm/engine/arg_utils.py
`get_batch_defaults` (0.33 L2940-3038: 2048, 8192 or 16384 for `vllm serve`).
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(
    Rule(
        "VL403", "lmcache-hybrid-batched-tokens", "`--max-num-batched-tokens` outside what LMCache accepts for a hybrid model",
        Severity.ERROR, since="0.28.0", scope="file",
    )
)



@rule.check
def check(fctx):
    for lctx, facts in hf.mp_hybrid_launches(fctx, rule):
        parsed = lctx.parsed
        v = lctx.version
        opt = parsed.last("max_num_batched_tokens")
        name = parsed.spelling("max_num_batched_tokens")
        if opt is not None and opt.value_opaque:
            continue
        budget = opt.int_value if opt is not None else None
        if opt is not None and budget is None:
            continue
        lm_version, _ = hf.lmcache_version(fctx, lctx)
        # the < 2N check of the connector (rules/data/lmcache.json), only for a release the file names
        lm = hf.lmcache_release(lm_version) if lm_version is not None else None
        upper = lm is not None and lm.step_upper_bound
        sizes = hf.block_sizes(lctx, facts)
        if not sizes.known:
            if opt is not None:
                bound = "at least N" + (f" and below 2N (lmcache {lm_version})" if upper else "")
                yield _diag(fctx, lctx, opt, None, Severity.INFO,
                            f"`{hf.with_value(name, budget)}` must be {bound} for `LMCacheMPConnector` with {facts.model}, "
                            f"and N is not known here ({sizes.reason}); {hf.N_UNKNOWN_HINT}")
            continue
        if opt is not None:
            low = [r for r in sizes.rows if budget < r.n]
            if low:
                sev = Severity.ERROR if len(low) == len(sizes.rows) else Severity.WARNING
                where = "" if sev is Severity.ERROR else f" on {low[0].gpu}"
                yield _diag(fctx, lctx, opt, sizes, sev,
                            f"`{hf.with_value(name, budget)}` is below LMCache's block size N = {low[0].n} for {facts.model} "
                            f"on vLLM {v}{where}; LMCache's connector raises at startup: set "
                            f"`{hf.with_value(name, max(r.n for r in low))}` or more ({sizes.how(low[0])})")
                continue
        defaults = None
        if opt is None:
            defaults = hf.batch_defaults(lctx)
            if defaults is None:
                continue  # a setting the default depends on is not known statically
            low_n = min(r.n for r in sizes.rows)
            below = [d for d in defaults if d.value < low_n]
            if below:
                sev = Severity.ERROR if len(below) == len(defaults) else Severity.WARNING
                where = "" if sev is Severity.ERROR else f" on {below[0].condition}"
                yield Finding(
                    hf.model_span(lctx),
                    f"without `{name}`, vLLM {v} batches {below[0].value} tokens{where} ({below[0].derivation}), below "
                    f"LMCache's block size N = {low_n} for {facts.model}; LMCache's connector raises at startup: add "
                    f"`{hf.with_value(name, max(r.n for r in sizes.rows))}` or more ({sizes.how(sizes.rows[0])})",
                    version=str(v), severity=sev,
                )
                continue
        if not upper:
            continue
        effective = budget if budget is not None else min(d.value for d in defaults or [])
        high = [r for r in sizes.rows if effective >= 2 * r.n]
        if not high:
            continue
        sev = Severity.ERROR if len(high) == len(sizes.rows) else Severity.WARNING
        top = min(2 * r.n for r in sizes.rows) - 1
        if opt is not None:
            msg = (f"lmcache {lm_version} rejects `{hf.with_value(name, budget)}` for {facts.model}: it must be below "
                   f"2N = {2 * high[0].n} (N = {high[0].n} on vLLM {v}, {high[0].gpu}); set it to at most {top} "
                   f"or use lmcache 0.5.4 or later ({sizes.how(high[0])})")
            yield _diag(fctx, lctx, opt, sizes, sev, msg)
        else:
            least = min(defaults or [], key=lambda d: d.value)
            on = "on GPUs" if len(defaults or []) > 1 else f"on {least.condition}"
            msg = (f"without `{name}`, vLLM {v} batches at least {effective} tokens {on} ({least.derivation}), "
                   f"which lmcache {lm_version} rejects for {facts.model} (it needs below 2N = {2 * high[0].n}); "
                   f"add `{hf.with_value(name, top)}` or use lmcache 0.5.4 or later ({sizes.how(high[0])})")
            yield Finding(hf.model_span(lctx), msg, version=str(v), severity=sev)


def _diag(fctx, lctx, opt, sizes, severity, message):
    return Finding(lctx.item_span(opt.values[-1]), message, version=str(lctx.version), severity=severity)
