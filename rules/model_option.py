"""## model-option (VL207)

What it does: finds `--model` on a `vllm serve` command line (including
container images whose entrypoint is `vllm serve`).

Why is this bad? `vllm serve` moves `--model X` to the positional model slot and
logs that the option will be removed.  With a positional model as well, the
moved value becomes a second positional and the server exits with
"unrecognized arguments".

Example:
    vllm serve Qwen/Qwen3-8B --model Qwen/Qwen3-8B

Use instead:
    vllm serve Qwen/Qwen3-8B

Fix safety: none.

Versions: 0.11.1 and later (the warning in vllm/utils/argparse_utils.py `parse_args`, recorded in
rules/data/history.json as `--model` deprecated_in); before 0.11.1 `--model` is an ordinary option.
"""

from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register
from rules.entrypoint_repeated import ENTRYPOINT_SINCE

rule = register(Rule("VL207", "model-option", "`--model` given to `vllm serve`", Severity.WARNING))


@rule.check
def check(ctx):
    moved = ctx.parsed.model_option
    if moved is None:
        return
    if ctx.launch.entrypoint == "image" and (not ctx.launch.strong or (ctx.pin or ctx.version) < ENTRYPOINT_SINCE):
        # the image's entrypoint is only assumed, or it is an image of a release whose
        # entrypoint was `python3 -m vllm.entrypoints.openai.api_server`: `--model` is that
        # server's own option there (the image's own tag says so even when it is older than
        # every release known, `vllm/vllm-openai:v0.5.0`, and the launch is checked against
        # the newest: as VL801 reads the entrypoint)
        return
    positionals = [p for p in ctx.parsed.positionals if p is not moved]
    span = ctx.item_span(moved)
    if positionals and not ctx.parsed.uncertain:
        yield Finding(
            span,
            f"the model is given twice (`--model {moved.text}` and positional `{positionals[0].text}`); vLLM {ctx.version} rejects the second",
            severity=Severity.ERROR,
        )
    else:
        yield Finding(span, f"`vllm serve` takes the model as its first positional argument; `--model` is deprecated (vLLM {ctx.version}): "
                      "write the model first, without `--model`")
