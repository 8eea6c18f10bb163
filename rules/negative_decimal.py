"""## negative-decimal (VL208)

What it does: finds a value that starts with `-` and contains a `.`, such as a
negative decimal (`-0.5`).

Why is this bad? Before argparse runs, vLLM reads every argument that starts
with `-` and contains `.` as a dotted JSON key (`--compilation-config.mode`).
The value becomes a key, takes the *next* argument as its value, and the option
it belonged to is left without one: the parse fails or, worse, swallows the
following option.

Example:
    vllm serve Qwen/Qwen3-8B --override-generation-config.temperature -0.5

Use instead: pass the number inside JSON:
    vllm serve Qwen/Qwen3-8B --override-generation-config '{"temperature": -0.5}'

Fix safety: none.

Versions: every release whose parser gathers dotted keys (0.28 to 0.33).
"""

from linter.diagnostic import Finding, Severity
from linter.lazy_re import lazy_re
from rules._lib.base import Rule, register

rule = register(Rule("VL208", "negative-decimal", "Negative decimal read as a dotted JSON key", Severity.ERROR))

NEGATIVE_DECIMAL = lazy_re(r"^-\d*\.\d+$")


@rule.check
def check(ctx):
    if not ctx.release.parser.get("dotted_json", True) or ctx.launch.style != "argv":
        return
    for tok in ctx.launch.args:
        if tok.is_opaque or not NEGATIVE_DECIMAL.match(tok.value):
            continue
        span = tok.value_span() or tok.span
        yield Finding(
            span,
            f"`{tok.value}` starts with `-` and contains `.`: vLLM reads it as a dotted JSON key, not as a value; put the number inside a JSON value",
        )
