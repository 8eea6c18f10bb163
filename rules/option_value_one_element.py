"""## option-value-one-element (VL203)

What it does: finds an option and its value written as one argv element, such
as the YAML list item `- "--max-model-len 8192"` or the shell word
`"--max-model-len 8192"`.

Why is this bad? No shell splits a list item or a quoted word: vLLM receives
the single string `--max-model-len 8192`.  argparse does not treat a string that
contains a space as an option, so it becomes an extra positional argument and
the server exits with "unrecognized arguments".

Example (Compose; a Kubernetes container's `args` is the same):
    services:
      vllm:
        image: vllm/vllm-openai:v0.32.0
        command: ["--model", "Qwen/Qwen3-8B", "--max-model-len 8192"]

Use instead:
    services:
      vllm:
        image: vllm/vllm-openai:v0.32.0
        command: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]

Fix safety: safe: the element becomes two elements in the list's own style (a
new `- item` line with the same indentation and quoting in a block list, `, `
in a flow list, JSON exec form or Python list, two words in shell).  No fix
when the element holds more than one space or a part would need escapes.

Versions: every release.
"""

from linter.diagnostic import Finding, Fix, Severity
from linter.edits import split_element
from rules._lib.base import Rule, register

rule = register(Rule("VL203", "option-value-one-element", "Option and value in one argv element", Severity.ERROR, fixable=True))


@rule.check
def check(ctx):
    for err in ctx.parsed.errors:
        if err.kind != "option-with-space" or err.item is None:
            continue
        text = err.item.text
        name, _, value = text.partition(" ")
        fix = None
        tok = err.item.token
        if tok is not None and text.count(" ") == 1 and err.item.start == 0 and err.item.end == len(tok.value):
            edit = split_element(ctx.src, ctx.launch, tok, (name, value))
            if edit is not None:
                fix = Fix(f"Split into `{name}` and `{value}`", (edit,), "safe")
        yield Finding(
            ctx.item_span(err.item),
            f"`{text}` is one argument: vLLM does not split it and rejects it as an unrecognized argument; "
            f"give `{name}` and its value as separate elements",
            fix=fix,
        )
