"""The command line a ruff user expects (issue 17), and saying what was not read (issue 12, item 10).

Every point goes through the real command line: click's runner in this process, or
``.venv/bin/vllm-lint`` in a subprocess where a terminal, the environment or time matter.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner

from linter import knowledge
from linter.cli import main

pytestmark = pytest.mark.skipif("0.33.0" not in {str(v) for v in knowledge.known_versions()}, reason="no 0.33 inventory")

EXE = str(Path(sys.executable).with_name("vllm-lint"))
# VL101 (error: removed) and VL201 (warning, with a safe fix) in one launch
SCRIPT = "#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B \\\n  --swap-space 4 \\\n  --max-num-seq 8\n"
NOTE = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --disable-hybrid-kv-cache-manager\n"  # VL302 (info) alone
CLEAN = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n"


def write(root: Path, name: str, text: str) -> Path:
    p = root / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def run(tmp_path: Path, monkeypatch, *args: str):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, ["--no-cache", *args], catch_exceptions=False)


def codes(result) -> list[str]:
    return [d["code"] for d in json.loads(result.stdout)]


# -- --version ------------------------------------------------------------------------


def test_version_names_the_tool_and_the_releases_the_knowledge_covers():
    r = CliRunner().invoke(main, ["--version"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"vllm-lint {version('vllm-lint')}"
    full, history = knowledge.known_versions(), knowledge.history_versions()
    assert f"vLLM {full[0]} to {full[-1]}" in r.stdout and f"vLLM {history[0]} to {history[-1]}: option names only" in r.stdout
    from rules._lib.hybrid_facts import lmcache_releases

    lm = lmcache_releases()
    assert f"LMCache {lm[0].version} to {lm[-1].version}: every `lmcache server` option" in r.stdout


# -- rule codes on the command line --------------------------------------------------------


@pytest.mark.parametrize("args, bad", [
    (["--select", "VL999"], "VL999"),
    (["--ignore", "VL1O1"], "VL1O1"),  # letter O
    (["--extend-select", "VL101,VL8O3"], "VL8O3"),
    (["--select", "VL1", "--ignore", "F401"], "F401"),
])
def test_unknown_rule_codes_are_usage_errors(tmp_path, monkeypatch, args, bad):
    write(tmp_path, "serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, *args, "serve.sh")
    assert r.exit_code == 2
    assert f"`{bad}`" in r.stderr and "neither a rule code nor a prefix" in r.stderr


def test_known_codes_and_prefixes_still_select(tmp_path, monkeypatch):
    write(tmp_path, "serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--select", "vl1", "--ignore", "VL201", "--output-format", "json", "serve.sh")
    assert r.exit_code == 1 and codes(r) == ["VL101"]


# -- colour ---------------------------------------------------------------------------------


def _on_a_terminal(args, cwd, env) -> str:
    """Run the CLI with standard output on a pseudo-terminal; what it printed."""
    leader, follower = pty.openpty()
    p = subprocess.Popen([EXE, *args], cwd=cwd, env=env, stdout=follower, stderr=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm", **extra)
    return env


def test_colour_on_a_terminal_none_when_piped_and_both_variables_honoured(tmp_path):
    write(tmp_path, "serve.sh", SCRIPT)
    args = ["--no-cache", "--target-version", "0.33", "serve.sh"]
    tty = _on_a_terminal(args, tmp_path, _env())
    assert "\x1b[1m\x1b[31mVL101\x1b[0m" in tty  # the error code in red
    assert "\x1b[1m\x1b[33mVL201\x1b[0m" in tty  # the warning code in yellow
    assert "\x1b[36m[*]\x1b[0m" in tty  # the fix marker
    assert "\x1b[1m\x1b[31m^^^^" in tty  # the carets
    piped = subprocess.run([EXE, *args], cwd=tmp_path, env=_env(), capture_output=True, text=True)
    assert piped.returncode == 1 and "VL101" in piped.stdout and "\x1b[" not in piped.stdout
    forced = subprocess.run([EXE, *args], cwd=tmp_path, env=_env(FORCE_COLOR="1"), capture_output=True, text=True)
    assert "\x1b[1m\x1b[31mVL101\x1b[0m" in forced.stdout
    assert "\x1b[" not in _on_a_terminal(args, tmp_path, _env(NO_COLOR="1"))
    both = subprocess.run([EXE, *args], cwd=tmp_path, env=_env(FORCE_COLOR="1", NO_COLOR="1"), capture_output=True, text=True)
    assert "\x1b[" not in both.stdout  # NO_COLOR wins
    machine = subprocess.run([EXE, *args, "--output-format", "json"], cwd=tmp_path, env=_env(FORCE_COLOR="1"), capture_output=True, text=True)
    assert json.loads(machine.stdout) and "\x1b[" not in machine.stdout  # machine formats are never coloured


# -- severity: the summary and the exit code ------------------------------------------------------


def test_summary_counts_errors_warnings_and_notes_apart(tmp_path, monkeypatch):
    write(tmp_path, "d/serve.sh", SCRIPT)
    write(tmp_path, "d/note.sh", NOTE)
    write(tmp_path, "d/clean.sh", CLEAN)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "concise", "d")
    assert r.exit_code == 1
    assert "Found 1 error, 1 warning and 1 note in 2 files.\n" in r.stdout
    assert "Found 3 errors" not in r.stdout


def test_notes_do_not_fail_the_run_unless_selected(tmp_path, monkeypatch):
    write(tmp_path, "note.sh", NOTE)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "note.sh")
    assert r.exit_code == 0 and "Found 1 note in 1 file." in r.stdout
    for args in (["--select", "VL302"], ["--extend-select", "VL3"], ["--select", "VL1,VL30"]):
        assert run(tmp_path, monkeypatch, "--target-version", "0.33", *args, "note.sh").exit_code == 1, args
    assert run(tmp_path, monkeypatch, "--target-version", "0.33", "--select", "ALL", "note.sh").exit_code == 0
    write(tmp_path, "vllm-lint.toml", 'extend-select = ["VL302"]\n')
    assert run(tmp_path, monkeypatch, "--target-version", "0.33", "note.sh").exit_code == 1  # the configuration selects too


def test_exit_zero(tmp_path, monkeypatch):
    write(tmp_path, "serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--exit-zero", "serve.sh")
    assert r.exit_code == 0 and "Found 1 error, 1 warning in 1 file." not in r.stdout and "Found 1 error and 1 warning in 1 file." in r.stdout
    assert run(tmp_path, monkeypatch, "--target-version", "0.33", "--exit-zero", "--diff", "serve.sh").exit_code == 0
    assert run(tmp_path, monkeypatch, "--exit-zero", "--select", "VL999", "serve.sh").exit_code == 2  # usage errors stay 2


# -- configuration per file -------------------------------------------------------------------


def test_configuration_is_found_above_each_file(tmp_path, monkeypatch):
    write(tmp_path, "p/d/serve.sh", SCRIPT)
    write(tmp_path, "q/serve.sh", SCRIPT)
    write(tmp_path, "p/pyproject.toml", '[project]\nname = "p"\n\n[tool.vllm-lint]\nignore = ["VL101"]\n')
    write(tmp_path, "q/.vllm-lint.toml", 'ignore = ["VL201"]\n')
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "json", "p/d", "q")
    assert r.exit_code == 1
    got = sorted((d["filename"], d["code"]) for d in json.loads(r.stdout))
    assert got == [(os.path.join("p", "d", "serve.sh"), "VL201"), (os.path.join("q", "serve.sh"), "VL101")]


def test_extend_inherits_and_overrides(tmp_path, monkeypatch):
    write(tmp_path, "pyproject.toml", '[tool.vllm-lint]\ntarget-version = "0.29"\nignore = ["VL201"]\n')
    write(tmp_path, "sub/vllm-lint.toml", 'extend = "../pyproject.toml"\nignore = ["VL101"]\n')
    write(tmp_path, "sub/serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--output-format", "json", "sub")
    out = json.loads(r.stdout)
    assert [d["code"] for d in out] == ["VL201"]  # this file's ignore replaces the extended one
    assert out[0]["vllm_version"] == "0.29.0"  # target-version comes from the extended file
    write(tmp_path, "sub/vllm-lint.toml", 'extend = "../pyproject.toml"\n')
    r = run(tmp_path, monkeypatch, "--output-format", "json", "sub")
    assert codes(r) == ["VL101"]


def test_extend_cycle_and_missing_base_are_usage_errors(tmp_path, monkeypatch):
    write(tmp_path, "a/vllm-lint.toml", 'extend = "../b/vllm-lint.toml"\n')
    write(tmp_path, "b/vllm-lint.toml", 'extend = "../a/vllm-lint.toml"\n')
    write(tmp_path, "a/serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "a")
    assert r.exit_code == 2 and "`extend` makes a cycle" in r.stderr
    write(tmp_path, "b/vllm-lint.toml", 'extend = "nope.toml"\n')
    r = run(tmp_path, monkeypatch, "a")
    assert r.exit_code == 2 and "`extend` names 'nope.toml', which is not a file" in r.stderr


def test_nested_configuration_excludes_below_it(tmp_path, monkeypatch):
    write(tmp_path, "p/old/serve.sh", SCRIPT)
    write(tmp_path, "p/new/serve.sh", SCRIPT)
    write(tmp_path, "p/vllm-lint.toml", 'extend-exclude = ["old"]\n')
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "json", ".")
    assert {d["filename"] for d in json.loads(r.stdout)} == {os.path.join("p", "new", "serve.sh")}


def test_show_settings_says_where_each_value_comes_from(tmp_path, monkeypatch):
    base = write(tmp_path, "pyproject.toml", '[tool.vllm-lint]\ntarget-version = "0.29"\nignore = ["VL201"]\n')
    child = write(tmp_path, "sub/vllm-lint.toml", 'extend = "../pyproject.toml"\nselect = ["VL1"]\n')
    write(tmp_path, "sub/serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--show-settings", "sub/serve.sh")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert f"Configuration file: {child}" in lines and f"Extends: {base}" in lines
    assert f'target-version = "0.29"  # {base}' in lines
    assert f'select = ["VL1"]  # {child}' in lines
    assert f'ignore = ["VL201"]  # {base}' in lines
    assert "respect-gitignore = true  # default" in lines
    r = run(tmp_path, monkeypatch, "--show-settings", "sub/serve.sh", "--target-version", "0.31", "--ignore", "VL205")
    lines = r.stdout.splitlines()
    assert 'target-version = "0.31.0"  # command line' in lines
    assert f'ignore = ["VL201", "VL205"]  # {base} + command line' in lines


# -- paths --------------------------------------------------------------------------------------


def test_no_path_lints_the_working_folder(tmp_path, monkeypatch):
    write(tmp_path, "deploy/serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "concise")
    assert r.exit_code == 1
    assert r.stdout.startswith("deploy/serve.sh:3:3: VL101 ")


def test_paths_print_as_ruff_prints_them(tmp_path, monkeypatch):
    write(tmp_path, "serve.sh", SCRIPT)
    write(tmp_path, "d/run.sh", "vllm serve Qwen/Qwen3-8B --config ./serve-config.yaml\n")
    write(tmp_path, "d/serve-config.yaml", "max-num-seq: 8\n")
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "concise", ".")
    assert "./" not in r.stdout
    starts = {line.split(" ", 2)[0] + " " + line.split(" ", 2)[1] for line in r.stdout.splitlines() if line.count(":") >= 3}
    assert {"d/serve-config.yaml:1:1: VL201", "serve.sh:3:3: VL101", "serve.sh:4:3: VL201"} <= starts
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "concise", str(tmp_path / "serve.sh"))
    assert r.stdout.startswith("serve.sh:3:3: VL101 ")  # an absolute path inside the working folder prints relative
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--diff", ".")
    assert "--- a/serve.sh\n+++ b/serve.sh\n" in r.stdout
    assert "--- a/d/serve-config.yaml\n+++ b/d/serve-config.yaml\n" in r.stdout
    assert "a/./" not in r.stdout and "a/d/./" not in r.stdout


# -- statistics ----------------------------------------------------------------------------------


def test_statistics_name_the_rule_mark_the_fixable_and_speak_json(tmp_path, monkeypatch):
    write(tmp_path, "a.sh", SCRIPT)
    write(tmp_path, "b.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--statistics", ".")
    assert r.exit_code == 1
    assert r.stdout.splitlines() == ["    2\tVL101\t[ ] removed-option", "    2\tVL201\t[*] abbreviated-option"]
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--statistics", "--output-format", "json", ".")
    assert json.loads(r.stdout) == [
        {"code": "VL101", "name": "removed-option", "count": 2, "fixable": False},
        {"code": "VL201", "name": "abbreviated-option", "count": 2, "fixable": True},
    ]


# -- junit -----------------------------------------------------------------------------------------


def test_junit_has_a_test_case_per_finding(tmp_path, monkeypatch):
    write(tmp_path, "d/serve.sh", SCRIPT)
    write(tmp_path, "d/clean.sh", CLEAN)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "junit", "d")
    root = ET.fromstring(r.stdout.encode())
    cases = [(c.get("classname"), c.get("name"), len(c.findall("failure"))) for c in root.iter("testcase")]
    assert cases == [("d/clean.sh", "vllm-lint", 0), ("d/serve.sh", "VL101:3:3", 1), ("d/serve.sh", "VL201:4:3", 1)]
    assert root.get("tests") == "3" and root.get("failures") == "2"


# -- rule URLs -----------------------------------------------------------------------------------


def test_rule_urls_are_absolute_when_project_urls_say_where_the_docs_are(tmp_path, monkeypatch):
    from linter.reporters import common

    write(tmp_path, "serve.sh", SCRIPT)
    args = ("--target-version", "0.33", "--select", "VL101", "serve.sh")
    monkeypatch.setattr(common, "project_urls", lambda: {})
    assert json.loads(run(tmp_path, monkeypatch, *args, "--output-format", "json").stdout)[0]["url"] == "docs/rules.md#vl101"
    sarif = json.loads(run(tmp_path, monkeypatch, *args, "--output-format", "sarif").stdout)
    assert "helpUri" not in sarif["runs"][0]["tool"]["driver"]["rules"][0]
    monkeypatch.setattr(common, "project_urls", lambda: {"documentation": "https://docs.example.org/vllm-lint/"})
    assert json.loads(run(tmp_path, monkeypatch, *args, "--output-format", "json").stdout)[0]["url"] == "https://docs.example.org/vllm-lint/rules.md#vl101"
    sarif = json.loads(run(tmp_path, monkeypatch, *args, "--output-format", "sarif").stdout)
    assert sarif["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] == "https://docs.example.org/vllm-lint/rules.md#vl101"
    monkeypatch.setattr(common, "project_urls", lambda: {"repository": "https://github.com/example/vllm-lint"})
    assert json.loads(run(tmp_path, monkeypatch, *args, "--output-format", "json").stdout)[0]["url"] == "https://github.com/example/vllm-lint/blob/main/docs/rules.md#vl101"


# -- --target-version from the history -----------------------------------------------------------------


def test_target_version_accepts_every_release_the_history_knows(tmp_path, monkeypatch):
    write(tmp_path, "serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--target-version", "0.27", "--output-format", "concise", "serve.sh")
    assert r.exit_code == 1, r.output
    assert "Checked 1 launch: 1 against 0.27.0 (--target-version; option names only)." in r.stdout
    assert "VL101 `--swap-space` was removed after vLLM 0.17.1 (0.27.0 rejects it): delete it" in r.stdout
    for spelling in ("0.6.0", "v0.6.1.post1", "0.27.1"):
        assert run(tmp_path, monkeypatch, "--target-version", spelling, "serve.sh").exit_code in (0, 1), spelling
    r = run(tmp_path, monkeypatch, "--target-version", "0.5", "serve.sh")
    assert r.exit_code == 2 and "option names only: 0.6.0 to 0.27.1" in r.stderr
    write(tmp_path, "vllm-lint.toml", 'target-version = "0.20"\n')
    r = run(tmp_path, monkeypatch, "--output-format", "json", "serve.sh")
    assert {d["vllm_version"] for d in json.loads(r.stdout)} == {"0.20.0"}


# -- unknown kinds, --quiet ------------------------------------------------------------------------------


def test_a_named_file_of_unknown_kind_is_warned_about(tmp_path, monkeypatch):
    write(tmp_path, "deploy.yaml.in", "command: [vllm, serve, Qwen/Qwen3-8B, --swap-space, '4']\n")
    write(tmp_path, "serve.sh", CLEAN)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "deploy.yaml.in", "serve.sh")
    assert r.exit_code == 0
    assert "vllm-lint: warning: deploy.yaml.in: not linted: vllm-lint does not know this kind of file" in r.stderr
    assert "deploy.yaml.in" not in r.stdout
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", ".")  # found by the walk: not named, not warned about
    assert "warning" not in r.stderr


def test_quiet_prints_the_findings_only(tmp_path, monkeypatch):
    write(tmp_path, "serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "-q", "--output-format", "concise", "serve.sh")
    assert r.exit_code == 1
    assert [line.split(": ", 1)[0] for line in r.stdout.splitlines()] == ["serve.sh:3:3", "serve.sh:4:3"]
    write(tmp_path, "clean.sh", CLEAN)
    assert run(tmp_path, monkeypatch, "--target-version", "0.33", "--quiet", "clean.sh").stdout == ""
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "-q", "--fix", "serve.sh")
    assert "Fixed" not in r.stderr and "Found" not in r.stdout and "VL101" in r.stdout


# -- --watch -------------------------------------------------------------------------------------------------


def test_watch_lints_again_when_a_file_changes(tmp_path):
    serve = write(tmp_path, "serve.sh", CLEAN)
    p = subprocess.Popen([EXE, "--no-cache", "--watch", "--watch-interval", "0.1", "--watch-polls", "80", "--target-version", "0.33",
                          "--output-format", "concise", "."], cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = []
        while not any(line.startswith("All checks passed") for line in first):
            line = p.stdout.readline()
            assert line, "".join(first)
            first.append(line)
        time.sleep(0.05)
        serve.write_text(SCRIPT, encoding="utf-8")
        rest, _err = p.communicate(timeout=60)  # the loop ends by itself after its polls
    finally:
        if p.poll() is None:
            p.kill()
    assert first[0].startswith("[") and "Watching . for changes" in first[0]
    assert "File change detected; linting again." in rest
    assert "serve.sh:3:3: VL101 " in rest and "Found 1 error and 1 warning in 1 file." in rest
    assert p.returncode == 1  # the last run's exit code


def test_watch_cannot_watch_standard_input(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "--watch", "-", "--stdin-filename", "serve.sh")
    assert r.exit_code == 2 and "cannot watch standard input" in r.stderr


def test_watch_polls_stat_signatures(tmp_path):
    from linter.watch import watch

    f = write(tmp_path, "a.sh", CLEAN)
    runs = []
    edits = iter([None, lambda: f.write_text(SCRIPT), None, lambda: (tmp_path / "b.sh").write_text(CLEAN), None])

    def sleep(_s):
        step = next(edits, None)
        if step:
            step()

    code = watch(lambda: runs.append(1) or len(runs), lambda: sorted(str(p) for p in tmp_path.glob("*.sh")), interval=0, polls=5, sleep=sleep)
    assert code == 3 and len(runs) == 3  # the first run, then one per change (an edit, a new file)


# -- files that mention vLLM but hold no launch (issue 12, item 10) ---------------------------------------------


MENTION = "# Serving\n\nWe serve the model with vLLM behind the gateway; see deploy/.\n"


def test_files_that_mention_vllm_without_a_launch_are_said(tmp_path, monkeypatch):
    write(tmp_path, "docs/serving.md", MENTION)
    write(tmp_path, "deploy/serve.sh", CLEAN)
    write(tmp_path, "deploy/other.sh", "#!/bin/sh\necho nothing to see\n")
    write(tmp_path, "requirements.txt", "vllm==0.33.0\n")  # a pin, not a place a server starts
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", ".")
    assert r.exit_code == 0
    assert "All checks passed" not in r.stdout
    assert "no vLLM launch found in 1 file that mentions vLLM (`--show-launches` lists them)" in r.stdout
    r = run(tmp_path, monkeypatch, "--show-launches", "--output-format", "full", ".")
    assert "docs/serving.md: no vLLM launch found (the file mentions vLLM)" in r.stdout
    assert "1 launch. No vLLM launch found in 1 file that mentions vLLM." in r.stdout
    r = run(tmp_path, monkeypatch, "--show-launches", "--output-format", "json", ".")
    assert [row["file"] for row in json.loads(r.stdout)] == ["deploy/serve.sh"]  # the rows stay launches
    assert "no vLLM launch found in 1 file that mentions vLLM: docs/serving.md" in r.stderr
    write(tmp_path, "deploy/serve.sh", SCRIPT)
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "concise", ".")
    # (VL101's deletion of --swap-space is an unsafe fix: the hint for it stands between)
    assert r.stdout.endswith("Found 1 error and 1 warning in 1 file.\n[*] 1 fixable with the `--fix` option.\n"
                              "1 hidden fix can be enabled with the `--unsafe-fixes` option.\n"
                              "No vLLM launch found in 1 file that mentions vLLM (`--show-launches` lists them).\n")
    (tmp_path / "docs" / "serving.md").unlink()
    write(tmp_path, "deploy/serve.sh", CLEAN)
    assert "All checks passed (1 launch in 3 files)." in run(tmp_path, monkeypatch, "--target-version", "0.33", ".").stdout


def test_the_cache_keeps_the_files_without_a_launch(tmp_path, monkeypatch):
    write(tmp_path, "docs/serving.md", MENTION)
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # cold, then served from the cache
        r = CliRunner().invoke(main, ["--target-version", "0.33", "."], catch_exceptions=False)
        assert "no vLLM launch found in 1 file that mentions vLLM" in r.stdout


def test_a_config_file_named_from_another_configurations_folder_is_linted_and_fixed_once(tmp_path, monkeypatch):
    write(tmp_path, "a/vllm-lint.toml", 'ignore = ["VL205"]\n')
    write(tmp_path, "b/vllm-lint.toml", 'ignore = ["VL207"]\n')
    write(tmp_path, "a/run.sh", "vllm serve Qwen/Qwen3-8B --config ../b/cfg.yaml\n")
    cfg = write(tmp_path, "b/cfg.yaml", "max-num-seq: 8\nmax-model-len: 4096\n")
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--output-format", "json", "a", "b")
    assert [(d["filename"], d["code"]) for d in json.loads(r.stdout)] == [(os.path.join("b", "cfg.yaml"), "VL201")]
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--diff", "--show-fixes", "a", "b")
    assert r.stdout.startswith("--- a/b/cfg.yaml\n+++ b/b/cfg.yaml\n") and r.stdout.count("--- a/") == 1
    assert "- b/cfg.yaml:\n" in r.stderr
    r = run(tmp_path, monkeypatch, "--target-version", "0.33", "--fix", "a", "b")
    assert r.exit_code == 0, r.output
    assert cfg.read_text() == "max-num-seqs: 8\nmax-model-len: 4096\n"


@pytest.mark.parametrize("given, shown", [
    ("./x", "x"), ("a/./x", "a/x"), (".", "."), ("./", "."), ("a//b", "a/b"), ("/a/./b", "/a/b"),
    ("../x", "../x"), ("a/../b", "a/../b"), ("./.env", ".env"), (".hidden/x", ".hidden/x"),
])
def test_tidy_path_drops_only_dot_components(given, shown):
    from linter.discovery import tidy_path

    assert tidy_path(given) == shown  # `..` stays: through a symbolic link `a/..` is not where `a` is


def test_resolver_reads_each_folder_and_file_once(tmp_path, monkeypatch):
    from linter import config

    write(tmp_path, "p/vllm-lint.toml", 'ignore = ["VL205"]\n')
    for name in ("p/a/x.sh", "p/a/y.sh", "p/b/c/z.sh", "q/w.sh"):
        write(tmp_path, name, CLEAN)
    loads = []
    real_load = config.load
    monkeypatch.setattr(config, "load", lambda path, *a: loads.append(path) or real_load(path, *a))
    r = config.Resolver()
    s1, s2, s3 = (r.settings_for(str(tmp_path / n)) for n in ("p/a/x.sh", "p/a/y.sh", "p/b/c/z.sh"))
    assert s1 is s2 is s3 and s1.ignore == frozenset({"VL205"})
    assert r.config_for(str(tmp_path / "q/w.sh")).path != str(tmp_path / "p" / "vllm-lint.toml")
    assert loads == [str(tmp_path / "p" / "vllm-lint.toml")]
