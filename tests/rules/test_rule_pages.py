"""Every rule's page is a test: its Example fires the rule, its "Use instead" does not.

A page (the rule module's docstring, what ``--explain`` prints) shows each as an
indented block after the ``Example:`` / ``Use instead:`` heading: a shell line or a
YAML snippet.  The heading may say, in parentheses, the release to check against
(``Example (0.33):``, ``Example (`--target-version 0.30`):``; a bare release
is the target, unless ``--target-version`` names another) and that the snippet is a vLLM
``--config`` file (``config.yaml``); without a release the snippet is checked the way
the CLI checks it (its own pin, else the newest release).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from packaging.version import Version

from linter import knowledge
from linter.engine import Settings, lint_file
from rules._lib.base import all_rules

_HEADING = re.compile(r"^(?P<which>Example|Use instead)(?: \((?P<note>[^)]*)\))?:(?P<rest>.*)$")
_RELEASE = re.compile(r"\b0\.\d+(?:\.\d+)?\b")
_TARGET = re.compile(r"--target-version (0\.\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class Snippet:
    text: str
    kind: str
    target: str | None


def _block(lines: list[str], i: int) -> str | None:
    """The indented block after the heading on line ``i`` (prose that continues the heading skipped)."""
    j = i + 1
    while j < len(lines) and lines[j].strip() and not lines[j].startswith("    "):
        j += 1  # the heading's sentence goes on
    while j < len(lines) and not lines[j].strip():
        j += 1
    block = []
    while j < len(lines) and (not lines[j].strip() or lines[j].startswith("    ")):
        block.append(lines[j][4:])
        j += 1
    text = "\n".join(block).strip("\n")
    return text + "\n" if text else None


_YAML_START = re.compile(r"^(?:[\w.-]+:(?:\s|$)|- )")


def _kind(text: str, note: str) -> str:
    """A vLLM config file when the heading says so; YAML when the first line is a key or a
    list item; else a shell script."""
    if "config.yaml" in note:
        return "vllm-config"
    first = next((line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")), "")
    return "yaml" if _YAML_START.match(first) else "shell"


def page_snippets(doc: str) -> dict[str, Snippet | None]:
    lines = doc.splitlines()
    out: dict[str, Snippet | None] = {"Example": None, "Use instead": None}
    for i, line in enumerate(lines):
        m = _HEADING.match(line)
        if m is None or out[m["which"]] is not None:
            continue
        text = _block(lines, i)
        if text is None:
            continue
        note = m["note"] or ""
        release = _TARGET.search(note) or _RELEASE.search(note)
        out[m["which"]] = Snippet(text, _kind(text, note), release.group(1 if release.re is _TARGET else 0) if release else None)
    return out


def _pages() -> dict[str, list]:
    pages: dict[str, list] = {}
    for rule in all_rules().values():
        pages.setdefault(rule.module, []).append(rule)
    return pages


PAGES = _pages()


def _lint(tmp_path, snippet: Snippet, name: str) -> tuple[list[str], int]:
    """(codes reported, launches found) for the snippet, every rule selected."""
    suffix = {"shell": ".sh", "yaml": ".yaml", "vllm-config": ".yaml"}[snippet.kind]
    path = tmp_path / (name + suffix)
    path.write_text(snippet.text, encoding="utf-8")
    target = None
    if snippet.target is not None:
        target = knowledge.nearest_known(Version(snippet.target))
    result = lint_file(str(path), snippet.kind, Settings(target=target, select=frozenset({"ALL"})), all_rules())
    return [d.code for d in result.diagnostics], len(result.launches)


@pytest.mark.parametrize("module", [pytest.param(m, id=",".join(r.code for r in PAGES[m])) for m in sorted(PAGES)])
def test_page_example_fires_and_use_instead_does_not(tmp_path, module):
    rules = PAGES[module]
    mine = {r.code for r in rules}
    snippets = page_snippets(rules[0].doc)
    example, instead = snippets["Example"], snippets["Use instead"]
    assert example is not None, f"{module}: the page has no runnable Example"
    assert instead is not None, f"{module}: the page has no runnable Use instead"
    fired, _ = _lint(tmp_path, example, "example")
    assert mine & set(fired), f"{module}: the Example ({example.kind}, {example.target}) fires {fired}, none of {sorted(mine)}"
    fired, launches = _lint(tmp_path, instead, "instead")
    assert launches, f"{module}: the Use instead ({instead.kind}) holds no launch: it would pass without checking anything"
    assert not mine & set(fired), f"{module}: the Use instead ({instead.kind}, {instead.target}) fires {sorted(mine & set(fired))}"


def test_headings_are_read():
    doc = "Example (`--target-version 0.30`, pinned to 0.29):\n    pip install vllm==0.29.0\n    vllm serve m\n\nUse instead: prose\ngoes on:\n    a: 1\n\nFix safety: none.\n"
    got = page_snippets(doc)
    assert got["Example"] == Snippet("pip install vllm==0.29.0\nvllm serve m\n", "shell", "0.30")
    assert got["Use instead"] == Snippet("a: 1\n", "yaml", None)
