"""YAML schemas that start vLLM without a command line, and the evidence each one carries.

Chart values (``vllmConfig`` camelCase keys, ``modelURL``, ``extraArgs``), Ray Serve LLM
``engine_kwargs`` (in a Serve config and in a KubeRay ``serveConfigV2`` string), recipes
whose top-level keys look like options, files held in strings, placeholders and template
holes, image tags that are not vLLM releases, ``--omni``.  Every precision case has a real
launch beside it that must still be reported, and every position is checked to the character.
"""

from __future__ import annotations

import pytest

from tests.rules.lint_helpers import codes, fixed, flagged, have, lint
from tests.sources.test_yaml_dispatch import _extract  # extract, and check every token stands where it says
from tests.sources.token_checks import check_token, values

needs = pytest.mark.skipif(not have("0.30.0", "0.33.0"), reason="inventories not generated")


def _at(result, code: str) -> list[tuple[int, int]]:
    """(line, column) of each diagnostic of ``code``."""
    return [result.src.line_col(d.span.start) for d in result.diagnostics if d.code == code]


# -- chart values ---------------------------------------------------------------------------

STACK = """\
servingEngineSpec:
  runtimeClassName: ""
  modelSpec:
  - name: "granite"
    repository: "vllm/vllm-openai"
    tag: "v0.30.0"
    modelURL: "ibm-granite/granite-3.3-8b-instruct"
    replicaCount: 2
    requestGPU: 1
    enableLoRA: true
    vllmConfig:
      maxModelLen: 16384
      gpuMemoryUtilization: 0.85
      v1: 1
      extraArgs: ["--max-num-seq", "64", "--disable-log-stats"]
    env:
      - name: VLLM_LOGGING_LEVEL
        value: DEBUG
  - name: "embedder"
    repository: "vllm/vllm-openai"
    tag: "v0.30.0"
    modelURL: "BAAI/bge-m3"
routerSpec:
  repository: "lmcache/lmstack-router"
  extraArgs: ["--routing-logic", "roundrobin"]
"""


def test_chart_entry_is_one_weak_launch_with_exact_tokens():
    for text in (STACK, STACK.replace("\n", "\r\n")):
        src, out = _extract(text, "values.yaml")
        launches = [x for x in out.launches if x.entrypoint == "chart"]
        assert len(launches) == 2  # the engine drops the second: it names only the model
        launch = launches[0]
        assert not launch.strong and "chart" in launch.evidence
        check_token(src, launch.args[0], '"ibm-granite/granite-3.3-8b-instruct"')
        assert values(launch.args[1:]) == ["--max-num-seq", "64", "--disable-log-stats"]
        for tok in launch.args[1:]:
            check_token(src, tok, f'"{tok.value}"')
        config = launch.settings[: launch.loose_from]
        assert [s.name.value for s in config] == ["maxModelLen", "gpuMemoryUtilization", "v1"]
        check_token(src, config[0].name, "maxModelLen")
        check_token(src, config[0].value, "16384")
        assert launch.version_hint.version == "v0.30.0"
        assert [e.name.value for e in launch.env] == ["VLLM_LOGGING_LEVEL"]
        # the router's flags are another component's
        assert not any("--routing-logic" in values(x.args) for x in out.launches)


@needs
def test_chart_keys_are_read_as_the_options_they_name(tmp_path):
    r = lint(tmp_path, "values.yaml", STACK, "yaml", "0.30")
    (rep,) = r.launches
    from linter import argmodel, knowledge

    parsed = argmodel.parse(rep.launch, knowledge.release("0.30.0"))
    named = {o.written: o.matched for o in parsed.options}
    assert named["maxModelLen"] == "--max-model-len" and named["enableLoRA"] == "--enable-lora"
    assert named["v1"] is None  # production-stack's own key: what it does is the template's
    assert "replicaCount" not in named and "requestGPU" not in named
    # `v1` is never "not a vLLM option"; the abbreviation in extraArgs is still reported, unfixed
    assert "VL104" not in codes(r)
    assert flagged(r, "VL201") == ["--max-num-seq"]
    assert all(d.fix is None for d in r.diagnostics)
    assert fixed(tmp_path, "values.yaml", STACK, "yaml", "0.30", unsafe=True) == STACK


