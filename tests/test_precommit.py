"""The pre-commit hooks, run the way users run them: ``pre-commit try-repo``.

try-repo clones this repository (HEAD, plus uncommitted changes to tracked
files through a temporary commit) and pip-installs it into a fresh hook
environment, which needs PyPI.  The test clones HEAD itself so that work in
progress in the checkout does not leak in.  It skips, saying why, when
pre-commit is not installed, when HEAD has no release inventories yet, or
when the hook environment cannot be installed (no network).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MANIFEST = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen-next
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.31.0
          args:
            - Qwen/Qwen3-Next-80B-A3B-Instruct
            - --enable-mamba-fine-grained-prefix-cache
"""
OLD, NEW = "--enable-mamba-fine-grained-prefix-cache", "--enable-mamba-shared-prefix-checkpoint"

def _run(args, cwd, env):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory):
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    clone = tmp_path_factory.mktemp("hookrepo") / "vllm-lint"
    r = subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot clone this repository: {r.stderr.strip()}")
    return clone


def _need_inventories(clone):
    if not list((clone / "rules" / "data" / "releases").glob("0.31*.json")):
        pytest.skip("the release inventories (rules/data/releases/0.31*.json) are not committed yet")


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    e = dict(os.environ)
    e["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    e.pop("VIRTUAL_ENV", None)
    e["GIT_AUTHOR_NAME"] = e["GIT_COMMITTER_NAME"] = "test"
    e["GIT_AUTHOR_EMAIL"] = e["GIT_COMMITTER_EMAIL"] = "test@example.invalid"
    return e


@pytest.fixture
def project(tmp_path, env):
    return _project(tmp_path, env, MANIFEST)


def _project(tmp_path, env, text, name="qwen.yaml"):
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / name).write_text(text, encoding="utf-8")
    for args in (["git", "init", "--quiet"], ["git", "add", "."]):
        assert _run(args, tmp_path, env).returncode == 0
    return tmp_path


def _try_repo(hook_repo, hook, project, env, name="qwen.yaml"):
    r = _run([sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--files", f"deploy/{name}", "--verbose"], project, env)
    out = r.stdout + r.stderr
    if r.returncode == 3 and ("pip" in out or "Installing environment" in out):
        pytest.skip(f"pre-commit could not install the hook environment (network to PyPI?):\n{out[-2000:]}")
    return r.returncode, out


def test_check_hook_fails_on_a_renamed_option(hook_repo, project, env):
    _need_inventories(hook_repo)
    code, out = _try_repo(hook_repo, "vllm-lint", project, env)
    assert code == 1, out
    assert "Failed" in out and OLD in out
    assert (project / "deploy" / "qwen.yaml").read_text(encoding="utf-8") == MANIFEST  # the check hook never writes


def test_fix_hook_rewrites_the_file(hook_repo, project, env):
    _need_inventories(hook_repo)
    code, out = _try_repo(hook_repo, "vllm-lint-fix", project, env)
    assert code == 1, out  # pre-commit fails a hook that modified files
    fixed = (project / "deploy" / "qwen.yaml").read_text(encoding="utf-8")
    assert fixed == MANIFEST.replace(OLD, NEW)
    code, out = _try_repo(hook_repo, "vllm-lint", project, env)
    assert code == 0, out


# An unused suppression (VL901) needs no release inventory: it checks the hook
# machinery (install, file types, exit codes, rewriting) on its own.
STALE = "#!/bin/sh\n# vllm-lint: ignore[VL102] migrated long ago\necho 'starting the server'\n"


def test_hooks_on_a_stale_suppression(hook_repo, tmp_path, env):
    project = _project(tmp_path, env, STALE, "start.sh")
    code, out = _try_repo(hook_repo, "vllm-lint", project, env, "start.sh")
    assert code == 1 and "VL901" in out, out
    code, out = _try_repo(hook_repo, "vllm-lint-fix", project, env, "start.sh")
    assert code == 1, out
    assert (project / "deploy" / "start.sh").read_text(encoding="utf-8") == "#!/bin/sh\necho 'starting the server'\n"
    code, out = _try_repo(hook_repo, "vllm-lint", project, env, "start.sh")
    assert code == 0, out
