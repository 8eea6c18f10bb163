"""JUnit XML for CI test views: one test suite, a test case per file, a failure per diagnostic.

A file without diagnostics is a passing test case.  Characters XML 1.0 cannot
carry (control characters from a binary-looking file) are replaced.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from linter.engine import FileResult
from linter.reporters.common import char_pos, rel_path


def _xml_safe(text: str) -> str:
    def ok(c: str) -> bool:
        o = ord(c)
        return o in (0x9, 0xA, 0xD) or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or 0x10000 <= o <= 0x10FFFF

    return "".join(c if ok(c) else "\ufffd" for c in text)


def as_junit(results: list[FileResult]) -> str:
    failed = sum(1 for r in results if r.diagnostics)
    attrs = {"name": "vllm-lint", "tests": str(len(results)), "failures": str(failed), "errors": "0", "skipped": "0"}
    root = ET.Element("testsuites", attrs)
    suite = ET.SubElement(root, "testsuite", attrs)
    for r in results:
        path = rel_path(r.path)
        case = ET.SubElement(suite, "testcase", {"name": _xml_safe(path), "classname": "vllm-lint", "file": _xml_safe(path)})
        for d in r.diagnostics:
            line, col = char_pos(r.src, d.span.start)
            version = f" [vLLM {d.vllm_version}]" if d.vllm_version else ""
            failure = ET.SubElement(case, "failure", {"message": _xml_safe(f"{d.code}: {d.message}"), "type": d.code})
            body = f"{path}:{line}:{col}: {d.code} {d.message}{version}"
            if d.fix is not None:
                body += f"\n{d.fix.applicability} fix: {d.fix.message}"
            failure.text = _xml_safe(body)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
