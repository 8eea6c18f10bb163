"""## lmcache-l1-size (VL406)

What it does: finds `lmcache server` starts without `--l1-size-gb` or
`--eviction-policy` (and without `--l1-manager`), and `--l1-manager` on an
lmcache release that does not have it.  The LMCache release is read from an
`lmcache/...:0.5.6` image tag in the same pod, compose file or script.

Why is this bad? lmcache 0.4.7 to 0.5.5 declare both options `required`, so the
server exits with an argparse error; 0.5.6 makes them optional but fails at
startup with "Legacy L1 configuration requires --l1-size-gb and
--eviction-policy" unless `--l1-manager JSON` (new in 0.5.6) is given.

Example:
    lmcache server --chunk-size 784

Use instead:
    lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU

Fix safety: none offered (the size depends on the host).

Versions: every vLLM release (the check is on LMCache's side); lmcache 0.4.7 to
0.5.6.  Source: lmcache v1/distributed/config.py (0.5.0 L364-366 and L444-447,
0.5.4 L377-379 and L467-470: `required=True`; 0.5.6 L791 `--l1-manager`, L805-807
and L905-908 default None, L1073 the ValueError).
"""

from packaging.version import Version

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(Rule("VL406", "lmcache-l1-size", "`lmcache server` without an L1 size and eviction policy", Severity.ERROR, scope="file"))

MANAGER_FROM = Version("0.5.6")
KNOWN_FROM = Version("0.4.7")


@rule.check
def check(fctx):
    for lctx in fctx.launches:
        launch = lctx.launch
        if launch.program != "lmcache" or launch.entrypoint != "lmcache server":
            continue
        server = hf.read_lmcache(launch)
        lm_version, _ = hf.lmcache_version(fctx, lctx)
        if lm_version is not None and lm_version < KNOWN_FROM:
            continue
        manager = server.last("--l1-manager")
        if manager is not None and lm_version is not None and lm_version < MANAGER_FROM:
            yield Finding(
                manager[0].span,
                f"lmcache {lm_version} has no `--l1-manager` (new in lmcache 0.5.6): use `--l1-size-gb` and `--eviction-policy`",
            )
            manager = None
        if manager is not None or server.uncertain:
            continue
        missing = [name for name in ("--l1-size-gb", "--eviction-policy") if not server.has(name)]
        if not missing:
            continue
        names = " and ".join(f"`{m}`" for m in missing)
        if lm_version is None:
            why = "lmcache 0.4.7 to 0.5.5 reject the start and 0.5.6 fails at startup unless `--l1-manager` is given"
        elif lm_version < MANAGER_FROM:
            why = f"lmcache {lm_version} declares both required and rejects the start"
        else:
            why = f"lmcache {lm_version} fails at startup (\"Legacy L1 configuration requires --l1-size-gb and --eviction-policy\") unless `--l1-manager` is given"
        yield Finding(hf.entry_span(launch), f"`lmcache server` without {names}: {why}; add {names}")
