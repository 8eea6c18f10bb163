"""The Dockerfile grammar apart from its reader: an ``ENV`` fix of a run whose extractions
come from the cache (a new ``--target-version``) neither imports the reader nor the shell
grammar it pulls in, and says what a run that reads the file says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from linter.sources.dockerfile_grammar import env_instruction_at
from linter.launch import Span

ROOT = Path(__file__).resolve().parents[2]

DOCKERFILE = """FROM vllm/vllm-openai:v0.30.1
ENV VLLM_ATTENTION_BACKEND=FLASHINFER \\
    HF_HOME=/data
ENV LEGACY value
CMD ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
"""


def test_env_instruction_at_gives_the_instruction_and_its_pairs():
    at = DOCKERFILE.index("VLLM_ATTENTION_BACKEND")
    instr, pairs = env_instruction_at(DOCKERFILE, at)
    assert DOCKERFILE[instr.start : instr.end] == "ENV VLLM_ATTENTION_BACKEND=FLASHINFER \\\n    HF_HOME=/data"
    assert [DOCKERFILE[p.start : p.end] for p in pairs] == ["VLLM_ATTENTION_BACKEND=FLASHINFER", "HF_HOME=/data"]
    legacy = env_instruction_at(DOCKERFILE, DOCKERFILE.index("LEGACY"))
    assert legacy is not None and [DOCKERFILE[p.start : p.end] for p in legacy[1]] == ["LEGACY value"]
    assert env_instruction_at(DOCKERFILE, 0) is None  # FROM is no ENV
    assert env_instruction_at("ENV A=1", 4) == (Span(0, 7), [Span(4, 7)])  # no final newline


PROBE = """
import contextlib, io, json, sys
sys.argv = ["vllm-lint", *sys.argv[1:]]
out = io.StringIO()
try:
    with contextlib.redirect_stdout(out):
        import linter.cli
        linter.cli.main(sys.argv[1:])  # (as a function: a program's run would end in os._exit, before the report below)
except SystemExit:
    pass
print(json.dumps({"out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _run(folder: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("VLLM_LINT_CACHE_DIR", None)
    p = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=folder, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_a_new_target_moves_an_env_entry_without_the_reader(tmp_path):
    (tmp_path / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")
    os.utime(tmp_path / "Dockerfile", (1_600_000_000, 1_600_000_000))  # old enough for the stat index
    args = ("--output-format", "json", "--unsafe-fixes", "--target-version", "0.31", ".")
    expected = _run(tmp_path, "--no-cache", *args)["out"]
    moved = [d for d in json.loads(expected) if d["code"] == "VL701"]
    assert moved and moved[0]["fix"] is not None, "the variable is moved to --attention-backend"
    _run(tmp_path, "--output-format", "json", ".")  # stores the extraction
    again = _run(tmp_path, *args)
    assert again["out"] == expected
    assert not {"linter.sources.dockerfile", "linter.sources.shell", "tree_sitter_bash"} & set(again["modules"])
