"""PlacedText: one decoded string with its verbatim runs, unknown parts and splat mark."""

from linter.source_file import SourceFile
from linter.sources.placed import PlacedText

SCRIPT = 'vllm serve m --max-model-len "$LEN"x --served-model-name \'a\'\\ b\n'


def _src():
    return SourceFile.from_bytes("serve.sh", SCRIPT.encode())


def test_verbatim_word_is_editable():
    src = _src()
    start = SCRIPT.index("--max-model-len")
    w = PlacedText(start=start, end=start + len("--max-model-len"))
    w.lit("--max-", start)
    w.lit("model-len", start + 6)
    tok = w.token(src)
    assert tok.value == "--max-model-len"
    assert tok.value_start == start and tok.editable
    assert w.omap.segments == [(0, start, 15)]  # one run, not one entry per character


def test_unknown_part_and_quote_removal():
    src = _src()
    q = SCRIPT.index('"$LEN"')
    w = PlacedText(start=q, end=q + 7)
    w.unknown("$LEN", q + 1)
    w.lit("x", q + 6)
    tok = w.token(src)
    assert tok.value == "$LENx"
    assert tok.opaque == ((0, 4),)
    assert tok.value_start is None  # the quote breaks the run: not editable as a whole
    span, exact = w.sub_span(4, 5, src)
    assert exact and SCRIPT[span.start:span.end] == "x"


def test_escaped_character_has_no_place():
    src = _src()
    a = SCRIPT.index("'a'")
    w = PlacedText(start=a, end=a + 7)
    w.lit("a", a + 1)
    w.put(" ", None)  # from the backslash escape
    w.lit("b", a + 6)
    assert w.value == "a b"
    assert w.token(src).value_start is None
    assert w.sub_span(1, 2, src) == (w.sub_span(0, 3, src)[0], False)


def test_extend_shifts_runs_and_unknowns():
    a = PlacedText(start=0, end=4)
    a.lit("ab", 0)
    b = PlacedText(start=10, end=20, splat=True)
    b.unknown("$X", 10)
    b.lit("c", 12)
    a.extend(b)
    assert a.value == "ab$Xc" and len(a) == 5
    assert a.opaque == [(2, 4)] and a.splat
    assert a.omap.segments == [(0, 0, 2), (2, 10, 3)]


def test_empty_value_writes_at_its_anchor():
    src = SourceFile.from_bytes("s.sh", b'x ""\n')
    w = PlacedText(start=2, end=4, anchor=3)
    assert w.token(src).value_start == 3
