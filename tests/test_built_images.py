"""Images the tree builds FROM a vLLM image: ``docker build -t NAME`` then ``docker run NAME args``, compose ``build:``."""

from __future__ import annotations

import json

from click.testing import CliRunner

from linter.cli import main
from linter.sources.commands import docker_build
from linter.launch import Span, Token

SERVE_DOCKERFILE = (
    "# syntax=docker/dockerfile:1\n"
    "FROM python:3.12-slim AS tools\n"
    "RUN pip install --no-cache-dir awscli\n"
    "\n"
    "FROM vllm/vllm-openai:v0.30.0\n"
    "COPY --from=tools /usr/local/bin/aws /usr/local/bin/aws\n"
    "ENV VLLM_LOGGING_LEVEL=INFO\n"
)
# its own entrypoint: ``docker run`` arguments go to the wrapper, not to vLLM
WRAPPED_DOCKERFILE = 'FROM vllm/vllm-openai:v0.30.0\nCOPY run.sh /run.sh\nENTRYPOINT ["/run.sh"]\n'

BUILD_SH = (
    "#!/usr/bin/env bash\r\n"
    "set -euo pipefail\r\n"
    "TAG=\"acme/chat-serve:${GIT_SHA:-dev}\"\r\n"
    "IMAGE=acme/chat-serve\r\n"
    "docker buildx build --platform linux/amd64 --tag=\"$IMAGE\" -f docker/serve.Dockerfile .\r\n"
    "docker build -t acme/wrapped -f docker/wrapped.Dockerfile .\r\n"
    "docker run --rm --gpus all -p 8000:8000 \"$IMAGE\" \\\r\n"
    "  --model Qwen/Qwen3-8B --max-num-seq 64\r\n"
    "docker run --rm acme/wrapped --max-num-seq 8\r\n"
    "docker run --rm acme/never-built --max-num-seq 8\r\n"
    "vllm serve Qwen/Qwen3-0.6B --max-num-seq 4\r\n"
)
COMPOSE = (
    "services:\n"
    "  chat:\n"
    "    build: {context: ., dockerfile: docker/serve.Dockerfile}\n"
    "    image: acme/chat-serve:dev\n"
    "    command: [\"Qwen/Qwen3-8B\", \"--max-num-seq\", \"32\"]\n"
    "  proxy:\n"
    "    build: ./proxy\n"
    "    command: [\"--max-num-seq\", \"1\"]\n"
)


def _tree(tmp_path):
    (tmp_path / "docker").mkdir()
    (tmp_path / "scripts").mkdir()
    (tmp_path / "proxy").mkdir()
    (tmp_path / "docker" / "serve.Dockerfile").write_text(SERVE_DOCKERFILE, encoding="utf-8")
    (tmp_path / "docker" / "wrapped.Dockerfile").write_text(WRAPPED_DOCKERFILE, encoding="utf-8")
    (tmp_path / "proxy" / "Dockerfile").write_text("FROM nginx:1.27\n", encoding="utf-8")
    (tmp_path / "scripts" / "build_and_run.sh").write_bytes(BUILD_SH.encode())
    (tmp_path / "compose.yaml").write_text(COMPOSE, encoding="utf-8")


def _launches(tmp_path, monkeypatch, *paths):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*(paths or ["."]), "--no-cache", "--show-launches", "--output-format", "json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    return sorted((l["file"].rsplit("/", 1)[-1], l["line"], l["strong"], l["vllm_version"], l["evidence"]) for l in found if not l["file"].endswith("Dockerfile"))


def test_docker_run_of_an_image_built_from_a_vllm_dockerfile(tmp_path, monkeypatch):
    _tree(tmp_path)
    got = _launches(tmp_path, monkeypatch)
    assert got == [
        ("build_and_run.sh", 7, True, "v0.30.0", "image acme/chat-serve, built here FROM vLLM image vllm/vllm-openai:v0.30.0"),
        ("build_and_run.sh", 11, True, None, "`vllm serve` command"),
        ("compose.yaml", 3, True, "v0.30.0", "built here FROM vLLM image vllm/vllm-openai:v0.30.0"),
    ]


