"""vllm== pins in requirements and constraints files."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.discovery import classify
from linter.source_file import SourceFile
from linter.sources import requirements

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "tree"

TEXT = """\
# Serving stack
--extra-index-url https://download.pytorch.org/whl/cu121
-r base.txt
numpy>=1.26
torch==2.5.1 ; sys_platform == "linux"
vllm==0.30.0  # keep in step with the image
VLLM[audio] == 0.10.1.1 ; python_version >= "3.10"
vllm>=0.9.0
vllm~=0.9
vllm==0.8.*
vllm>=0.8,<0.9
vllm==v0.7.0 --hash=sha256:0123abcd
vllm @ https://github.com/vllm-project/vllm/releases/download/v0.6.0/vllm-0.6.0-cp38-abi3-manylinux1_x86_64.whl
vllm-flash-attn==2.6.2
lmcache==0.3.0
vllm \\
    ==0.5.5
"""


def test_pins_only() -> None:
    src = SourceFile.from_text("requirements.txt", TEXT)
    ex = requirements.extract(src)
    assert ex.launches == [] and ex.problems == []
    assert [(p.version, p.origin, p.editable) for p in ex.pins] == [
        ("0.30.0", "requirements", True),
        ("0.10.1.1", "requirements", True),
        ("v0.7.0", "requirements", True),
        ("0.5.5", "requirements", True),
    ]
    for pin in ex.pins:
        assert src.text[pin.span.start : pin.span.end] == pin.version
    # the span points at the right line
    assert src.line_col(ex.pins[0].span.start) == (6, 7)
    assert src.line_col(ex.pins[-1].span.start) == (17, 7)


def test_crlf_and_empty() -> None:
    src = SourceFile.from_text("constraints.txt", "torch==2.1\r\nvllm===0.9.2\r\n")
    [pin] = requirements.extract(src).pins
    assert pin.version == "0.9.2"
    assert src.text[pin.span.start : pin.span.end] == "0.9.2"
    assert requirements.extract(SourceFile.from_text("requirements.txt", "")).pins == []


def test_garbage_does_not_crash() -> None:
    src = SourceFile.from_text("requirements.txt", "vllm===\n==\n[[[\nvllm[==1\n\\\n")
    assert requirements.extract(src).pins == []


@pytest.mark.skipif(not CORPUS.exists(), reason="corpus not present")
def test_corpus_requirements_files() -> None:
    files = [p for p in CORPUS.rglob("*") if p.is_file() and classify(p.name.split("__")[-1]) == "requirements"]
    for path in files:
        src = SourceFile.from_bytes(str(path), path.read_bytes())
        for pin in requirements.extract(src).pins:
            assert src.text[pin.span.start : pin.span.end] == pin.version
