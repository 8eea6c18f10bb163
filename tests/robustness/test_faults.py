"""The promises of the README's guarantees section under attack (issue 19).

Each test builds the attacker's setup on disk and runs the real command line
(or the module that owns the concept) on it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.robustness.conftest import _command, by_file, run_cli

FORMATS = ("full", "concise", "json", "json-lines", "sarif", "github", "rdjson", "gitlab", "junit")
SECRET = "SECRETVALUE"
# a config file whose keys and values vllm-lint would echo if it read it
SECRET_CONFIG = f"max-num-seq: 8\ntensor-parallel-size: {SECRET}\napi-key: {SECRET}\n"


def raw(args: list[str], cwd: Path, *, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real command line; bytes out, no assumption about the format."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("VLLM_LINT_CACHE_DIR", None)
    full_env.update(env or {})
    return subprocess.run([*_command(), *args], cwd=cwd, capture_output=True, timeout=timeout, env=full_env)


# ---------------------------------------------------------------------------
# 1. A launch cannot make vllm-lint read (and print) a file outside the paths given


@pytest.fixture
def leaky_tree(tmp_path: Path) -> Path:
    repo, secret = tmp_path / "repo", tmp_path / "secret"
    repo.mkdir()
    secret.mkdir()
    (secret / "hosts.yml").write_text(SECRET_CONFIG)
    (repo / "inside.yaml").symlink_to(secret / "hosts.yml")  # an in-tree link to any file
    (repo / "serve.sh").write_text(
        "vllm serve m --config ../secret/hosts.yml\n"
        f"vllm serve m --config {secret / 'hosts.yml'}\n"
        "vllm serve m --config inside.yaml\n"
    )
    return repo


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("cache", [False, True])
def test_config_outside_the_tree_is_never_read_or_printed(leaky_tree: Path, fmt: str, cache: bool) -> None:
    args = ["--output-format", fmt, "."] if cache else ["--no-cache", "--output-format", fmt, "."]
    for _ in range(2 if cache else 1):  # cold, then served from the cache
        proc = raw(args, leaky_tree, env={"VLLM_LINT_CACHE_DIR": str(leaky_tree.parent / "cache")})
        out = proc.stdout.decode() + proc.stderr.decode()
        assert SECRET not in out and "api-key" not in out and "tensor-parallel-size" not in out
        assert "Traceback" not in out
        assert proc.returncode == 1
        assert out.count("outside the linted folder; not read") >= (3 if fmt not in ("gitlab",) else 3), out


def test_config_outside_the_tree_json_points_at_the_launch(leaky_tree: Path) -> None:
    code, diags, err = run_cli(["."], leaky_tree)
    vl003 = by_file(diags)["serve.sh"]
    assert [d["code"] for d in vl003] == ["VL003"] * 3
    assert [d["location"]["row"] for d in vl003] == [1, 2, 3]
    assert all("outside the linted folder; not read" in d["message"] for d in vl003)
    # --fix, --diff and --show-launches read it no more than the check does
    for extra in (["--fix"], ["--diff"], ["--show-launches"]):
        proc = raw(["--no-cache", *extra, "."], leaky_tree)
        assert SECRET not in (proc.stdout + proc.stderr).decode()
    assert (leaky_tree.parent / "secret" / "hosts.yml").read_text() == SECRET_CONFIG


def test_config_inside_the_tree_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "c.yaml").write_text("max-num-seq: 8\n")
    (tmp_path / "serve.sh").write_text("vllm serve m --config conf/c.yaml\n")
    code, diags, _ = run_cli(["."], tmp_path)
    assert [(os.path.basename(d["filename"]), d["code"]) for d in diags] == [("c.yaml", "VL201")]
    # a config named on the command line beside the script counts as given
    code, diags, _ = run_cli(["serve.sh", "conf/c.yaml"], tmp_path)
    assert [(os.path.basename(d["filename"]), d["code"]) for d in diags] == [("c.yaml", "VL201")]
    # the script alone: the config is outside the paths given
    code, diags, _ = run_cli(["serve.sh"], tmp_path)
    assert [(d["code"], "not read" in d["message"]) for d in diags] == [("VL003", True)]
