"""pin-older-than-target and env-var, and which release a launch is checked against."""


import pytest

from tests.rules.lint_helpers import codes, fixed, flagged, have, lint, only

pytestmark = pytest.mark.skipif(not have("0.29.0", "0.30.0", "0.32.0", "0.33.0"), reason="inventories not generated")

MANIFEST = """apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.29.0
      args: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
      env:
        - name: VLLM_USE_V1
          value: "1"
"""


def test_pin_is_used_without_a_target(tmp_path):
    r = lint(tmp_path, "pod.yaml", MANIFEST, "yaml")
    assert {d.vllm_version for d in r.diagnostics} <= {"0.29.0"}
    assert [rep.reason for rep in r.launches] == ["pin"]


def test_pin_older_than_target_offers_an_unsafe_bump(tmp_path):
    r = lint(tmp_path, "pod.yaml", MANIFEST, "yaml", "0.32")
    d = only(r, "VL601")
    assert flagged(r, "VL601") == ["v0.29.0"]
    assert d.fix.applicability == "unsafe"
    out = fixed(tmp_path, "pod.yaml", MANIFEST, "yaml", "0.32", unsafe=True)
    assert "image: vllm/vllm-openai:v0.32.0\n" in out
    assert fixed(tmp_path, "pod.yaml", MANIFEST, "yaml", "0.32") == MANIFEST


def test_pip_pin_in_a_script(tmp_path):
    text = "pip install vllm==0.30.0\nvllm serve m --port 8000\n"
    r = lint(tmp_path, "a.sh", text, "shell", "0.33")
    assert flagged(r, "VL601") == ["0.30.0"]


def test_env_var_not_read_by_the_release(tmp_path):
    r = lint(tmp_path, "pod.yaml", MANIFEST, "yaml", "0.32")
    assert flagged(r, "VL701") == ["VLLM_USE_V1"]


def test_no_pin_means_newest_release(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --port 8000\n", "shell")
    assert [rep.reason for rep in r.launches] == ["newest"]
    assert codes(r) == []


def test_env_var_removed_before_the_first_inventory_names_its_last_release(tmp_path):
    r = lint(tmp_path, "pod.yaml", MANIFEST.replace("VLLM_USE_V1", "VLLM_ATTENTION_BACKEND"), "yaml", "0.33")
    d = only(r, "VL701")
    assert d.severity.value == "warning" and "last read by 0.14.1" in d.message


def test_env_var_no_release_ever_read_is_information(tmp_path):
    r = lint(tmp_path, "pod.yaml", MANIFEST.replace("VLLM_USE_V1", "VLLM_ADDITIONAL_ARGS"), "yaml", "0.33")
    d = only(r, "VL701")
    assert d.severity.value == "info" and "plugin" in d.message


def test_pin_fix_replaces_the_post_release_suffix_too(tmp_path):
    # `0.5.3post1` -> `0.33.0`, never `0.33.0post1` (no such release)
    task = "resources: {accelerators: L4}\nsetup: |\n  pip install vllm==0.5.3post1\nrun: |\n  vllm serve m --max-model-len 4096\n"
    assert "vllm==0.33.0\n" in fixed(tmp_path, "task.yaml", task, "yaml", "0.33", unsafe=True)
    pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: v, image: 'vllm/vllm-openai:v0.8.5.post1', args: [m]}]\n"
    assert "vllm/vllm-openai:v0.33.0'" in fixed(tmp_path, "pod.yaml", pod, "yaml", "0.33", unsafe=True)


def test_each_launch_rule_runs_once_per_launch_though_the_pin_asks_them_again(tmp_path, monkeypatch):
    """VL601 asks the launch rules what would still stop the launch after the fixes; they answer
    from their own run on the same launch, not from a second one, and a second launch (another
    context) is checked anew; the findings are what two runs would give."""
    from rules._lib import lifecycle
    from rules._lib.base import all_rules

    removed = all_rules()["VL101"]
    calls: list[int] = []
    real = removed._check
    monkeypatch.setattr(removed, "_check", lambda ctx: calls.append(id(ctx)) or real(ctx))
    asked: list[str] = []
    real_classify = lifecycle._classify
    monkeypatch.setattr(lifecycle, "_classify", lambda ctx, opt: asked.append(opt.normalized) or real_classify(ctx, opt))
    text = MANIFEST.replace('"--max-model-len", "8192"]', '"--max-model-len", "8192", "--swap-space", "4"]')
    r = lint(tmp_path, "pod.yaml", text + "---\n" + text.replace("name: vllm\nspec", "name: vllm-b\nspec"), "yaml", "0.32")
    assert flagged(r, "VL101") == ["--swap-space", "--swap-space"]
    assert codes(r).count("VL601") == 2  # the pin's question was asked for each launch
    assert len(calls) == 2 and len(set(calls)) == 2  # yet VL101 ran once for each launch
    assert asked.count("--swap-space") == 2  # four rules ask about it, for each launch: worked out once each
