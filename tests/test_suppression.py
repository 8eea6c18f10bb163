"""Inline suppressions: comment finding per file kind, coverage, ignore-file, VL901."""

from __future__ import annotations

import pytest

from linter.diagnostic import Diagnostic, Severity
from linter.engine import Settings
from linter.fixer import apply_edits
from linter.launch import Span
from linter.source_file import SourceFile
from linter.suppression import comments, finish, suppressions


def _src(text: str, path: str = "f") -> SourceFile:
    return SourceFile.from_text(path, text)


def _diag(src: SourceFile, needle: str, code: str = "VL102", nth: int = 0) -> Diagnostic:
    start = -1
    for _ in range(nth + 1):
        start = src.text.index(needle, start + 1)
    return Diagnostic(code, "m", src.path, Span(start, start + len(needle)), Severity.ERROR)


def _texts(text: str, kind: str) -> list[str]:
    return [c.text for c in comments(_src(text), kind)]


# -- finding comments with each kind's tokeniser ------------------------------


def test_shell_hash_inside_strings_is_not_a_comment():
    text = "echo '# vllm-lint: ignore[VL102]' \"# x\" a#b  # real\nvllm serve m --x  # vllm-lint: ignore[VL102] why\n"
    assert _texts(text, "shell") == ["# real", "# vllm-lint: ignore[VL102] why"]


def test_python_uses_tokenize():
    text = 's = "# vllm-lint: ignore[VL102]"\nLLM(model="m", swap_space=4)  # vllm-lint: ignore[VL101]\n'
    assert _texts(text, "python") == ["# vllm-lint: ignore[VL101]"]


def test_yaml_quoted_and_block_scalars_are_not_comments():
    text = (
        "a: \"x # vllm-lint: ignore[VL101]\"  # c1\n"
        "b: 'it''s # no'\n"
        "c: x#y\n"
        "d: >\n"
        "  folded # not a comment\n"
        "e: |\n"
        "  vllm serve m \\\n"
        "    --max-num-seq 8  # vllm-lint: ignore[VL102]\n"
        "  echo '# no'\n"
        "# top\n"
    )
    assert _texts(text, "yaml") == ["# c1", "# vllm-lint: ignore[VL102]", "# top"]


def test_dockerfile_comments_and_shell_form_comments():
    text = (
        "FROM vllm/vllm-openai:v0.30.0\n"
        "# vllm-lint: ignore-file[VL601]\n"
        "RUN echo '#x' && vllm serve m \\\n"
        "    --swap-space 4  # vllm-lint: ignore[VL101]\n"
        'CMD ["vllm", "serve", "#not"]\n'
    )
    assert _texts(text, "dockerfile") == ["# vllm-lint: ignore-file[VL601]", "# vllm-lint: ignore[VL101]"]


def test_markdown_fences_use_their_language():
    text = (
        "# A heading, not a comment\n\n"
        "```bash\n"
        "vllm serve m --max-num-seq 8  # vllm-lint: ignore[VL102]\n"
        "```\n\n"
        "```yaml\n"
        "args: [\"--a\", \"# no\"]  # yes\n"
        "```\n"
    )
    assert _texts(text, "markdown") == ["# vllm-lint: ignore[VL102]", "# yes"]


def test_helm_template_actions_do_not_confuse_the_scanner():
    text = (
        "args:\n"
        "  - {{ .Values.model | quote }}\n"
        "  # vllm-lint: ignore[VL102]\n"
        "  - --max-num-seq\n"
    )
    assert _texts(text, "helm-template") == ["# vllm-lint: ignore[VL102]"]


def test_vllm_config_files_are_yaml():
    assert _texts('max-model-len: "8192 # no"  # vllm-lint: ignore[VL205]\n', "vllm-config") == ["# vllm-lint: ignore[VL205]"]


def test_requirements_follow_pip():
    assert _texts("vllm==0.29.0  # vllm-lint: ignore[VL601]\nfoo @ https://x/y#egg=foo\n", "requirements") == ["# vllm-lint: ignore[VL601]"]


# -- coverage -----------------------------------------------------------------


def test_same_line_and_line_before():
    src = _src("# vllm-lint: ignore[VL102] reason\nvllm serve m --max-num-seq 8\nvllm serve m --max-num-seq 9  # vllm-lint: ignore[VL102]\nvllm serve m --max-num-seq 7\n")
    diags = [_diag(src, "--max-num-seq", nth=i) for i in range(3)]
    out = finish(src, "shell", diags, Settings())
    # lines 2 and 3 are silenced; a trailing comment does not reach the next line
    assert out == [diags[2]]
    (sup, sup2) = suppressions(src, "shell")
    assert sup.reason == "reason" and [c for c, _ in sup.codes] == ["VL102"]


