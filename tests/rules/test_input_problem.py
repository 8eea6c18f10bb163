"""input-problem (VL001 parse error, VL002 not text, VL003 unreadable or too big) and
unused-suppression (VL901): made by their rule objects, so ``--select``, ``--ignore`` and
per-file ignores apply to them like to every code."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from linter import engine
from linter.cli import main
from linter.engine import Settings, input_problem, lint_file
from rules._lib.base import all_rules

BROKEN = 'services:\n  vllm:\n    image: vllm/vllm-openai:v0.32.0\n    command: [--model, "Qwen/Qwen3-8B]\n'
BINARY = b"#!/bin/sh\nvllm serve Qwen/Qwen3-8B\x00\xff\xfe\n"
UNUSED = "# vllm-lint: ignore[VL102] kept for the 0.29 fleet\nvllm serve Qwen/Qwen3-8B --max-num-seqs 8\n"


def _codes(argv, cwd) -> list[str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, [*argv, "--output-format", "json", "--no-cache"])
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.output
    return sorted(d["code"] for d in json.loads(result.stdout))


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "compose.yaml").write_text(BROKEN)
    (tmp_path / "blob.sh").write_bytes(BINARY)
    (tmp_path / "serve.sh").write_text(UNUSED)
    return tmp_path


def test_each_input_problem_is_reported(tree):
    assert _codes(["."], tree) == ["VL001", "VL002", "VL901"]


@pytest.mark.parametrize("code", ["VL001", "VL002", "VL901"])
def test_ignore_applies(tree, code):
    expected = sorted({"VL001", "VL002", "VL901"} - {code})
    assert _codes([".", "--ignore", code], tree) == expected


def test_select_applies(tree):
    assert _codes([".", "--select", "VL0"], tree) == ["VL001", "VL002"]
    assert _codes([".", "--select", "VL1,VL9"], tree) == ["VL901"]
    assert _codes([".", "--select", "VL9"], tree) == []  # VL102 is not enabled: its suppression is not judged
    assert _codes([".", "--select", "VL1"], tree) == []


def test_per_file_ignores_apply(tree):
    (tree / "vllm-lint.toml").write_text('per-file-ignores = { "compose.yaml" = ["VL001"], "blob.sh" = ["VL0"], "serve.sh" = ["VL901"] }\n')
    assert _codes(["."], tree) == []


def test_vl003_too_big_obeys_ignore_and_per_file_ignores(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "MAX_FILE_BYTES", 64)
    path = tmp_path / "serve.sh"
    path.write_text("vllm serve Qwen/Qwen3-8B --max-model-len 8192  # " + "x" * 80 + "\n")
    rules = all_rules()
    (d,) = lint_file(str(path), "shell", Settings(), rules).diagnostics
    assert d.code == "VL003" and d.severity.value == "error" and "byte limit" in d.message
    assert lint_file(str(path), "shell", Settings(ignore=frozenset({"VL003"})), rules).diagnostics == []
    assert lint_file(str(path), "shell", Settings(select=frozenset({"VL1"})), rules).diagnostics == []
    per_file = Settings(per_file_ignores=lambda p: frozenset({"VL00"}) if p.endswith(".sh") else frozenset())
    assert lint_file(str(path), "shell", per_file, rules).diagnostics == []


def test_vl003_unreadable(tmp_path):
    missing = tmp_path / "gone.sh"
    (d,) = lint_file(str(missing), "shell", Settings(), all_rules()).diagnostics
    assert d.code == "VL003" and d.message.startswith("cannot read file")
    assert input_problem("VL003", str(missing), "cannot read", Settings(ignore=frozenset({"ALL"}))).diagnostics == []


def test_vl002_is_a_warning_stamped_by_its_rule(tmp_path):
    path = tmp_path / "blob.sh"
    path.write_bytes(BINARY)
    (d,) = lint_file(str(path), "shell", Settings(), all_rules()).diagnostics
    assert d.code == "VL002" and d.severity.value == "warning" and d.fix is None
