"""``vllm-lint --changes OLD NEW PATH``: the upgrade review of the options a tree uses,
and the pre-flight settings of the command line and the configuration (gpu-memory-gib,
--model-config)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from packaging.version import Version

from linter import changes
from linter.cli import main
from linter.config import ConfigError, load
from linter.discovery import discover

from ..rules.lint_helpers import have

pytestmark = pytest.mark.skipif(not have("0.29.0", "0.33.0"), reason="needs the 0.29.0 and 0.33.0 inventories")

SERVE = """#!/usr/bin/env bash
pip install "vllm==0.29.0"
exec vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 \\
  --mamba-cache-mode all \\
  --enable-prefix-caching \\
  --mamba-block-size 256 \\
  --max-model-len 32768
"""


def tree(tmp_path):
    (tmp_path / "serve.sh").write_text(SERVE)
    return list(discover([str(tmp_path)]))


def test_changes_of_the_options_used(tmp_path):
    found = changes.compare(*changes.collect(tree(tmp_path), Version("0.29.0"))[:2], Version("0.29.0"), Version("0.33.0"))
    kinds = {(c.option, c.kind) for c in found}
    # --mamba-cache-mode: `all` removed in 0.32 (argparse choices), the option deprecated in 0.33
    assert ("--mamba-cache-mode", "value") in kinds
    assert ("--mamba-cache-mode", "choices") in kinds
    assert ("--mamba-cache-mode", "deprecated") in kinds
    # --mamba-block-size: no effect for hybrids from 0.32 (migrations.yaml effects)
    assert ("--mamba-block-size", "effect") in kinds
    # --max-model-len and --enable-prefix-caching do not change
    assert not any(c.option in ("--max-model-len", "--enable-prefix-caching") for c in found)
    (value,) = [c for c in found if c.kind == "value"]
    assert value.new == "`all` removed in 0.32.0" and value.note == "use `align`"
    assert value.places == [f"{tmp_path / 'serve.sh'}:4"]


def test_nothing_changes_inside_one_release_range(tmp_path):
    found = changes.compare(*changes.collect(tree(tmp_path), Version("0.29.0"))[:2], Version("0.29.0"), Version("0.30.0"))
    assert not any(c.option == "--mamba-block-size" for c in found)  # no effect only from 0.32


def test_cli_text_and_markdown(tmp_path):
    tree(tmp_path)
    runner = CliRunner()
    text = runner.invoke(main, ["--changes", "0.29", "0.33", str(tmp_path)])
    assert text.exit_code == 0, text.output
    assert text.output.startswith("Changes from vLLM 0.29.0 to 0.33.0")
    assert "--mamba-cache-mode" in text.output and "option" in text.output.splitlines()[1]
    md = runner.invoke(main, ["--changes", "0.29", "0.33", "--changes-format", "markdown", str(tmp_path)])
    assert md.exit_code == 0
    assert "| option | change | 0.29.0 | 0.33.0 | note | used at |" in md.output
    assert "| `--mamba-cache-mode` | value | `all` accepted | `all` removed in 0.32.0 | use `align` |" in md.output
    bad = runner.invoke(main, ["--changes", "0.33", "0.29", str(tmp_path)])
    assert bad.exit_code == 2


def test_gpu_memory_gib_key(tmp_path):
    cfg = tmp_path / "vllm-lint.toml"
    cfg.write_text("gpu-memory-gib = 80\n")
    assert load(str(cfg)).gpu_memory_gib == 80.0
    cfg.write_text('gpu-memory-gib = "80GB"\n')
    with pytest.raises(ConfigError, match="gpu-memory-gib"):
        load(str(cfg))


def test_gpu_memory_gib_and_model_config_reach_the_rules(tmp_path):
    # Qwen3-8B on a 24 GiB GPU at --gpu-memory-utilization 0.9 (see tests/rules/test_kv_cache_preflight.py):
    # 5,719,081,574 B left < 6,039,797,760 B for one 40,960-token request -> VL802
    (tmp_path / "serve.sh").write_text('pip install "vllm==0.31.0"\nvllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.9\n')
    (tmp_path / "vllm-lint.toml").write_text("gpu-memory-gib = 24\n")
    runner = CliRunner()
    out = runner.invoke(main, ["--config", str(tmp_path / "vllm-lint.toml"), "--output-format", "concise", str(tmp_path / "serve.sh")])
    assert "VL802" in out.output, out.output
    # a config.json of a model with half the layers (18): 73,728 B per token; 40,960 tokens = 3,019,898,880 B
    # weights from the index: 8,200,000,000 B -> pool 23,192,823,398 - 8,200,000,000 - 1 GiB = 13,919,081,574: fits
    snap = tmp_path / "snap"
    snap.mkdir()
    (snap / "config.json").write_text(json.dumps({"num_hidden_layers": 18, "num_attention_heads": 32, "num_key_value_heads": 8,
                                                 "head_dim": 128, "max_position_embeddings": 40960, "torch_dtype": "bfloat16"}))
    (snap / "model.safetensors.index.json").write_text(json.dumps({"metadata": {"total_size": 8_200_000_000}}))
    args = ["--config", str(tmp_path / "vllm-lint.toml"), "--output-format", "concise", "--model-config", f"Qwen/Qwen3-8B={snap / 'config.json'}",
            "--extend-select", "VL803", str(tmp_path / "serve.sh")]
    out = runner.invoke(main, args)
    assert "VL802" not in out.output and "VL803" in out.output, out.output
    missing = runner.invoke(main, ["--model-config", str(tmp_path / "nope.json"), str(tmp_path / "serve.sh")])
    assert missing.exit_code == 2


def test_a_pipe_swapped_in_after_discovery_is_skipped_not_read(tmp_path):
    import os
    import threading

    script = tmp_path / "serve.sh"
    script.write_text(SERVE)
    found = list(discover([str(tmp_path)]))
    script.unlink()
    os.mkfifo(script)  # what discovery saw as a regular file is now a pipe
    out: list = []
    t = threading.Thread(target=lambda: out.append(changes.collect(found, Version("0.29.0"))), daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "--changes blocked on a named pipe"
    options, env, launches = out[0]
    assert (options, env, launches) == ({}, {}, 0)


def test_changes_count_launches_as_show_launches_and_list_only_used_values(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen3-8B --config serve.yaml --mamba-cache-mode align --tokenizer-mode auto\n")
    (tmp_path / "serve.yaml").write_text("max-model-len: 8192\nmamba-cache-mode: all\n")
    (tmp_path / "other.sh").write_text("vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --mamba-cache-mode all --limit-mm-per-prompt '{}'\n")
    found = list(discover([str(tmp_path)]))
    options, env, launches = changes.collect(found, Version("0.29.0"))
    assert launches == 3  # serve.sh, the config file it names (once), other.sh
    assert sorted(options["--mamba-cache-mode"].values[(None, "all")]) == [f"{tmp_path}/other.sh:1", f"{tmp_path}/serve.yaml:2"]
    out = changes.compare(options, env, Version("0.29.0"), Version("0.33.0"))
    values = [c for c in out if c.kind == "value"]
    assert [(c.option, c.old, c.new) for c in values] == [("--mamba-cache-mode", "`all` accepted", "`all` removed in 0.32.0")]
    assert sorted(values[0].places) == [f"{tmp_path}/other.sh:1", f"{tmp_path}/serve.yaml:2"]
    assert not [c for c in out if c.option == "--tokenizer-mode"]  # `slow` is not used
    assert not [c for c in out if c.kind == "default" and "repr" in c.new + c.old]
