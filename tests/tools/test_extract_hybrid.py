"""rules/data/hybrid.json is what tools/extract_hybrid.py reads from the wheels.

The regeneration test needs the six vLLM wheels in tools/.cache/wheels (skipped
otherwise, e.g. in CI); the other checks read the committed file.
"""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rules" / "data" / "hybrid.json"
WHEELS = ROOT / "tools" / ".cache" / "wheels"


def test_regeneration_is_byte_for_byte():
    from tools import extract_hybrid as xh
    from tools.extract_inventory import RELEASES

    for v in RELEASES:
        if not sorted(WHEELS.glob(f"vllm-{v}-*.whl")):
            pytest.skip(f"no cached wheel for vLLM {v}")
    assert xh.render(xh.build(RELEASES)) == DATA.read_text(encoding="utf-8")


def test_facts_the_rules_rely_on():
    rel = json.loads(DATA.read_text(encoding="utf-8"))["releases"]
    assert sorted(rel) == ["0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"]
    for v, facts in rel.items():
        archs = facts["architectures"]
        for arch in ("Qwen3_5ForConditionalGeneration", "Qwen3NextForCausalLM", "NemotronHForCausalLM", "KimiLinearForCausalLM"):
            assert archs[arch]["hybrid"], (v, arch)
            assert "calculator" in archs[arch]["state-shape"], (v, arch)
        assert archs["MambaForCausalLM"]["attention-free"]
        # the `all` mode formula exists up to 0.31; 0.32 rounds to the backends' lcm; 0.33 aligns prefill checkpoints
        assert ("all-mode-formula" in facts["align"]) == (v <= "0.31.0")
        assert ("backend-lcm" in facts["align"]) == (v >= "0.32.0")
        assert ("prefill-checkpoint-alignment" in facts["align"]) == (v == "0.33.0")
        assert archs["NemotronHForCausalLM"]["mamba-prefix-caching"] == (v <= "0.32.0")
    assert rel["0.33.0"]["align"]["flashinfer-gdn-checkpoint-alignment"]["value"] == 64