def test_the_launch_is_checked_and_fixed_at_its_own_characters(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [".", "--no-cache", "--fix", "--target-version", "0.32", "--select", "VL201"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "scripts" / "build_and_run.sh").read_bytes().decode() == BUILD_SH.replace(
        "--max-num-seq 64", "--max-num-seqs 64").replace("--max-num-seq 4", "--max-num-seqs 4")
    assert (tmp_path / "compose.yaml").read_text(encoding="utf-8") == COMPOSE.replace('"--max-num-seq", "32"', '"--max-num-seqs", "32"')


def test_without_the_dockerfile_in_the_run_nothing_is_claimed(tmp_path, monkeypatch):
    _tree(tmp_path)
    got = _launches(tmp_path, monkeypatch, "scripts")  # the Dockerfiles are not linted: unknown
    assert [(name, line) for name, line, *_ in got] == [("build_and_run.sh", 11)]


def test_docker_build_words() -> None:
    def toks(*vals):
        return [Token(v, Span(0, 0)) for v in vals]

    b = docker_build(toks("podman", "build", "--build-arg", "X=1", "-t", "a/b:1", "--tag=a/b:latest", "-f", "ops/Dockerfile", "ctx"))
    assert (b.tags, b.file, b.context) == (["a/b:1", "a/b:latest"], "ops/Dockerfile", "ctx")
    assert docker_build(toks("docker", "build", ".")) is None  # untagged: nothing to run by name
    assert docker_build(toks("docker", "run", "-t", "x")) is None


def test_the_screening_looks_for_a_compose_build_key_not_an_image_tag() -> None:
    from linter.discovery import image_needles, might_launch

    needles = image_needles((), built=True)
    for text in ("services:\n  chat:\n    build: ./serve\n", "  chat:\n    build:\n      context: .\n", '{"services": {"chat": {"build": "."}}}', "chat: {image: x, build: .}\n", "x:\n  BUILD: y\n"):
        assert might_launch(text.encode(), needles), text
    for text in ("containers:\n  - image: ghcr.io/acme/build:8.8\n", "rebuild: true\n", "name: build-24\n", "steps:\n  - build:1\n"):
        assert not might_launch(text.encode(), needles), text
    assert not might_launch(b"services:\n  a:\n    build: .\n")  # no image built here: no such needle


def test_a_warm_run_serves_files_screened_out_for_built_images_from_the_stat_index(tmp_path, monkeypatch):
    import os

    from linter import batch

    _tree(tmp_path)
    (tmp_path / "deploy.yaml").write_text("kind: Deployment\nspec:\n  containers:\n    - image: ghcr.io/acme/build:8.8\n", encoding="utf-8")
    old = 1_700_000_000
    for top, _dirs, files in os.walk(tmp_path):
        for name in files:
            os.utime(os.path.join(top, name), (old, old))  # older than the racy window: recorded
    monkeypatch.chdir(tmp_path)
    first = CliRunner().invoke(main, [".", "--output-format", "concise"])
    read: list[str] = []
    real = batch._read
    monkeypatch.setattr(batch, "_read", lambda path: read.append(os.path.basename(path)) or real(path))
    second = CliRunner().invoke(main, [".", "--output-format", "concise"])
    assert second.output == first.output
    assert "deploy.yaml" not in read  # screened out once for the same images: not read again
    (tmp_path / "vllm-lint.toml").write_text('vllm-images = ["ghcr.io/acme/build*"]\n', encoding="utf-8")
    read.clear()
    CliRunner().invoke(main, [".", "--output-format", "concise"])
    assert "deploy.yaml" in read  # screened for other images' names now: read again


SERVE_SH = "#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B --max-num-seq 16 --port 8000\n"
PLAIN_SH = "#!/bin/sh\n# packs the docs\ntar czf docs.tgz docs/\n"


def _aged(tmp_path, monkeypatch) -> int:
    """Every file of the tree last changed long ago (the stat index records it), the tree the
    working folder and its cache the default one; returns that time."""
    import os

    old = 1_600_000_000
    for p in tmp_path.rglob("*"):
        if p.is_file():
            os.utime(p, (old, old))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    return old


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--output-format", "json", "."])
    return result.output


def test_the_built_images_key_only_the_readings_that_look_them_up(tmp_path, monkeypatch):
    """The cache keys the tree's vLLM Dockerfiles into the entries of the files whose reading
    looked them up (a script's ``docker build``, a compose ``build:``): a Dockerfile added or
    changed elsewhere reads those again, and no other file; every run prints what an
    uncached one prints."""
    from linter import engine

    _tree(tmp_path)
    (tmp_path / "scripts" / "serve.sh").write_text(SERVE_SH, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    _run()
    calls: list[str] = []
    real = engine.extract
    monkeypatch.setattr(engine, "extract", lambda src, kind: calls.append(src.path) or real(src, kind))
    for args in ([], ["--target-version", "0.31"]):
        assert _run(*args) == _run("--no-cache", *args)
    uncached = len([c for c in calls if c.endswith("serve.sh")])
    calls.clear()

    # another vLLM Dockerfile: the set of built images changes
    (tmp_path / "gpu").mkdir()
    (tmp_path / "gpu" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.31.0\nENV HF_HOME=/cache\n", encoding="utf-8")
    assert _run("--target-version", "0.31") == _run("--no-cache", "--target-version", "0.31")
    cached = [c for c in calls[: len(calls) // 2]]  # the cached run came first
    assert "scripts/build_and_run.sh" in cached and "compose.yaml" in cached and "gpu/Dockerfile" in cached
    assert "scripts/serve.sh" not in cached and "docker/serve.Dockerfile" not in cached, cached
    assert uncached == 2  # each --no-cache run read serve.sh

    # the Dockerfile a script builds no longer runs vLLM: what the script launches changes
    (tmp_path / "docker" / "serve.Dockerfile").write_text("FROM python:3.12-slim\n", encoding="utf-8")
    before = _run("--no-cache", "--target-version", "0.31")
    assert _run("--target-version", "0.31") == before
    assert "acme/chat-serve" not in before


def test_a_warm_run_of_a_tree_that_builds_vllm_images_reads_no_unchanged_file(tmp_path, monkeypatch):
    """With vLLM Dockerfiles in the tree, the stat index still screens the files that name no vLLM
    (it recorded the build words too): a warm run reads none of them."""
    from linter import batch

    _tree(tmp_path)
    for k in range(30):
        (tmp_path / "scripts" / f"tool_{k}.sh").write_text(PLAIN_SH, encoding="utf-8")
    old = _aged(tmp_path, monkeypatch)
    first = _run()
    read: list[str] = []
    real = batch._read
    monkeypatch.setattr(batch, "_read", lambda path: read.append(path) or real(path))
    assert _run() == first
    assert read and not [p for p in read if "tool_" in p], read
    assert first == _run("--no-cache")
    assert [p for p in read if "tool_" in p]  # an uncached run reads them


def test_each_dockerfile_is_read_once_cold_and_not_at_all_warm(tmp_path, monkeypatch):
    """Finding the images the tree builds reads each Dockerfile that names vLLM; its own linting takes that
    reading rather than parsing it again; a warm run parses none (the cache answers for the
    unchanged ones), and an edited one is read again and changes what the scripts launch."""
    import os

    from linter.sources import dockerfile

    _tree(tmp_path)
    old = _aged(tmp_path, monkeypatch)
    parsed: list[str] = []
    real = dockerfile._Dockerfile.run
    monkeypatch.setattr(dockerfile._Dockerfile, "run", lambda self: parsed.append(self.src.path) or real(self))
    # one without a vLLM word (proxy/, FROM nginx) is read but not parsed: it builds no vLLM image
    # and its own linting screens it out, as a warm run's stat index does
    dockerfiles = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*Dockerfile") if "vllm" in p.read_text().lower())
    assert "proxy/Dockerfile" not in dockerfiles and len(dockerfiles) == 2
    for args in (["--no-cache"], []):  # uncached, then cold
        out = _run(*args)
        assert sorted(parsed) == dockerfiles, args
        parsed.clear()
    assert _run() == out
    assert parsed == []  # warm: answered from the cache
    assert _run("--target-version", "0.31") == _run("--no-cache", "--target-version", "0.31")
    parsed.clear()
    (tmp_path / "docker" / "serve.Dockerfile").write_text(SERVE_DOCKERFILE.replace("FROM vllm/vllm-openai:v0.30.0", "FROM python:3.12"), encoding="utf-8")
    os.utime(tmp_path / "docker" / "serve.Dockerfile", (old + 10, old + 10))
    edited = _run()
    assert parsed == ["docker/serve.Dockerfile"]
    assert edited == _run("--no-cache") != out  # the built image's launch is no longer checked


def test_a_file_screened_before_the_tree_built_a_vllm_image_is_screened_again(tmp_path, monkeypatch):
    """Without a vLLM Dockerfile, a script that names no vLLM is screened for vLLM words only (the
    stat index records that the build words were not looked for); once a Dockerfile FROM a vLLM
    image appears, the unchanged script is read again, its ``docker run`` is a launch as in an
    uncached run, and the next run reads no file that holds neither word."""
    import os

    from linter import batch

    (tmp_path / "scripts").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "scripts" / "build_and_run.sh").write_bytes(BUILD_SH.replace("vllm serve Qwen/Qwen3-0.6B --max-num-seq 4\r\n", "").encode())
    (tmp_path / "docker" / "wrapped.Dockerfile").write_text("FROM nginx:1.27\n", encoding="utf-8")
    (tmp_path / "scripts" / "pack_docs.sh").write_text(PLAIN_SH, encoding="utf-8")
    old = _aged(tmp_path, monkeypatch)
    first = _run()
    assert "build_and_run.sh" not in first  # no image of the tree runs vLLM: nothing to report
    read: list[str] = []
    real = batch._read
    monkeypatch.setattr(batch, "_read", lambda path: read.append(os.path.basename(path)) or real(path))
    assert _run() == first and "build_and_run.sh" not in read  # warm: answered by the stat index
    (tmp_path / "docker" / "serve.Dockerfile").write_text(SERVE_DOCKERFILE, encoding="utf-8")
    os.utime(tmp_path / "docker" / "serve.Dockerfile", (old, old))
    read.clear()
    built = _run()
    assert "build_and_run.sh" in read and "pack_docs.sh" in read  # screened again, for the build words this time
    assert built == _run("--no-cache") != first
    assert "build_and_run.sh" in built  # `--max-num-seq` of the built image's `docker run`
    read.clear()
    assert _run() == built and "pack_docs.sh" not in read  # its row says now: no build word either


def _builds_reference(chunk: bytes) -> bool:
    """The build words spelled out: a build command anywhere, or ``build`` after a key boundary then ``:`` and a blank or the end."""
    import re

    if any(w in chunk for w in (b"docker build", b"buildx build", b"podman build", b"nerdctl build")):
        return True
    return any(m.start() == 0 or chunk[m.start() - 1] in b" \t\r\n{,\"'" for m in re.finditer(rb"""build["']?[ \t]*:(?=\s|$)""", chunk))


def test_the_build_words_pattern_is_the_spelled_out_test() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from linter.discovery import _builds

    pieces = st.sampled_from([b"build", b"docker ", b"buildx ", b"podman ", b"nerdctl ", b"rebuild", b":", b" ", b"\n", b"'", b'"', b"\t", b"x", b"{", b",", b"-", b"/"])

    @settings(max_examples=3000, deadline=None)
    @given(st.lists(pieces, max_size=14))
    def agree(parts):
        chunk = b"".join(parts)
        assert _builds(chunk) == _builds_reference(chunk), chunk

    agree()
