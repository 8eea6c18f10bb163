"""What a one-file run imports and builds before it lints (issue 18: a lean start).

A pre-commit hook runs vllm-lint on one changed file: a shell script needs the shell
reader and the rules, not libcst, PyYAML, the Dockerfile grammar, the other readers or
``packaging.requirements``, nor click or inspect; and no module of the start path builds a
dataclass or compiles a regular expression when imported (:mod:`linter.records`, :mod:`linter.lazy_re`).  The run
is a fresh interpreter, so what it imports is what a user's run imports.  Timing is
``bench/run.py``'s, not a test's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
pip install "vllm==0.32.0"
MODEL=${MODEL:-mistralai/Mistral-7B-Instruct-v0.3}
exec vllm serve "$MODEL" \\
  --max-model-len 32768 \\
  --enable-chunked \\
  --swap-space 16 \\
  --host 0.0.0.0
"""

# what no linting run of a plain command line needs: click reads only what the command line
# leaves to it (linter.cli._read_argv), inspect only a rule's page
NEVER = {"click", "inspect"}

PROBE = """
import atexit, io, json, os, re, sys
sys.argv = ["vllm-lint", "--no-cache", "--output-format", "concise", *sys.argv[2:], sys.argv[1]]
answer = os.fdopen(os.dup(1), "w")  # the probe's own answer; the run's report goes to a buffer
out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
sys.stdout = out


def report():
    ours = [m for name, m in sorted(sys.modules.items()) if name.split(".")[0] in ("linter", "rules") and m is not None]
    dataclasses_built = sorted(f"{m.__name__}.{k}" for m in ours for k, v in vars(m).items()
                               if isinstance(v, type) and v.__module__ == m.__name__ and "__dataclass_fields__" in vars(v))
    compiled = sorted(f"{m.__name__}.{k}" for m in ours for k, v in vars(m).items() if isinstance(v, re.Pattern))
    reader = sys.modules["yaml"].reader.Reader.__dict__["NON_PRINTABLE"] if "yaml" in sys.modules else None
    answer.write(json.dumps({"out": out.buffer.getvalue().decode("utf-8"), "modules": sorted(sys.modules), "dataclasses": dataclasses_built,
                             "compiled": compiled, "yaml_reader_compiled": isinstance(reader, re.Pattern)}))
    answer.flush()


atexit.register(report)
import linter.cli
linter.cli.run()  # as the vllm-lint script runs it: the process ends there (os._exit, after the atexit handlers)
"""


