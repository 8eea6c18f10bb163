"""The hash functions vllm-lint uses, from CPython's own modules.

``import hashlib`` loads OpenSSL (``_hashlib``: about 2 ms, up to 8 ms from a cold disk) on
every start that digests anything, and every run does (the cache's keys, the data files'
freshness checks).  ``hashlib.blake2b`` is CPython's ``_blake2`` module whatever OpenSSL
offers, and ``sha256`` from CPython's ``_sha256`` (``_sha2`` from Python 3.12) gives the same
digests as OpenSSL's; hashlib serves only a Python built without them.
"""

from __future__ import annotations

__all__ = ["blake2b", "sha256"]

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

try:
    from _sha2 import sha256  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import sha256
