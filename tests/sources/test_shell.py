"""Shell extraction: launches, exact token places, nested scripts, pins, parse errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linter.launch import Token
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import shell
from tests.sources.token_checks import check_launch, check_token

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "tree"


def run(text: str, path: str = "serve.sh"):
    src = SourceFile.from_text(path, text)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    return src, ex


def values(tokens: list[Token]) -> list[str]:
    return [t.value for t in tokens]


SCRIPT = r"""#!/usr/bin/env bash
set -euo pipefail
export VLLM_USE_V1=1
MODEL="meta-llama/Llama-3.1-8B-Instruct"
pip install -U vllm==0.30.0
vllm serve "$MODEL" \
  --tensor-parallel-size 2 \
  --max-model-len ${MAX_LEN:-8192} \
  --gpu-memory-utilization=0.92 \
  --max_num_seqs 128
"""


def test_multiline_vllm_serve() -> None:
    src, ex = run(SCRIPT)
    assert not ex.problems
    (launch,) = ex.launches
    assert launch.kind == "shell" and launch.entrypoint == "vllm serve" and launch.program == "vllm"
    assert launch.group == "serve.sh"
    assert values(launch.entry) == ["vllm", "serve"]
    assert values(launch.args) == [
        "meta-llama/Llama-3.1-8B-Instruct",
        "--tensor-parallel-size", "2",
        "--max-model-len", "${MAX_LEN:-8192}",
        "--gpu-memory-utilization=0.92",
        "--max_num_seqs", "128",
    ]
    model, *_ = launch.args
    # "$MODEL" is resolved from the assignment; the token points there, inside the quotes.
    check_token(src, model, '"meta-llama/Llama-3.1-8B-Instruct"')
    assert model.value_start == src.text.index("meta-llama/")
    tp = launch.args[1]
    check_token(src, tp, "--tensor-parallel-size")
    assert tp.value_start == src.text.index("--tensor-parallel-size")
    max_len = launch.args[4]
    check_token(src, max_len, "${MAX_LEN:-8192}")
    assert max_len.opaque == ((0, len("${MAX_LEN:-8192}")),)
    assert max_len.is_opaque
    flag = launch.args[5]
    check_token(src, flag, "--gpu-memory-utilization=0.92")
    assert flag.editable and not flag.is_opaque
    assert launch.span.start == src.text.index("vllm serve")
    assert src.text[launch.span.start : launch.span.end].endswith("--max_num_seqs 128")
    # env from the export, pin from pip install
    (env,) = launch.env
    assert env.name.value == "VLLM_USE_V1" and env.value is not None and env.value.value == "1"
    check_token(src, env.name, "VLLM_USE_V1")
    (pin,) = ex.pins
    assert pin.origin == "pip-pin" and pin.version == "0.30.0" and pin.editable
    assert src.text[pin.span.start : pin.span.end] == "0.30.0"
    assert launch.version_hint == pin


def test_wrappers_and_entrypoints() -> None:
    text = (
        "exec python3 -m vllm.entrypoints.openai.api_server --model m --port 8000\n"
        "nohup vllm serve m2 --port 8001 > server.log 2>&1 &\n"
        "uv run --with vllm vllm serve m3\n"
        "env VLLM_USE_V1=1 vllm serve m4 --flag=value\n"
        "VLLM_LOGGING_LEVEL=DEBUG CUDA_VISIBLE_DEVICES=0 vllm serve m5\n"
        "lmcache server --port 65432\n"
    )
    src, ex = run(text)
    assert [launch.entrypoint for launch in ex.launches] == [
        "api_server", "vllm serve", "vllm serve", "vllm serve", "vllm serve", "lmcache server",
    ]
    api = ex.launches[0]
    assert values(api.entry) == ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    assert values(api.args) == ["--model", "m", "--port", "8000"]
    nohup = ex.launches[1]
    assert values(nohup.args) == ["m2", "--port", "8001"]
    assert src.text[nohup.span.start : nohup.span.end] == "nohup vllm serve m2 --port 8001"
    assert values(ex.launches[2].args) == ["m3"]
    env_launch = ex.launches[3]
    assert [(e.name.value, e.value.value) for e in env_launch.env] == [("VLLM_USE_V1", "1")]
    check_token(src, env_launch.env[0].value, "1")
    flag = env_launch.args[1]
    check_token(src, flag, "--flag=value")
    prefix = ex.launches[4]
    assert [(e.name.value, e.value.value) for e in prefix.env] == [("VLLM_LOGGING_LEVEL", "DEBUG")]
    check_token(src, prefix.env[0].value, "DEBUG")
    assert ex.launches[5].program == "lmcache"


def test_docker_run_image_tag() -> None:
    text = "docker run --gpus all -e VLLM_X=1 -p 8000:8000 vllm/vllm-openai:v0.30.1 --model m --max-model-len 4096\n"
    src, ex = run(text)
    (launch,) = ex.launches
    assert launch.entrypoint == "image"
    assert launch.image is not None and launch.image.value == "vllm/vllm-openai:v0.30.1"
    assert values(launch.args) == ["--model", "m", "--max-model-len", "4096"]
    hint = launch.version_hint
    assert hint is not None and hint.origin == "image-tag" and hint.version == "v0.30.1"
    assert src.text[hint.span.start : hint.span.end] == "v0.30.1"
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_X", "1")]


def test_quoting_and_splats() -> None:
    text = (
        "ARGS=(\n"
        "  --tensor-parallel-size 4\n"
        "  # a comment inside the array\n"
        "  --enable-prefix-caching\n"
        ")\n"
        "vllm serve m \"${ARGS[@]}\" \"${EXTRA[@]}\" $OPTS \"$@\" --x=\"$Y\"z 'single q' \"dq \\\"esc\\\"\" $'a\\tb' \"\"\n"
    )
    src, ex = run(text)
    (launch,) = ex.launches
    args = launch.args
    assert values(args[:4]) == ["m", "--tensor-parallel-size", "4", "--enable-prefix-caching"]
    # resolved array elements point at the array
    check_token(src, args[1], "--tensor-parallel-size")
    assert args[1].value_start == src.text.index("--tensor-parallel-size")
    extra, opts, at = args[4], args[5], args[6]
    assert extra.value == "${EXTRA[@]}" and extra.splat
    check_token(src, extra, '"${EXTRA[@]}"')
    assert opts.value == "$OPTS" and opts.splat  # unquoted: word splitting
    assert at.value == "$@" and at.splat
    concat = args[7]
    assert concat.value == "--x=$Yz" and concat.opaque == ((4, 6),) and not concat.editable
    check_token(src, concat, '--x="$Y"z')
    single = args[8]
    assert single.value == "single q" and single.value_start == src.text.index("single q")
    check_token(src, single, "'single q'")
    dq = args[9]
    assert dq.value == 'dq "esc"' and dq.value_start is None
    ansi = args[10]
    assert ansi.value == "a\tb" and ansi.value_start is None
    empty = args[11]
    assert empty.value == "" and empty.value_start == src.text.rindex('""') + 1


def test_scalar_variable_split_and_resolution() -> None:
    text = 'EXTRA="--max-num-seqs 64 --enable-chunked-prefill"\nPORT=8000\nvllm serve m $EXTRA --port "$PORT"\n'
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--max-num-seqs", "64", "--enable-chunked-prefill", "--port", "8000"]
    seqs = launch.args[1]
    assert seqs.value_start == src.text.index("--max-num-seqs")
    port = launch.args[5]
    assert port.value_start == src.text.index("8000")


def test_reassigned_variable_stays_opaque() -> None:
    # the last assignment before the use wins when it always runs ...
    src, ex = run('M=a\nM=b\nvllm serve "$M"\n')
    (launch,) = ex.launches
    assert launch.args[0].value == "b" and launch.args[0].value_start == src.text.index("b\n")
    # ... but one inside a branch may not have run: two values reach one word, so it is unknown
    src, ex = run('M=a\nif [ -n "$X" ]; then M=b; fi\nvllm serve "$M"\n')
    (launch,) = ex.launches
    assert launch.args[0].value == "$M" and launch.args[0].is_opaque


def test_nested_sh_c_in_bash_lc() -> None:
    text = "bash -lc 'sh -c \"vllm serve inner-model --tp 2\"'\n"
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["inner-model", "--tp", "2"]
    for tok in launch.args:
        assert tok.editable
    assert launch.args[0].value_start == text.index("inner-model")
    assert src.text[launch.span.start : launch.span.end] == "vllm serve inner-model --tp 2"


def test_nested_with_escapes_maps_positions() -> None:
    text = 'bash -c "vllm serve \\"my model\\" --port 1"\n'
    src, ex = run(text)
    (launch,) = ex.launches
    model, port_flag, port = launch.args
    assert model.value == "my model"
    # the inner quotes were escaped in the file: the value is still verbatim there
    assert model.value_start == text.index("my model")
    assert port_flag.value_start == text.index("--port")


def test_ssh_su_eval() -> None:
    text = (
        "ssh -p 22 gpu-host 'vllm serve a --tp 8'\n"
        'su - svc -c "vllm serve b"\n'
        "eval vllm serve c --port 1\n"
    )
    src, ex = run(text)
    assert [launch.args[0].value for launch in ex.launches] == ["a", "b", "c"]
    assert ex.launches[0].args[0].value_start == text.index("a --tp")


HEREDOC = """\
cat <<EOF > run.sh
#!/bin/bash
vllm serve from-heredoc --tp 4
EOF
bash <<'SCRIPT'
VLLM_Q=1 vllm serve fed-to-bash
SCRIPT
ssh host <<-EOT
\tvllm serve dashed \\
\t  --port 9
\tEOT
cat <<EOF
vllm serve just-printed
EOF
"""


def test_heredocs() -> None:
    src, ex = run(HEREDOC)
    assert not ex.problems
    assert [launch.args[0].value for launch in ex.launches] == ["from-heredoc", "fed-to-bash", "dashed"]
    first = ex.launches[0].args[0]
    assert first.value_start == HEREDOC.index("from-heredoc")
    fed = ex.launches[1]
    assert [(e.name.value, e.value.value) for e in fed.env] == [("VLLM_Q", "1")]
    dashed = ex.launches[2]
    assert values(dashed.args) == ["dashed", "--port", "9"]
    assert dashed.args[2].value_start == HEREDOC.index("9\n")


def test_command_substitution_function_pipeline_and_lists() -> None:
    text = (
        'PID=$(vllm serve a --port 1 & echo $!)\n'
        'start() { vllm serve b "$@"; }\n'
        'true && vllm serve c || exit 1\n'
        '( cd /x; vllm serve d ) | tee log\n'
        'if true; then\n  for i in 1; do vllm serve e; done\nfi\n'
    )
    src, ex = run(text)
    assert [launch.args[0].value for launch in ex.launches] == ["a", "b", "c", "d", "e"]
    assert ex.launches[1].args[1].splat


def test_crlf_file() -> None:
    text = "export VLLM_A=1\r\nvllm serve m \\\r\n  --tp 2 \\\r\n  --name \"a b\"\r\n"
    src, ex = run(text)
    assert not ex.problems
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--tp", "2", "--name", "a b"]
    check_token(src, launch.args[4], '"a b"')
    assert launch.args[4].value_start == text.index("a b")
    assert src.text[launch.span.start : launch.span.end] == 'vllm serve m \\\r\n  --tp 2 \\\r\n  --name "a b"'


def test_non_ascii_positions() -> None:
    text = "# modèle\nvllm serve 'modèle/ü' --served-model-name é\n"
    src, ex = run(text)
    (launch,) = ex.launches
    check_token(src, launch.args[0], "'modèle/ü'")
    assert launch.args[0].value_start == text.index("modèle/ü")
    assert launch.args[2].value_start == text.rindex("é")


def test_comment_inside_continuation_is_reported() -> None:
    text = "vllm serve m \\\n  --tp 2 \\\n  # --foo \\\n  --max-model-len 4096\n"
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["m", "--tp", "2"]  # bash ends the command at the comment
    assert launch.notes
    (problem,) = ex.problems
    assert src.text[problem.span.start : problem.span.end] == "--max-model-len 4096"


def test_broken_script_reports_problem() -> None:
    text = "vllm serve ok --tp 2\necho \"unterminated\nvllm serve hidden\n"
    src, ex = run(text)
    assert any("shell parse error" in p.message for p in ex.problems)
    assert [launch.args[0].value for launch in ex.launches] == ["ok"]


def test_garbage_never_raises() -> None:
    for text in ["((((", "if then fi", "case x in", "$(", "<<EOF", "vllm serve $(( ", "\x00\r\r\n", "'", "a=(", "f() {"]:
        src, ex = run(text)
        assert isinstance(ex.problems, list)


def test_extract_script_with_offset_map() -> None:
    # A script embedded at offset 10 of a file, with its first line indented by 4 spaces.
    text = "run: |\n    vllm serve m --port 8000\n"
    start = text.index("vllm")
    script = text[start:]
    src = SourceFile.from_text("wf.yaml", text)
    ex = shell.extract_script(src, script, OffsetMap.identity(start, len(script)), kind="actions", group="job")
    (launch,) = ex.launches
    assert launch.kind == "actions" and launch.group == "job"
    assert launch.args[2].value_start == text.index("8000")
    ex2 = shell.extract_script(src, script, OffsetMap.identity(start, len(script)), editable=False)
    assert not ex2.launches[0].editable
    assert all(t.value_start is None for t in ex2.launches[0].args)


def test_uv_pip_pin_quoted() -> None:
    text = 'uv pip install "vllm==0.30.0" --torch-backend=auto\nvllm serve m\n'
    src, ex = run(text)
    (pin,) = ex.pins
    assert src.text[pin.span.start : pin.span.end] == "0.30.0"
    assert ex.launches[0].version_hint == pin


# ---------------------------------------------------------------------------
# Property: generated scripts never raise, editable tokens are verbatim.

_WORDS = st.sampled_from([
    "vllm", "serve", "--tp", "2", "--max-model-len=4096", '"$M"', "'a b'", "${X:-1}", '"${A[@]}"', "$@",
    "\\\n  ", "&&", "|", ";", "&", "(", ")", "{", "}", "$(", "`", "#c\n", "\n", '"', "'", "\\", "$'\\t'",
    "M=x", "A=(a b)", "bash -c", "cat <<E", "E", "é", "\r\n", "export VLLM_A=1", "-e", "docker run",
    "vllm/vllm-openai:v1", "pip install vllm==0.1", "=", "x", "\t",
])


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_WORDS, max_size=30).map(" ".join))
def test_property_never_raises_and_tokens_verbatim(text: str) -> None:
    src = SourceFile.from_text("gen.sh", text)
    ex = shell.extract(src)
    assert not any("extraction failed" in p.message for p in ex.problems)
    for launch in ex.launches:
        check_launch(src, launch)
        for tok in [*launch.entry, *launch.args]:
            assert 0 <= tok.span.start <= tok.span.end <= len(text)
    for pin in ex.pins:
        if pin.editable:
            assert src.text[pin.span.start : pin.span.end] == pin.version


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_corpus_scripts_never_raise() -> None:
    n = 0
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.suffix not in (".sh", ".bash"):
            continue
        try:
            src = SourceFile.from_bytes(str(path), path.read_bytes())
        except ValueError:
            continue
        ex = shell.extract(src)
        assert not any("extraction failed" in p.message for p in ex.problems), path
        for launch in ex.launches:
            check_launch(src, launch)
        n += 1
    if n == 0:
        pytest.skip("no shell scripts in the corpus")


def test_word_shapes() -> None:
    text = (
        "vllm serve ~/models/x --a $\"tr\" \"a\"'b'c a\\ b *.gguf --j='{\"a\": 1}' "
        "--m \"$(cat f)\" \"$*\" ${X}y\n"
    )
    src, ex = run(text)
    (launch,) = ex.launches
    args = launch.args
    assert values(args) == ["~/models/x", "--a", "tr", "abc", "a b", "*.gguf", '--j={"a": 1}', "--m", "$(cat f)", "$*", "${X}y"]
    assert args[0].opaque == ((0, 1),)  # tilde expansion
    check_token(src, args[2], '$"tr"')
    assert args[2].value_start == text.index("tr\"")
    check_token(src, args[3], "\"a\"'b'c")
    assert args[3].value_start is None
    assert args[5].opaque == ((0, 1),)  # glob
    check_token(src, args[6], "--j='{\"a\": 1}'")
    assert not args[8].splat and args[8].is_opaque  # quoted: one word
    assert not args[9].splat  # "$*" is one word
    assert args[10].splat  # unquoted: split


def test_the_grammar_is_tree_sitter_bashs_own(monkeypatch) -> None:
    """The grammar loaded from the package's folder (without its ``__init__``) is the package's:
    a script parses to the same tree; a package of another layout is imported as it is."""
    import importlib.util

    import tree_sitter as ts
    import tree_sitter_bash

    binding = shell._bash_grammar()
    assert binding.__name__ == "tree_sitter_bash._binding"
    script = SCRIPT.encode()
    ours = ts.Parser(ts.Language(binding.language())).parse(script).root_node
    theirs = ts.Parser(ts.Language(tree_sitter_bash.language())).parse(script).root_node
    assert str(ours) == str(theirs) and not ours.has_error

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: None)
    assert shell._bash_grammar() is tree_sitter_bash
