"""## lmcache-connector-v1-hybrid (VL401)

What it does: finds `--kv-transfer-config` naming `LMCacheConnectorV1` (the
in-process LMCache connector) on a launch whose model is a Mamba/GDN hybrid in
its vLLM release's model registry (`IsHybrid`, `rules/data/hybrid.json`; the
architecture from the model's config.json or the models table).

Why is this bad? `LMCacheConnectorV1` does not implement vLLM's `SupportsHMA`, so
vLLM turns the hybrid KV cache manager off for it ("hybrid SSM models ... require
HMA and will fail at startup without it").  A Qwen3.5/3.6, Qwen3-Next,
Nemotron-H or Granite-4.0-H model does not start.

Example:
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'

Use instead: the multi-process connector and an `lmcache server` beside vLLM:
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'

Fix safety: none (the MP connector needs a running `lmcache server`).

Versions: 0.28 and later.  Source: vllm/config/vllm.py L1751-1770 (0.28),
L1813-1832 (0.29), L2258-2277 (0.33) turn HMA off for connectors without
`SupportsHMA`; distributed/kv_transfer/kv_connector/factory.py L165-176 registers
both LMCache names (0.28 to 0.33).  A model not in the table, or an opaque model (`$MODEL`), is not reported.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(
    Rule("VL401", "lmcache-connector-v1-hybrid", "`LMCacheConnectorV1` with a Mamba/GDN hybrid model", Severity.ERROR, since="0.28.0")
)


@rule.check
def check(ctx):
    found = hf.connector(ctx.parsed)
    if found is None or found[0] != "LMCacheConnectorV1":
        return
    facts = hf.hybrid_model(ctx)
    if facts is None:
        return
    name, opt, where = found
    yield Finding(
        hf.connector_span(ctx, opt, where),
        f"`{ctx.parsed.spelling('kv_transfer_config')}` selects `LMCacheConnectorV1`, which does not support hybrid models: vLLM {ctx.version} "
        f"turns the hybrid KV cache manager off and {facts.model} ({facts.hybrid} hybrid) fails at startup; "
        "use `LMCacheMPConnector` with an `lmcache server`",
    )
