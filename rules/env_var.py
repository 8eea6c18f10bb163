"""## env-var (VL701)

What it does: checks the `VLLM_*` environment variables set for a launch
(`env:` of a container, compose `environment`, `ENV` in a Dockerfile, `export`
or `VAR=x` in a script) against the variables the target release reads
(`vllm/envs.py`) and the curated env facts.

Why is this bad? vLLM ignores variables it does not read: a removed or renamed
variable silently stops doing what the deployment relies on (for example
`VLLM_USE_V1` after the V0 engine was removed).

Example:
    VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve Qwen/Qwen3-8B   # read by older releases only

Use instead: the replacement named in the message (often a CLI option), or
remove the variable:
    vllm serve Qwen/Qwen3-8B --attention-backend FLASHINFER

Fix safety: none (a variable's replacement is usually an option of another form).

Versions: every release; the variable lists come from each release's envs.py,
plus the variables its other modules read directly (`env_elsewhere` in the
inventories), and for older releases the envs.py tables of 0.6.0 to 0.27.1
(`env` in rules/data/history.json).  Variables deprecated outside envs.py (the
MoRIIO connector's `_DEPRECATED_ENV_VARS`, "The environment variable X is
deprecated" messages) come from `rules/data/env_deprecations.json`
(`python -m tools.extract_env_deprecations --all`).  A variable that no release in the knowledge base reads is
information, not a warning: an image's own entrypoint or a platform plugin may
read it (`VLLM_ADDITIONAL_ARGS`, `VLLM_SKIP_WARMUP`).
"""

import difflib

from packaging.version import Version

from linter import knowledge
from linter.diagnostic import Finding, Severity
from rules._lib import facts
from rules._lib.base import Rule, register

rule = register(Rule("VL701", "env-var", "`VLLM_*` variable not read by the target release", Severity.WARNING))


@rule.check
def check(ctx):
    table = ctx.release.env
    if not table:
        return  # a names-only release from the history: its variables are not recorded
    elsewhere = {e["name"] for e in ctx.release.data.get("env_elsewhere", [])}
    for var in ctx.launch.env:
        name = var.name.value
        if var.name.is_opaque or not name.startswith("VLLM_"):
            continue
        fact = facts.env_fact(name)
        outside = ctx.release.env_deprecations.get(name)
        if outside is not None:
            state = "deprecated and ignored" if outside.get("ignored") else "deprecated"
            where = outside.get("message") or outside["source"]
            advice = outside.get("advice") or ""
            yield Finding(var.name.span, f"`{name}` is {state} by vLLM {ctx.version} ({where})" + (f": {advice}" if advice else ""))
            continue
        if name in table or name in elsewhere:
            dep = fact.deprecated_in if fact is not None else None
            if table.get(name, {}).get("deprecated") or (dep and Version(str(dep)) <= ctx.version):
                msg = f"`{name}` is deprecated in vLLM {ctx.version}"
                if fact is not None and fact.replacement:
                    msg += f"; use {fact.replacement}"
                yield Finding(var.name.span, msg)
            continue
        if fact is not None and fact.replacement:
            yield Finding(var.name.span, f"`{name}` is not read by vLLM {ctx.version}; use {fact.replacement}")
            continue
        older = [v for v in knowledge.known_versions() if v < ctx.version and name in knowledge.release(v).env]
        runs = knowledge.history().get("env", {}).get(name, {}).get("accepted", [])
        if not older and runs:
            older = [Version(runs[-1][1])]  # read by a release before the first inventory
        if older or fact is not None:
            last = f" (last read by {older[-1]})" if older else ""
            yield Finding(var.name.span, f"`{name}` is not read by vLLM {ctx.version}{last}; it has no effect")
            continue
        close = difflib.get_close_matches(name, list(table), n=1, cutoff=0.85)
        if close:
            yield Finding(var.name.span, f"`{name}` is not read by vLLM {ctx.version}; did you mean `{close[0]}`?")
            continue
        # Never read by any release we know: perhaps the image's own entrypoint or a
        # platform plugin (vllm-gaudi, a fork) reads it.  Worth knowing, not a warning.
        yield Finding(
            var.name.span,
            f"`{name}` is not read by vLLM {ctx.version} (nor by any release since 0.6.0); "
            "it only matters if your image's entrypoint or a plugin reads it",
            severity=Severity.INFO,
        )
