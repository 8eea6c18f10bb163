"""VL801: arguments for the vllm/vllm-openai image that repeat its `vllm serve` entrypoint."""

from __future__ import annotations

import pytest

from .lint_helpers import fixed, flagged, have, lint

pytestmark = pytest.mark.skipif(not have("0.31.0"), reason="needs the 0.31.0 inventory")

FLOW = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:{tag}
          args: ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
"""

BLOCK = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.31.0
          args:
            - vllm
            - serve
            # the model
            - Qwen/Qwen3-8B
            - --max-model-len
            - "8192"
"""

COMPOSE = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.31.0
    ipc: host
    command: vllm serve Qwen/Qwen3-8B --max-model-len 8192
"""

COMPOSE_LIST = """\
services:
  vllm:
    image: vllm/vllm-openai:latest
    command:
      - vllm
      - serve
      - Qwen/Qwen3-8B
"""

DOCKER_RUN = """\
#!/bin/sh
docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.31.0 \\
  vllm serve Qwen/Qwen3-8B --max-model-len 8192
"""


def test_kubernetes_flow_list(tmp_path):
    result = lint(tmp_path, "deploy.yaml", FLOW.format(tag="v0.31.0"), "yaml")
    assert flagged(result, "VL801") == ['"vllm", "serve"']
    out = fixed(tmp_path, "deploy.yaml", FLOW.format(tag="v0.31.0"), "yaml", "0.31")
    assert 'args: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]' in out


def test_kubernetes_block_list_keeps_its_style(tmp_path):
    text = BLOCK.replace("            # the model\n", "")
    assert flagged(lint(tmp_path, "deploy.yaml", text, "yaml"), "VL801") == ["vllm\n            - serve"]
    out = fixed(tmp_path, "deploy.yaml", text, "yaml", "0.31")
    assert "          args:\n            - Qwen/Qwen3-8B\n            - --max-model-len\n" in out


def test_no_fix_across_a_comment(tmp_path):
    result = lint(tmp_path, "deploy.yaml", BLOCK, "yaml")
    (d,) = [d for d in result.diagnostics if d.code == "VL801"]
    assert d.fix is None


def test_compose_string_and_list(tmp_path):
    result = lint(tmp_path, "docker-compose.yaml", COMPOSE, "yaml")
    assert flagged(result, "VL801") == ["vllm serve"]
    assert "command: Qwen/Qwen3-8B --max-model-len 8192" in fixed(tmp_path, "docker-compose.yaml", COMPOSE, "yaml", "0.31")
    # `latest`: the newest release, whose image runs `vllm serve`
    assert flagged(lint(tmp_path, "docker-compose.yaml", COMPOSE_LIST, "yaml"), "VL801") == ["vllm\n      - serve"]
    assert "    command:\n      - Qwen/Qwen3-8B\n" in fixed(tmp_path, "docker-compose.yaml", COMPOSE_LIST, "yaml", "0.31")


def test_docker_run(tmp_path):
    result = lint(tmp_path, "run.sh", DOCKER_RUN, "shell")
    assert flagged(result, "VL801") == ["vllm serve"]
    out = fixed(tmp_path, "run.sh", DOCKER_RUN, "shell", "0.31")
    assert "vllm/vllm-openai:v0.31.0 \\\n  Qwen/Qwen3-8B --max-model-len 8192" in out


def test_images_before_the_entrypoint_change_are_not_reported(tmp_path):
    # v0.12.0 images still ran python3 -m vllm.entrypoints.openai.api_server
    assert not flagged(lint(tmp_path, "deploy.yaml", FLOW.format(tag="v0.12.0"), "yaml"), "VL801")


def test_explicit_command_or_other_image_is_fine(tmp_path):
    text = FLOW.format(tag="v0.31.0").replace('args: ["vllm", "serve", ', 'command: ["vllm", "serve"]\n          args: [')
    assert not flagged(lint(tmp_path, "deploy.yaml", text, "yaml"), "VL801")
    custom = COMPOSE.replace("vllm/vllm-openai:v0.31.0", "registry.example.com/team/vllm-server:1.4")
    assert not flagged(lint(tmp_path, "docker-compose.yaml", custom, "yaml"), "VL801")


DOCKERFILE = """\
FROM vllm/vllm-openai:v0.31.0
ENV HF_HOME=/models
CMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
"""


def test_dockerfile_cmd_under_the_image_entrypoint(tmp_path):
    result = lint(tmp_path, "Dockerfile", DOCKERFILE, "dockerfile")
    assert flagged(result, "VL801") == ['"vllm", "serve"']
    out = fixed(tmp_path, "Dockerfile", DOCKERFILE, "dockerfile", "0.31")
    assert 'CMD ["Qwen/Qwen3-8B", "--max-model-len", "8192"]' in out
    own = DOCKERFILE.replace("CMD", 'ENTRYPOINT ["vllm", "serve"]\nCMD').replace('"vllm", "serve", "Qwen', '"Qwen')
    assert not flagged(lint(tmp_path, "Dockerfile", own, "dockerfile"), "VL801")
