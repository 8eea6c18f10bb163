"""LMCache's block size N computed as vLLM computes it (linter/hybrid_block.py).

The figures once typed in rules/data/models.yaml are the oracles here, with every
published figure the tool cites: LMCache's table (Qwen3.6-27B 784, Qwen3.5-0.8B 544 on
one GPU), vLLM issue #40696 (Qwen3.5-4B 528) and the research note's derivations
(27B: 400 at TP 8, 800 with two speculative tokens, 832 / 576 with 0.33's FlashInfer GDN
prefill).  Kimi-Linear's published 944 (two GPUs) is impossible: MLA forces a multiple
of 128 (interface.py L1081-1088 in 0.33), and vLLM computes 1024.
"""

import json
from math import ceil, lcm

import pytest
from packaging.version import Version

from linter import hybrid_block as hb
from rules._lib import hybrid_facts as hf
from tests.rules.hybrid_helpers import MP, hits, lint

RELEASES = ["0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"]


def shipped(model: str) -> dict:
    return hf.shipped_configs()[model][0]


NEMOTRON_H = {  # a Nemotron-H style Mamba2 hybrid (written for this test)
    "architectures": ["NemotronHForCausalLM"],
    "model_type": "nemotron_h",
    "torch_dtype": "bfloat16",
    "hidden_size": 4480,
    "num_attention_heads": 40,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "mamba_num_heads": 128,
    "mamba_head_dim": 80,
    "n_groups": 8,
    "ssm_state_size": 128,
    "conv_kernel": 4,
    "chunk_size": 128,
}

GRANITE_H = {  # a Granite-4.0-H style Mamba2 hybrid (written for this test)
    "architectures": ["GraniteMoeHybridForCausalLM"],
    "model_type": "granitemoehybrid",
    "torch_dtype": "bfloat16",
    "hidden_size": 1536,
    "num_attention_heads": 12,
    "num_key_value_heads": 4,
    "mamba_expand": 2,
    "mamba_n_groups": 1,
    "mamba_n_heads": 48,
    "mamba_d_head": 64,
    "mamba_d_state": 128,
    "mamba_d_conv": 4,
    "mamba_chunk_size": 256,
    "layer_types": ["mamba"] * 3 + ["attention"],
}


def n(config, version, **dep):
    return hb.block_size(config, Version(version), hb.Deployment(**dep)).n


@pytest.mark.parametrize("version", RELEASES)
def test_published_figures(version):
    fi = version == "0.33.0"
    assert n(shipped("Qwen/Qwen3.6-27B"), version) == 784
    assert n(shipped("Qwen/Qwen3.5-0.8B"), version) == 544
    assert n(shipped("Qwen/Qwen3.5-4B"), version) == 528  # vLLM issue #40696
    assert n(shipped("Qwen/Qwen3.6-27B"), version, tp=8) == 400
    assert n(shipped("Qwen/Qwen3.6-27B"), version, num_spec=2) == 800
    # 0.33 on H100/H200: FlashInfer GDN prefill, A = lcm(16, 64)
    assert n(shipped("Qwen/Qwen3.6-27B"), version, gdn_prefill="flashinfer") == (832 if fi else 784)
    assert n(shipped("Qwen/Qwen3.5-0.8B"), version, gdn_prefill="flashinfer") == (576 if fi else 544)


@pytest.mark.parametrize("version", RELEASES)
def test_kimi_linear_mla_is_a_multiple_of_128(version):
    kimi = shipped("moonshotai/Kimi-Linear-48B-A3B-Instruct")
    # KDA state at TP 2: conv (32x128 + 2x32x128)/2 x 3 x 2 B + 16x128x128 x 4 B = 1,085,440 B;
    # MLA page per token: (512 + 64) x 2 B = 1152 B; A = max(16, 128) = 128
    assert n(kimi, version, tp=2) == 128 * ceil(1085440 / (128 * 1152)) == 1024
    assert n(kimi, version, tp=2) != 944
    assert n(kimi, version) == 1920
    assert all(n(kimi, version, tp=tp) % 128 == 0 for tp in (1, 2, 4, 8))


