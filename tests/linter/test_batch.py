"""The screener (the walked files read and screened on another core while the walk goes on,
for a check and for ``--fix``/``--diff``), the shares' results sent chunk by chunk, and the
named config files linted ahead by the share that found their launch: none changes what a run
prints, stores or writes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.version import Version

from linter import batch, kinds, project
from linter.cache import DIRNAME, Cache
from linter.cli import main
from linter.discovery import words_in
from linter.engine import Settings
from linter.reporters import reporter

FORMATS = ["concise", "json", "sarif", "rdjson"]

SERVE_DOCKERFILE = "FROM vllm/vllm-openai:v0.30.0\nENV VLLM_LOGGING_LEVEL=INFO\n"
# builds and runs the vLLM image without a vLLM word of its own: linted only when the tree builds it
BUILD_AND_RUN = (
    "#!/usr/bin/env bash\n"
    "set -euo pipefail\n"
    "docker build -t acme/chat-serve -f docker/serve.Dockerfile .\n"
    "docker run --rm --gpus all -p 8000:8000 acme/chat-serve \\\n"
    "  --model Qwen/Qwen3-8B --max-num-seq 64 --swap-space 4\n"
)
COMPOSE_BUILD = (
    "services:\n"
    "  chat:\n"
    "    build: {context: ., dockerfile: docker/serve.Dockerfile}\n"
    "    command: [\"Qwen/Qwen3-8B\", \"--max-num-seq\", \"32\", \"--swap-space\", \"4\"]\n"
)
DEPLOY = (
    "apiVersion: apps/v1\n"
    "kind: Deployment\n"
    "metadata: {name: chat}\n"
    "spec:\n"
    "  template:\n"
    "    spec:\n"
    "      containers:\n"
    "        - name: engine\n"
    "          image: vllm/vllm-openai:v0.30.0\n"
    "          args: [\"--model\", \"Qwen/Qwen3-8B\", \"--max-num-seq\", \"16\", \"--swap-space\", \"4\"]\n"
)
VENDOR_POD = (  # no vLLM word: a launch only through ``vllm-images``
    "apiVersion: v1\n"
    "kind: Pod\n"
    "metadata: {name: chat}\n"
    "spec:\n"
    "  containers:\n"
    "    - name: engine\n"
    "      image: registry.example.com/ml/serve:2.1\n"
    "      args: [Qwen/Qwen3-8B, --swap-space, '4']\n"
)


def _tree(root: Path, *, builds: bool = True, files: int = 360) -> None:
    """A service monorepo: hundreds of files that never mention vLLM (YAML, scripts, Python,
    Markdown, some with ``docker build`` or a compose ``build:``), and a few launches."""
    for i in range(files):
        pkg = root / f"services/svc{i % 12:02}" / ("deploy" if i % 3 else "src")
        pkg.mkdir(parents=True, exist_ok=True)
        match i % 6:
            case 0:
                (pkg / f"values_{i}.yaml").write_text(f"replicaCount: {i % 4 + 1}\nimage:\n  repository: nginx\n  tag: '1.27'\nresources:\n  limits: {{cpu: 500m}}\n")
            case 1:
                (pkg / f"deploy_{i}.sh").write_text(f"#!/bin/sh\nset -e\ndocker build -t acme/web-{i} .\nkubectl rollout restart deploy/web-{i}\n")
            case 2:
                (pkg / f"handler_{i}.py").write_text(f'"""Request handler {i}."""\n\n\ndef handle(event):\n    return {{"status": 200, "id": {i}}}\n')
            case 3:
                (pkg / f"README_{i}.md").write_text(f"# Service {i}\n\nRun `make test`.\n\n```sh\ndocker compose up --build\n```\n")
            case 4:
                (pkg / f"compose_{i}.yaml").write_text(f"services:\n  web:\n    build: .\n    ports: ['{8000 + i}:80']\n")
            case 5:
                (pkg / f"job_{i}.yaml").write_text(f"apiVersion: batch/v1\nkind: Job\nmetadata: {{name: job-{i}}}\nspec:\n  template:\n    spec:\n      containers: [{{name: j, image: busybox}}]\n")
    (root / "docker").mkdir(exist_ok=True)
    if builds:
        (root / "docker" / "serve.Dockerfile").write_text(SERVE_DOCKERFILE)
    else:
        (root / "docker" / "serve.Dockerfile").write_text("FROM python:3.12-slim\nRUN pip install flask\n")
    (root / "scripts").mkdir(exist_ok=True)
    (root / "scripts" / "build_and_run.sh").write_text(BUILD_AND_RUN)
    (root / "compose.yaml").write_text(COMPOSE_BUILD)
    (root / "k8s").mkdir(exist_ok=True)
    (root / "k8s" / "deploy.yaml").write_text(DEPLOY)
    (root / "k8s" / "vendor-pod.yaml").write_text(VENDOR_POD)
    (root / "k8s" / "wide.yaml").write_bytes(DEPLOY.encode("utf-16"))  # a vLLM word in UTF-16
    old = os.stat(root).st_mtime - 3600  # changed an hour ago: the stat index records them
    for p in root.rglob("*"):
        os.utime(p, (old, old))


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _index(cache_dir: Path) -> dict:
    """The stat index rows a run stored (path -> row)."""
    found = list(cache_dir.glob("v*/index.json"))
    assert len(found) == 1
    return json.loads(found[0].read_text())["files"]


@pytest.fixture
def starts(monkeypatch) -> list[int]:
    """The number of names each screener had when it forked its process (one per start)."""
    started: list[int] = []
    real = batch.Screener._start

    def start(self):
        started.append(len(self.sent))
        return real(self)

    monkeypatch.setattr(batch.Screener, "_start", start)
    monkeypatch.setattr(batch, "_workers", lambda: 2)
    return started


def test_the_screener_flags_each_walked_file_as_its_bytes_say(tmp_path, monkeypatch, starts):
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    screener = batch.Screener()
    found = project.candidates(["."], screener=screener)
    assert starts == [batch.SCREEN_AFTER]
    flags = screener.flags()
    screened = [c.path for c in found if c.status == "ok" and not c.explicit and kinds.prefiltered(c.kind)]
    assert set(flags) == set(screened) and len(screened) > batch.SCREEN_AFTER
    for path, flag in flags.items():
        vllm, build = words_in([Path(path).read_bytes()])
        assert flag == (batch.VLLM_WORD if vllm else batch.BUILD_WORD if build else batch.NO_WORD), path
    assert flags["k8s/wide.yaml"] == batch.VLLM_WORD
    assert flags["scripts/build_and_run.sh"] == batch.BUILD_WORD
    assert flags["k8s/vendor-pod.yaml"] == batch.NO_WORD
    assert not screener.running


def test_the_screener_is_not_waited_for_once_its_flags_are_in(tmp_path, monkeypatch, starts, forked):
    """Once every flag has come, the screener's process is killed and reaped if it has ended,
    else left to :func:`batch.reap` (its end is not waited for): the flags are those of its
    files, and no process is left once reaped."""
    import time

    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    me = os.getpid()
    real_screen = batch._screen_names

    def screen_and_linger(*args):
        got = real_screen(*args)
        if os.getpid() != me:
            time.sleep(60)  # every flag sent, then slow to end
        return got

    monkeypatch.setattr(batch, "_screen_names", screen_and_linger)
    monkeypatch.setattr(batch, "_UNREAPED", [])
    screener = batch.Screener()
    found = project.candidates(["."], screener=screener)
    flags = screener.flags()
    assert starts == [batch.SCREEN_AFTER] and len(forked) == 1
    assert flags["k8s/wide.yaml"] == batch.VLLM_WORD and flags["k8s/vendor-pod.yaml"] == batch.NO_WORD
    assert len(flags) == sum(1 for c in found if c.status == "ok" and not c.explicit and kinds.prefiltered(c.kind))
    assert batch._UNREAPED in ([], forked)  # reaped at once when the kill was quick, else left
    batch.reap()
    assert batch._UNREAPED == []
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)


@pytest.mark.parametrize("builds", [True, False], ids=["builds-a-vllm-image", "builds-none"])
def test_a_run_with_the_screener_prints_and_stores_what_one_without_it_does(tmp_path, monkeypatch, starts, builds):
    """Cold, uncached and warm runs, in every kind of report, with the flags and without: the
    same output and the same stat index rows (a file the screener found no word in is
    recorded as the run's own screening records it)."""
    _tree(tmp_path, builds=builds)
    monkeypatch.chdir(tmp_path)
    for fmt in FORMATS:
        runs, rows = [], []
        default = batch.SCREEN_AFTER
        for screen_after in (default, 10**9):  # with the screener, and never forked
            monkeypatch.setattr(batch, "SCREEN_AFTER", screen_after)
            cache = tmp_path / f"cache-{screen_after}-{fmt}"
            monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(cache))
            cold = _run("--output-format", fmt, ".")
            rows.append(_index(cache))  # as the cold run stored it (the warm one may renew rows)
            runs.append([cold, _run("--no-cache", "--output-format", fmt, "."), _run("--output-format", fmt, ".")])
        monkeypatch.setattr(batch, "SCREEN_AFTER", default)
        assert len(starts) == 2  # the cold run and the uncached one; the warm run has the stat index
        starts.clear()
        with_it, without = runs
        assert with_it == without
        assert with_it[0][0] == 1
        assert rows[0] == rows[1]
    out = with_it[0][1]
    assert ("build_and_run.sh" in out) == builds  # linted only when the tree builds the image it runs
    assert "deploy.yaml" in out and "wide.yaml" in out
    # this process reads a file without a word only when it screens it for the screener (the
    # files that process had not reached): never again; a file with one is read to be linted
    read: list[str] = []
    stolen: list[str] = []
    real_read, real_flag = batch._read, batch._screen_flag
    monkeypatch.setattr(batch, "SPLIT_BYTES", 1 << 40)  # the linting in this process too
    monkeypatch.setattr(batch, "_read", lambda path: read.append(path) or real_read(path))
    monkeypatch.setattr(batch, "_screen_flag", lambda path: stolen.append(path) or real_flag(path))
    assert _run("--no-cache", "--output-format", fmt, ".") == with_it[1]
    assert starts
    linted = [p for p in read if p not in stolen or read.count(p) > 1]
    assert "k8s/deploy.yaml" in linted and "k8s/wide.yaml" in linted
    assert ("scripts/build_and_run.sh" in linted) == builds
    assert not any("values_" in p or "handler_" in p or "job_" in p for p in linted)
    assert any("deploy_" in p for p in linted) == builds  # `docker build`, screened out when no vLLM image is built


