"""Fuzz every source kind: generated and mutated files must never crash the engine.

Seeds: the shipped examples/, small hand-written files of every kind, and the
real-world corpus in ../shared/corpus/tree when present.  Mutations: byte flips,
truncation, and inserted NULs, CRs, tabs, ``{{``, quotes, ``$(``, ``---``.
For every mutated file: no exception from :func:`linter.engine.lint_file`, no
extractor failure hidden as a VL001, every diagnostic and fix span inside the
text, every editable token's value standing verbatim in the file.

The normal run is short (a few seconds).  Maintainers run a long one with
``VLLM_LINT_FUZZ_EXAMPLES=5000 .venv/bin/python -m pytest tests/robustness/test_fuzz.py``
(examples per source kind).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.engine import Settings, lint_file
from linter.source_file import DecodeError, SourceFile
from rules._lib.base import all_rules

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / ".." / "shared" / "corpus" / "tree"
EXAMPLES = int(os.environ.get("VLLM_LINT_FUZZ_EXAMPLES", "15"))

# kind -> (a path of that kind, hand-written seeds)
KINDS: dict[str, tuple[str, list[str]]] = {
    "shell": ("serve.sh", [
        '#!/bin/bash\nexport VLLM_USE_V1=1\nvllm serve "$MODEL" \\\n  --max-num-seq 8 --swap-space 16 --config c.yaml\n',
        "python -m vllm.entrypoints.openai.api_server --model m --mamba-cache-mode all <<EOF\nx\nEOF\nsh -c 'vllm serve m --enable-chunked'\n",
        'docker run vllm/vllm-openai:v0.30.0 --max-model-len 32768 "$(echo x)" ${A:-b}\n',
    ]),
    "dockerfile": ("Dockerfile", [
        'FROM vllm/vllm-openai:v0.29.0\nENV VLLM_LOGGING_LEVEL=DEBUG\nCMD ["m", "--enable-mamba", "--swap-space", "16"]\n',
        "FROM python:3.12\nRUN pip install vllm==0.30.0 && \\\n    vllm serve m --max-num-seq 8\nENTRYPOINT vllm serve m --model x\n",
    ]),
    "yaml": ("deploy.yaml", [
        'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - image: vllm/vllm-openai:v0.30.0\n      args: ["--max-num-seq", "8", "--max-model-len 32768"]\n      env: [{name: VLLM_USE_V1, value: "1"}]\n',
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.29.0\n    command: >-\n      --model Qwen/Qwen3-8B\n      --disable-log-requests\n",
        "jobs:\n  serve:\n    runs-on: x\n    steps:\n      - run: |\n          vllm serve m --swap-space 4\non: push\n",
        "a: &a [x, y]\nb: [*a, *a]\nvllmConfig:\n  extraArgs: [--max-num-seq, '8']\n  enable_prefix_caching: false\n",
    ]),
    "helm-template": ("chart/templates/deploy.yaml", [
        "spec:\n  containers:\n    - image: {{ .Values.image }}\n      args:\n        {{- range .Values.args }}\n        - {{ . | quote }}\n        {{- end }}\n        - --max-num-seq\n        - \"8\"\n",
    ]),
    "python": ("run.py", [
        "from vllm import LLM\nllm = LLM(model='m', swap_space=4, mamba_cache_mode='all')\n",
        "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--max-num-seq', '8'])\nimport os\nos.system('vllm serve m --swap-space 4')\n",
    ]),
    "markdown": ("README.md", [
        "# Serve\n\n```bash\nvllm serve m --max-num-seq 8\n```\n\n```yaml\nargs: [--swap-space, '4']\n```\n",
    ]),
    "requirements": ("requirements.txt", ["vllm==0.30.0\nlmcache>=0.3\n-r other.txt\n"]),
    "vllm-config": ("serve-config.yaml", ["max-num-seqs: 64\nenable_prefix_caching: false\nmax_num_batched_tokens: 8192\n"]),
}

INSERTS = [b"\x00", b"\r", b"\r\n", b"\t", b"{{", b"}}", b'"', b"'", b"$(", b")", b"\\", b"\n---\n", b"\xff", b"\xc3", b"#", b"&a ", b"*a", b" --", b"\n"]
HIDDEN_CRASH = ("extraction failed", "scan failed", "not parsed:")


def _kind_of(path: Path) -> str | None:
    from linter.discovery import classify

    return classify(str(path), path.read_bytes()[:256])


def _seeds() -> dict[str, list[bytes]]:
    out = {kind: [s.encode() for s in seeds] for kind, (_p, seeds) in KINDS.items()}
    files = [p for p in sorted((REPO / "examples").rglob("*")) if p.is_file()]
    if CORPUS.exists():
        files += [p for p in sorted(CORPUS.rglob("*")) if p.is_file()][:200]
    for p in files:
        kind = _kind_of(p)
        if kind in out and p.stat().st_size < 200_000:
            out[kind].append(p.read_bytes())
    return out


SEEDS = _seeds()
RULES = all_rules()

mutation = st.one_of(
    st.tuples(st.just("flip"), st.floats(0, 1), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.floats(0, 1), st.just(0)),
    st.tuples(st.just("insert"), st.floats(0, 1), st.integers(0, len(INSERTS) - 1)),
    st.tuples(st.just("delete"), st.floats(0, 1), st.integers(1, 16)),
)


def mutate(data: bytes, ops: list[tuple[str, float, int]]) -> bytes:
    buf = bytearray(data)
    for op, where, arg in ops:
        i = min(int(where * len(buf)), max(len(buf) - 1, 0))
        if op == "flip" and buf:
            buf[i] ^= arg or 1
        elif op == "cut":
            del buf[i:]
        elif op == "insert":
            buf[i:i] = INSERTS[arg]
        elif op == "delete":
            del buf[i : i + arg]
    return bytes(buf)


def check(path: str, kind: str, data: bytes) -> None:
    result = lint_file(path, kind, Settings(), RULES, data=data)
    try:
        text = SourceFile.from_bytes(path, data).text
    except DecodeError:
        assert [d.code for d in result.diagnostics] == ["VL002"]
        return
    n = len(text)
    for d in result.diagnostics:
        assert 0 <= d.span.start <= d.span.end <= n, (d.code, d.span, n)
        assert not (d.code == "VL001" and any(h in d.message for h in HIDDEN_CRASH)), d.message
        if d.fix is not None:
            for e in d.fix.edits:
                assert 0 <= e.span.start <= e.span.end <= n, (d.code, e.span, n)
    for rep in result.launches:
        launch = rep.launch
        tokens = [*launch.entry, *launch.args, launch.image]
        tokens += [t for e in launch.env for t in (e.name, e.value)]
        tokens += [t for s in launch.settings for t in (s.name, s.value)]
        for tok in tokens:
            if tok is None:
                continue
            assert 0 <= tok.span.start <= tok.span.end <= n, (tok, n)
            if tok.value_start is not None:
                assert text[tok.value_start : tok.value_start + len(tok.value)] == tok.value, (tok, kind)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_seeds_lint_cleanly(kind: str) -> None:
    path = KINDS[kind][0]
    for data in SEEDS[kind]:
        check(path, kind, data)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_mutated_files(kind: str) -> None:
    path = KINDS[kind][0]
    seeds = SEEDS[kind]

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(seed=st.sampled_from(seeds), ops=st.lists(mutation, min_size=1, max_size=8))
    def run(seed: bytes, ops: list[tuple[str, float, int]]) -> None:
        check(path, kind, mutate(seed, ops))

    run()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_generated_text(kind: str) -> None:
    """Text made of the characters that matter to the parsers, around a vLLM command."""
    path = KINDS[kind][0]
    alphabet = st.sampled_from([" ", "\n", "\r", "\t", "-", "--", ":", "'", '"', "\\", "$(", ")", "{{", "}}", "[", "]", "{", "}", "#", "&a", "*a",
                                "vllm", "serve", "--max-num-seq", "8", "=", ",", "|", ">", "\u00e9", "\u2028", "\x00", "FROM ", "CMD ", "LLM(", "```"])

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(parts=st.lists(alphabet, max_size=60))
    def run(parts: list[str]) -> None:
        check(path, kind, ("vllm serve m " + "".join(parts)).encode("utf-8", "surrogatepass"))

    run()
