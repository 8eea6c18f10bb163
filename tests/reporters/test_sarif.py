import json
from pathlib import Path

import jsonschema
import pytest

from linter.reporters import reporter
from linter.reporters.sarif import FINGERPRINT_KEY, sarif_log
from tests.reporters.conftest import SCRIPT, make_results

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def _run(results):
    return json.loads(reporter("sarif")(results))


def test_validates_against_the_official_schema(results, clean, validator):
    for log in (_run(results), _run(clean), _run([])):
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_clean_run_has_an_empty_results_array(clean):
    run = _run(clean)["runs"][0]
    assert run["results"] == []
    assert run["tool"]["driver"]["name"] == "vllm-lint"
    assert run["tool"]["driver"]["rules"] == []


def test_rules_are_the_reported_ones_and_indices_match(results):
    run = _run(results)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["VL003", "VL101", "VL102", "VL205", "VL302"]
    for res in run["results"]:
        rule = rules[res["ruleIndex"]]
        assert rule["id"] == res["ruleId"]
    vl102 = next(r for r in rules if r["id"] == "VL102")
    assert vl102["name"] == "renamed-option"
    assert vl102["shortDescription"]["text"]
    assert "What it does" in vl102["fullDescription"]["text"]  # the rule page
    assert vl102["defaultConfiguration"]["level"] == "error"
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels == {"VL003": "error", "VL101": "error", "VL102": "error", "VL205": "warning", "VL302": "note"}


def _utf16_col(line_text: str, char_index: int) -> int:
    return len(line_text[:char_index].encode("utf-16-le")) // 2 + 1


def test_columns_are_utf16_code_units_after_non_ascii_text(results):
    run = _run(results)["runs"][0]
    assert run["columnKind"] == "utf16CodeUnits"
    res = next(r for r in run["results"] if r["ruleId"] == "VL102")
    region = res["locations"][0]["physicalLocation"]["region"]
    line_text = SCRIPT.splitlines()[2]
    i = line_text.index("--max-num-seq")
    # "echo 'モデル 😀'; ": the emoji is one character but two UTF-16 code units
    assert region == {"startLine": 3, "startColumn": i + 2, "endLine": 3, "endColumn": i + 2 + len("--max-num-seq")}
    assert region["startColumn"] == _utf16_col(line_text, i)


def test_multi_line_region(results):
    run = _run(results)["runs"][0]
    res = next(r for r in run["results"] if r["ruleId"] == "VL205")
    region = res["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 3 and region["endLine"] == 4
    assert region["endColumn"] == len("  --swap-space 4") + 1
    assert res["message"]["text"] == "option spans lines: 100% of 2, a:b, c\r\nd"


def test_uri_is_relative_and_unreadable_file_has_a_line(results):
    run = _run(results)["runs"][0]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert uris == {"deploy/serve.sh", "deploy/broken.yaml"}
    broken = next(r for r in run["results"] if r["ruleId"] == "VL003")
    assert broken["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}


def test_fixes_carry_replacements(results):
    run = _run(results)["runs"][0]
    res = next(r for r in run["results"] if r["ruleId"] == "VL102")
    (fix,) = res["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "deploy/serve.sh"
    (rep,) = change["replacements"]
    assert rep["insertedContent"] == {"text": "--max-num-seqs"}
    assert rep["deletedRegion"] == res["locations"][0]["physicalLocation"]["region"]
    assert fix["properties"]["applicability"] == "safe"
    insertion = next(r for r in run["results"] if r["ruleId"] == "VL302")
    region = insertion["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]
    assert region["startColumn"] == region["endColumn"]  # zero-width: an insertion
    deletion = next(r for r in run["results"] if r["ruleId"] == "VL101")
    assert deletion["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"] == {"text": ""}


def _fingerprints(log):
    return [(r["ruleId"], r["partialFingerprints"][FINGERPRINT_KEY]) for r in log["runs"][0]["results"]]


def test_fingerprints_survive_lines_moving_and_are_unique():
    before = _fingerprints(sarif_log(make_results()))
    moved = _fingerprints(sarif_log(make_results(SCRIPT.replace("#!/bin/sh\n", "#!/bin/sh\n\n# a new comment\n\n"))))
    assert before == moved
    assert len({fp for _, fp in before}) == len(before)
    other_path = _fingerprints(sarif_log(make_results(base="other")))
    assert {fp for _, fp in other_path}.isdisjoint({fp for _, fp in before})


def test_identical_findings_in_one_file_get_different_fingerprints():
    from linter.diagnostic import Diagnostic
    from linter.engine import FileResult
    from linter.launch import Span
    from linter.source_file import SourceFile

    text = "vllm serve m --max-num-seq 8\nvllm serve m --max-num-seq 8\n"
    src = SourceFile.from_text("a.sh", text)
    spans = [Span(13, 26), Span(42, 55)]
    assert text[13:26] == text[42:55] == "--max-num-seq"
    diags = [Diagnostic("VL102", "renamed", "a.sh", s) for s in spans]
    fps = _fingerprints(sarif_log([FileResult("a.sh", diags, src=src)]))
    assert fps[0][1] != fps[1][1]


def test_uris_are_percent_encoded_references(tmp_path, monkeypatch):
    from linter.reporters.common import path_uri

    monkeypatch.chdir(tmp_path)
    assert path_uri("deploy/my file é.sh") == "deploy/my%20file%20%C3%A9.sh"
    assert path_uri(str(tmp_path / "a" / "b.yaml")) == "a/b.yaml"
    assert path_uri("/elsewhere/x y.sh") == "file:///elsewhere/x%20y.sh"


def test_related_locations(results):
    run = _run(results)["runs"][0]
    res = next(r for r in run["results"] if r["ruleId"] == "VL205")
    same, other = res["relatedLocations"]
    assert same["physicalLocation"]["artifactLocation"]["uri"] == "deploy/serve.sh"
    assert same["physicalLocation"]["region"]["startLine"] == 3
    assert other["physicalLocation"] == {"artifactLocation": {"uri": "deploy/other.yaml"}, "region": {"startLine": 1}}


def test_the_schema_catches_broken_logs(results, validator):
    log = _run(results)
    del log["runs"][0]["results"][0]["message"]
    log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    log["runs"][0]["results"][2]["level"] = "fatal"
    assert len(list(validator.iter_errors(log))) == 3
