"""The YAML dispatcher: per-document forms, operator resources with their own keys, bad input."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch, check_token, values


def _extract(text: str, path: str = "x.yaml"):
    src = SourceFile.from_text(path, text)
    out = yaml_source.extract(src)
    for launch in out.launches:
        check_launch(src, launch)
    return src, out


def test_multi_document_file_with_different_forms():
    text = """\
apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  containers: [{name: c, image: "vllm/vllm-openai:v0.6.0", args: [--model, m]}]
---
services:
  v:
    image: vllm/vllm-openai:v0.7.0
    command: --model n
---
max-model-len: 4096
tensor-parallel-size: 2
"""
    _src, out = _extract(text)
    assert [(l.kind, l.entrypoint) for l in out.launches] == [("k8s", "image"), ("compose", "image"), ("vllm-config", "config")]
    assert out.launches[0].version_hint.version == "v0.6.0"


def test_any_key_holding_a_command_list_or_string():
    text = """\
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: j}
spec:
  entrypoint: vllm serve Qwen/Qwen2.5-1.5B --tensor-parallel-size 2
  custom:
    launcher: [python3, -m, vllm.entrypoints.openai.api_server, --model, m]
"""
    src, out = _extract(text)
    entries = sorted(l.entrypoint for l in out.launches)
    assert entries == ["api_server", "vllm serve"]
    shell = next(l for l in out.launches if l.entrypoint == "vllm serve")
    check_token(src, shell.args[-1], "2")
    assert shell.args[-1].editable


def test_a_command_list_gets_its_env_list_of_assignments():
    # a dstack service: `env` is a list of NAME=value strings (a bare name passes the host's through)
    text = """\
type: service
env:
  - HF_TOKEN
  - MODEL_ID=meta-llama/Llama-3.1-8B-Instruct
  - VLLM_TARGET_DEVICE=tpu
commands:
  - pip install vllm
  - vllm serve $MODEL_ID
      --max-model-len 4096
port: 8000
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_TARGET_DEVICE", "tpu")]
    check_token(src, launch.env[0].value, "tpu")


def test_benchmark_suite_tests_start_vllm_serve_with_their_server_parameters():
    # vLLM's benchmark suite (and the suites copied from it): `vllm serve` with each key of
    # server_parameters as --key-with-dashes, "" a flag alone; other engines' tests are not vLLM's
    text = """\
[
  {
    "test_name": "serving_llama8B_tp2",
    "server_environment_variables": {"VLLM_RPC_TIMEOUT": 100000, "OTHER": "x"},
    "server_parameters": {
      "model": "meta-llama/Llama-3.1-8B-Instruct",
      "tensor_parallel_size": 2,
      "disable_log_stats": "",
      "load_format": "dummy",
      "compilation_config": {"cudagraph_mode": "FULL"}
    },
    "client_parameters": {"model": "meta-llama/Llama-3.1-8B-Instruct", "backend": "vllm", "num_prompts": 200}
  },
  {
    "test_name": "nightly",
    "vllm_server_parameters": {"disable_log_stats": "", "max_num_seqs": 64},
    "trt_server_parameters": {"max_batch_size": 256, "max_input_len": 4096}
  },
  {
    "test_name": "other_engine",
    "server_parameters": {"mem_fraction_static": 0.8, "tp": 2},
    "client_parameters": {"backend": "sglang"}
  }
]
"""
    src, out = _extract(text, ".buildkite/performance-benchmarks/tests/serving-tests.json")
    first, nightly = out.launches
    assert first.entrypoint == "vllm serve" and not first.strong
    assert values(first.args) == ["meta-llama/Llama-3.1-8B-Instruct", "--tensor-parallel-size", "2", "--disable-log-stats",
                                  "--load-format", "dummy", "--compilation-config", '{"cudagraph_mode":"FULL"}']
    assert src.text[first.args[1].span.start : first.args[1].span.end] == '"tensor_parallel_size"'
    check_token(src, first.args[2], "2")
    assert [e.name.value for e in first.env] == ["VLLM_RPC_TIMEOUT"]
    assert values(nightly.args) == ["--disable-log-stats", "--max-num-seqs", "64"]


def test_kubeai_model_args():
    text = """\
apiVersion: kubeai.org/v1
kind: Model
metadata: {name: llama}
spec:
  engine: VLLM
  args:
    - --max-model-len=8192
    - --num-scheduler-steps=4
  env:
    VLLM_WORKER_MULTIPROC_METHOD: spawn
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.entrypoint == "vllm serve" and launch.entry == []
    assert values(launch.args) == ["--max-model-len=8192", "--num-scheduler-steps=4"]
    assert [e.name.value for e in launch.env] == ["VLLM_WORKER_MULTIPROC_METHOD"]


def test_operator_settings_mappings():
    text = """\
