"""The hash functions vllm-lint uses, without loading OpenSSL before one needs it.

``import hashlib`` loads OpenSSL (``_hashlib``: about 2 ms, up to 8 ms from a cold disk).
The cache digests every file it reads with blake2b, and ``hashlib.blake2b`` is CPython's
own ``_blake2`` module whatever OpenSSL offers: it is taken from there.  sha256 (the
freshness checks of the compiled data and of the rule index, the reports' fingerprints)
is OpenSSL's, five times faster than CPython's ``_sha256`` on the 1.7 MB a cold run checks
(the release inventories): hashlib is imported by the first call, which a run answered
from the cache never makes.
"""

from __future__ import annotations

__all__ = ["blake2b", "sha256"]

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b


def sha256(data: bytes = b""):
    """``hashlib.sha256(data)``, hashlib imported now."""
    import hashlib

    return hashlib.sha256(data)
