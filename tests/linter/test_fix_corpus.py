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
from rules.base import all_rules
from tests.linter.fix_helpers import assert_outside_edits_unchanged

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "files"
FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file()) if CORPUS.exists() else []


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
    old_lines, new_lines = src.text.splitlines(), fixed.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for line in new_lines[j1:j2]:
            assert any(c and (c in line or any(part and part in line for part in c.splitlines())) for c in contents), line
        for line in old_lines[i1:i2]:
            assert any(o and o.splitlines()[0] in line for o in originals) or not line.strip(), line
    # the file's encoding, BOM, line endings and final newline survive
    assert src.encode(fixed).startswith(src.bom)
    assert ("\r\n" in fixed) == ("\r\n" in src.text)
    assert fixed.count("\r\n") >= src.text.count("\r\n")
    assert fixed.endswith("\n") == src.text.endswith("\n")
