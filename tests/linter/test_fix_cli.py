"""The command line of --fix, --diff, --unsafe-fixes, --show-fixes and --exit-non-zero-on-fix.

Exit codes: 0 when no diagnostic remains, 1 when some remain (with --diff:
when something would change; with --exit-non-zero-on-fix: when something was
fixed), 2 on a usage error or a fix that turned out broken.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from linter import knowledge
from linter.cli import main

pytestmark = pytest.mark.skipif("0.32.0" not in {str(v) for v in knowledge.known_versions()}, reason="no 0.32 inventory")

SAFE_ONLY = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-num-seq 8\n"
SAFE_FIXED = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-num-seqs 8\n"
MIXED = "#!/bin/sh\n# keep me\nvllm serve Qwen/Qwen3-8B \\\n  --max-num-seq 8 \\\n  --mamba-cache-mode all \\\n  --swap-space 4\n"


def run(tmp_path: Path, monkeypatch, *args: str):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, ["--target-version", "0.32", *args], catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return p


def test_fix_applies_safe_fixes_and_exits_0_when_nothing_remains(tmp_path, monkeypatch):
    p = write(tmp_path, "serve.sh", SAFE_ONLY)
    r = run(tmp_path, monkeypatch, "--fix", "serve.sh")
    assert r.exit_code == 0, r.output
    assert p.read_text() == SAFE_FIXED
    assert "Fixed 1 error." in r.stderr
    # a second run: nothing to do
    r = run(tmp_path, monkeypatch, "--fix", "serve.sh")
    assert r.exit_code == 0 and p.read_text() == SAFE_FIXED
    assert "Fixed 0 errors." in r.stderr


def test_exit_non_zero_on_fix(tmp_path, monkeypatch):
    p = write(tmp_path, "serve.sh", SAFE_ONLY)
    r = run(tmp_path, monkeypatch, "--fix", "--exit-non-zero-on-fix", "serve.sh")
    assert r.exit_code == 1
    assert p.read_text() == SAFE_FIXED
    r = run(tmp_path, monkeypatch, "--fix", "--exit-non-zero-on-fix", "serve.sh")
    assert r.exit_code == 0  # nothing fixed, nothing left


def test_fix_without_unsafe_leaves_unsafe_fixes_and_exits_1(tmp_path, monkeypatch):
    p = write(tmp_path, "serve.sh", MIXED)
    r = run(tmp_path, monkeypatch, "--fix", "--output-format", "concise", "serve.sh")
    assert r.exit_code == 1
    text = p.read_text()
    assert "--max-num-seqs 8" in text and "--mamba-cache-mode all" in text and "# keep me" in text
    assert "VL301" in r.stdout and "VL101" in r.stdout and "VL201" not in r.stdout
    r = run(tmp_path, monkeypatch, "--fix", "--unsafe-fixes", "--output-format", "concise", "serve.sh")
    assert r.exit_code == 0, r.stdout  # --swap-space is deleted with the `\` that continued to it
    assert p.read_text() == "#!/bin/sh\n# keep me\nvllm serve Qwen/Qwen3-8B \\\n  --max-num-seqs 8 \\\n  --mamba-cache-mode align\n"
    assert "VL101" not in r.stdout and "VL301" not in r.stdout


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, monkeypatch):
    p = write(tmp_path, "serve.sh", MIXED)
    before = p.stat()
    r = run(tmp_path, monkeypatch, "--diff", "serve.sh")
    assert r.exit_code == 1
    assert p.read_text() == MIXED and p.stat().st_mtime_ns == before.st_mtime_ns
    assert r.stdout.startswith("--- a/serve.sh\n+++ b/serve.sh\n@@ ")
    assert "-  --max-num-seq 8 \\\n+  --max-num-seqs 8 \\\n" in r.stdout
    assert "align" not in r.stdout  # unsafe: not without --unsafe-fixes
    assert "Would fix 1 error." in r.stderr
    r = run(tmp_path, monkeypatch, "--diff", "--unsafe-fixes", "serve.sh")
    assert "+  --mamba-cache-mode align\n" in r.stdout and "-  --swap-space 4\n" in r.stdout and p.read_text() == MIXED
    # --diff together with --fix still writes nothing
    r = run(tmp_path, monkeypatch, "--fix", "--diff", "serve.sh")
    assert r.exit_code == 1 and p.read_text() == MIXED


def test_diff_exits_0_when_nothing_would_change(tmp_path, monkeypatch):
    write(tmp_path, "serve.sh", SAFE_FIXED)
    r = run(tmp_path, monkeypatch, "--diff", "serve.sh")
    assert r.exit_code == 0 and r.stdout == ""


def test_diff_marks_a_missing_final_newline(tmp_path, monkeypatch):
    write(tmp_path, "serve.sh", SAFE_ONLY.rstrip("\n"))
    r = run(tmp_path, monkeypatch, "--diff", "serve.sh")
    assert r.stdout.endswith("+vllm serve Qwen/Qwen3-8B --max-num-seqs 8\n\\ No newline at end of file\n")


def test_show_fixes_lists_the_fixes_per_file_on_stderr(tmp_path, monkeypatch):
    write(tmp_path, "a.sh", SAFE_ONLY)
    write(tmp_path, "b.sh", MIXED)
    r = run(tmp_path, monkeypatch, "--fix", "--unsafe-fixes", "--show-fixes", "--output-format", "concise", ".")
    assert r.exit_code == 0
    assert "Fixed 4 errors:\n" in r.stderr
    assert "- a.sh:\n    1 × VL201 (abbreviated-option)\n" in r.stderr
    assert "- b.sh:\n    1 × VL101 (removed-option)\n    1 × VL201 (abbreviated-option)\n    1 × VL301 (mamba-cache-mode-all)\n" in r.stderr
    assert "Fixed" not in r.stdout  # standard output carries the report alone
    r = run(tmp_path, monkeypatch, "--diff", "--show-fixes", ".")
    assert "Fixed" not in r.stderr and "Would fix" not in r.stdout


def test_show_fixes_with_diff_says_would_fix(tmp_path, monkeypatch):
    write(tmp_path, "a.sh", SAFE_ONLY)
    r = run(tmp_path, monkeypatch, "--diff", "--show-fixes", "a.sh")
    assert "Would fix 1 error:\n- a.sh:\n    1 × VL201 (abbreviated-option)\n" in r.stderr


def test_fix_keeps_crlf_bom_and_mode(tmp_path, monkeypatch):
    p = write(tmp_path, "serve.sh", b"\xef\xbb\xbf" + SAFE_ONLY.replace("\n", "\r\n").encode())
    os.chmod(p, 0o755)
    r = run(tmp_path, monkeypatch, "--fix", "serve.sh")
    assert r.exit_code == 0, r.output
    assert p.read_bytes() == b"\xef\xbb\xbf" + SAFE_FIXED.replace("\n", "\r\n").encode()
    assert stat.S_IMODE(p.stat().st_mode) == 0o755


def test_read_only_file_is_reported_and_its_diagnostics_remain(tmp_path, monkeypatch):
    p = write(tmp_path, "serve.sh", SAFE_ONLY)
    os.chmod(p, 0o444)
    r = run(tmp_path, monkeypatch, "--fix", "--output-format", "concise", "serve.sh")
    assert r.exit_code == 1
    assert "serve.sh: the file is read-only; not changed" in r.stderr
    assert "VL201" in r.stdout
    assert p.read_text() == SAFE_ONLY


def test_fix_writes_through_a_symlink(tmp_path, monkeypatch):
    p = write(tmp_path, "real.sh", SAFE_ONLY)
    (tmp_path / "link.sh").symlink_to("real.sh")
    r = run(tmp_path, monkeypatch, "--fix", "link.sh")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "link.sh").is_symlink() and p.read_text() == SAFE_FIXED


def test_a_broken_fix_is_a_bug_exit_2_and_the_file_stays(tmp_path, monkeypatch):
    from linter import fix_check

    p = write(tmp_path, "serve.sh", SAFE_ONLY)
    monkeypatch.setattr(fix_check, "check_shell", lambda before, after, edits: "simulated breakage")  # the shell row names it
    r = run(tmp_path, monkeypatch, "--fix", "--output-format", "concise", "serve.sh")
    assert r.exit_code == 2
    assert "no longer parses as the original did (simulated breakage; fixes VL201)" in r.stderr
    assert "a bug: please report it" in r.stderr
    assert p.read_text() == SAFE_ONLY
    assert "VL201" in r.stdout  # still reported


def test_unknown_option_usage_error_is_2(tmp_path, monkeypatch):
    r = CliRunner().invoke(main, ["--fix", "--target-version", "9.9", str(tmp_path)])
    assert r.exit_code == 2


def test_installed_entry_point_fixes(tmp_path):
    import subprocess
    import sys

    exe = Path(sys.executable).parent / "vllm-lint"
    if not exe.exists():
        pytest.skip("vllm-lint is not installed in this environment")
    p = write(tmp_path, "serve.sh", SAFE_ONLY)
    done = subprocess.run([str(exe), "--fix", "--show-fixes", "--target-version", "0.32", str(p)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert p.read_text() == SAFE_FIXED and "1 × VL201" in done.stderr


def test_config_file_named_by_a_launch_is_fixed_against_that_launchs_release(tmp_path, monkeypatch):
    """As the check does: the --config file is a vLLM config file of the launch's release."""
    cfg = write(tmp_path, "serve-config.yaml", "# for serve.sh\nmax-num-seqs: 64\nenable-mamba-fine-grained-prefix-cache: true\n")
    write(tmp_path, "serve.sh", '#!/bin/sh\npip install "vllm==0.29.0"\nvllm serve m --config serve-config.yaml\n')
    # pinned 0.29 and no target: the new name does not exist there, nothing is renamed
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["--fix", "--output-format", "concise", "."], catch_exceptions=False)
    assert "enable-mamba-fine-grained-prefix-cache: true" in cfg.read_text()
    assert "serve-config.yaml:3:1: VL105" in r.stdout
    # checked for 0.32: the key is renamed in place, comment and order kept
    r = run(tmp_path, monkeypatch, "--fix", "--show-fixes", "--output-format", "concise", ".")
    assert cfg.read_text() == "# for serve.sh\nmax-num-seqs: 64\nenable-mamba-shared-prefix-checkpoint: true\n"
    assert "- serve-config.yaml:\n    1 × VL102 (renamed-option)\n" in r.stderr
    assert "serve-config.yaml" not in r.stdout


