"""vLLM's default --max-num-batched-tokens (linter/batch_defaults.py) and its use by VL403."""

import pytest
from packaging.version import Version

from linter import batch_defaults as bd
from tests.rules.hybrid_helpers import MP, hits, lint

H100 = bd.Gpu("H100 80GB", 81559 / 1024)
A100 = bd.Gpu("A100 80GB", 80.0)
B200 = bd.Gpu("B200", 179.0)
L4 = bd.Gpu("L4", 22.5)


@pytest.mark.parametrize("version", ["0.28.0", "0.30.0", "0.33.0"])
def test_tiers(version):
    v = Version(version)

    def one(**kw):
        [d] = bd.batched_tokens(v, **kw)
        return d.value

    assert one(usage="serve", gpu=H100) == 8192
    assert one(usage="llm", gpu=H100) == 16384
    assert one(usage="serve", gpu=A100) == 2048  # PR #17885: A100 stays on the small tier
    assert one(usage="serve", gpu=B200) == 16384
    assert one(usage="serve", gpu=L4) == 2048
    assert one(usage=None, gpu=H100) == 2048  # EngineArgs: no usage context, SchedulerConfig's default
    assert one(usage="serve", gpu=H100, batched_dp_moe=True) == 256
    assert one(usage="serve", gpu=H100, throughput=True) == 16384
    # capped at max_num_seqs * max_model_len
    assert one(usage="serve", gpu=H100, max_model_len=1024, max_num_seqs=2) == 2048
    assert [d.value for d in bd.batched_tokens(v, usage="serve")] == [16384, 8192, 2048]


def test_batched_dp_condition():
    v = Version("0.33.0")
    assert bd.uses_batched_dp_moe(v, all2all_backend="deepep_low_latency", expert_parallel=True, data_parallel_size=2)
    assert not bd.uses_batched_dp_moe(v, all2all_backend="deepep_low_latency", expert_parallel=True, data_parallel_size=1)
    assert not bd.uses_batched_dp_moe(v, all2all_backend="allgather_reducescatter", expert_parallel=True, data_parallel_size=4)


def test_vl403_batched_dp_default_is_below_n(tmp_path):
    script = (
        "vllm serve Qwen/Qwen3.6-27B --data-parallel-size 2 --enable-expert-parallel "
        f"--all2all-backend deepep_low_latency --kv-transfer-config '{MP}'\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), "VL403")
    assert (sev, at) == ("error", "Qwen/Qwen3.6-27B")
    assert msg.startswith("without `--max-num-batched-tokens`, vLLM 0.32.0 batches 256 tokens (")
    assert "batched data-parallel MoE: 256" in msg and "N = 784" in msg


def test_vl403_small_max_model_len_caps_the_default(tmp_path):
    script = f"vllm serve Qwen/Qwen3.6-27B --max-model-len 512 --max-num-seqs 1 --kv-transfer-config '{MP}'\n"
    [(sev, at, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), "VL403")
    assert (sev, at) == ("error", "Qwen/Qwen3.6-27B")
    assert "batches 512 tokens" in msg and "capped at max_num_seqs 1 x max_model_len 512 = 512" in msg


def test_vl403_default_is_fine_on_current_lmcache(tmp_path):
    script = f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), "VL403")


def test_vl403_h100_default_with_lmcache_053(tmp_path):
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: q\nspec:\n"
        "  nodeSelector:\n    nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\n  containers:\n"
        "    - name: lmcache\n      image: lmcache/standalone:0.5.3\n      command: ['lmcache', 'server']\n"
        "      args: ['--chunk-size', '784', '--l1-size-gb', '20', '--eviction-policy', 'LRU']\n"
        "    - name: vllm\n      image: vllm/vllm-openai:v0.32.0\n"
        f"      args: ['Qwen/Qwen3.6-27B', '--kv-transfer-config', '{MP}']\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "pod.yaml", text, "yaml"), "VL403")
    assert (sev, at) == ("error", "Qwen/Qwen3.6-27B")
    assert "batches at least 8192 tokens on H100 80GB" in msg and "lmcache 0.5.3 rejects" in msg
