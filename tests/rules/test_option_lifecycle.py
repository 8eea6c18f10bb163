"""removed-option, renamed-option, option-not-yet-available, unknown-option, deprecated-option."""

import pytest

from tests.rules.lint_helpers import codes, fixed, flagged, have, k8s, lint, only

pytestmark = pytest.mark.skipif(not have("0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"), reason="inventories not generated")

def test_removed_option_in_shell_names_last_release(tmp_path):
    r = lint(tmp_path, "serve.sh", "vllm serve m \\\n  --swap-space 16 \\\n  --port 8000\n", "shell", "0.32")
    d = only(r, "VL101")
    assert flagged(r, "VL101") == ["--swap-space"]
    assert d.message == "`--swap-space` was removed after vLLM 0.17.1 (0.32.0 rejects it): delete it"
    assert d.notes == ("accepted from vLLM 0.6.0 to 0.17.1; no later release reads it and nothing replaces it",)
    assert d.fix.applicability == "unsafe" and [e.content for e in d.fix.edits] == [""]


def test_removed_option_comes_back_in_033(tmp_path):
    script = "vllm serve m --disable-log-requests\n"
    assert flagged(lint(tmp_path, "a.sh", script, "shell", "0.32"), "VL101") == ["--disable-log-requests"]
    assert codes(lint(tmp_path, "a.sh", script, "shell", "0.33")) == []


def test_renamed_option_on_031_fixes_safely_in_k8s(tmp_path):
    text = k8s("Qwen/Qwen3-Next-80B-A3B-Instruct", "--enable-mamba-fine-grained-prefix-cache")
    r = lint(tmp_path, "d.yaml", text, "yaml", "0.31")
    d = only(r, "VL102")
    assert flagged(r, "VL102") == ["--enable-mamba-fine-grained-prefix-cache"]
    assert d.fix is not None and d.fix.applicability == "safe"
    out = fixed(tmp_path, "d.yaml", text, "yaml", "0.31")
    assert out == text.replace("--enable-mamba-fine-grained-prefix-cache", "--enable-mamba-shared-prefix-checkpoint")
    # the old name is fine on the release that introduced it
    assert "VL102" not in codes(lint(tmp_path, "d.yaml", text, "yaml", "0.30"))


def test_new_name_on_030_is_not_yet_available(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --enable-mamba-shared-prefix-checkpoint\n", "shell", "0.30")
    d = only(r, "VL105")
    assert "0.31.0" in d.message


def test_renamed_python_keyword_is_fixed_through_the_dest(tmp_path):
    text = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3.5-4B", enable_mamba_fine_grained_prefix_cache=True)\n'
    r = lint(tmp_path, "run.py", text, "python", "0.31")
    assert flagged(r, "VL102") == ["enable_mamba_fine_grained_prefix_cache"]
    assert "enable_mamba_shared_prefix_checkpoint=True" in fixed(tmp_path, "run.py", text, "python", "0.31")


def test_unknown_option_suggests_the_close_name(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --max-model-length 8192\n", "shell", "0.33")
    d = only(r, "VL104")
    assert "--max-model-len" in d.message
    assert d.fix is not None and d.fix.applicability == "display-only"


def test_opaque_tokens_cause_no_lifecycle_report(tmp_path):
    script = 'vllm serve "$MODEL" --max-model-len "${LEN:-8192}" $EXTRA_ARGS --port $(cat port)\n'
    assert codes(lint(tmp_path, "a.sh", script, "shell", "0.33")) == []


def test_deprecated_option_uses_the_inventory(tmp_path):
    r = lint(tmp_path, "a.sh", "vllm serve m --mamba-cache-mode align\n", "shell", "0.33")
    # 0.33 deprecates --mamba-cache-mode and it has no effect: one report, by the more specific rule
    assert codes(r) in (["VL108"], ["VL103"])


def test_a_typo_copied_into_many_files_is_searched_for_once(tmp_path, monkeypatch):
    """The closest option to an unknown one is difflib's, asked once per release and word in a
    run: every file with the same typo gets the same suggestion (a keyword by its dest)."""
    import difflib

    from rules._lib import lifecycle

    monkeypatch.setattr(lifecycle, "_CLOSEST", {})
    asked = []
    real = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda word, *a, **k: asked.append(word) or real(word, *a, **k))
    messages = []
    for i in range(3):
        r = lint(tmp_path, f"s{i}.sh", f"vllm serve m --max-modle-len {i + 4096} --port 8000\n", "shell", "0.31")
        messages.extend(d.message for d in r.diagnostics if "did you mean" in d.message)
    assert len(messages) == 3 and len(set(messages)) == 1 and "`--max-model-len`" in messages[0]
    assert asked == ["--max-modle-len"]
    r = lint(tmp_path, "launch.py", "from vllm import LLM\nllm = LLM(model='m', max_num_seq=8)\n", "python", "0.31")
    assert [d.message for d in r.diagnostics if "did you mean" in d.message] == ["`max_num_seq` is not a vLLM 0.31.0 option; did you mean `max_num_seqs`?"]
    assert asked == ["--max-modle-len", "max_num_seq"]
