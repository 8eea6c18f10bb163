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
    # two images may reach "$IMG": one word holding one of them (unknown which); both are
    # vLLM's, so it is a launch of a vLLM image, pinned to nothing (the tags differ)
    serve, img = ex.launches
    assert img.image.alternatives == ("vllm/vllm-openai:v0.30.0", "vllm/vllm-openai:nightly")
    assert img.image.is_opaque and img.strong and img.version_hint is None
    assert values(img.args) == ["--model", "m"]
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


def test_an_array_appended_to_in_a_branch_is_read_with_those_elements_conditional(tmp_path) -> None:
    """``ARGS+=(...)`` appends to the array that reaches it (an array never set is empty):
    at the array's own level every time, in a branch or loop conditionally, as the Python
    reader counts a ``cmd.append`` in an ``if``.  The options are checked (a misspelling in
    the array is found), a conditional override is no duplicate, and an array set
    differently in two branches stays unknown."""
    from tests.rules.lint_helpers import codes, lint

    text = (
        'ARGS=(\n'
        '  --max-model-len 4096\n'
        '  --gpu-memory-utilisation 0.9\n'
        ')\n'
        'ARGS+=(--port 8000)\n'
        'if [[ -n "${BIG:-}" ]]; then\n'
        '  ARGS+=(--max-model-len 32768)\n'
        'fi\n'
        'for a in $ADAPTERS; do\n'
        '  ARGS+=(--lora-modules "$a")\n'
        'done\n'
        'EXTRA+=(--enforce-eager)\n'
        'vllm serve Qwen/Qwen3-8B "${ARGS[@]}" "${EXTRA[@]}"\n'
    )
    src, ex = run(text)
    [launch] = ex.launches
    assert [(t.value, t.conditional) for t in launch.args] == [
        ("Qwen/Qwen3-8B", False), ("--max-model-len", False), ("4096", False),
        ("--gpu-memory-utilisation", False), ("0.9", False), ("--port", False), ("8000", False),
        ("--max-model-len", True), ("32768", True), ("--lora-modules", True), ("$a", True),
        ("--enforce-eager", False),
    ]
    assert launch.args[3].value_start == text.index("--gpu-memory-utilisation")
    found = codes(lint(tmp_path, "serve.sh", text, "shell", target="0.33"))
    assert "VL104" in found and "VL205" not in found
    # set one way in each branch, then appended to: which array reaches is unknown
    split = (
        'if [[ -n "$TP" ]]; then ARGS=(--tensor-parallel-size "$TP"); else ARGS=(--enforce-eager); fi\n'
        'ARGS+=(--gpu-memory-utilisation 0.9)\n'
        'vllm serve Qwen/Qwen3-8B "${ARGS[@]}"\n'
    )
    _, ex = run(split)
    [launch] = ex.launches
    assert [t.value for t in launch.args][:1] == ["Qwen/Qwen3-8B"] and launch.args[1].is_opaque


CALLS = """\
#!/usr/bin/env bash
set -euo pipefail
NVFP4=nvidia/DeepSeek-R1-FP4

run_serve() {
    local label="$1"; shift
    local model="$1"; shift
    echo "==== Launching $label ===="
    nohup vllm serve "$model" --port 8000 "$@" > "/tmp/serve_${label}.log" 2>&1 &
}

never_called() {
    vllm serve "$1" --max-num-seq 4 "$@"
}

run_serve "E_nvfp4" "$NVFP4" \\
  --kv-cache-dtype fp8 --max-num-seq 64
run_serve base Qwen/Qwen3-8B --gpu-memory-utilisation 0.9
for tp in 2 4; do
  run_serve "tp$tp" "$NVFP4" --tensor-parallel-size "$tp"
done
shift_two() { shift 2; vllm serve Qwen/Qwen3-0.6B "$@"; }
shift_two a b --enforce-eager
"""


