"""linter.project: lint or fix a set of files, named ``--config`` files once per run."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.version import Version

import linter.engine
from linter import project
from linter.cli import main
from linter.engine import Settings

CONFIG = "# for the servers\nmax-num-seqs: 64\nenable-mamba-fine-grained-prefix-cache: true\n"


def _tree(tmp_path: Path, launches: int = 1) -> Path:
    (tmp_path / "serve-config.yaml").write_text(CONFIG)
    lines = ["#!/bin/sh", 'pip install "vllm==0.29.0"']
    lines += [f"vllm serve org/model-{i} --port {8000 + i} --config serve-config.yaml &" for i in range(launches)]
    (tmp_path / "serve.sh").write_text("\n".join(lines) + "\nwait\n")
    return tmp_path


def _check(tmp_path, monkeypatch, *args):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, ["--no-cache", *args, "."], catch_exceptions=False)


def test_a_named_config_inherits_its_launchs_release_and_the_summary_says_so(tmp_path, monkeypatch):
    _tree(tmp_path)
    r = _check(tmp_path, monkeypatch)
    assert "Checked 2 launches: 1 against 0.29.0 (a --config file, as the launch naming it), 1 against 0.29.0 (pinned in the file)." in r.stdout
    assert "--target-version" not in r.stdout
    assert "serve-config.yaml:3:1: VL105" in r.stdout  # the 0.29 reading: a 0.30 option
    r = _check(tmp_path, monkeypatch, "--target-version", "0.32")
    assert "Checked 2 launches: 2 against 0.32.0 (--target-version)." in r.stdout


@pytest.mark.parametrize("compact", [False, True])
def test_the_inherited_release_is_the_first_naming_launchs(tmp_path, compact):
    """Two scripts pinning different releases name one config: it is linted once, as the first one reads it."""
    (tmp_path / "serve-config.yaml").write_text(CONFIG)
    (tmp_path / "a.sh").write_text('pip install "vllm==0.29.0"\nvllm serve m --config serve-config.yaml\n')
    (tmp_path / "b.sh").write_text('pip install "vllm==0.32.0"\nvllm serve m --config ./serve-config.yaml\n')
    results = project.lint(project.candidates([str(tmp_path)]), Settings(), compact=compact)
    named = [r for r in results if r.path.endswith("serve-config.yaml")]
    assert len(named) == 1 and named[0].path == str(tmp_path / "serve-config.yaml")  # the walk's name kept
    [rep] = named[0].launches
    assert (rep.version, rep.reason) == (Version("0.29.0"), "inherited")
    assert [d.code for d in named[0].diagnostics] == ["VL105"]


def test_a_named_config_is_read_once_per_run_however_many_launches_name_it(tmp_path, monkeypatch):
    """Each launch reads the config's settings for its own options; within a run they share one read."""
    reads: list[str] = []
    real = linter.engine.read_file

    def counting(path, *args, **kwargs):
        if str(path).endswith("serve-config.yaml"):
            reads.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(linter.engine, "read_file", counting)
    counts = []
    for n in (1, 4):
        reads.clear()
        results = project.lint(project.candidates([str(_tree(tmp_path, n))]), Settings())
        assert sum(len(r.launches) for r in results) == n + 1
        counts.append(len(reads))
    assert counts[0] == counts[1]


def test_fix_without_write_reports_what_would_change_and_writes_nothing(tmp_path):
    _tree(tmp_path)
    cands = project.candidates([str(tmp_path)])
    run = project.fix(cands, Settings(target=Version("0.32.0")), write=False, roots=[str(tmp_path)])
    cfg = str(tmp_path / "serve-config.yaml")
    assert (tmp_path / "serve-config.yaml").read_text() == CONFIG
    assert [(path, [d.code for d in fixes]) for path, fixes in run.changed] == [(cfg, ["VL102"])]
    assert run.applied == 1 and not run.broken and run.problems == []
    [ff] = [ff for ff in run.files if ff.path == cfg]
    assert ff.outcome.fixed == CONFIG.replace("enable-mamba-fine-grained-prefix-cache", "enable-mamba-shared-prefix-checkpoint")
    assert {r.path for r in run.remaining} == {cfg, str(tmp_path / "serve.sh")}


