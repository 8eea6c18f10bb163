"""## env-var (VL701)

What it does: checks the `VLLM_*` environment variables set for a launch
(`env:` of a container, compose `environment`, `ENV` in a Dockerfile, `export`
or `VAR=x` in a script) against the variables the target release reads
(`vllm/envs.py`) and the curated env facts.

Why is this bad? vLLM ignores variables it does not read: a removed or renamed
variable silently stops doing what the deployment relies on (for example
`VLLM_USE_V1` after the V0 engine was removed).

Example:
    env:
      - name: VLLM_ATTENTION_BACKEND   # read by older releases only

Use instead: the replacement named in the message (often a CLI option), or
remove the variable.

Fix safety: none (a variable's replacement is usually an option of another form).

Versions: every release; the variable lists come from each release's envs.py.
"""

import difflib

from linter import knowledge
from linter.diagnostic import Severity
from rules import facts
from rules.base import Rule, register

rule = register(Rule("VL701", "env-var", "`VLLM_*` variable not read by the target release", Severity.WARNING))


@rule.check
def check(ctx):
    env_names = ctx.release.env
    if not env_names:
        return
    for var in ctx.launch.env:
        name = var.name.value
        if var.name.is_opaque or not name.startswith("VLLM_") or name in env_names:
            fact = facts.env_fact(name)
            if fact and fact.get("deprecated-in") and name in env_names:
                yield ctx.diagnostic(var.name.span, f"`{name}` is deprecated in vLLM {ctx.version}" + (f"; use {fact['replacement']}" if fact.get("replacement") else ""))
            continue
        fact = facts.env_fact(name)
        if fact and fact.get("replacement"):
            msg = f"`{name}` is not read by vLLM {ctx.version}; use {fact['replacement']}"
        else:
            older = [v for v in knowledge.known_versions() if v < ctx.version and name in knowledge.release(v).env]
            if older:
                msg = f"`{name}` is not read by vLLM {ctx.version} (last read by {older[-1]}); it has no effect"
            else:
                close = difflib.get_close_matches(name, list(env_names), n=1, cutoff=0.8)
                msg = f"`{name}` is not read by vLLM {ctx.version}" + (f"; did you mean `{close[0]}`?" if close else "")
        yield ctx.diagnostic(var.name.span, msg)
