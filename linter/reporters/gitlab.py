"""GitLab code quality report (the Code Climate subset GitLab reads): a JSON array of issues.

GitLab does not show ``check_name``, so the description starts with the code.
Fingerprints are unique and stable (path, code, flagged text and occurrence
index; no line number): GitLab keeps only the first issue of a fingerprint and
compares them between the merge request and its target branch.
"""

from __future__ import annotations

from linter.diagnostic import Severity
from linter.engine import FileResult
from linter.reporters.common import char_pos, fingerprinted, json_text, rel_path

# error: the server fails to start or rejects the option; warning: accepted but
# ignored, deprecated or changing meaning; info: worth knowing
SEVERITIES = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.INFO: "info"}


def issues(results: list[FileResult]) -> list[dict]:
    out = []
    for result, d, fingerprint in fingerprinted(results):
        line, _ = char_pos(result.src, d.span.start)
        end_line, _ = char_pos(result.src, d.span.end)
        out.append(
            {
                "type": "issue",
                "description": f"{d.code}: {d.message}",
                "check_name": d.code,
                "fingerprint": fingerprint,
                "severity": SEVERITIES[d.severity],
                "location": {"path": rel_path(result.path), "lines": {"begin": line, "end": end_line}},
            }
        )
    return out


def as_gitlab(results: list[FileResult]) -> str:
    return json_text(issues(results), indent=2) + "\n"
