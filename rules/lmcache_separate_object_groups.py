"""## lmcache-separate-object-groups (VL405)

What it does: where an `lmcache server` runs beside a vLLM launch that uses
`LMCacheMPConnector` with a Mamba/GDN hybrid model, checks the server's
`--separate-object-groups`:

- missing (lmcache 0.5.3 and later default it to off), or turned off with
  `--no-separate-object-groups`: warning;
- given to lmcache 0.5.0 or older, which has no such option: error.

The LMCache release is read from an `lmcache/...:0.5.4` image tag in the same pod,
compose file or script; without one the rule assumes a current lmcache.

Why is this bad? LMCache's hybrid recipe calls the option required for hybrid
models: it stores attention KV and Mamba state as separate object groups, which is
what lets `--max-num-batched-tokens` go beyond 2N.  Nothing checks it at startup
(the connector cannot see the server's flags), so without it hybrid caching is
silently coarser or wrong.

Example:
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}' &
    lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU

Use instead:
    vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}' &
    lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU --separate-object-groups

Fix safety: none offered.

Versions: vLLM 0.28 and later; the option exists from lmcache 0.5.1 (on by
default in 0.5.1 and 0.5.2, off from 0.5.3).  Whether a release has it and its
default are read from the lmcache wheels (`rules/data/lmcache.json`, regenerated
with `python -m tools.extract_lmcache --all`).  Source: lmcache
v1/multiprocess/config.py (absent in 0.5.0; 0.5.2 L48 default True, L348; 0.5.3
L53 default False, L358; 0.5.6 L61, L503); docs/source/recipes/qwen3_5.rst (latest
revision).
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(
    Rule(
        "VL405", "lmcache-separate-object-groups", "LMCache server for a hybrid model without `--separate-object-groups`",
        Severity.WARNING, since="0.28.0", scope="file",
    )
)

OPTION = "--separate-object-groups"


def _off_since() -> str:
    """"lmcache 0.5.3 and later": the recorded releases since which the option defaults to off."""
    since = None
    for r in hf.lmcache_releases():
        since = (since or r.version) if r.option(OPTION) is not None and r.default(OPTION) is False else None
    return f"lmcache {since} and later"


@rule.check
def check(fctx):
    seen: set[int] = set()
    for lctx, facts in hf.mp_hybrid_launches(fctx, rule):
        lm_version, _ = hf.lmcache_version(fctx, lctx)
        lm = hf.lmcache_release(lm_version)
        first = hf.lmcache_first_with(OPTION)
        for server in hf.lmcache_servers(fctx, lctx):
            if id(server.launch) in seen:
                continue
            seen.add(id(server.launch))
            on = server.last("--separate-object-groups")
            off = server.last("--no-separate-object-groups")
            if lm_version is not None and (lm is None or lm.option(OPTION) is None):
                for found in (on, off):
                    if found is not None:
                        yield Finding(
                            found[0].span,
                            f"lmcache {lm_version} has no `{found[0].value.split('=')[0]}` (it exists from lmcache {first}): "
                            "the server rejects it; upgrade lmcache to use it for hybrid models",
                            version=str(lctx.version), severity=Severity.ERROR,
                        )
                continue
            if off is not None and (on is None or off[0].span.start > on[0].span.start):
                yield Finding(
                    off[0].span,
                    f"`--no-separate-object-groups` with {facts.model}: LMCache needs `--separate-object-groups` for hybrid "
                    "models; replace it",
                    version=str(lctx.version),
                )
                continue
            if on is not None or server.uncertain:
                continue
            if lm is None or lm.default(OPTION) is True:
                continue  # on by default (0.5.1 and 0.5.2)
            release = f"lmcache {lm_version}" if lm_version is not None else _off_since()
            yield Finding(
                hf.entry_span(server.launch),
                f"this `lmcache server` serves {facts.model} (a hybrid model) without `--separate-object-groups`, "
                f"which {release} leaves off by default: add `--separate-object-groups`",
                version=str(lctx.version),
            )
