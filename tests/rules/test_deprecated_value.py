"""deprecated-value (VL107): every form of a value fact (a plain value, its also-values, a key of
a JSON option written as JSON or as a dotted option), the release edges, and the fix."""

import pytest

from tests.rules.lint_helpers import codes, fixed, flagged, have, lint, only

pytestmark = pytest.mark.skipif(not have("0.30.0", "0.31.0", "0.32.0", "0.33.0"), reason="inventories not generated")

SHELL = "#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B --tokenizer-mode slow --max-model-len 8192\n"


def test_removed_value_is_an_error_from_its_release(tmp_path):
    assert "VL107" not in codes(lint(tmp_path, "serve.sh", SHELL, "shell", "0.30"))
    d = only(lint(tmp_path, "serve.sh", SHELL, "shell", "0.31"), "VL107")
    assert d.severity.value == "error" and "removed in vLLM 0.31.0; use `auto`" in d.message
    assert d.fix is not None and d.fix.applicability == "unsafe"
    assert fixed(tmp_path, "serve.sh", SHELL, "shell", "0.31") == SHELL
    assert fixed(tmp_path, "serve.sh", SHELL, "shell", "0.31", unsafe=True) == SHELL.replace("mode slow", "mode auto")


def test_safe_fact_is_fixed_by_default(tmp_path):
    text = "vllm serve deepseek-ai/DeepSeek-V3 --moe-backend flashinfer_moe_ep_mega_cutedsl\n"
    r = lint(tmp_path, "serve.sh", text, "shell", "0.32")
    assert flagged(r, "VL107") == ["flashinfer_moe_ep_mega_cutedsl"] and "VL106" not in codes(r)
    assert fixed(tmp_path, "serve.sh", text, "shell", "0.32") == text.replace("ep_mega_cutedsl", "ep_cutedsl")


@pytest.mark.parametrize("value", ["model,all", "worker,model"])
def test_also_values_are_reported_without_the_value_s_replacement(tmp_path, value):
    text = f"vllm serve Qwen/Qwen3-8B --collect-detailed-traces {value}\n"
    assert "VL107" not in codes(lint(tmp_path, "serve.sh", text, "shell", "0.30"))
    r = lint(tmp_path, "serve.sh", text, "shell", "0.31")
    d = only(r, "VL107")
    assert "VL106" not in codes(r)  # one report for the invalid choice, with the migration
    assert flagged(r, "VL107") == [value] and "use `" not in d.message and d.fix is None


def test_several_word_replacement_is_not_one_edit(tmp_path):
    # `model worker` is two argv strings: one text edit of a YAML list item would make one string of it
    text = "vllm serve Qwen/Qwen3-8B --collect-detailed-traces model,worker\n"
    d = only(lint(tmp_path, "serve.sh", text, "shell", "0.31"), "VL107")
    assert "use `model worker`" in d.message and d.fix is None


def test_json_key_as_json_text(tmp_path):
    text = "vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"medusa\", \"num_speculative_tokens\": 3}'\n"
    assert "VL107" not in codes(lint(tmp_path, "serve.sh", text, "shell", "0.32"))
    d = only(lint(tmp_path, "serve.sh", text, "shell", "0.33"), "VL107")
    assert d.message.startswith("`method: medusa` of `--speculative-config` is removed in vLLM 0.33.0") and d.fix is None
    other = text.replace("medusa", "eagle3")
    assert "VL107" not in codes(lint(tmp_path, "serve.sh", other, "shell", "0.33"))


def test_json_key_as_dotted_option_in_kubernetes(tmp_path):
    text = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          command: ["vllm", "serve"]
          args:
            - Qwen/Qwen3-8B
            - --structured-outputs-config.backend
            - lm-format-enforcer
"""
    assert "VL107" not in codes(lint(tmp_path, "deploy.yaml", text, "yaml", "0.32"))
    r = lint(tmp_path, "deploy.yaml", text, "yaml", "0.33")
    d = only(r, "VL107")
    assert d.severity.value == "warning" and "deprecated since vLLM 0.33.0; use `auto`" in d.message
    assert flagged(r, "VL107") == ["lm-format-enforcer"]
    assert fixed(tmp_path, "deploy.yaml", text, "yaml", "0.33", unsafe=True) == text.replace("- lm-format-enforcer", "- auto")


def test_python_keyword_and_dict(tmp_path):
    text = 'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", spec_method="mlp_speculator", speculative_config={"method": "medusa"})\n'
    r = lint(tmp_path, "offline.py", text, "python", "0.33")
    assert sorted(d.message.split(" is ")[0] for d in r.diagnostics if d.code == "VL107") == ["`method: medusa` of `speculative_config`", "`spec_method mlp_speculator`"]


def test_mamba_cache_mode_all_is_left_to_its_own_rule(tmp_path):
    text = "vllm serve ibm-granite/granite-4.0-h-small --enable-prefix-caching --mamba-cache-mode all\n"
    assert "VL107" not in codes(lint(tmp_path, "serve.sh", text, "shell", "0.32"))


def test_opaque_value_is_not_judged(tmp_path):
    text = 'vllm serve Qwen/Qwen3-8B --tokenizer-mode "$MODE"\n'
    assert "VL107" not in codes(lint(tmp_path, "serve.sh", text, "shell", "0.33"))