ROOT_CHART = """\
replicaCount: 1
image:
  repository: vllm/vllm-openai
  tag: v0.33.0
model:
  id: Qwen/Qwen3-8B
service: {type: ClusterIP, port: 80}
tensorParallelSize: 2
maxModelLen: 8192
swapSpace: 4
"""


@needs
def test_values_of_a_chart_with_a_vllm_image(tmp_path):
    r = lint(tmp_path, "values.yaml", ROOT_CHART, "yaml")
    (rep,) = r.launches
    assert rep.launch.args[0].value == "Qwen/Qwen3-8B" and rep.launch.version_hint.version == "v0.33.0"
    assert flagged(r, "VL101") == ["swapSpace"]  # removed after 0.17: judged as --swap-space
    assert _at(r, "VL101") == [(10, 1)]
    # not a vLLM image: the same keys are somebody else's
    other = ROOT_CHART.replace("vllm/vllm-openai", "ghcr.io/acme/inference-gateway")
    assert lint(tmp_path, "values.yaml", other, "yaml").launches == []



NESTED_CHART = """\
namespace: serving
image:
  repository: vllm/vllm-openai
  tag: v0.30.0
model:
  name: Qwen/Qwen3-8B-FP8
  alias: qwen3
  quantization: fp8
  maxModelLen: 16384
engine:
  tensorParallelSize: 2
  swapSpace: 4
  enablePrefixCaching: true
service:
  type: ClusterIP
  port: 80
  targetPort: 8000
"""


@needs
def test_settings_in_the_model_and_engine_mappings_beside_a_vllm_image(tmp_path):
    """A chart's values that put the model's settings beside its name (``model: {name,
    maxModelLen}``) and the engine's in ``engine:``, next to ``image.repository:
    vllm/vllm-openai``: those keys are read as the options they name; the Service's
    ``port`` and keys that name no option (``alias``) are the chart's own."""
    r = lint(tmp_path, "values.yaml", NESTED_CHART, "yaml", "0.33")
    (rep,) = r.launches
    assert rep.launch.args[0].value == "Qwen/Qwen3-8B-FP8" and rep.launch.version_hint.version == "v0.30.0"
    from linter import argmodel, knowledge

    parsed = argmodel.parse(rep.launch, knowledge.release("0.33.0"))
    assert sorted(o.written for o in parsed.options) == [
        "enablePrefixCaching", "maxModelLen", "quantization", "swapSpace", "tensorParallelSize"]
    assert flagged(r, "VL101") == ["swapSpace"]  # removed after 0.17: judged as --swap-space
    assert _at(r, "VL101") == [(12, 3)]
    assert "VL104" not in codes(r) and all(d.fix is None for d in r.diagnostics)
    # without a vLLM image beside them, the same mappings are somebody else's
    other = NESTED_CHART.replace("vllm/vllm-openai", "ghcr.io/acme/inference-gateway")
    assert lint(tmp_path, "values.yaml", other, "yaml", "0.33").launches == []


VLLM_VALUES = """\
# Default values for the model server chart.
vllm:
  replicaCount: 1
  image:
    repository: vllm/vllm-openai
    tag: "v0.30.0"
    pullPolicy: IfNotPresent
  model:
    # -- Hugging Face model name
    name: Qwen/Qwen3-8B
    label: qwen3-8b
    maxModelLen: 16384
  maxNumBatchedTokens: 1024
  swapSpace: 4
  gpuMemoryUtilization: null
  extraEnv:
    VLLM_LOGGING_LEVEL: DEBUG
    HF_HUB_OFFLINE: "1"
"""


def test_a_vllm_mapping_of_chart_values_holds_its_image_model_and_environment(tmp_path):
    """``vllm: {image: {repository, tag}, model: {name, maxModelLen}, extraEnv: {...}, ...}``:
    the image's tag pins the release, the model mapping gives the model and its settings, and
    the ``extraEnv`` map the server's ``VLLM_*`` variables."""
    r = lint(tmp_path, "values.yaml", VLLM_VALUES, "yaml")
    (rep,) = r.launches
    launch = rep.launch
    assert launch.args[0].value == "Qwen/Qwen3-8B" and launch.version_hint.version == "v0.30.0"
    assert {s.name.value for s in launch.settings} >= {"maxModelLen", "maxNumBatchedTokens", "swapSpace"}
    assert "label" not in {s.name.value for s in launch.settings}
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_LOGGING_LEVEL", "DEBUG")]
    assert flagged(r, "VL101") == ["swapSpace"] and all(d.vllm_version == "0.30.0" for d in r.diagnostics)

