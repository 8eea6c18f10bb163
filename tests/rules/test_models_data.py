"""The models table (rules/data/models.yaml) against vLLM's block-size formula.

``Platform._align_hybrid_block_size`` (vllm/platforms/interface.py, 0.28 L904-907,
0.32 L1086-1093, 0.33 L1086-1105) picks, for a GDN hybrid in `align` mode:

    attn_1tok = 2 * max(1, kv_heads // tp) * head_dim * kv_bytes
    mamba     = conv + ssm (per TP rank, GDN shapes from layers/mamba/mamba_utils.py)
    A         = 16 (FlashAttention/FlashInfer kernel blocks), lcm(16, 64) on 0.33 with the
                FlashInfer GDN prefill (FLASHINFER_GDN_CHECKPOINT_ALIGNMENT = 64)
    N         = A * ceil(mamba / (A * attn_1tok))

Every row whose model records its state fields must give the N it states.
"""

from math import ceil, lcm

from packaging.version import Version

from linter import knowledge
from rules._lib import hybrid_facts as hf

BYTES = {"bfloat16": 2, "float16": 2, "float32": 4}


def gdn_n(state: dict, tp: int, align: int) -> int:
    kv_bytes = BYTES[state["dtype"]]
    attn_1tok = 2 * max(1, state["num-key-value-heads"] // tp) * state["head-dim"] * kv_bytes
    nk, nv = state["linear-num-key-heads"], state["linear-num-value-heads"]
    hk, hv = state["linear-key-head-dim"], state["linear-value-head-dim"]
    conv = (2 * hk * nk + hv * nv) // tp * (state["linear-conv-kernel-dim"] - 1) * BYTES[state["dtype"]]
    ssm = nv // tp * hv * hk * BYTES[state["mamba-ssm-dtype"]]
    return align * ceil((conv + ssm) / (align * attn_1tok))


def test_block_sizes_follow_the_formula():
    checked = 0
    for facts in knowledge.models().values():
        if facts.hybrid != "gdn" or not facts.state:
            continue
        for row in facts.block_size:
            align = lcm(16, 64) if row.gdn_prefill == "flashinfer" else 16
            assert gdn_n(facts.state, row.tp, align) == row.n, (facts.model, row)
            checked += 1
    assert checked >= 6


def test_published_numbers():
    # LMCache's published table (one GPU): Qwen3.6-27B 784, Qwen3.5-0.8B 544.
    for model, n in (("Qwen/Qwen3.6-27B", 784), ("Qwen/Qwen3.5-0.8B", 544)):
        rows = [r for r in hf.facts_for(model).block_size if r.covers(Version("0.32.0")) and r.tp == 1]
        assert [r.n for r in rows] == [n]


def test_hopper_rounding_only_on_033():
    facts = hf.facts_for("Qwen/Qwen3.6-27B")
    for version, expected in (("0.32.0", {784}), ("0.33.0", {784, 832})):
        assert {r.n for r in facts.block_size if r.covers(Version(version))} == expected


def test_every_entry_has_a_source():
    for facts in knowledge.models().values():
        assert facts.source, facts.model
        assert facts.hybrid in ("gdn", "mamba2", "none")
        for row in facts.block_size:
            assert row.source and row.gpu, (facts.model, row)


def test_unknown_model_is_not_guessed():
    assert hf.facts_for("some-org/some-model") is None
    assert hf.facts_for(None) is None
