"""rules/data/value_sets.json is what tools/extract_value_sets.py reads from the wheels."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rules" / "data" / "value_sets.json"
WHEELS = ROOT / "tools" / ".cache" / "wheels"


def test_regeneration_is_byte_for_byte():
    from tools import extract_value_sets as xv
    from tools.extract_inventory import RELEASES

    for v in RELEASES:
        if not sorted(WHEELS.glob(f"vllm-{v}-*.whl")):
            pytest.skip(f"no cached wheel for vLLM {v}")
    assert xv.render(xv.build(RELEASES)) == DATA.read_text(encoding="utf-8")


def test_facts():
    rel = json.loads(DATA.read_text(encoding="utf-8"))["releases"]
    for v, sets in rel.items():
        assert sets["--quantization"]["deprecated"] == ["fbgemm_fp8", "fp_quant"], v
        assert "fp8" in sets["--quantization"]["values"]
        mm = sets["--mm-processor-device"]
        assert mm["base"] == ["auto", "cpu"] and "cuda" in mm["platform-device-types"], v
        assert any(c.startswith("RocmPlatform") for c in mm["platform-device-types"]["cuda"]), v
    assert "octave_k3v4" in rel["0.33.0"]["--kv-cache-dtype"]["values"]
    assert "fp9" not in rel["0.33.0"]["--kv-cache-dtype"]["values"]