apiVersion: workload.serving.volcano.sh/v1alpha1
kind: ModelBooster
metadata: {name: demo}
spec:
  backend:
    workers:
      - type: server
        image: vllm/vllm-openai-cpu:latest
        config:
          served-model-name: Qwen2.5-0.5B-Instruct
          max-model-len: 2048
          enforce-eager: ""
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.kind == "vllm-config" and launch.style == "settings" and "candidate: under a vLLM-named key" in launch.notes
    assert not launch.strong and launch.evidence
    assert [s.name.value for s in launch.settings] == ["served-model-name", "max-model-len", "enforce-eager"]


def test_configmap_with_embedded_vllm_yaml():
    text = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: params}
data:
  inference_config.yaml: |
    max_probe_steps: 6
    vllm:
      gpu-memory-utilization: 0.95
      max-model-len: 131072
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.style == "settings" and "file held in a YAML string" in launch.notes
    by = {s.name.value: s for s in launch.settings}
    check_token(src, by["max-model-len"].name, "max-model-len")
    check_token(src, by["max-model-len"].value, "131072")
    assert by["max-model-len"].value.editable


def test_malformed_yaml_is_a_problem_never_an_exception():
    for text in ["a: [1, 2\n", "a:\n\tb: 1\n", "key: 'unclosed\n", "a: b\n c: d\n  - e\n", "\x00", "- &a [*a]\n"]:
        src = SourceFile.from_text("bad.yaml", text)
        out = yaml_source.extract(src)
        assert out.launches == [] or out.problems == []
    src = SourceFile.from_text("bad.yaml", "a: 1\n  b: 2\n")
    (problem,) = yaml_source.extract(src).problems
    assert problem.message.startswith("YAML parse error") and src.line_col(problem.span.start)[0] == 2


def test_alias_to_a_command_is_not_reported_twice():
    text = "x-cmd: &cmd [vllm, serve, m]\njobs: {a: *cmd, b: *cmd}\n"
    _src, out = _extract(text)
    assert len(out.launches) == 1


KUSTOMIZATION = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
patches:
  - target: {kind: Deployment, name: qwen-server}
    patch: |-
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: qwen-server
      spec:
        template:
          spec:
            containers:
              - name: server
                image: vllm/vllm-openai:v0.29.0
                args: [Qwen/Qwen3-8B, --max-num-seq, "64"]
  - target: {kind: Deployment, name: router}
    patch: |-
      - op: replace
        path: /spec/replicas
        value: 2
"""


def test_inline_patches_of_a_kustomization_are_read():
    """``patches[].patch`` (and ``patchesStrategicMerge`` items) hold objects that Kustomize
    merges into its resources: a vLLM container there is read as in a file of its own, its
    tokens placed in the Kustomization."""
    src, out = _extract(KUSTOMIZATION, "overlays/prod/kustomization.yaml")
    (launch,) = out.launches
    assert (launch.entrypoint, launch.strong) == ("image", True)
    assert values(launch.args) == ["Qwen/Qwen3-8B", "--max-num-seq", "64"]
    check_token(src, launch.args[1], "--max-num-seq")
    assert launch.args[1].editable
    legacy = KUSTOMIZATION.replace("patches:\n  - target: {kind: Deployment, name: qwen-server}\n    patch: |-",
                                   "patchesStrategicMerge:\n  - |-").split("  - target: {kind: Deployment, name: router}")[0]
    src, out = _extract(legacy, "kustomization.yaml")
    assert [values(x.args) for x in out.launches] == [["Qwen/Qwen3-8B", "--max-num-seq", "64"]]
    # outside a Kustomization a `patch` string is somebody else's text
    other = KUSTOMIZATION.replace("kind: Kustomization", "kind: Example").replace("apiVersion: kustomize.config.k8s.io/v1beta1", "apiVersion: acme.io/v1")
    assert _extract(other, "example.yaml")[1].launches == []


JSON_PATCHES = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../base
patches:
  - target:
      kind: Deployment
      name: vllm-qwen
    patch: |-
      - op: test
        path: /spec/template/spec/containers/0/args/3
        value: --max-num-seqs
      - op: replace
        path: /spec/template/spec/containers/0/args/4
        value: "128"
      - op: add
        path: /spec/template/spec/containers/0/args/-
        value: --kv-cache-dtype
      - op: add
        path: /spec/template/spec/containers/0/args/-
        value: fp8
      - op: add
        path: /spec/template/spec/containers/0/args/-
        value: --swap-space=4
      - op: add
        path: /spec/template/metadata/labels/variant
        value: kv-fp8
  - target:
      kind: Deployment
      name: helm-controller
    patch: |-
      - op: add
        path: /spec/template/spec/containers/0/args/-
        value: --concurrent=10
"""