# -- Ray Serve LLM ----------------------------------------------------------------------------

SERVE = """\
applications:
  - name: llm-app
    route_prefix: /
    import_path: ray.serve.llm:build_openai_app
    runtime_env:
      env_vars:
        VLLM_USE_DEEP_GEMM: "1"
        HF_HUB_ENABLE_HF_TRANSFER: "1"
    args:
      llm_configs:
        - model_loading_config:
            model_id: qwen
            model_source: Qwen/Qwen3-32B
          engine_kwargs: &engine
            tensor_parallel_size: 4
            max_model_len: 32768
            disable_log_requests: true
          deployment_config:
            autoscaling_config: {min_replicas: 1, max_replicas: 2}
        - model_loading_config: {model_id: qwen-small, model_source: Qwen/Qwen3-8B}
          engine_kwargs: {tensor_parallel_size: 1, enforce_eager: true}
"""


@needs
def test_ray_serve_llm_engine_kwargs(tmp_path):
    src, out = _extract(SERVE, "serve.yaml")
    big, small = out.launches
    assert (big.entrypoint, big.style, big.strong) == ("AsyncEngineArgs", "settings", True)
    model = big.settings[0]
    assert model.name.value == "model" and model.value.value == "Qwen/Qwen3-32B" and model.name.value_start is None
    assert [s.name.value for s in big.settings[1:]] == ["tensor_parallel_size", "max_model_len", "disable_log_requests"]
    assert [e.name.value for e in big.env] == ["VLLM_USE_DEEP_GEMM"]  # HF_* is not vLLM's
    check_token(src, small.settings[1].name, "tensor_parallel_size")  # flow style
    r = lint(tmp_path, "serve.yaml", SERVE, "yaml", "0.33")
    assert _at(r, "VL101") == [(17, 13)]  # at the key inside engine_kwargs


def test_kuberay_serve_config_string_is_placed_in_the_file():
    text = (
        "apiVersion: ray.io/v1\nkind: RayService\nmetadata: {name: llm}\nspec:\n"
        "  serveConfigV2: |\n"
        "    applications:\n"
        "    - name: llm\n"
        "      import_path: ray.serve.llm:build_openai_app\n"
        "      args:\n"
        "        llm_configs:\n"
        "        - model_loading_config: {model_id: m, model_source: meta-llama/Llama-3.1-8B-Instruct}\n"
        "          engine_kwargs:\n"
        "            max_num_seqs: 64\n"
        "  rayClusterConfig:\n"
        "    headGroupSpec:\n"
        "      template:\n"
        "        spec:\n"
        "          containers: [{name: head, image: vllm/vllm-openai:v0.30.0}]\n"
    )
    src, out = _extract(text)
    (launch,) = out.launches  # the KubeRay head runs `ray start`, not the image's entrypoint
    name = launch.settings[1].name
    check_token(src, name, "max_num_seqs")
    assert src.line_col(name.span.start) == (13, 13)


# -- any YAML, any key ------------------------------------------------------------------------

RECIPE = """\
recipe_version: "1"
name: granite-4-h-small
model: ibm-granite/granite-4.0-h-small
defaults:
  port: 8000
  max_model_len: 131072
env:
  VLLM_USE_FLASHINFER_SAMPLER: "1"
build_args:
  - --no-cache
command: |
  vllm serve ibm-granite/granite-4.0-h-small \\
    --port {port} \\
    --max-model-len {max_model_len} \\
    --max-num-seq 32
"""


@needs
def test_document_with_option_like_keys_is_searched(tmp_path):
    r = lint(tmp_path, "recipe.yaml", RECIPE, "yaml", "0.33")
    (rep,) = r.launches  # the command, not a `--config` candidate, not `build_args`
    assert rep.launch.entrypoint == "vllm serve" and rep.launch.strong
    assert [e.name.value for e in rep.launch.env] == ["VLLM_USE_FLASHINFER_SAMPLER"]
    # `{port}` is a template field, never "expects an integer"; the abbreviation is exact
    assert "VL106" not in codes(r)
    assert _at(r, "VL201") == [(15, 5)]


