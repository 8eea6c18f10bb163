"""A file's bytes, read the one safe way, and its text, decoded once, with conversions between
offsets, lines and bytes."""

from __future__ import annotations

import bisect
import codecs
import errno
import os
import stat
from itertools import accumulate
from typing import TYPE_CHECKING

from linter.records import Record

if TYPE_CHECKING:
    from collections.abc import Iterator

BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _max_file_bytes() -> int:
    """10 MiB, or ``VLLM_LINT_MAX_FILE_BYTES``: bigger files are reported (VL003) and not read."""
    try:
        return max(0, int(os.environ.get("VLLM_LINT_MAX_FILE_BYTES", "")))
    except ValueError:
        return 10 * 1024 * 1024


MAX_FILE_BYTES = _max_file_bytes()


class NotRegularFile(OSError):
    """The path is not (or no longer) a regular file: a pipe, device or folder swapped in."""


def read_file(path: str, limit: int | None = None, *, follow: bool = True, dir_fd: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit + 1`` of them.

    Opened without blocking and checked on the open descriptor, so a named
    pipe or device put in the file's place after discovery is refused rather
    than read (a read of a pipe would wait forever, of ``/dev/zero`` would
    never end).  ``follow=False``: a symbolic link is refused too (``ELOOP``);
    ``dir_fd``: ``path`` is relative to that open folder.  Raises
    :class:`OSError` (:class:`NotRegularFile` for those).
    """
    return b"".join(read_pieces(path, 1 << 20, limit, follow=follow, dir_fd=dir_fd))


def read_pieces(path: str, piece: int = 64 << 10, limit: int | None = None, *, follow: bool = True, dir_fd: int | None = None) -> Iterator[bytes]:
    """The bytes of the regular file ``path`` as :func:`read_file` reads them (at most ``limit
    + 1``), in pieces of at most ``piece`` bytes, for a reader that keeps none of them (a
    screening): the memory of a piece this small is reused for the next, where a file of
    megabytes read whole takes fresh pages, a page fault each 4 KB, for its bytes and again
    for each copy (the screener of the bench monorepo spent half its time on the faults of
    its five 2 MB files).  The file is opened (and refused) at the first piece; close the
    iterator when stopping early."""
    limit = MAX_FILE_BYTES if limit is None else limit
    fd, st = _open_regular(path, follow, dir_fd)
    try:
        left = limit + 1
        # the first read asks for the size the file has (and one byte more, to see its end): a
        # read of a whole piece would allocate that much for each small file; a file that grows
        # meanwhile is read on, up to ``limit + 1``
        want = st.st_size + 1 if 0 < st.st_size < piece else piece
        while left > 0:
            ask = min(left, want)
            chunk = os.read(fd, ask)
            want = piece
            if not chunk:
                break
            left -= len(chunk)
            yield chunk
            if len(chunk) < ask:
                break  # a regular file reads short only at its end: no read more to see it (one system call a file)
    finally:
        os.close(fd)


def read_small(path: str, piece: int = 64 << 10) -> bytes | None:
    """The bytes of the regular file ``path`` when it holds fewer than ``piece`` and at most
    :data:`MAX_FILE_BYTES` (most files), in one read, as :func:`read_pieces` reads them; else
    None: read it in pieces (a file that grew meanwhile too).  Raises as :func:`read_pieces`.
    (A screening of thousands of files reads each without a generator around it.)"""
    fd, st = _open_regular(path, True, None)
    try:
        if not 0 < st.st_size < min(piece, MAX_FILE_BYTES + 1):
            return None  # (an empty size may still read bytes: /proc, a FUSE file)
        data = os.read(fd, st.st_size + 1)
        return data if len(data) <= st.st_size else None
    finally:
        os.close(fd)


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


def _open_regular(path: str, follow: bool, dir_fd: int | None) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file ``path``, opened without blocking (and, unless ``follow``,
    not through a symbolic link), and its stat; raises OSError, :class:`NotRegularFile` when it
    is a pipe, device or folder (closed then)."""
    fd = os.open(path, _READ_FLAGS if follow else _READ_FLAGS | getattr(os, "O_NOFOLLOW", 0), dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd, st


class DecodeError(ValueError):
    """The bytes are not text in an encoding vllm-lint can round-trip."""


def decode(data: bytes) -> tuple[str, str, bytes]:
    """Return ``(text, encoding, bom)``; raise :class:`DecodeError` for binary data.

    UTF-8 is tried first, then a BOM-announced UTF-16/32.  Anything else (NUL
    bytes without a BOM, Latin-1 bytes that are not UTF-8) is refused: guessing
    an encoding and writing the file back could corrupt it.
    """
    for bom, encoding in BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(encoding), encoding, bom
            except UnicodeDecodeError as exc:
                raise DecodeError(f"invalid {encoding} after its byte order mark: {exc.reason}") from None
    if b"\x00" in data:
        head = data[:4096]
        if len(head) >= 4 and (head[1::2].count(0) * 4 >= len(head) * 2 - 4 or head[0::2].count(0) * 4 >= len(head) * 2 - 4):
            raise DecodeError("NUL bytes: UTF-16 or UTF-32 text without a byte order mark? vllm-lint reads them only with one")
        raise DecodeError("binary file (NUL bytes)")
    try:
        return data.decode("utf-8"), "utf-8", b""
    except UnicodeDecodeError as exc:
        raise DecodeError(
            f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "vllm-lint reads UTF-8 and BOM-marked UTF-16/32 files"
        ) from None


_DIRECT_TEXT = 1 << 18  # characters: a text over this is asked about its first offsets directly (SourceFile.line_col)
_DIRECT_ASKS = 8


class SourceFile(Record):
    """The decoded text of one file and the facts needed to map and rewrite it."""

    __slots__ = ("path", "text", "encoding", "bom", "_line_starts", "_asked")
    _shown = ("path", "text", "encoding", "bom")
    _compare = ("path", "text", "encoding", "bom", "_line_starts")

    path: str
    text: str
    encoding: str
    bom: bytes
    _line_starts: list[int]
    _asked: int  # line_col questions answered without the table (a big text asked about a few offsets)

    def __init__(self, path, text, encoding="utf-8", bom=b"", _line_starts=None, _asked=0):
        self.path = path
        self.text = text
        self.encoding = encoding
        self.bom = bom
        self._line_starts = ([] if _line_starts is None else _line_starts)
        self._asked = _asked

    @classmethod
    def from_bytes(cls, path: str, data: bytes) -> SourceFile:
        text, encoding, bom = decode(data)
        return cls(path, text, encoding, bom)

    @classmethod
    def from_text(cls, path: str, text: str) -> SourceFile:
        return cls(path, text)

    def encode(self, text: str | None = None) -> bytes:
        """The bytes of ``text`` (default: this file's text) in the file's own encoding."""
        return self.bom + (self.text if text is None else text).encode(self.encoding)

    @property
    def line_starts(self) -> list[int]:
        if not self._line_starts:
            lengths = [len(line) + 1 for line in self.text.split("\n")]  # each with its "\n"
            lengths.pop()  # the last line has none
            self._line_starts = list(accumulate(lengths, initial=0))
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and 1-based column (in characters) of a character offset.

        A big text asked about a few offsets (the diagnostics of a multi-megabyte manifest)
        counts its line ends up to each one: the table of every line's start costs more than
        a few scans of the text, so it is made only from the ninth question on."""
        if not self._line_starts and len(self.text) > _DIRECT_TEXT and self._asked < _DIRECT_ASKS and 0 <= offset <= len(self.text):
            self._asked += 1
            return self.text.count("\n", 0, offset) + 1, offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        starts = self.line_starts
        line = bisect.bisect_right(starts, offset) - 1
        return line + 1, offset - starts[line] + 1

    def offset(self, line: int, column: int) -> int:
        """The character offset of a 1-based line and column."""
        return self.line_starts[line - 1] + column - 1

    def line_text(self, line: int) -> str:
        starts = self.line_starts
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def byte_offset(self, offset: int) -> int:
        """The byte offset (BOM included) of a character offset."""
        return len(self.bom) + len(self.text[:offset].encode(self.encoding))
