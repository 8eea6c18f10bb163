import json

from linter.reporters import reporter
from tests.reporters.conftest import SCRIPT, make_results

SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def _issues(results):
    issues = json.loads(reporter("gitlab")(results))
    for i in issues:
        assert set(i) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert i["severity"] in SEVERITIES
        assert i["description"].startswith(i["check_name"] + ": ")
        assert isinstance(i["location"]["lines"]["begin"], int) and i["location"]["lines"]["begin"] >= 1
        assert not i["location"]["path"].startswith("/")
    return issues


def test_issues(results):
    issues = _issues(results)
    assert [i["check_name"] for i in issues] == ["VL302", "VL102", "VL205", "VL101", "VL003"]
    by = {i["check_name"]: i for i in issues}
    assert by["VL102"]["severity"] == "critical"
    assert by["VL205"]["severity"] == "major"
    assert by["VL302"]["severity"] == "info"
    assert by["VL205"]["location"] == {"path": "deploy/serve.sh", "lines": {"begin": 3, "end": 4}}
    assert by["VL101"]["description"] == "VL101: `--swap-space` was removed in vLLM 0.31 (モデル)"
    assert by["VL003"]["location"] == {"path": "deploy/broken.yaml", "lines": {"begin": 1, "end": 1}}


def test_fingerprints_are_unique_and_stable():
    before = [i["fingerprint"] for i in _issues(make_results())]
    assert len(set(before)) == len(before)
    moved = [i["fingerprint"] for i in _issues(make_results(SCRIPT.replace("#!/bin/sh\n", "#!/bin/sh\n\n\n")))]
    assert moved == before


def test_clean_run(clean):
    assert _issues(clean) == []
