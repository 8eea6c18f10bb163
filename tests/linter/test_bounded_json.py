"""bounded_json: the depth bound is exact, fast or not, and refuses what would overflow the decoder."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linter import bounded_json
from linter.bounded_json import TooDeep, deeper_than, depth, loads

# JSON-ish text: brackets, strings with escapes (quotes and brackets inside them do not count),
# and the odd unpaired or unterminated piece
_PIECES = st.sampled_from(['[', ']', '{', '}', ',', '1', '"a"', '"[{"', '"\\"]"', '"\\\\"', '"x\\\\\\"}"', '"', '\\', ' ', ':'])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=60), st.integers(min_value=0, max_value=8))
def test_deeper_than_is_the_exact_count(pieces, limit):
    text = "".join(pieces)
    assert deeper_than(text, limit) == (depth(text) > limit)


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": [1, {"b": [2]}]}', 4),
        ('["[[[", "}}}"]', 1),  # brackets inside strings
        ('["\\"[", ["x"]]', 2),  # an escaped quote does not end the string
        ('[[[]], []]', 3),
        ("[]{}", 1),
    ],
)
def test_depth(text, expected):
    assert depth(text) == expected
    assert not deeper_than(text, expected) and deeper_than(text, expected - 1)


def test_a_cache_pack_sized_document():
    """The shape of the cache pack (an index of thousands of rows, entries six deep) decodes."""
    pack = {"v": 2, "files": {f"deploy/app{i}/serve.sh": [120, 1, 2, 3, 4, "d" * 16, i % 2 == 0] for i in range(5000)},
            "entries": {f"k{i}": ["p", {"l": [[1, 2, "x]"]]}] for i in range(2000)}}
    text = json.dumps(pack)
    assert depth(text) == 6 and not deeper_than(text, 6) and deeper_than(text, 5)
    assert loads(text, max_depth=16) == pack


def test_too_deep_is_refused_before_decoding():
    with pytest.raises(TooDeep):
        loads("[" * 1000 + "]" * 1000)
    with pytest.raises(TooDeep):
        loads('{"a":' * 20 + "1" + "}" * 20, max_depth=16)
    assert loads('{"a":' * 16 + "1" + "}" * 16, max_depth=16)


def test_malformed_json_is_a_value_error_not_too_deep():
    with pytest.raises(ValueError) as info:
        loads('[1, 2}')
    assert not isinstance(info.value, TooDeep)
    assert bounded_json.loads(b'{"model": "m"}') == {"model": "m"}
