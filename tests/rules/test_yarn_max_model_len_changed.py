from tests.rules.hybrid_helpers import hits, lint

CODE = "VL502"
YARN = '{"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'


def test_shell_override_with_pin(tmp_path):
    script = f"pip install vllm==0.29.0\nvllm serve Qwen/Qwen3-8B --hf-overrides '{YARN}'\n"
    [(sev, at, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    assert sev == "warning"
    assert at.startswith("--hf-overrides '{") and "yarn" in at
    assert msg == (
        "`--hf-overrides` sets YaRN RoPE scaling and no `--max-model-len` is set; vLLM 0.32.0 derives the length differently "
        "from the pinned 0.29.0: 131,072 tokens on 0.29.0, 40,960 on 0.32.0; set `--max-model-len` or check the served length"
    )


def test_dotted_override(tmp_path):
    script = (
        "pip install vllm==0.29.0\n"
        "vllm serve Qwen/Qwen3-8B --hf-overrides.rope_parameters.rope_type yarn --hf-overrides.rope_parameters.factor 4.0 "
        "--hf-overrides.rope_parameters.original_max_position_embeddings 32768\n"
    )
    [(sev, _, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    assert sev == "warning" and "131,072 tokens on 0.29.0, 40,960 on 0.32.0" in msg


def test_kubernetes_known_model(tmp_path):
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: telechat\nspec:\n  containers:\n"
        "    - name: vllm\n      image: vllm/vllm-openai:v0.29.0\n      args: ['Tele-AI/TeleChat3-36B-Thinking', '--port', '8000']\n"
    )
    [(sev, at, msg)] = hits(lint(tmp_path, "pod.yaml", text, "yaml"), CODE)
    assert (sev, at) == ("warning", "Tele-AI/TeleChat3-36B-Thinking")
    assert msg.startswith("Tele-AI/TeleChat3-36B-Thinking uses YaRN RoPE scaling and no `--max-model-len` is set")
    assert "131,072 tokens on 0.29.0, 32,768 on 0.32.0" in msg


def test_compose(tmp_path):
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.28.0\n"
        "    command: sarvamai/sarvam-105b --tensor-parallel-size 8\n"
    )
    [(sev, _, msg)] = hits(lint(tmp_path, "compose.yaml", text, "yaml"), CODE)
    assert sev == "warning" and "5,242,880 tokens on 0.28.0, 131,072 on 0.32.0" in msg


def test_release_edges(tmp_path):
    script = f"pip install vllm==0.29.0\nvllm serve Qwen/Qwen3-8B --hf-overrides '{YARN}'\n"
    assert hits(lint(tmp_path, "a.sh", script, "shell", target="0.30.0"), CODE)
    assert hits(lint(tmp_path, "b.sh", script, "shell", target="0.33.0"), CODE)
    # no upgrade across 0.30: the pin is already 0.30, or the target is before 0.30
    assert not hits(lint(tmp_path, "c.sh", script.replace("0.29.0", "0.30.0"), "shell", target="0.33.0"), CODE)
    assert not hits(lint(tmp_path, "d.sh", script, "shell", target="0.29.0"), CODE)


def test_python_has_no_pin(tmp_path):
    # Python files carry no vLLM pin, so no upgrade is known: silent.
    text = (
        "from vllm import LLM\n"
        'llm = LLM(model="Qwen/Qwen3-8B", hf_overrides={"rope_scaling": {"rope_type": "yarn", "factor": 4.0, '
        '"original_max_position_embeddings": 32768}})\n'
    )
    assert not hits(lint(tmp_path, "app.py", text, "python"), CODE)


def test_silent(tmp_path):
    script = (
        "pip install vllm==0.29.0\n"
        f"vllm serve Qwen/Qwen3-8B --hf-overrides '{YARN}' --max-model-len 40960\n"  # set on purpose
        "vllm serve Qwen/Qwen3-8B --hf-overrides \"$OVERRIDES\"\n"  # opaque
        "vllm serve $MODEL --port 8000\n"  # opaque model
        "vllm serve Qwen/Qwen3.6-27B\n"  # no YaRN
        # same length either way: original x factor == max_position_embeddings
        "vllm serve Qwen/Qwen3-8B --hf-overrides '{\"max_position_embeddings\": 131072, \"rope_scaling\": "
        "{\"rope_type\": \"yarn\", \"factor\": 4.0, \"original_max_position_embeddings\": 32768}}'\n"
    )
    assert not hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)


def test_older_pin_gets_no_old_number(tmp_path):
    script = f"pip install vllm==0.10.0\nvllm serve Qwen/Qwen3-8B --hf-overrides '{YARN}'\n"
    [(sev, _, msg)] = hits(lint(tmp_path, "serve.sh", script, "shell"), CODE)
    assert sev == "warning" and "from the pinned 0.10.0" in msg and "tokens on" not in msg
