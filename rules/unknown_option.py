"""## unknown-option (VL104)

What it does: finds options that no vLLM release in the knowledge base (0.6.0
to the newest) ever accepted.

Why is this bad? argparse stops with "unrecognized arguments"; usually a typo or
an option of another program (an LMCache or SGLang flag handed to vLLM).

Example:
    vllm serve Qwen/Qwen3-8B --max-model-length 8192

Use instead:
    vllm serve Qwen/Qwen3-8B --max-model-len 8192

Fix safety: none; the did-you-mean suggestion is display-only.

Versions: every release.
"""

from linter.diagnostic import Edit, Finding, Fix, Severity
from rules._lib import lifecycle
from rules._lib.base import Rule, register

rule = register(Rule("VL104", "unknown-option", "Option unknown to every vLLM release", Severity.ERROR))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        info = lifecycle.classify(ctx, opt)
        if info is None or info.status != "unknown":
            continue
        msg = f"`{opt.written}` is not a vLLM {ctx.version} option"
        fix = None
        notes = ("no release of vLLM since 0.6.0 accepted it, so vllm-lint cannot migrate it: a plugin or a fork may add it",)
        if info.suggestion:
            msg += f"; did you mean `{info.suggestion}`?"
            if ctx.name_editable(opt) and opt.setting is None:
                fix = Fix(f"Replace with `{info.suggestion}`", (Edit(ctx.name_span(opt), info.suggestion),), "display-only")
        else:
            msg += ": fix its spelling, or delete it unless your image adds it"
        yield Finding(ctx.name_span(opt), msg, fix=fix, notes=notes)
