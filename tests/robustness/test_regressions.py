"""Regression tests for the crashes and blow-ups found by the robustness work, each at its root."""

from __future__ import annotations

import sys
import time

from linter.discovery import might_launch
from linter.source_file import SourceFile
from linter.sources import python, shell
from linter.sources.yaml_nodes import compose_documents


def test_many_broken_yaml_documents_are_linear_and_capped() -> None:
    text = "---\na: [\nvllm\n" * 20_000 + "---\nok: 1\n"
    start = time.monotonic()
    docs, problems = compose_documents(text)
    assert time.monotonic() - start < 10  # was quadratic: 3000 documents took 68 s
    assert len(problems) == 102 and "more than 100 broken documents" in problems[-1].message  # the first and 100 re-reads
    # the positions are file positions, not positions in the re-read rest
    first = problems[0].span.start
    assert text[first:first + 3] == "---"


def test_yaml_documents_after_a_broken_one_keep_file_offsets() -> None:
    text = "a: [\n---\nb: {c: 1}\n---\nd: 'x\n---\ne: vllm\n"
    docs, problems = compose_documents(text)
    assert len(problems) == 2
    for doc in docs:
        key = doc.value[0][0]
        assert text[key.start_mark.index:key.end_mark.index] == key.value


def test_shell_nested_substitutions_are_bounded() -> None:
    src = SourceFile.from_text("s.sh", "vllm serve " + "$(" * 100_000 + "x" + ")" * 100_000 + "\n")
    start = time.monotonic()
    out = shell.extract(src)
    assert time.monotonic() - start < 20  # was quadratic: 10k levels took over 2 minutes and 2.6 GB
    assert any("nested too deeply" in p.message for p in out.problems)


def test_shell_work_budget() -> None:
    # 64 levels (under the depth limit), each holding a megabyte: the budget stops it
    src = SourceFile.from_text("s.sh", "vllm serve " + "$(echo " * 64 + "x" * 300_000 + ")" * 64 + "\n")
    out = shell.extract(src)
    assert any("work budget" in p.message for p in out.problems)


def test_python_nesting_never_reaches_libcst() -> None:
    # each of these crashed the process (libcst's native parser overflows the C stack) or took minutes
    for body in ("(" * 5000 + "1" + ")" * 5000, "not " * 20_000 + "1", "-" * 20_000 + "1", "1 if 1 else " * 20_000 + "1"):
        out = python.extract(SourceFile.from_text("r.py", f"from vllm import LLM\nx = {body}\nLLM(model='m')\n"))
        assert [p.message for p in out.problems if "nested too deeply" in p.message], body[:20]


def test_python_newer_syntax_is_reported_by_the_running_python() -> None:
    # ``type X = ...`` is newer than Python 3.11: CPython's parser (the only one the extractor
    # uses now) reports it where it stands; from 3.12 on the nesting below is what it refuses
    text = "from vllm import LLM\ntype X = int\nx = " + "not " * 5000 + "1\nLLM(model='m')\n"
    out = python.extract(SourceFile.from_text("r.py", text))
    assert out.launches == []
    [problem] = out.problems
    if sys.version_info < (3, 12):
        assert problem.message.startswith("Python syntax error:") and f"Python {sys.version_info[0]}.{sys.version_info[1]}" in problem.message
        assert text[problem.span.start:].startswith("X = int")
    else:
        assert "nested too deeply" in problem.message


def test_python_shallow_file_still_read() -> None:
    out = python.extract(SourceFile.from_text("r.py", "from vllm import LLM\nx = " + "(" * 50 + "1" + ")" * 50 + "\nLLM(model='m', swap_space=4)\n"))
    assert out.launches and not out.problems


def test_utf16_files_pass_the_prefilter() -> None:
    for enc in ("utf-16-le", "utf-16-be", "utf-32-le"):
        assert might_launch(("\ufeff" + "vllm serve m\n").encode(enc))
        assert might_launch("VLLM serve m\n".encode(enc))  # without a BOM: then reported as not text
    assert not might_launch("nothing here\n".encode("utf-16-le"))


def test_markdown_many_blocks_are_linear_and_capped() -> None:
    from linter.sources import markdown

    text = "```sh\nvllm serve m --swap-space 1\n```\n" * 3000
    start = time.monotonic()
    out = markdown.extract(SourceFile.from_text("README.md", text))
    assert time.monotonic() - start < 20  # each block masked and parsed the whole file: 50k blocks took over 5 minutes
    assert len(out.launches) == 500
    assert any("more than 500 code blocks" in p.message for p in out.problems)
    # positions are file positions
    for launch in out.launches[:3] + out.launches[-3:]:
        tok = launch.args[-1]
        assert text[tok.value_start:tok.value_start + len(tok.value)] == tok.value
