"""rules/data/lmcache.json is what tools/extract_lmcache.py reads from the lmcache wheels.

Regeneration needs the eight wheels in tools/.cache/lmcache-wheels (skipped otherwise);
the facts test reads the committed file and checks what the research note found by
reading each release (../shared/research/lmcache-hybrid.md section 1).
"""

from pathlib import Path

import pytest
from packaging.version import Version

from rules._lib import hybrid_facts as hf

ROOT = Path(__file__).resolve().parents[2]


def test_regeneration_is_byte_for_byte():
    from tools import extract_lmcache as xl

    for v in xl.RELEASES:
        if not sorted(xl.CACHE.glob(f"lmcache-{v}-*.whl")):
            pytest.skip(f"no cached wheel for lmcache {v}")
    assert xl.render(xl.build(xl.RELEASES)) == xl.OUT.read_text(encoding="utf-8")


def rel(v):
    return hf.lmcache_release(Version(v))


def test_release_facts():
    assert [str(r.version) for r in hf.lmcache_releases()] == ["0.4.7", "0.5.0", "0.5.1", "0.5.2", "0.5.3", "0.5.4", "0.5.5", "0.5.6"]
    # --separate-object-groups: absent up to 0.5.0, on in 0.5.1-0.5.2, off from 0.5.3
    assert rel("0.5.0").option("--separate-object-groups") is None
    assert [rel(v).default("--separate-object-groups") for v in ("0.5.1", "0.5.2", "0.5.3", "0.5.6")] == [True, True, False, False]
    assert rel("0.5.6").option("--no-separate-object-groups") is not None
    # --l1-size-gb / --eviction-policy required through 0.5.5; --l1-manager new in 0.5.6
    assert all(rel(v).required("--l1-size-gb") and rel(v).required("--eviction-policy") for v in ("0.4.7", "0.5.5"))
    assert not rel("0.5.6").required("--l1-size-gb")
    assert rel("0.5.5").option("--l1-manager") is None and rel("0.5.6").option("--l1-manager") is not None
    assert rel("0.5.6").option("--eviction-policy")["choices"] == ["LRU", "ARC", "IsolatedLRU", "noop"]
    # the batched-tokens window: [N, 2N) up to 0.5.3, >= N from 0.5.4
    assert [rel(v).step_upper_bound for v in ("0.4.7", "0.5.3", "0.5.4", "0.5.6")] == [True, True, False, False]
    assert {r.default("--chunk-size") for r in hf.lmcache_releases()} == {256}
    assert rel("0.5.6").default("--http-host") == "127.0.0.1" and rel("0.5.5").default("--http-host") == "0.0.0.0"


def test_release_lookup():
    assert hf.lmcache_release(Version("0.4.6")) is None
    assert hf.lmcache_release(Version("0.5.7")).version == Version("0.5.6")
    assert hf.lmcache_release(None).version == Version("0.5.6")
    assert hf.lmcache_first_with("--l1-manager") == Version("0.5.6")
