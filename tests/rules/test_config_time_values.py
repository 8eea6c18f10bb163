"""VL106/VL107 on values vLLM checks while building its config, and platform choices.

The value sets come from the wheels (rules/data/value_sets.json, tools/extract_value_sets.py).
"""

from tests.rules.hybrid_helpers import hits, lint


def notes(result, code: str) -> str:
    """The note lines of the diagnostics with ``code`` (the value lists and sources live there)."""
    return " ".join(n for d in result.diagnostics if d.code == code for n in d.notes)


def test_kv_cache_dtype_fp9_on_033(tmp_path):
    r = lint(tmp_path, "serve.sh", "vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp9\n", "shell", target="0.33.0")
    [(sev, at, msg)] = hits(r, "VL106")
    assert (sev, at) == ("error", "fp9")
    assert msg.startswith("`fp9` is not a valid value for `--kv-cache-dtype` in vLLM 0.33.0: it parses, and the server fails at start-up")
    assert msg.endswith("pick a valid one")
    assert "vllm/config/cache.py L473" in notes(r, "VL106") and "fp8_e4m3" in notes(r, "VL106")


def test_kv_cache_dtype_valid_033_values_pass(tmp_path):
    script = "vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8_e4m3\nvllm serve Qwen/Qwen3-8B --kv-cache-dtype octave_k3v4\nvllm serve Qwen/Qwen3-8B --kv-cache-dtype $KV\n"
    assert not hits(lint(tmp_path, "serve.sh", script, "shell", target="0.33.0"), "VL106")


def test_unknown_quantization_python(tmp_path):
    text = 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", quantization="awq2")\n'
    r = lint(tmp_path, "app.py", text, "python", target="0.32.0")
    [(sev, at, msg)] = hits(r, "VL106")
    assert (sev, at) == ("error", '"awq2"') or (sev, at) == ("error", "awq2")
    assert msg.startswith("`awq2` is not a valid value for `quantization") and "gptq_marlin" in notes(r, "VL106")


def test_deprecated_quantization_needs_the_flag(tmp_path):
    script = (
        "vllm serve Qwen/Qwen3-8B --quantization fbgemm_fp8\n"
        "vllm serve Qwen/Qwen3-8B --quantization fbgemm_fp8 --allow-deprecated-quantization\n"
        "vllm serve Qwen/Qwen3-8B --quantization fp8\n"
    )
    found = hits(lint(tmp_path, "serve.sh", script, "shell", target="0.33.0"), "VL107")
    assert [(s, a) for s, a, _ in found] == [("error", "fbgemm_fp8"), ("warning", "fbgemm_fp8")]
    assert "refuses to start unless `--allow-deprecated-quantization` is given" in found[0][2]
    assert "will be removed" in found[1][2]


def test_deprecated_quantization_in_a_vllm_config(tmp_path):
    text = "model: Qwen/Qwen3-8B\nquantization: fp_quant\n"
    r = lint(tmp_path, "config.yaml", text, "vllm-config", target="0.31.0")
    [(sev, at, _)] = hits(r, "VL107")
    assert (sev, at) == ("error", "fp_quant")


def test_mm_processor_device_cuda_is_valid_on_gpu_hosts(tmp_path):
    script = "vllm serve Qwen/Qwen3-VL-8B-Instruct --mm-processor-device cuda\nvllm serve Qwen/Qwen3-VL-8B-Instruct --mm-processor-device gpu\n"
    r = lint(tmp_path, "serve.sh", script, "shell", target="0.32.0")
    [(sev, at, msg)] = hits(r, "VL106")
    assert (sev, at) == ("error", "gpu")
    assert msg.endswith("pick one of its choices") and "auto, cpu, cuda, xpu" in notes(r, "VL106")
