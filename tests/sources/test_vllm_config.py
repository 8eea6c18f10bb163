"""vLLM --config files: settings with exact places and YAML 1.1 types."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import vllm_config
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch, check_token

CONFIG = """\
# config.yaml
model: /data/models/qwen2.5-7B
host: "0.0.0.0"
port: 8000
gpu-memory-utilization: 0.6
enforce-eager: True
enable_lora: yes
kv-transfer-config: {kv_connector: LMCacheConnectorV1, kv_role: kv_both}
served-model-name: [a, b]
max-num-seqs: ~
"""


def test_config_file_settings():
    src = SourceFile.from_text("config.yaml", CONFIG)
    out = vllm_config.extract(src)
    (launch,) = out.launches
    check_launch(src, launch)
    assert launch.kind == "vllm-config" and launch.style == "settings" and launch.entrypoint == "config"
    assert "candidate" not in launch.notes
    by = {s.name.value: s for s in launch.settings}
    assert by["host"].kind == "str" and by["host"].value.value == "0.0.0.0"
    check_token(src, by["host"].value, '"0.0.0.0"')
    assert by["port"].kind == "int" and by["gpu-memory-utilization"].kind == "float"
    assert by["enforce-eager"].kind == "bool" and by["enable_lora"].kind == "bool"  # YAML 1.1 "yes"
    assert by["max-num-seqs"].kind == "null"
    assert by["kv-transfer-config"].kind == "json"
    assert by["kv-transfer-config"].value.value == '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'
    assert by["served-model-name"].value.value == '["a","b"]'
    check_token(src, by["gpu-memory-utilization"].name, "gpu-memory-utilization")
    assert by["port"].value.editable


def test_dispatcher_marks_unnamed_config_as_candidate():
    src = SourceFile.from_text("recipe.yaml", "kv-cache-dtype: fp8\nasync-scheduling: true\nmax-num-batched-tokens: 8192\n")
    (launch,) = yaml_source.extract(src).launches
    assert launch.kind == "vllm-config" and launch.notes == ["candidate"]


def test_not_a_config():
    assert not yaml_source.extract(SourceFile.from_text("x.yaml", "Name: x\nItems: [1, 2]\n")).launches
    assert not vllm_config.looks_like_config(None)
