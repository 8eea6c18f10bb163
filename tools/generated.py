"""The command line every generator of a per-release data file shares.

``python -m tools.extract_X --all`` writes the file; ``--all --check`` compares it with
what the wheels give (exit 1 when they differ).  Maintainer tooling only.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path


def json_text(data: dict) -> str:
    """Sorted, indented JSON with a final newline: the same data gives the same bytes."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(doc: str, out: Path, text: Callable[[], str], argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="every release (the file holds them all)")
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = ap.parse_args(argv)
    if not args.all:
        ap.error("give --all (the file holds every release)")
    return write_or_check(out, text(), args.check, f"{out} differs from the wheels")


def write_or_check(out: Path, new: str, check: bool, stale: str) -> int:
    """Write ``new`` to ``out``, or with ``check`` compare (print ``stale`` and return 1 when they differ)."""
    if check:
        same = out.exists() and out.read_text(encoding="utf-8") == new
        print("up to date" if same else stale)
        return 0 if same else 1
    out.write_text(new, encoding="utf-8")
    print(f"wrote {out}")
    return 0


def build(tool: str, versions: list[str], extract: Callable[[str], dict]) -> dict:
    """The common shape: schema, the command that made it, one entry per release."""
    return {"schema": 1, "generated-by": f"python -m tools.{tool} --all", "releases": {v: extract(v) for v in versions}}


def line_per_entry(data: dict, release_lines: Callable[[dict], list[str]]) -> str:
    """The common shape, written with ``release_lines(release)`` giving each release's inner
    lines (one line per entry, so a diff between regenerations reads per entry)."""
    lines = ["{", f' "generated-by": {json.dumps(data["generated-by"])},', f' "schema": {data["schema"]},', ' "releases": {']
    versions = list(data["releases"])
    for i, v in enumerate(versions):
        lines.append(f"  {json.dumps(v)}: {{")
        lines.extend(release_lines(data["releases"][v]))
        lines.append("  }" + ("," if i < len(versions) - 1 else ""))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def entries(items: list[str], indent: str = "    ") -> list[str]:
    """``items`` as lines, a comma after each but the last."""
    return [indent + item + ("," if i < len(items) - 1 else "") for i, item in enumerate(items)]
