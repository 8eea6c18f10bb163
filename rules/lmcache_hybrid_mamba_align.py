"""## lmcache-hybrid-mamba-align (VL402)

What it does: on a launch that uses `LMCacheMPConnector` with a Mamba/GDN hybrid
model (its release's registry: `IsHybrid`), finds settings that keep the Mamba cache mode from
ending up `align`, the only mode LMCache's hybrid support works with:

- prefix caching turned off (`--no-enable-prefix-caching`,
  `enable_prefix_caching=False`): every release then forces the mode to `none`;
- chunked prefill turned off while prefix caching is on: `align` asserts
  "Chunked prefill is required";
- `--mamba-cache-mode all` on 0.28 to 0.31 for a model that supports `all`
  (`SupportsMambaPrefixCaching` in that release's registry: Nemotron-H,
  Granite-4.0-H, Jamba, Zamba2, Falcon-H1): vLLM keeps `all`.

It stays silent where vLLM itself ends up at `align`: `none` with prefix caching
on (turned into `align`), `all` on GDN models in 0.28 to 0.31 (falls back to
`align`; rule VL301 reports the deprecated value), and any `--mamba-cache-mode` on
0.33, which ignores the option (Mamba prefix caching follows
`--enable-prefix-caching`).

Why is this bad? LMCache's connector keys its hybrid handling off
`mamba_cache_mode == "align"`; LMCache documents every other configuration as
unsupported, and vLLM refuses to start without chunked prefill in `align` mode.

Example:
    vllm serve Qwen/Qwen3.6-27B --no-enable-prefix-caching --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'

Use instead: leave prefix caching on (the default for hybrid models) and, before
0.33, `--mamba-cache-mode align` or no mode at all:
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'

Fix safety: none offered.

Versions: 0.28 and later.  Source: vllm/model_executor/models/config.py
`MambaModelConfig.verify_and_update_config` (0.28 L589-636, 0.29 L609-657, 0.31 L627-662, 0.32
L672-708, 0.33 L750-787); vllm/engine/arg_utils.py L462-465, L2304-2305 (0.33
deprecation, value not passed on); vllm/config/cache.py `MambaCacheMode` (0.32
drops `all`).
"""

from packaging.version import Version

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(
    Rule("VL402", "lmcache-hybrid-mamba-align", "LMCache with a hybrid model needs prefix caching and Mamba cache mode `align`", Severity.ERROR, since="0.28.0")
)

CONNECTOR = "LMCacheMPConnector"


@rule.check
def check(ctx):
    found = hf.connector(ctx.parsed)
    if found is None or found[0] != CONNECTOR:
        return
    facts = hf.hybrid_model(ctx)
    if facts is None:
        return
    v = ctx.version
    pc_set, pc_on, pc_opt = ctx.parsed.flag("enable_prefix_caching")
    if pc_set and pc_on is False and pc_opt is not None:
        yield Finding(
            ctx.option_span(pc_opt),
            f"`{hf.as_written(pc_opt)}` turns prefix caching off, so vLLM {v} sets the Mamba cache mode to `none`; "
            f"`{CONNECTOR}` with {facts.model} needs prefix caching and mode `align`: remove `{hf.as_written(pc_opt)}`",
        )
        return
    if pc_set and pc_on is None:
        return  # opaque
    cp_set, cp_on, cp_opt = ctx.parsed.flag("enable_chunked_prefill")
    if cp_set and cp_on is False and cp_opt is not None:
        yield Finding(
            ctx.option_span(cp_opt),
            f"`{hf.as_written(cp_opt)}` with prefix caching on: vLLM {v} asserts that chunked prefill is required for the "
            f"Mamba cache mode `align` that `{CONNECTOR}` needs; remove `{hf.as_written(cp_opt)}`",
        )
    if v >= Version("0.32.0"):
        return
    mode_opt = ctx.parsed.last("mamba_cache_mode")
    mode = mode_opt.known_value if mode_opt is not None else None
    if mode == "all" and facts.mamba_all_mode and mode_opt is not None:
        yield Finding(
            ctx.item_span(mode_opt.values[-1]),
            f"vLLM {v} keeps the Mamba cache mode `all` (`{hf.as_written(mode_opt)}`) for {facts.architecture or facts.model}, "
            f"but `{CONNECTOR}` works only with `align`: use `{hf.with_value(ctx.parsed.spelling('mamba_cache_mode'), 'align')}`",
        )
