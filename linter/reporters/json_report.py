"""JSON output shaped like ruff's ``--output-format json``, plus the release checked."""

from __future__ import annotations

from linter.diagnostic import Diagnostic
from linter.engine import FileResult
from linter.reporters.common import json_text, rule_url
from linter.source_file import SourceFile



def _loc(src: SourceFile | None, offset: int) -> dict:
    if src is None:
        return {"row": 1, "column": 1}
    row, col = src.line_col(offset)
    return {"row": row, "column": col}


def diagnostic_dict(src: SourceFile | None, d: Diagnostic) -> dict:
    fix = None
    if d.fix is not None:
        fix = {
            "applicability": d.fix.applicability,
            "message": d.fix.message,
            "edits": [
                {"content": e.content, "location": _loc(src, e.span.start), "end_location": _loc(src, e.span.end)}
                for e in d.fix.edits
            ],
        }
    return {
        "code": d.code,
        "message": d.message,
        "filename": d.path,
        "location": _loc(src, d.span.start),
        "end_location": _loc(src, d.span.end),
        "url": rule_url(d.code),  # absolute when [project.urls] says where the docs are
        "severity": d.severity.value,
        "fix": fix,
        "noqa_row": _loc(src, d.span.start)["row"],
        "vllm_version": d.vllm_version,
        **({"notes": list(d.notes)} if d.notes else {}),
    }


def as_json(results: list[FileResult]) -> str:
    items = [diagnostic_dict(r.src, d) for r in results for d in r.diagnostics]
    return json_text(items, indent=2) + "\n"


def as_json_lines(results: list[FileResult]) -> str:
    return "".join(json_text(diagnostic_dict(r.src, d)) + "\n" for r in results for d in r.diagnostics)
