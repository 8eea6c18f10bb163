"""Does a migrated tree start on its target?  Checks every launch's options against the
target release's option table, independently of the fixer.

    python3 tools/migration_check.py --target-version 0.33 [--vllm-lint PATH] TREE
    python3 tools/migration_check.py --target-version 0.33 --migrate TREE

With ``--migrate`` the tree is copied to a temporary folder (made writable), ``vllm-lint --fix
--unsafe-fixes --target-version X --no-cache`` runs on the copy, and the option rows
the target rejects are counted before and after.  Each rejected row is listed with why
(unrecognized, ambiguous, invalid choice), and for the rows left after the fix the
diagnostics vllm-lint still reports there (a row the tool cannot migrate must still be
reported).

Only two things come from vllm-lint: where the launches and their option rows are
(``--show-launches``, the readers) and the option table of the target
(``--list-options``, generated from the release wheel).  Whether a row is accepted is
decided here, the way argparse in ``vllm serve`` decides it: vLLM's underscore
rewriting, ``--opt.key`` dotted JSON keys, ``-O`` as ``--optimization-level``, unique prefixes
(allow_abbrev), choices.  What vLLM checks after argparse (a JSON key, an optimization level
such as ``.attention_backend=X``) is not judged.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

KEYWORD_ENTRYPOINTS = ("LLM", "EngineArgs", "AsyncEngineArgs")
OPAQUE_MARKS = ("$", "{{", "<", "${", "%(")


def run_json(cmd: list[str]) -> object:
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if not out.stdout.strip():
        raise SystemExit(f"no output from {' '.join(cmd)}: {out.stderr[-2000:]}")
    return json.loads(out.stdout)


class Table:
    """The option table of one release, as ``--list-options --output-format json`` prints it."""

    def __init__(self, rows: list[dict]):
        self.by_name: dict[str, dict] = {}
        self.dests: set[str] = set()
        for row in rows:
            self.dests.add(row["dest"])
            for n in row["names"]:
                self.by_name[n] = row
        self.longs = [n for n in self.by_name if n.startswith("--")]

    def resolve(self, option: str) -> tuple[dict | None, str]:
        """(row, how): how argparse resolves ``option`` (exact, abbrev, ambiguous, unrecognized)."""
        if option in self.by_name:
            return self.by_name[option], "exact"
        if option.startswith("--"):
            hits = [n for n in self.longs if n.startswith(option)]
            if len(hits) == 1:
                return self.by_name[hits[0]], "abbrev"
            if len(hits) > 1:
                return None, "ambiguous: could match " + ", ".join(hits[:4])
        return None, "unrecognized"


def argv_option(name: str) -> tuple[str, str | None]:
    """``name`` as vLLM's parser looks it up: underscores become dashes before the first
    ``.``; a ``--opt.key`` dotted key is looked up as ``--opt``; ``-O3`` is ``-O``."""
    if name.startswith("-O") and not name.startswith("--"):
        return "--optimization-level", None  # vLLM's rewriting: -O3, -O=3, -O 3 (argparse_utils.py, 0.33)
    if not name.startswith("--"):
        return name, None
    head, dot, tail = name[2:].partition(".")
    return "--" + head.replace("_", "-"), (tail if dot else None)


def concrete(value: str | None) -> bool:
    return value is not None and not any(m in value for m in OPAQUE_MARKS)


def judge(table: Table, launch: dict, opt: dict) -> str | None:
    """Why the target rejects this option row, or None when it is accepted (or unknowable)."""
    name, value = opt["name"], opt.get("value")
    if not concrete(name):
        return None
    if launch["entrypoint"] in KEYWORD_ENTRYPOINTS:
        return None if name in table.dests else "unknown keyword (no such EngineArgs field)"
    if launch["entrypoint"] == "config":
        option, dotted = argv_option("--" + name)
    else:
        option, dotted = argv_option(name)
    row, how = table.resolve(option)
    if row is None:
        return how
    if option in row.get("negative_names", []):
        return None
    if dotted is not None and not row.get("json", True):
        return None  # dotted keys of a non-JSON option: argparse's own error, rare; not judged here
    choices = row.get("choices")
    if choices and dotted is None and concrete(value) and row.get("takes_value"):
        words = [value] if row.get("nargs") in (None, "?") else value.split()
        allowed = {str(c) for c in choices}
        bad = [w for w in words if w not in allowed and w.lower() not in allowed]
        if bad:
            return f"invalid choice {bad[0]!r}"
    return None


def rejected_rows(lint: str, tree: str, target: str) -> tuple[int, list[dict]]:
    table = Table(run_json([lint, "--list-options", "--target-version", target, "--output-format", "json"]))
    launches = run_json([lint, "--show-launches", "--output-format", "json", "--target-version", target, "--no-cache", tree])
    total = 0
    out = []
    for launch in launches:
        if launch.get("program") != "vllm" or not launch.get("strong", True):
            continue
        for opt in launch["options"]:
            total += 1
            why = judge(table, launch, opt)
            if why is not None:
                out.append({"file": os.path.relpath(launch["file"], tree), "line": opt["line"], "kind": launch["kind"],
                            "name": opt["name"], "value": opt.get("value"), "why": why})
    return total, out


def diagnostics_at(lint: str, tree: str, target: str) -> dict[tuple[str, int], list[str]]:
    found = run_json([lint, "--output-format", "json", "--target-version", target, "--no-cache", tree])
    at: dict[tuple[str, int], list[str]] = collections.defaultdict(list)
    for d in found:
        at[(os.path.relpath(d["filename"], tree), d["location"]["row"])].append(f"{d['code']} {d['message']}")
    return at


def show(rows: list[dict], diags: dict | None = None) -> None:
    for r in rows:
        print(f"  {r['file']}:{r['line']} [{r['kind']}] {r['name']}{' ' + repr(r['value']) if r['value'] is not None else ''}: {r['why']}")
        if diags is not None:
            reported = diags.get((r["file"], r["line"]), [])
            print("      reported: " + (" | ".join(x[:160] for x in reported) if reported else "NOT REPORTED"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree")
    ap.add_argument("--target-version", required=True)
    ap.add_argument("--vllm-lint", default=os.path.join(os.path.dirname(sys.executable), "vllm-lint"))
    ap.add_argument("--migrate", action="store_true", help="fix a copy of the tree and compare before/after")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    lint, target = args.vllm_lint, args.target_version

    total, before = rejected_rows(lint, args.tree, target)
    if not args.migrate:
        print(f"{len(before)} of {total} option rows rejected by {target}")
        show(before, diagnostics_at(lint, args.tree, target))
        return 1 if before else 0
    with tempfile.TemporaryDirectory(prefix="vllm-lint-migrate-") as tmp:
        copy = os.path.join(tmp, "tree")
        shutil.copytree(args.tree, copy, symlinks=True)
        for folder, _dirs, names in os.walk(copy):  # a read-only corpus copies read-only: --fix would skip it
            for name in names:
                path = os.path.join(folder, name)
                if not os.path.islink(path):
                    os.chmod(path, os.stat(path).st_mode | 0o200)
        fix = subprocess.run([lint, "--fix", "--unsafe-fixes", "--target-version", target, "--no-cache", copy],
                             capture_output=True, text=True, check=False)
        broken = [line for line in fix.stderr.splitlines() if "no longer parses" in line or "internal error" in line or "did not converge" in line]
        total_after, after = rejected_rows(lint, copy, target)
        diags = diagnostics_at(lint, copy, target)
    fixed = len(before) - len(after)
    figures = {"target": target, "rows_before": total, "rows_after": total_after, "rejected_before": len(before),
               "rejected_after": len(after), "acceptable_after_fix": fixed, "broken_fixes": broken,
               "unreported_after": sum(1 for r in after if not diags.get((r["file"], r["line"])))}
    if args.json:
        print(json.dumps({**figures, "before": before, "after": after}, indent=2))
        return 0
    print(f"target {target}: option rows {total} before, {total_after} after the fix")
    print(f"rejected by {target}: {len(before)} before, {len(after)} after ({fixed} made acceptable"
          + (f", {100 * fixed / len(before):.0f}%" if before else "") + ")")
    print(f"fixes that broke a file: {len(broken)}")
    for line in broken:
        print("  " + line)
    print("rejected before:")
    show(before)
    print("rejected after (with what vllm-lint still reports on that line):")
    show(after, diags)
    return 0


if __name__ == "__main__":
    sys.exit(main())
