import codecs

import pytest

from linter.source_file import DecodeError, SourceFile


def test_utf8_line_columns_and_bytes():
    src = SourceFile.from_bytes("a.sh", "écho\nvllm serve m\n".encode())
    off = src.text.index("serve")
    assert src.line_col(off) == (2, 6)
    assert src.offset(2, 6) == off
    assert src.byte_offset(off) == len("écho\nvllm ".encode())
    assert src.line_text(2) == "vllm serve m"


def test_crlf_line_text_strips_cr():
    src = SourceFile.from_bytes("a.sh", b"a\r\nvllm serve m\r\n")
    assert src.line_text(1) == "a"
    assert src.line_col(src.text.index("vllm")) == (2, 1)


@pytest.mark.parametrize(
    "bom,encoding",
    [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")],
)
def test_bom_round_trip(bom, encoding):
    text = "args: [vllm, serve]\r\n"
    data = bom + text.encode(encoding)
    src = SourceFile.from_bytes("x.yaml", data)
    assert src.text == text
    assert src.encode() == data
    assert src.byte_offset(0) == len(bom)


def test_binary_and_latin1_are_refused_with_reason():
    with pytest.raises(DecodeError, match="NUL"):
        SourceFile.from_bytes("x", b"\x00\x01vllm")
    with pytest.raises(DecodeError, match="not UTF-8"):
        SourceFile.from_bytes("x", "vllm serve café".encode("latin-1"))
