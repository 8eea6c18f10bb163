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

Fix safety: unsafe, where the variable's replacement is one option of the target
(`VLLM_ATTENTION_BACKEND=FLASHINFER` becomes `--attention-backend FLASHINFER`) and the
assignment stands in the same file as the launch: the option is added to the launch's
arguments in their own syntax and the assignment deleted, in one fix.  Not offered for a
value the option rejects, a value not written out, or an assignment that shares its line or is
the only entry of its YAML list (deleting it would change the file's structure).  In a
Dockerfile the `ENV` entry goes (`ENV A=1 B=2` keeps `B=2`, a continued `ENV` its other
lines) and the option joins the `CMD`/`ENTRYPOINT`, exec or shell form; an `ENV` of that one
variable goes whole.

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

import re

from packaging.version import Version

from linter import knowledge
from linter.diagnostic import Finding, Fix, Severity
from linter.edits import append_args, delete_env
from rules._lib import facts
from rules._lib.base import Rule, register

rule = register(Rule("VL701", "env-var", "`VLLM_*` variable not read by the target release", Severity.WARNING))


@rule.check
def check(ctx):
    table = ctx.release.env
    if not table:
        return  # a names-only release from the history: its variables are not recorded
    elsewhere = {e["name"] for e in ctx.release.env_elsewhere}
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
            yield _replaced(ctx, var, fact)
            continue
        older = _read_by(ctx, name)
        if older or fact is not None:
            last = f" (last read by {older[-1]})" if older else ""
            yield Finding(var.name.span, f"`{name}` is not read by vLLM {ctx.version}{last}; it has no effect")
            continue
        import difflib  # here: only a variable no release reads needs it

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


def _read_by(ctx, name: str) -> list:
    """The releases before the target that read ``name`` (the last one only, before the inventories)."""
    older = [v for v in knowledge.known_versions() if v < ctx.version and name in knowledge.release_env_names(v)]
    runs = knowledge.history().get("env", {}).get(name, {}).get("accepted", [])
    if not older and runs:
        older = [Version(runs[-1][1])]  # read by a release before the first inventory
    return older


def _replaced(ctx, var, fact):
    """A variable that became an option (or another variable): say which, and move it when it is one option."""
    name = var.name.value
    older = _read_by(ctx, name)
    last = f" (last read by {older[-1]})" if older else ""
    head = f"`{name}` is not read by vLLM {ctx.version}{last}; use {_shown(fact.replacement)}"
    option = fact.replacement.strip()
    spec = ctx.release.by_name.get(option) if re.fullmatch(r"--[a-z0-9-]+", option) else None
    if spec is None:
        return Finding(var.name.span, head, notes=(fact.note.strip(),) if fact.note else ())
    value = var.value.value if var.value is not None and not var.value.is_opaque else None
    head = f"`{name}` is not read by vLLM {ctx.version}{last}: pass `{_spelled(ctx, spec, option, value)}` instead"
    fix = None
    if value is not None:
        parts = _parts(spec, option, value)
        already = ctx.parsed.last(spec.dest) is not None
        delete = delete_env(ctx.src, ctx.launch, var)
        add = None if already or parts is None else append_args(ctx.src, ctx.launch, parts)
        if delete is not None and (add is not None or already):
            edits = (add, delete) if add is not None else (delete,)
            fix = Fix(f"Move `{name}` to `{' '.join(parts or (option,))}`", edits, "unsafe")
    return Finding(var.name.span, head, fix=fix, notes=(fact.note.strip(),) if fact.note else ())


def _spelled(ctx, spec, option: str, value: str | None) -> str:
    """The option set to ``value`` in the launch's own syntax: ``--attention-backend FLASHINFER``,
    ``attention_backend="FLASHINFER"`` (a Python keyword), ``attention-backend: FLASHINFER`` (a
    ``--config`` key)."""
    given = value if value and spec.takes_value else None
    if ctx.launch.style != "settings":
        return option + (f" {given}" if given else "")
    name = ctx.parsed.spelling(spec.dest)
    if ctx.launch.entrypoint == "config":
        return name + (given or "true")
    return name + (f'"{given}"' if given else "True")


def _shown(replacement: str) -> str:
    return f"`{replacement}`"


def _parts(spec, option: str, value: str) -> tuple[str, ...] | None:
    """The argv strings that say what ``value`` of the variable said, or None when unsure."""
    if not spec.takes_value:
        return (option,) if value.strip().lower() in ("1", "true", "yes", "on") else None
    if spec.choices is not None and value not in {str(c) for c in spec.choices}:
        return None
    return (option, value)
