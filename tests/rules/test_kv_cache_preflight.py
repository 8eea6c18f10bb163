"""VL802 / VL803: the KV cache estimate on realistic manifests, every answer computed by hand.

The arithmetic in the comments is the one rules/_lib/preflight.py documents:

    KV per token and layer = 2 x max(1, kv_heads // tp) x head_dim x dtype bytes
    one request            = that x layers x length (rounded up to 16-token blocks)
    pool per GPU           = GPU bytes x utilization - weights / tp - 1 GiB (OVERHEAD_GIB)

GPU bytes are nvidia-smi totals (rules/data/gpus.yaml): L4 23034 MiB, A10G 23028 MiB,
H100 81559 MiB, H200 143771 MiB.  --gpu-memory-utilization defaults to 0.92 in 0.28-0.33.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from packaging.version import Version

from linter.engine import Settings, lint_file
from rules._lib import preflight
from rules._lib.base import all_rules

from .lint_helpers import have

pytestmark = pytest.mark.skipif(not have("0.31.0"), reason="needs the 0.31.0 inventory")

GiB = 1024**3
MiB = 1024**2


def full(d) -> str:
    """The message with its notes (the arithmetic lives in the notes)."""
    return " ".join([d.message, *d.notes])


def run(tmp_path: Path, name: str, text: str, kind: str = "yaml", **settings):
    path = tmp_path / name
    path.write_text(text)
    s = Settings(extend_select=frozenset({"VL803"}), **settings)
    return lint_file(str(path), kind, s, all_rules())


def diags(result, code):
    return [d for d in result.diagnostics if d.code == code]


def numbers(message: str) -> list[str]:
    return re.findall(r"\d[\d,]*(?:\.\d+)?", message)


def deployment(model_args: str, selector: str, *, gpus: int = 1, tag: str = "v0.31.0") -> str:
    return f"""\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm
spec:
  replicas: 1
  selector:
    matchLabels: {{app: llm}}
  template:
    metadata:
      labels: {{app: llm}}
    spec:
      nodeSelector:
        {selector}
      containers:
        - name: vllm
          image: vllm/vllm-openai:{tag}
          args: {model_args}
          ports:
            - containerPort: 8000
          resources:
            limits:
              nvidia.com/gpu: {gpus}
