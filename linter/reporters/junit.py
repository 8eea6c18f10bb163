"""JUnit XML for CI test views: a test suite per file, a test case per diagnostic.

As ruff's junit output: each finding is its own failing test case (named by its
code, classed by its file, with its line and column), so a CI view lists and
counts findings, not files.  A file without diagnostics is one passing test
case.  Paths and messages are shown with their control and format characters
escaped (:func:`linter.reporters.printable`), which also keeps out every
character XML 1.0 cannot carry.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from linter.engine import FileResult
from linter.reporters.common import char_pos, printable, rel_path


_NEWLINES = "\r\n"  # a message's own line breaks: XML carries them (as &#10; in attributes)


def as_junit(results: list[FileResult]) -> str:
    cases = sum(max(1, len(r.diagnostics)) for r in results)
    failed = sum(len(r.diagnostics) for r in results)
    root = ET.Element("testsuites", {"name": "vllm-lint", "tests": str(cases), "failures": str(failed), "errors": "0", "skipped": "0"})
    for r in results:
        path = printable(rel_path(r.path))
        n = len(r.diagnostics)
        suite = ET.SubElement(root, "testsuite", {"name": path, "tests": str(max(1, n)), "failures": str(n), "errors": "0", "skipped": "0"})
        if not r.diagnostics:
            ET.SubElement(suite, "testcase", {"name": "vllm-lint", "classname": path, "file": path})
        for d in r.diagnostics:
            line, col = char_pos(r.src, d.span.start)
            version = f" [vLLM {d.vllm_version}]" if d.vllm_version else ""
            case = ET.SubElement(suite, "testcase", {"name": f"{d.code}:{line}:{col}", "classname": path, "file": path, "line": str(line)})
            message = printable(d.message, keep=_NEWLINES)
            failure = ET.SubElement(case, "failure", {"message": f"{d.code}: {message}", "type": d.code})
            body = f"{path}:{line}:{col}: {d.code} {message}{version}"
            if d.fix is not None:
                body += f"\n{d.fix.applicability} fix: {printable(d.fix.message, keep=_NEWLINES)}"
            failure.text = body
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
