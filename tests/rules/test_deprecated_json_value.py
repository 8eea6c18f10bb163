"""VL110 deprecated-json-value: values inside JSON options that the release's code deprecates
(rules/data/value_renames.json), in every launch form, with the exact rewrite as a safe fix."""

from __future__ import annotations

import pytest
from packaging.version import Version

from linter.discovery import classify
from linter.engine import Settings, lint_source
from linter.fixer import fix_source
from linter.source_file import SourceFile
from rules._lib.base import all_rules


def _kind(name: str, kind: str, text: str) -> str:
    # a file named by a launch's --config is a vLLM config file (strong evidence): read it as one
    return kind if kind == "vllm-config" else classify(name, text.encode()[:512]) or kind


def _lint(name: str, kind: str, text: str, target: str):
    kind = _kind(name, kind, text)
    return lint_source(SourceFile(name, text), kind, Settings(target=Version(target)), all_rules())


def _fix(name: str, kind: str, text: str, target: str, unsafe: bool = False) -> str:
    kind = _kind(name, kind, text)
    outcome = fix_source(SourceFile(name, text), kind, Settings(target=Version(target)), all_rules(), unsafe)
    assert outcome.error is None, outcome.error
    return outcome.fixed


def _vl110(result):
    return [d for d in result.diagnostics if d.code == "VL110"]


POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: ds\nspec:\n  containers:\n    - name: vllm\n"
       "      image: vllm/vllm-openai:v0.33.0\n      args:\n        - deepseek-ai/DeepSeek-V3\n"
       "        - --speculative-config\n        - '{{\"method\": \"{m}\", \"num_speculative_tokens\": 1}}'\n")


@pytest.mark.parametrize("name,kind,text,want", [
    ("serve.sh", "shell",
     "#!/bin/sh\nexec vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 \\\n"
     "  --speculative-config '{\"method\": \"deepseek_mtp\", \"num_speculative_tokens\": 1}'\n",
     "#!/bin/sh\nexec vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 \\\n"
     "  --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'\n"),
    ("dotted.sh", "shell",
     "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --speculative-config.method=qwen3_next_mtp --speculative-config.num_speculative_tokens 2\n",
     "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --speculative-config.method=mtp --speculative-config.num_speculative_tokens 2\n"),
    ("offline.py", "python",
     'from vllm import LLM\n\nllm = LLM(\n    model="baidu/ERNIE-4.5-21B-A3B-PT",\n'
     '    speculative_config={"method": "ernie_mtp", "num_speculative_tokens": 1},\n)\n',
     'from vllm import LLM\n\nllm = LLM(\n    model="baidu/ERNIE-4.5-21B-A3B-PT",\n'
     '    speculative_config={"method": "mtp", "num_speculative_tokens": 1},\n)\n'),
    ("argv.py", "python",
     'import subprocess\n\nsubprocess.run(["vllm", "serve", "deepseek-ai/DeepSeek-V3", "--speculative-config",'
     ' \'{"method": "deepseek_mtp"}\'])\n',
     'import subprocess\n\nsubprocess.run(["vllm", "serve", "deepseek-ai/DeepSeek-V3", "--speculative-config",'
     ' \'{"method": "mtp"}\'])\n'),
    ("serve-config.yaml", "vllm-config",
     "model: deepseek-ai/DeepSeek-V3\nspeculative-config:\n  method: deepseek_mtp   # the draft layer of the checkpoint\n"
     "  num_speculative_tokens: 1\n",
     "model: deepseek-ai/DeepSeek-V3\nspeculative-config:\n  method: mtp   # the draft layer of the checkpoint\n"
     "  num_speculative_tokens: 1\n"),
    ("pod.yaml", "k8s", POD.format(m="deepseek_mtp"), POD.format(m="mtp")),
])
def test_mtp_methods_become_mtp_in_every_form(name, kind, text, want):
    found = _vl110(_lint(name, kind, text, "0.33.0"))
    assert len(found) == 1, [(d.code, d.message) for d in _lint(name, kind, text, "0.33.0").diagnostics]
    d = found[0]
    assert d.message.endswith(": write `mtp`, which vLLM rewrites it to") and d.fix is not None and d.fix.applicability == "safe"
    assert any("vllm/config/speculative.py L1246-1250" in n for n in d.notes), d.notes
    assert _fix(name, kind, text, "0.33.0") == want
    assert not _vl110(_lint(name, kind, want, "0.33.0"))


