"""The hash functions vllm-lint uses, without loading OpenSSL before one needs it.

``import hashlib`` loads OpenSSL (``_hashlib``: about 3 ms, up to 8 ms from a cold disk).
The cache digests every file it reads with blake2b, and ``hashlib.blake2b`` is CPython's
own ``_blake2`` module whatever OpenSSL offers: it is taken from there.  The freshness
checks of vllm-lint's own files (a compiled table against its YAML, the compiled option
strings against each release inventory, the rule index against each rule module) ask
whether a maintainer edited a file and did not regenerate what is built from it: no one
forges those, so they compare a :func:`checksum` (the length and CRC-32, 1.5 MB of
inventories in 0.4 ms: OpenSSL's sha256 takes 1 ms and its import 3 ms more, blake2b
1.9 ms).  sha256 (the reports' fingerprints) is OpenSSL's, imported by the first call,
which a lint run with the default output never makes.
"""

from __future__ import annotations

__all__ = ["blake2b", "checksum", "sha256"]

from binascii import crc32

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b


def sha256(data: bytes = b""):
    """``hashlib.sha256(data)``, hashlib imported now."""
    import hashlib

    return hashlib.sha256(data)


def checksum(data: bytes) -> str:
    """``crc32:<length>:<CRC-32 in hex>`` of ``data``: what a freshness check of vllm-lint's own
    generated files compares (see the module docstring), never a digest of a user's file."""
    return f"crc32:{len(data)}:{crc32(data):08x}"
