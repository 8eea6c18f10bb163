"""The rules that come from vLLM's own parser: abbreviations, one-element options, --config=, --model, ..."""

import pytest

from tests.rules.lint_helpers import codes, fixed, flagged, have, lint, only

pytestmark = pytest.mark.skipif(not have("0.29.0", "0.30.0", "0.32.0", "0.33.0"), reason="inventories not generated")

COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.32.0
    command: [{args}]
"""


def test_abbreviation_fix_keeps_equals_form(tmp_path):
    text = "vllm serve m --max-num-seq=64 --gpu-memory-util 0.9\n"
    r = lint(tmp_path, "a.sh", text, "shell", "0.32")
    assert flagged(r, "VL201") == ["--max-num-seq", "--gpu-memory-util"]
    assert fixed(tmp_path, "a.sh", text, "shell", "0.32") == "vllm serve m --max-num-seqs=64 --gpu-memory-utilization 0.9\n"


def test_abbreviation_in_a_compose_flow_list(tmp_path):
    text = COMPOSE.format(args='"m", "--max-num-seq", "64"')
    out = fixed(tmp_path, "compose.yaml", text, "yaml", "0.32")
    assert out == text.replace('"--max-num-seq"', '"--max-num-seqs"')


def test_enable_chunked_is_an_abbreviation_up_to_032_and_ambiguous_in_033(tmp_path):
    script = "vllm serve m --enable-chunked\n"
    assert codes(lint(tmp_path, "a.sh", script, "shell", "0.32")) == ["VL201"]
    d = only(lint(tmp_path, "a.sh", script, "shell", "0.33"), "VL202")
    assert d.message.endswith("write the option you mean in full") and "--enable-chunked-prefill" in d.notes[0]


def test_enable_mamba_ambiguous_from_030_with_the_pinned_meaning(tmp_path):
    text = "docker run --gpus all vllm/vllm-openai:v0.29.0 m --enable-mamba\n"
    assert codes(lint(tmp_path, "a.sh", text, "shell")) == ["VL201"]  # checked against the pin, 0.29
    r = lint(tmp_path, "a.sh", text, "shell", "0.30")
    d = only(r, "VL202")
    assert d.fix is not None and d.fix.applicability == "unsafe"
    assert "--enable-mamba-cache-stochastic-rounding" in d.fix.edits[0].content


def test_option_and_value_in_one_list_item(tmp_path):
    text = COMPOSE.format(args='"m", "--max-model-len 8192"')
    r = lint(tmp_path, "compose.yaml", text, "yaml", "0.32")
    assert flagged(r, "VL203") == ['"--max-model-len 8192"'] or flagged(r, "VL203") == ["--max-model-len 8192"]
    assert "VL209" not in codes(r)


def test_invalid_json_value(tmp_path):
    text = """vllm serve m --kv-transfer-config '{"kv_connector": LMCacheConnectorV1}'\n"""
    r = lint(tmp_path, "a.sh", text, "shell", "0.32")
    assert codes(r) == ["VL204"]


def test_duplicate_option_reports_the_second(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --max-model-len 8192 -tp 2 --max_model_len 4096\n", "shell", "0.32")
    assert flagged(r, "VL205") == ["--max_model_len"]


def test_config_equals_is_ignored_and_split_in_shell(tmp_path):
    text = "vllm serve m --config=/etc/vllm/serve.yaml\n"
    assert codes(lint(tmp_path, "a.sh", text, "shell", "0.32")) == ["VL206"]
    assert fixed(tmp_path, "a.sh", text, "shell", "0.32") == "vllm serve m --config /etc/vllm/serve.yaml\n"


def test_model_twice_is_an_error_and_model_alone_a_warning(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve Qwen/Qwen3-8B --model Qwen/Qwen3-8B\n", "shell", "0.32")
    d = only(r, "VL207")
    assert d.severity.value == "error"
    r = lint(tmp_path, "a.sh", "vllm serve --model Qwen/Qwen3-8B --port 8000\n", "shell", "0.32")
    assert only(r, "VL207").severity.value == "warning"


def test_negative_decimal_value(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --gpu-memory-utilization -0.5 --max-num-seqs 8\n", "shell", "0.32")
    assert "VL208" in codes(r)
    assert flagged(r, "VL208") == ["-0.5"]
    # with `=` the value stays attached and vLLM reads it fine
    assert "VL208" not in codes(lint(tmp_path, "a.sh", "vllm serve m --gpu-memory-utilization=-0.5\n", "shell", "0.32"))


def test_parser_errors_missing_value_and_flag_with_value(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --enforce-eager=true --max-model-len\n", "shell", "0.32")
    assert codes(r) == ["VL209", "VL209"]


def test_config_file_false_is_dropped_under_vllm_serve(tmp_path):
    text = "model: Qwen/Qwen3-8B\nenable-prefix-caching: false\nenable_chunked_prefill: false\nmax-num-seqs: 8\n"
    # as the file a launch's `--config` names (strong evidence: fixable)
    r = lint(tmp_path, "serve-config.yaml", text, "vllm-config", "0.32")
    assert flagged(r, "VL210") == ["enable-prefix-caching", "enable_chunked_prefill"]
    d = r.diagnostics[0]
    assert d.fix is not None and d.fix.applicability == "unsafe"
    out = fixed(tmp_path, "serve-config.yaml", text, "vllm-config", "0.32", unsafe=True)
    assert out == "model: Qwen/Qwen3-8B\nno-enable-prefix-caching: true\nno_enable_chunked_prefill: true\nmax-num-seqs: 8\n"
    assert codes(lint(tmp_path, "serve-config.yaml", out, "vllm-config", "0.32")) == []
    # found by walking, named by nothing: reported, never edited
    weak = lint(tmp_path, "serve-config.yaml", text, "yaml", "0.32")
    assert flagged(weak, "VL210") == ["enable-prefix-caching", "enable_chunked_prefill"]
    assert all(d.fix is None for d in weak.diagnostics)
    # an option that is off by default loses nothing when `false` is dropped
    assert codes(lint(tmp_path, "serve-config.yaml", "model: m\nenforce-eager: false\nmax-num-seqs: 8\n", "yaml", "0.32")) == []


def test_helm_template_values_are_opaque(tmp_path):
    text = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "vllm/vllm-openai:{{ .Values.tag }}"
          args:
            - {{ .Values.model | quote }}
            - --max-model-len
            - {{ .Values.maxLen | quote }}
            - --tensor-parallel-size={{ .Values.tp }}
"""
    path = "chart/templates/deployment.yaml"
    (tmp_path / "chart" / "templates").mkdir(parents=True)
    (tmp_path / "chart" / "Chart.yaml").write_text("name: x\n")
    assert codes(lint(tmp_path, path, text, "helm-template", "0.32")) == []


