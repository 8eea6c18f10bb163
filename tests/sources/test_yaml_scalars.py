"""Scalar nodes to tokens: every style, with exact places and honest editability."""

from __future__ import annotations

import pytest

from linter.source_file import SourceFile
from linter.sources.yaml_nodes import ScalarNode, compose_documents, get, walk
from linter.sources.yaml_scalars import scalar_offsets, scalar_token


def _node(text: str, key: str) -> ScalarNode:
    docs, problems = compose_documents(text)
    assert not problems
    node = get(docs[0], key)
    assert isinstance(node, ScalarNode)
    return node


@pytest.mark.parametrize(
    "text, key, raw, value, editable",
    [
        ("a: --max-model-len=8192\n", "a", "--max-model-len=8192", "--max-model-len=8192", True),
        ('a: "--max-model-len 8192"\n', "a", '"--max-model-len 8192"', "--max-model-len 8192", True),
        ("a: '--dtype'\n", "a", "'--dtype'", "--dtype", True),
        ("a: 'it''s'\n", "a", "'it''s'", "it's", False),
        ('a: "x\\ty"\n', "a", '"x\\ty"', "x\ty", False),
        ("a: one\n  two\n", "a", "one\n  two", "one two", False),
        ('a: "one\n  two"\n', "a", '"one\n  two"', "one two", False),
        ("a: >\n  one\n  two\n", "a", ">\n  one\n  two", "one two\n", False),
    ],
)
def test_flow_and_folded_scalars(text, key, raw, value, editable):
    src = SourceFile.from_text("f.yaml", text)
    tok = scalar_token(src, _node(text, key))
    assert tok.value == value
    assert text[tok.span.start : tok.span.end] == raw
    assert tok.editable is editable
    if editable:
        assert text[tok.value_start : tok.value_start + len(value)] == value


def test_literal_block_maps_every_line():
    text = "run: |\n  vllm serve m \\\n    --max-model-len 8192\n\n  echo done\nnext: 1\n"
    node = _node(text, "run")
    omap = scalar_offsets(text, node)
    value = node.value
    i = value.index("--max-model-len")
    at = omap.contiguous(i, i + len("--max-model-len"))
    assert at is not None and text[at : at + 15] == "--max-model-len"
    for s, f, n in omap.segments:
        assert value[s : s + n] == text[f : f + n]
    assert value.endswith("echo done\n")


@pytest.mark.parametrize("header", ["|-", "|+", "|2", "|-2"])
def test_literal_block_chomping_and_indent_indicators(header):
    text = f"cmd: {header}\n    vllm serve m\n    --dtype half\n\nafter: x\n"
    node = _node(text, "cmd")
    omap = scalar_offsets(text, node)
    for s, f, n in omap.segments:
        assert node.value[s : s + n] == text[f : f + n]
    i = node.value.index("--dtype")
    assert text[omap.to_file(i) : omap.to_file(i) + 7] == "--dtype"


def test_crlf_literal_block():
    text = "cmd: |\r\n  vllm serve m\r\n  --dtype half\r\n"
    node = _node(text, "cmd")
    assert node.value == "vllm serve m\n--dtype half\n"
    omap = scalar_offsets(text, node)
    for s, f, n in omap.segments:
        assert node.value[s : s + n] == text[f : f + n]
    assert omap.to_file(node.value.index("\n")) is None  # CRLF is not verbatim "\n"
    tok = scalar_token(text, node)
    assert not tok.editable


def test_double_quoted_with_escapes_keeps_verbatim_pieces():
    text = 'c: "vllm serve m --chat-template \\"x\\" --port 8000"\n'
    node = _node(text, "c")
    omap = scalar_offsets(text, node)
    i = node.value.index("--port")
    at = omap.contiguous(i, i + 6)
    assert at is not None and text[at : at + 6] == "--port"
    assert omap.contiguous(node.value.index('"x"'), node.value.index('"x"') + 3) is None


def test_parse_errors_are_problems_with_positions():
    for bad in ["a: [1, 2\nb: 3\n", "a:\n\tb: 1\n", "a: 'unclosed\n", "a: b\n  c: d\n"]:
        docs, problems = compose_documents(bad)
        assert problems and problems[0].message.startswith("YAML parse error")
        assert 0 <= problems[0].span.start <= len(bad)


def test_alias_bomb_and_unknown_tags_do_not_explode():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9)
    )
    docs, problems = compose_documents(bomb + "z: !!python/object:os.system echo\nw: !Custom {k: v}\n")
    assert not problems
    assert sum(1 for _ in walk(docs[0])) < 200


def test_resume_after_a_broken_document():
    text = "a: [1\n---\nkind: Pod\n"
    docs, problems = compose_documents(text)
    assert problems
    assert any(get(d, "kind") is not None for d in docs)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
import yaml  # noqa: E402

_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff\x85\u2028\u2029") | st.sampled_from(["\n", " ", "'", '"', "\\", "#", ":", "-", "\t"]), max_size=60)


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.sampled_from([None, "'", '"', "|", ">"]), st.sampled_from([20, 80]), st.booleans())
def test_every_segment_is_verbatim_and_tokens_hold_the_invariant(value, style, width, crlf):
    text = yaml.safe_dump({"k": value, "z": 1}, default_style=style, width=width, allow_unicode=True)
    if crlf:
        text = text.replace("\n", "\r\n")
    docs, problems = compose_documents(text)
    if problems:
        return
    node = get(docs[0], "k")
    omap = scalar_offsets(text, node)
    for s, f, n in omap.segments:
        assert node.value[s : s + n] == text[f : f + n]
    tok = scalar_token(text, node)
    assert tok.value == node.value
    if tok.value_start is not None:
        assert text[tok.value_start : tok.value_start + len(tok.value)] == tok.value
    assert 0 <= tok.span.start <= tok.span.end <= len(text)