@pytest.mark.parametrize("builds", [True, False], ids=["builds-a-vllm-image", "builds-none"])
def test_fix_and_diff_with_the_screener_print_and_write_what_they_do_without_it(tmp_path, monkeypatch, starts, builds):
    """``--diff`` and ``--fix`` (unsafe fixes too) take the screener's flags: the same patch,
    report, exit code and fixed files as without them; with them, this process never reads a
    file without a vLLM word (nor one with only a build word, unless the tree builds a vLLM
    image), and without them it reads each such file once (the check's answer for it is given,
    not read again)."""
    from linter import engine

    default = batch.SCREEN_AFTER
    runs, trees, reads = [], [], []
    for screen_after in (default, 10**9):
        root = tmp_path / f"tree-{screen_after}"
        root.mkdir()
        _tree(root, builds=builds)
        (root / "k8s" / "unreadable.yaml").write_bytes(b"kind: Pod\nimage: vllm/vllm-openai\n\xff\xfe\n")  # not text: VL002
        monkeypatch.chdir(root)
        monkeypatch.setattr(batch, "SCREEN_AFTER", screen_after)
        read: list[str] = []
        real = engine.read_file
        monkeypatch.setattr(engine, "read_file", lambda path, *a, **k: read.append(path) or real(path, *a, **k))
        got = [_run("--diff", "."), _run("--fix", "--unsafe-fixes", "--output-format", "json", "."), _run("--fix", "--output-format", "concise", ".")]
        monkeypatch.setattr(engine, "read_file", real)
        runs.append(got)
        trees.append({str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()})
        reads.append(read)
    monkeypatch.setattr(batch, "SCREEN_AFTER", default)
    assert len(starts) == 3  # one screener forked for each run of the first tree
    assert runs[0] == runs[1] and trees[0] == trees[1]
    diff, fixed, again = runs[0]
    assert diff[0] == 1 and "+++ b/k8s/deploy.yaml" in diff[1] and ("build_and_run.sh" in diff[1]) == builds
    assert fixed[0] == 1 and "--max-num-seqs" in trees[0]["k8s/deploy.yaml"].decode()
    assert "k8s/unreadable.yaml:1:1: VL002" in again[1]
    no_word = ("values_", "handler_", "job_", "README_")
    with_flags, without = reads
    assert with_flags and not any(n in p for p in with_flags for n in no_word)
    assert any("deploy_" in p for p in with_flags) == builds  # `docker build`: screened out unless a vLLM image is built
    assert any(n in p for p in without for n in no_word)
    assert all(without.count(p) == 3 for p in without if any(n in p for n in no_word))  # once in each of the three runs