def test_option_and_value_in_one_block_item_is_split_by_the_fix(tmp_path):
    text = """apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.32.0
      args:
        - Qwen/Qwen3-8B
        - "--max-model-len 8192"
        - --config=/etc/vllm/serve.yaml
"""
    r = lint(tmp_path, "pod.yaml", text, "yaml", "0.32")
    assert sorted(codes(r)) == ["VL203", "VL206"]
    out = fixed(tmp_path, "pod.yaml", text, "yaml", "0.32")
    assert out == text.replace('        - "--max-model-len 8192"\n', '        - "--max-model-len"\n        - "8192"\n').replace(
        "        - --config=/etc/vllm/serve.yaml\n", "        - --config\n        - /etc/vllm/serve.yaml\n"
    )
    assert codes(lint(tmp_path, "pod.yaml", out, "yaml", "0.32")) == []


K8S_SERVE = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:{tag}
          command: ["vllm", "serve"]
          args: ["--model", "Qwen/Qwen2.5-7B-Instruct", "--port", "8000"]
"""


def test_model_option_is_deprecated_only_from_the_release_that_warns(tmp_path):
    # `vllm serve --model X` is moved and warned about from 0.11.1 (argparse_utils.py parse_args);
    # before it `--model` is an ordinary option of `vllm serve`
    named = K8S_SERVE.replace('args: ["--model"', 'args: ["--served-model-name", "qwen", "--model"')
    for tag in ("v0.7.1", "v0.9.2", "v0.11.0"):
        r = lint(tmp_path, "deploy.yaml", K8S_SERVE.format(tag=tag), "yaml")
        assert "VL207" not in codes(r), tag
        # nor does their parser want the model first when --served-model-name is given
        assert codes(lint(tmp_path, "deploy.yaml", named.format(tag=tag), "yaml")) == [], tag
    assert codes(lint(tmp_path, "deploy.yaml", named.format(tag="v0.32.0"), "yaml")) == ["VL207"]  # --model moved first
    for tag, shown in (("v0.14.1", "0.14.1"), ("v0.32.0", "0.32.0")):
        d = only(lint(tmp_path, "deploy.yaml", K8S_SERVE.format(tag=tag), "yaml"), "VL207")
        assert f"(vLLM {shown})" in d.message


def test_dotted_o_key_is_the_optimization_level_where_o_is_its_shorthand(tmp_path):
    # 0.33's FlexibleArgumentParser turns every `-O...` into `--optimization-level` (argparse_utils.py
    # parse_args), so `-O.cudagraph_mode=NONE` hands `.cudagraph_mode=NONE` over as the level
    text = COMPOSE.replace("v0.32.0", "v0.33.0").format(args='"Qwen/Qwen3-8B", "-O.cudagraph_mode=NONE", "-O3", "--compilation-config.mode", "3"')
    r = lint(tmp_path, "compose.yaml", text, "yaml")
    d = only(r, "VL106")
    assert "`--optimization-level .cudagraph_mode=NONE`" in d.message
    assert flagged(r, "VL106") == [".cudagraph_mode=NONE"]


def test_model_option_of_an_image_older_than_every_known_release_is_its_servers_option(tmp_path):
    """``args: [--model, X]`` on ``vllm/vllm-openai:v0.5.0.post1``: the tag is older than every
    release known, so the launch is checked against the newest; but that image's entrypoint
    is ``python3 -m vllm.entrypoints.openai.api_server``, whose own option ``--model`` is.
    (Before, VL207 told to write the model positionally, which that server rejects.)  The same
    args on an image of a release whose entrypoint is ``vllm serve`` still get VL207."""
    args_only = K8S_SERVE.replace('          command: ["vllm", "serve"]\n', "")
    r = lint(tmp_path, "deploy.yaml", args_only.format(tag="v0.5.0.post1"), "yaml")
    assert [rep.reason for rep in r.launches] == ["pin-outside-range"]
    assert "VL207" not in codes(r)
    assert "VL207" in codes(lint(tmp_path, "deploy.yaml", args_only.format(tag="v0.32.0"), "yaml"))
