"""rules/data/batch_defaults.json is what tools/extract_batch_defaults.py reads from the wheels."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rules" / "data" / "batch_defaults.json"
WHEELS = ROOT / "tools" / ".cache" / "wheels"


def test_regeneration_is_byte_for_byte():
    from tools import extract_batch_defaults as xb
    from tools.extract_inventory import RELEASES

    for v in RELEASES:
        if not sorted(WHEELS.glob(f"vllm-{v}-*.whl")):
            pytest.skip(f"no cached wheel for vLLM {v}")
    assert xb.render(xb.build(RELEASES)) == DATA.read_text(encoding="utf-8")


def test_every_tier_is_read():
    rel = json.loads(DATA.read_text(encoding="utf-8"))["releases"]
    for v, facts in rel.items():
        tiers = facts["gpu-tiers"]
        assert [t.get("min-memory-gib") for t in tiers] == [160, 70, None], v
        assert not any("unresolved" in t for t in tiers), v
        assert [t["max-num-batched-tokens"]["serve"] for t in tiers] == [16384, 8192, 2048], v
        assert facts["scheduler"]["DEFAULT_MAX_NUM_BATCHED_TOKENS_FOR_BATCHED_DP"] == 256
    assert rel["0.33.0"]["gpu-tiers"][1].get("exclude-gb10") and not rel["0.32.0"]["gpu-tiers"][1].get("exclude-gb10")
