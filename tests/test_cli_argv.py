"""The command line read without click (:func:`linter.cli._read_argv`, :func:`linter.cli.run`).

Wherever the reading answers, click's command gives the same parameters; wherever click
refuses a command line, the reading leaves it to click.  A run started as a process prints,
exits and fails as the click command does, usage errors included, and imports no click
unless it shows one.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from linter import cli
from tests.rules.lint_helpers import have, k8s

ROOT = Path(__file__).resolve().parent.parent


def click_params(argv: list[str]):
    """What the click command's parsing gives for ``argv``: its parameters, or None when it
    refuses it (a usage error), or "exit" (``-h``, ``--version``)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()  # (-h and --version print)
    try:
        return cli.command().make_context("vllm-lint", list(argv)).params
    except click.UsageError:
        return None
    except click.exceptions.Exit:
        return "exit"
    finally:
        sys.stdout, sys.stderr = out, err


COMMON = [
    [],
    ["."],
    ["deploy/", "scripts/serve.sh"],
    ["--output-format", "concise", "."],
    ["--output-format=sarif", "deploy"],
    ["--fix", "--target-version", "0.32", "deploy/"],
    ["--fix", "--unsafe-fixes", "--target-version=0.32", "deploy/"],
    ["--diff", "--target-version", "0.32", "deploy/"],
    ["--select", "VL2", "--select", "VL301,VL302", "--ignore", "VL101", "."],
    ["--extend-select", "VL9", "--exit-zero", "-q", "."],
    ["--no-cache", "--statistics", "--output-format", "json", "."],
    ["--config", "ci/vllm-lint.toml", "--force-exclude", "--no-respect-gitignore", "a.yaml", "b.sh"],
    ["-", "--stdin-filename", "deploy/serve.sh"],
    ["--fix", "--exit-non-zero-on-fix", "--show-fixes", "deploy/x.yaml"],  # pre-commit's hook
    ["--show-launches", "--output-format", "json", "."],
    ["--model-config", "Qwen/Qwen3-8B=cfg/config.json", "--model-config", "cfg2.json", "."],
    ["--watch", "deploy"],
    [".", "--output-format", "github", "deploy"],  # paths between options
    ["--", "--odd-name.sh", "-"],
    ["--select="],
    ["--list-rules"],
    ["--list-options", "--target-version", "0.31"],
    ["--explain", "VL301"],
    ["--show-settings", "deploy/serve.sh"],
    ["--changes-format", "markdown", "."],
    ["--target-version", "0.32", "--target-version", "0.31", "."],  # the last one wins, as click's
    ["serve\udcff.sh", "--config=ci\udcff.toml"],  # names that are not UTF-8 (as Python decodes argv)
    ["--select", "VL1", "a=b.yaml"],
]

LEFT_TO_CLICK = [
    ["-h"],
    ["--help"],
    ["--version"],
    ["server"],
    ["server", "--stdio"],
    ["--changes", "0.30", "0.32", "."],
    ["--watch-interval", "1", "--watch"],
    ["--watch-polls=2", "--watch"],
    ["-qq", "."],
    ["-q=1"],
    ["--fix=1", "."],
    ["--bogus", "."],
    ["--outputformat", "json"],
    ["--output-format", "nope", "."],
    ["--output-format"],
    ["--select"],
    ["--select", "-x"],  # click takes -x as the value; left to it rather than guessed
    ["--target-version", "--fix"],
    ["---fix"],
]


@pytest.mark.parametrize("argv", COMMON, ids=" ".join)
def test_the_common_command_lines_are_read_as_click_reads_them(argv):
    fast = cli._read_argv(argv)
    assert fast is not None
    assert fast == click_params(argv)


@pytest.mark.parametrize("argv", LEFT_TO_CLICK, ids=" ".join)
def test_what_is_not_a_plain_command_line_is_left_to_click(argv):
    assert cli._read_argv(argv) is None


def test_shell_completion_and_windows_are_left_to_click(monkeypatch):
    monkeypatch.setenv("_VLLM_LINT_COMPLETE", "bash_source")
    assert cli._read_argv(["."]) is None
    monkeypatch.delenv("_VLLM_LINT_COMPLETE")
    assert cli._read_argv(["."]) is not None
    monkeypatch.setattr(cli.os, "name", "nt")
    assert cli._read_argv(["."]) is None


def _random_argv(rng: random.Random) -> list[str]:
    names = [name for opt in cli.OPTIONS for name in opt.decls if name[:1] == "-"] + ["--version", "-h", "--nope", "-x", "-qh"]
    values = ["", "0.32", "v0.31.0", "VL2", "full", "json", "text", "markdown", "nope", "-", "--fix", "-q", "a=b", "x y", "pfad/ä.sh", "--", "1"]
    paths = [".", "-", "--", "deploy/", "serve.sh", "a=b.yaml", "ä.yaml", "-odd.sh"]
    argv: list[str] = []
    for _ in range(rng.randint(0, 7)):
        roll = rng.random()
        if roll < 0.3:
            argv.append(rng.choice(paths))
        elif roll < 0.55:
            argv.append(rng.choice(names))
        elif roll < 0.8:
            argv += [rng.choice(names), rng.choice(values)]
        else:
            argv.append(f"{rng.choice(names)}={rng.choice(values)}")
    return argv