def test_other_codes_and_far_lines_stay():
    src = _src("vllm serve m --max-num-seq 8  # vllm-lint: ignore[VL101]\n\n\nvllm serve m --max-num-seq 8\n")
    d1, d2 = _diag(src, "--max-num-seq"), _diag(src, "--max-num-seq", nth=1)
    out = finish(src, "shell", [d1, d2], Settings())
    assert d1 in out and d2 in out
    (unused,) = [d for d in out if d.code == "VL901"]
    assert "nothing to suppress for VL101" in unused.message


def test_continued_command():
    text = (
        "# vllm-lint: ignore[VL102]\n"
        "vllm serve m \\\n"
        "  --max-num-seq 8 \\\n"
        "  --swap-space 4   # vllm-lint: ignore[VL101]\n"
    )
    src = _src(text)
    d1, d2 = _diag(src, "--max-num-seq"), _diag(src, "--swap-space", "VL101")
    assert finish(src, "shell", [d1, d2], Settings()) == []


def test_ignore_file_with_and_without_codes():
    src = _src("#!/bin/sh\nvllm serve m --max-num-seq 8 --swap-space 4\n# vllm-lint: ignore-file[VL102]\n")
    d1, d2 = _diag(src, "--max-num-seq"), _diag(src, "--swap-space", "VL101")
    assert finish(src, "shell", [d1, d2], Settings()) == [d2]
    src2 = _src("# vllm-lint: ignore-file\nvllm serve m --max-num-seq 8 --swap-space 4\n")
    assert finish(src2, "shell", [_diag(src2, "--max-num-seq"), _diag(src2, "--swap-space", "VL101")], Settings()) == []


def test_string_lookalike_does_not_suppress():
    src = _src("vllm serve m --max-num-seq 8 --name '# vllm-lint: ignore[VL102]'\n")
    d = _diag(src, "--max-num-seq")
    assert finish(src, "shell", [d], Settings()) == [d]


# -- VL901 ----------------------------------------------------------------------


def _fixed(src, out):
    edits = [e for d in out if d.code == "VL901" and d.fix for e in d.fix.edits]
    return apply_edits(src.text, edits)


def test_unused_suppression_is_reported_and_removed():
    text = "#!/bin/sh\n# vllm-lint: ignore[VL102] old\nvllm serve m --max-num-seqs 8  # vllm-lint: ignore[VL101]\n"
    src = _src(text)
    out = finish(src, "shell", [], Settings())
    assert [d.code for d in out] == ["VL901", "VL901"]
    assert all(d.fix is not None and d.fix.applicability == "safe" for d in out)
    assert _fixed(src, out) == "#!/bin/sh\nvllm serve m --max-num-seqs 8\n"


def test_partly_used_list_keeps_the_used_code():
    src = _src("vllm serve m --max-num-seq 8  # vllm-lint: ignore[VL102, VL101] reason\n")
    out = finish(src, "shell", [_diag(src, "--max-num-seq")], Settings())
    (d,) = out
    assert d.code == "VL901" and "VL101" in d.message
    assert _fixed(src, out) == "vllm serve m --max-num-seq 8  # vllm-lint: ignore[VL102] reason\n"


def test_unknown_code_and_unreadable_directives():
    src = _src("a  # vllm-lint: ignore[VL999]\nb  # vllm-lint: ignore\nc  # vllm-lint: disable[VL102]\nd  # vllm-lint: ignore[]\n")
    out = finish(src, "shell", [], Settings())
    msgs = [d.message for d in out]
    assert len(msgs) == 4
    assert "unknown rule code VL999" in msgs[0]
    assert "needs the codes" in msgs[1]
    assert msgs[2].startswith("unreadable suppression") and msgs[3].startswith("unreadable suppression")


def test_codes_not_enabled_are_not_judged_and_vl901_can_be_ignored():
    src = _src("vllm serve m  # vllm-lint: ignore[VL102]\n")
    assert finish(src, "shell", [], Settings(ignore=frozenset({"VL102"}))) == []
    assert finish(src, "shell", [], Settings(ignore=frozenset({"VL901"}))) == []
    src2 = _src("# vllm-lint: ignore-file[VL901]\nvllm serve m  # vllm-lint: ignore[VL102]\n")
    assert finish(src2, "shell", [], Settings()) == []