def test_a_function_that_starts_vllm_with_its_arguments_is_read_through_each_call(tmp_path) -> None:
    """``run_serve LABEL MODEL OPTIONS...`` whose body runs ``vllm serve "$model" "$@"``
    after ``local label="$1"; shift``: each call is a launch with that call's words as the
    function's arguments, so the options are checked (and fixed) where they are written, at
    the call.  The body read on its own (``"$@"`` unknown) gives way to those readings; a
    function that is never called is still read on its own."""
    from tests.rules.lint_helpers import codes, lint

    src, ex = run(CALLS)
    got = [(values(launch.args)[0], values(launch.args)[1:]) for launch in ex.launches]
    assert got == [
        ("$1", ["--max-num-seq", "4", "$@"]),
        ("nvidia/DeepSeek-R1-FP4", ["--port", "8000", "--kv-cache-dtype", "fp8", "--max-num-seq", "64"]),
        ("Qwen/Qwen3-8B", ["--port", "8000", "--gpu-memory-utilisation", "0.9"]),
        ("nvidia/DeepSeek-R1-FP4", ["--port", "8000", "--tensor-parallel-size", "$tp"]),
        ("Qwen/Qwen3-0.6B", ["--enforce-eager"]),
    ]
    call_site = ex.launches[1].args[5]
    assert call_site.value_start == CALLS.index("--max-num-seq 64")  # the call's own word
    assert all(any("read through the call of `run_serve`" in n for n in launch.notes) for launch in ex.launches[1:4])
    result = lint(tmp_path, "bench.sh", CALLS, "shell", target="0.33")
    found = sorted((d.code, CALLS.count("\n", 0, d.span.start) + 1) for d in result.diagnostics)
    assert found == [("VL104", 18), ("VL201", 13), ("VL201", 17)]  # the calls' lines, and the uncalled body's


def test_reading_through_calls_is_bounded() -> None:
    """A function calling itself is read through once; a script of thousands of calls reads
    the first :data:`linter.sources.shell._MAX_CALLS_READ` through the function and stays
    within its work budget (no "too large to analyse")."""
    from linter.sources.shell import _MAX_CALLS_READ

    src, ex = run('f() { vllm serve "$1" --port 1; f "$1"; }\nf Qwen/Qwen3-8B\n')
    assert [values(launch.args) for launch in ex.launches] == [["Qwen/Qwen3-8B", "--port", "1"]]
    many = 'serve() {\n  local m=$1; shift\n  vllm serve "$m" "$@"\n}\n' + "".join(f"serve model-{i} --max-model-len {i}\n" for i in range(1000))
    src, ex = run(many)
    assert len(ex.launches) == _MAX_CALLS_READ and not ex.problems
    assert values(ex.launches[-1].args) == [f"model-{_MAX_CALLS_READ - 1}", "--max-model-len", str(_MAX_CALLS_READ - 1)]


def test_a_function_that_starts_an_lmcache_server_is_read_through_its_call() -> None:
    """The LMCache server beside a hybrid model is often started by a helper taking the port
    first: ``start_cache 65432 --chunk-size 256 ...``.  Its options (which the LMCache rules
    compare with vLLM's) are those of the call, as for a function that runs ``vllm serve``."""
    text = (
        "#!/bin/bash\nset -euo pipefail\n"
        'start_cache() {\n  local port=$1\n  shift\n  lmcache server --port "$port" "$@" &\n}\n'
        "start_cache 65432 --chunk-size 256 --l1-size-gb 20 --eviction-policy LRU\n"
        "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --enable-prefix-caching \\\n"
        """  --kv-transfer-config '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'\n"""
    )
    src, ex = run(text)
    assert [(launch.entrypoint, values(launch.args)) for launch in ex.launches] == [
        ("lmcache server", ["--port", "65432", "--chunk-size", "256", "--l1-size-gb", "20", "--eviction-policy", "LRU"]),
        ("vllm serve", ["Qwen/Qwen3-Next-80B-A3B-Instruct", "--enable-prefix-caching", "--kv-transfer-config",
                        '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}']),
    ]
    assert ex.launches[0].args[3].value_start == text.index("256")  # the call's own word


def test_a_function_read_through_its_calls_writes_its_heredoc_files_once() -> None:
    """The body's heredoc (a ``--config`` file it writes) and pins are the body's own, recorded
    once, however many calls read the body again."""
    text = (
        'serve() {\n  local model=$1; shift\n  cat > /tmp/cfg.yaml <<EOF\nmax-num-seqs: 8\nEOF\n'
        '  pip install vllm==0.30.0\n  vllm serve "$model" --config /tmp/cfg.yaml "$@"\n}\n'
        'serve Qwen/Qwen3-8B --port 1\nserve Qwen/Qwen3-0.6B --port 2\n'
    )
    src, ex = run(text)
    assert [values(launch.args) for launch in ex.launches] == [
        ["Qwen/Qwen3-8B", "--config", "/tmp/cfg.yaml", "--port", "1"],
        ["Qwen/Qwen3-0.6B", "--config", "/tmp/cfg.yaml", "--port", "2"],
    ]
    assert len(ex.written) == 1 and len(ex.pins) == 1


def test_a_default_in_an_assignment_is_the_scripts_value() -> None:
    text = 'IMG=${IMG:-vllm/vllm-openai:v0.30.0}\nPORT="${PORT:-8000}"\ndocker run --gpus all "$IMG" --model m --port $PORT\n'
    src, ex = run(text)
    (launch,) = ex.launches
    assert launch.image is not None and launch.image.value == "vllm/vllm-openai:v0.30.0"
    assert launch.image.value_start == text.index("vllm/vllm-openai")
    assert launch.version_hint is not None and launch.version_hint.version == "v0.30.0"
    assert values(launch.args) == ["--model", "m", "--port", "8000"]
    assert launch.args[3].value_start == text.index("8000")


