"""## lmcache-mp-hma-flag (VL407)

What it does: finds `--no-disable-hybrid-kv-cache-manager` (or
`disable_hybrid_kv_cache_manager=False`) next to `--kv-transfer-config` naming
`LMCacheMPConnector`.

Why is this bad? It is unnecessary: LMCache's `LMCacheMPConnector` implements
`SupportsHMA`, and vLLM keeps the hybrid KV cache manager on by itself for such
connectors.  Forcing it on only hides a real problem when the connector resolves
to vLLM's built-in `LMCacheMPConnectorUpstream` (no lmcache package installed),
which lacks HMA support.

Example:
    vllm serve Qwen/Qwen3.6-27B --no-disable-hybrid-kv-cache-manager --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'

Use instead:
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'

Fix safety: none offered.

Versions: 0.28 and later.  Source: vllm/config/vllm.py L1751-1782 (0.28), L2258-2290 (0.33): the
manager is turned off only when the option is unset and the connector lacks HMA;
LMCache's connector subclasses `SupportsHMA` (lmcache
integration/vllm/lmcache_mp_connector.py L535 in 0.5.6).
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(
    Rule("VL407", "lmcache-mp-hma-flag", "Hybrid KV cache manager forced on for `LMCacheMPConnector`", Severity.INFO, since="0.28.0")
)


@rule.check
def check(ctx):
    found = hf.connector(ctx.parsed)
    if found is None or found[0] != "LMCacheMPConnector":
        return
    is_set, value, opt = ctx.parsed.flag("disable_hybrid_kv_cache_manager")
    if not is_set or value is not False or opt is None:
        return
    yield Finding(
        ctx.option_span(opt),
        f"`{hf.as_written(opt)}` is unnecessary with `LMCacheMPConnector`: the connector supports the hybrid KV cache manager "
        f"and vLLM {ctx.version} keeps it on by itself; remove it",
    )
