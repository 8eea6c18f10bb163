from tests.rules.hybrid_helpers import BEFORE_FIRST, L1, MP, hits, lint, pod

CODE = "VL405"


def test_shell_missing(tmp_path):
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert hits(lint(tmp_path, "serve.sh", script, "shell"), CODE) == [
        (
            "warning",
            "lmcache server",
            "this `lmcache server` serves Qwen/Qwen3.6-27B (a hybrid model) without `--separate-object-groups`, "
            "which lmcache 0.5.3 and later leaves off by default: add `--separate-object-groups`",
        )
    ]


def test_shell_present(tmp_path):
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU --separate-object-groups &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)


def test_pod_turned_off(tmp_path):
    text = pod(["--chunk-size", "784", *L1, "--no-separate-object-groups"], ["Qwen/Qwen3.6-27B", "--kv-transfer-config", MP])
    [(sev, at, msg)] = hits(lint(tmp_path, "pod.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("warning", "'--no-separate-object-groups'")
    assert msg.startswith("`--no-separate-object-groups` with Qwen/Qwen3.6-27B")


def test_pod_lmcache_versions(tmp_path):
    vllm_args = ["Qwen/Qwen3.6-27B", "--kv-transfer-config", MP]
    # on by default in 0.5.1 and 0.5.2
    assert not hits(lint(tmp_path, "a.yaml", pod(["--chunk-size", "784", *L1], vllm_args, lmcache_image="lmcache/standalone:0.5.2"), "yaml"), CODE)
    [(sev, _, msg)] = hits(lint(tmp_path, "b.yaml", pod(["--chunk-size", "784", *L1], vllm_args, lmcache_image="lmcache/standalone:0.5.3"), "yaml"), CODE)
    assert sev == "warning" and "which lmcache 0.5.3 leaves off by default" in msg
    # 0.5.0 has no such option
    text = pod(["--chunk-size", "784", *L1, "--separate-object-groups"], vllm_args, lmcache_image="lmcache/standalone:0.5.0")
    [(sev, at, msg)] = hits(lint(tmp_path, "c.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("error", "'--separate-object-groups'")
    assert msg.startswith("lmcache 0.5.0 has no `--separate-object-groups` (it exists from lmcache 0.5.1)")


def test_compose(tmp_path):
    text = (
        "services:\n  lmcache:\n    image: lmcache/standalone:0.5.6\n    command: lmcache server --chunk-size 544 --l1-size-gb 20 --eviction-policy LRU\n"
        "  vllm:\n    image: vllm/vllm-openai:v0.32.0\n"
        "    command: Qwen/Qwen3.5-0.8B --kv-transfer-config.kv_connector LMCacheMPConnector\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "compose.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("warning", "lmcache server")
    assert "which lmcache 0.5.6 leaves off by default" in msg


def test_release_edges(tmp_path):
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert hits(lint(tmp_path, "b.sh", script, "shell", target="0.33.0"), CODE)
    assert hits(lint(tmp_path, "c.sh", script, "shell", target="0.28.0"), CODE)
    assert not hits(lint(tmp_path, "e.sh", script, "shell", target=BEFORE_FIRST), CODE)


def test_silent(tmp_path):
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU $EXTRA &\n"  # may hold the flag
        f"vllm serve Qwen/Qwen3.6-27B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "a.sh", script, "shell"), CODE)
    script = (
        "lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU &\n"
        f"vllm serve $MODEL --kv-transfer-config '{MP}'\n"
        f"vllm serve Qwen/Qwen3-8B --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "b.sh", script, "shell"), CODE)
    helm = pod(["--chunk-size", "784", *L1], ["{{ .Values.model }}", "--kv-transfer-config", MP])
    assert not hits(lint(tmp_path, "pod.yaml", helm, "yaml"), CODE)


def test_only_lmcache_server_images_give_the_release(tmp_path):
    # `lmcache/vllm-openai:v0.3.9` names no LMCache release the rules can rely on: treated as unknown (current).
    text = pod(["--chunk-size", "784", *L1], ["Qwen/Qwen3.6-27B", "--kv-transfer-config", MP],
               lmcache_image="lmcache/vllm-openai:v0.3.9", vllm_image="lmcache/vllm-openai:v0.3.9")
    [(sev, _, msg)] = hits(lint(tmp_path, "pod.yaml", text, "yaml"), CODE)
    assert sev == "warning" and "which lmcache 0.5.3 and later leaves off by default" in msg


def test_python_subprocess(tmp_path):
    text = (
        "import subprocess\nfrom vllm import LLM\n\n"
        'subprocess.Popen(["lmcache", "server", "--chunk-size", "784", "--l1-size-gb", "20", "--eviction-policy", "LRU"])\n'
        'llm = LLM(model="Qwen/Qwen3.6-27B", kv_transfer_config={"kv_connector": "LMCacheMPConnector"})\n'
    )
    [(sev, at, _)] = hits(lint(tmp_path, "launch.py", text, "python"), CODE)
    assert (sev, at) == ("warning", '"lmcache", "server"')
