"""Files that change under vllm-lint's feet: they vanish, turn unreadable or become named pipes
between discovery and reading.  Run in-process (click's CliRunner on linter.cli.main) so the
race can be forced exactly."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import linter.discovery
from linter.cli import main
from tests.robustness.conftest import GOOD, by_file


def _run(args: list[str]) -> tuple[int, dict[str, list[dict]]]:
    result = CliRunner().invoke(main, ["--no-cache", "--output-format", "json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, by_file(json.loads(result.stdout))


def _after_discovery(monkeypatch: pytest.MonkeyPatch, action) -> None:
    """Run ``action`` once discovery has listed every file, before any is read."""
    real = linter.discovery.discover

    def discover(*args, **kwargs):
        found = list(real(*args, **kwargs))
        action()
        yield from found

    monkeypatch.setattr(linter.discovery, "discover", discover)


def _swapped_for_a_pipe(monkeypatch: pytest.MonkeyPatch, path: Path, run):
    """What ``run()`` returns when ``path`` becomes a named pipe after discovery; fails if it blocks."""

    def swap() -> None:
        path.unlink()
        os.mkfifo(path)

    _after_discovery(monkeypatch, swap)
    out: list = []
    t = threading.Thread(target=lambda: out.append(run()), daemon=True)
    t.start()
    t.join(60)
    if t.is_alive():  # open the pipe's other end so the blocked reader ends, then fail
        with open(path, "wb"):
            pass
        pytest.fail("vllm-lint blocked on a named pipe")
    return out[0]


def test_file_deleted_between_discovery_and_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tmp_path / "gone.sh"
    gone.write_text(GOOD)
    (tmp_path / "good.sh").write_text(GOOD)
    _after_discovery(monkeypatch, gone.unlink)
    code, got = _run([str(tmp_path)])
    assert code == 1
    [d] = got[str(gone)]
    assert d["code"] == "VL003" and "No such file" in d["message"]
    assert [d["code"] for d in got[str(tmp_path / "good.sh")]] == ["VL101"]


def test_file_replaced_by_a_pipe_does_not_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    swapped = tmp_path / "swapped.yaml"
    swapped.write_text("command: vllm serve m\n")
    (tmp_path / "good.sh").write_text(GOOD)
    code, got = _swapped_for_a_pipe(monkeypatch, swapped, lambda: _run([str(tmp_path)]))
    assert code == 1
    [d] = got[str(swapped)]
    assert d["code"] == "VL003" and "not a regular file" in d["message"]
    assert [d["code"] for d in got[str(tmp_path / "good.sh")]] == ["VL101"]


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Permission denied at open (forced, so the test also runs as root)."""
    secret = tmp_path / "secret.sh"
    secret.write_text(GOOD)
    (tmp_path / "good.sh").write_text(GOOD)
    real_open = os.open

    def guarded(path, flags, *args, **kwargs):
        if os.fspath(path) == str(secret):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)
    monkeypatch.setattr(linter.discovery, "_readable", lambda path: None)  # discovery saw it readable
    code, got = _run([str(tmp_path)])
    assert code == 1
    [d] = got[str(secret)]
    assert d["code"] == "VL003" and "Permission denied" in d["message"]
    assert [d["code"] for d in got[str(tmp_path / "good.sh")]] == ["VL101"]


def test_changes_does_not_block_on_a_file_replaced_by_a_pipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--changes`` reads the files through the same non-blocking reader as the check."""
    swapped = tmp_path / "swapped.sh"
    swapped.write_text("vllm serve m --max-num-seqs 8\n")
    (tmp_path / "good.sh").write_text(GOOD)
    result = _swapped_for_a_pipe(monkeypatch, swapped, lambda: CliRunner().invoke(main, ["--changes", "0.29", "0.32", str(tmp_path)]))
    assert result.exit_code == 0, result.output
    assert "used by 1 launches" in result.output  # good.sh read, the pipe skipped
