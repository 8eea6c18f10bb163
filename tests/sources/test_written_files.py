"""Heredoc bodies a script writes to X.yaml/X.json: read as YAML in place, and as the --config file of the launch naming them."""

from __future__ import annotations

from pathlib import Path

from linter.engine import extract
from linter.source_file import SourceFile
from tests.rules.lint_helpers import codes, fixed, flagged, have, lint
from tests.sources.token_checks import check_launch, values

SERVE = """#!/usr/bin/env bash
set -euo pipefail
OUT_DIR=/srv/vllm
CFG="$OUT_DIR/engine.yaml"
mkdir -p "$OUT_DIR"
cat > "$CFG" <<'YAML'
# engine settings for the chat pool
max-model-len: 16384
max-num-seq: 128
enable-prefix-caching: true
YAML
vllm serve Qwen/Qwen3-8B --config "$CFG" --port 8000 &
vllm serve Qwen/Qwen3-8B --config /srv/vllm/engine.yaml --port 8001 &
vllm serve Qwen/Qwen3-0.6B --swap-space 4 --port 8002
wait
"""


def _settings(launch):
    return [(s.name.value, s.value.value if s.value is not None else None) for s in launch.settings]


def test_body_is_the_config_of_the_launches_naming_it() -> None:
    src = SourceFile.from_text("serve.sh", SERVE)
    ex = extract(src, "shell")
    for launch in ex.launches:
        check_launch(src, launch)
    serves = [l for l in ex.launches if l.entrypoint == "vllm serve"]
    configs = [l for l in ex.launches if l.kind == "vllm-config"]
    assert [values(l.args[:1]) for l in serves] == [["Qwen/Qwen3-8B"], ["Qwen/Qwen3-8B"], ["Qwen/Qwen3-0.6B"]]
    assert len(configs) == 1  # one body, linted once, however many launches name it
    body = configs[0]
    assert serves[0].config is body and serves[1].config is body and serves[2].config is None
    assert _settings(body) == [("max-model-len", "16384"), ("max-num-seq", "128"), ("enable-prefix-caching", "true")]
    name = body.settings[1].name
    assert SERVE[name.span.start : name.span.end] == "max-num-seq"
    assert SERVE.index("max-num-seq") == name.value_start
    assert body.strong and "candidate" not in body.notes and "line 12" in body.evidence


def test_config_body_is_linted_at_its_characters(tmp_path: Path) -> None:
    result = lint(tmp_path, "serve.sh", SERVE, "shell", target="0.32")
    assert flagged(result, "VL201") == ["max-num-seq"]  # once, not once per launch naming it
    assert flagged(result, "VL101") == ["--swap-space"]  # the plain launch beside it
    if have("0.32.0"):
        out = fixed(tmp_path, "serve.sh", SERVE, "shell", "0.32")
        assert out == SERVE.replace("max-num-seq: 128", "max-num-seqs: 128")


def test_crlf_unquoted_body_expansions_are_unknown(tmp_path: Path) -> None:
    text = (
        "MAX_LEN=${MAX_LEN:-8192}\r\n"
        "cat <<EOF > ./run/cfg.yaml\r\n"
        "max-model-len: $MAX_LEN\r\n"
        "gpu-memory-utilization: $(cat /etc/gpu-frac)\r\n"
        "served-model-name: \\$literal\r\n"
        "swap-space: 8\r\n"
        "EOF\r\n"
        "exec vllm serve meta-llama/Llama-3.1-8B-Instruct --config run/cfg.yaml\r\n"
    )
    src = SourceFile.from_text("start.sh", text)
    ex = extract(src, "shell")
    (cfg,) = [l for l in ex.launches if l.kind == "vllm-config"]
    serve = next(l for l in ex.launches if l.entrypoint == "vllm serve")
    assert serve.config is cfg
    by_name = {s.name.value: s for s in cfg.settings}
    assert by_name["max-model-len"].value.is_opaque and by_name["gpu-memory-utilization"].value.is_opaque
    assert by_name["served-model-name"].value.opaque_in(0, 2)  # ``\$`` writes ``$``: not the text as it stands
    swap = by_name["swap-space"]
    assert not swap.value.is_opaque and text[swap.name.span.start : swap.value.span.end] == "swap-space: 8"
    result = lint(tmp_path, "start.sh", text, "shell", target="0.32")
    assert flagged(result, "VL101") == ["swap-space"]
    assert "VL301" not in codes(result) and "VL302" not in codes(result)  # no value is judged from ``$MAX_LEN``


def test_dashed_heredoc_in_a_function() -> None:
    text = (
        "start_server() {\n"
        "\tcat <<-'END' >\"${WORKDIR}/vllm.yml\"\n"
        "\t\tmax-model-len: 4096\n"
        "\t\ttensor-parallel-size: 2\n"
        "\tEND\n"
        "\tvllm serve mistralai/Mistral-7B-Instruct-v0.3 --config \"${WORKDIR}/vllm.yml\"\n"
        "}\n"
        "start_server\n"
    )
    src = SourceFile.from_text("fn.sh", text)
    ex = extract(src, "shell")
    (cfg,) = [l for l in ex.launches if l.kind == "vllm-config"]
    check_launch(src, cfg)
    assert _settings(cfg) == [("max-model-len", "4096"), ("tensor-parallel-size", "2")]
    tp = cfg.settings[1].value
    assert text[tp.span.start : tp.span.end] == "2" and text.index("tensor-parallel-size: 2") + len("tensor-parallel-size: ") == tp.span.start