@pytest.mark.parametrize(("text", "fixed"), [
    # the only key: the file keeps a mapping, which vLLM's load_config_file reads (an emptied file is no document)
    ("# options for vllm serve --config\nenable-bf16x3-router-gemm: true\n", "# options for vllm serve --config\n{}\n"),
    # every key removed: deleted together they left no document; one pass then the next
    ("enable-bf16x3-router-gemm: true\nswap-space: 4\n", "{}\n"),
    # a key beside them stays
    ("enable-bf16x3-router-gemm: true\nmax-num-seqs: 8\nswap-space: 4\n", "max-num-seqs: 8\n"),
])
def test_removing_the_last_options_of_a_config_file_leaves_an_empty_mapping(tmp_path, monkeypatch, text, fixed):
    """``--fix --unsafe-fixes`` deleting every option of a ``--config`` file used to end in
    "the fixed file no longer parses as the original did ... (a bug: please report it)",
    exit 2 and nothing written: the file became no YAML document at all."""
    cfg = write(tmp_path, "serve-config.yaml", text)
    write(tmp_path, "serve.sh", "#!/bin/sh\nvllm serve m --config serve-config.yaml\n")
    r = run(tmp_path, monkeypatch, "--fix", "--unsafe-fixes", "--target-version", "0.33", "--output-format", "concise", ".")
    assert r.exit_code == 0, r.output
    assert cfg.read_text() == fixed
    assert "a bug" not in r.output