def _screenings(monkeypatch) -> list[bytes]:
    """The bytes each screening of this process is asked about (:func:`linter.discovery.screening`,
    which :func:`batch._screen_one` calls), from now on."""
    from linter import discovery

    asked: list[bytes] = []
    real = discovery.screening
    monkeypatch.setattr(discovery, "screening", lambda data, needles=(): asked.append(bytes(data)) or real(data, needles))
    return asked


def test_a_file_the_screener_found_a_vllm_word_in_is_not_screened_again(tmp_path, monkeypatch, starts):
    """The files the screener found a vLLM word in are read to be linted but not screened
    again (no needle the settings add changes that answer); those it found only a build word
    in are, with the build words of the tree's vLLM image.  The stat index records each
    answer as the run without the screener does: a vLLM word as such."""
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(batch, "SPLIT_BYTES", 1 << 40)  # linted in this process, where the screenings are seen
    monkeypatch.setattr(batch, "SHARE_AFTER", 1e9)
    cache = tmp_path / "cache"
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(cache))
    asked = _screenings(monkeypatch)
    got = _run("--output-format", "concise", ".")
    assert starts
    files = {p: Path(p).read_bytes() for p in ("k8s/deploy.yaml", "k8s/wide.yaml", "scripts/build_and_run.sh", "compose.yaml")}
    assert files["k8s/deploy.yaml"] not in asked and files["k8s/wide.yaml"] not in asked
    assert files["scripts/build_and_run.sh"] in asked and files["compose.yaml"] in asked  # a build word only: screened here
    rows = _index(cache)
    assert rows["k8s/deploy.yaml"][6] == rows["k8s/wide.yaml"][6] == "vllm"
    assert rows["scripts/build_and_run.sh"][6] is True
    # without the screener, this process screens them all, to the same output and rows
    shutil.rmtree(cache)
    asked.clear()
    monkeypatch.setattr(batch, "SCREEN_AFTER", 10**9)
    assert _run("--output-format", "concise", ".") == got
    assert files["k8s/deploy.yaml"] in asked and files["k8s/wide.yaml"] in asked
    assert _index(cache) == rows


