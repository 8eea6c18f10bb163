"""Every output format from the command line on a real tree (needs the 0.31.0 inventory).

A Kubernetes manifest and a shell script pinned to 0.31.0 use an option that
0.31.0 renamed; the script also holds non-ASCII text before the finding and an
unused suppression.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from linter import knowledge
from linter.cli import main

try:
    knowledge.release(knowledge.resolve_version("0.31"))
    HAVE = True
except Exception:  # noqa: BLE001 - any failure to load means "not generated yet"
    HAVE = False

pytestmark = pytest.mark.skipif(not HAVE, reason="rules/data/releases/0.31.0.json is not generated yet")

OLD, NEW = "--enable-mamba-fine-grained-prefix-cache", "--enable-mamba-shared-prefix-checkpoint"
MANIFEST = f"""\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen-next
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.31.0
          args:
            - Qwen/Qwen3-Next-80B-A3B-Instruct
            - {OLD}
"""
SCRIPT = f"""\
#!/bin/sh
# vllm==0.31.0
echo "«モデル» 😀"; vllm serve Qwen/Qwen3-8B {OLD} \\
  --max-num-seqs 8  # vllm-lint: ignore[VL101]
"""
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "qwen.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "deploy" / "serve.sh").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "deploy" / "clean.sh").write_text("vllm serve Qwen/Qwen3-8B --max-num-seqs 8\n", encoding="utf-8")
    return tmp_path


def _run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result


def test_sarif(tree):
    out = _run("--output-format", "sarif", "deploy")
    assert out.exit_code == 1
    log = json.loads(out.stdout)
    errors = list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
    assert not errors, [e.message for e in errors]
    results = log["runs"][0]["results"]
    codes = sorted(r["ruleId"] for r in results)
    assert codes == ["VL102", "VL102", "VL901"]
    script = next(r for r in results if r["ruleId"] == "VL102" and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "deploy/serve.sh")
    region = script["locations"][0]["physicalLocation"]["region"]
    line = SCRIPT.splitlines()[2]
    assert region["startLine"] == 3
    assert region["startColumn"] == len(line[: line.index(OLD)].encode("utf-16-le")) // 2 + 1
    assert script["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == NEW
    clean = json.loads(_run("--output-format", "sarif", "deploy/clean.sh").stdout)
    assert clean["runs"][0]["results"] == []


def test_fingerprints_do_not_move_with_lines(tree):
    before = {r["partialFingerprints"]["vllmLint/v1"] for r in json.loads(_run("--output-format", "sarif", "deploy").stdout)["runs"][0]["results"]}
    (tree / "deploy" / "serve.sh").write_text(SCRIPT.replace("# vllm==0.31.0\n", "# vllm==0.31.0\n\n# moved down\n"), encoding="utf-8")
    after = {r["partialFingerprints"]["vllmLint/v1"] for r in json.loads(_run("--output-format", "sarif", "deploy").stdout)["runs"][0]["results"]}
    assert before == after
    gitlab = json.loads(_run("--output-format", "gitlab", "deploy").stdout)
    assert len({i["fingerprint"] for i in gitlab}) == len(gitlab) == 3


def test_github_rdjson_junit(tree):
    gh = _run("--output-format", "github", "deploy").stdout.splitlines()
    assert len(gh) == 3 and all(line.startswith(("::error ", "::warning ")) for line in gh)
    rd = json.loads(_run("--output-format", "rdjson", "deploy").stdout)
    d = next(d for d in rd["diagnostics"] if d["location"]["path"] == "deploy/serve.sh" and d["code"]["value"] == "VL102")
    line = SCRIPT.splitlines()[2]
    assert d["location"]["range"]["start"] == {"line": 3, "column": len(line[: line.index(OLD)].encode("utf-8")) + 1}
    assert d["suggestions"][0]["text"] == NEW
    root = ET.fromstring(_run("--output-format", "junit", "deploy").stdout.encode("utf-8"))
    per_file = {s.get("name"): [len(c.findall("failure")) for c in s.iter("testcase")] for s in root.iter("testsuite")}
    assert per_file == {"deploy/clean.sh": [0], "deploy/qwen.yaml": [1], "deploy/serve.sh": [1, 1]}  # a test case per finding


def test_fix_renames_and_removes_the_stale_suppression(tree):
    result = CliRunner().invoke(main, ["--fix", "deploy"])
    assert result.exit_code == 0, result.output
    assert (tree / "deploy" / "qwen.yaml").read_text(encoding="utf-8") == MANIFEST.replace(OLD, NEW)
    assert (tree / "deploy" / "serve.sh").read_text(encoding="utf-8") == SCRIPT.replace(OLD, NEW).replace("  # vllm-lint: ignore[VL101]", "")


def test_suppression_on_the_last_line_of_a_continued_command(tree):
    (tree / "deploy" / "serve.sh").write_text(SCRIPT.replace("ignore[VL101]", "ignore[VL102] not yet"), encoding="utf-8")
    out = json.loads(_run("--output-format", "json", "deploy/serve.sh").stdout)
    assert out == []


def test_stdout_carries_the_report_alone(tree):
    import subprocess
    import sys

    for fmt in ("sarif", "rdjson", "gitlab", "json"):
        r = subprocess.run([sys.executable, "-m", "linter.cli", "--fix", "--output-format", fmt, "deploy"], capture_output=True, text=True, cwd=tree)
        assert r.returncode == 0, r.stderr
        json.loads(r.stdout)  # nothing but the report
        assert "Fixed" in r.stderr
        (tree / "deploy" / "qwen.yaml").write_text(MANIFEST, encoding="utf-8")
        (tree / "deploy" / "serve.sh").write_text(SCRIPT, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "linter.cli", "--output-format", "junit", "deploy"], capture_output=True, text=True, cwd=tree)
    assert r.returncode == 1
    ET.fromstring(r.stdout.encode("utf-8"))