def test_a_fix_keeps_the_bytes_read_only_for_the_files_it_will_write(tmp_path):
    """Every fixed file stays in memory to the end of the run; its bytes as read stay only while a
    write will compare them with the file's (a platform tree's --diff held 20 MB of manifests twice)."""
    _tree(tmp_path)
    (tmp_path / "clean.sh").write_text("vllm serve org/model --max-num-seqs 64\n")
    cfg, clean = str(tmp_path / "serve-config.yaml"), str(tmp_path / "clean.sh")
    run = project.fix(project.candidates([str(tmp_path)]), Settings(target=Version("0.32.0")), write=False, roots=[str(tmp_path)])
    assert {ff.path for ff in run.files} >= {cfg, clean} and all(ff.data is None for ff in run.files)
    run = project.fix(project.candidates([str(tmp_path)]), Settings(target=Version("0.32.0")), write=True, roots=[str(tmp_path)])
    assert [path for path, _fixes in run.changed] == [cfg] and run.problems == []
    assert "enable-mamba-shared-prefix-checkpoint" in (tmp_path / "serve-config.yaml").read_text()
    data = {ff.path: ff.data for ff in run.files}
    assert data[cfg] == CONFIG.encode() and data[clean] is None  # what the write checked; nothing to write


def test_fix_never_writes_a_named_config_outside_the_roots(tmp_path):
    outside = tmp_path / "shared"
    outside.mkdir()
    (outside / "serve-config.yaml").write_text(CONFIG)
    work = tmp_path / "work"
    work.mkdir()
    (work / "serve.sh").write_text("vllm serve m --config ../shared/serve-config.yaml\n")
    run = project.fix(project.candidates([str(work / "serve.sh")]), Settings(target=Version("0.32.0")), write=True, roots=[str(work / "serve.sh")])
    assert (outside / "serve-config.yaml").read_text() == CONFIG
    [(path, message)] = run.problems
    assert path.endswith("serve-config.yaml") and "outside the paths given" in message
    assert run.changed == [] and not run.broken
    named = [r for r in run.remaining if r.path.endswith("serve-config.yaml")]
    assert [d.code for d in named[0].diagnostics] == ["VL102"]  # still there: not written


def test_lint_document_and_fix_document_read_bytes_not_files(tmp_path):
    text = b"vllm serve Qwen/Qwen3-8B --max-num-seq 8\n"
    settings = Settings(target=Version("0.32.0"))
    result = project.lint_document(str(tmp_path / "unsaved.sh"), text, settings, "shell")
    assert [d.code for d in result.diagnostics] == ["VL201"]
    ff = project.fix_document(str(tmp_path / "unsaved.sh"), text, settings, "shell")
    assert ff.src.encode(ff.outcome.fixed) == b"vllm serve Qwen/Qwen3-8B --max-num-seqs 8\n"
    assert not (tmp_path / "unsaved.sh").exists()
    assert project.fix_document("x.sh", b"\xff\xfe\x00bad\xff", settings, "shell") is None


def test_a_walked_path_is_made_absolute_as_normpath_would() -> None:
    import os

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from linter.project import _absolute

    @settings(max_examples=2000, deadline=None)
    @given(st.text("ab./", max_size=12), st.sampled_from(["/work/repo", "/", "/work/repo/"]))
    def check(path: str, cwd: str) -> None:
        assert _absolute(cwd, path) == os.path.normpath(os.path.join(cwd, path))

    check()
    assert _absolute("/w", "deploy/k8s/vllm.yaml") == "/w/deploy/k8s/vllm.yaml"