def test_top_level_args_and_command_string_under_any_key():
    text = (
        "job:\n"
        "  customCommand: |\n"
        "    set -e\n"
        "    exec vllm serve Qwen/Qwen3-8B --max-model-len 4096\n"
        "  steps: [[python3, -m, vllm.entrypoints.openai.api_server, --model, m, --port, '8001']]\n"
    )
    src, out = _extract(text)
    by_entry = {x.entrypoint: x for x in out.launches}
    check_token(src, by_entry["vllm serve"].args[2], "4096")
    assert src.line_col(by_entry["vllm serve"].args[1].span.start) == (4, 35)
    check_token(src, by_entry["api_server"].args[-1], "'8001'")


# -- evidence: weak candidates ----------------------------------------------------------------


@needs
def test_weak_candidates_need_most_keys_vllm_and_none_foreign(tmp_path):
    vllm_map = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: p}\ndata:\n  inference_config.yaml: |\n    vllm:\n      gpu-memory-utilization: 0.9\n      max-model-len: 8192\n"
    r = lint(tmp_path, "cm.yaml", vllm_map, "yaml", "0.33")
    assert len(r.launches) == 1 and not r.launches[0].launch.strong
    foreign = "shm_size: 16g\ncap_add: [SYS_NICE]\nmax_model_len: 4096\ndevices: [/dev/kfd]\n"
    assert lint(tmp_path, "host.yaml", foreign, "yaml", "0.33").launches == []
    # ... while a real config file beside it is still read and reported
    real = "model: Qwen/Qwen3-8B\nmax-model-len: 4096\nmax-num-seq: 8\n"
    assert flagged(lint(tmp_path, "serve.yaml", real, "yaml", "0.33"), "VL201") == ["max-num-seq"]


@needs
def test_markdown_yaml_block_is_a_config_only_when_the_document_says_so(tmp_path):
    load = "# Load test\n\n```yaml\nmodel: m\nmax-num-seqs: 8\nmax-model-len: 4096\nload: 20\n```\n"
    assert lint(tmp_path, "README.md", load, "markdown", "0.33").launches == []
    said = (
        "# Serving\n\nSave this as `serve.yaml` and start the server with "
        "`vllm serve --config serve.yaml`:\n\n```yaml\nmodel: m\nmax-num-seq: 8\nmax-model-len: 4096\n```\n\n"
        "```bash\nvllm serve Qwen/Qwen3-8B --max-num-seq 16\n```\n"
    )
    r = lint(tmp_path, "README.md", said, "markdown", "0.33")
    assert len(r.launches) == 2
    assert flagged(r, "VL201") == ["max-num-seq", "--max-num-seq"]
    config_fix = [d.fix for d in r.diagnostics if d.code == "VL201"][0]
    assert config_fix is None  # the block is weak evidence: reported, never edited


# -- placeholders and templates ---------------------------------------------------------------

PLACEHOLDERS = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.33.0
        args:
        - <MODEL>
        - --max-model-len
        - ${MAX_MODEL_LEN}
        - --port
        - "{{ if .Values.port }}{{ .Values.port }}{{ else }}5555{{ end }}"
        - --max-num-seq
        - "16"
"""


@needs
def test_placeholders_and_template_holes_are_unknown(tmp_path):
    r = lint(tmp_path, "deploy.yaml", PLACEHOLDERS, "yaml")
    assert "VL106" not in codes(r) and "VL209" not in codes(r)
    assert flagged(r, "VL201") == ["--max-num-seq"]  # the real problem beside them
    (rep,) = r.launches
    port = rep.launch.args[4]
    assert port.opaque == ((0, len(port.value)),)  # the whole conditional is one unknown value


ENVSUBST = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${APP_NAME}
spec:
  replicas: ${REPLICAS}
  template:
    spec:
      containers:
        - name: vllm
          image: ${VLLM_IMAGE}
          command: ["/bin/sh", "-c"]
          args:
            - |
              exec vllm serve ${MODEL_ID} \\
                --max-model-len ${MAX_MODEL_LEN} \\
                --tensor-parallel-size=${TP_SIZE} \\
                --served-model-name ${SERVED_NAME} ${EXTRA_ARGS} \\
                --port "${PORT:-8000}" \\
                --swap-space 4
          env:
            - name: VLLM_LOGGING_LEVEL
              value: ${LOG_LEVEL}
"""