def test_wherever_the_reading_answers_click_answers_the_same():
    rng = random.Random(18)
    answered = refused = 0
    for _ in range(4000):
        argv = _random_argv(rng)
        fast = cli._read_argv(argv)
        clicks = click_params(argv)
        if clicks is None or clicks == "exit":
            assert fast is None, argv  # click refuses it, or prints help or the version
            refused += 1
        elif fast is not None:
            assert fast == clicks, argv
            answered += 1
    assert answered > 600 and refused > 600, (answered, refused)  # both sides met, many times


def test_each_option_is_named_as_click_names_its_parameter():
    params = {p.name for p in cli.command().params if p.expose_value}
    assert params == {"paths"} | {opt.dest for opt in cli.OPTIONS}


@pytest.mark.parametrize("color", [None, True, False])
@pytest.mark.parametrize("text", ["", "plain text", "ünïcödé ✓", "\x1b[31mred\x1b[0m line", "a\nb\n"])
@pytest.mark.parametrize("encoding", ["utf-8", "ascii", None])
@pytest.mark.parametrize("nl", [True, False])
def test_echo_writes_what_click_echo_writes(monkeypatch, color, text, encoding, nl):
    def stream():
        if encoding is None:
            return io.StringIO()
        return io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors="backslashreplace", write_through=True)

    def written(s) -> bytes | str:
        return s.getvalue() if isinstance(s, io.StringIO) else s.buffer.getvalue()

    ours, theirs = stream(), stream()
    monkeypatch.setattr(sys, "stdout", ours)
    cli._echo(text, nl=nl, color=color)
    monkeypatch.setattr(sys, "stdout", theirs)
    click.echo(text, nl=nl, color=color)
    assert written(ours) == written(theirs)


# ---------------------------------------------------------------------------
# as a process: the same output, exit code and files as the click command's

SCRIPT = """#!/usr/bin/env bash
exec vllm serve Qwen/Qwen3-8B \\
  --swap-space 16 \\
  --enable-mamba-fine-grained-prefix-cache \\
  --max-model-len 32768
"""
MANIFEST = k8s("--model", "Qwen/Qwen3-8B", "--mamba-cache-mode", "all", "--disable-log-requests")

FAST = "import sys; sys.argv[0] = 'vllm-lint'; from linter.cli import run; run()"
CLICK = "import sys; sys.argv[0] = 'vllm-lint'; from linter.cli import command; command().main()"
PROBE = ("import atexit, sys; atexit.register(lambda: sys.stderr.write('click imported: %s' % ('click' in sys.modules)));"
         " sys.argv[0] = 'vllm-lint'; from linter.cli import run; run()")


def _tree(where: Path) -> Path:
    (where / "deploy").mkdir(parents=True)
    (where / "deploy" / "serve.sh").write_text(SCRIPT)
    (where / "deploy" / "vllm.yaml").write_text(MANIFEST)
    return where


def _process(code: str, cwd: Path, *argv: str, stdin: str | None = None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "VLLM_LINT_CACHE_DIR": str(cwd / ".cache")}
    return subprocess.run([sys.executable, "-c", code, *argv], cwd=cwd, env=env, capture_output=True, text=True, input=stdin, timeout=120)


RUNS = [
    ("deploy",),
    ("--output-format", "concise", "deploy"),
    ("--output-format", "json", "--target-version", "0.32", "deploy"),
    ("--statistics", "--select", "VL2", "deploy"),
    ("--diff", "--target-version", "0.32", "deploy"),
    ("--fix", "--target-version", "0.32", "--show-fixes", "deploy"),
    ("--fix", "--unsafe-fixes", "--target-version", "0.32", "-q", "deploy"),
    ("-", "--stdin-filename", "deploy/serve.sh"),
    ("--exit-zero", "-q", "deploy/serve.sh", "deploy/missing.sh"),
    ("--select", "NOPE", "deploy"),  # usage errors: raised by the run, shown as click shows them
    ("--target-version", "9.9", "deploy"),
    ("--config", "missing.toml", "deploy"),
    ("-",),
    ("--explain", "vl301"),
    ("--list-rules",),
]


@pytest.mark.skipif(not have("0.30.0", "0.32.0"), reason="inventories not generated")
@pytest.mark.parametrize("argv", RUNS, ids=" ".join)
def test_a_run_read_without_click_prints_exits_and_fixes_as_the_click_command(tmp_path, argv):
    assert cli._read_argv(list(argv)) is not None
    outcomes = []
    for code in (FAST, CLICK):
        where = _tree(tmp_path / ("fast" if code is FAST else "click"))
        p = _process(code, where, *argv, stdin=SCRIPT if "-" in argv else None)
        files = {str(f.relative_to(where)): f.read_bytes() for f in sorted((where / "deploy").iterdir())}
        outcomes.append((p.returncode, p.stdout, p.stderr, files))
        shutil.rmtree(where / ".cache", ignore_errors=True)
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] in (0, 1, 2)


@pytest.mark.skipif(not have("0.30.0", "0.32.0"), reason="inventories not generated")
def test_a_plain_run_imports_no_click_and_a_usage_error_imports_it_to_show_itself(tmp_path):
    where = _tree(tmp_path)
    p = _process(PROBE, where, "--output-format", "json", "deploy")
    assert p.returncode == 1 and json.loads(p.stdout)
    assert p.stderr.endswith("click imported: False")
    p = _process(PROBE, where, "--select", "NOPE", "deploy")
    assert p.returncode == 2 and p.stderr.startswith("Usage: vllm-lint [OPTIONS] [PATHS]...\n")
    assert p.stderr.endswith("click imported: True")
    p = _process(PROBE, where, "--version")  # left to click
    assert p.returncode == 0 and p.stdout.startswith("vllm-lint ")