def test_removing_the_only_engine_kwargs_key_leaves_an_empty_mapping(tmp_path, monkeypatch):
    """A Ray Serve config's ``engine_kwargs:`` emptied would be null; it becomes ``{}``."""
    text = (
        "applications:\n  - import_path: ray.serve.llm:build_openai_app\n    args:\n      llm_configs:\n"
        "        - model_loading_config:\n            model_id: m\n          engine_kwargs:\n            swap_space: 4\n"
    )
    cfg = write(tmp_path, "serve.yaml", text)
    r = run(tmp_path, monkeypatch, "--fix", "--unsafe-fixes", "--output-format", "concise", "serve.yaml")
    assert r.exit_code == 0, r.output
    assert cfg.read_text() == text.replace("            swap_space: 4\n", "            {}\n")


def test_stdin_fix_writes_the_fixed_text_and_lists_fixes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["--target-version", "0.32", "--fix", "--show-fixes", "-", "--stdin-filename", "serve.sh"]
    r = CliRunner().invoke(main, args, input=SAFE_ONLY, catch_exceptions=False)
    assert r.exit_code == 0
    assert r.stdout == SAFE_FIXED
    assert "Fixed 1 error:\n- serve.sh:\n    1 × VL201 (abbreviated-option)\n" in r.stderr
    r = CliRunner().invoke(main, [*args, "--exit-non-zero-on-fix"], input=SAFE_ONLY, catch_exceptions=False)
    assert r.exit_code == 1 and r.stdout == SAFE_FIXED
    r = CliRunner().invoke(main, ["--target-version", "0.32", "--diff", "-", "--stdin-filename", "serve.sh"], input=SAFE_ONLY, catch_exceptions=False)
    assert r.exit_code == 1 and "+vllm serve Qwen/Qwen3-8B --max-num-seqs 8\n" in r.stdout


