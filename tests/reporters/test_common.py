"""linter.reporters.common: paths as reports print them."""

from __future__ import annotations

import os
from pathlib import Path

from linter.reporters import common
from linter.reporters.common import rel_path


def _as_before(path: str) -> str:
    """rel_path's answer as it was worked out before answers were kept."""
    absolute = os.path.abspath(path)
    rel = os.path.relpath(absolute)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return absolute.replace(os.sep, "/")
    return rel.replace(os.sep, "/")


def test_rel_path_answers_for_the_working_folder_of_each_call(tmp_path: Path, monkeypatch):
    """Answers are kept per working folder: a language server that changes folder between
    reports gets each path relative to the folder it is in then."""
    (tmp_path / "repo" / "deploy").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    paths = ["deploy/serve.sh", "./deploy/../deploy/k8s.yaml", "../other/x.yaml", str(tmp_path / "other" / "y.yaml"), ".", "deploy//a.md"]
    monkeypatch.chdir(tmp_path / "repo")
    first = [rel_path(p) for p in paths]
    assert first == [_as_before(p) for p in paths]
    assert first[0] == "deploy/serve.sh" and first[1] == "deploy/k8s.yaml" and first[2] == str(tmp_path / "other" / "x.yaml").replace(os.sep, "/")
    monkeypatch.chdir(tmp_path)
    second = [rel_path(p) for p in paths]
    assert second == [_as_before(p) for p in paths]
    assert second[0] == "deploy/serve.sh" and second[3] == "other/y.yaml"
    monkeypatch.chdir(tmp_path / "repo")
    assert [rel_path(p) for p in paths] == first


def test_rel_path_keeps_a_bounded_number_of_answers(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(common, "_REL", {})
    for i in range(common._REL_KEPT * 2 + 5):
        assert rel_path(f"d/f{i}.yaml") == f"d/f{i}.yaml"
        assert len(common._REL) <= common._REL_KEPT
