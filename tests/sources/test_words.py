"""Shared command words: shell names, ``sh -c``, word splitting, kept env, nearest pin; runs, not positions."""

from __future__ import annotations

import tracemalloc

from linter.launch import Span, Token, VersionHint
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import compose, dockerfile, shell
from linter.sources.placed import PlacedText
from linter.sources.words import SHELLS, kept_env, nearest_pin, shell_script_index, split_words
from tests.sources.token_checks import check_launch, values


def toks(*vals: str) -> list[Token]:
    out, at = [], 0
    for v in vals:
        out.append(Token(v, Span(at, at + len(v)), at))
        at += len(v) + 1
    return out


def test_shell_script_index_forms() -> None:
    assert shell_script_index(toks("sh", "-c", "vllm serve m")) == 2
    assert shell_script_index(toks("/bin/bash", "-lc", "x")) == 2
    assert shell_script_index(toks("env", "bash", "-ec", "x")) == 3
    assert shell_script_index(toks("bash", "-o", "pipefail", "-c", "x")) == 4
    assert shell_script_index(toks("bash", "--login", "-c", "--", "x")) == 4
    assert shell_script_index(toks("bash", "script.sh")) is None
    assert shell_script_index(toks("bash", "-c")) is None
    assert shell_script_index(toks("python3", "-c", "x")) is None
    assert shell_script_index(toks("env", "bash", "-c", "x"), prefixes=False) is None
    assert {"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"} <= SHELLS


def test_kept_env_is_one_rule() -> None:
    assert kept_env("VLLM_USE_V1") and kept_env("LMCACHE_CHUNK_SIZE")
    assert not kept_env("HF_TOKEN") and not kept_env("vllm_x")


def test_nearest_pin_prefers_the_last_before() -> None:
    a = VersionHint("0.30.0", Span(10, 16), "pip-pin")
    b = VersionHint("0.31.0", Span(50, 56), "pip-pin")
    assert nearest_pin(60, [a, b]) is b
    assert nearest_pin(20, [b, a]) is a
    assert nearest_pin(5, [b, a]) is a  # none before: the first in the file
    assert nearest_pin(5, []) is None


def test_split_words_quotes_and_placement() -> None:
    text = 'cmd: vllm serve "a b" --x=\'1 2\' --y \\$z $EXTRA\n'
    value = text[5:-1]
    omap = OffsetMap.identity(5, len(value))
    words = split_words(text, value, omap)
    assert values(words) == ["vllm", "serve", "a b", "--x=1 2", "--y", "$z", "$EXTRA"]
    assert words[2].value_start == text.index("a b")  # one verbatim stretch: editable
    assert words[3].value_start is None  # quotes inside the word
    assert text[words[3].span.start : words[3].span.end] == "--x='1 2'"
    assert words[6].splat and words[6].opaque == ((0, 6),)


def test_compose_uses_the_shared_splitter() -> None:
    assert not hasattr(compose, "split_words") or compose.split_words is split_words


def test_placed_text_slice_copy_and_compose() -> None:
    w = PlacedText(start=3, end=12)
    w.lit("abc", 3)
    w.lit("X", None)
    w.unknown("$V", 8)
    c = w.copy()
    c.lit("zz", 20)
    assert w.value == "abcX$V" and c.value == "abcX$Vzz"
    s = w.slice(1, 6)
    assert s.value == "bcX$V" and s.opaque == [(3, 5)] and (s.start, s.end) == (4, 10)
    assert s.omap.segments == [(0, 4, 2), (3, 8, 2)]
    # script offsets 0.. placed in a file where the script is split in two runs
    outer = OffsetMap([(0, 100, 5), (5, 200, 20)])
    f = w.placed_in(outer, 0, 0)
    assert f.omap.segments == [(0, 103, 2), (2, 200, 1), (4, 203, 2)]


SCRIPT_CRLF = 'MODEL="Qwen/Qwen3-8B"\r\n# é à\r\nvllm serve "$MODEL" \\\r\n  --max-model-len 8192 \\\r\n  --swap-space=4 --tokenizer "ü/tok"\r\n'