def test_a_new_target_screens_again_only_the_files_without_a_vllm_word(tmp_path, monkeypatch):
    """A new ``--target-version`` reads the unchanged files that hold a launch again, but screens
    only those the stat index says were kept by another needle (a ``vllm-images`` pattern, a
    build word), whose answer depends on the settings; its output is an uncached run's."""
    _tree(tmp_path)
    (tmp_path / "vllm-lint.toml").write_text('vllm-images = ["registry.example.com/ml/serve"]\n')
    os.utime(tmp_path / "vllm-lint.toml", (os.stat(tmp_path / "k8s").st_mtime,) * 2)
    monkeypatch.chdir(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(cache))
    _run("--output-format", "concise", ".")
    rows = _index(cache)
    assert rows["k8s/deploy.yaml"][6] == "vllm" and rows["k8s/vendor-pod.yaml"][6] is True and rows["scripts/build_and_run.sh"][6] is True
    asked = _screenings(monkeypatch)
    got = _run("--target-version", "0.31", "--output-format", "concise", ".")
    assert "k8s/vendor-pod.yaml" in got[1] and "k8s/deploy.yaml" in got[1]
    assert Path("k8s/deploy.yaml").read_bytes() not in asked and Path("k8s/wide.yaml").read_bytes() not in asked
    assert Path("k8s/vendor-pod.yaml").read_bytes() in asked and Path("scripts/build_and_run.sh").read_bytes() in asked
    assert got == _run("--no-cache", "--target-version", "0.31", "--output-format", "concise", ".")


def test_a_file_over_the_size_limit_is_left_to_the_run_which_reports_it(tmp_path, monkeypatch, starts):
    """The screener does not read a file over the limit (nor one it cannot read): the run
    reports it, as without the screener."""
    from linter import engine, source_file

    _tree(tmp_path)
    (tmp_path / "k8s" / "huge.yaml").write_text("items:\n" + "  - name: x\n" * 600)
    monkeypatch.setattr(source_file, "MAX_FILE_BYTES", 4096)
    monkeypatch.setattr(engine, "MAX_FILE_BYTES", 4096)
    monkeypatch.chdir(tmp_path)
    screener = batch.Screener()
    project.candidates(["."], screener=screener)
    assert screener.flags()["k8s/huge.yaml"] == batch.UNSCREENED
    got = _run("--no-cache", "--output-format", "concise", ".")
    assert "k8s/huge.yaml:1:1: VL003" in got[1]
    monkeypatch.setattr(batch, "SCREEN_AFTER", 10**9)
    assert _run("--no-cache", "--output-format", "concise", ".") == got


