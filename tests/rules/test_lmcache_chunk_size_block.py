from tests.rules.hybrid_helpers import BEFORE_FIRST, L1, MP, hits, lint, pod

CODE = "VL404"


def test_shell_script(tmp_path):
    script = (
        "#!/bin/sh\n"
        "lmcache server --chunk-size 256 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    assert (sev, at) == ("error", "256")
    assert msg.startswith(
        "`--chunk-size 256` is not a multiple of LMCache's block size N = 784 for Qwen/Qwen3.6-27B on vLLM 0.32.0; "
        "the connector fails at startup: set `--chunk-size 784` (or a multiple) (N computed as vLLM's "
        "_align_hybrid_block_size does from the shipped config table"
    )


def test_shell_multiples_pass(tmp_path):
    script = (
        "lmcache server --chunk-size=1568 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)


def test_pod_default_chunk_size(tmp_path):
    r = lint(tmp_path, "pod.yaml", pod(L1, ["Qwen/Qwen3.5-0.8B", "--kv-transfer-config", MP]), "yaml")
    [(sev, at, msg)] = hits(r, CODE)
    assert (sev, at) == ("error", "'lmcache', 'server'")
    assert msg.startswith("the default `--chunk-size` 256 is not a multiple of LMCache's block size N = 544 for Qwen/Qwen3.5-0.8B")


def test_pod_right_chunk_size(tmp_path):
    r = lint(tmp_path, "pod.yaml", pod(["--chunk-size", "544", *L1], ["Qwen/Qwen3.5-0.8B", "--kv-transfer-config", MP]), "yaml")
    assert not hits(r, CODE)


def test_compose(tmp_path):
    text = (
        "services:\n  lmcache:\n    image: lmcache/standalone:0.5.6\n    command: lmcache server --chunk-size 800 --l1-size-gb 20 --eviction-policy LRU\n"
        "  vllm:\n    image: vllm/vllm-openai:v0.32.0\n"
        "    command: Qwen/Qwen3.5-0.8B --kv-transfer-config.kv_connector LMCacheMPConnector\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "compose.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("error", "800")
    assert "N = 544 for Qwen/Qwen3.5-0.8B on vLLM 0.32.0" in msg


def test_fp8_kv_cache_doubles_n(tmp_path):
    # fp8 halves the attention page per token: N = 16 x ceil(3207168 / (16 x 2048)) = 1568
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-cache-dtype fp8 --kv-transfer-config '{MP}'\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    assert (sev, at) == ("error", "784")
    assert "N = 1568" in msg and "2048 B of attention page per token" in msg


def test_unknown_n_gives_the_log_line(tmp_path):
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-cache-dtype turboquant_k8v4 --kv-transfer-config '{MP}'\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    assert (sev, at) == ("info", "784")
    assert "packed layout" in msg and "`Setting attention block size to N tokens" in msg


def test_release_edges(tmp_path):
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "a.sh", script, "shell", target="0.28.0"), CODE)
    assert hits(lint(tmp_path, "z.sh", script.replace("784", "256"), "shell", target="0.28.0"), CODE)
    assert not hits(lint(tmp_path, "y.sh", script.replace("784", "256"), "shell", target=BEFORE_FIRST), CODE)
    # 0.33 on H100/H200: FlashInfer GDN prefill makes N 832, so 784 fails there only.
    [(sev, at, msg)] = hits(lint(tmp_path, "b.sh", script, "shell", target="0.33.0"), CODE)
    assert (sev, at) == ("warning", "784")
    assert "N = 832 for Qwen/Qwen3.6-27B on vLLM 0.33.0 on H100/H200" in msg
    assert "add `--gdn-prefill-backend triton`" in msg
    triton = script.replace("--kv-transfer-config", "--gdn-prefill-backend triton --kv-transfer-config")
    assert not hits(lint(tmp_path, "c.sh", triton, "shell", target="0.33.0"), CODE)


def test_silent(tmp_path):
    script = (
        "lmcache server --chunk-size $CHUNK --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "opaque.sh", script, "shell"), CODE)
    script = (
        "lmcache server --chunk-size 256 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve $MODEL --kv-transfer-config '{MP}'\n"
        f"vllm serve Qwen/Qwen3-8B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "other.sh", script, "shell"), CODE)
    helm = pod(["--chunk-size", "256", *L1], ["{{ .Values.model }}", "--kv-transfer-config", MP])
    assert not hits(lint(tmp_path, "pod.yaml", helm, "yaml"), CODE)
    # an lmcache server in another pod of the same file is not this launch's server
    two = pod(["--chunk-size", "256", *L1], ["Qwen/Qwen3-8B"]) + "---\n" + pod(["--chunk-size", "784", *L1], ["Qwen/Qwen3.6-27B", "--kv-transfer-config", MP]).replace("name: qwen", "name: other")
    assert not hits(lint(tmp_path, "two.yaml", two, "yaml"), CODE)


def test_python_subprocess_server(tmp_path):
    text = (
        "import subprocess\nfrom vllm import LLM\n\n"
        'server = subprocess.Popen(["lmcache", "server", "--chunk-size", "256", "--l1-size-gb", "20", "--eviction-policy", "LRU"])\n'
        'llm = LLM(model="Qwen/Qwen3.6-27B", kv_transfer_config={"kv_connector": "LMCacheMPConnector", "kv_role": "kv_both"})\n'
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "launch.py", text, "python"), CODE)
    assert (sev, at) == ("error", "256")
    assert msg.startswith("`--chunk-size 256` is not a multiple of LMCache's block size N = 784 for Qwen/Qwen3.6-27B on vLLM 0.32.0")
    opaque = text.replace('model="Qwen/Qwen3.6-27B"', "model=model_name")
    assert not hits(lint(tmp_path, "opaque.py", opaque, "python"), CODE)