@needs
def test_envsubst_template_values_are_unknown(tmp_path):
    """A manifest rendered by envsubst: every ``${VAR}`` is an unknown value (no "expects an
    integer", no second model, no unrecognized argument), the image pins nothing, and the real
    problem beside them is reported and fixed in place."""
    r = lint(tmp_path, "deploy.yaml", ENVSUBST, "yaml", "0.33")
    assert codes(r) == ["VL101"] and flagged(r, "VL101") == ["--swap-space"]
    (rep,) = r.launches
    assert rep.launch.version_hint is None
    words = values(rep.launch.args)
    assert words[0] == "${MODEL_ID}" and rep.launch.args[0].is_opaque
    out = fixed(tmp_path, "deploy.yaml", ENVSUBST, "yaml", "0.33", unsafe=True)
    assert "--swap-space" not in out and '--port "${PORT:-8000}"' in out and "${EXTRA_ARGS}" in out


COMPOSE_FOREIGN = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.33.0
    shm_size: 16g
    ipc: host
    devices: [/dev/kfd, /dev/dri]
    cap_add: [SYS_PTRACE]
    security_opt: [seccomp=unconfined]
    deploy:
      resources:
        reservations:
          devices: [{driver: nvidia, count: all, capabilities: [gpu]}]
    environment:
      - HF_TOKEN=${HF_TOKEN}
    command: ["Qwen/Qwen3-8B", "--max-num-seq", "16"]
    healthcheck:
      test: ["CMD", "curl", "-f", "http://localhost:8000/health"]
  bench:
    image: ghcr.io/example/llm-bench:1.2
    command: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "4096", "--num-prompts", "100", "--request-rate", "inf"]
