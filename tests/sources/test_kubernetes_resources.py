"""Kubernetes pod facts the pre-flight rules read: the GPU product and count (Launch.resources),
and the note on ``args`` that repeat the image's ``vllm serve`` entrypoint."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import commands, compose, kubernetes


def launches(text: str, module=kubernetes, name: str = "deploy.yaml"):
    return module.extract(SourceFile(name, text)).launches


GKE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen
spec:
  template:
    spec:
      nodeSelector:
        cloud.google.com/gke-accelerator: nvidia-l4
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.31.0
          args: ["Qwen/Qwen3-8B"]
          resources:
            limits:
              nvidia.com/gpu: "1"
"""

AFFINITY = """\
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: llama
spec:
  template:
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - key: nvidia.com/gpu.product
                    operator: In
                    values: [NVIDIA-A100-SXM4-80GB]
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.31.0
          command: ["vllm", "serve"]
          args: [meta-llama/Llama-3.1-8B-Instruct]
          resources:
            requests:
              nvidia.com/gpu: 2
"""


def test_node_selector_and_limit():
    (launch,) = launches(GKE)
    assert launch.resources == {"gpu-product": "nvidia-l4", "gpu-count": "1"}


def test_required_node_affinity_with_one_value():
    (launch,) = launches(AFFINITY)
    assert launch.resources == {"gpu-product": "NVIDIA-A100-SXM4-80GB", "gpu-count": "2"}


def test_affinity_with_alternatives_names_no_gpu():
    text = AFFINITY.replace("values: [NVIDIA-A100-SXM4-80GB]", "values: [NVIDIA-A100-SXM4-80GB, NVIDIA-L4]")
    (launch,) = launches(text)
    assert "gpu-product" not in launch.resources


def test_templated_values_are_not_facts():
    text = GKE.replace("nvidia-l4", "{{ .Values.gpu }}").replace('"1"', "$(GPUS)")
    (launch,) = launches(text)
    assert launch.resources == {}


def test_args_repeating_the_entrypoint_are_noted():
    text = GKE.replace('args: ["Qwen/Qwen3-8B"]', 'args: ["vllm", "serve", "Qwen/Qwen3-8B"]')
    (launch,) = launches(text)
    assert launch.entrypoint == "vllm serve"
    assert [t.value for t in launch.entry] == ["vllm", "serve"]
    assert commands.ENTRYPOINT_REPEATED in launch.notes


def test_command_vllm_serve_is_not_a_repeat():
    (launch,) = launches(AFFINITY)
    assert commands.ENTRYPOINT_REPEATED not in launch.notes


def test_compose_command_repeating_the_entrypoint_is_noted():
    text = "services:\n  vllm:\n    image: vllm/vllm-openai:v0.31.0\n    command: vllm serve Qwen/Qwen3-8B --max-model-len 8192\n"
    (launch,) = launches(text, compose, "docker-compose.yaml")
    assert commands.ENTRYPOINT_REPEATED in launch.notes
    text = text.replace("    command:", "    entrypoint: [python3, -m, vllm.entrypoints.cli.main]\n    command:").replace("vllm serve Qwen", "serve Qwen")
    (launch,) = launches(text, compose, "docker-compose.yaml")
    assert commands.ENTRYPOINT_REPEATED not in launch.notes
