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
0.5.6.  Which options a release has and which it declares `required` are read from
the lmcache wheels (`rules/data/lmcache.json`, `python -m tools.extract_lmcache --all`).  Source: lmcache v1/distributed/config.py (0.5.0 L364-366 and L444-447,
0.5.4 L377-379 and L467-470: `required=True`; 0.5.6 L791 `--l1-manager`, L805-807
and L905-908 default None, L1073 the ValueError).
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(Rule("VL406", "lmcache-l1-size", "`lmcache server` without an L1 size and eviction policy", Severity.ERROR, scope="file"))

MANAGER = "--l1-manager"
NEEDED = ("--l1-size-gb", "--eviction-policy")


@rule.check
def check(fctx):
    for lctx in fctx.launches:
        launch = lctx.launch
        if launch.program != "lmcache" or launch.entrypoint != "lmcache server":
            continue
        server = hf.read_lmcache(launch)
        lm_version, _ = hf.lmcache_version(fctx, lctx)
        lm = hf.lmcache_release(lm_version)
        if lm is None:
            continue  # older than every recorded release
        manager = server.last(MANAGER)
        if manager is not None and lm_version is not None and lm.option(MANAGER) is None:
            yield Finding(
                manager[0].span,
                f"lmcache {lm_version} has no `{MANAGER}` (new in lmcache {hf.lmcache_first_with(MANAGER)}): use `--l1-size-gb` and `--eviction-policy`",
            )
            manager = None
        if manager is not None or server.uncertain:
            continue
        missing = [name for name in NEEDED if not server.has(name)]
        if not missing:
            continue
        names = " and ".join(f"`{m}`" for m in missing)
        required = all(lm.required(n) for n in missing)
        if lm_version is None:
            strict = [r.version for r in hf.lmcache_releases() if all(r.required(n) for n in NEEDED)]
            span = f"{strict[0]} to {strict[-1]}" if len(strict) > 1 else f"{strict[0]}" if strict else ""
            why = (f"lmcache {span} reject the start and " if strict else "") + (
                f"{lm.version} fails at startup unless `{MANAGER}` is given" if not required else f"{lm.version} rejects it"
            )
        elif required:
            why = f"lmcache {lm_version} declares both required and rejects the start"
        else:
            why = f"lmcache {lm_version} fails at startup (\"Legacy L1 configuration requires --l1-size-gb and --eviction-policy\") unless `{MANAGER}` is given"
        yield Finding(hf.entry_span(launch), f"`lmcache server` without {names}: {why}; add {names}")
