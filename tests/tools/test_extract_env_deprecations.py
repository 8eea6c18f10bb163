"""rules/data/env_deprecations.json is what tools/extract_env_deprecations.py reads."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rules" / "data" / "env_deprecations.json"
WHEELS = ROOT / "tools" / ".cache" / "wheels"


def test_regeneration_is_byte_for_byte():
    from tools import extract_env_deprecations as xe
    from tools.extract_inventory import RELEASES

    for v in RELEASES:
        if not sorted(WHEELS.glob(f"vllm-{v}-*.whl")):
            pytest.skip(f"no cached wheel for vLLM {v}")
    assert xe.render(xe.build(RELEASES)) == DATA.read_text(encoding="utf-8")


def test_moriio_facts():
    rel = json.loads(DATA.read_text(encoding="utf-8"))["releases"]
    for v, facts in rel.items():
        for name in ("VLLM_MORIIO_CONNECTOR_READ_MODE", "VLLM_MORIIO_QP_PER_TRANSFER", "VLLM_MORIIO_POST_BATCH_SIZE", "VLLM_MORIIO_NUM_WORKERS"):
            assert facts[name]["ignored"] is True, (v, name)
    assert rel["0.31.0"]["VLLM_MORIIO_TRANSFER_TIMEOUT_S"]["ignored"] is False
    assert "VLLM_MORIIO_TRANSFER_TIMEOUT_S" not in rel["0.30.0"]