def _report(r) -> list[tuple]:
    import json

    return sorted((d["filename"], d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)) if r.stdout.strip() else []


def test_fix_report_equals_a_check_of_the_fixed_tree(tmp_path, monkeypatch):
    """What --fix says remains is what a check of the fixed files finds, and a second --fix changes nothing."""
    import shutil

    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "examples" / "deploy", tmp_path / "deploy")
    r = run(tmp_path, monkeypatch, "--fix", "--unsafe-fixes", "--output-format", "json", "deploy")
    assert r.exit_code == 1, r.stderr
    after_fix = _report(r)
    r = run(tmp_path, monkeypatch, "--output-format", "json", "deploy")
    assert _report(r) == after_fix
    snapshot = {p: p.read_bytes() for p in (tmp_path / "deploy").rglob("*") if p.is_file()}
    r = run(tmp_path, monkeypatch, "--fix", "--unsafe-fixes", "--output-format", "json", "deploy")
    assert "Fixed 0 errors." in r.stderr
    assert {p: p.read_bytes() for p in snapshot} == snapshot


def test_fix_keeps_a_utf16_file_utf16(tmp_path, monkeypatch):
    import codecs

    p = write(tmp_path, "serve.sh", codecs.BOM_UTF16_LE + SAFE_ONLY.replace("\n", "\r\n").encode("utf-16-le"))
    r = run(tmp_path, monkeypatch, "--fix", "serve.sh")
    assert r.exit_code == 0, r.output
    assert p.read_bytes() == codecs.BOM_UTF16_LE + SAFE_FIXED.replace("\n", "\r\n").encode("utf-16-le")


def test_file_edited_while_vllm_lint_ran_is_skipped_with_a_message(tmp_path, monkeypatch):
    from linter import fixer

    p = write(tmp_path, "serve.sh", SAFE_ONLY)
    real = fixer.fix_source

    def fix_then_someone_edits(src, *a, **kw):
        out = real(src, *a, **kw)
        with open(p, "a") as f:
            f.write("# edited meanwhile\n")
        return out

    monkeypatch.setattr(fixer, "fix_source", fix_then_someone_edits)
    r = run(tmp_path, monkeypatch, "--fix", "--output-format", "concise", "serve.sh")
    assert r.exit_code == 1
    assert "serve.sh: the file changed on disk since it was read; not overwritten" in r.stderr
    assert p.read_text() == SAFE_ONLY + "# edited meanwhile\n"
    assert not list(tmp_path.glob(".vllm-lint-*"))


def _crd(n: int) -> str:
    """A CustomResourceDefinition of ``n`` schema properties: thousands of lines, most of them
    alike (``type: string``), as the install manifests that hold a launch among them."""
    props = "".join(f"                field{i}:\n                  description: Field {i} of the spec.\n                  type: string\n" for i in range(n))
    return ("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: servings.example.com\nspec:\n"
            "  group: example.com\n  versions:\n    - name: v1\n      schema:\n        openAPIV3Schema:\n          type: object\n"
            "          properties:\n            spec:\n              type: object\n              properties:\n" + props)


