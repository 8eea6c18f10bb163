"""## disable-hybrid-kv-cache-manager (VL302)

What it does: finds `--disable-hybrid-kv-cache-manager` (and
`disable_hybrid_kv_cache_manager=True`).

Why is this bad? The switch exists to test whether the hybrid KV cache groups
cause a problem.  In production it makes hybrid and sliding-window models
allocate full-attention KV blocks for every layer (less KV cache, fewer
concurrent requests), and hybrid Mamba models need the hybrid manager.

Example:
    vllm serve google/gemma-3-27b-it --disable-hybrid-kv-cache-manager

Use instead: remove it once the problem it was testing for is understood:
    vllm serve google/gemma-3-27b-it

Fix safety: none.

Versions: every release that has the option (0.28 to 0.33).
"""

from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL302", "disable-hybrid-kv-cache-manager", "Diagnostic switch used in a deployment", Severity.INFO))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.spec is None or opt.spec.dest != "disable_hybrid_kv_cache_manager" or opt.negative:
            continue
        if opt.spec.takes_value and (opt.value or "").lower() in ("false", "0"):
            continue
        if opt.setting is not None and opt.setting.kind == "bool" and (opt.value or "").lower() == "false":
            continue
        yield Finding(
            ctx.name_span(opt),
            "`--disable-hybrid-kv-cache-manager` is a diagnostic switch, not a production setting: "
            "it gives every layer full-attention KV blocks and hybrid Mamba models need the hybrid manager",
        )
