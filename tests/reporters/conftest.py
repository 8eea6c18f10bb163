"""One set of diagnostics every reporter is tested on.

Built directly from Diagnostic/FileResult objects (the option inventories the
rules need are generated separately): a renamed option with a safe fix on a
line with non-ASCII text before it (CJK and an emoji outside the BMP, so
characters, UTF-16 code units and UTF-8 bytes all differ), a multi-line range,
a display-only fix, a zero-width insertion, a message with characters the
formats must escape, a file that could not be read (no source), and a clean
file.
"""

from __future__ import annotations

import os

import pytest

from linter.diagnostic import Diagnostic, Edit, Fix, Severity
from linter.engine import FileResult
from linter.launch import Span
from linter.source_file import SourceFile

SCRIPT = (
    "#!/bin/sh\n"
    "# モデル 😀 serve\n"
    "echo 'モデル 😀'; vllm serve m --max-num-seq 8 \\\n"
    "  --swap-space 4\n"
)
CLEAN = "#!/bin/sh\nvllm serve m --max-num-seqs 8\n"


def span_of(text: str, needle: str, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Span(start, start + len(needle))


def make_results(script: str = SCRIPT, base: str = "deploy") -> list[FileResult]:
    path = os.path.join(base, "serve.sh")
    src = SourceFile.from_text(path, script)
    renamed = span_of(script, "--max-num-seq ")
    renamed = Span(renamed.start, renamed.end - 1)
    multi = Span(script.index("--max-num-seq"), script.index("--swap-space") + len("--swap-space 4"))
    swap = span_of(script, "--swap-space 4")
    insert_at = script.index(" --max-num-seq")
    diags = [
        Diagnostic("VL102", "`--max-num-seq` was renamed to `--max-num-seqs`", path, renamed, Severity.ERROR,
                   Fix("Rename to `--max-num-seqs`", (Edit(renamed, "--max-num-seqs"),), "safe"), vllm_version="0.32.0"),
        Diagnostic("VL205", "option spans lines: 100% of 2, a:b, c\r\nd", path, multi, Severity.WARNING, vllm_version="0.32.0",
                   related=[(path, renamed), (os.path.join(base, "other.yaml"), Span(3, 9))]),
        Diagnostic("VL101", "`--swap-space` was removed in vLLM 0.31 (モデル)", path, swap, Severity.ERROR,
                   Fix("Remove `--swap-space 4`", (Edit(Span(swap.start - 5, swap.end), ""),), "display-only"), vllm_version="0.32.0"),
        Diagnostic("VL302", "an insertion point", path, Span(insert_at, insert_at), Severity.INFO,
                   Fix("Insert a flag", (Edit(Span(insert_at, insert_at), " --enforce-eager"),), "unsafe"), vllm_version="0.32.0"),
    ]
    diags.sort(key=lambda d: (d.span.start, d.code))
    bad = os.path.join(base, "broken.yaml")
    return [
        FileResult(os.path.join(base, "clean.sh"), [], src=SourceFile.from_text(os.path.join(base, "clean.sh"), CLEAN)),
        FileResult(path, diags, src=src),
        FileResult(bad, [Diagnostic("VL003", "cannot read: permission denied", bad, Span(0, 0), Severity.ERROR)]),
    ]


@pytest.fixture
def results() -> list[FileResult]:
    return make_results()


@pytest.fixture
def clean() -> list[FileResult]:
    return [FileResult("deploy/clean.sh", [], src=SourceFile.from_text("deploy/clean.sh", CLEAN))]
