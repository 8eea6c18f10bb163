"""Shell: conditional words, ``--opt=$V``, and the values of variables that reach a launch."""

from __future__ import annotations

from linter import knowledge
from linter.argmodel import parse
from linter.source_file import SourceFile
from linter.sources import shell
from tests.sources.token_checks import check_launch, values


def run(text: str):
    src = SourceFile.from_text("serve.sh", text)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    return src, ex


def options(launch) -> list[tuple[str, list[str]]]:
    parsed = parse(launch, knowledge.release(knowledge.newest()))
    return [(o.written, [v.text for v in o.values]) for o in parsed.options], parsed


def test_alternate_words_are_conditional_options_never_the_model() -> None:
    text = 'vllm serve ${MODEL_FLAG:+"$M"} Qwen/Qwen3-8B ${V:+--max-model-len "$V"} ${EAGER:+--enforce-eager} --port 8000\n'
    src, ex = run(text)
    (launch,) = ex.launches
    assert values(launch.args) == ["$M", "Qwen/Qwen3-8B", "--max-model-len", "$V", "--enforce-eager", "--port", "8000"]
    cond = [t.conditional for t in launch.args]
    assert cond == [True, False, True, True, True, False, False]
    assert launch.args[2].value_start == text.index("--max-model-len")
    assert launch.args[4].value_start == text.index("--enforce-eager")
    opts, parsed = options(launch)
    assert ("--max-model-len", ["$V"]) in opts and ("--enforce-eager", []) in opts
    assert [p.text for p in parsed.positionals] == ["Qwen/Qwen3-8B"]  # the conditional word is not the model


def test_unquoted_value_after_a_literal_option_name() -> None:
    text = "vllm serve m --max-model-len=$LEN --gpu-memory-utilization=${UTIL} --port 8000\n"
    src, ex = run(text)
    (launch,) = ex.launches
    opts, _ = options(launch)
    assert [name for name, _ in opts] == ["--max-model-len", "--gpu-memory-utilization", "--port"]
    tok = launch.args[1]
    assert tok.splat and tok.value_start == text.index("--max-model-len=")


def test_appends_defaults_mixed_literals_and_eval() -> None:
    text = (
        "LEN=$1\n"
        'OPTS="--max-model-len $LEN --max-num-seqs 4"\n'
        'OPTS+=" --seed 1"\n'
        'EXTRA="--enforce-eager"\n'
        'EXTRA="$EXTRA --dtype auto"\n'
        "IMG=${IMG:-vllm/vllm-openai:v0.30.0}\n"
        "ARGS=(--port 8000 \"$HOSTFLAG\" --api-key k)\n"
        'vllm serve Qwen/Qwen3-8B $OPTS $EXTRA "${ARGS[@]}"\n'
        'CMD="vllm serve m2 --max-model-len 1024"\n'
        'eval "$CMD"\n'
    )
    src, ex = run(text)
    first, second = ex.launches
    assert values(first.args) == [
        "Qwen/Qwen3-8B", "--max-model-len", "$LEN", "--max-num-seqs", "4", "--seed", "1",
        "--enforce-eager", "--dtype", "auto", "--port", "8000", "$HOSTFLAG", "--api-key", "k",
    ]
    # literal words stand where they were written (inside the assignments)
    assert first.args[3].value_start == text.index("--max-num-seqs")
    assert first.args[5].value_start == text.index("--seed")
    assert first.args[8].value_start == text.index("--dtype")
    assert first.args[2].is_opaque and first.args[12].is_opaque
    assert values(second.args) == ["m2", "--max-model-len", "1024"]
    assert second.args[2].value_start == text.index("1024")


def test_branches_are_a_union_of_conditional_words() -> None:
    text = (
        'if [ "$GPUS" -gt 1 ]; then\n'
        '  MODE="--tensor-parallel-size $GPUS"\n'
        "else\n"
        '  MODE="--enforce-eager"\n'
        "fi\n"
        'IMG=vllm/vllm-openai:v0.30.0\n'
        '[ -n "$NIGHTLY" ] && IMG=vllm/vllm-openai:nightly\n'
        "vllm serve m $MODE --enforce-eager\n"
        'docker run "$IMG" --model m\n'
    )
    src, ex = run(text)
    # two images may reach "$IMG": one word cannot hold both, so it stays unknown and no
    # launch is claimed for it (a union of single words is not represented yet)
    (serve,) = ex.launches
    assert values(serve.args) == ["m", "--tensor-parallel-size", "$GPUS", "--enforce-eager", "--enforce-eager"]
    assert [t.conditional for t in serve.args] == [False, True, True, True, False]
    assert serve.args[1].value_start == text.index("--tensor-parallel-size")


def test_dup_of_a_conditional_option_is_not_reported(tmp_path) -> None:
    from click.testing import CliRunner

    from linter.cli import main

    script = tmp_path / "serve.sh"
    script.write_text('vllm serve m ${EAGER:+--enforce-eager} --enforce-eager --swap-space=$S\n', encoding="utf-8")
    result = CliRunner().invoke(main, [str(script), "--no-cache"])
    assert "VL205" not in result.output
    assert "VL101" in result.output  # the real launch is still checked: --swap-space=$S names a removed option


def test_a_default_in_an_assignment_is_the_scripts_value() -> None:
    text = 'IMG=${IMG:-vllm/vllm-openai:v0.30.0}\nPORT="${PORT:-8000}"\ndocker run --gpus all "$IMG" --model m --port $PORT\n'
    src, ex = run(text)
    (launch,) = ex.launches
    assert launch.image is not None and launch.image.value == "vllm/vllm-openai:v0.30.0"
    assert launch.image.value_start == text.index("vllm/vllm-openai")
    assert launch.version_hint is not None and launch.version_hint.version == "v0.30.0"
    assert values(launch.args) == ["--model", "m", "--port", "8000"]
    assert launch.args[3].value_start == text.index("8000")
