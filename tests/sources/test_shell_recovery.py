"""Shell: a parse failure never drops a launch; VL001 only where a launch was lost; evidence; image pins."""

from __future__ import annotations

import pytest

from linter.source_file import SourceFile
from linter.sources import commands, shell
from tests.sources.token_checks import check_launch, values

REAL = "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n"


def run(text: str, path: str = "serve.sh"):
    src = SourceFile.from_text(path, text)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    return src, ex


@pytest.mark.parametrize(
    "valid",
    [
        'case "$x" in\n  *"a"*"b"*) echo both ;;\n  *) echo none ;;\nesac\n',
        "b=${a:+${a};}\n",
        "exec 3<>/dev/tcp/localhost/8000\n",
    ],
    ids=["case-pattern", "nested-alternate", "dev-tcp"],
)
def test_bash_accepts_it_so_no_parse_error(valid: str) -> None:
    # each of these passes ``bash -n``; the grammar cannot read them
    src, ex = run(valid + REAL)
    assert ex.problems == []
    (launch,) = ex.launches
    assert values(launch.args) == ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
    assert launch.args[2].value_start == src.text.index("8192")


def test_template_placeholder_is_one_unknown_word_and_the_rest_is_read() -> None:
    text = "vllm serve m --tokenizer ${${p}X} --max-model-len 4096 --port 8000\n" + REAL
    src, ex = run(text)
    assert ex.problems == []
    first, second = ex.launches
    assert values(first.args) == ["m", "--tokenizer", "${${p}X}", "--max-model-len", "4096", "--port", "8000"]
    assert first.args[2].is_opaque and not first.args[3].is_opaque
    assert first.args[4].value_start == text.index("4096")
    assert src.text[first.span.start : first.span.end].endswith("8000")  # not the next line
    assert values(second.args)[0] == "Qwen/Qwen3-8B"


def test_go_template_actions_are_opaque() -> None:
    text = 'vllm serve {{ .Values.model }} --port={{ .Values.port }} --max-num-seqs "{{ .Values.seqs | default 8 }}"\n'
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["{{ .Values.model }}", "--port={{ .Values.port }}", "--max-num-seqs", "{{ .Values.seqs | default 8 }}"]
    assert launch.args[0].is_opaque and launch.args[3].is_opaque
    assert launch.args[1].opaque_in(7, 8) and not launch.args[1].opaque_in(0, 6)
    assert launch.args[2].value_start == text.index("--max-num-seqs")


def test_an_unclosed_quote_is_reported_where_it_stands() -> None:
    text = REAL + 'echo "never closed\nvllm serve hidden --port 1\n'
    src, ex = run(text)
    assert [l.args[0].value for l in ex.launches] == ["Qwen/Qwen3-8B"]  # the rest is a string to bash
    (problem,) = ex.problems
    assert "shell parse error" in problem.message and "not checked" in problem.message
    assert src.text[problem.span.start : problem.span.end] == '"'


def test_broken_lines_without_vllm_say_nothing() -> None:
    text = "if [ -z \"$X\" ]; then\n  echo (\nfi\n" + REAL
    src, ex = run(text)
    assert ex.problems == []
    assert [l.args[0].value for l in ex.launches] == ["Qwen/Qwen3-8B"]


def test_markdown_block_message_quotes_the_file_not_the_masked_text() -> None:
    from linter.sources import markdown

    text = "# Serve\n\n```bash\nvllm serve m --port 1 \\\n  --tokenizer \"a\n```\n\n```bash\n" + REAL + "```\n"
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    assert [l.args[0].value for l in ex.launches][-1] == "Qwen/Qwen3-8B"
    for problem in ex.problems:
        assert "xxx" not in problem.message
        assert src.text[problem.span.start : problem.span.end] in problem.message or '"' == src.text[problem.span.start]


def test_crlf_recovery_keeps_places() -> None:
    text = "vllm serve m --tokenizer ${${p}X} \\\r\n  --max-model-len 4096\r\n"
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--tokenizer", "${${p}X}", "--max-model-len", "4096"]
    assert launch.args[4].value_start == text.index("4096")


