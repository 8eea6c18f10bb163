"""JUnit XML for CI test views: one test suite, a test case per file, a failure per diagnostic.

A file without diagnostics is a passing test case.  Paths and messages are
shown with their control and format characters escaped
(:func:`linter.reporters.printable`), which also keeps out every character
XML 1.0 cannot carry.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from linter.engine import FileResult
from linter.reporters.common import char_pos, printable, rel_path

_NEWLINES = "\r\n"  # a message's own line breaks: XML carries them (as &#10; in attributes)


def as_junit(results: list[FileResult]) -> str:
    failed = sum(1 for r in results if r.diagnostics)
    attrs = {"name": "vllm-lint", "tests": str(len(results)), "failures": str(failed), "errors": "0", "skipped": "0"}
    root = ET.Element("testsuites", attrs)
    suite = ET.SubElement(root, "testsuite", attrs)
    for r in results:
        path = printable(rel_path(r.path))
        case = ET.SubElement(suite, "testcase", {"name": path, "classname": "vllm-lint", "file": path})
        for d in r.diagnostics:
            line, col = char_pos(r.src, d.span.start)
            version = f" [vLLM {d.vllm_version}]" if d.vllm_version else ""
            message = printable(d.message, keep=_NEWLINES)
            failure = ET.SubElement(case, "failure", {"message": f"{d.code}: {message}", "type": d.code})
            body = f"{path}:{line}:{col}: {d.code} {message}{version}"
            if d.fix is not None:
                body += f"\n{d.fix.applicability} fix: {printable(d.fix.message, keep=_NEWLINES)}"
            failure.text = body
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
