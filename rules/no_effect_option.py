"""## no-effect-option (VL108)

What it does: finds options that the target release still accepts but no
longer acts on, from the `effects` facts of rules/data/migrations.yaml:
`--mamba-block-size` once the Mamba cache mode `all` is gone (0.32), and
`--mamba-cache-mode` in 0.33, where Mamba prefix caching follows
`--enable-prefix-caching`.

Why is this bad? The launch reads as if it tunes something, and it does not;
readers and reviewers are misled, and the option is a removal waiting to break
the next upgrade.

Example (0.33):
    vllm serve Qwen/Qwen3.6-27B --enable-prefix-caching --mamba-cache-mode align

Use instead:
    vllm serve Qwen/Qwen3.6-27B --enable-prefix-caching

Fix safety: none: removing an option is left to the author.

Versions: per fact (`no-effect-from`), each citing the code that stopped reading it.
A fact scoped to hybrid models (`--mamba-block-size`) is not reported for a
model the models table knows is not hybrid, and says so for an unknown model.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import facts, hybrid_facts
from rules._lib.base import Rule, register

rule = register(Rule("VL108", "no-effect-option", "Option accepted but has no effect in the target release", Severity.WARNING))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.spec is None:
            continue
        for fact in facts.active_effects(opt.spec.primary, ctx.version):
            qualifier = ""
            if fact.scope == "hybrid":
                model = hybrid_facts.model_facts(ctx.parsed)
                if model is not None and not model.is_hybrid:
                    continue  # attention-free Mamba models still use it
                if model is None:
                    qualifier = " for hybrid models (attention-free Mamba models still use it)"
            do = "delete it if the model is hybrid" if qualifier else "delete it"
            msg = f"`{opt.written}` has no effect{qualifier} in vLLM {ctx.version} (since {fact.no_effect_from}): {do}"
            yield Finding(ctx.name_span(opt), msg, notes=(fact.why,) if fact.why else ())
            break