def test_crlf_and_multibyte_placement() -> None:
    src = SourceFile.from_text("s.sh", SCRIPT_CRLF)
    (launch,) = shell.extract(src).launches
    check_launch(src, launch)
    assert values(launch.args) == ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--swap-space=4", "--tokenizer", "ü/tok"]
    for tok in launch.args:
        assert tok.value_start is not None
        assert src.text[tok.value_start : tok.value_start + len(tok.value)] == tok.value


SCRIPT_RUNS = (
    "#!/bin/sh\n# 服务器 \U0001F680\U0001F680 — démarrage ✓\n"
    'vllm serve "ü/模型" --served-model-name "名前—\U0001F916x" \\\n  --max-model-len 8192 --tokenizer é/à\n'
)


def test_runs_of_multibyte_characters_place_every_word() -> None:
    """Adjacent multibyte characters of different widths (2, 3 and 4 bytes) in one run, and
    several runs in a word: every value stands at its own characters."""
    src = SourceFile.from_text("s.sh", SCRIPT_RUNS)
    (launch,) = shell.extract(src).launches
    check_launch(src, launch)
    assert values(launch.args) == ["ü/模型", "--served-model-name", "名前—\U0001F916x", "--max-model-len", "8192", "--tokenizer", "é/à"]
    for tok in launch.args:
        assert src.text[tok.value_start : tok.value_start + len(tok.value)] == tok.value


def test_masked_stretch_keeps_exactly_the_ranges() -> None:
    """Overlapping, touching, empty and unordered ranges: each character in a range is kept,
    every other one blanked but line ends."""
    import random

    from linter.sources import masked_stretch

    rnd = random.Random(5)
    for _ in range(3000):
        text = "".join(rnd.choice("ab \n\ré\U0001F680") for _ in range(rnd.randint(1, 30)))
        ranges = []
        for _ in range(rnd.randint(1, 4)):
            a = rnd.randint(0, len(text))
            ranges.append((a, rnd.randint(a, len(text))))
        base, out = masked_stretch(text, ranges)
        assert base == min(a for a, _ in ranges) and len(out) == max(b for _, b in ranges) - base
        for k, ch in enumerate(out):
            kept = any(a <= base + k < b for a, b in ranges)
            assert ch == (text[base + k] if kept or text[base + k] in "\r\n" else " ")


def test_a_huge_word_costs_runs_not_positions() -> None:
    big = "x" * 1_000_000
    src = SourceFile.from_text("s.sh", f'vllm serve m --chat-template "{big}" --port 8000\n')
    tracemalloc.start()
    ex = shell.extract(src)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    (launch,) = ex.launches
    assert launch.args[2].value == big and launch.args[2].value_start == src.text.index(big)
    # a position list would cost tens of bytes per character; runs cost a few copies of the text
    assert peak < 12 * len(big), peak


def test_dockerfile_values_keep_their_places() -> None:
    text = (
        "ARG BASE=vllm/vllm-openai:v0.30.0\r\n"
        "FROM ${BASE}\r\n"
        "ENV VLLM_LOGGING_LEVEL=DEBUG\r\n"
        "RUN pip install vllm==0.31.0 && \\\r\n"
        "    # a comment inside the continuation\r\n"
        "    vllm serve m --max-model-len 4096\r\n"
        'CMD ["--model", "a\\u00e9b", "--port", "8000"]\r\n'
    )
    src = SourceFile.from_text("Dockerfile", text)
    ex = dockerfile.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    run_launch = next(l for l in ex.launches if l.entrypoint == "vllm serve")
    assert values(run_launch.args) == ["m", "--max-model-len", "4096"]
    assert all(t.value_start is not None for t in run_launch.args)
    cmd = next(l for l in ex.launches if l.entrypoint == "image")
    assert values(cmd.args) == ["--model", "aéb", "--port", "8000"]
    assert cmd.args[1].value_start is None  # an escape: not verbatim
    assert cmd.args[0].value_start == text.index("--model")