def test_evidence_of_each_form() -> None:
    text = (
        "vllm serve m\n"
        "python3 -m vllm.entrypoints.openai.api_server --model m\n"
        "docker run --gpus all vllm/vllm-openai:v0.30.0 --model m\n"
        "docker run registry.local/team/vllm-openai:v0.31.0 --model m\n"
        "docker run -it openeuler/vllm-cpu:0.10.1-oe2403lts vllm serve m\n"
        "docker run --gpus all vllm-node ./run-cluster-node.sh --role head --host-ip 10.0.0.1\n"
        'docker run vllm-node bash -c -i "vllm serve inner --port 8000"\n'
    )
    src, ex = run(text)
    got = [(l.entrypoint, l.strong, l.evidence) for l in ex.launches]
    assert got == [
        ("vllm serve", True, "`vllm serve` command"),
        ("api_server", True, "`python3 -m vllm.entrypoints.openai.api_server` command"),
        ("image", True, "vLLM image vllm/vllm-openai:v0.30.0"),
        ("image", False, "image named like vLLM's registry.local/team/vllm-openai:v0.31.0"),
        ("vllm serve", True, "`vllm serve` command in image openeuler/vllm-cpu:0.10.1-oe2403lts"),
        # a custom image merely named like vLLM's runs its own entrypoint: nothing claimed
        # for the script's flags; the `bash -c` script inside is read as a script
        ("vllm serve", True, "`vllm serve` command"),
    ]
    assert values(ex.launches[-1].args) == ["inner", "--port", "8000"]


def test_only_vllm_release_tags_pin() -> None:
    assert commands.release_tag("vllm/vllm-openai:v0.30.1") == ("v0.30.1", 17)
    assert commands.release_tag("docker.io/vllm/vllm-openai:latest") == ("latest", 27)
    assert commands.release_tag("lmcache/vllm-openai:v0.3.9post2") is None
    assert commands.release_tag("lmcache/vllm-openai:v0.3.9") is None  # an LMCache release
    assert commands.release_tag("openeuler/vllm-cpu:0.10.1-oe2403lts") is None
    assert commands.release_tag("quay.io/acme/vllm-openai:v0.31.0") == ("v0.31.0", 25)
    text = "docker run lmcache/vllm-openai:v0.3.9post2 --model m\ndocker run vllm/vllm-openai:v0.30.0 --model m\n"
    src, ex = run(text)
    assert [l.version_hint.version if l.version_hint else None for l in ex.launches] == [None, "v0.30.0"]


def test_images_named_like_vllm_are_weak_and_confirmed_by_their_options(tmp_path) -> None:
    from click.testing import CliRunner

    from linter.cli import main

    script = tmp_path / "serve.sh"
    script.write_text(
        "docker run -d vllm-qwen35-v2 serve /models/q --port 8000 --max-num-seqs 8 --swap-space 4\n"
        "docker run -d vllm-fork-tq serve /models/q --port 8000 --enable-turboquant\n"
        "docker run -d vllm/vllm-openai:v0.30.0 --model m --swap-space 4\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, [str(script), "--no-cache", "--show-launches"])
    # the fork's own flag says its entrypoint is not plain vLLM: that launch is not claimed
    assert result.output.count("\n    evidence:") == 2
    assert "named like vLLM's (weak: reported, never edited)" in result.output
    result = CliRunner().invoke(main, [str(script), "--no-cache"])
    assert "--enable-turboquant" not in result.output
    assert result.output.count("VL101") == 2  # --swap-space, in the weak launch and the real one
    before = script.read_bytes()
    CliRunner().invoke(main, [str(script), "--no-cache", "--fix", "--unsafe-fixes"])
    after = script.read_text(encoding="utf-8").splitlines()
    assert after[0] == before.decode().splitlines()[0]  # the weak launch is never edited


def test_markdown_blocks_report_only_lost_launches() -> None:
    from linter.sources import markdown

    text = (
        "# Serving\n\n```bash\nexport HF_TOKEN=<your HF token>\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n```\n\n"
        "```console\n$ curl localhost:8000/v1/models\nINFO: vllm (pid 1) started; <ctrl-c> to stop\n```\n\n"
        "```sh\nfor x in (a b); do echo $x; done\n```\n\n"
        "```bash\npython -c \"print('unterminated)\nvllm serve lost --port 1\n```\n"
    )
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    assert [l.args[0].value for l in ex.launches] == ["Qwen/Qwen3-8B"]
    assert ex.launches[0].args[2].value_start == text.index("8192")
    (problem,) = ex.problems  # only the block whose launch was lost, at its unclosed quote
    assert problem.span.start == text.index("\"print(") and problem.span.end == problem.span.start + 1
    assert "not checked" in problem.message
