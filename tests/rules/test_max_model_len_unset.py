from tests.rules.hybrid_helpers import hits, lint, pod

CODE = "VL501"
ON = frozenset({"VL501"})


def test_off_by_default(tmp_path):
    assert not hits(lint(tmp_path, "serve.sh", "vllm serve Qwen/Qwen3.6-27B\n", "shell"), CODE)


def test_shell(tmp_path):
    r = lint(tmp_path, "serve.sh", "vllm serve Qwen/Qwen3.6-27B --port 8000\n", "shell", extend=ON)
    assert hits(r, CODE) == [
        (
            "info",
            "Qwen/Qwen3.6-27B",
            "no `--max-model-len`: vLLM 0.32.0 serves the model's configured length (262,144 tokens for Qwen/Qwen3.6-27B); "
            "set `--max-model-len` on purpose",
        )
    ]


def test_unknown_model_has_no_number(tmp_path):
    [(_, at, msg)] = hits(lint(tmp_path, "serve.sh", "vllm serve some-org/some-model\n", "shell", extend=ON), CODE)
    assert at == "some-org/some-model"
    assert msg == "no `--max-model-len`: vLLM 0.32.0 serves the model's configured length; set `--max-model-len` on purpose"


def test_kubernetes_pod_and_compose(tmp_path):
    text = pod(["--l1-size-gb", "20", "--eviction-policy", "LRU"], ["Qwen/Qwen3-8B", "--port", "8000"])
    [(sev, at, msg)] = hits(lint(tmp_path, "pod.yaml", text, "yaml", extend=ON), CODE)
    assert (sev, at) == ("info", "Qwen/Qwen3-8B")
    assert "(40,960 tokens for Qwen/Qwen3-8B)" in msg
    compose = "services:\n  vllm:\n    image: vllm/vllm-openai:v0.32.0\n    command: Qwen/Qwen3-8B --max-model-len 32768\n"
    assert not hits(lint(tmp_path, "compose.yaml", compose, "yaml", extend=ON), CODE)


def test_python_keyword(tmp_path):
    text = 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B")\nok = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n'
    [(sev, at, msg)] = hits(lint(tmp_path, "app.py", text, "python", extend=ON), CODE)
    assert (sev, at) == ("info", '"Qwen/Qwen3-8B"') or (sev, at) == ("info", "Qwen/Qwen3-8B")
    assert msg.startswith("no `max_model_len=`: vLLM 0.32.0 serves the model's configured length (40,960 tokens")


def test_set_or_hidden(tmp_path):
    script = (
        "vllm serve Qwen/Qwen3-8B --max-model-len 32k\n"
        "vllm serve Qwen/Qwen3-8B --max-model-len=-1\n"
        "vllm serve Qwen/Qwen3-8B $EXTRA_ARGS\n"  # may hold it
        "vllm serve $MODEL\n"  # unquoted: may be several words
        "vllm serve Qwen/Qwen3-8B --config serve.yaml\n"  # may hold it
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell", extend=ON), CODE)


def test_all_releases(tmp_path):
    for target in ("0.28.0", "0.33.0"):
        [(_, at, _)] = hits(lint(tmp_path, f"s{target}.sh", 'vllm serve "$MODEL" --port 8000\n', "shell", target=target, extend=ON), CODE)
        assert at == "$MODEL"
