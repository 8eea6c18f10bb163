"""## option-value-one-element (VL203)

What it does: finds an option and its value written as one argv element, such
as the YAML list item `- "--max-model-len 8192"` or the shell word
`"--max-model-len 8192"`.

Why is this bad? No shell splits a list item or a quoted word: vLLM receives
the single string `--max-model-len 8192`.  argparse does not treat a string that
contains a space as an option, so it becomes an extra positional argument and
the server exits with "unrecognized arguments".

Example (Kubernetes):
    args: ["--model", "Qwen/Qwen3-8B", "--max-model-len 8192"]

Use instead:
    args: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]

Fix safety: splitting the element is safe; it is offered where the source form
lets the fix be a plain text edit (a shell word).  In YAML lists the fix needs
a new list item and is left to the fixer's list-aware edits.

Versions: every release.
"""

from linter.diagnostic import Severity
from rules.base import Rule, register

rule = register(Rule("VL203", "option-value-one-element", "Option and value in one argv element", Severity.ERROR))


@rule.check
def check(ctx):
    for err in ctx.parsed.errors:
        if err.kind != "option-with-space" or err.item is None:
            continue
        text = err.item.text
        name = text.split(" ", 1)[0]
        yield ctx.diagnostic(
            ctx.item_span(err.item),
            f"`{text}` is one argument: vLLM does not split it and rejects it as an unrecognized argument; "
            f"give `{name}` and its value as separate elements",
        )