def test_any_file_name_reaches_the_screener_and_back(tmp_path, monkeypatch, starts):
    """Names travel as bytes separated by NUL: a newline, a space or bytes that are not UTF-8
    in a name are the same file on both ends."""
    _tree(tmp_path)
    odd = [b"k8s/serve\nprod.yaml", b"k8s/caf\xe9 chat.yaml", b"k8s/\xff\xfe.yaml"]
    for name in odd:
        (tmp_path / os.fsdecode(name)).write_text(DEPLOY)
    (tmp_path / os.fsdecode(b"k8s/quiet\xe9.yaml")).write_text("kind: ConfigMap\n")
    monkeypatch.chdir(tmp_path)
    screener = batch.Screener()
    project.candidates(["."], screener=screener)
    flags = screener.flags()
    assert [flags[os.fsdecode(n)] for n in odd] == [batch.VLLM_WORD] * 3
    assert flags[os.fsdecode(b"k8s/quiet\xe9.yaml")] == batch.NO_WORD
    got = _run("--no-cache", "--output-format", "json", ".")
    monkeypatch.setattr(batch, "SCREEN_AFTER", 10**9)
    assert _run("--no-cache", "--output-format", "json", ".") == got


@pytest.mark.parametrize("launches, shared", [(12, False), (40, True)])
def test_files_with_a_word_are_shared_once_they_outweigh_a_forked_process_first_use(tmp_path, monkeypatch, starts, launches, shared):
    """The screener's flags tell which files will be linted: a few are linted here (a forked
    process's first use of the rules and releases would cost more), dozens are shared."""
    _tree(tmp_path, builds=False)  # (the scripts that build images are then not linted)
    for i in range(launches):
        (tmp_path / "scripts" / f"serve_{i}.sh").write_text(f"#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B --max-num-seq {i + 1} --swap-space 4\n")
    monkeypatch.chdir(tmp_path)
    takers: list[int] = []
    real = batch._fork_takers
    monkeypatch.setattr(batch, "_fork_takers", lambda chunks, *rest: takers.append(len(chunks)) or real(chunks, *rest))
    got = _run("--no-cache", "--output-format", "concise", ".")
    assert starts and bool(takers) == shared
    monkeypatch.setattr(batch, "SCREEN_AFTER", 10**9)
    assert _run("--no-cache", "--output-format", "concise", ".") == got


def test_configured_images_are_screened_here(tmp_path, monkeypatch, starts):
    """The screener looks for vLLM and build words, not for the ``vllm-images`` of a
    configuration: with them, every file is screened here as before (the vendor pod is read)."""
    _tree(tmp_path)
    (tmp_path / "vllm-lint.toml").write_text('vllm-images = ["registry.example.com/ml/serve"]\n')
    monkeypatch.chdir(tmp_path)
    code, out = _run("--no-cache", "--output-format", "concise", ".")
    assert starts
    assert "k8s/vendor-pod.yaml" in out
    monkeypatch.setattr(batch, "SCREEN_AFTER", 10**9)
    assert _run("--no-cache", "--output-format", "concise", ".") == (code, out)


def test_a_small_group_of_files_leaves_the_flags_to_a_big_one(tmp_path, monkeypatch, starts):
    """Files under a configuration of their own are linted as a group of their own: a small
    group first (screened where it is linted) does not end the screener the big one uses."""
    _tree(tmp_path)
    (tmp_path / "compose.yaml").rename(tmp_path / "services" / "compose.yaml")  # the first file walked is the small group's
    small = tmp_path / "a-tools"
    small.mkdir()
    (small / "vllm-lint.toml").write_text('target-version = "0.31"\n')
    (small / "serve.sh").write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-num-seq 8\n")
    monkeypatch.chdir(tmp_path)
    used: list[int] = []
    real = batch._screened

    def screened(jobs, flags, *args):
        used.append(len(flags))
        return real(jobs, flags, *args)

    monkeypatch.setattr(batch, "_screened", screened)
    got = _run("--no-cache", "--output-format", "concise", ".")
    assert starts and used and used[0] > batch.SCREEN_AFTER
    assert "a-tools/serve.sh" in got[1]
    monkeypatch.setattr(batch, "SCREEN_AFTER", 10**9)
    assert _run("--no-cache", "--output-format", "concise", ".") == got


