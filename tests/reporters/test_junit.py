import xml.etree.ElementTree as ET

from linter.reporters import reporter


def _tree(results):
    text = reporter("junit")(results)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))


def test_a_suite_per_file_and_a_testcase_per_diagnostic(results):
    root = _tree(results)
    assert root.get("tests") == "6" and root.get("failures") == "5"  # 4 + 1 findings, one passing case for the clean file
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == ["deploy/clean.sh", "deploy/serve.sh", "deploy/broken.yaml"]
    clean = suites["deploy/clean.sh"].findall("testcase")
    assert len(clean) == 1 and clean[0].findall("failure") == [] and suites["deploy/clean.sh"].get("failures") == "0"
    cases = suites["deploy/serve.sh"].findall("testcase")
    assert suites["deploy/serve.sh"].get("tests") == suites["deploy/serve.sh"].get("failures") == "4"
    assert all(len(c.findall("failure")) == 1 for c in cases)  # one finding, one test case
    assert {c.get("classname") for c in cases} == {"deploy/serve.sh"}
    failures = [c.find("failure") for c in cases]
    assert [f.get("type") for f in failures] == ["VL302", "VL102", "VL205", "VL101"]
    assert cases[1].get("name") == "VL102:3:" + failures[1].text.split(":")[2] and cases[1].get("line") == "3"
    assert failures[1].get("message") == "VL102: `--max-num-seq` was renamed to `--max-num-seqs`"
    assert failures[1].text.startswith("deploy/serve.sh:3:")
    assert "safe fix: Rename to `--max-num-seqs`" in failures[1].text
    assert failures[2].get("message") == "VL205: option spans lines: 100% of 2, a:b, c\r\nd"  # attribute newlines survive
    assert "モデル" in failures[3].get("message")


def test_clean_run_passes(clean):
    root = _tree(clean)
    assert root.get("failures") == "0"
    assert [c.findall("failure") for c in root.iter("testcase")] == [[]]
    assert _tree([]).get("tests") == "0"


def test_control_characters_do_not_break_the_xml():
    from linter.diagnostic import Diagnostic
    from linter.engine import FileResult
    from linter.launch import Span

    d = Diagnostic("VL001", "bad byte \x00\x1b here", "x.sh", Span(0, 0))
    failure = _tree([FileResult("x.sh", [d])]).find("testsuite/testcase/failure")
    assert failure.get("message") == "VL001: bad byte \\x00\\x1b here"  # shown escaped, never raw
