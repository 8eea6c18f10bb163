"""Kubernetes containers: command + args, image entrypoints, sh -c scripts, $(VAR), env, groups."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import kubernetes
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch, check_token, values

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: llama
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.8.5
          command: ["vllm", "serve"]
          args:
            - meta-llama/Llama-3.1-8B-Instruct
            - "--max-model-len 8192"
            - --dtype=bfloat16
            - --served-model-name
            - $(MODEL_NAME)
          env:
            - name: MODEL_NAME
              value: llama
            - name: VLLM_USE_V1
              value: "1"
            - name: VLLM_HOST_IP
              valueFrom:
                fieldRef: {fieldPath: status.podIP}
        - name: lmcache
          image: lmcache/standalone:latest
          command: [lmcache, server, --port, "65432"]
"""


def _extract(text: str, path: str = "deploy.yaml"):
    src = SourceFile.from_text(path, text)
    out = yaml_source.extract(src)
    for launch in out.launches:
        check_launch(src, launch)
    return src, out


def test_command_and_args_join_into_one_argv():
    src, out = _extract(DEPLOYMENT)
    vllm, lmcache = out.launches
    assert vllm.kind == "k8s" and vllm.entrypoint == "vllm serve"
    assert values(vllm.entry) == ["vllm", "serve"]
    assert values(vllm.args) == ["meta-llama/Llama-3.1-8B-Instruct", "--max-model-len 8192", "--dtype=bfloat16", "--served-model-name", "$(MODEL_NAME)"]
    check_token(src, vllm.args[1], '"--max-model-len 8192"')  # one list item stays one token
    assert vllm.args[1].value_start == src.text.index("--max-model-len 8192")
    check_token(src, vllm.args[2], "--dtype=bfloat16")
    var = vllm.args[4]
    assert var.opaque == ((0, len("$(MODEL_NAME)")),)
    assert [e.name.value for e in vllm.env] == ["VLLM_USE_V1", "VLLM_HOST_IP"]
    assert vllm.env[0].value.value == "1" and vllm.env[1].value is None
    hint = vllm.version_hint
    assert hint.version == "v0.8.5" and hint.origin == "image-tag" and src.text[hint.span.start : hint.span.end] == "v0.8.5"
    assert lmcache.program == "lmcache" and values(lmcache.args) == ["--port", "65432"]
    assert vllm.group == lmcache.group == "Deployment/llama/spec.template"


def test_vllm_image_with_only_args_runs_its_entrypoint():
    text = """\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: server
    image: docker.io/vllm/vllm-openai:latest
    args: [--model, facebook/opt-125m, --max-num-seqs=16]
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.entrypoint == "image" and launch.entry == []
    assert values(launch.args) == ["--model", "facebook/opt-125m", "--max-num-seqs=16"]
    assert launch.image.value == "docker.io/vllm/vllm-openai:latest"
    assert launch.version_hint.version == "latest"
    check_token(src, launch.args[2], "--max-num-seqs=16")


def test_sh_c_literal_block_goes_to_the_shell_extractor():
    text = """\
apiVersion: batch/v1
kind: Job
metadata: {name: bench}
spec:
  template:
    spec:
      containers:
      - name: main
        image: vllm/vllm-openai:v0.10.0
        command: ["/bin/sh", "-c"]
        args:
          - |
            pip install foo
            exec vllm serve Qwen/Qwen3-8B \\
              --tensor-parallel-size 2 \\
              --gpu-memory-utilization=0.9
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.entrypoint == "vllm serve"
    assert values(launch.args) == ["Qwen/Qwen3-8B", "--tensor-parallel-size", "2", "--gpu-memory-utilization=0.9"]
    tok = launch.args[3]
    assert tok.editable and src.text[tok.value_start : tok.value_start + len(tok.value)] == tok.value
    assert launch.version_hint.version == "v0.10.0"
    assert launch.group == "Job/bench/spec.template"


def test_nested_sh_c_and_bash_lc_dashdash():
    text = """\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: head
    image: vllm/vllm-openai:v0.7.1
    command: ["/bin/bash", "-lc", "--"]
    args: ["ulimit -n 65536; sh -c 'vllm serve m --port 8000'"]
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert values(launch.args) == ["m", "--port", "8000"]


def test_kind_list_and_lws_leader_worker_templates():
    text = """\
