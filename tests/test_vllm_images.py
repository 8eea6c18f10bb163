"""``vllm-images`` in the configuration: vendor images whose entrypoint is vLLM's, in every reader."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from linter.cli import main
from linter.config import ConfigError, load

PYPROJECT = '[project]\nname = "serving"\n\n[tool.vllm-lint]\nvllm-images = ["registry.example.com/ml/serve", "ghcr.io/acme/vllm-*"]\n'

RUN_SH = (
    "#!/bin/sh\r\n"
    "docker run --rm --gpus all registry.example.com/ml/serve:2.1-cuda12 \\\r\n"
    "  --model Qwen/Qwen3-8B --swap-space 4\r\n"
    "docker run --rm ghcr.io/acme/vllm-gpu:v0.30.0 Qwen/Qwen3-8B --max-num-seq 8\r\n"
    "docker run --rm registry.example.com/ml/serve-tools:1 --swap-space 4\r\n"  # not matched: its own entrypoint
    "vllm serve Qwen/Qwen3-0.6B --swap-space 2\r\n"
)
COMPOSE = (
    "services:\n"
    "  chat:\n"
    "    image: registry.example.com/ml/serve:2.1-cuda12\n"
    "    command: [\"--model\", \"Qwen/Qwen3-8B\", \"--swap-space\", \"4\"]\n"
)
DEPLOY = (
    "apiVersion: v1\n"
    "kind: Pod\n"
    "metadata: {name: chat}\n"
    "spec:\n"
    "  containers:\n"
    "    - name: engine\n"
    "      image: 'registry.example.com/ml/serve@sha256:0123abcd'\n"
    "      args: [Qwen/Qwen3-8B, --swap-space, '4']\n"
)
DOCKERFILE = 'FROM registry.example.com/ml/serve:2.1-cuda12\nCMD ["Qwen/Qwen3-8B", "--swap-space", "4"]\n'


def _project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "run.sh").write_bytes(RUN_SH.encode())
    (tmp_path / "docker-compose.yaml").write_text(COMPOSE, encoding="utf-8")
    (tmp_path / "pod.yaml").write_text(DEPLOY, encoding="utf-8")
    (tmp_path / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")


def _launches(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [".", "--no-cache", "--show-launches", "--output-format", "json"])
    assert result.exit_code == 0, result.output
    return sorted((l["file"].rsplit("/", 1)[-1], l["line"], l["model"], l["strong"]) for l in json.loads(result.stdout))


def test_configured_images_are_vllm_images_in_every_reader(tmp_path, monkeypatch):
    _project(tmp_path)
    assert _launches(tmp_path, monkeypatch) == [
        ("Dockerfile", 2, "Qwen/Qwen3-8B", True),
        ("docker-compose.yaml", 3, "Qwen/Qwen3-8B", True),
        ("pod.yaml", 6, "Qwen/Qwen3-8B", True),
        ("run.sh", 2, "Qwen/Qwen3-8B", True),
        ("run.sh", 4, "Qwen/Qwen3-8B", True),
        ("run.sh", 6, "Qwen/Qwen3-0.6B", True),  # the plain launch beside them
    ]
    # strong evidence: the fix applies (and only where the option stands)
    result = CliRunner().invoke(main, ["run.sh", "--no-cache", "--fix", "--target-version", "0.32"])
    assert result.exit_code == 1, result.output
    assert (tmp_path / "run.sh").read_bytes().decode() == RUN_SH.replace("--max-num-seq 8", "--max-num-seqs 8")


def test_without_the_setting_they_are_not(tmp_path, monkeypatch):
    _project(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "serving"\n', encoding="utf-8")
    # the walk skips files that do not name vLLM; ghcr.io/acme/vllm-gpu is merely named like vLLM's
    assert _launches(tmp_path, monkeypatch) == [
        ("run.sh", 4, "Qwen/Qwen3-8B", False),
        ("run.sh", 6, "Qwen/Qwen3-0.6B", True),
    ]


@pytest.mark.parametrize(
    "value, words",
    [
        ('"registry.example.com/ml/serve"', ["`vllm-images` must be a list of strings"]),
        ('["ok/serve", 3]', ["`vllm-images` must be a list of strings"]),
        ('["*"]', ["`vllm-images` names '*'", "matches every image"]),
        ('[""]', ["`vllm-images` names ''", "is empty"]),
        ('["registry.example.com/ml/serve latest"]', ["`vllm-images` names", "holds ' '"]),
        ('["{{ .Values.image }}"]', ["`vllm-images` names", "'{'"]),
    ],
)
def test_bad_values_name_the_key(tmp_path, value, words):
    path = tmp_path / "vllm-lint.toml"
    path.write_text(f"vllm-images = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load(str(path))
    for w in words:
        assert w in str(err.value)
    assert str(path) in str(err.value)


def test_a_bad_value_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nvllm-images = ["**"]\n', encoding="utf-8")
    (tmp_path / "run.sh").write_text("vllm serve m\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["run.sh"])
    assert result.exit_code == 2 and "vllm-images" in result.output


def test_read_from_the_file(tmp_path):
    path = tmp_path / "vllm-lint.toml"
    path.write_text('vllm-images = [" ghcr.io/acme/vllm-* "]\n', encoding="utf-8")
    assert load(str(path)).vllm_images == ["ghcr.io/acme/vllm-*"]
