"""## ambiguous-abbreviation (VL202)

What it does: finds option prefixes that match more than one option of the
target release.

Why is this bad? argparse exits with "ambiguous option: --enable-chunked could
match ...".  A prefix that worked on an older release breaks when a new option
shares it; `--enable-mamba` meant `--enable-mamba-cache-stochastic-rounding` in
0.29 and is ambiguous from 0.30.

Example:
    vllm serve Qwen/Qwen3-8B --enable-chunked

Use instead: the full option name:
    vllm serve Qwen/Qwen3-8B --enable-chunked-prefill

Fix safety: when the launch is pinned to an older release where the prefix was
unique, the fix writes out that meaning (unsafe: check it is the one you want);
otherwise none.

Versions: every release.
"""

from linter import knowledge
from linter.argmodel import resolve_option
from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL202", "ambiguous-abbreviation", "Option prefix matches several options", Severity.ERROR, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.match != "ambiguous":
            continue
        cands = ", ".join(f"`{c}`" for c in opt.candidates[:6])
        msg = f"`{opt.written}` is ambiguous in vLLM {ctx.version}: write the option you mean in full"
        notes: tuple[str, ...] = (f"it could match {cands}",)
        fix = None
        if ctx.pin_known is not None and ctx.pin_known != ctx.version:
            old = resolve_option(knowledge.release(ctx.pin_known), opt.normalized)
            if old.kind == "option" and old.option_string in ctx.release.by_name:
                msg = f"`{opt.written}` is ambiguous in vLLM {ctx.version}: write `{old.option_string}` in full"
                notes += (f"on the pinned {ctx.pin_known} it meant `{old.option_string}`",)
                fix = ctx.rename_fix(opt, old.option_string, f"Write `{old.option_string}` in full", "unsafe")
        if fix is None:
            # a whole option string of an older release, removed since (`--device` before 0.10):
            # the prefix reading is an accident of the new names, and nothing replaces it
            seen = knowledge.last_accepted_before(opt.normalized, ctx.version)
            if seen is not None and not knowledge.migrations().curated(opt.normalized) and not _replaced(opt.normalized):
                yield Finding(ctx.name_span(opt), f"`{opt.written}` was removed after vLLM {seen[1]} and is now an ambiguous prefix "
                              f"in {ctx.version}: delete it", fix=ctx.delete_fix(opt, f"Delete `{opt.written}`" + (" and its value" if opt.values else "")),
                              notes=(f"it could match {cands}; accepted from vLLM {seen[0]} to {seen[1]}, and nothing replaces it",))
                continue
        yield Finding(ctx.name_span(opt), msg, fix=fix, notes=notes)


def _replaced(option: str) -> bool:
    entry = knowledge.history().get("options", {}).get(option) or {}
    return bool(entry.get("replacement"))