apiVersion: v1
kind: List
items:
- apiVersion: leaderworkerset.x-k8s.io/v1
  kind: LeaderWorkerSet
  metadata: {name: vllm}
  spec:
    leaderWorkerTemplate:
      size: 2
      leaderTemplate:
        spec:
          containers:
          - name: leader
            image: vllm/vllm-openai:v0.8.5
            command: [sh, -c, "ray start --head; python3 -m vllm.entrypoints.openai.api_server --port 8080 --tensor-parallel-size 8"]
      workerTemplate:
        spec:
          containers:
          - name: worker
            image: vllm/vllm-openai:v0.8.5
            command: [vllm, serve, m, --headless]
"""
    src, out = _extract(text)
    groups = {l.group: l for l in out.launches}
    leader = groups["LeaderWorkerSet/vllm/spec.leaderWorkerTemplate.leaderTemplate"]
    worker = groups["LeaderWorkerSet/vllm/spec.leaderWorkerTemplate.workerTemplate"]
    assert leader.entrypoint == "api_server" and values(leader.args) == ["--port", "8080", "--tensor-parallel-size", "8"]
    assert values(worker.args) == ["m", "--headless"]


def test_kserve_inference_service_and_serving_runtime():
    text = """\
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: llama}
spec:
  predictor:
    containers:
      - command: [python3, -m, vllm.entrypoints.api_server]
        args: [--port, "8080", --model, /mnt/models]
        image: kserve/vllmserver:latest
---
apiVersion: serving.kserve.io/v1alpha1
kind: ClusterServingRuntime
metadata: {name: vllm-runtime}
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.9.2
      args: ["--port=8080", "--model=/mnt/models"]
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: hf}
spec:
  predictor:
    model:
      modelFormat: {name: huggingface}
      args: [--max-model-len=1024, --enforce-eager]
"""
    src, out = _extract(text)
    isvc, runtime, hf = out.launches
    assert isvc.entrypoint == "api_server" and values(isvc.args)[-1] == "/mnt/models"
    assert runtime.entrypoint == "image" and runtime.group == "ClusterServingRuntime/vllm-runtime/"
    assert values(hf.args) == ["--max-model-len=1024", "--enforce-eager"]


def test_crlf_manifest_keeps_exact_places():
    text = DEPLOYMENT.replace("\n", "\r\n")
    src, out = _extract(text)
    vllm = out.launches[0]
    check_token(src, vllm.args[2], "--dtype=bfloat16")
    assert vllm.args[2].editable


def test_kustomize_patch_args_without_image():
    text = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm-gemma-deployment}
spec:
  template:
    spec:
      containers:
      - name: inference-server
        args:
        - --model=$(MODEL_ID)
        - --quantization=awq
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.entrypoint == "image" and "image entrypoint assumed to be vLLM's" in launch.notes
    assert launch.args[0].opaque == ((8, 19),)


def test_additional_args_env_variable():
    text = """\
apiVersion: serving.kserve.io/v1alpha1
kind: LLMInferenceService
metadata: {name: x}
spec:
  template:
    containers:
      - name: main
        env:
          - name: VLLM_ADDITIONAL_ARGS
            value: "--trust-remote-code --tensor-parallel-size=8"
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert values(launch.args) == ["--trust-remote-code", "--tensor-parallel-size=8"]
    check_token(src, launch.args[1], "--tensor-parallel-size=8")
    assert launch.args[1].editable


def test_kubernetes_extract_directly():
    out = kubernetes.extract(SourceFile.from_text("d.yaml", DEPLOYMENT))
    assert len(out.launches) == 2 and not out.problems


WORKFLOWS = """\
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: serve-
spec:
  entrypoint: serve
  templates:
    - name: serve
      container:
        image: vllm/vllm-openai:v0.9.0
        args: ["--model", "Qwen/Qwen3-8B", "--max-num-seq", "16"]
      sidecars:
        - name: metrics
          image: prom/node-exporter
          args: ["--web.listen-address=:9100"]
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: serve-smoke
spec:
  steps:
    - name: serve
      image: vllm/vllm-openai:v0.10.0
      args: ["--model", "Qwen/Qwen3-0.6B", "--max-num-seqs", "4"]
    - name: probe
      image: curlimages/curl
      args: ["--retry", "30", "http://localhost:8000/health"]
  sidecars:
    - name: second
      image: vllm/vllm-openai:v0.10.0
      command: ["vllm", "serve", "Qwen/Qwen3-0.6B", "--port", "8001"]
"""


