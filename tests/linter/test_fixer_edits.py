import pytest

from linter.diagnostic import Diagnostic, Edit, Fix
from linter.fixer import apply_edits, choose_fixes
from linter.launch import Span


def test_edits_apply_back_to_front_and_keep_everything_else():
    text = "vllm serve m --max-num-seq 8 --swap-space 4\r\n"
    a = text.index("--max-num-seq")
    edits = [Edit(Span(a, a + len("--max-num-seq")), "--max-num-seqs"), Edit(Span(0, 4), "VLLM")]
    assert apply_edits(text, edits) == "VLLM serve m --max-num-seqs 8 --swap-space 4\r\n"


def test_overlapping_edits_are_refused():
    with pytest.raises(ValueError):
        apply_edits("abcdef", [Edit(Span(0, 3), "x"), Edit(Span(2, 4), "y")])


def _diag(start, end, content, applicability="safe"):
    return Diagnostic("VL201", "m", "f", Span(start, end), fix=Fix("f", (Edit(Span(start, end), content),), applicability))


def test_choose_fixes_skips_overlaps_duplicates_and_unsafe():
    d1, d2, d3, d4 = _diag(0, 3, "x"), _diag(2, 5, "y"), _diag(0, 3, "x"), _diag(6, 7, "z", "unsafe")
    assert choose_fixes([d1, d2, d3, d4], unsafe=False) == [d1]
    assert choose_fixes([d1, d2, d3, d4], unsafe=True) == [d1, d4]
