"""Dockerfile: valid input is never a parse error; vLLM's build variables; evidence of each launch."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import dockerfile
from tests.sources.token_checks import check_launch, values


def run(text: str):
    src = SourceFile.from_text("Dockerfile", text)
    ex = dockerfile.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    return src, ex


def test_valid_dockerfile_forms_are_not_parse_errors() -> None:
    text = (
        "ARG EXTRA=\n"
        "ARG BASE=vllm/vllm-openai:v0.30.0\n"
        "FROM ${BASE}\n"
        "ENV HF_HOME=/models \\\n"
        "    # where the weights go\n"
        "    VLLM_LOGGING_LEVEL=DEBUG\n"
        "RUN echo \"$EXTRA\"\n"
        "ENTRYPOINT vllm serve Qwen/Qwen3-8B --max-model-len 4096"  # shell form, no final newline
    )
    src, ex = run(text)
    assert ex.problems == []
    (launch,) = ex.launches
    assert values(launch.args) == ["Qwen/Qwen3-8B", "--max-model-len", "4096"]
    assert launch.args[2].value_start == text.index("4096")
    assert [e.name.value for e in launch.env] == ["VLLM_LOGGING_LEVEL"]  # read past the comment line
    assert launch.evidence == "`vllm serve` command" and launch.strong
    assert launch.version_hint is not None and launch.version_hint.version == "v0.30.0"


def test_a_shell_form_cmd_that_is_not_vllm_is_a_choice() -> None:
    text = "FROM python:3.12\nCMD [run-the-tests]\nRUN vllm serve m --port 8000\n"
    src, ex = run(text)
    assert ex.problems == []
    assert [values(l.args) for l in ex.launches] == [["m", "--port", "8000"]]


def test_a_broken_vllm_argv_is_reported() -> None:
    text = 'FROM vllm/vllm-openai:v0.30.0\nCMD ["--model", "m", --port, "8000"]\n'
    src, ex = run(text)
    (problem,) = ex.problems  # Docker runs it with /bin/sh -c: the vLLM argv is lost
    assert "JSON array" in problem.message
    assert src.text[problem.span.start : problem.span.end] == 'CMD ["--model", "m", --port, "8000"]'


def test_vllm_build_variables_are_not_the_servers_environment() -> None:
    text = (
        "FROM nvidia/cuda:12.8.1-devel-ubuntu24.04\n"
        "ENV VLLM_TARGET_DEVICE=cpu VLLM_CPU_X86=1 VLLM_CPU_DISABLE_AVX512=true VLLM_USE_V1=1\n"
        "RUN git clone https://github.com/vllm-project/vllm.git && cd vllm && pip install -e .\n"
        'CMD ["vllm", "serve", "m"]\n'
    )
    src, ex = run(text)
    (launch,) = ex.launches
    assert [e.name.value for e in launch.env] == ["VLLM_USE_V1"]
    # the same variables in a Dockerfile that only runs vLLM stay on the launch
    text2 = text.replace("RUN git clone https://github.com/vllm-project/vllm.git && cd vllm && pip install -e .\n", "RUN pip install vllm==0.30.0\n")
    src, ex = run(text2)
    (launch,) = ex.launches
    assert [e.name.value for e in launch.env] == ["VLLM_TARGET_DEVICE", "VLLM_CPU_X86", "VLLM_CPU_DISABLE_AVX512", "VLLM_USE_V1"]


def test_vendor_base_tags_pin_nothing() -> None:
    text = 'FROM lmcache/vllm-openai:v0.3.9post2\nCMD ["--model", "m"]\nFROM vllm/vllm-openai:v0.31.0\nCMD ["--model", "m"]\n'
    src, ex = run(text)
    assert [p.version for p in ex.pins] == ["v0.31.0"]
    (launch,) = ex.launches
    assert launch.evidence == "arguments for the entrypoint of vLLM base image vllm/vllm-openai:v0.31.0" and launch.strong
