import xml.etree.ElementTree as ET

from linter.reporters import reporter


def _tree(results):
    text = reporter("junit")(results)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))


def test_a_testcase_per_file_and_a_failure_per_diagnostic(results):
    root = _tree(results)
    (suite,) = root.findall("testsuite")
    assert suite.get("tests") == "3" and suite.get("failures") == "2"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert list(cases) == ["deploy/clean.sh", "deploy/serve.sh", "deploy/broken.yaml"]
    assert cases["deploy/clean.sh"].findall("failure") == []
    failures = cases["deploy/serve.sh"].findall("failure")
    assert [f.get("type") for f in failures] == ["VL302", "VL102", "VL205", "VL101"]
    assert failures[1].get("message") == "VL102: `--max-num-seq` was renamed to `--max-num-seqs`"
    assert failures[1].text.startswith("deploy/serve.sh:3:")
    assert "safe fix: Rename to `--max-num-seqs`" in failures[1].text
    assert failures[2].get("message") == "VL205: option spans lines: 100% of 2, a:b, c\r\nd"  # attribute newlines survive
    assert "モデル" in failures[3].get("message")


def test_clean_run_passes(clean):
    root = _tree(clean)
    suite = root.find("testsuite")
    assert suite.get("failures") == "0"
    assert [c.findall("failure") for c in suite.findall("testcase")] == [[]]
    assert _tree([]).find("testsuite").get("tests") == "0"


def test_control_characters_do_not_break_the_xml():
    from linter.diagnostic import Diagnostic
    from linter.engine import FileResult
    from linter.launch import Span

    d = Diagnostic("VL001", "bad byte \x00\x1b here", "x.sh", Span(0, 0))
    failure = _tree([FileResult("x.sh", [d])]).find("testsuite/testcase/failure")
    assert failure.get("message") == "VL001: bad byte \\x00\\x1b here"  # shown escaped, never raw
