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


def test_a_big_text_answers_its_first_positions_without_the_line_table():
    """A multi-megabyte manifest with a few diagnostics: line_col counts line ends up to each
    offset for its first questions (no table of 100,000 line starts), and says what the
    table says, at every offset, line ends of both kinds, the text's ends included."""
    import random

    from linter.source_file import _DIRECT_ASKS, SourceFile

    rng = random.Random(7)
    text = "".join(rng.choice(["spec:\n", "  - --max-num-seqs\r\n", "  - \"64\"\n", "# é\n", "x"]) for _ in range(120_000))
    assert len(text) > 1 << 18
    direct, table = SourceFile("k.yaml", text), SourceFile("k.yaml", text)
    assert table.line_starts
    offsets = [0, len(text), len(text) - 1, text.index("\r"), text.index("\n") + 1] + [rng.randrange(len(text)) for _ in range(20)]
    for i, offset in enumerate(offsets):
        assert direct.line_col(offset) == table.line_col(offset), offset
        assert bool(direct._line_starts) == (i >= _DIRECT_ASKS)  # the table is made once the questions are many
    assert direct == table  # the count of questions is no part of the file


# ---------------------------------------------------------------------------
# read_file


@pytest.mark.parametrize("size", [0, 1, 4096, (1 << 20) - 1, 1 << 20, 3 * (1 << 20) + 7])
def test_read_file_reads_a_file_whole_and_a_small_one_in_one_read(tmp_path, monkeypatch, size):
    import os

    from linter import source_file

    data = bytes(range(256)) * (size // 256) + b"v" * (size % 256)
    path = tmp_path / "big.yaml"
    path.write_bytes(data)
    reads: list[int] = []
    real = os.read
    monkeypatch.setattr(source_file.os, "read", lambda fd, n: reads.append(n) or real(fd, n))
    assert source_file.read_file(str(path)) == data
    if 0 < size < 1 << 20:
        assert reads == [size + 1]  # short of what it asked: the end, seen without a second read
    assert source_file.read_file(str(path), limit=size // 2) == data[: size // 2 + 1]


def test_read_file_reads_on_when_the_file_grew_after_its_size_was_taken(tmp_path, monkeypatch):
    """The size is only the first read's length: a file that grew since its stat (a log
    appended to) is read to its end, up to the limit."""
    import os

    from linter import source_file

    path = tmp_path / "serve.sh"
    path.write_bytes(b"vllm serve m --port 8000\n" * 40)
    real = os.fstat

    class Shrunk:  # what fstat said before the file grew
        def __init__(self, st):
            self.st_mode, self.st_size = st.st_mode, 25

    monkeypatch.setattr(source_file.os, "fstat", lambda fd: Shrunk(real(fd)))
    assert source_file.read_file(str(path)) == path.read_bytes()


def test_read_file_refuses_a_pipe_without_waiting(tmp_path):
    import os

    from linter.source_file import NotRegularFile, read_file

    fifo = tmp_path / "serve.sh"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile):
        read_file(str(fifo))


def test_read_pieces_reads_what_read_file_reads_a_piece_at_a_time(tmp_path):
    import os

    from linter.source_file import NotRegularFile, read_file, read_pieces

    for size in (0, 1, 100, 65535, 65536, 65537, 3 * 65536 + 11):
        path = tmp_path / f"f{size}.yaml"
        path.write_bytes(os.urandom(size))
        pieces = list(read_pieces(str(path)))
        assert b"".join(pieces) == read_file(str(path)) and all(len(p) <= 65536 for p in pieces)
        assert b"".join(read_pieces(str(path), limit=size // 3)) == read_file(str(path), limit=size // 3)
    fifo = tmp_path / "fifo.sh"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile):
        next(read_pieces(str(fifo)))
    # stopped early: the descriptor is closed with the iterator
    big = tmp_path / "f196619.yaml"
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    it = read_pieces(str(big))
    next(it)
    it.close()
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before


def test_read_small_reads_a_small_file_whole_in_one_read_and_leaves_the_rest_to_read_pieces(tmp_path, monkeypatch):
    import os

    from linter import source_file
    from linter.source_file import NotRegularFile, read_file, read_small

    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    for size, whole in ((1, True), (100, True), (65535, True), (0, False), (65536, False), (65537, False)):
        path = tmp_path / f"s{size}.sh"
        path.write_bytes(os.urandom(size))
        got = read_small(str(path))
        assert (got == read_file(str(path))) if whole else got is None, size
    monkeypatch.setattr(source_file, "MAX_FILE_BYTES", 50)  # over the limit: read_pieces stops there
    assert read_small(str(tmp_path / "s100.sh")) is None and read_small(str(tmp_path / "s1.sh")) is not None
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile):
        read_small(str(fifo))
    with pytest.raises(FileNotFoundError):
        read_small(str(tmp_path / "missing.sh"))
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before  # every descriptor closed