def test_a_small_walk_or_one_core_makes_no_screener(tmp_path, monkeypatch, starts):
    _tree(tmp_path, files=60)
    monkeypatch.chdir(tmp_path)
    screener = batch.Screener()
    project.candidates(["."], screener=screener)
    assert starts == [] and screener.flags() == {}
    _tree(tmp_path)
    monkeypatch.setattr(batch, "_workers", lambda: 1)
    screener = batch.Screener()
    project.candidates(["."], screener=screener)
    assert starts == [batch.SCREEN_AFTER]  # it tried, and found no other core
    assert not screener.running and screener.flags() == {}


@pytest.mark.parametrize("how", ["dies", "answers-short", "answers-garbage", "slow"])
def test_what_the_screener_does_not_answer_is_screened_here(tmp_path, monkeypatch, starts, how):
    """Its process killed, its answer cut short or not flags, or slower than this one: the
    files it did not answer are screened here (from the last one back), the flags are those
    of every file, the output is the same."""
    import time

    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    want = _run("--no-cache", "--output-format", "json", ".")
    real = batch._screen_names

    def failing(names, out):
        if how == "dies":
            os._exit(9)
        if how == "answers-garbage":
            os.write(out, b"nnv\x00n")
            return b""
        if how == "slow":
            time.sleep(0.5)
        cut = os.dup(out)
        os.close(out)
        r, w = os.pipe()  # the process's flags, all but the last passed on
        real(names, w)
        os.close(w)
        flags = os.read(r, 1 << 20)
        os.write(cut, flags if how == "slow" else flags[:-1])
        return b""

    monkeypatch.setattr(batch, "_screen_names", failing)
    screener = batch.Screener()
    found = project.candidates(["."], screener=screener)
    flags = screener.flags()
    walked = [c.path for c in found if c.status == "ok" and not c.explicit and kinds.prefiltered(c.kind)]
    assert list(flags) == walked
    for path, flag in flags.items():
        vllm, build = words_in([Path(path).read_bytes()])
        assert flag == (batch.VLLM_WORD if vllm else batch.BUILD_WORD if build else batch.NO_WORD), path
    starts.clear()
    assert _run("--no-cache", "--output-format", "json", ".") == want
    assert starts


def test_the_walk_never_waits_for_the_screener_and_an_interrupt_ends_it(tmp_path, monkeypatch, starts, forked):
    """The names go out without blocking (a slow screener never holds the walk up), and a run
    interrupted before it asks for the flags ends and reaps the process."""
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    screener = batch.Screener()
    project.candidates(["."], screener=screener)
    assert screener.running and len(forked) == 1
    screener.close()
    with pytest.raises(ChildProcessError):  # reaped already
        os.waitpid(forked[0], os.WNOHANG)

    forked.clear()
    blocking: list[bool] = []
    real_send = batch.Screener._send

    def send(self):
        blocking.append(os.get_blocking(self._feed))
        return real_send(self)

    monkeypatch.setattr(batch.Screener, "_send", send)

    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr("linter.cli._check", interrupted)
    result = CliRunner().invoke(main, ["--no-cache", "."])
    assert result.exit_code == 130  # (as an interrupted run exits)
    assert len(forked) == 1 and blocking and not any(blocking)
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)
    assert not (tmp_path / DIRNAME).exists()


# ---------------------------------------------------------------------------
# the shares: results chunk by chunk, named config files linted ahead

RELEASES = ["0.29.0", "0.30.0", "0.31.0", "0.32.0"]


def _named_tree(root: Path, scripts: int = 32) -> list[str]:
    """Launch scripts pinning four releases, each naming one of eight config files (four
    scripts name each, all with the same release); the config files' paths."""
    (root / "conf").mkdir(parents=True)
    for k in range(8):
        (root / "conf" / f"svc{k}.yaml").write_text(
            f"# service {k}\nmax-num-seqs: {16 * (k + 1)}\nenable-mamba-fine-grained-prefix-cache: true\nswap-space: 4\n")
    for i in range(scripts):
        (root / f"serve_{i:02}.sh").write_text(
            f'#!/bin/sh\npip install "vllm=={RELEASES[i % 4]}"\n'
            f"vllm serve org/model-{i} --port {8000 + i} --config conf/svc{i % 8}.yaml --max-num-seq 8 --disable-log-requests\n")
    return [f"conf/svc{k}.yaml" for k in range(8)]


@pytest.fixture
def shared(monkeypatch):
    """Every file its own chunk, shared on two cores however little the work."""
    monkeypatch.setattr(batch, "SPLIT_BYTES", 0)
    monkeypatch.setattr(batch, "CHUNK_WEIGHT", 1)
    monkeypatch.setattr(batch, "_workers", lambda: 2)


