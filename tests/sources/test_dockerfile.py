"""Dockerfile extraction: exec and shell forms, FROM pins, ENV, ARG, stages, recovery."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.launch import Token
from linter.source_file import SourceFile
from linter.sources import dockerfile
from tests.sources.token_checks import check_launch, check_token

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "tree"


def run(text: str):
    src = SourceFile.from_text("Dockerfile", text)
    ex = dockerfile.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    for pin in ex.pins:
        if pin.editable:
            assert src.text[pin.span.start : pin.span.end] == pin.version
    return src, ex


def values(tokens: list[Token]) -> list[str]:
    return [t.value for t in tokens]


def test_cmd_exec_form_on_vllm_image() -> None:
    text = (
        "FROM vllm/vllm-openai:v0.30.1\n"
        "ENV VLLM_USE_V1=1 HF_HOME=/cache\n"
        'CMD ["--model", "Qwen/Qwen3-8B", "--max-model-len", "32768", "--served-model-name", "q\\"x\\u00e9"]\n'
    )
    src, ex = run(text)
    assert not ex.problems
    (launch,) = ex.launches
    assert launch.kind == "dockerfile" and launch.entrypoint == "image" and launch.entry == []
    assert values(launch.args) == ["--model", "Qwen/Qwen3-8B", "--max-model-len", "32768", "--served-model-name", 'q"xé']
    model = launch.args[1]
    check_token(src, model, '"Qwen/Qwen3-8B"')
    assert model.value_start == text.index("Qwen/Qwen3-8B")
    escaped = launch.args[5]
    check_token(src, escaped, '"q\\"x\\u00e9"')
    assert escaped.value_start is None
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_USE_V1", "1")]
    (pin,) = ex.pins
    assert pin.origin == "dockerfile-from" and pin.version == "v0.30.1"
    assert launch.version_hint == pin
    assert launch.image is not None and launch.image.value == "vllm/vllm-openai:v0.30.1"
    assert src.text[launch.span.start : launch.span.end].startswith("CMD [")


def test_entrypoint_and_cmd_join() -> None:
    text = (
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
        'RUN ["pip", "install", "vllm==0.30.0"]\n'
        'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
        'CMD ["--model", "m", "--port", "8000"]\n'
    )
    src, ex = run(text)
    (launch,) = ex.launches
    assert launch.entrypoint == "api_server"
    assert values(launch.entry) == ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    assert values(launch.args) == ["--model", "m", "--port", "8000"]
    (pin,) = ex.pins
    assert pin.origin == "pip-pin" and src.text[pin.span.start : pin.span.end] == "0.30.0"
    assert launch.version_hint == pin


def test_vllm_serve_entrypoint_with_cmd() -> None:
    text = 'FROM ubuntu:22.04\nENTRYPOINT ["vllm", "serve"]\nCMD ["m", "--tp", "2"]\n'
    src, ex = run(text)
    (launch,) = ex.launches
    assert launch.entrypoint == "vllm serve" and values(launch.args) == ["m", "--tp", "2"]


def test_shell_form_with_continuations_and_comment() -> None:
    text = (
        "FROM ubuntu:22.04\n"
        "ENV VLLM_LOGGING_LEVEL DEBUG\n"
        "ENTRYPOINT vllm serve m \\\n"
        "    # Docker drops this comment line\n"
        "    --tensor-parallel-size 2 \\\n"
        '    --served-model-name "my model"\n'
    )
    src, ex = run(text)
    assert not ex.problems
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--tensor-parallel-size", "2", "--served-model-name", "my model"]
    tp = launch.args[1]
    check_token(src, tp, "--tensor-parallel-size")
    assert tp.value_start == text.index("--tensor-parallel-size")
    check_token(src, launch.args[4], '"my model"')
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_LOGGING_LEVEL", "DEBUG")]


def test_sh_c_exec_form() -> None:
    text = 'FROM ubuntu\nCMD ["/bin/bash", "-c", "vllm serve m --tp 2 && echo done"]\n'
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--tp", "2"]
    assert launch.args[1].value_start == text.index("--tp")


def test_arg_resolves_from_and_pin_points_at_arg() -> None:
    text = "ARG VLLM_VERSION=v0.30.1\nFROM vllm/vllm-openai:${VLLM_VERSION} AS serve\nCMD [\"--model\", \"m\"]\n"
    src, ex = run(text)
    (pin,) = ex.pins
    assert pin.version == "v0.30.1" and pin.editable
    assert pin.span.start == text.index("v0.30.1")
    (launch,) = ex.launches
    assert launch.image is not None and launch.image.value == "vllm/vllm-openai:v0.30.1"
    assert launch.image.value_start is None  # assembled from two places


def test_multistage_inherits_and_final_stage_wins() -> None:
    text = (
        "FROM vllm/vllm-openai:v0.29.0 AS base\n"
        "ENV VLLM_A=1\n"
        'CMD ["--model", "base-model"]\n'
        "FROM base\n"
        "ENV VLLM_B=2\n"
    )
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["--model", "base-model"]
    assert [e.name.value for e in launch.env] == ["VLLM_A", "VLLM_B"]
    assert launch.version_hint is not None and launch.version_hint.version == "v0.29.0"


def test_shell_form_cmd_on_vllm_image_is_reported() -> None:
    text = "FROM vllm/vllm-openai:latest\r\nCMD vllm serve m \\\r\n  # c\r\n  --tp 2\r\n"
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--tp", "2"]
    assert launch.notes and any("shell-form CMD" in p.message for p in ex.problems)


def test_run_lines_heredoc_and_pins() -> None:
    text = (
        "FROM python:3.12\n"
        'RUN pip install "vllm==0.29.0" && \\\n'
        "    # comment inside the continuation\n"
        "    pip cache purge\n"
        "RUN <<EOF\n"
        "vllm serve in-heredoc --port 1\n"
        "EOF\n"
    )
    src, ex = run(text)
    (pin,) = ex.pins
    assert src.text[pin.span.start : pin.span.end] == "0.29.0"
    (launch,) = ex.launches
    assert values(launch.args) == ["in-heredoc", "--port", "1"]
    assert launch.args[2].value_start == text.index("1\nEOF")
    assert launch.version_hint == pin


def test_unknown_instruction_and_bad_json() -> None:
    text = (
        "FROM ubuntu\n"
        "FOO bar\n"
        "ENV VLLM_LEGACY some value\n"
        "CMD ['vllm', 'serve', 'bad']\n"
        "HEALTHCHECK CMD curl -f http://localhost:8000/health\n"
    )
    src, ex = run(text)
    messages = [p.message for p in ex.problems]
    assert any("unknown Dockerfile instruction 'FOO'" in m for m in messages)
    assert any("not a valid JSON array" in m for m in messages)


def test_escape_directive() -> None:
    text = "# escape=`\nFROM ubuntu\nENTRYPOINT vllm serve m `\n  --port 8000\n"
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--port", "8000"]
    assert launch.args[2].value_start == text.index("8000")


def test_no_cmd_on_vllm_image_is_a_bare_start() -> None:
    src, ex = run("FROM vllm/vllm-openai:v0.30.1\nENV VLLM_X=1\n")
    (launch,) = ex.launches
    assert launch.args == [] and launch.notes


_LINES = st.sampled_from([
    "FROM vllm/vllm-openai:v0.30.1", "FROM ubuntu AS a", "FROM a", "ARG V=1", "ENV VLLM_A=1", "ENV VLLM_B b c",
    'CMD ["--model", "m\\u00e9"]', "CMD vllm serve m \\", "  --tp 2", "# c", 'ENTRYPOINT ["vllm", "serve"]',
    "RUN pip install vllm==0.1 && \\", "RUN <<EOF", "EOF", "BOGUS x", "CMD ['x'", "\\", "\r", "", "é",
])


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINES, max_size=12).map("\n".join))
def test_property_never_raises_and_tokens_verbatim(text: str) -> None:
    src, ex = run(text)
    assert not any("extraction failed" in p.message for p in ex.problems)


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_corpus_dockerfiles_never_raise() -> None:
    n = 0
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or "dockerfile" not in path.name.lower():
            continue
        try:
            src = SourceFile.from_bytes(str(path), path.read_bytes())
        except ValueError:
            continue
        ex = dockerfile.extract(src)
        assert not any("extraction failed" in p.message for p in ex.problems), path
        for launch in ex.launches:
            check_launch(src, launch)
        n += 1
    if n == 0:
        pytest.skip("no Dockerfiles in the corpus")


def test_pip_reinstall_in_vllm_image_overrides_the_tag() -> None:
    text = (
        "FROM vllm/vllm-openai:v0.30.1\n"
        "RUN --mount=type=cache,target=/root/.cache/pip pip install vllm==0.31.0\n"
        'CMD ["--model", "m"]\n'
    )
    src, ex = run(text)
    (launch,) = ex.launches
    assert launch.version_hint is not None and launch.version_hint.version == "0.31.0"
    assert launch.version_hint.origin == "pip-pin"
    assert {p.origin for p in ex.pins} == {"dockerfile-from", "pip-pin"}
