from tests.rules.hybrid_helpers import BEFORE_FIRST, MP, hits, lint, pod

CODE = "VL402"


def test_shell_prefix_caching_off(tmp_path):
    r = lint(tmp_path, "serve.sh", f"vllm serve Qwen/Qwen3.6-27B --no-enable-prefix-caching --kv-transfer-config '{MP}'\n", "shell")
    assert hits(r, CODE) == [
        (
            "error",
            "--no-enable-prefix-caching",
            "`--no-enable-prefix-caching` turns prefix caching off, so vLLM 0.32.0 sets the Mamba cache mode to `none`; "
            "`LMCacheMPConnector` with Qwen/Qwen3.6-27B needs prefix caching and mode `align`: remove `--no-enable-prefix-caching`",
        )
    ]


def test_shell_chunked_prefill_off(tmp_path):
    r = lint(tmp_path, "serve.sh", f"vllm serve Qwen/Qwen3.6-27B --no-enable-chunked-prefill --kv-transfer-config '{MP}'\n", "shell")
    [(sev, at, msg)] = hits(r, CODE)
    assert (sev, at) == ("error", "--no-enable-chunked-prefill")
    assert "chunked prefill is required" in msg and "0.32.0" in msg


def test_kubernetes_pod(tmp_path):
    r = lint(tmp_path, "pod.yaml", pod(["--chunk-size", "784"], ["Qwen/Qwen3.6-27B", "--no-enable-prefix-caching", "--kv-transfer-config", MP]), "yaml")
    assert [(s, t) for s, t, _ in hits(r, CODE)] == [("error", "--no-enable-prefix-caching")]


def test_compose_dotted_connector(tmp_path):
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.32.0\n"
        "    command: Qwen/Qwen3.5-0.8B --kv-transfer-config.kv_connector LMCacheMPConnector --no-enable-prefix-caching\n"
    )
    r = lint(tmp_path, "compose.yaml", text, "yaml")
    assert [(s, t) for s, t, _ in hits(r, CODE)] == [("error", "--no-enable-prefix-caching")]


def test_python_keyword(tmp_path):
    text = (
        "from vllm import LLM\n"
        'llm = LLM(model="Qwen/Qwen3.6-27B", enable_prefix_caching=False,\n'
        '          kv_transfer_config={"kv_connector": "LMCacheMPConnector", "kv_role": "kv_both"})\n'
    )
    r = lint(tmp_path, "app.py", text, "python")
    [(sev, at, msg)] = hits(r, CODE)
    assert (sev, at) == ("error", "enable_prefix_caching=False")
    assert msg.startswith("`enable_prefix_caching=False` turns prefix caching off")


def test_all_mode_kept_for_models_with_all_support(tmp_path):
    # 0.28-0.31 keep `all` for Granite-4.0-H (supports_mamba_prefix_caching); LMCache needs `align`.
    script = f"vllm serve ibm-granite/granite-4.0-h-small --mamba-cache-mode all --kv-transfer-config '{MP}'\n"
    for target in ("0.28.0", "0.31.0"):
        r = lint(tmp_path, f"s{target}.sh", script, "shell", target=target)
        [(sev, at, msg)] = hits(r, CODE)
        assert (sev, at) == ("error", "all")
        assert f"vLLM {target} keeps the Mamba cache mode `all`" in msg and "use `--mamba-cache-mode align`" in msg
    # 0.32 rejects `all` as a choice (VL301 reports it), 0.33 ignores the option.
    for target in ("0.32.0", "0.33.0"):
        assert not hits(lint(tmp_path, f"t{target}.sh", script, "shell", target=target), CODE)


def test_release_edges(tmp_path):
    script = f"vllm serve Qwen/Qwen3.6-27B --no-enable-prefix-caching --kv-transfer-config '{MP}'\n"
    assert hits(lint(tmp_path, "b.sh", script, "shell", target="0.33.0"), CODE)
    assert hits(lint(tmp_path, "c.sh", script, "shell", target="0.28.0"), CODE)
    assert not hits(lint(tmp_path, "e.sh", script, "shell", target=BEFORE_FIRST), CODE)


def test_silent_where_vllm_ends_at_align(tmp_path):
    script = (
        # GDN models fall back from `all` to `align` by themselves (VL301 reports the value).
        f"vllm serve Qwen/Qwen3.6-27B --mamba-cache-mode all --kv-transfer-config '{MP}'\n"
        # `none` with prefix caching on becomes `align`.
        f"vllm serve Qwen/Qwen3.6-27B --mamba-cache-mode none --kv-transfer-config '{MP}'\n"
        f"vllm serve Qwen/Qwen3.6-27B --enable-prefix-caching --mamba-cache-mode align --kv-transfer-config '{MP}'\n"
        # opaque model, non-hybrid model, opaque connector
        f"vllm serve $MODEL --no-enable-prefix-caching --kv-transfer-config '{MP}'\n"
        f"vllm serve Qwen/Qwen3-8B --no-enable-prefix-caching --kv-transfer-config '{MP}'\n"
        "vllm serve Qwen/Qwen3.6-27B --no-enable-prefix-caching --kv-transfer-config \"$KV\"\n"
    )
    for target in ("0.31.0", "0.32.0"):
        assert not hits(lint(tmp_path, f"serve{target}.sh", script, "shell", target=target), CODE)
    python = (
        "from vllm import LLM\n"
        'llm = LLM(model="Qwen/Qwen3.6-27B", enable_prefix_caching=use_cache,\n'
        '          kv_transfer_config={"kv_connector": "LMCacheMPConnector"})\n'
    )
    assert not hits(lint(tmp_path, "app.py", python, "python"), CODE)
    helm = pod([], ["{{ .Values.model }}", "--no-enable-prefix-caching", "--kv-transfer-config", MP])
    assert not hits(lint(tmp_path, "pod.yaml", helm, "yaml"), CODE)


def test_vllm_config_file(tmp_path):
    text = (
        "model: Qwen/Qwen3.6-27B\n"
        "enable-prefix-caching: false\n"
        "kv-transfer-config:\n  kv_connector: LMCacheMPConnector\n  kv_role: kv_both\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "serve-config.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("error", "enable-prefix-caching: false")
    assert msg.startswith("`enable-prefix-caching: false` turns prefix caching off, so vLLM 0.32.0")
    # vLLM drops `enable_prefix_caching: false` (no `--no-enable_prefix_caching` option string): prefix caching stays on.
    dropped = text.replace("enable-prefix-caching: false", "enable_prefix_caching: false")
    assert not hits(lint(tmp_path, "dropped.yaml", dropped, "yaml"), CODE)
