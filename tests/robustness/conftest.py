"""Helpers for the robustness suite: run the real command line on a tree and read its JSON report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GOOD = "vllm serve m --swap-space 16\n"  # VL101 on every release vllm-lint knows


def _command() -> list[str]:
    script = Path(sys.executable).parent / "vllm-lint"
    return [str(script)] if script.exists() else [sys.executable, "-m", "linter.cli"]


def run_cli(args: list[str], cwd: Path, *, timeout: float = 120, env: dict[str, str] | None = None) -> tuple[int, list[dict], str]:
    """Run ``vllm-lint --no-cache --output-format json ARGS`` in ``cwd``: (exit code, diagnostics, stderr)."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("VLLM_LINT_CACHE_DIR", None)
    proc = subprocess.run(
        [*_command(), "--no-cache", "--output-format", "json", *args],
        cwd=cwd, capture_output=True, timeout=timeout, env=full_env,
    )
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    return proc.returncode, json.loads(stdout) if stdout.strip() else [], stderr


def by_file(diags: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for d in diags:
        out.setdefault(os.path.normpath(d["filename"]), []).append(d)
    return out


@pytest.fixture
def good() -> str:
    return GOOD
