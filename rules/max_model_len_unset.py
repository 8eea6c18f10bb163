"""## max-model-len-unset (VL501)

What it does: finds launches without `--max-model-len` (or `max_model_len=`).
Off by default; select it with `--extend-select VL501`.

Why is this bad? Without it vLLM serves the model's configured length (derived
from `max_position_embeddings`, RoPE scaling and the tokenizer), which can be far
larger than the deployment needs (262,144 tokens for Qwen3.6-27B) and which
changes when the model's config or vLLM's derivation changes (0.30 stopped
multiplying YaRN lengths by the factor, see VL502).  A length set on purpose
keeps memory use and accepted prompts predictable.

Example:
    vllm serve Qwen/Qwen3.6-27B

Use instead:
    vllm serve Qwen/Qwen3.6-27B --max-model-len 32768

Fix safety: none offered.

Versions: all releases.  Source: vllm/config/model.py `_get_and_verify_max_len`
(0.29 L2384-2521, 0.33 L2545).  Launches whose options may come from elsewhere
(`--config FILE`, `$EXTRA_ARGS`) are not reported.
"""

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(Rule("VL501", "max-model-len-unset", "No `--max-model-len`: the model's configured length is served", Severity.INFO, default=False))


@rule.check
def check(ctx):
    parsed = ctx.parsed
    if ctx.launch.entrypoint == "config" or parsed.uncertain or parsed.config_files:
        return
    if parsed.find("max_model_len"):
        return
    item = parsed.model_item
    if item is None and ctx.launch.style == "settings":
        return
    facts = hf.model_facts(parsed)
    length = ""
    if facts is not None:
        n = facts.derived_len(ctx.version) if facts.derived_max_model_len else facts.max_position_embeddings
        if n:
            length = f" ({n:,} tokens for {facts.model})"
    span = ctx.item_span(item) if item is not None and item.token is not None else ctx.launch.span
    yield Finding(
        span,
        f"no `{parsed.spelling('max_model_len')}`: vLLM {ctx.version} serves the model's configured length{length}; "
        f"set `{parsed.spelling('max_model_len')}` on purpose",
    )
