"""``--watch``: lint again whenever a linted file (or a configuration file) changes.

Polls stat signatures (size, modification time in nanoseconds, inode) of the
files a run would lint, every ``interval`` seconds: no watcher library, no
thread, the same on every platform, and cheap (discovery is a directory walk;
a few thousand files stat in milliseconds).  A new file, a removed one, or a
changed one starts a run.  ``polls`` bounds the loop (tests; None: until
interrupted).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable


def signature(paths: Iterable[str]) -> frozenset[tuple[str, int, int, int]]:
    """(path, size, mtime_ns, inode) of each of ``paths`` that exists."""
    out = set()
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        out.add((p, st.st_size, st.st_mtime_ns, st.st_ino))
    return frozenset(out)


def watch(run: Callable[[], int], files: Callable[[], Iterable[str]], *, interval: float = 0.5, polls: int | None = None,
          on_change: Callable[[], None] | None = None, sleep: Callable[[float], None] = time.sleep) -> int:
    """Call ``run`` now and again after each change of ``signature(files())``; return the last
    run's exit code once ``polls`` polls are done (never, when None)."""
    last = signature(files())
    code = run()
    done = 0
    while polls is None or done < polls:
        sleep(interval)
        done += 1
        now = signature(files())
        if now != last:
            last = now
            if on_change is not None:
                on_change()
            code = run()
    return code
