"""Splitting one argv element into two, in each source form's own syntax."""

import yaml

from linter.edits import split_element
from linter.fixer import apply_edits
from linter.launch import Launch, Span, Token
from linter.source_file import SourceFile


def _split(text: str, raw: str, value: str, kind: str, parts):
    start = text.index(raw)
    quote = 1 if raw[0] in "'\"" else 0
    tok = Token(value, Span(start, start + len(raw)), start + quote)
    launch = Launch("f", kind, Span(0, len(text)))
    edit = split_element(SourceFile("f", text), launch, tok, parts)
    return None if edit is None else apply_edits(text, [edit])


def test_block_sequence_item_keeps_indentation_quoting_and_crlf():
    text = 'args:\r\n  - "--model"\r\n  - "--max-model-len 8192"\r\n  - --port\r\n'
    out = _split(text, '"--max-model-len 8192"', "--max-model-len 8192", "k8s", ("--max-model-len", "8192"))
    assert out == 'args:\r\n  - "--model"\r\n  - "--max-model-len"\r\n  - "8192"\r\n  - --port\r\n'
    assert yaml.safe_load(out)["args"] == ["--model", "--max-model-len", "8192", "--port"]


def test_plain_block_item_quotes_a_number_so_it_stays_a_string():
    text = "args:\n- --max-model-len 8192\n"
    out = _split(text, "--max-model-len 8192", "--max-model-len 8192", "k8s", ("--max-model-len", "8192"))
    assert yaml.safe_load(out)["args"] == ["--max-model-len", "8192"]
    assert out == 'args:\n- --max-model-len\n- "8192"\n'


def test_flow_list_and_json_exec_form():
    text = 'command: ["m", "--max-model-len 8192"]\n'
    out = _split(text, '"--max-model-len 8192"', "--max-model-len 8192", "compose", ("--max-model-len", "8192"))
    assert out == 'command: ["m", "--max-model-len", "8192"]\n'
    text = 'CMD ["m", "--config=/etc/v.yaml"]\n'
    out = _split(text, '"--config=/etc/v.yaml"', "--config=/etc/v.yaml", "dockerfile", ("--config", "/etc/v.yaml"))
    assert out == 'CMD ["m", "--config", "/etc/v.yaml"]\n'


def test_shell_word_and_refusals():
    text = "vllm serve m '--max-model-len 8192'\n"
    assert _split(text, "'--max-model-len 8192'", "--max-model-len 8192", "shell", ("--max-model-len", "8192")) == (
        "vllm serve m '--max-model-len' '8192'\n"
    )
    # a part that would need escaping in its quoting: no edit
    text = 'args: ["--chat-template {\\"a\\"}"]\n'
    assert _split(text, '"--chat-template {\\"a\\"}"', '--chat-template {"a"}', "k8s", ("--chat-template", '{"a"}')) is None
    # a trailing comment stays at the end of the item's (now second) line
    text = "args:\n  - --max-model-len 8192 # long\n"
    out = _split(text, "--max-model-len 8192", "--max-model-len 8192", "k8s", ("--max-model-len", "8192"))
    assert out == 'args:\n  - --max-model-len\n  - "8192" # long\n'
    # something other than a comment after the item (a flow mapping key?): no edit
    text = "args:\n  - --max-model-len 8192, x\n"
    assert _split(text, "--max-model-len 8192", "--max-model-len 8192", "k8s", ("--max-model-len", "8192")) is None
