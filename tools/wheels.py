"""Fetch vLLM release wheels from PyPI and read files inside them.

Maintainer tooling only: nothing under ``linter/`` or ``rules/`` imports it.
Wheels are cached in ``tools/.cache/wheels`` (git-ignored) unless
``VLLM_LINT_WHEEL_CACHE`` names another folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("VLLM_LINT_WHEEL_CACHE", Path(__file__).parent / ".cache" / "wheels"))


def wheel_path(version: str, cache: Path = CACHE) -> Path:
    """Download ``vllm==version`` (no dependencies) if needed; return the wheel's path."""
    cache.mkdir(parents=True, exist_ok=True)
    found = sorted(cache.glob(f"vllm-{version}-*.whl"))
    if found:
        return found[0]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
         "--disable-pip-version-check", "-q", "-d", str(cache), f"vllm=={version}"],
        check=True,
    )
    found = sorted(cache.glob(f"vllm-{version}-*.whl"))
    if not found:
        raise FileNotFoundError(f"pip downloaded no wheel for vllm=={version}")
    return found[0]


def read_member(wheel: Path, name: str) -> str | None:
    """The text of ``name`` (e.g. ``vllm/engine/arg_utils.py``) inside the wheel, or None."""
    with zipfile.ZipFile(wheel) as zf:
        try:
            return zf.read(name).decode("utf-8")
        except KeyError:
            return None


def members(wheel: Path, prefix: str = "vllm/") -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return [n for n in zf.namelist() if n.startswith(prefix)]
