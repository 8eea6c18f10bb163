"""Writing fixed files: atomic, mode-preserving, through symlinks, and never losing the original on a fault.

Every fault is injected with monkeypatch; after each one the original bytes
must be on disk unchanged and no temporary file may be left in the folder.
Tests run as root, so read-only files are made with chmod 0o444 (write_atomic
looks at the mode bits, not at what root could do).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from linter import fixer
from linter.fixer import FixError, write_atomic

ORIGINAL = b"vllm serve m --max-num-seq 8\r\n"
NEW = b"vllm serve m --max-num-seqs 8\r\n"


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".vllm-lint-"))


@pytest.fixture
def script(tmp_path: Path) -> Path:
    p = tmp_path / "serve.sh"
    p.write_bytes(ORIGINAL)
    return p


def test_write_replaces_bytes_and_keeps_mode_0755(script: Path):
    os.chmod(script, 0o755)
    write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == NEW
    assert stat.S_IMODE(script.stat().st_mode) == 0o755
    assert _leftovers(script.parent) == []


def test_write_goes_through_a_symlink_to_its_target(tmp_path: Path, script: Path):
    link = tmp_path / "link.sh"
    link.symlink_to(script.name)
    write_atomic(str(link), ORIGINAL, NEW)
    assert link.is_symlink(), "the link must stay a link"
    assert script.read_bytes() == NEW
    assert _leftovers(tmp_path) == []


def test_symlink_into_another_folder_puts_the_temp_file_beside_the_target(tmp_path: Path):
    real_dir, link_dir = tmp_path / "real", tmp_path / "links"
    real_dir.mkdir()
    link_dir.mkdir()
    target = real_dir / "serve.sh"
    target.write_bytes(ORIGINAL)
    (link_dir / "serve.sh").symlink_to(target)
    seen = []
    real_replace = os.replace

    def spy(src, dst, *, src_dir_fd=None, dst_dir_fd=None):  # the rename happens in the target's folder
        seen.append((os.readlink(f"/proc/self/fd/{src_dir_fd}"), dst))
        return real_replace(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fixer.os, "replace", spy)
        write_atomic(str(link_dir / "serve.sh"), ORIGINAL, NEW)
    assert seen == [(str(real_dir), "serve.sh")]
    assert target.read_bytes() == NEW and (link_dir / "serve.sh").is_symlink()


def test_read_only_file_is_reported_not_lost(script: Path):
    os.chmod(script, 0o444)
    with pytest.raises(FixError, match="read-only"):
        write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == ORIGINAL
    assert stat.S_IMODE(script.stat().st_mode) == 0o444
    assert _leftovers(script.parent) == []


def test_file_changed_since_it_was_read_is_skipped(script: Path):
    script.write_bytes(ORIGINAL + b"# edited meanwhile\n")
    with pytest.raises(FixError, match="changed on disk"):
        write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == ORIGINAL + b"# edited meanwhile\n"
    assert _leftovers(script.parent) == []


def test_file_changed_while_the_temp_file_was_written_is_skipped(script: Path, monkeypatch):
    real_fsync = os.fsync

    def fsync_then_someone_edits(fd):
        real_fsync(fd)
        with open(script, "ab") as f:
            f.write(b"# edited meanwhile\n")

    monkeypatch.setattr(fixer.os, "fsync", fsync_then_someone_edits)
    with pytest.raises(FixError, match="changed on disk"):
        write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == ORIGINAL + b"# edited meanwhile\n"
    assert _leftovers(script.parent) == []


class _FailingFile:
    """A file object whose write fails after writing part of the data."""

    def __init__(self, real, exc):
        self.real, self.exc = real, exc

    def write(self, data):
        self.real.write(data[: len(data) // 2])
        raise self.exc

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.real.close()


@pytest.mark.parametrize(
    "exc",
    [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt(), RuntimeError("interrupted")],
    ids=["ENOSPC", "KeyboardInterrupt", "exception"],
)
def test_fault_mid_write_keeps_the_original_and_cleans_up(script: Path, monkeypatch, exc):
    real_fdopen = os.fdopen
    monkeypatch.setattr(fixer.os, "fdopen", lambda fd, mode: _FailingFile(real_fdopen(fd, mode), exc))
    with pytest.raises(FixError if isinstance(exc, OSError) else type(exc)):
        write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == ORIGINAL
    assert _leftovers(script.parent) == []


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_as_the_temp_file_is_created_leaves_none_behind(script: Path, monkeypatch, sig):
    """The signal arrives the moment the temporary file exists, before the writer has
    recorded its name (the window an interrupted ``--fix`` on 2,000 files hit 3 times in 6)."""
    import signal

    from linter import cli

    real_open = os.open

    def open_then_signal(path, flags, *a, **kw):
        fd = real_open(path, flags, *a, **kw)
        if flags & os.O_CREAT:
            os.kill(os.getpid(), getattr(signal, sig))
        return fd

    previous = signal.signal(signal.SIGTERM, cli._terminate)  # as vllm-lint's main() sets it
    monkeypatch.setattr(fixer.os, "open", open_then_signal)
    try:
        with pytest.raises(KeyboardInterrupt):  # (cli.Terminated is one)
            write_atomic(str(script), ORIGINAL, NEW)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert script.read_bytes() == ORIGINAL
    assert _leftovers(script.parent) == []


def test_full_disk_at_fsync_keeps_the_original(script: Path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fixer.os, "fsync", full)
    with pytest.raises(FixError, match="No space left"):
        write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == ORIGINAL
    assert _leftovers(script.parent) == []


def test_rename_failing_keeps_the_original(script: Path, monkeypatch):
    def refuse(src, dst, **kw):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(fixer.os, "replace", refuse)
    with pytest.raises(FixError, match="cross-device"):
        write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == ORIGINAL
    assert _leftovers(script.parent) == []


def test_no_temp_file_possible_is_reported(script: Path, monkeypatch):
    real_open = os.open

    def refuse(path, flags, *a, **kw):
        if flags & os.O_CREAT:
            raise OSError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *a, **kw)

    monkeypatch.setattr(fixer.os, "open", refuse)
    with pytest.raises(FixError, match="temporary file"):
        write_atomic(str(script), ORIGINAL, NEW)
    assert script.read_bytes() == ORIGINAL


def test_vanished_file_is_reported(script: Path):
    script.unlink()
    with pytest.raises(FixError, match="cannot re-read"):
        write_atomic(str(script), ORIGINAL, NEW)
    assert _leftovers(script.parent) == []
