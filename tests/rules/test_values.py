"""invalid-value, deprecated-value, mamba-cache-mode-all, no-effect-option, disable-hybrid-kv-cache-manager."""

import pytest

from tests.rules.lint_helpers import codes, fixed, flagged, have, lint, only

pytestmark = pytest.mark.skipif(not have("0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"), reason="inventories not generated")

SCRIPT = "#!/bin/sh\nexec vllm serve ibm-granite/granite-4.0-h-small --enable-prefix-caching --mamba-cache-mode all\n"
PY = 'from vllm import LLM\nllm = LLM(model="nvidia/NVIDIA-Nemotron-Nano-9B-v2", mamba_cache_mode="all")\n'
CONFIG = "model: ibm-granite/granite-4.0-h-small\nmamba-cache-mode: all\nmax-num-seqs: 32\nenable-prefix-caching: true\n"


@pytest.mark.parametrize(
    "name,text,kind",
    # the config file as `--config serve-config.yaml` names it (strong evidence: fixable)
    [("serve.sh", SCRIPT, "shell"), ("offline.py", PY, "python"), ("serve-config.yaml", CONFIG, "vllm-config")],
)
def test_mamba_cache_mode_all_across_releases(tmp_path, name, text, kind):
    assert "VL301" not in codes(lint(tmp_path, name, text, kind, "0.29"))  # before the rule's range
    d = only(lint(tmp_path, name, text, kind, "0.30"), "VL301")
    assert d.severity.value == "warning" and "fall back to `align`" in d.message
    d = only(lint(tmp_path, name, text, kind, "0.31"), "VL301")
    assert d.severity.value == "warning"
    r = lint(tmp_path, name, text, kind, "0.32")
    d = only(r, "VL301")
    assert d.severity.value == "error"
    assert "VL106" not in codes(r)  # one report for the invalid choice, with the migration
    assert flagged(r, "VL301") in (["all"], ['"all"'])
    assert d.fix is not None and d.fix.applicability == "unsafe"


def test_config_candidate_is_reported_never_fixed(tmp_path):
    # the same file found by walking, named by no launch: keys that look like options are weak evidence
    r = lint(tmp_path, "serve-config.yaml", CONFIG, "yaml", "0.32")
    d = only(r, "VL301")
    assert d.fix is None
    assert fixed(tmp_path, "serve-config.yaml", CONFIG, "yaml", "0.32", unsafe=True) == CONFIG


def test_mamba_cache_mode_all_fix_is_unsafe_only(tmp_path):
    assert fixed(tmp_path, "serve.sh", SCRIPT, "shell", "0.32") == SCRIPT
    assert fixed(tmp_path, "serve.sh", SCRIPT, "shell", "0.32", unsafe=True) == SCRIPT.replace("mode all", "mode align")
    assert 'mamba_cache_mode="align"' in fixed(tmp_path, "offline.py", PY, "python", "0.32", unsafe=True)


def test_invalid_choice_lists_the_choices(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --kv-cache-dtype fp9\n", "shell", "0.32")
    d = only(r, "VL106")
    assert "fp8" in d.notes[0] and flagged(r, "VL106") == ["fp9"]


def test_invalid_int_and_human_readable_values(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m -tp two --max-model-len 32K\n", "shell", "0.32")
    assert flagged(r, "VL106") == ["two"]  # 32K is vLLM's human-readable 32768


def test_mamba_block_size_has_no_effect_from_032(tmp_path):
    script = "vllm serve Qwen/Qwen3.6-27B --enable-prefix-caching --mamba-block-size 256\n"
    assert "VL108" not in codes(lint(tmp_path, "a.sh", script, "shell", "0.31"))
    r = lint(tmp_path, "a.sh", script, "shell", "0.32")
    assert flagged(r, "VL108") == ["--mamba-block-size"]


def test_mamba_cache_mode_itself_has_no_effect_in_033(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve Qwen/Qwen3.6-27B --mamba-cache-mode align\n", "shell", "0.33")
    d = only(r, "VL108")
    assert "--mamba-cache-mode" in d.message


def test_disable_hybrid_kv_cache_manager_is_information(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve google/gemma-3-27b-it --disable-hybrid-kv-cache-manager\n", "shell", "0.32")
    assert only(r, "VL302").severity.value == "info"
    assert "VL302" not in codes(lint(tmp_path, "a.sh", "vllm serve google/gemma-3-27b-it --no-disable-hybrid-kv-cache-manager\n", "shell", "0.32"))