def _run(tmp_path: Path, name: str, text: str, *args: str) -> dict:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("VLLM_LINT_CACHE_DIR", None)
    p = subprocess.run([sys.executable, "-c", PROBE, str(path), *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    return {**json.loads(p.stdout), "code": p.returncode}


def test_one_shell_file_imports_what_it_needs(tmp_path):
    run = _run(tmp_path, "serve.sh", SCRIPT)
    assert run["code"] == 1  # it did lint: the removed --swap-space is an error
    assert "VL201" in run["out"] and "VL101" in run["out"]
    modules = set(run["modules"])
    assert "linter.sources.shell" in modules and "tree_sitter" in modules
    unneeded = {
        "libcst", "yaml", "tree_sitter_dockerfile",
        "packaging.requirements", "packaging.markers", "packaging.specifiers",
        "linter.sources.dockerfile", "linter.sources.python", "linter.sources.yaml", "linter.sources.markdown",
        "linter.sources.kubernetes", "linter.sources.compose", "linter.sources.helm", "linter.sources.requirements",
        "linter.fixer", "linter.fix_check", "linter.stored_extraction", "linter.server",
        "linter.hybrid_block", "linter.batch_defaults", "pkgutil", "traceback", "difflib",
        # the grammar is loaded without tree_sitter_bash's __init__ (its highlight query's imports)
        "tree_sitter_bash", "importlib.resources", "tempfile", "shutil", "random",
        # OpenSSL: the freshness checks of the rule index and compiled data compare checksums
        "hashlib", "_hashlib",
        *NEVER, "tokenize",  # (Python's comments only)
    }
    assert sorted(modules & unneeded) == []


def test_no_dataclass_or_regex_is_built_on_the_start_path(tmp_path):
    run = _run(tmp_path, "serve.sh", SCRIPT)
    assert run["dataclasses"] == []
    assert run["compiled"] == []


def test_a_pip_pin_of_another_form_is_still_read(tmp_path):
    """A pin with extras or a marker is read by packaging.requirements, imported then."""
    run = _run(tmp_path, "serve.sh", SCRIPT.replace('"vllm==0.32.0"', "'vllm[audio]==0.31.0; python_version > \"3.9\"'"))
    assert "packaging.requirements" in run["modules"]
    assert "0.31.0" in run["out"]


def test_fixing_one_shell_file_needs_no_yaml_nor_diff(tmp_path):
    run = _run(tmp_path, "serve.sh", SCRIPT, "--fix")
    assert "--enable-chunked-prefill" in (tmp_path / "serve.sh").read_text(encoding="utf-8")
    assert sorted(set(run["modules"]) & {"yaml", "difflib", "libcst", "linter.sources.yaml"}) == []
    assert run["dataclasses"] == [] and run["compiled"] == []


MANIFEST = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.10.1
          command: ["vllm", "serve"]
          args: ["meta-llama/Llama-3.1-8B-Instruct", "--enable-chunked", "--max-model-len", "32768"]
          env:
            - name: VLLM_LOGGING_LEVEL
              value: "INFO"
---
apiVersion: v1
kind: Service
metadata:
  name: llm
spec:
  ports:
    - port: 80
"""

LAUNCHER = """\"\"\"Start the server.\"\"\"
import subprocess

cmd = ["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--enable-chunked", "--max-num-seqs", "64"]
subprocess.run(cmd, check=True)
"""

# what neither a manifest nor a Python launcher needs: the shell reader (no script is embedded)
# and the readers of the other kinds
NO_SHELL = {"linter.sources.shell", "linter.sources.shell_words", "tree_sitter", "tree_sitter_bash", "tree_sitter_dockerfile",
            "importlib.resources", "tempfile", "libcst", "linter.sources.dockerfile", "linter.sources.markdown",
            "linter.fixer", "linter.fix_check", "linter.stored_extraction", "linter.server", "difflib", "traceback", "pkgutil", *NEVER}


def test_one_manifest_imports_what_it_needs(tmp_path):
    run = _run(tmp_path, "deploy.yaml", MANIFEST)
    assert run["code"] == 1 and "VL201" in run["out"], run["out"]  # it did lint (warnings fail the run)
    modules = set(run["modules"])
    assert {"linter.sources.kubernetes", "yaml"} <= modules
    assert sorted(modules & (NO_SHELL | {"linter.sources.python", "packaging.requirements"})) == []
    assert run["yaml_reader_compiled"] is False  # libyaml composed it: the pure reader's pattern is left uncompiled
    assert run["dataclasses"] == [] and run["compiled"] == []


def test_one_python_launcher_imports_what_it_needs(tmp_path):
    run = _run(tmp_path, "launch.py", LAUNCHER)
    assert "VL202" in run["out"], run["out"]  # ambiguous in the newest release
    modules = set(run["modules"])
    assert "linter.sources.python" in modules
    assert sorted(modules & (NO_SHELL | {"yaml", "linter.sources.yaml"})) == []
    assert run["dataclasses"] == [] and run["compiled"] == []


def test_a_script_embedded_in_a_manifest_loads_the_shell_reader(tmp_path):
    embedded = MANIFEST.replace(
        'command: ["vllm", "serve"]\n          args: ["meta-llama/Llama-3.1-8B-Instruct", "--enable-chunked", "--max-model-len", "32768"]',
        'command: ["sh", "-c"]\n          args: ["vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-chunked --max-model-len 32768"]')
    assert embedded != MANIFEST
    run = _run(tmp_path, "job.yaml", embedded)
    assert "VL201" in run["out"], run["out"]
    assert "linter.sources.shell" in run["modules"] and "tree_sitter_bash" not in run["modules"]
