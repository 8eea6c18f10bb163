from tests.rules.hybrid_helpers import MP, hits, lint, pod

CODE = "VL406"


def test_shell_missing_both(tmp_path):
    r = lint(tmp_path, "serve.sh", "lmcache server --chunk-size 256 &\nvllm serve Qwen/Qwen3-8B\n", "shell")
    assert hits(r, CODE) == [
        (
            "error",
            "lmcache server",
            "`lmcache server` without `--l1-size-gb` and `--eviction-policy`: lmcache 0.4.7 to 0.5.5 reject the start "
            "and 0.5.6 fails at startup unless `--l1-manager` is given; add `--l1-size-gb` and `--eviction-policy`",
        )
    ]


def test_shell_complete_or_manager(tmp_path):
    script = (
        "lmcache server --l1-size-gb 20 --eviction-policy LRU &\n"
        "lmcache server --l1-manager '{\"type\": \"default\"}' &\n"
        "python -m lmcache.v1.multiprocess.http_server --l1-size-gb=20 --eviction-policy=LRU &\n"
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)


def test_pod_by_lmcache_release(tmp_path):
    vllm_args = ["Qwen/Qwen3.6-27B", "--kv-transfer-config", MP]
    [(sev, at, msg)] = hits(lint(tmp_path, "a.yaml", pod(["--l1-size-gb", "20"], vllm_args, lmcache_image="lmcache/standalone:0.5.5"), "yaml"), CODE)
    assert (sev, at) == ("error", "'lmcache', 'server'")
    assert msg == "`lmcache server` without `--eviction-policy`: lmcache 0.5.5 declares both required and rejects the start; add `--eviction-policy`"
    [(sev, _, msg)] = hits(lint(tmp_path, "b.yaml", pod([], vllm_args, lmcache_image="lmcache/standalone:0.5.6"), "yaml"), CODE)
    assert "lmcache 0.5.6 fails at startup (\"Legacy L1 configuration requires --l1-size-gb and --eviction-policy\")" in msg
    # --l1-manager is new in 0.5.6
    assert not hits(lint(tmp_path, "c.yaml", pod(["--l1-manager", "{}"], vllm_args, lmcache_image="lmcache/standalone:0.5.6"), "yaml"), CODE)
    found = hits(lint(tmp_path, "d.yaml", pod(["--l1-manager", "{}"], vllm_args, lmcache_image="lmcache/standalone:0.5.5"), "yaml"), CODE)
    assert [(s, t) for s, t, _ in found] == [("error", "'lmcache', 'server'"), ("error", "'--l1-manager'")]
    assert found[1][2] == "lmcache 0.5.5 has no `--l1-manager` (new in lmcache 0.5.6): use `--l1-size-gb` and `--eviction-policy`"


def test_compose(tmp_path):
    text = "services:\n  lmcache:\n    image: lmcache/standalone:0.5.4\n    command: lmcache server --chunk-size 784\n"
    [(sev, at, _)] = hits(lint(tmp_path, "compose.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("error", "lmcache server")


def test_any_vllm_release(tmp_path):
    # LMCache's own check: it does not depend on the vLLM release.
    for target in ("0.28.0", "0.33.0"):
        assert hits(lint(tmp_path, f"s{target}.sh", "lmcache server --chunk-size 256\n", "shell", target=target), CODE)


def test_silent_on_opaque(tmp_path):
    script = "lmcache server --chunk-size 256 $LMCACHE_ARGS &\nlmcache server \"${ARGS[@]}\" &\n"
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)


def test_python_subprocess(tmp_path):
    text = 'import subprocess\nsubprocess.run(["lmcache", "server", "--chunk-size", "784", "--l1-size-gb", "20"])\n'
    [(sev, at, msg)] = hits(lint(tmp_path, "launch.py", text, "python"), CODE)
    assert (sev, at) == ("error", '"lmcache", "server"')
    assert msg.startswith("`lmcache server` without `--eviction-policy`")
