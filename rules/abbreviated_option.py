"""## abbreviated-option (VL201)

What it does: finds options written as a unique prefix of a longer option
(`--max-num-seq` for `--max-num-seqs`), which argparse accepts because vLLM's
parser keeps `allow_abbrev`.

Why is this bad? The abbreviation works only while no other option shares the
prefix.  A later release that adds such an option makes the same command fail
with "ambiguous option" (`--enable-chunked` stops working in 0.33), or makes it
silently mean another option.

Example:
    vllm serve Qwen/Qwen3-8B --max-num-seq 64

Use instead:
    vllm serve Qwen/Qwen3-8B --max-num-seqs 64

Fix safety: safe; the full name is what the release already resolves the prefix to.

Versions: every release.
"""

from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL201", "abbreviated-option", "Option abbreviated to a prefix", Severity.WARNING, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.match != "abbrev" or opt.matched is None:
            continue
        full = opt.matched
        if opt.setting is not None and ctx.launch.entrypoint == "config":
            shown = full.lstrip("-")
        else:
            shown = full
        fix = ctx.rename_fix(opt, full, f"Write `{shown}` in full")
        yield Finding(ctx.name_span(opt), f"`{opt.written}` is an abbreviation of `{shown}` in vLLM {ctx.version}; write it in full", fix=fix)