"""


@needs
def test_compose_keys_and_other_services_are_never_vllm_options(tmp_path):
    r = lint(tmp_path, "compose.yaml", COMPOSE_FOREIGN, "yaml", "0.33")
    assert codes(r) == ["VL201"]
    (rep,) = r.launches  # the benchmark's flags are its own
    assert values(rep.launch.args) == ["Qwen/Qwen3-8B", "--max-num-seq", "16"]
    out = fixed(tmp_path, "compose.yaml", COMPOSE_FOREIGN, "yaml", "0.33")
    assert out == COMPOSE_FOREIGN.replace('"--max-num-seq"', '"--max-num-seqs"')


def test_jinja_in_a_string_value_is_read_without_masking():
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: templates}\ndata:\n"
        "  chat.jinja: |\n    {{- bos_token }}\n    {%- for m in messages %}{{ m.content }}{%- endfor %}\n"
        "---\n"
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
        "  containers: [{name: v, image: vllm/vllm-openai:v0.33.0, args: [m, --max-model-len, '4096']}]\n"
    )
    src, out = _extract(text)
    assert out.problems == []
    (launch,) = out.launches
    check_token(src, launch.args[2], "'4096'")


def test_trailing_tab_after_a_value_is_white_space():
    text = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  restartPolicy: Always\t\n  containers:\n  - name: v\n    image: vllm/vllm-openai:v0.33.0\n    args: [m, --max-model-len, '4096']\n"
    _src, out = _extract(text)
    assert out.problems == [] and len(out.launches) == 1


# -- image tags, --omni, files in strings -----------------------------------------------------


@pytest.mark.parametrize(
    "image,pin",
    [
        ("vllm/vllm-openai:v0.30.0", "v0.30.0"),
        ("vllm/vllm-openai:v0.8.5.post1", "v0.8.5.post1"),
        ("lmcache/vllm-openai:v0.3.9post2", None),  # an LMCache release
        ("openeuler/vllm-cpu:0.10.1-oe2403lts", None),  # a vendor build
        ("${VLLM_IMAGE:-vllm/vllm-openai:v0.31.0}", "v0.31.0"),
    ],
)
def test_only_vllm_release_tags_pin(image, pin):
    text = f"services:\n  v:\n    image: {image}\n    command: [Qwen/Qwen3-8B, --max-model-len, '4096']\n"
    src, out = _extract(text, "compose.yaml")
    (launch,) = out.launches
    assert (launch.version_hint.version if launch.version_hint else None) == pin
    if pin:
        assert src.text[launch.version_hint.span.start : launch.version_hint.span.end] == pin


@needs
def test_omni_is_handed_to_vllm_omni(tmp_path):
    text = "services:\n  omni:\n    image: vllm/vllm-omni:v0.12.0\n    command: [vllm, serve, Qwen/Qwen2.5-Omni-7B, --omni, --max-model-length, '8192']\n"
    r = lint(tmp_path, "compose.yaml", text, "yaml", "0.33")
    assert flagged(r, "VL104") == ["--max-model-length"]  # and not `--omni`


def test_python_program_in_a_configmap():
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata:\n"
        "  serve.py: |\n"
        "    from vllm.engine.arg_utils import AsyncEngineArgs\n"
        "    args = AsyncEngineArgs(model=\"m\", max_num_seqs=8)\n"
    )
    src, out = _extract(text)
    (launch,) = out.launches
    name = [s.name for s in launch.settings if s.name.value == "max_num_seqs"][0]
    check_token(src, name, "max_num_seqs")
    assert src.line_col(name.span.start) == (7, 39)


def test_triton_model_json():
    text = '{\n    "model": "meta-llama/Llama-3.1-8B-Instruct",\n\t"gpu_memory_utilization": 0.5,\n    "enforce_eager": true\n}\n'
    src, out = _extract(text, "model_repository/llama/1/model.json")
    (launch,) = out.launches
    assert launch.entrypoint == "AsyncEngineArgs" and not launch.strong
    check_token(src, launch.settings[1].name, '"gpu_memory_utilization"')
    assert out.problems == []


# -- multi-line scalars point at the option ---------------------------------------------------


@needs
@pytest.mark.parametrize(
    "command,where",
    [
        (">\n      Qwen/Qwen3-8B\n      --max-num-seq 8\n", (6, 7)),
        ("|\n      Qwen/Qwen3-8B \\\n      --max-num-seq 8\n", None),  # a literal block is not split by compose
        ("Qwen/Qwen3-8B\n      --max-num-seq 8\n", (5, 7)),  # plain multi-line
        ('"Qwen/Qwen3-8B\n      --max-num-seq 8"\n', (5, 7)),
    ],
)
def test_compose_command_scalars(tmp_path, command, where):
    text = "services:\n  v:\n    image: vllm/vllm-openai:v0.33.0\n    command: " + command
    r = lint(tmp_path, "compose.yaml", text, "yaml")
    if where is None:
        return
    assert _at(r, "VL201") == [where]


@needs
def test_bash_c_string_in_container_args(tmp_path):
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: v\n"
        "    image: vllm/vllm-openai:v0.33.0\n    command: [bash, -c]\n"
        "    args:\n    - >-\n      vllm serve Qwen/Qwen3-8B\n      --max-num-seq 8\n"
        "    - |\n      pip list\n"
    )
    r = lint(tmp_path, "pod.yaml", text, "yaml")
    assert _at(r, "VL201") == [(12, 7)]


# -- schemas of operators -----------------------------------------------------------------------


def test_operator_forms_with_their_own_evidence():
    text = (
        "decode:\n  containers:\n  - name: vllm\n    image: ghcr.io/acme/inference:1.0\n    modelCommand: vllmServe\n"
        "    args: [--enforce-eager, --kv-transfer-config, '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}']\n"
        "---\n"
        "services:\n  stt:\n    build: {context: ., dockerfile: Dockerfile.vllm}\n    command: [--model, openai/whisper-large-v3, --port, '9000']\n"
        "---\n"
        "services:\n  tpu:\n    image: vllm/vllm-tpu:v0.12.0\n    environment:\n"
        "      - HF_TOKEN=<TOKEN>\n      - VLLM_ARGS=--max-model-len 4096\n          --tensor-parallel-size 8\n"
    )
    src, out = _extract(text)
    kinds = [(x.entrypoint, x.strong) for x in out.launches]
    assert kinds == [("vllm serve", False), ("image", False), ("image", False)]
    env_args = out.launches[2]
    assert values(env_args.args) == ["--max-model-len", "4096", "--tensor-parallel-size", "8"]
    check_token(src, env_args.args[3], "8")


# -- KServe's Hugging Face runtime --------------------------------------------------------------

KSERVE = """\
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: qwen}
spec:
  predictor:
    model:
      modelFormat: {name: huggingface}
      args:
        - --model_name=qwen
        - --model_id
        - Qwen/Qwen3-8B
        - --backend=vllm
        - --max-num-seq
        - "8"