def test_the_method_set_is_the_releases_own():
    # qwen4_exp_mtp exists from a later release than 0.28 (MTPModelTypes of 0.33 only)
    text = "vllm serve Qwen/Qwen4-Exp --speculative-config '{\"method\": \"qwen4_exp_mtp\"}'\n"
    assert len(_vl110(_lint("s.sh", "shell", text, "0.33.0"))) == 1
    assert not _vl110(_lint("s.sh", "shell", text, "0.28.0"))
    d = _vl110(_lint("s.sh", "shell", "vllm serve m --speculative-config '{\"method\": \"deepseek_mtp\"}'\n", "0.30.0"))[0]
    assert "vllm/config/speculative.py L1121-1125" in d.notes[0] and d.notes[1] == "deprecated since vLLM 0.28.0 or earlier (the first release read)"


def test_plain_mtp_and_other_methods_pass():
    for method in ("mtp", "eagle3", "ngram"):
        text = f"vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{{\"method\": \"{method}\"}}'\n"
        assert not _vl110(_lint("s.sh", "shell", text, "0.33.0")), method


def test_key_written_twice_is_reported_without_a_fix():
    text = "vllm serve m --speculative-config '{\"method\": \"deepseek_mtp\", \"method\": \"deepseek_mtp\"}'\n"
    d = _vl110(_lint("s.sh", "shell", text, "0.33.0"))
    assert len(d) == 1 and d[0].fix is None
    assert _fix("s.sh", "shell", text, "0.33.0") == text


def test_escaped_json_in_a_double_quoted_word_is_reported_not_edited():
    text = 'vllm serve m --speculative-config "{\\"method\\": \\"deepseek_mtp\\"}"\n'
    d = _vl110(_lint("s.sh", "shell", text, "0.33.0"))
    assert len(d) == 1 and d[0].fix is None


@pytest.mark.parametrize("connector,flagged", [
    ("NixlConnector", True), ("NixlPushConnector", True), ("NixlPullConnector", True),
    ("LMCacheConnectorV1", False), ("P2pNcclConnector", False),
])
def test_kv_both_only_with_the_nixl_connectors(connector, flagged):
    text = f"vllm serve Qwen/Qwen3-8B --kv-transfer-config '{{\"kv_connector\": \"{connector}\", \"kv_role\": \"kv_both\"}}'\n"
    found = _vl110(_lint("pd.sh", "shell", text, "0.33.0"))
    assert bool(found) is flagged
    if found:
        d = found[0]
        assert d.fix is None  # prefill takes kv_producer, decode kv_consumer: no single replacement
        assert text[d.span.start : d.span.end] == "kv_both"
        assert "kv_producer" in d.notes[0] and "nixl/connector.py L97-103" in d.notes[0]


def test_kv_both_dotted_form():
    text = "vllm serve Qwen/Qwen3-8B --kv-transfer-config.kv_connector NixlConnector --kv-transfer-config.kv_role kv_both\n"
    found = _vl110(_lint("pd.sh", "shell", text, "0.31.0"))
    assert len(found) == 1 and text[found[0].span.start : found[0].span.end] == "kv_both"


def test_a_value_migrations_yaml_describes_is_left_to_vl107():
    text = "vllm serve Qwen/Qwen3-8B --structured-outputs-config '{\"backend\": \"lm-format-enforcer\"}'\n"
    result = _lint("s.sh", "shell", text, "0.33.0")
    assert not _vl110(result)
    assert any(d.code == "VL107" for d in result.diagnostics)


def test_template_values_are_unknown():
    text = "vllm serve m --speculative-config \"{\\\"method\\\": \\\"$METHOD\\\"}\"\n"
    assert not _vl110(_lint("s.sh", "shell", text, "0.33.0"))