def test_one_word_set_per_branch_is_one_of_its_values() -> None:
    text = (
        "case \"$(uname -m)\" in\r\n"
        "  aarch64) IMAGE='vllm/vllm-openai:v0.31.0-aarch64' ;;\r\n"
        "  *) IMAGE=\"docker.io/vllm/vllm-openai:v0.31.0\" ;;\r\n"
        "esac\r\n"
        "if [ -n \"$SMALL\" ]; then MODEL=Qwen/Qwen3-0.6B; else MODEL=Qwen/Qwen3-8B; fi\r\n"
        "if [ -n \"$CPU\" ]; then RUNTIME=ghcr.io/acme/llm-cpu:1; else RUNTIME=vllm/vllm-openai:v0.31.0; fi\r\n"
        "docker run --rm --gpus all -p 8000:8000 \"$IMAGE\" --model \"$MODEL\" --max-num-seq 32\r\n"
        "docker run --rm $RUNTIME --model m --swap-space 4\r\n"
        "vllm serve $MODEL --max-model-len 4096\r\n"
    )
    src, ex = run(text)
    for launch in ex.launches:
        check_launch(src, launch)
    img, serve = ex.launches  # a runtime image that may be another one's is no launch
    assert img.image.alternatives == ("vllm/vllm-openai:v0.31.0-aarch64", "docker.io/vllm/vllm-openai:v0.31.0")
    assert img.strong and text[img.image.span.start : img.image.span.end] == '"$IMAGE"'
    assert img.version_hint is None  # v0.31.0-aarch64 and v0.31.0 are not the same tag
    model = img.args[1]
    assert model.alternatives == ("Qwen/Qwen3-0.6B", "Qwen/Qwen3-8B") and model.is_opaque and not model.conditional
    assert serve.args[0].alternatives == ("Qwen/Qwen3-0.6B", "Qwen/Qwen3-8B")  # unquoted: still one word
    assert values(serve.args[1:]) == ["--max-model-len", "4096"]


def test_branch_images_that_agree_on_the_release_pin_it() -> None:
    text = (
        "if command -v rocm-smi >/dev/null; then IMG=vllm/vllm-openai-rocm:v0.30.1\n"
        "else IMG=vllm/vllm-openai:v0.30.1; fi\n"
        "docker run \"$IMG\" Qwen/Qwen3-8B --enable-chunked\n"
    )
    src, ex = run(text)
    (launch,) = ex.launches
    assert launch.image.alternatives == ("vllm/vllm-openai-rocm:v0.30.1", "vllm/vllm-openai:v0.30.1")
    hint = launch.version_hint
    assert hint.version == "v0.30.1" and not hint.editable and text[hint.span.start : hint.span.end] == '"$IMG"'


SET_POSITIONAL = """\
#!/bin/bash
set -euo pipefail
set -- serve "$MODEL" \\
  --port 8000 \\
  --max-model-len "$MAX_LEN"
if [ "${EAGER:-0}" = 1 ]; then
  set -- "$@" --enforce-eager
fi
[ -n "${API_KEY:-}" ] && set -- "$@" --api-key "$API_KEY"
exec vllm "$@"
"""


def test_set_dash_dash_builds_the_argv_that_a_later_dollar_at_gives() -> None:
    """``set -- serve "$MODEL" --port 8000``, then ``set -- "$@" --flag`` under conditions,
    then ``exec vllm "$@"``: the launch is ``vllm serve`` with those words, each where it is
    written (editable there), the ones a branch or ``&&`` adds conditional.  (Before, ``vllm
    "$@"`` was not a launch: no subcommand was seen.)  ``set -e`` / ``set -o`` are not argv."""
    src, ex = run(SET_POSITIONAL)
    (launch,) = ex.launches
    assert launch.entrypoint == "vllm serve"
    assert values(launch.args) == ["$MODEL", "--port", "8000", "--max-model-len", "$MAX_LEN",
                                   "--enforce-eager", "--api-key", "$API_KEY"]
    assert [t.conditional for t in launch.args] == [False] * 5 + [True] * 3
    assert launch.args[1].value_start == SET_POSITIONAL.index("--port")
    assert launch.args[5].value_start == SET_POSITIONAL.index("--enforce-eager")
    opts, parsed = options(launch)
    assert ("--max-model-len", ["$MAX_LEN"]) in opts and ("--enforce-eager", []) in opts
