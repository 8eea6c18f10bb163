"""SARIF 2.1.0 for GitHub code scanning (``github/codeql-action/upload-sarif``).

One run; ``tool.driver.rules`` lists every rule that has a result, each result
points at its rule by ``ruleId`` and ``ruleIndex``.  Regions count columns in
UTF-16 code units (SARIF's default, declared in ``columnKind``) and end one
past the last character.  ``partialFingerprints`` hash the path, the code, the
flagged text and its occurrence index, never the line, so alerts stay put
when lines move.  Fixes become ``fixes`` with ``artifactChanges`` (reviewdog
reads them; GitHub ignores them).  A clean run still has ``"results": []``.
"""

from __future__ import annotations

from linter.diagnostic import Diagnostic, Severity
from linter.engine import FileResult
from linter.launch import Span
from linter.reporters.common import fingerprinted, json_text, path_uri, project_url, rule_doc_ref, rule_url, tool_version, utf16_pos
from linter.source_file import SourceFile

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "vllmLint/v1"

LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _region(src: SourceFile | None, span: Span) -> dict:
    if src is None:
        return {"startLine": 1}
    line, col = utf16_pos(src, span.start)
    end_line, end_col = utf16_pos(src, span.end)
    return {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col}


def _rule_descriptor(code: str, rule) -> dict:
    ref = rule_doc_ref(code)
    if rule is None:  # a code without a registered rule (should not happen): still describe it
        return {"id": code, "shortDescription": {"text": code}, "fullDescription": {"text": code}, "help": {"text": f"See {ref}."}}
    page = rule.doc or rule.summary
    out = {
        "id": code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": page},
        "help": {"text": page, "markdown": page},
        "defaultConfiguration": {"level": LEVELS[rule.severity], "enabled": bool(rule.default)},
        "properties": {"tags": ["vllm"], "precision": "very-high", "problem.severity": rule.severity.value, "fixable": rule.fixable},
    }
    url = rule_url(code)
    if url.startswith(("https://", "http://")):  # SARIF wants an absolute URI; without one the page is in `help`
        out["helpUri"] = url
    return out


def _fix(uri: str, src: SourceFile | None, d: Diagnostic) -> dict:
    assert d.fix is not None
    return {
        "description": {"text": d.fix.message},
        "artifactChanges": [
            {
                "artifactLocation": {"uri": uri},
                "replacements": [
                    {"deletedRegion": _region(src, e.span), "insertedContent": {"text": e.content}} for e in d.fix.edits
                ],
            }
        ],
        "properties": {"applicability": d.fix.applicability},
    }


def sarif_log(results: list[FileResult]) -> dict:
    from rules._lib.base import all_rules

    registry = all_rules()
    rules: list[dict] = []
    index: dict[str, int] = {}
    out_results: list[dict] = []
    for result, d, fingerprint in fingerprinted(results):
        if d.code not in index:
            index[d.code] = len(rules)
            rules.append(_rule_descriptor(d.code, registry.get(d.code)))
        uri = path_uri(result.path)
        item: dict = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": LEVELS[d.severity],
            "message": {"text": d.message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": _region(result.src, d.span)}}],
            "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        }
        if d.fix is not None and d.fix.edits:
            item["fixes"] = [_fix(uri, result.src, d)]
        if d.related:
            item["relatedLocations"] = [
                {"id": i, "physicalLocation": {"artifactLocation": {"uri": path_uri(path)}, "region": _region(result.src if path == result.path else None, span)}}
                for i, (path, span) in enumerate(d.related)
            ]
        if d.vllm_version:
            item["properties"] = {"vllmVersion": d.vllm_version}
        out_results.append(item)
    # rules in code order, indices remapped, so the output does not depend on file order
    order = sorted(range(len(rules)), key=lambda i: rules[i]["id"])
    remap = {old: new for new, old in enumerate(order)}
    rules = [rules[i] for i in order]
    for item in out_results:
        item["ruleIndex"] = remap[item["ruleIndex"]]
    driver: dict = {"name": "vllm-lint", "version": tool_version(), "rules": rules}
    base = project_url()
    if base:
        driver["informationUri"] = base
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "columnKind": "utf16CodeUnits", "results": out_results}],
    }


def as_sarif(results: list[FileResult]) -> str:
    return json_text(sarif_log(results), indent=2) + "\n"