def test_manifest_read_by_kubectl_from_stdin() -> None:
    text = (
        "kubectl create namespace llm || true\n"
        "cat <<EOF | kubectl apply -n llm -f -\n"
        "apiVersion: apps/v1\n"
        "kind: Deployment\n"
        "metadata: {name: chat}\n"
        "spec:\n"
        "  template:\n"
        "    spec:\n"
        "      containers:\n"
        "        - name: engine\n"
        "          image: vllm/vllm-openai:v0.30.1\n"
        "          args: [\"${MODEL}\", \"--max-model-len\", \"8192\", \"--swap-space\", \"4\"]\n"
        "EOF\n"
        "kubectl apply --filename=- <<'EOF'\n"
        "apiVersion: v1\n"
        "kind: Pod\n"
        "metadata: {name: smoke}\n"
        "spec:\n"
        "  containers:\n"
        "    - name: engine\n"
        "      image: vllm/vllm-openai:v0.31.0\n"
        "      command: [vllm, serve, Qwen/Qwen3-0.6B, --enforce-eager]\n"
        "EOF\n"
        "kubectl apply -f - <<EOF\n"  # the grammar drops this ``-`` from the command's words
        "apiVersion: v1\n"
        "kind: Pod\n"
        "metadata: {name: third}\n"
        "spec:\n"
        "  containers:\n"
        "    - name: engine\n"
        "      image: vllm/vllm-openai:v0.31.0\n"
        "      args: [Qwen/Qwen3-8B, --max-num-seqs, \"8\"]\n"
        "EOF\n"
        "vllm serve Qwen/Qwen3-0.6B --port 9000\n"
    )
    src = SourceFile.from_text("deploy.sh", text)
    ex = extract(src, "shell")
    for launch in ex.launches:
        check_launch(src, launch)
    found = sorted((l.span.start, l.kind, l.args[0].value) for l in ex.launches)
    assert [(k, a) for _, k, a in found] == [("k8s", "${MODEL}"), ("k8s", "Qwen/Qwen3-0.6B"), ("k8s", "Qwen/Qwen3-8B"), ("shell", "Qwen/Qwen3-0.6B")]
    deploy = min(ex.launches, key=lambda l: l.span.start)
    assert deploy.args[0].is_opaque  # ``${MODEL}`` expands in an unquoted heredoc
    assert text[deploy.version_hint.span.start : deploy.version_hint.span.end] == "v0.30.1"


def test_bodies_that_are_not_config_files() -> None:
    text = (
        "cat >> cfg.yaml <<'EOF'\n"  # appended: only part of the file
        "max-model-len: 4096\n"
        "swap-space: 4\n"
        "EOF\n"
        "cat > other.yaml <<'EOF'\n"
        "max-model-len: 4096\n"
        "swap-space: 4\n"
        "EOF\n"
        "cat <<'EOF'\n"  # printed to the terminal
        "max-model-len: 4096\n"
        "EOF\n"
        "vllm serve m --config cfg.yaml --port 8000\n"
    )
    src = SourceFile.from_text("note.sh", text)
    ex = extract(src, "shell")
    serve = next(l for l in ex.launches if l.entrypoint == "vllm serve")
    assert serve.config is None
    others = [l for l in ex.launches if l is not serve]
    # other.yaml is named by nothing: a config candidate, weak, as a YAML file of those keys is
    assert len(others) == 1 and "candidate" in others[0].notes
    assert text[others[0].span.start :].startswith("max-model-len: 4096\nswap-space: 4\nEOF\ncat <<")


def test_a_body_written_to_a_json_or_toml_file_is_no_config_candidate(tmp_path: Path) -> None:
    """A deploy helper writes its own settings (``vllm_config.json``) with keys like vLLM's
    options and hands them to its own program: vLLM takes only YAML files as ``--config``
    (0.33.0 argparse_utils.py L633-637), so the body is no vLLM config and gets no finding.
    The same keys written to a ``.yaml`` file named by nothing stay a weak candidate."""
    text = (
        "#!/usr/bin/env bash\n"
        'DIR="${DEPLOY_DIR:-/opt/deploy}"\n'
        'cat > "$DIR/vllm_config.json" <<EOF\n'
        '{"max_model_len": 2048, "quantization": null, "tensor_parallel_size": 2, "dtype": "auto"}\n'
        "EOF\n"
        'cat > "$DIR/engine.toml" <<EOF\n'
        "max_model_len = 2048\n"
        "EOF\n"
        'cat > "$DIR/engine.yaml" <<EOF\n'
        "max-model-len: 2048\nquantization: null\ntensor-parallel-size: 2\n"
        "EOF\n"
        'python3 deploy.py --settings "$DIR/vllm_config.json"\n'
    )
    ex = extract(SourceFile.from_text("deploy.sh", text), "shell")
    assert [(l.entrypoint, text[l.span.start : l.span.start + 15]) for l in ex.launches] == [("config", "max-model-len: ")]
    assert codes(lint(tmp_path, "deploy.sh", text.replace('cat > "$DIR/engine.yaml"', 'cat > "$DIR/engine.ini"'), "shell")) == []
