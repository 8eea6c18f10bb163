from tests.rules.hybrid_helpers import BEFORE_FIRST, MP, V1, hits, lint, pod

CODE = "VL407"


def test_shell(tmp_path):
    r = lint(tmp_path, "serve.sh", f"vllm serve Qwen/Qwen3.6-27B --no-disable-hybrid-kv-cache-manager --kv-transfer-config '{MP}'\n", "shell")
    assert hits(r, CODE) == [
        (
            "info",
            "--no-disable-hybrid-kv-cache-manager",
            "`--no-disable-hybrid-kv-cache-manager` is unnecessary with `LMCacheMPConnector`: the connector supports the hybrid "
            "KV cache manager and vLLM 0.32.0 keeps it on by itself; remove it",
        )
    ]


def test_pod_and_compose(tmp_path):
    text = pod([], ["Qwen/Qwen3.6-27B", "--no-disable-hybrid-kv-cache-manager", "--kv-transfer-config", MP])
    assert [(s, t) for s, t, _ in hits(lint(tmp_path, "pod.yaml", text, "yaml"), CODE)] == [("info", "--no-disable-hybrid-kv-cache-manager")]
    compose = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.32.0\n"
        "    command: $MODEL --no-disable-hybrid-kv-cache-manager --kv-transfer-config.kv_connector LMCacheMPConnector\n"
    )
    assert [(s, t) for s, t, _ in hits(lint(tmp_path, "compose.yaml", compose, "yaml"), CODE)] == [("info", "--no-disable-hybrid-kv-cache-manager")]


def test_python_keyword(tmp_path):
    text = (
        "from vllm import LLM\n"
        'llm = LLM(model="Qwen/Qwen3.6-27B", disable_hybrid_kv_cache_manager=False,\n'
        '          kv_transfer_config={"kv_connector": "LMCacheMPConnector", "kv_role": "kv_both"})\n'
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "app.py", text, "python"), CODE)
    assert (sev, at) == ("info", "disable_hybrid_kv_cache_manager=False")
    assert msg.startswith("`disable_hybrid_kv_cache_manager=False` is unnecessary with `LMCacheMPConnector`")


def test_release_edges(tmp_path):
    script = f"vllm serve Qwen/Qwen3.6-27B --no-disable-hybrid-kv-cache-manager --kv-transfer-config '{MP}'\n"
    assert hits(lint(tmp_path, "b.sh", script, "shell", target="0.33.0"), CODE)
    assert hits(lint(tmp_path, "c.sh", script, "shell", target="0.28.0"), CODE)
    assert not hits(lint(tmp_path, "e.sh", script, "shell", target=BEFORE_FIRST), CODE)


def test_silent(tmp_path):
    script = (
        f"vllm serve Qwen/Qwen3.6-27B --no-disable-hybrid-kv-cache-manager --kv-transfer-config '{V1}'\n"
        "vllm serve Qwen/Qwen3.6-27B --no-disable-hybrid-kv-cache-manager --kv-transfer-config \"$KV\"\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    python = (
        "from vllm import LLM\n"
        'llm = LLM(model="Qwen/Qwen3.6-27B", disable_hybrid_kv_cache_manager=flag,\n'
        '          kv_transfer_config={"kv_connector": "LMCacheMPConnector"})\n'
    )
    assert not hits(lint(tmp_path, "app.py", python, "python"), CODE)
