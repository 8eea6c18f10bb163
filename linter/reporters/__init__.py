"""Reporters: turn diagnostics into text for people (full, concise) and tools.

Every reporter takes the file results and returns the whole report as a string
for standard output; messages about the run go to standard error elsewhere.

Machine formats: ``json`` / ``json-lines`` (ruff-shaped), ``sarif`` (GitHub
code scanning), ``github`` (workflow-command annotations), ``rdjson``
(reviewdog, with suggested changes), ``gitlab`` (code quality report) and
``junit`` (CI test views).  The helpers they share (positions in the unit each
format counts in, paths relative to the working folder, fingerprints that
survive lines moving) are in :mod:`linter.reporters.common`, which imports no
reporter: this package dispatches to its modules, they never import it back.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from linter.engine import FileResult

FORMATS = ("full", "concise", "json", "json-lines", "sarif", "github", "rdjson", "gitlab", "junit")
TEXT_FORMATS = ("full", "concise")  # the formats for people: colour, --quiet


def use_color(stream, environ=None) -> bool:
    """Colour the text formats on ``stream``? ``NO_COLOR`` (set, not empty) says no and
    ``FORCE_COLOR`` (set, not empty, not ``0``) says yes (https://no-color.org,
    https://force-color.org; NO_COLOR wins); otherwise only on a terminal that is not ``dumb``."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    force = env.get("FORCE_COLOR")
    if force and force != "0":
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and env.get("TERM") != "dumb"


def report(name: str, results: list[FileResult], *, color: bool = False, quiet: bool = False) -> str:
    """The whole report in format ``name``; ``color``/``quiet`` shape the text formats only
    (the machine formats hold the findings alone, never a summary nor colour)."""
    if name in TEXT_FORMATS:
        return reporter(name)(results, color=color, quiet=quiet)
    return reporter(name)(results)


def reporter(name: str) -> Callable[[list[FileResult]], str]:
    if name == "full":
        from linter.reporters.text import full

        return full
    if name == "concise":
        from linter.reporters.text import concise

        return concise
    if name == "json":
        from linter.reporters.json_report import as_json

        return as_json
    if name == "json-lines":
        from linter.reporters.json_report import as_json_lines

        return as_json_lines
    if name == "sarif":
        from linter.reporters.sarif import as_sarif

        return as_sarif
    if name == "github":
        from linter.reporters.github import as_github

        return as_github
    if name == "rdjson":
        from linter.reporters.rdjson import as_rdjson

        return as_rdjson
    if name == "gitlab":
        from linter.reporters.gitlab import as_gitlab

        return as_gitlab
    if name == "junit":
        from linter.reporters.junit import as_junit

        return as_junit
    raise ValueError(f"unknown output format {name!r}")