def test_argo_and_tekton_containers_are_containers() -> None:
    """An Argo Workflows template's ``container`` and ``sidecars`` and a Tekton task's
    ``steps`` and ``sidecars`` are containers like a pod's: their image pins the release and
    runs their arguments.  (Read before as bare flags beside a vLLM image, weak evidence, the
    Argo launch was checked against the newest release: a false "``--model`` is deprecated"
    for a v0.9.0 image, whose entrypoint is the OpenAI server.)"""
    src = SourceFile.from_text("workflows.yaml", WORKFLOWS)
    ex = kubernetes.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    got = [(launch.entrypoint, values(launch.args)[:2], launch.version_hint.version if launch.version_hint else None, launch.strong)
           for launch in ex.launches]
    assert got == [
        ("image", ["--model", "Qwen/Qwen3-8B"], "v0.9.0", True),
        ("image", ["--model", "Qwen/Qwen3-0.6B"], "v0.10.0", True),
        ("vllm serve", ["Qwen/Qwen3-0.6B", "--port"], "v0.10.0", True),
    ]
    assert not ex.problems


VENDOR_IMAGE = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: llama}
spec:
  template:
    spec:
      containers:
        - name: server
          image: registry.example.com/ml/vllm-cuda:2.4
          args:
            - --model=meta-llama/Llama-3.1-8B-Instruct
            - --max-model-len=8192
            - --gpu-memory-utilization=0.9
            - --enable-chunked-prefill
            - --max-num-chunked-tokens=512
"""


def test_a_near_miss_flag_is_reported_on_an_image_named_like_vllms(tmp_path):
    """Args on an image merely named like vLLM's are vLLM's when the argument model confirms
    them: a typo of a real option (``--max-num-chunked-tokens``) is reported, not taken for a
    fork's own flag that silences the whole launch; a flag far from any option still is."""
    from tests.rules.lint_helpers import flagged, lint

    result = lint(tmp_path, "deploy.yaml", VENDOR_IMAGE, "yaml", target="0.33")
    (rep,) = result.launches
    assert not rep.launch.strong
    assert flagged(result, "VL104") == ["--max-num-chunked-tokens"]
    assert all(d.fix is None for d in result.diagnostics)
    fork = VENDOR_IMAGE.replace("--max-num-chunked-tokens=512", "--enable-turboquant")
    assert lint(tmp_path, "deploy.yaml", fork, "yaml", target="0.33").launches == []


KFP_COMPONENT = """\
name: Serve with vLLM
inputs:
- {name: model_dir, type: String}
- {name: context_length, type: Integer, default: '8192'}
- {name: lora_dir, type: String, optional: true}
implementation:
  container:
    image: vllm/vllm-openai:v0.9.1
    command: [python3, -m, vllm.entrypoints.openai.api_server]
    args:
    - --model
    - {inputPath: model_dir}
    - --max-model-len
    - {inputValue: context_length}
    - --served-model-name
    - {concat: [served-, {inputValue: context_length}]}
    - if:
        cond: {isPresent: lora_dir}
        then: [--enable-lora, --lora-modules, {inputPath: lora_dir}]
    - --dtype
    - bfloat16
"""


