"""## yarn-max-model-len-changed (VL502)

What it does: on an upgrade across vLLM 0.30 (the file pins a release before 0.30
and is checked against 0.30 or later), finds launches that use YaRN RoPE scaling
and leave the context length to vLLM (no `--max-model-len`, or `-1` / `auto`).  YaRN comes
from `--hf-overrides` (`rope_scaling` / `rope_parameters` of type `yarn`) or from
a model in `rules/data/models.yaml` whose config has it.

Why is this bad? 0.30 changed how the length is derived, to match Transformers:
before, a YaRN config served `original_max_position_embeddings x factor` (or
`max_position_embeddings x factor` for `deepseek_yarn` and `telechat3-yarn`); from
0.30, YaRN leaves `max_position_embeddings` as it is.  The same launch then
serves a different length: Qwen3-8B with a YaRN override (original 32768, factor
4) drops from 131,072 to 40,960 tokens, and `--max-model-len 131072` would now be
rejected unless `max_position_embeddings` is overridden too.

Example (pinned to 0.29 in the file, `--target-version 0.30`):
    pip install vllm==0.29.0
    vllm serve Qwen/Qwen3-8B --hf-overrides '{"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'

Use instead (`--target-version 0.30`):
    pip install vllm==0.29.0
    vllm serve Qwen/Qwen3-8B --hf-overrides '{"max_position_embeddings": 131072, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}' --max-model-len 131072

Fix safety: none offered (the right length is a deployment decision).

Versions: upgrades from before 0.30 to 0.30 or later.  Source:
vllm/config/model.py `_get_and_verify_max_len` (0.28 L2396-2402, 0.29
L2445-2469, 0.30 L2461-2492); numbers are given for pins from 0.28 on; vllm/transformers_utils/config.py L543-550 (0.30 rewrites
`telechat3-yarn` to `yarn`); vLLM PR #56446.
"""

from packaging.version import Version

from linter.diagnostic import Finding, Severity
from rules._lib import hybrid_facts as hf
from rules._lib.base import Rule, register

rule = register(
    Rule("VL502", "yarn-max-model-len-changed", "YaRN context length derived differently after the upgrade to 0.30", Severity.WARNING, since="0.30.0")
)

CHANGE = Version("0.30.0")
CHECKED_FROM = Version("0.28.0")


def _num(x) -> float | None:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else None


@rule.check
def check(ctx):
    if ctx.pin is None or ctx.pin >= CHANGE or ctx.version < CHANGE:
        return
    parsed = ctx.parsed
    mml = parsed.last("max_model_len")
    if mml is not None:
        value = mml.known_value
        if value is None or value.strip() not in ("-1", "auto"):
            return
    facts = hf.model_facts(parsed)
    override = hf.yarn_override(parsed)
    old = new = None
    if override is not None:
        rp, scope, opt = override
        kind = str(rp.get("rope_type", rp.get("type")))
        factor = _num(rp.get("factor"))
        original = _num(rp.get("original_max_position_embeddings"))
        max_pos = _num(scope.get("max_position_embeddings"))
        if max_pos is None and facts is not None and facts.max_position_embeddings:
            max_pos = float(facts.max_position_embeddings)
        if factor is not None:
            if kind == "yarn" and original is not None:
                old = int(original * factor)
            elif kind != "yarn" and max_pos is not None:
                old = int(max_pos * factor)
        new = int(max_pos) if max_pos is not None else None
        span = ctx.option_span(opt)
        what = f"`{opt.written}` sets YaRN RoPE scaling"
    elif facts is not None and facts.rope_scaling is not None and facts.rope_scaling.type in hf.YARN_TYPES:
        old, new = facts.derived_len(ctx.pin), facts.derived_len(ctx.version)
        item = parsed.model_item
        span = ctx.item_span(item) if item is not None else ctx.launch.span
        what = f"{facts.model} uses YaRN RoPE scaling"
    else:
        return
    if ctx.pin < CHECKED_FROM:
        old = None  # the old derivation was read in 0.28 and 0.29 only: no number for older pins
    if old is not None and new is not None and old == new:
        return
    numbers = f": {old:,} tokens on {ctx.pin}, {new:,} on {ctx.version}" if old is not None and new is not None else ""
    option = parsed.spelling("max_model_len")
    yield Finding(
        span,
        f"{what} and no `{option}` is set; vLLM {ctx.version} derives the length differently from the pinned {ctx.pin}{numbers}; "
        f"set `{option}` or check the served length",
        notes=("since 0.30 YaRN no longer multiplies by the factor, as in Transformers; "
               "override `max_position_embeddings` too for a longer context",),
    )
