"""Reporters: turn diagnostics into text for people (full, concise) and tools (json, json-lines).

Every reporter takes the file results and returns the whole report as a string
for standard output; messages about the run go to standard error elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable

from linter.engine import FileResult

FORMATS = ("full", "concise", "json", "json-lines")


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
    raise ValueError(f"unknown output format {name!r}")