def _logged(monkeypatch, name: str, log: Path) -> None:
    """``batch.<name>(path, ...)`` writes "pid path" to ``log`` (from any process) before it runs."""
    real = getattr(batch, name)

    def logged(path, *args, **kwargs):
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {path}\n")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(batch, name, logged)


def _reports(results) -> list[str]:
    return [reporter(fmt)(results) for fmt in FORMATS]


def _packs(cache_dir: Path) -> dict:
    """The entries of every pack a run saved: pack name -> its entries' keys and payloads."""
    return {str(p.relative_to(cache_dir)): json.loads(p.read_text()).get("entries") for p in sorted(cache_dir.glob("*/cache.json"))}


def test_named_config_files_are_linted_by_the_shares_that_find_their_launches(tmp_path, monkeypatch, shared, forked):
    """Each config file a launch names is linted by the process that linted the launch (once
    in each process that meets it), as the calling one would have linted it after all the
    shares: the same report and the same cache entries."""
    repo = tmp_path / "repo"
    configs = _named_tree(repo)
    monkeypatch.chdir(repo)
    cands = project.candidates(["."])
    want = _reports(project.lint(cands, Settings()))
    log = tmp_path / "named.log"
    _logged(monkeypatch, "_named_answer", log)
    got = project.lint(cands, Settings(), compact=True, cache=Cache(str(tmp_path / "ahead")))
    assert forked and _reports(got) == want
    linted = [line.split() for line in log.read_text().splitlines()]
    assert sorted({path for _pid, path in linted}) == configs and len({tuple(x) for x in linted}) == len(linted)
    assert {int(pid) for pid, _path in linted} - {os.getpid()}  # (some by the forked share)
    log.unlink()

    monkeypatch.setattr(batch, "_lint_ahead", lambda named: None)  # all left to the end, in this process
    assert _reports(project.lint(cands, Settings(), compact=True, cache=Cache(str(tmp_path / "after")))) == want
    assert {int(line.split()[0]) for line in log.read_text().splitlines()} == {os.getpid()}
    assert _packs(tmp_path / "ahead") == _packs(tmp_path / "after")
    assert _reports(project.lint(cands, Settings(), compact=True, cache=Cache(str(tmp_path / "ahead")))) == want  # warm


def test_a_config_file_linted_ahead_is_linted_again_unless_its_bytes_and_answer_hold(tmp_path, monkeypatch):
    """lint_named takes what a share found only for the bytes it read, and only when it is an answer."""
    monkeypatch.chdir(tmp_path)
    _named_tree(tmp_path, scripts=1)
    path, release = "conf/svc0.yaml", Version("0.29.0")
    settings = Settings()
    want = reporter("concise")([batch.lint_named(path, settings, None, None, release)])
    assert "VL105" in want  # (the 0.30 option, on 0.29)
    data = Path(path).read_bytes()
    wrong = ({"d": [["VL999", "not what the file says", None, 0, 1, "error", None, None, [], []]]}, None)
    for digest, answer in [("0" * 40, wrong), (Cache.digest(data), ({"d": "not rows"}, None))]:
        ahead = {(path, "0.29.0"): (digest, answer, (None, None, None))}
        for cache in (None, Cache(str(tmp_path / "c"))):
            assert reporter("concise")([batch.lint_named(path, settings, None, cache, release, ahead)]) == want
    ahead = {(path, "0.29.0"): (Cache.digest(data), wrong, (None, None, None))}  # these very bytes: taken
    assert "VL999" in reporter("concise")([batch.lint_named(path, settings, None, None, release, ahead)])


def test_a_share_that_dies_keeps_the_chunks_it_sent(tmp_path, monkeypatch, shared, forked):
    """The forked share sends each chunk's results as it finishes it: when it dies, what it sent
    whole is kept, and only the rest of what it took is linted again here."""
    _named_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    cands = project.candidates(["."])
    want = _reports(project.lint(cands, Settings()))
    log = tmp_path / "linted.log"
    _logged(monkeypatch, "_lint_read", log)
    me = os.getpid()
    real_wire = batch._to_wire
    sent: list[int] = []

    def wire(packed, ahead=()):
        if os.getpid() != me:
            sent.append(len(packed))  # (this process's copy of the list)
            if len(sent) == 3:
                os._exit(3)  # killed as it sends its third chunk
        return real_wire(packed, ahead)

    monkeypatch.setattr(batch, "_to_wire", wire)
    got = project.lint(cands, Settings(), compact=True, cache=Cache(str(tmp_path.parent / f"{tmp_path.name}-cache")))
    assert len(forked) == 1 and _reports(got) == want
    by: dict[str, list[str]] = {}
    for line in log.read_text().splitlines():
        pid, path = line.split()
        by.setdefault(path, []).append("here" if int(pid) == me else "share")
    assert len(by) == 32 and all("here" in who or who == ["share"] for who in by.values())
    assert sum(1 for who in by.values() if who == ["share"]) == 2  # its first two chunks, one file each
    assert sum(1 for who in by.values() if who == ["share", "here"]) == 1  # the third, lost with it


