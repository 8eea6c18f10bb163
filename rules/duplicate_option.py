"""## duplicate-option (VL205)

What it does: finds an option given more than once on one command line.

Why is this bad? argparse keeps the last value silently, so the first one is
dead text that readers believe; often one copy was edited and the other was not.

Example:
    vllm serve Qwen/Qwen3-8B --max-model-len 8192 --gpu-memory-utilization 0.9 --max-model-len 4096

Use instead: one `--max-model-len`:
    vllm serve Qwen/Qwen3-8B --max-model-len 8192 --gpu-memory-utilization 0.9

Fix safety: none (which copy is right is the author's call).

Versions: every release.  Options that collect values (append actions), dotted
JSON keys that vLLM merges, and options from a `--config` file (which the
command line overrides by design) are not reported.
"""

from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL205", "duplicate-option", "Option given more than once", Severity.WARNING))


@rule.check
def check(ctx):
    seen = {}
    for opt in ctx.parsed.options:
        spec = opt.spec
        if spec is None or opt.from_config or opt.dotted is not None or spec.action in ("append", "append_const", "count"):
            continue
        if opt.name.opaque or (opt.name.token is not None and opt.name.token.conditional):
            continue  # a conditional option (``${V:+--x}``, one branch's value) may not be given at all
        first = seen.get(spec.dest)
        if first is None:
            seen[spec.dest] = opt
            continue
        yield Finding(
            ctx.name_span(opt),
            f"`{opt.written}` is given again (first as `{first.written}`); the last one wins",
        )