"""


# ---------------------------------------------------------------------------
# Qwen/Qwen3-8B on one L4: the configured 40,960 tokens do not fit


def test_qwen3_8b_on_l4_at_configured_length_does_not_start(tmp_path):
    # KV per token: 2 x 36 layers x 8 KV heads x 128 x 2 B = 147,456 B = 144 KiB
    # one request:  147,456 x 40,960 = 6,039,797,760 B = 5.6 GiB
    # pool: 23034 MiB = 24,152,899,584 B x 0.92 = 22,220,667,617 - weights 8.2e9 x 2 = 16,400,000,000
    #       - 1 GiB = 4,746,925,793 B = 4.4 GiB  -> one request does not fit
    # largest length: 4,746,925,793 // 147,456 = 32,192 (a multiple of 16)
    text = deployment('["Qwen/Qwen3-8B"]', "cloud.google.com/gke-accelerator: nvidia-l4")
    result = run(tmp_path, "qwen.yaml", text)
    (d,) = diags(result, "VL802")
    assert result.src.text[d.span.start : d.span.end] == "Qwen/Qwen3-8B"
    assert "the model's configured length (40,960 tokens; no `--max-model-len` is set)" in full(d)
    assert "needs 5.6 GiB" in full(d) and "about 4.4 GiB is left" in full(d)
    assert "L4 24GB (22.5 GiB) x 0.92 = 20.7 GiB" in full(d)
    assert "minus 15.3 GiB of weights per GPU (8.2B parameters x 2 bytes)" in full(d)
    assert "about 32,192 tokens" in full(d)
    assert "estimate" in full(d) and "1 GiB" in full(d)
    assert not diags(result, "VL803")


def test_qwen3_8b_at_the_suggested_length_fits(tmp_path):
    # 32,192 x 147,456 = 4,746,903,552 <= 4,746,925,793: fits, 1.0 requests at once
    text = deployment('["Qwen/Qwen3-8B", "--max-model-len", "32192"]', "cloud.google.com/gke-accelerator: nvidia-l4")
    result = run(tmp_path, "qwen.yaml", text)
    assert not diags(result, "VL802")
    (info,) = diags(result, "VL803")
    assert "room for about 1.0 requests" in full(info)


def test_qwen3_8b_on_h100_concurrency(tmp_path):
    # pool: 81559 MiB = 85,520,809,984 B x 0.92 = 78,679,145,185 - 16,400,000,000 - 1,073,741,824
    #       = 61,205,403,361 B = 57.0 GiB
    # one request of 32,768: 147,456 x 32,768 = 4,831,838,208 B = 4.5 GiB -> 61,205,403,361 / 4,831,838,208 = 12.67
    text = deployment('["Qwen/Qwen3-8B", "--max-model-len", "32768"]', "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3")
    result = run(tmp_path, "qwen.yaml", text)
    assert not diags(result, "VL802")
    (info,) = diags(result, "VL803")
    assert result.src.text[info.span.start : info.span.end] == "32768"
    assert "about 57.0 GiB per GPU" in full(info) and "needs 4.5 GiB" in full(info)
    assert "room for about 12.7 requests" in full(info)


# ---------------------------------------------------------------------------
# Tensor parallelism splits KV heads and weights (Llama 3.1 8B on A10G)


def test_llama_tensor_parallel_two_fits_one_does_not(tmp_path):
    selector = "nvidia.com/gpu.product: NVIDIA-A10G"
    # TP 1, configured 131,072 tokens: KV per token 2 x 32 x 8 x 128 x 2 = 131,072 B -> 16.0 GiB
    # pool: 23028 MiB = 24,146,608,128 x 0.92 = 22,214,879,478 - 8.03e9 x 2 = 16,060,000,000 - 1 GiB
    #       = 5,081,137,653 B (4.7 GiB); largest: 5,081,137,653 // 131,072 = 38,765 -> 38,752 (x16)
    one = run(tmp_path, "tp1.yaml", deployment('["meta-llama/Llama-3.1-8B-Instruct"]', selector))
    (d,) = diags(one, "VL802")
    assert "131,072 tokens" in full(d) and "needs 16.0 GiB" in full(d) and "about 4.7 GiB is left" in full(d)
    assert "about 38,752 tokens" in full(d)
    # TP 2: KV heads per GPU 8 // 2 = 4 -> 65,536 B per token -> 131,072 tokens = 8.0 GiB
    # pool: 22,214,879,478 - 16,060,000,000 / 2 - 1 GiB = 13,111,137,653 B (12.2 GiB) -> 1.53 requests
    two = run(tmp_path, "tp2.yaml", deployment('["meta-llama/Llama-3.1-8B-Instruct", "--tensor-parallel-size", "2"]', selector, gpus=2))
    assert not diags(two, "VL802")
    (info,) = diags(two, "VL803")
    assert "about 12.2 GiB per GPU" in full(info) and "needs 8.0 GiB" in full(info)
    assert "tensor-parallel size 2" in full(info) and "room for about 1.5 requests" in full(info)


# ---------------------------------------------------------------------------
# Sliding window (Gemma 3 27B) and MLA (DeepSeek-V3)


def test_gemma3_sliding_layers_hold_only_their_window(tmp_path):
    # 10 full + 52 sliding layers (window 1024); KV per token and layer 2 x 16 x 128 x 2 = 8,192 B
    # full:    10 x 131,072 x 8,192                       = 10,737,418,240
    # sliding: in flight 2 x 8,192 (H100 default batch) = 16,384 tokens; held min(1,023 + 16,384, L) = 17,407
    #          -> ceil(17,407 / 16) + 1 = 1,089 blocks = 17,424 tokens; 52 x 17,424 x 8,192 = 7,422,345,216
    # total 18,159,763,456 B = 16.9 GiB
    # pool: 78,679,145,185 - 27.4e9 x 2 = 54,800,000,000 - 1 GiB = 22,805,403,361 (21.2 GiB) -> 1.26 requests
    # (counted as 62 full layers it would need 62.0 GiB and fail)
    text = deployment('["google/gemma-3-27b-it", "--max-model-len", "131072"]', "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3")
    result = run(tmp_path, "gemma.yaml", text)
    assert not diags(result, "VL802")
    (info,) = diags(result, "VL803")
    assert "needs 16.9 GiB" in full(info) and "about 21.2 GiB per GPU" in full(info)
    assert "room for about 1.3 requests" in full(info)


def test_deepseek_v3_mla_cache_is_not_split_by_tensor_parallelism(tmp_path):
    # MLA: 61 layers x (512 + 64) x 2 B = 70,272 B per token on every GPU; 163,840 tokens (configured)
    #      = 11,513,364,480 B = 10.7 GiB
    # weights: 671e9 x 1 B (FP8) / 8 = 83,875,000,000 per GPU
    # pool: 143771 MiB = 150,754,820,096 x 0.92 = 138,694,434,488 - 83,875,000,000 - 1 GiB
    #       = 53,745,692,664 B = 50.1 GiB -> 4.67 requests
    text = deployment('["deepseek-ai/DeepSeek-V3", "--tensor-parallel-size", "8", "--trust-remote-code"]', "nvidia.com/gpu.product: NVIDIA-H200", gpus=8)
    result = run(tmp_path, "dsv3.yaml", text)
    assert not diags(result, "VL802")
    (info,) = diags(result, "VL803")
    assert "needs 10.7 GiB" in full(info) and "about 50.1 GiB per GPU" in full(info)
    assert "room for about 4.7 requests" in full(info)


# ---------------------------------------------------------------------------
# Other sources of facts: gpu-memory-gib, --model-config, the Hugging Face cache


SERVE = """#!/usr/bin/env bash
pip install "vllm==0.31.0"
exec vllm serve Qwen/Qwen3-8B --gpu-memory-utilization {util} --port 8000
"""


def test_gpu_memory_gib_for_files_without_node_labels(tmp_path):
    # 24 GiB = 25,769,803,776 B.  util 0.92: 23,708,219,474 - 16,400,000,000 - 1 GiB = 6,234,477,650 >= 6,039,797,760: fits
    fits = run(tmp_path, "serve.sh", SERVE.format(util="0.92"), "shell", gpu_memory_gib=24.0)
    assert not diags(fits, "VL802") and diags(fits, "VL803")
    # util 0.9: 23,192,823,398 - 17,473,741,824 = 5,719,081,574 < 6,039,797,760: fails;
    # largest 5,719,081,574 // 147,456 = 38,785 -> 38,784
    fails = run(tmp_path, "serve.sh", SERVE.format(util="0.9"), "shell", gpu_memory_gib=24.0)
    (d,) = diags(fails, "VL802")
    assert "24 GiB GPU (24.0 GiB) x 0.9" in full(d) and "about 38,784 tokens" in full(d)
    # without a GPU the rules say nothing
    silent = run(tmp_path, "serve.sh", SERVE.format(util="0.9"), "shell")
    assert not diags(silent, "VL802") and not diags(silent, "VL803")


GPT_OSS_CONFIG = {
    # the published fields of openai/gpt-oss-20b config.json that the estimate reads
    "architectures": ["GptOssForCausalLM"],
    "num_hidden_layers": 24,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "hidden_size": 2880,
    "sliding_window": 128,
    "layer_types": ["sliding_attention", "full_attention"] * 12,
    "max_position_embeddings": 131072,
    "torch_dtype": "bfloat16",
}


def snapshot(folder: Path, config: dict, total_size: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": total_size}, "weight_map": {}}))
    return folder / "config.json"


def test_model_config_gives_weights_the_table_lacks(tmp_path):
    text = deployment('["openai/gpt-oss-20b"]', "cloud.google.com/gke-accelerator: nvidia-l4")
    # the table has no weight size for gpt-oss-20b (MXFP4 experts): no guess
    assert not diags(run(tmp_path, "oss.yaml", text), "VL803")
    # a snapshot whose index says 13,761,300,000 B of weights (this test's own number)
    config = snapshot(tmp_path / "snap", GPT_OSS_CONFIG, 13_761_300_000)
    # 12 full layers x 131,072 x (2 x 8 x 64 x 2 = 2,048 B) = 3,221,225,472
    # 12 sliding: L4 default batch 2,048 -> 4,096 in flight; held min(127 + 4,096, L) = 4,223 -> 265 blocks
    #             = 4,240 tokens; 12 x 4,240 x 2,048 = 104,202,240  -> total 3,325,427,712 B = 3.1 GiB
    # pool: 22,220,667,617 - 13,761,300,000 - 1 GiB = 7,385,625,793 (6.9 GiB) -> 2.22 requests
    result = run(tmp_path, "oss.yaml", text, model_configs={"openai/gpt-oss-20b": str(config)})
    (info,) = diags(result, "VL803")
    assert "needs 3.1 GiB" in full(info) and "about 6.9 GiB per GPU" in full(info)
    assert "room for about 2.2 requests" in full(info)
    assert "model.safetensors.index.json" in full(info)


def test_hugging_face_cache_is_read_never_the_network(tmp_path, monkeypatch):
    hub = tmp_path / "hub"
    repo = hub / "models--Qwen--Qwen3-8B"
    config = json.loads(json.dumps({"num_hidden_layers": 36, "num_attention_heads": 32, "num_key_value_heads": 8,
                                    "head_dim": 128, "hidden_size": 4096, "max_position_embeddings": 40960,
                                    "torch_dtype": "bfloat16", "sliding_window": None}))
    snapshot(repo / "snapshots" / "abc123", config, 16_381_470_720)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123")
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    # pool on the L4 with the checkpoint's 16,381,470,720 B: 22,220,667,617 - 16,381,470,720 - 1 GiB
    #   = 4,765,455,073 -> largest 4,765,455,073 // 147,456 = 32,317 -> 32,304
    text = deployment('["Qwen/Qwen3-8B"]', "cloud.google.com/gke-accelerator: nvidia-l4")
    (d,) = diags(run(tmp_path, "qwen.yaml", text), "VL802")
    assert "about 32,304 tokens" in full(d) and "model.safetensors.index.json" in full(d)


# ---------------------------------------------------------------------------
# No guesses


@pytest.mark.parametrize(
    "args, selector",
    [
        ('["some-org/unknown-model"]', "cloud.google.com/gke-accelerator: nvidia-l4"),  # unknown model
        ('["Qwen/Qwen3-8B"]', "nvidia.com/gpu.product: NVIDIA-Mystery-9000"),  # unknown GPU
        ('["Qwen/Qwen3-8B", "--quantization", "awq"]', "cloud.google.com/gke-accelerator: nvidia-l4"),  # weights change
        ('["Qwen/Qwen3-8B", "--max-model-len", "$(LEN)"]', "cloud.google.com/gke-accelerator: nvidia-l4"),  # opaque
        ('["Qwen/Qwen3-8B", "--pipeline-parallel-size", "2"]', "cloud.google.com/gke-accelerator: nvidia-l4"),
    ],
)
def test_no_prediction_without_the_facts(tmp_path, args, selector):
    result = run(tmp_path, "x.yaml", deployment(args, selector))
    assert not diags(result, "VL802") and not diags(result, "VL803")


def test_release_default_utilization_is_read_from_the_inventory():
    from linter import knowledge

    assert knowledge.release(Version("0.31.0")).by_dest["gpu_memory_utilization"].default == 0.92


def test_kv_per_token_matches_the_research_note():
    facts = preflight.from_table("Qwen/Qwen3-8B")
    # 2 x 36 x 8 x 128 x 2 = 147,456 B = 144 KiB per token; 40,960 tokens = 5.625 GiB
    per_token = 2 * facts.layers * facts.kv_heads * facts.head_dim * 2
    assert per_token == 144 * 1024
    assert per_token * 40960 / GiB == 5.625
    gpu = preflight.gpu_for({"gpu-product": "NVIDIA-H100-80GB-HBM3"}, None)
    assert gpu.total_bytes == 81559 * MiB


def test_hybrid_counts_attention_layers_and_one_state_per_sequence():
    facts = preflight.from_table("Qwen/Qwen3.6-27B")
    assert facts.attention_layers == 16 and facts.mamba_layers == 48
    assert facts.weight_bytes is None  # no parameter count recorded: no prediction for launches
    gpu = preflight.Gpu("test", 80 * GiB, "gpu-memory-gib")
    est = preflight.Estimate(facts, gpu, tp=1, utilization=0.92, length=32768, length_from_config=False, kv_bytes=2,
                             kv_dtype="bfloat16", weight_bytes_per_rank=0, pool_bytes=10 * GiB, in_flight=4096)
    # attention: 16 layers x 2 x 4 KV heads x 256 x 2 B = 65,536 B (64 KiB) per token; x 32,768 = 2,147,483,648
    # state: 48 GDN layers x 3,207,168 B = 153,944,064 per sequence
    assert est.need() == 2_147_483_648 + 153_944_064


def test_gpu_count_of_the_pod(tmp_path):
    selector = "nvidia.com/gpu.product: NVIDIA-A10G"
    # four GPUs requested, tensor-parallel size 2: the estimate stands, the message says two are idle
    (info,) = diags(run(tmp_path, "a.yaml", deployment('["meta-llama/Llama-3.1-8B-Instruct", "-tp", "2"]', selector, gpus=4)), "VL803")
    assert "the container asks for 4 GPUs but uses 2 (tensor-parallel size 2)" in full(info)
    # one GPU for tensor-parallel size 2: vLLM fails before sizing the cache; no estimate
    one = run(tmp_path, "b.yaml", deployment('["meta-llama/Llama-3.1-8B-Instruct", "--tensor-parallel-size", "2"]', selector, gpus=1))
    assert not diags(one, "VL802") and not diags(one, "VL803")


def test_hybrid_pages_follow_vllm():
    # Qwen3.6-27B on one GPU, vLLM 0.32 (align mode): N = 784, every page 784 x 4096 B;
    # 16 attention layers hold cdiv(32768, 784) = 42 blocks, 48 GDN layers hold 2 state pages each
    facts = preflight.from_table("Qwen/Qwen3.6-27B")
    gpu = preflight.Gpu("test", 80 * GiB, "gpu-memory-gib")
    pages = preflight.HybridPages(block=784, attn_page_1_token=4096, state_pages=2, how="")
    est = preflight.Estimate(facts, gpu, tp=1, utilization=0.92, length=32768, length_from_config=False, kv_bytes=2,
                             kv_dtype="bfloat16", weight_bytes_per_rank=0, pool_bytes=10 * GiB, in_flight=4096, hybrid=pages)
    page = 784 * 4096
    assert est.need() == 16 * 42 * page + 48 * 2 * page


def test_hybrid_launch_with_its_config_json(tmp_path):
    import json as _json

    folder = tmp_path / "qwen"
    folder.mkdir()
    text_config = {
        "model_type": "qwen3_5_text", "dtype": "bfloat16", "num_hidden_layers": 64, "num_attention_heads": 24,
        "num_key_value_heads": 4, "head_dim": 256, "hidden_size": 5120, "linear_num_key_heads": 16,
        "linear_num_value_heads": 48, "linear_key_head_dim": 128, "linear_value_head_dim": 128,
        "linear_conv_kernel_dim": 4, "mamba_ssm_dtype": "float32", "full_attention_interval": 4,
        "max_position_embeddings": 262144,
    }
    config = {"architectures": ["Qwen3_5ForConditionalGeneration"], "model_type": "qwen3_5", "text_config": text_config}
    (folder / "config.json").write_text(_json.dumps(config), encoding="utf-8")
    (folder / "model.safetensors.index.json").write_text(_json.dumps({"metadata": {"total_size": 54 * GiB}}), encoding="utf-8")
    facts = preflight.from_config(str(folder / "config.json"), "Qwen/Qwen3.6-27B")
    assert (facts.attention_layers, facts.mamba_layers) == (16, 48)
    # an H100 pod at the full 262,144-token length: 16 x cdiv(262144, 784) x 784 x 4096 B of
    # attention (16.0 GiB) plus 48 x 2 pages of 784 x 4096 B; 54 GiB of weights leave ~18 GiB
    text = deployment('["Qwen/Qwen3.6-27B"]', "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3", tag="v0.32.0")
    r = run(tmp_path, "d.yaml", text, model_configs={"Qwen/Qwen3.6-27B": str(folder / "config.json")})
    found = diags(r, "VL802") + diags(r, "VL803")
    assert found, "a hybrid launch with its config.json gets an estimate"
    page = 784 * 4096
    need = 16 * -(-262144 // 784) * page + 48 * 2 * page
    assert any(f"{need / GiB:.1f} GiB" in full(d) for d in found), [full(d) for d in found]


# ---------------------------------------------------------------------------
# A hybrid that gets no estimate says why (VL803), and the 1 GiB constant is called a floor


H100 = "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3"


def test_hybrid_without_config_json_says_why(tmp_path):
    # Qwen3-Next is a GDN hybrid in rules/data/models.yaml, with no config.json anywhere
    text = deployment('["Qwen/Qwen3-Next-80B-A3B-Instruct", "--tensor-parallel-size", "4"]', H100, gpus=4, tag="v0.33.0")
    r = run(tmp_path, "next.yaml", text)
    assert not diags(r, "VL802")
    (d,) = diags(r, "VL803")
    assert d.message == "no KV cache estimate for this hybrid model"
    assert d.notes[0].startswith("Qwen/Qwen3-Next-80B-A3B-Instruct is a hybrid (GDN layers")
    assert "`--model-config Qwen/Qwen3-Next-80B-A3B-Instruct=PATH/config.json`" in d.notes[0]
    assert r.src.text[d.span.start : d.span.end] == "Qwen/Qwen3-Next-80B-A3B-Instruct"


def test_hybrid_with_n_but_no_weight_size_says_so(tmp_path):
    # the shipped config table gives N (Qwen3.6-27B on one H100, bf16: 832 in 0.33), the
    # models table records no parameter count: the pool cannot be predicted
    text = deployment('["Qwen/Qwen3.6-27B", "--max-model-len", "32768"]', H100, tag="v0.33.0")
    (d,) = diags(run(tmp_path, "q.yaml", text), "VL803")
    assert d.message == "no KV cache estimate for this hybrid model"
    assert d.notes[0].startswith("N = ") and "the size of its weights is not known" in d.notes[0]
    from linter import hybrid_block as hb
    from rules._lib import hybrid_facts as hf

    config = hf.shipped_configs()["Qwen/Qwen3.6-27B"][0]
    n = hb.block_size(config, Version("0.33.0"), hb.Deployment(tp=1, kv_cache_dtype="auto", mamba_cache_mode="align", gdn_prefill="flashinfer")).n
    assert f"N = {n} for Qwen/Qwen3.6-27B" in d.notes[0]


def test_no_gpu_known_stays_silent(tmp_path):
    text = deployment('["Qwen/Qwen3-Next-80B-A3B-Instruct"]', "app: llm", tag="v0.33.0")
    assert not diags(run(tmp_path, "next.yaml", text), "VL803")


def test_dense_concurrency_calls_the_constant_a_floor(tmp_path):
    text = deployment('["Qwen/Qwen3-8B", "--max-model-len", "32768"]', H100, tag="v0.32.0")
    (info,) = diags(run(tmp_path, "q8.yaml", text), "VL803")
    assert f"counted as a {preflight.OVERHEAD_GIB:g} GiB floor" in full(info) and "determine_available_memory" in full(info)
    assert "(a floor)" in full(info)
