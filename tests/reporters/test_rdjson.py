"""rdjson output, validated against reviewdog's DiagnosticResult schema and checked for what it leaves open.

The format's rules checked here: 1-based lines, 1-based columns counted in
UTF-8 bytes, an exclusive end, severity one of ERROR/WARNING/INFO, and
suggestions of ``{range, text}`` (an empty text deletes, an empty range inserts).
"""

import json
from pathlib import Path

import jsonschema

from linter.reporters import reporter
from tests.reporters.conftest import SCRIPT

POSITION_KEYS = {"line", "column"}
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schemas" / "reviewdog" / "DiagnosticResult.json").read_text(encoding="utf-8"))


def _check_range(r):
    assert set(r) == {"start", "end"}
    for p in r.values():
        assert set(p) <= POSITION_KEYS and all(isinstance(v, int) and v >= 1 for v in p.values())
    assert (r["start"]["line"], r["start"]["column"]) <= (r["end"]["line"], r["end"]["column"])


def _doc(results):
    doc = json.loads(reporter("rdjson")(results))
    errors = list(jsonschema.Draft4Validator(SCHEMA).iter_errors(doc))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
    assert doc["source"] == {"name": "vllm-lint"}
    for d in doc["diagnostics"]:
        assert isinstance(d["message"], str)
        assert d["severity"] in ("ERROR", "WARNING", "INFO")
        assert d["source"] == {"name": "vllm-lint"}
        assert set(d["code"]) == {"value", "url"}
        assert isinstance(d["location"]["path"], str)
        _check_range(d["location"]["range"])
        for s in d.get("suggestions", []):
            assert set(s) == {"range", "text"} and isinstance(s["text"], str)
            _check_range(s["range"])
    return doc


def _apply_utf8(text: str, suggestions) -> str:
    """Apply rdjson suggestions the way reviewdog does: byte columns, exclusive end."""
    lines = text.encode("utf-8").split(b"\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    data = text.encode("utf-8")
    for s in sorted(suggestions, key=lambda s: (s["range"]["start"]["line"], s["range"]["start"]["column"]), reverse=True):
        a = starts[s["range"]["start"]["line"] - 1] + s["range"]["start"]["column"] - 1
        b = starts[s["range"]["end"]["line"] - 1] + s["range"]["end"]["column"] - 1
        data = data[:a] + s["text"].encode("utf-8") + data[b:]
    return data.decode("utf-8")


def test_columns_are_utf8_bytes_and_suggestions_apply(results):
    doc = _doc(results)
    vl102 = next(d for d in doc["diagnostics"] if d["code"]["value"] == "VL102")
    line_text = SCRIPT.splitlines()[2]
    byte_col = len(line_text[: line_text.index("--max-num-seq")].encode("utf-8")) + 1
    assert vl102["location"]["range"] == {
        "start": {"line": 3, "column": byte_col},
        "end": {"line": 3, "column": byte_col + len("--max-num-seq")},
    }
    assert vl102["severity"] == "ERROR"
    assert vl102["code"] == {"value": "VL102", "url": "docs/rules.md#vl102"}
    assert _apply_utf8(SCRIPT, vl102["suggestions"]) == SCRIPT.replace("--max-num-seq ", "--max-num-seqs ")
    insertion = next(d for d in doc["diagnostics"] if d["code"]["value"] == "VL302")
    assert insertion["severity"] == "INFO"
    assert insertion["suggestions"][0]["range"]["start"] == insertion["suggestions"][0]["range"]["end"]
    assert _apply_utf8(SCRIPT, insertion["suggestions"]) == SCRIPT.replace(" --max-num-seq", " --enforce-eager --max-num-seq")


def test_display_only_fix_is_not_a_suggestion(results):
    doc = _doc(results)
    vl101 = next(d for d in doc["diagnostics"] if d["code"]["value"] == "VL101")
    assert "suggestions" not in vl101
    assert "display-only fix" in vl101["message"] and "モデル" in vl101["message"]


def test_multi_line_range_and_severity(results):
    doc = _doc(results)
    vl205 = next(d for d in doc["diagnostics"] if d["code"]["value"] == "VL205")
    assert vl205["severity"] == "WARNING"
    assert vl205["location"]["range"]["start"]["line"] == 3
    assert vl205["location"]["range"]["end"] == {"line": 4, "column": len("  --swap-space 4") + 1}


def test_clean_run(clean):
    assert _doc(clean) == {"source": {"name": "vllm-lint"}, "diagnostics": []}


def test_the_schema_rejects_what_reviewdog_would():
    bad = {"diagnostics": [{"severity": "FATAL", "location": {"range": {"start": {"line": "3"}}}}]}
    assert len(list(jsonschema.Draft4Validator(SCHEMA).iter_errors(bad))) == 2
