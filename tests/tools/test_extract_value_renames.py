"""rules/data/value_renames.json is what tools/extract_value_renames.py reads from the wheels."""

import ast
import json
from pathlib import Path

import pytest
import yaml

from tools import extract_value_renames as xr

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rules" / "data" / "value_renames.json"
WHEELS = ROOT / "tools" / ".cache" / "wheels"


def test_regeneration_is_byte_for_byte():
    from tools.extract_inventory import RELEASES

    for v in RELEASES:
        if not sorted(WHEELS.glob(f"vllm-{v}-*.whl")):
            pytest.skip(f"no cached wheel for vLLM {v}")
    assert xr.render(xr.build(RELEASES)) == DATA.read_text(encoding="utf-8")


def test_facts():
    rel = json.loads(DATA.read_text(encoding="utf-8"))["releases"]
    assert list(rel) == ["0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"]
    for v, options in rel.items():
        (spec,) = options["--speculative-config"]
        assert spec["key"] == "method" and spec["replacement"] == "mtp", v
        assert "deepseek_mtp" in spec["values"] and "qwen3_next_mtp" in spec["values"] and "mtp" not in spec["values"], v
        assert all(m.endswith("_mtp") for m in spec["values"]), v
        (kv,) = options["--kv-transfer-config"]
        assert kv["key"] == "kv_role" and kv["values"] == ["kv_both"] and kv["replacement"] is None, v
        assert kv["when"] == {"kv_connector": ["NixlConnector", "NixlPullConnector", "NixlPushConnector"]}, v
    assert "qwen4_exp_mtp" in rel["0.33.0"]["--speculative-config"][0]["values"]
    assert "qwen4_exp_mtp" not in rel["0.28.0"]["--speculative-config"][0]["values"]


def test_agrees_with_the_curated_structured_outputs_fact():
    """migrations.yaml says lm-format-enforcer is deprecated from 0.33.0: the code scan finds
    the same warning in 0.33.0 and in no earlier release."""
    rel = json.loads(DATA.read_text(encoding="utf-8"))["releases"]
    found = [v for v, o in rel.items() if any("lm-format-enforcer" in e["values"] for e in o.get("--structured-outputs-config", []))]
    facts = yaml.safe_load((ROOT / "rules" / "data" / "migrations.yaml").read_text(encoding="utf-8"))["values"]
    fact = next(f for f in facts if f.get("key") == "backend" and f["value"] == "lm-format-enforcer")
    assert found == [fact["deprecated-in"]] == ["0.33.0"]


SPECULATIVE = '''
from typing import Literal, get_args
MTPModelTypes = Literal["deepseek_mtp", "ernie_mtp", "mtp"]
Other = Literal["eagle", MTPModelTypes]

class SpeculativeConfig:
    def __post_init__(self):
        if self.method in get_args(MTPModelTypes) and self.method != "mtp":
            logger.warning("method `%s` is deprecated and replaced with mtp.", self.method)
            self.method = "mtp"
        if self.method == "eagle":
            logger.info("eagle is fine")
        if self.method in ("old_a", "old_b"):
            logger.warning_once(f"{self.method} is deprecated; pick another method")

def elsewhere(vllm_config):
    if vllm_config.speculative_config.method == "legacy":
        logger.warning("legacy is deprecated")
        vllm_config.speculative_config.method = "draft_model"
    if vllm_config.unknown_thing.x == "y":
        logger.warning("y is deprecated")
'''


def test_scan_reads_the_patterns():
    tree = ast.parse(SPECULATIVE)
    fields = {"speculative_config": "SpeculativeConfig"}
    got = xr._scan("vllm/config/speculative.py", tree, {"SpeculativeConfig": "speculative_config"}, fields)
    assert [(e["key"], e["values"], e["replacement"]) for e in got] == [
        ("method", ["deepseek_mtp", "ernie_mtp"], "mtp"),
        ("method", ["old_a", "old_b"], None),
        ("method", ["legacy"], "draft_model"),
    ]
    assert got[0]["source"] == "vllm/config/speculative.py L8-10 (warning L9)"
    assert got[1]["message"] == "{self.method} is deprecated; pick another method"
    assert all(e["option"] == "--speculative-config" for e in got)