def test_json_patch_operations_on_a_vllm_containers_args(tmp_path):
    """JSON patch operations that append flags to the args of a target named like vLLM's
    are a weak candidate (the image is the base's): the words they write, in order, placed
    in the Kustomization; ``test`` operations write nothing, and another target's are not vLLM's."""
    from tests.rules.lint_helpers import flagged, lint

    src, out = _extract(JSON_PATCHES, "overlays/kv-fp8/kustomization.yaml")
    (launch,) = out.launches
    assert (launch.entrypoint, launch.strong) == ("image", False)
    assert values(launch.args) == ["--kv-cache-dtype", "fp8", "--swap-space=4"]
    check_token(src, launch.args[0], "--kv-cache-dtype")
    result = lint(tmp_path, "kustomization.yaml", JSON_PATCHES, "yaml", target="0.33")
    assert flagged(result, "VL101") == ["--swap-space"] and all(d.fix is None for d in result.diagnostics)


def test_an_image_tag_in_a_held_file_pins_its_launch(tmp_path):
    """The tag of a vLLM image in an inline patch (or a ConfigMap's file) pins the launch as in
    a file of its own: checked against that release, the pin bumped in place by an unsafe fix."""
    from tests.rules.lint_helpers import fixed, lint

    src, out = _extract(KUSTOMIZATION, "kustomization.yaml")
    (launch,) = out.launches
    hint = launch.version_hint
    assert hint.version == "v0.29.0" and hint.editable
    assert src.text[hint.span.start : hint.span.end] == "v0.29.0"
    (rep,) = lint(tmp_path, "kustomization.yaml", KUSTOMIZATION, "yaml").launches
    assert str(rep.version) == "0.29.0"
    after = fixed(tmp_path, "kustomization.yaml", KUSTOMIZATION, "yaml", "0.32", unsafe=True)
    assert "image: vllm/vllm-openai:v0.32.0" in after and "--max-num-seqs" in after


def test_an_ecs_task_definition_container_runs_its_image_with_its_command():
    """Amazon ECS ``containerDefinitions[]``: ``command`` is the CMD handed to the image's
    entrypoint, ``entryPoint`` replaces that entrypoint, ``environment`` is name/value pairs;
    CloudFormation writes the same keys capitalised.  A container of another image, and a
    ``healthCheck`` command, are no launch."""
    text = """\
{
  "family": "llm-serving",
  "containerDefinitions": [
    {
      "name": "server",
      "image": "vllm/vllm-openai:v0.10.1",
      "command": ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "16384", "--gpu-memory-utilization", "0.9"],
      "environment": [{"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"}, {"name": "HF_HOME", "value": "/cache"}],
      "healthCheck": {"command": ["CMD-SHELL", "curl -f http://localhost:8000/health || exit 1"]}
    },
    {
      "name": "shell",
      "image": "public.ecr.aws/docker/library/python:3.12",
      "entryPoint": ["sh", "-c"],
      "command": ["pip install vllm==0.10.1 && vllm serve Qwen/Qwen2.5-0.5B-Instruct --port 8001 --max-num-seqs 16"]
    },
    {"name": "proxy", "image": "nginx:1.27", "command": ["nginx", "-g", "daemon off;"]}
  ]
}
"""
    src, out = _extract(text, "deploy/task-definition.json")
    assert out.problems == []
    image, shell = out.launches
    assert image.entrypoint == "image" and values(image.args) == [
        "--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "16384", "--gpu-memory-utilization", "0.9"]
    check_token(src, image.args[3], '"16384"')
    assert [(e.name.value, e.value.value) for e in image.env] == [("VLLM_LOGGING_LEVEL", "DEBUG")]
    assert image.version_hint is not None and image.version_hint.version == "v0.10.1"
    assert shell.entrypoint == "vllm serve" and values(shell.args) == ["Qwen/Qwen2.5-0.5B-Instruct", "--port", "8001", "--max-num-seqs", "16"]

    cfn = """\
Resources:
  TaskDefinition:
    Type: AWS::ECS::TaskDefinition
    Properties:
      ContainerDefinitions:
        - Name: vllm
          Image: vllm/vllm-openai:latest
          Command: [--model, mistralai/Mistral-7B-Instruct-v0.3, --tensor-parallel-size, "2"]
"""
    _, out = _extract(cfn, "infra/template.yaml")
    [launch] = out.launches
    assert launch.entrypoint == "image" and values(launch.args)[2:] == ["--tensor-parallel-size", "2"]
