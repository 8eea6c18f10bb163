from tests.rules.hybrid_helpers import BEFORE_FIRST, L1, MP, hits, lint, pod

CODE = "VL403"


def test_shell_below_n(tmp_path):
    r = lint(tmp_path, "serve.sh", f"vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens 512 --kv-transfer-config '{MP}'\n", "shell")
    [(sev, at, msg)] = hits(r, CODE)
    assert (sev, at) == ("error", "512")
    assert msg == (
        "`--max-num-batched-tokens 512` is below LMCache's block size N = 784 for Qwen/Qwen3.6-27B on vLLM 0.32.0; "
        "LMCache's connector raises at startup: set `--max-num-batched-tokens 784` or more "
        "(N computed as vLLM's _align_hybrid_block_size does from the shipped config table (rules/data/hybrid_configs.yaml): "
        "4096 B of attention page per token, 3207168 B of state per Mamba layer, N = 16 x ceil(3207168 / (16 x 4096)) = 784)"
    )


def test_shell_at_n_and_above(tmp_path):
    script = (
        f"vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens 784 --kv-transfer-config '{MP}'\n"
        f"vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens=8192 --kv-transfer-config '{MP}'\n"
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)


def test_pod_lmcache_053_upper_bound(tmp_path):
    text = pod(["--chunk-size", "784", *L1], ["Qwen/Qwen3.6-27B", "--max-num-batched-tokens", "2048", "--kv-transfer-config", MP],
               lmcache_image="lmcache/standalone:0.5.3")
    [(sev, at, msg)] = hits(lint(tmp_path, "pod.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("error", "2048")
    assert msg.startswith(
        "lmcache 0.5.3 rejects `--max-num-batched-tokens 2048` for Qwen/Qwen3.6-27B: it must be below 2N = 1568 "
        "(N = 784 on vLLM 0.32.0, GPUs whose attention kernels use blocks of 16 (FlashAttention, FlashInfer, Triton)); "
        "set it to at most 1567 or use lmcache 0.5.4 or later (N computed"
    )
    # 0.5.4 checks only the lower bound
    newer = text.replace("lmcache/standalone:0.5.3", "lmcache/standalone:0.5.4")
    assert not hits(lint(tmp_path, "pod2.yaml", newer, "yaml"), CODE)


def test_pod_lmcache_053_default_budget(tmp_path):
    text = pod(["--chunk-size", "784", *L1], ["Qwen/Qwen3.6-27B", "--kv-transfer-config", MP], lmcache_image="lmcache/standalone:0.5.3")
    [(sev, at, msg)] = hits(lint(tmp_path, "pod.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("error", "Qwen/Qwen3.6-27B")
    assert msg.startswith("without `--max-num-batched-tokens`, vLLM 0.32.0 batches at least 2048 tokens on GPUs")
    assert "add `--max-num-batched-tokens 1567`" in msg


def test_compose_unknown_n_gives_the_log_line(tmp_path):
    text = (
        "services:\n  lmcache:\n    image: lmcache/standalone:0.5.6\n    command: lmcache server --chunk-size 784 --l1-size-gb 20 --eviction-policy LRU\n"
        "  vllm:\n    image: vllm/vllm-openai:v0.32.0\n"
        f"    command: Qwen/Qwen3-Next-80B-A3B-Instruct -tp 2 --max-num-batched-tokens 4096 --kv-transfer-config '{MP}'\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "compose.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("info", "4096")
    assert "N is not known here (no config.json of Qwen/Qwen3-Next-80B-A3B-Instruct is at hand" in msg
    assert "Setting attention block size to N tokens" in msg


def test_python_keyword(tmp_path):
    text = (
        "from vllm import LLM\n"
        'llm = LLM(model="Qwen/Qwen3.5-0.8B", max_num_batched_tokens=512,\n'
        '          kv_transfer_config={"kv_connector": "LMCacheMPConnector", "kv_role": "kv_both"})\n'
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "app.py", text, "python"), CODE)
    assert (sev, at) == ("error", "512")
    assert msg.startswith(
        "`max_num_batched_tokens=512` is below LMCache's block size N = 544 for Qwen/Qwen3.5-0.8B on vLLM 0.32.0; "
        "LMCache's connector raises at startup: set `max_num_batched_tokens=544` or more (N computed"
    )


def test_release_edges(tmp_path):
    script = f"vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens 512 --kv-transfer-config '{MP}'\n"
    assert hits(lint(tmp_path, "c.sh", script, "shell", target="0.28.0"), CODE)
    assert not hits(lint(tmp_path, "e.sh", script, "shell", target=BEFORE_FIRST), CODE)
    # 0.33 on H100/H200 rounds N up to 832: 800 passes on other GPUs only.
    r = lint(tmp_path, "b.sh", f"vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens 800 --kv-transfer-config '{MP}'\n", "shell", target="0.33.0")
    [(sev, at, msg)] = hits(r, CODE)
    assert (sev, at) == ("warning", "800")
    assert "N = 832 for Qwen/Qwen3.6-27B on vLLM 0.33.0 on H100/H200" in msg
    triton = f"vllm serve Qwen/Qwen3.6-27B --gdn-prefill-backend triton --max-num-batched-tokens 800 --kv-transfer-config '{MP}'\n"
    assert not hits(lint(tmp_path, "d.sh", triton, "shell", target="0.33.0"), CODE)


def test_silent_on_opaque(tmp_path):
    script = (
        f"vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens $MNBT --kv-transfer-config '{MP}'\n"
        f"vllm serve $MODEL --max-num-batched-tokens 512 --kv-transfer-config '{MP}'\n"
        f"vllm serve Qwen/Qwen3-8B --max-num-batched-tokens 512 --kv-transfer-config '{MP}'\n"
        "vllm serve Qwen/Qwen3.6-27B --max-num-batched-tokens 512 --kv-transfer-config \"$KV\"\n"
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    helm = pod(L1, ["{{ .Values.model }}", "--max-num-batched-tokens", "512", "--kv-transfer-config", MP])
    assert not hits(lint(tmp_path, "pod.yaml", helm, "yaml"), CODE)
    python = (
        "from vllm import LLM\n"
        'llm = LLM(model=model_name, max_num_batched_tokens=512, kv_transfer_config={"kv_connector": "LMCacheMPConnector"})\n'
        'llm = LLM(model="Qwen/Qwen3.6-27B", max_num_batched_tokens=budget, kv_transfer_config={"kv_connector": "LMCacheMPConnector"})\n'
    )
    assert not hits(lint(tmp_path, "app.py", python, "python"), CODE)