def _mamba2_oracle(tp, kv_bytes, spec=0):
    c = NEMOTRON_H
    groups = c["n_groups"] + (0 if c["n_groups"] % tp == 0 else tp - c["n_groups"])
    conv = (c["mamba_num_heads"] * c["mamba_head_dim"] + 2 * groups * c["ssm_state_size"]) // tp * (c["conv_kernel"] - 1 + spec) * 2
    ssm = c["mamba_num_heads"] // tp * c["mamba_head_dim"] * c["ssm_state_size"] * 4  # NemotronH: float32 SSM state
    attn = max(1, c["num_key_value_heads"] // tp) * 2 * c["head_dim"] * kv_bytes
    return conv + ssm, attn


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize("tp", [1, 2, 4])
@pytest.mark.parametrize("kv", ["auto", "fp8"])
def test_mamba2_nemotron_h(version, tp, kv):
    mamba, attn = _mamba2_oracle(tp, 1 if kv == "fp8" else 2)
    assert n(NEMOTRON_H, version, tp=tp, kv_cache_dtype=kv) == 16 * ceil(mamba / (16 * attn))


@pytest.mark.parametrize("version", ["0.28.0", "0.29.0", "0.30.0", "0.31.0"])
def test_mamba2_all_mode_aligns_to_the_chunk(version):
    # 0.28-0.31 `all` mode (NemotronH is SupportsMambaPrefixCaching): lcm(chunk 128, 16) x ...
    mamba, attn = _mamba2_oracle(1, 2)
    unit = lcm(128, 16)
    assert n(NEMOTRON_H, version, mamba_cache_mode="all") == unit * ceil(ceil(mamba / attn) / unit) == 1408
    # a GDN model has no `all` mode: vLLM falls back to align
    assert n(shipped("Qwen/Qwen3.6-27B"), version, mamba_cache_mode="all") == 784


@pytest.mark.parametrize("version", RELEASES)
def test_granite_h(version):
    c = GRANITE_H
    inner = c["mamba_expand"] * c["hidden_size"]
    for tp in (1, 2, 4):
        groups = 1 + (0 if tp == 1 else tp - 1)
        conv = (inner + 2 * groups * c["mamba_d_state"]) // tp * 3 * 2
        ssm = c["mamba_n_heads"] // tp * c["mamba_d_head"] * c["mamba_d_state"] * 2  # auto: the model dtype
        attn = max(1, 4 // tp) * 2 * (1536 // 12) * 2
        assert n(c, version, tp=tp) == 16 * ceil((conv + ssm) / (16 * attn))


def test_classification_comes_from_each_release():
    micro = {**GRANITE_H, "layer_types": ["attention"] * 4}  # granite-4.0-micro: hybrid class, no Mamba layer
    assert hb.classify(micro, Version("0.32.0")) is None
    assert hb.classify(GRANITE_H, Version("0.32.0"))["hybrid"]
    # SupportsMambaPrefixCaching ends with 0.33 for hybrids
    assert hb.classify(NEMOTRON_H, Version("0.31.0"))["mamba-prefix-caching"] is True
    assert hb.classify(NEMOTRON_H, Version("0.33.0"))["mamba-prefix-caching"] is False
    dense = {"architectures": ["LlamaForCausalLM"], "num_key_value_heads": 8, "head_dim": 128}
    with pytest.raises(hb.NotComputed):
        hb.block_size(dense, Version("0.32.0"))


def test_settings_not_ported_are_not_guessed():
    with pytest.raises(hb.NotComputed, match="packed layout"):
        hb.block_size(shipped("Qwen/Qwen3.6-27B"), Version("0.32.0"), hb.Deployment(kv_cache_dtype="turboquant_k8v4"))
    with pytest.raises(hb.NotComputed, match="divisible"):
        hb.block_size(shipped("Qwen/Qwen3.6-27B"), Version("0.32.0"), hb.Deployment(tp=5))


def test_derivation_names_the_steps():
    b = hb.block_size(shipped("Qwen/Qwen3.6-27B"), Version("0.33.0"), hb.Deployment(gdn_prefill="flashinfer"))
    assert b.derivation() == (
        "attention page per token 4096 B (4 KV heads x 2 x head_dim 256 x 2 B); "
        "Mamba page 3207168 B (gated_delta_net_state_shape: 3x10240 x 2 B + 48x128x128 x 4 B = 3207168 B); "
        "A = max(kernel block 16, block size 16) = 16; FlashInfer GDN prefill checkpoints: A = lcm(A, 64) = 64; "
        "N = 64 x ceil(3207168 / (64 x 4096)) = 832"
    )


# ---------------------------------------------------------------------------
# A launch whose model folder is in the tree


def _model_folder(tmp_path, config):
    folder = tmp_path / "models" / "nemo"
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")


def test_tree_config_gets_the_chunk_size_check(tmp_path):
    _model_folder(tmp_path, NEMOTRON_H)
    script = (
        "#!/bin/sh\n"
        "lmcache server --chunk-size 256 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve ./models/nemo --tensor-parallel-size 2 --max-num-batched-tokens 512 --kv-transfer-config '{MP}'\n"
    )
    r = lint(tmp_path, "serve.sh", script, "shell")
    mamba, attn = _mamba2_oracle(2, 2)
    expected = 16 * ceil(mamba / (16 * attn))
    [(sev, at, msg)] = hits(r, "VL404")
    assert (sev, at) == ("error", "256")
    assert f"N = {expected} for ./models/nemo on vLLM 0.32.0" in msg
    assert "models/nemo/config.json" in msg and f"{mamba} B of state per Mamba layer" in msg
    [(sev, at, msg)] = hits(r, "VL403")
    assert (sev, at) == ("error", "512") and f"N = {expected}" in msg


def test_tree_config_of_a_dense_model_is_not_hybrid(tmp_path):
    _model_folder(tmp_path, {"architectures": ["LlamaForCausalLM"], "num_key_value_heads": 8, "head_dim": 128})
    script = (
        "lmcache server --chunk-size 256 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve ./models/nemo --max-num-batched-tokens 512 --kv-transfer-config '{MP}'\n"
    )
    r = lint(tmp_path, "serve.sh", script, "shell")
    assert not hits(r, "VL404") and not hits(r, "VL403")


def test_h100_node_selector_picks_the_flashinfer_figure(tmp_path):
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: q\nspec:\n"
        "  nodeSelector:\n    nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\n  containers:\n"
        "    - name: lmcache\n      image: lmcache/standalone:0.5.6\n      command: ['lmcache', 'server']\n"
        "      args: ['--chunk-size', '784', '--l1-size-gb', '20', '--eviction-policy', 'LRU']\n"
        "    - name: vllm\n      image: vllm/vllm-openai:v0.33.0\n"
        f"      args: ['Qwen/Qwen3.6-27B', '--kv-transfer-config', '{MP}']\n"
    )
    r = lint(tmp_path, "pod.yaml", text, "yaml", target="0.33.0")
    found = hits(r, "VL404")
    if not found:
        pytest.skip("the extractor records no GPU label for this pod form")
    [(sev, at, msg)] = found
    assert (sev, at) == ("error", "784") and "N = 832" in msg


def test_tree_config_gets_the_connector_check(tmp_path):
    # VL401: the in-process connector with a hybrid whose config.json is in the tree
    _model_folder(tmp_path, NEMOTRON_H)
    v1 = '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'
    r = lint(tmp_path, "serve.sh", f"vllm serve ./models/nemo --kv-transfer-config '{v1}'\n", "shell")
    [(sev, at, msg)] = hits(r, "VL401")
    assert (sev, at) == ("error", v1) and "./models/nemo (Mamba2 hybrid)" in msg


def test_model_config_option_is_a_config_source(tmp_path):
    from linter.engine import Settings, lint_file
    from rules._lib.base import all_rules

    path = tmp_path / "cfg.json"
    path.write_text(json.dumps(shipped("Qwen/Qwen3.5-0.8B")), encoding="utf-8")
    script = tmp_path / "serve.sh"
    script.write_text(
        "lmcache server --chunk-size 512 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve my-org/private-hybrid --kv-transfer-config '{MP}'\n",
        encoding="utf-8",
    )
    settings = Settings(target=Version("0.32.0"), model_configs={"my-org/private-hybrid": str(path)})
    r = lint_file(str(script), "shell", settings, all_rules())
    [(sev, at, msg)] = hits(r, "VL404")
    assert (sev, at) == ("error", "512") and "N = 544" in msg and f"--model-config {path}" in msg


# LFM2-VL keeps its language model's fields under `text_config`; vLLM's state function reads
# them through `hf_config.text_config` (models/lfm2_vl.py get_mamba_state_shape_from_config,
# L654-675 in 0.33), which hybrid.json now records as config.json paths.
LFM2_VL = {
    "architectures": ["Lfm2VlForConditionalGeneration"], "model_type": "lfm2_vl",
    "text_config": {
        "model_type": "lfm2", "dtype": "bfloat16", "hidden_size": 4096, "conv_L_cache": 3,
        "num_attention_heads": 32, "num_key_value_heads": 2, "head_dim": 128, "num_hidden_layers": 16,
        "layer_types": ["conv", "conv", "full_attention", "conv"] * 4,
    },
}


@pytest.mark.parametrize("version", ["0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"])
@pytest.mark.parametrize("tp,kv,kv_bytes", [(1, "auto", 2), (1, "fp8", 1), (2, "fp8", 1)])
def test_lfm2_vl_short_conv_from_the_text_config(version, tp, kv, kv_bytes):
    got = hb.block_size(LFM2_VL, Version(version), hb.Deployment(tp=tp, kv_cache_dtype=kv))
    # by hand: short_conv_state_shape = (conv_L_cache - 1, hidden_size / tp) in the model dtype
    # (short_conv_state_dtype with mamba_cache_dtype auto: bf16, 2 B); attention page per token =
    # max(1, 2 KV heads / tp) x 2 x 128 x KV bytes; N = 16 x ceil(mamba / (16 x attention))
    mamba = (3 - 1) * (4096 // tp) * 2
    attn = max(1, 2 // tp) * 2 * 128 * kv_bytes
    assert (got.mamba_page, got.attn_page_1_token) == (mamba, attn)
    assert got.n == 16 * ceil(mamba / (16 * attn))
    # the same language model as a text-only Lfm2 (its state reads `conv_dim`) pages alike
    text_only = {**LFM2_VL["text_config"], "architectures": ["Lfm2ForCausalLM"], "conv_dim": 4096}
    assert hb.block_size(text_only, Version(version), hb.Deployment(tp=tp, kv_cache_dtype=kv)).n == got.n


# BailingMoeV2.5 (Ling/Ring linear): the state function binds `config = hf_config` and reads
# `getattr(config, "head_dim", config.hidden_size // config.num_attention_heads)`
# (models/bailing_moe_linear.py get_mamba_state_shape_from_config, L768-785 in 0.33), now
# read into hybrid.json; linear_attention_state_shape = (heads / tp, head_dim, head_dim)
# (layers/mamba/mamba_utils.py L154-161), in the model dtype (linear_attention_state_dtype).
def _bailing(head_dim: bool) -> dict:
    config = {"architectures": ["BailingMoeV2_5ForCausalLM"], "model_type": "bailing_hybrid", "dtype": "bfloat16",
              "hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": 4, "num_hidden_layers": 20}
    return {**config, "head_dim": 128} if head_dim else config


@pytest.mark.parametrize("version", ["0.28.0", "0.31.0", "0.33.0"])
@pytest.mark.parametrize("tp", [1, 2, 4])
@pytest.mark.parametrize("with_head_dim", [True, False])
def test_bailing_linear_attention_state(version, tp, with_head_dim):
    got = hb.block_size(_bailing(with_head_dim), Version(version), hb.Deployment(tp=tp))
    head_dim = 128  # given, or 2048 // 16
    mamba = (16 // tp) * head_dim * head_dim * 2
    attn = max(1, 4 // tp) * 2 * head_dim * 2
    assert (got.mamba_page, got.attn_page_1_token) == (mamba, attn)
    assert got.n == 16 * ceil(mamba / (16 * attn))


# BailingMoeV3: get_mamba_state_shape_from_config only returns
# `_get_kda_state_shape_for_config(vllm_config)`, a module function (models/bailing_moe_v3.py
# L140-157 and L1477-1480 in 0.33) that hybrid.json now reads through.  kda_state_shape
# (layers/mamba/mamba_utils.py L296-319): conv (3 x heads x head_dim / tp, kernel - 1),
# recurrent (heads / tp, head_dim, head_dim); kda_state_dtype L133-147: conv in the model
# dtype, recurrent float32 for `auto`.  MLA attention (bailing_hybrid with kv_lora_rank):
# kv_lora_rank + qk_rope_head_dim values per token, one copy per rank, and A = 128.
BAILING_V3 = {
    "architectures": ["BailingMoeV3ForCausalLM"], "model_type": "bailing_hybrid", "dtype": "bfloat16",
    "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 32, "head_dim": 128,
    "short_conv_kernel_size": 4, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "num_hidden_layers": 32,
}


@pytest.mark.parametrize("tp", [1, 2, 4])
def test_bailing_v3_kda_through_its_module_helper(tp):
    got = hb.block_size(BAILING_V3, Version("0.33.0"), hb.Deployment(tp=tp))
    conv = (3 * 32 * 128 // tp) * (4 - 1) * 2
    recurrent = (32 // tp) * 128 * 128 * 4
    attn = (512 + 64) * 2
    assert (got.mamba_page, got.attn_page_1_token) == (conv + recurrent, attn)
    assert got.n == 128 * ceil((conv + recurrent) / (128 * attn))


def test_bailing_v3_vl_reads_the_text_model_through_the_same_helper():
    # BailingMoeV3VL delegates to BailingMoeV3 on its text config (models/bailing_moe_v3_vl.py
    # L322-328 in 0.33), which returns the module helper's call: the same N as the text model
    text = {k: v for k, v in BAILING_V3.items() if k != "architectures"}
    vl = {"architectures": ["BailingMoeV3VLForConditionalGeneration"], "model_type": "bailing_moe_v3_vl", "text_config": text}
    for tp in (1, 2):
        assert hb.block_size(vl, Version("0.33.0"), hb.Deployment(tp=tp)).n == hb.block_size(BAILING_V3, Version("0.33.0"), hb.Deployment(tp=tp)).n
