"""Shared test settings."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _shares_by_bytes_only(monkeypatch):
    """In this process, lint_many shares work with forked processes only by its bytes and files
    (``SPLIT_BYTES``, ``SPLIT_FILES``), never because it ran past ``SHARE_AFTER`` seconds: a test
    that counts calls or patches a function in this process would otherwise see its result
    depend on how loaded the machine is.  Tests of the time-based sharing set it themselves;
    runs of the command in a subprocess keep it."""
    from linter import batch

    monkeypatch.setattr(batch, "SHARE_AFTER", float("inf"))
