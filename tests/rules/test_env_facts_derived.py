"""Env facts agree with the per-release registries, and deprecations outside envs.py.

`added-in` / `removed-in` of the env facts in rules/data/migrations.yaml are checked
against what each release reads (the inventories' `env` and `env_elsewhere`, and
history.json's envs.py tables for 0.6.0-0.27.1), so a typed release cannot drift.
"""

from packaging.version import Version

from linter import knowledge
from tests.rules.hybrid_helpers import hits, lint


def reads(name: str) -> list[Version]:
    out = []
    for v in knowledge.known_versions():
        rel = knowledge.release(v)
        if name in rel.env or name in {e["name"] for e in rel.data.get("env_elsewhere", [])}:
            out.append(v)
    return out


def test_added_in_is_the_first_release_that_reads_it():
    checked = 0
    for fact in knowledge.migrations().env:
        added = fact.added_in
        if not added:
            continue
        name = fact.name
        found = reads(name)
        history = knowledge.history().get("env", {}).get(name, {}).get("accepted", [])
        assert not history, f"{name} is older than 0.28 (history: {history}); added-in {added} is wrong"
        assert found and found[0] == Version(str(added)), (name, added, found[:1])
        checked += 1
    assert checked >= 5


def test_removed_in_is_a_release_that_does_not_read_it():
    for fact in knowledge.migrations().env:
        removed = fact.removed_in
        if not removed or Version(str(removed)) not in knowledge.known_versions():
            continue
        assert Version(str(removed)) not in reads(fact.name), fact.name


def test_kimi_and_rocm_variables_are_read_by_028():
    for name in ("VLLM_KIMI_K3_GEMM_RS", "VLLM_ROCM_USE_AITER_MOE_SITUV2_A8W4"):
        assert Version("0.28.0") in reads(name)


def test_moriio_variables_are_deprecated_and_ignored(tmp_path):
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: vllm\n"
        "      image: vllm/vllm-openai:v0.33.0\n      args: ['Qwen/Qwen3-8B']\n      env:\n"
        "        - name: VLLM_MORIIO_QP_PER_TRANSFER\n          value: '2'\n"
        "        - name: VLLM_MORIIO_TRANSFER_TIMEOUT_S\n          value: '60'\n"
    )
    found = hits(lint(tmp_path, "pod.yaml", text, "yaml", target="0.33.0"), "VL701")
    assert [(s, a) for s, a, _ in found] == [("warning", "VLLM_MORIIO_QP_PER_TRANSFER"), ("warning", "VLLM_MORIIO_TRANSFER_TIMEOUT_S")]
    assert "is deprecated and ignored by vLLM 0.33.0" in found[0][2]
    assert "Set 'qp_per_transfer' inside kv_transfer_config.kv_connector_extra_config instead." in found[0][2]
    assert "is deprecated by vLLM 0.33.0" in found[1][2] and "recv_abort_timeout" in found[1][2]