def test_per_file_ignores_filter_and_are_not_judged():
    src = _src("vllm serve m --max-num-seq 8  # vllm-lint: ignore[VL102]\n", "deploy/legacy.sh")
    settings = Settings(per_file_ignores=lambda path: frozenset({"VL1"}) if path.endswith("legacy.sh") else frozenset())
    assert finish(src, "shell", [_diag(src, "--max-num-seq")], settings) == []


def test_crlf_line_removal():
    src = _src("# vllm-lint: ignore[VL102]\r\nvllm serve m\r\n")
    out = finish(src, "shell", [], Settings())
    assert _fixed(src, out) == "vllm serve m\r\n"


@pytest.mark.parametrize("kind", ["shell", "yaml", "python", "dockerfile", "markdown", "requirements", "helm-template"])
def test_never_crashes_on_broken_input(kind):
    for text in ("'unterminated # vllm-lint: ignore[VL102]\n", "a: [\n  # vllm-lint: ignore[VL102]\n", "def f(:\n  # vllm-lint: ignore[VL102]\n", "\x00\x01 # vllm-lint"):
        finish(_src(text), kind, [], Settings())


def test_nothing_is_judged_unused_when_part_of_the_file_did_not_parse():
    src = _src("vllm serve m  # vllm-lint: ignore[VL102]\nvllm serve 'x  # vllm-lint: ignore[VL999]\n")
    broken = Diagnostic("VL001", "unterminated quote", "f", Span(src.text.index("'x"), len(src.text)))
    out = finish(src, "shell", [broken], Settings())
    assert [d.code for d in out] == ["VL001"]
    src2 = _src("vllm serve m  # vllm-lint: ignore[VL102,VL999]\n")
    broken2 = Diagnostic("VL001", "bad", "f", Span(0, 1))
    out2 = finish(src2, "shell", [broken2], Settings())
    assert [d.code for d in out2] == ["VL001", "VL901"] and "VL999" in out2[1].message and "VL102" not in out2[1].message


# -- end to end, with the real rules (needs the 0.31.0 inventory) ----------------

OLD = "--enable-mamba-fine-grained-prefix-cache"  # renamed in 0.31.0 (VL102)


def _have_inventory() -> bool:
    try:
        from linter import knowledge

        knowledge.release(knowledge.resolve_version("0.31"))
        return True
    except Exception:  # noqa: BLE001
        return False


E2E = {
    "k.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - image: vllm/vllm-openai:v0.31.0\n"
        "          args:\n"
        "            - Qwen/Qwen3-8B\n"
        "            # vllm-lint: ignore[VL102] fleet pinned\n"
        f"            - {OLD}\n"
        "            - --served-model-name='# vllm-lint: ignore[VL102]'\n"
        f"            - {OLD}\n"
        "        - image: vllm/vllm-openai:v0.31.0\n"
        "          command: [\"sh\", \"-c\"]\n"
        "          args:\n"
        "            - |\n"
        "              vllm serve Qwen/Qwen3-8B \\\n"
        f"                {OLD}  # vllm-lint: ignore[VL102]\n"
    ),
    "Dockerfile": (
        "FROM vllm/vllm-openai:v0.31.0\n"
        f"RUN vllm serve m {OLD}  # vllm-lint: ignore[VL102]\n"
        f"RUN vllm serve m {OLD} --served-model-name '# vllm-lint: ignore[VL102]'\n"
    ),
    "run.py": (
        "# vllm==0.31.0\nimport subprocess\n"
        f'subprocess.run(["vllm", "serve", "m", "{OLD}"])  # vllm-lint: ignore[VL102]\n'
        f'subprocess.run(["vllm", "serve", "m", "{OLD}", "# vllm-lint: ignore[VL102]"])\n'
    ),
    "README.md": f"# Run\n\n```bash\n# vllm==0.31.0\nvllm serve m {OLD}  # vllm-lint: ignore[VL102]\n```\n",
}


@pytest.mark.skipif(not _have_inventory(), reason="rules/data/releases/0.31.0.json is not generated yet")
def test_suppressions_in_every_file_kind(tmp_path, monkeypatch):
    import json

    from click.testing import CliRunner

    from linter.cli import main

    monkeypatch.chdir(tmp_path)
    for name, text in E2E.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["--target-version", "0.31", "--output-format", "json", "--select", "VL102,VL901", *E2E])
    found = sorted((d["filename"], d["location"]["row"], d["code"]) for d in json.loads(result.stdout))
    # only the findings next to a `#` inside a string remain
    assert found == [("Dockerfile", 3, "VL102"), ("k.yaml", 13, "VL102"), ("run.py", 4, "VL102")], result.output