LONG_DEPLOYMENT = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: chat\nspec:\n  template:\n    spec:\n      containers:\n"
    "        - name: vllm\n          image: vllm/vllm-openai:v0.32.0\n"
    "          args: [\"--model\", \"Qwen/Qwen3-8B\", \"--max-num-seq\", \"16\"]\n"
)


def _patched(tmp_path: Path, name: str, before: str, patch: str) -> str:
    """``before`` with ``patch`` applied by the ``patch`` program, as a user applies --diff."""
    import shutil
    import subprocess

    if shutil.which("patch") is None:
        pytest.skip("no patch program")
    folder = tmp_path / "applied"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(before.encode())
    subprocess.run(["patch", "-s", "-p1", "-d", str(folder)], input=patch.encode(), check=True, capture_output=True)
    return (folder / name).read_bytes().decode()


def test_diff_of_a_long_manifest_compares_the_lines_between_what_both_texts_share(tmp_path, monkeypatch):
    """A 1.4 MB install manifest with one launch: its patch is the whole file's (one hunk of
    three lines of context), found by a matcher given the few lines that differ, not 45,000."""
    import difflib

    from linter.fixer import _patch_lines

    text = _crd(15000) + "---\n" + LONG_DEPLOYMENT + "---\n" + _crd(200)
    write(tmp_path, "install.yaml", text)
    seen: list[int] = []
    real = difflib.SequenceMatcher

    class Counting(real):
        def __init__(self, isjunk=None, a="", b="", autojunk=True):
            seen.append(len(a))
            super().__init__(isjunk, a, b, autojunk)

    monkeypatch.setattr(difflib, "SequenceMatcher", Counting)
    r = run(tmp_path, monkeypatch, "--diff", "install.yaml")
    assert r.exit_code == 1 and seen and max(seen) < 10
    fixed = text.replace('"--max-num-seq", "16"', '"--max-num-seqs", "16"')
    whole = "".join(difflib.unified_diff(_patch_lines(text), _patch_lines(fixed), "a/install.yaml", "b/install.yaml"))
    assert r.stdout == whole and r.stdout.count("@@ -") == 1
    assert _patched(tmp_path, "install.yaml", text, r.stdout) == fixed


def test_the_patch_of_a_long_file_applies_wherever_its_changes_fall(tmp_path, monkeypatch):
    """Random edits of files made of few distinct lines (runs of equal lines, lines without a
    newline, CR line ends), compared from the lines both texts share: each patch turns the file
    into the other text; a short file's patch is difflib's."""
    import difflib
    import random

    from linter import fixer
    from linter.fixer import _patch_lines, unified_diff

    rng = random.Random(18)
    words = ["a\n", "b\n", "  type: string\n", "\n", "x", "y\n", "y\n", "y\n", "c\r\n", "z\r"]

    def edited(lines: list[str]) -> list[str]:
        out = list(lines)
        for _ in range(rng.randint(1, 4)):
            op = rng.random()
            if op < 0.4 and out:
                out[rng.randrange(len(out))] = rng.choice(words)
            elif op < 0.7:
                out.insert(rng.randint(0, len(out)), rng.choice(words))
            elif out:
                del out[rng.randrange(len(out))]
        return out

    for trial in range(300):
        lines = [rng.choice(words) for _ in range(rng.randint(0, 50))]
        before, after = "".join(lines), "".join(edited(lines))
        whole = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                        for line in difflib.unified_diff(_patch_lines(before), _patch_lines(after), "a/f.yaml", "b/f.yaml"))
        assert unified_diff("f.yaml", before, after) == whole
        monkeypatch.setattr(fixer, "TRIM_AFTER", 4)
        patch = unified_diff("f.yaml", before, after)
        monkeypatch.setattr(fixer, "TRIM_AFTER", 1000)
        assert (patch == "") == (before == after)
        if patch:
            assert _patched(tmp_path / str(trial), "f.yaml", before, patch) == after, (before, after, patch)
