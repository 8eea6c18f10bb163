"""Checks shared by the --fix tests: bytes outside the recorded edits are untouched, pass by pass."""

from __future__ import annotations

from linter.fixer import FixOutcome


def assert_outside_edits_unchanged(outcome: FixOutcome) -> None:
    """Each pass's result is its text with exactly its edits applied; everything else is byte-identical.

    Walks the edits of each pass front to back and compares the stretches
    between them directly (no diff heuristics), then checks that the last
    pass ends where ``outcome.fixed`` is.
    """
    text = outcome.original
    for n, p in enumerate(outcome.passes):
        assert p.before == text, f"pass {n + 1} did not start from the previous pass's result"
        after = _next_text(outcome, n)
        pos_a = pos_b = 0
        for e in sorted(p.edits, key=lambda e: (e.span.start, e.span.end)):
            keep = text[pos_a : e.span.start]
            assert after[pos_b : pos_b + len(keep)] == keep, f"pass {n + 1}: text before offset {e.span.start} changed"
            pos_b += len(keep)
            assert after[pos_b : pos_b + len(e.content)] == e.content, f"pass {n + 1}: edit at {e.span} not applied as recorded"
            pos_b += len(e.content)
            pos_a = e.span.end
        assert after[pos_b:] == text[pos_a:], f"pass {n + 1}: text after the last edit changed"
        text = after
    assert text == outcome.fixed


def _next_text(outcome: FixOutcome, n: int) -> str:
    return outcome.passes[n + 1].before if n + 1 < len(outcome.passes) else outcome.fixed


def edited_lines(outcome: FixOutcome) -> int:
    return sum(len(p.edits) for p in outcome.passes)
