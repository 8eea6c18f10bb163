"""linter.hashes: the digests hashlib gives, OpenSSL loaded only by the first sha256."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from linter import hashes

SAMPLES = [b"", b"vllm serve m --max-num-seqs 8\n", "models/Qwen3-Next-80B\u00e9\n".encode("utf-8"), bytes(range(256)) * 300]


def test_sha256_is_hashlibs():
    for data in SAMPLES:
        assert hashes.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    h = hashes.sha256()
    for data in SAMPLES:
        h.update(data)
    assert h.hexdigest() == hashlib.sha256(b"".join(SAMPLES)).hexdigest()


def test_blake2b_is_hashlibs_at_every_digest_size_the_cache_uses():
    for size in (8, 16, 20):
        for data in SAMPLES:
            assert hashes.blake2b(data, digest_size=size).hexdigest() == hashlib.blake2b(data, digest_size=size).hexdigest()
        h = hashes.blake2b(digest_size=size)
        for data in SAMPLES:
            h.update(data)
        assert h.hexdigest() == hashlib.blake2b(b"".join(SAMPLES), digest_size=size).hexdigest()


def test_openssl_is_loaded_by_the_first_sha256_not_by_the_cache():
    probe = ("import sys, linter.hashes, linter.cache; linter.hashes.blake2b(b'x', digest_size=20).hexdigest(); print('_hashlib' in sys.modules);"
             " linter.hashes.sha256(b'x'); print('_hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]
