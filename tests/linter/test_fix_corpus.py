"""--fix on every real corpus file: parses afterwards, idempotent, changes only what it reports.

The corpus lives beside the repository (../shared/corpus); the test skips
without it.  Fixes are applied with --unsafe-fixes for the newest release,
which exercises the most edits.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from linter import knowledge
from linter.discovery import classify
from linter.engine import Settings, extract
from linter.fixer import fix_source
from linter.source_file import SourceFile
from rules._lib.base import all_rules
from tests.linter.fix_helpers import assert_outside_edits_unchanged

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "tree"
FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file()) if CORPUS.exists() else []


def _shortened(old: str, new: str) -> bool:
    """``new`` is ``old`` with some characters taken out (a deletion inside the line)."""
    rest = iter(old)
    return len(new) < len(old) and all(ch in rest for ch in new)


@pytest.mark.skipif(not FILES, reason="shared corpus not present")
@pytest.mark.skipif(not knowledge.known_versions(), reason="no inventories")
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fix_round_trips(path: Path):
    kind = classify(str(path), path.read_bytes()[:512]) or "yaml"
    settings = Settings(target=knowledge.newest())
    rules = all_rules()
    src = SourceFile.from_bytes(str(path), path.read_bytes())
    outcome = fix_source(src, kind, settings, rules, unsafe=True)
    assert outcome.error is None, outcome.error
    fixed = outcome.fixed
    # pass by pass, exactly the recorded edits changed the text
    assert_outside_edits_unchanged(outcome)
    if fixed == src.text:
        assert not outcome.passes
        return
    # the result parses at least as well as the original
    after = SourceFile(str(path), fixed, src.encoding, src.bom)
    assert len(extract(after, kind).problems) <= len(extract(src, kind).problems)
    # a second run changes nothing
    again = fix_source(after, kind, settings, rules, unsafe=True)
    assert again.fixed == fixed
    # every changed line carries a reported edit, and every removed line held flagged text
    contents = [e.content for d in outcome.applied for e in d.fix.edits]
    originals = [src.text[d.span.start : d.span.end] for d in outcome.applied]
    # what a deletion took out with a flagged option (its values, the line it stood on)
    deleted = "\n".join(p.before[e.span.start : e.span.end] for p in outcome.passes for e in p.edits if e.content == "")
    old_lines, new_lines = src.text.splitlines(), fixed.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for line in new_lines[j1:j2]:
            assert any(c and (c in line or any(part and part in line for part in c.splitlines())) for c in contents) or (
                deleted and any(_shortened(old, line) for old in old_lines[i1:i2])
            ), line
        for line in old_lines[i1:i2]:
            assert any(o and o.splitlines()[0] in line for o in originals) or line.strip() in deleted or not line.strip() or (
                deleted and any(_shortened(line, new) for new in new_lines[j1:j2])
            ) or any(c and line + c == new for c in contents for new in new_lines[j1:j2]), line  # or it only gained appended words
    # the file's encoding, BOM, line endings and final newline survive
    assert src.encode(fixed).startswith(src.bom)
    assert ("\r\n" in fixed) == ("\r\n" in src.text)
    assert fixed.count("\r\n") >= src.text.count("\r\n") - deleted.count("\r\n")
    assert fixed.endswith("\n") == src.text.endswith("\n")


@pytest.mark.skipif(not FILES, reason="shared corpus not present")
@pytest.mark.skipif(not knowledge.known_versions(), reason="no inventories")
def test_fix_whole_corpus_tree_through_the_cli(tmp_path, monkeypatch):
    """`vllm-lint --fix --unsafe-fixes` on a copy of the corpus: read-only files are reported and kept,
    writable ones fixed with their mode; the report equals a check of the fixed tree; a second run changes nothing."""
    import json
    import os
    import shutil
    import stat

    from click.testing import CliRunner

    from linter.cli import main

    tree = tmp_path / "corpus"
    shutil.copytree(CORPUS, tree)
    monkeypatch.chdir(tmp_path)
    args = ["--target-version", str(knowledge.newest()), "--no-cache", "--output-format", "json"]
    if "--no-cache" not in {p for param in main.params for p in getattr(param, "opts", [])}:
        args.remove("--no-cache")
    paths = sorted(p for p in tree.rglob("*") if p.is_file())
    for p in paths:
        os.chmod(p, 0o444)
    r = CliRunner().invoke(main, [*args, "--fix", "--unsafe-fixes", "corpus"], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.stderr
    assert all((tmp_path / p.relative_to(tmp_path)).read_bytes() == (CORPUS / p.relative_to(tree)).read_bytes() for p in paths)
    # writable now, with mixed modes
    for i, p in enumerate(paths):
        os.chmod(p, 0o755 if i % 2 else 0o644)
    r = CliRunner().invoke(main, [*args, "--fix", "--unsafe-fixes", "corpus"], catch_exceptions=False)
    assert r.exit_code in (0, 1) and "internal error" not in r.stderr and "a bug" not in r.stderr, r.stderr
    key = lambda d: (d["filename"], d["code"], d["location"]["row"], d["location"]["column"])  # noqa: E731
    after_fix = sorted(map(key, json.loads(r.stdout)))
    check = CliRunner().invoke(main, [*args, "corpus"], catch_exceptions=False)
    assert sorted(map(key, json.loads(check.stdout))) == after_fix
    assert [stat.S_IMODE(p.stat().st_mode) for p in paths] == [0o755 if i % 2 else 0o644 for i in range(len(paths))]
    snapshot = {p: p.read_bytes() for p in paths}
    r = CliRunner().invoke(main, [*args, "--fix", "--unsafe-fixes", "corpus"], catch_exceptions=False)
    assert "Fixed 0 errors." in r.stderr
    assert {p: p.read_bytes() for p in paths} == snapshot
    assert not [p for p in tree.rglob(".vllm-lint-*")], "temporary files left behind"