---
apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata: {name: hf}
spec:
  containers:
  - name: kserve-container
    image: kserve/huggingfaceserver:v0.15.0-gpu
    command: [python, -m, huggingfaceserver]
    args: [--model_dir=/mnt/models, --model_name=hf, --http_port=8080, --swap-space, "4"]
"""


@needs
def test_kserve_runtime_flags_are_the_runtime_s(tmp_path):
    r = lint(tmp_path, "isvc.yaml", KSERVE, "yaml", "0.33")
    # the runtime's own flags are never "not a vLLM option" (nor make the weak launch foreign);
    # vLLM's problems beside them are reported
    assert "VL104" not in codes(r)
    assert flagged(r, "VL101") == ["--swap-space"]
    assert flagged(r, "VL201") == ["--max-num-seq"]
    isvc, runtime = (rep.launch for rep in r.launches)
    assert values(isvc.args) == ["--max-num-seq", "8"]
    assert runtime.entrypoint == "api_server" and not runtime.strong
    assert any("--model_dir" in n and "--http_port" in n for n in runtime.notes)


def test_engine_kwargs_of_another_engine_are_not_vllm_s():
    trt = "engine_config:\n  model_id: m\n  type: TRTLLMEngine\n  engine_kwargs: {max_batch_size: 8, max_num_tokens: 4096}\n"
    vllm = "engine_config:\n  model_id: m\n  type: VLLMEngine\n  engine_kwargs: {max_num_seqs: 8}\n"
    assert [x.entrypoint for x in _extract(trt)[1].launches] == ["config"]  # a candidate the engine drops
    (launch,) = _extract(vllm)[1].launches
    assert launch.entrypoint == "AsyncEngineArgs" and launch.strong


BROKEN_AROUND_CONTAINERS = """\\
apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: vllm-llama
    spec:
      template:
        spec:
          containers:
            - name: vllm
              image: "vllm/vllm-openai:v0.33.0"
              command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
              args:
              - "--model"
              - "meta-llama/Llama-3.1-8B-Instruct"
              - "--max-num-seq"
              - "16"
            - name: sidecar
              image: "busybox:1.36"
              args: ["--max-model-len", "1"]
          volumes:
            - name: data
              emptyDir: {}
"""


@needs
def test_a_containers_block_is_read_when_the_yaml_around_it_breaks(tmp_path):
    """``kind:`` indented under ``apiVersion:`` makes the document invalid (kubectl: "mapping
    values are not allowed in this context"): the parse error is reported where it broke, and
    the vLLM container, which the error hid, is read all the same; the sidecar is not vLLM's."""
    r = lint(tmp_path, "deploy.yaml", BROKEN_AROUND_CONTAINERS, "yaml")
    assert sorted(codes(r)) == ["VL001", "VL201"]
    (parse,) = [d for d in r.diagnostics if d.code == "VL001"]
    assert r.src.line_col(parse.span.start)[0] == 2
    assert [t.strip('"') for t in flagged(r, "VL201")] == ["--max-num-seq"]
    (rep,) = r.launches
    assert values(rep.launch.args)[:2] == ["--model", "meta-llama/Llama-3.1-8B-Instruct"]


@needs
def test_config_file_template_values_are_unknown(tmp_path):
    text = "# vllm serve --config serve.yaml\nmodel: Qwen/Qwen3-8B\nmax-model-len: ${MAX_LEN}\ntensor-parallel-size: <TP>\nmax-num-seq: 8\n"
    r = lint(tmp_path, "serve.yaml", text, "yaml", "0.33")
    assert codes(r) == ["VL201"]  # not "--max-model-len expects an integer"
    (rep,) = r.launches
    by_name = {s.name.value: s for s in rep.launch.settings}
    assert by_name["max-model-len"].kind == "opaque" and by_name["tensor-parallel-size"].kind == "opaque"
