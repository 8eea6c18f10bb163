"""reviewdog Diagnostic Format (rdjson): one ``DiagnosticResult`` object.

Positions are 1-based lines and 1-based columns counted in UTF-8 bytes; the
end is exclusive (reviewdog's ``Range``).  Each safe or unsafe fix becomes
``suggestions`` (one per edit: a range and its replacement text), which
``reviewdog -reporter=github-pr-review`` posts as suggested changes that a
reviewer can commit.  Display-only fixes are described in the message but not
offered as suggestions: they are not meant to be applied as they stand.
"""

from __future__ import annotations

from linter.diagnostic import Diagnostic, Severity
from linter.engine import FileResult
from linter.launch import Span
from linter.reporters.common import json_text, rel_path, rule_url, utf8_pos
from linter.source_file import SourceFile

SEVERITIES = {Severity.ERROR: "ERROR", Severity.WARNING: "WARNING", Severity.INFO: "INFO"}
SOURCE = {"name": "vllm-lint"}


def _range(src: SourceFile | None, span: Span) -> dict:
    line, col = utf8_pos(src, span.start)
    end_line, end_col = utf8_pos(src, span.end)
    return {"start": {"line": line, "column": col}, "end": {"line": end_line, "column": end_col}}


def diagnostic(result: FileResult, d: Diagnostic) -> dict:
    message = d.message
    if d.vllm_version:
        message += f" [vLLM {d.vllm_version}]"
    out: dict = {
        "message": message,
        "location": {"path": rel_path(result.path), "range": _range(result.src, d.span)},
        "severity": SEVERITIES[d.severity],
        "source": dict(SOURCE),
        "code": {"value": d.code, "url": rule_url(d.code)},
    }
    if d.fix is not None and d.fix.applicability != "display-only" and d.fix.edits and result.src is not None:
        out["suggestions"] = [{"range": _range(result.src, e.span), "text": e.content} for e in d.fix.edits]
    elif d.fix is not None:
        out["message"] += f" ({d.fix.applicability} fix: {d.fix.message})"
    return out


def as_rdjson(results: list[FileResult]) -> str:
    doc = {"source": dict(SOURCE), "diagnostics": [diagnostic(r, d) for r in results for d in r.diagnostics]}
    return json_text(doc, indent=2) + "\n"
