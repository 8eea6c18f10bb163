"""## mamba-cache-mode-all (VL301)

What it does: finds the Mamba cache mode `all` (`--mamba-cache-mode all`,
`mamba_cache_mode="all"`, `mamba-cache-mode: all` in a config file).

Why is this bad? vLLM 0.30 deprecated `all` (a warning at startup); 0.31 still
accepts it and GDN hybrids (Qwen3-Next, Qwen3.5/3.6, Kimi-Linear, LFM2) fall back
to `align`; 0.32 removed it from the choices, so the server exits with "invalid
choice".  In 0.33 the option itself no longer has any effect.

Example:
    vllm serve ibm-granite/granite-4.0-h-small --mamba-cache-mode all

Use instead:
    vllm serve ibm-granite/granite-4.0-h-small --enable-prefix-caching --mamba-cache-mode align

Fix safety: unsafe: `align` caches Mamba states only at block boundaries (hit
rates change) and needs prefix caching and chunked prefill.

Versions: warning in 0.30 and 0.31, error from 0.32 (vllm/config/cache.py:
`MambaCacheMode` in 0.30 to 0.32).
"""

from packaging.version import Version

from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL301", "mamba-cache-mode-all", "Mamba cache mode `all` is deprecated or removed", Severity.ERROR, since="0.30.0", fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.spec is None or opt.spec.dest != "mamba_cache_mode" or opt.value != "all" or opt.value_opaque:
            continue
        item = opt.values[0]
        if ctx.version >= Version("0.32.0"):
            severity = Severity.ERROR
            msg = f"Mamba cache mode `all` was removed in vLLM 0.32; {ctx.version} rejects it as an invalid choice; use `align` with prefix caching"
        else:
            severity = Severity.WARNING
            msg = (
                f"Mamba cache mode `all` is deprecated since vLLM 0.30 and removed in 0.32; on {ctx.version} GDN hybrid models "
                "fall back to `align`; use `align` with prefix caching"
            )
        fix = ctx.replace_item_fix(item, "align", "Change the Mamba cache mode to `align`", "unsafe")
        yield Finding(ctx.item_span(item), msg, severity=severity, fix=fix)
