from tests.rules.hybrid_helpers import BEFORE_FIRST, MP, V1, hits, lint, pod

CODE = "VL401"
MESSAGE = (
    "`--kv-transfer-config` selects `LMCacheConnectorV1`, which does not support hybrid models: vLLM 0.32.0 turns the hybrid "
    "KV cache manager off and Qwen/Qwen3.6-27B (GDN hybrid) fails at startup; use `LMCacheMPConnector` with an `lmcache server`"
)


def test_shell_json(tmp_path):
    r = lint(tmp_path, "serve.sh", f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{V1}'\n", "shell")
    assert hits(r, CODE) == [("error", V1, MESSAGE)]


def test_shell_dotted(tmp_path):
    r = lint(tmp_path, "serve.sh", "vllm serve Qwen/Qwen3.6-27B --kv-transfer-config.kv_connector LMCacheConnectorV1 --kv-transfer-config.kv_role kv_both\n", "shell")
    assert [(s, t) for s, t, _ in hits(r, CODE)] == [("error", "LMCacheConnectorV1")]


def test_kubernetes_pod(tmp_path):
    r = lint(tmp_path, "pod.yaml", pod(["--chunk-size", "784"], ["Qwen/Qwen3.6-27B", "--kv-transfer-config", V1]), "yaml")
    assert hits(r, CODE) == [("error", V1, MESSAGE)]


def test_compose(tmp_path):
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.32.0\n    command:\n      - ibm-granite/granite-4.0-h-small\n"
        f"      - --kv-transfer-config\n      - '{V1}'\n"
    )
    r = lint(tmp_path, "compose.yaml", text, "yaml")
    [(sev, text_at, msg)] = hits(r, CODE)
    assert (sev, text_at) == ("error", V1)
    assert "ibm-granite/granite-4.0-h-small (Mamba2 hybrid)" in msg


def test_python_llm(tmp_path):
    text = 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen3.5-0.8B", kv_transfer_config={"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_both"})\n'
    r = lint(tmp_path, "app.py", text, "python")
    [(sev, text_at, msg)] = hits(r, CODE)
    assert sev == "error" and "LMCacheConnectorV1" in text_at
    assert msg.startswith("`kv_transfer_config=` selects `LMCacheConnectorV1`")


def test_release_edges(tmp_path):
    script = f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{V1}'\n"
    assert hits(lint(tmp_path, "b.sh", script, "shell", target="0.33.0"), CODE)
    assert hits(lint(tmp_path, "c.sh", script, "shell", target="0.28.0"), CODE)
    assert not hits(lint(tmp_path, "e.sh", script, "shell", target=BEFORE_FIRST), CODE)


def test_silent(tmp_path):
    script = (
        f"vllm serve $MODEL --kv-transfer-config '{V1}'\n"  # opaque model
        f"vllm serve Qwen/Qwen3-8B --kv-transfer-config '{V1}'\n"  # not hybrid
        f"vllm serve some-org/unknown-model --kv-transfer-config '{V1}'\n"  # unknown: no guess
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"  # the MP connector is fine
        "vllm serve Qwen/Qwen3.6-27B --kv-transfer-config \"$KV_CONFIG\"\n"  # opaque config
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    helm = pod([], ["{{ .Values.model }}", "--kv-transfer-config", V1])
    assert not hits(lint(tmp_path, "pod.yaml", helm, "yaml"), CODE)