def test_kubeflow_component_placeholders_are_unknown_words(tmp_path):
    """A Kubeflow Pipelines component's ``{inputValue: x}`` / ``{inputPath: x}`` / ``{concat:
    [...]}`` items are the words the pipeline puts there: unknown values, kept in place.
    (Dropped before, ``--model --max-model-len ...`` read as two flags without values: false
    "expects a value" errors on every placeholder.)  An ``{if: ...}`` item may give any number
    of words: nothing is concluded from the positions after it."""
    from tests.rules.lint_helpers import lint

    result = lint(tmp_path, "component.yaml", KFP_COMPONENT, "yaml")
    assert [d.code for d in result.diagnostics] == []
    (rep,) = result.launches
    launch = rep.launch
    check_launch(SourceFile.from_text("component.yaml", KFP_COMPONENT), launch)
    got = values(launch.args)
    assert got[:6] == ["--model", "{inputPath: model_dir}", "--max-model-len", "{inputValue: context_length}",
                       "--served-model-name", "{concat: [served-, {inputValue: context_length}]}"]
    assert got[-2:] == ["--dtype", "bfloat16"]
    assert all(t.is_opaque and t.value_start is None for t in launch.args[1:6:2])
    assert launch.args[6].splat and launch.args[6].conditional
    assert launch.version_hint.version == "v0.9.1"


SCRIPT_STEPS = """\
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: smoke
spec:
  steps:
  - name: serve
    image: vllm/vllm-openai:v0.10.2
    env:
    - name: VLLM_LOGGING_LEVEL
      value: DEBUG
    script: |
      #!/usr/bin/env bash
      set -e
      vllm serve $(params.model) --max-model-len 4096 --dtype=bfloat16 &
      sleep 120
  - name: report
    image: python:3.12
    script: |
      #!/usr/bin/env python3
      print("vllm serve done")
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: smoke-
spec:
  entrypoint: serve
  templates:
  - name: serve
    script:
      image: vllm/vllm-openai:v0.9.0
      command: [bash]
      source: |
        vllm serve {{workflow.parameters.model}} --port 8000 --max-num-seqs 64
"""


def test_tekton_script_and_argo_source_run_instead_of_the_entrypoint():
    """A Tekton step's ``script`` and an Argo script template's ``source`` are what the
    container runs: their ``vllm serve`` is the launch, pinned by the step's image, with the
    step's VLLM_* variables.  (Before, the Tekton step read as the image's entrypoint run
    with no arguments and its script was never read; the Argo launch was found by the
    generic walk without its image, so checked against the newest release.)  A Python
    script is not read as shell."""
    src = SourceFile.from_text("pipeline.yaml", SCRIPT_STEPS)
    ex = yaml_source.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    got = [(launch.entrypoint, values(launch.args), launch.version_hint.version if launch.version_hint else None,
            [e.name.value for e in launch.env]) for launch in ex.launches]
    assert got == [
        ("vllm serve", ["$(params.model)", "--max-model-len", "4096", "--dtype=bfloat16"], "v0.10.2", ["VLLM_LOGGING_LEVEL"]),
        ("vllm serve", ["{{workflow.parameters.model}}", "--port", "8000", "--max-num-seqs", "64"], "v0.9.0", []),
    ]


NAMED_CONTAINER = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: chat}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: registry.local/llm-serving:gpu
          args: ["--model", "Qwen/Qwen2.5-0.5B-Instruct", "--max-model-len", "1024", "--swap-space", "4"]
        - name: vllm-router
          image: registry.local/router:1
          args: ["--model", "Qwen/Qwen2.5-0.5B-Instruct", "--port", "8001"]
        - name: vllm-sim
          image: registry.local/inference-sim:1
          args: ["--model", "m", "--max-num-seqs", "8", "--inter-token-latency", "20ms", "--prefill-overhead", "25ms"]
"""


def test_args_of_a_container_named_vllm_on_an_image_of_its_own(tmp_path):
    """``- name: vllm`` running the project's own image (``llm-serving:gpu``, a CI placeholder)
    with flags only: a weak launch, its image's entrypoint assumed vLLM's, kept when the
    argument model confirms the flags and never edited.  (Before, no launch: nothing but the
    name says vLLM.)  A router named after vLLM gives none; a simulator's own flags drop it."""
    from tests.rules.lint_helpers import flagged, lint

    result = lint(tmp_path, "deploy.yaml", NAMED_CONTAINER, "yaml", target="0.33")
    (rep,) = result.launches
    assert (rep.launch.entrypoint, rep.launch.strong) == ("image", False)
    assert values(rep.launch.args)[:2] == ["--model", "Qwen/Qwen2.5-0.5B-Instruct"]
    assert "container vllm" in rep.launch.evidence
    assert flagged(result, "VL101") == ["--swap-space"]
    assert all(d.fix is None for d in result.diagnostics)
