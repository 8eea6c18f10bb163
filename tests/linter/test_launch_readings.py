"""The launch readings rules share (ParsedLaunch.model, flag, int_value, spelling), in the forms
a launch is written: a shell line, Python keywords, a vLLM ``--config`` file."""

from pathlib import Path

import pytest

from linter import argmodel, knowledge
from linter.engine import extract
from linter.source_file import SourceFile


def _parsed(tmp_path: Path, name: str, text: str, kind: str) -> argmodel.ParsedLaunch:
    path = tmp_path / name
    path.write_text(text)
    (launch,) = extract(SourceFile(str(path), text), kind).launches
    return argmodel.parse(launch, knowledge.release(knowledge.newest()))


SHELL = "vllm serve Qwen/Qwen3-8B --no-enable-prefix-caching --max-model-len 32k --max-num-seqs $SEQS\n"
PY = 'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", enable_prefix_caching=False, max_model_len=32768, max_num_seqs=n)\n'
CONFIG = "model: Qwen/Qwen3-8B\nenable-prefix-caching: false\nmax-model-len: 32K\n"


@pytest.mark.parametrize(
    "name,text,kind,spelling,length",
    [
        ("serve.sh", SHELL, "shell", "--max-model-len", 32000),
        ("offline.py", PY, "python", "max_model_len=", 32768),
        ("config.yaml", CONFIG, "vllm-config", "max-model-len: ", 32768),
    ],
)
def test_readings(tmp_path, name, text, kind, spelling, length):
    parsed = _parsed(tmp_path, name, text, kind)
    if kind != "vllm-config":  # a config file names its model as a setting of the launch that reads it
        assert parsed.model == "Qwen/Qwen3-8B"
    is_set, on, opt = parsed.flag("enable_prefix_caching")
    assert is_set and on is False and opt is not None
    assert parsed.flag("enforce_eager") == (False, None, None)
    assert parsed.int_value("max_model_len") == length
    assert parsed.spelling("max_model_len") == spelling


def test_unknown_values_stay_unknown(tmp_path):
    parsed = _parsed(tmp_path, "serve.sh", SHELL, "shell")
    assert parsed.int_value("max_num_seqs") is None  # $SEQS
    assert parsed.int_value("tensor_parallel_size") is None  # not set
    opaque = _parsed(tmp_path, "model.sh", "vllm serve \"$MODEL\" --max-model-len 8192\n", "shell")
    assert opaque.model is None and opaque.model_item is not None


def test_json_object_of_dotted_and_json_text(tmp_path):
    text = "vllm serve Qwen/Qwen3-8B --kv-transfer-config.kv_connector LMCacheMPConnector --hf-overrides '{\"rope_scaling\": {\"factor\": 4}}'\n"
    parsed = _parsed(tmp_path, "serve.sh", text, "shell")
    assert parsed.last("kv_transfer_config").json_object == {"kv_connector": "LMCacheMPConnector"}
    assert parsed.last("hf_overrides").json_object == {"rope_scaling": {"factor": 4}}
