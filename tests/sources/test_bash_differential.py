"""Differential test of the shell reader against bash: ``bash -n`` is the judge of what is valid.

Every script of :data:`tests.sources.shell_constructs.VALID` is valid bash (checked here with
``bash -n`` when bash is installed): it must give no parse error, and the launch beside it must be
read whole, each word where it stands.  Every script of ``REJECTED`` is invalid bash: a parse
error is reported only where a launch was lost or where the script really breaks, and it points at
the place marked ``@B@`` (the unclosed quote, the ``if`` never closed), never at 1:1 or the end.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from linter.source_file import SourceFile
from linter.sources import shell
from tests.sources.shell_constructs import REJECTED, VALID
from tests.sources.token_checks import assert_read_cleanly, check_launch

LAUNCH = "vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000"
WANT = ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]
BASH = shutil.which("bash")


def _script(body: str) -> str:
    if "@L@" in body:
        return body.replace("@L@", LAUNCH)
    return body if "vllm serve" in body else body + LAUNCH + "\n"


def _bash_accepts(text: str) -> bool | None:
    if BASH is None:
        return None
    done = subprocess.run([BASH, "-O", "extglob", "-n"], input=text.encode(), capture_output=True, timeout=30)
    return done.returncode == 0


def _read(text: str):
    src = SourceFile.from_text("serve.sh", text)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    return src, ex


def _the_launch(ex):
    return [l for l in ex.launches if [t.value for t in l.args[:5]] == WANT]


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_bash_is_read_without_parse_error(name: str) -> None:
    text = _script(VALID[name])
    assert _bash_accepts(text) is not False, f"{name}: not valid bash, fix the case"
    launch = assert_read_cleanly("serve.sh", text, shell.extract, WANT)
    eight = launch.args[2]
    assert eight.value_start is not None and text[eight.value_start : eight.value_start + 4] == "8192"


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_bash_is_reported_where_it_breaks(name: str) -> None:
    body = REJECTED[name].replace("@L@", LAUNCH)
    at = body.find("@B@")
    text = body.replace("@B@", "")
    assert _bash_accepts(text) is not True, f"{name}: bash accepts it, move it to VALID"
    src, ex = _read(text)
    starts = [p.span.start for p in ex.problems]
    if not _the_launch(ex):
        assert starts, "a launch was lost without a parse error"
    assert all(s == at for s in starts), [(p.span.start, p.message) for p in ex.problems]
    for p in ex.problems:
        assert "xxx" not in p.message


def test_the_corpus_is_large_and_judged() -> None:
    # the harness means something only with many constructs on both sides
    assert len(VALID) >= 150 and len(REJECTED) >= 20
    if BASH is not None:
        assert all(_bash_accepts(_script(v)) for v in list(VALID.values())[:5])
