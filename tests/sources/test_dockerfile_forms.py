"""Dockerfile forms Docker accepts: never a parse error, and the launch in each is read whole.

Each case is a complete Dockerfile written for this test (BuildKit syntax where a ``# syntax=``
line says so); the launch is ``vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000`` in
one of its forms (exec or shell ``CMD``/``ENTRYPOINT``, a ``RUN``, a heredoc, a copied script,
the arguments of a vLLM base image's entrypoint).
"""

# ruff: noqa: E501

from __future__ import annotations

import pytest

from linter.source_file import SourceFile
from linter.sources import dockerfile
from tests.sources.token_checks import assert_read_cleanly

WANT = ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]

VALID: dict[str, str] = {
    'empty-arg': 'ARG EXTRA=\nARG TOKEN\nFROM python:3.12\nARG EXTRA=\nRUN pip install vllm\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'comment-in-env': 'FROM python:3.12\nENV A=1 \\\n    # comment\n    B=2\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'comment-in-run': 'FROM python:3.12\nRUN apt-get update && \\\n    # tools\n    apt-get install -y curl && \\\n    rm -rf /var/lib/apt/lists/*\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'no-final-newline': 'FROM python:3.12\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]',
    'no-final-newline-shell': 'FROM python:3.12\nCMD vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000',
    'shell-entrypoint': 'FROM python:3.12\nENTRYPOINT vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000\n',
    'shell-cmd': 'FROM python:3.12\nCMD vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000\n',
    'shell-cmd-continued': 'FROM python:3.12\nCMD vllm serve Qwen/Qwen3-8B \\\n    --max-model-len 8192 \\\n    --port 8000\n',
    'heredoc-run': '# syntax=docker/dockerfile:1.7\nFROM python:3.12\nRUN <<EOF\nset -e\npip install vllm\nEOF\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'heredoc-run-launch': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN <<EOF bash\nset -e\nvllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000 &\nsleep 5\nEOF\n',
    'heredoc-copy': '# syntax=docker/dockerfile:1\nFROM python:3.12\nCOPY <<EOF /start.sh\n#!/bin/bash\nvllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000\nEOF\nCMD ["bash", "/start.sh"]\n',
    'syntax-directive': '# syntax=docker/dockerfile:1\nFROM python:3.12\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'escape-backtick': '# escape=`\nFROM python:3.12\nRUN pip install `\n    vllm\nCMD vllm serve Qwen/Qwen3-8B `\n    --max-model-len 8192 `\n    --port 8000\n',
    'escape-backtick-json': '# escape=`\nFROM python:3.12\nRUN echo a `\n  b\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'json-escaped-quotes': 'FROM python:3.12\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000", "--chat-template", "{{ \\"a\\" }}"]\n',
    'json-sh-c': 'FROM python:3.12\nENV MODEL=Qwen/Qwen3-8B\nENTRYPOINT ["/bin/sh", "-c", "vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000"]\n',
    'json-sh-c-2': 'FROM python:3.12\nENTRYPOINT ["/bin/sh","-c","vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000"]\n',
    'multi-stage': 'FROM vllm/vllm-openai:v0.10.0 AS base\nRUN pip install x\nFROM base\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'onbuild': 'FROM python:3.12\nONBUILD RUN pip install -r requirements.txt\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'shell-instr': 'FROM python:3.12\nSHELL ["/bin/bash", "-o", "pipefail", "-c"]\nRUN curl x | sh\nCMD vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000\n',
    'healthcheck': 'FROM python:3.12\nHEALTHCHECK --interval=30s CMD curl -f http://localhost:8000/health || exit 1\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'healthcheck-none': 'FROM python:3.12\nHEALTHCHECK NONE\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'lowercase': 'from python:3.12\nrun pip install vllm\ncmd ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'arg-in-from': 'ARG BASE=python:3.12\nFROM ${BASE} AS runtime\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'platform': 'FROM --platform=$BUILDPLATFORM python:3.12 AS b\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'run-mount': 'FROM python:3.12\nRUN --mount=type=cache,target=/root/.cache/pip pip install vllm\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'copy-from': 'FROM python:3.12 AS a\nFROM python:3.12\nCOPY --from=a --chown=1000:1000 /x /y\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'label-multi': 'FROM python:3.12\nLABEL a="b c" \\\n      d=e\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'env-legacy': 'FROM python:3.12\nENV HF_HOME /models\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'env-quoted-space': 'FROM python:3.12\nENV MSG="hello world" B=\'x y\'\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'expose-volume': 'FROM python:3.12\nEXPOSE 8000/tcp\nVOLUME ["/models"]\nVOLUME /data\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'user-workdir': 'FROM python:3.12\nUSER 1000:1000\nWORKDIR /app\nSTOPSIGNAL SIGINT\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'crlf': 'FROM python:3.12\r\nRUN pip install vllm \\\r\n    && echo ok\r\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\r\n',
    'blank-lines-in-continuation': 'FROM python:3.12\nRUN echo a \\\n\n    && echo b\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'trailing-space-after-backslash': 'FROM python:3.12\nRUN echo a \\  \n    && echo b\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'comment-after-instr-continued': 'FROM python:3.12\nCMD vllm serve Qwen/Qwen3-8B \\\n    # the length\n    --max-model-len 8192 \\\n    --port 8000\n',
    'maintainer': 'FROM python:3.12\nMAINTAINER someone <a@b.c>\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'add-url': 'FROM python:3.12\nADD --checksum=sha256:abc https://x/y.tar.gz /tmp/\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'entrypoint-then-cmd': 'FROM python:3.12\nENTRYPOINT ["vllm", "serve"]\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'entrypoint-shell-script-json': 'FROM python:3.12\nENTRYPOINT ["bash", "-lc", "vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000"]\n',
    'json-single-line-with-spaces': 'FROM python:3.12\nCMD [ "vllm" , "serve" , "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000" ]\n',
    'json-multiline': 'FROM python:3.12\nCMD ["vllm", "serve", \\\n     "Qwen/Qwen3-8B", \\\n     "--max-model-len", "8192", \\\n     "--port", "8000"]\n',
    'run-json': 'FROM python:3.12\nRUN ["pip", "install", "vllm"]\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'heredoc-dash': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN <<-EOT\n\techo a\n\tEOT\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'heredoc-quoted': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN <<\'EOT\'\necho "$HOME" \'x\nEOT\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'two-heredocs': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN <<A cat > /a && <<B cat > /b\na\nA\nb\nB\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'env-expansion-default': 'FROM python:3.12\nARG V\nENV X=${V:-1} Y=${V:+on}\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'arg-multi': 'ARG A=1 B=2\nFROM python:3.12\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'comment-with-quote': '# don\'t "break"\nFROM python:3.12\n# it\'s\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'leading-blank-and-indent': '\n\n  FROM python:3.12\n    CMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'copy-heredoc-chmod': '# syntax=docker/dockerfile:1\nFROM python:3.12\nCOPY --chmod=755 <<\'EOF\' /entry\n#!/usr/bin/env bash\nexec vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000 "$@"\nEOF\nENTRYPOINT ["/entry"]\n',
    'cmd-json-with-env-ref': 'FROM python:3.12\nENV PORT=8000\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'env-value-with-equals': 'FROM python:3.12\nENV OPTS="--a=b" PYTHONPATH=/a:/b\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'run-with-exec-form-sh': 'FROM python:3.12\nRUN ["/bin/bash", "-c", "echo hi"]\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'json-unicode-escape': 'FROM python:3.12\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000", "--served-model-name", "q\\u00e9"]\n',
    'tab-separated': 'FROM\tpython:3.12\nCMD\t["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'from-scratch-digest': 'FROM python:3.12@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'arg-multi-from': 'ARG REPO=vllm/vllm-openai VERSION=v0.10.0\nFROM ${REPO}:${VERSION}\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'arg-multi-quoted': 'ARG A="x y" VERSION=v0.10.0 C\nFROM vllm/vllm-openai:${VERSION}\nARG A B=\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'run-heredoc-bash': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN <<EOF bash\nset -e\nvllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000 &\nEOF\n',
    'run-cmd-heredoc': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN bash <<EOF\nset -e\nvllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000 &\nEOF\n',
    'run-heredoc-python': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN <<EOF python3\nimport os\nprint(\'vllm serve x --port 1\')\nEOF\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'copy-yaml': '# syntax=docker/dockerfile:1\nFROM python:3.12\nCOPY <<EOF /cfg.yaml\nload: 1\nEOF\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'cmd-continuation-at-eof': 'FROM python:3.12\nCMD vllm serve Qwen/Qwen3-8B \\\n    --max-model-len 8192 --port 8000 \\\n',
    'from-default-expansion': 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE:-vllm/vllm-openai:v0.10.0}\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'from-platform-vllm': 'FROM --platform=linux/amd64 vllm/vllm-openai:v0.10.0\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'run-set-eux-leading-and': 'FROM python:3.12\nRUN set -eux; \\\n    apt-get update \\\n    && apt-get install -y curl \\\n    && rm -rf /var/lib/apt/lists/*\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'cmd-sh-c-exec': 'FROM python:3.12\nCMD ["sh", "-c", "exec vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000"]\n',
    'trailing-backslash-in-quotes': 'FROM python:3.12\nRUN echo \'a \\\\\' > /f \\\n    && echo done\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'escape-backslash-explicit': '# escape=\\\nFROM python:3.12\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'escape-backtick-windows': '# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022\nCOPY C:\\src C:\\dst\nRUN dir C:\\dst `\n    && echo ok\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'label-escaped-quotes': 'FROM python:3.12\nLABEL description="a \\"quoted\\" value" version=1\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'heredoc-then-more': '# syntax=docker/dockerfile:1\nFROM python:3.12\nRUN <<EOF\nset -e\npip install vllm\nEOF\nENV A=1\nRUN <<-"EOT"\n\techo "$A"\n\tEOT\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'cmd-exec-multiline-comments': 'FROM python:3.12\nCMD ["vllm", "serve", \\\n# the model\n     "Qwen/Qwen3-8B", \\\n     "--max-model-len", "8192", \\\n     "--port", "8000"]\n',
    'healthcheck-exec': 'FROM python:3.12\nHEALTHCHECK --interval=10s CMD ["curl", "-f", "http://localhost:8000/health"]\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'run-network-security': 'FROM python:3.12\nRUN --network=none --security=insecure echo hi\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'comment-indented': 'FROM python:3.12\n    # indented comment\n\t# tab comment\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'run-python-c': 'FROM python:3.12\nRUN python3 -c "import vllm; print(vllm.__version__)"\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'entrypoint-env-expansion-shell': 'FROM python:3.12\nENV MODEL=Qwen/Qwen3-8B\nENTRYPOINT vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000 --download-dir "$HF_HOME"\n',
    'cmd-json-single-quoted-inner': 'FROM python:3.12\nCMD ["bash", "-c", "vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000 --hf-overrides \'{\\"a\\": 1}\'"]\n',
    'stopsignal-volume-json': 'FROM python:3.12\nSTOPSIGNAL SIGTERM\nVOLUME ["/root/.cache/huggingface", "/models"]\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'arg-before-from-used-after': 'ARG VLLM_VERSION=0.10.0\nFROM vllm/vllm-openai:v${VLLM_VERSION}\nARG VLLM_VERSION\nRUN echo ${VLLM_VERSION}\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'env-multiline-mixed': 'FROM python:3.12\nENV PATH=/opt/bin:$PATH \\\n    LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH} \\\n    VLLM_WORKER_MULTIPROC_METHOD=spawn\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'copy-link-parents': 'FROM python:3.12\nCOPY --link --parents ./a/*.py /app/\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'add-git': 'FROM python:3.12\nADD --keep-git-dir=true https://github.com/vllm-project/vllm.git#v0.10.0 /src\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'from-lower-as': 'from vllm/vllm-openai:v0.10.0 as base\nfrom base\ncmd ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
    'crlf-continuation': 'FROM python:3.12\r\nCMD vllm serve Qwen/Qwen3-8B \\\r\n    --max-model-len 8192 \\\r\n    --port 8000\r\n',
    'bom-less-unicode-label': 'FROM python:3.12\nLABEL maintainer="José <j@x.io>"\nCMD ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\n',
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_dockerfile_is_read_without_parse_error(name: str) -> None:
    assert assert_read_cleanly("Dockerfile", VALID[name], dockerfile.extract, WANT).strong


def _problems(text: str) -> list[tuple[str, str]]:
    src = SourceFile.from_text("Dockerfile", text)
    return [(src.text[p.span.start : p.span.end], p.message) for p in dockerfile.extract(src).problems]


def test_broken_places_are_pointed_at() -> None:
    # an unclosed quote in a RUN script: at the quote, in the file
    assert _problems('FROM python:3.12\nRUN echo hi && \\\n    vllm serve m --port "8000\n') == [
        ('"', "shell parse error: a quote here is never closed (bash rejects the script)")
    ]
    # an exec form that is not JSON, meant as vLLM's argv: at the array
    ((where, msg),) = _problems('FROM python:3.12\nCMD ["vllm", "serve", "m" --port]\n')
    assert where == '["vllm", "serve", "m" --port]' and "not a valid JSON array" in msg
    # a construct never closed in a RUN: at its opening word
    ((where, msg),) = _problems("FROM python:3.12\nRUN if true; then \\\n      vllm serve m --port 1 &\n")
    assert where == "if" and "never closed" in msg


def test_a_heredoc_fed_to_another_program_is_not_a_shell_script() -> None:
    text = VALID["run-heredoc-python"]
    src = SourceFile.from_text("Dockerfile", text)
    ex = dockerfile.extract(src)
    assert [[t.value for t in l.args] for l in ex.launches] == [WANT]  # the CMD, not the print()


def test_several_args_in_one_instruction_are_all_known() -> None:
    src = SourceFile.from_text("Dockerfile", VALID["arg-multi-from"])
    ex = dockerfile.extract(src)
    assert [p.version for p in ex.pins] == ["v0.10.0"]
    assert src.text[ex.pins[0].span.start : ex.pins[0].span.end] == "v0.10.0"