def test_a_share_that_sent_its_last_frame_is_not_waited_for(tmp_path, monkeypatch, shared, forked):
    """A share ends its results with a last frame: the run goes on without waiting for its
    process to end (it shares the pages of this one, whose end takes milliseconds), and
    :func:`batch.reap` reaps it before this process exits (:func:`linter.cli._exit_now`)."""
    import time

    _named_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    cands = project.candidates(["."])
    want = _reports(project.lint(cands, Settings()))
    me = os.getpid()
    real_send = batch._send_results

    def send_and_linger(*args):
        got = real_send(*args)
        if os.getpid() != me:
            time.sleep(60)  # sent everything, then slow to end
        return got

    monkeypatch.setattr(batch, "_send_results", send_and_linger)
    got = project.lint(cands, Settings(), compact=True, cache=Cache(str(tmp_path.parent / f"{tmp_path.name}-cache")))
    assert _reports(got) == want
    assert len(forked) == 1 and batch._UNREAPED == forked
    assert os.waitpid(forked[0], os.WNOHANG) == (0, 0)  # still there: not waited for
    batch.reap()
    assert batch._UNREAPED == []
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)


def test_the_exit_reaps_the_shares_left(monkeypatch):
    """The command line's exit reaps the shares the run went on without: the system counts
    them as its children (the peak memory a benchmark reads from ``RUSAGE_CHILDREN``)."""
    import atexit

    from linter import cli

    pid = os.fork()
    if pid == 0:  # a share that has sent its last frame and lingers
        import time

        time.sleep(60)
        os._exit(0)
    monkeypatch.setattr(batch, "_UNREAPED", [pid])
    monkeypatch.setattr(atexit, "_run_exitfuncs", lambda: None)  # (pytest's own handlers stay for pytest)

    class Exited(Exception):
        pass

    def exit_(code):
        raise Exited(code)

    monkeypatch.setattr(os, "_exit", exit_)
    with pytest.raises(Exited):
        cli._exit_now(0)
    assert batch._UNREAPED == []
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_a_file_is_screened_as_its_whole_bytes_say_however_it_is_read(tmp_path, monkeypatch):
    """The screener reads a small file in one read and a big one a piece at a time: the flag is
    the one its whole bytes give (a word across a piece's end, at the end of a big file, a build
    word cut by a piece), and a file over the size limit without a word in what is read is left
    to the run (UNSCREENED)."""
    from linter import source_file

    piece = 64 << 10
    cases = {
        "small.yaml": b"image: vllm/vllm-openai:v0.31.0\n",
        "small-none.md": b"nothing here\n" * 10,
        "across.sh": b"#" * (piece - 2) + b"\nvllm serve m\n",
        "late.yaml": b"x: y\n" * (3 * piece // 5) + b"cmd: VLLM serve\n",
        "build-cut.sh": b"#" * (piece - 7) + b"\ndocker build -t app .\n",
        "big-none.json": b" " * (2 * piece + 3),
        "big-early.sh": b"vllm serve m\n" + b"#" * (2 * piece),
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        vllm, build = words_in([data])
        want = batch.VLLM_WORD if vllm else batch.BUILD_WORD if build else batch.NO_WORD
        assert batch._screen_flag(str(tmp_path / name)) == want, name
    monkeypatch.setattr(source_file, "MAX_FILE_BYTES", piece)
    assert batch._screen_flag(str(tmp_path / "big-none.json")) == batch.UNSCREENED
    assert batch._screen_flag(str(tmp_path / "big-early.sh")) == batch.VLLM_WORD  # a word in what is read
    assert batch._screen_flag(str(tmp_path / "across.sh")) == batch.UNSCREENED  # its word past what is read
    assert batch._screen_flag(str(tmp_path / "small-none.md")) == batch.NO_WORD
