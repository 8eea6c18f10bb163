"""Fixtures of the tests of linter/."""

from __future__ import annotations

import pytest


@pytest.fixture
def forked(monkeypatch) -> list[int]:
    """The pids of the processes :mod:`linter.batch` forks during the test (shares and the
    screener alike), filled as it forks them."""
    from linter import batch

    pids: list[int] = []
    real_fork = batch._fork

    def fork(*args):
        child = real_fork(*args)
        if child is not None:
            pids.append(child[0])
        return child

    monkeypatch.setattr(batch, "_fork", fork)
    return pids
