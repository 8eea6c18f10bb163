"""ruff-like text output: ``path:line:col: CODE message`` with the source line and a caret.

``color``: ANSI colours as ruff uses them on a terminal (the path bold, the code in its
severity's colour, the caret red, the fix markers cyan); the caller decides when
(:func:`linter.reporters.use_color`).  ``quiet``: the findings only, no summary.
"""

from __future__ import annotations

import json
from collections import Counter

from packaging.version import Version

from linter.diagnostic import Diagnostic, Severity
from linter.engine import FileResult
from linter.reporters.common import printable, rel_path

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
RED = "\x1b[31m"
YELLOW = "\x1b[33m"
BLUE = "\x1b[34m"
CYAN = "\x1b[36m"
SEVERITY_COLORS = {Severity.ERROR: RED, Severity.WARNING: YELLOW, Severity.INFO: BLUE}


def _paint(text: str, style: str, color: bool) -> str:
    return f"{style}{text}{RESET}" if color and text else text


def _position(result: FileResult, d: Diagnostic) -> tuple[int, int]:
    if result.src is None:
        return 1, 1
    return result.src.line_col(d.span.start)


def _head(d: Diagnostic, line: int, col: int, color: bool) -> str:
    """``path:line:col: CODE [*] `` in ruff's colours."""
    # the path as ruff prints it: relative to the working folder inside it, absolute outside
    where = _paint(printable(rel_path(d.path)), BOLD, color) + _paint(":", CYAN, color) + f"{line}" + _paint(":", CYAN, color) + f"{col}" + _paint(":", CYAN, color)
    code = _paint(d.code, BOLD + SEVERITY_COLORS[d.severity], color)
    return f"{where} {code} {_suffix(d, color)}"


def concise(results: list[FileResult], *, color: bool = False, quiet: bool = False) -> str:
    lines = []
    for result in results:
        for d in result.diagnostics:
            line, col = _position(result, d)
            lines.append(_head(d, line, col, color) + printable(d.message))
    if not quiet:
        lines.append(summary(results, color=color))
    return "\n".join(lines) + "\n" if lines else ""


def _suffix(d: Diagnostic, color: bool = False) -> str:
    return _paint("[*]", CYAN, color) + " " if d.fix is not None and d.fix.applicability == "safe" else ""


def full(results: list[FileResult], *, color: bool = False, quiet: bool = False) -> str:
    out = []
    for result in results:
        src = result.src
        for d in result.diagnostics:
            line, col = _position(result, d)
            where = f" [vLLM {d.vllm_version}]" if d.vllm_version else ""
            out.append(_head(d, line, col, color) + printable(d.message) + _paint(where, CYAN, color))
            if src is not None and src.text:
                text = src.line_text(line).expandtabs(1)
                end_line, end_col = src.line_col(max(d.span.end, d.span.start))
                end = end_col - 1 if end_line == line else len(text)
                # the caret under the escaped line: columns counted in what is shown
                before = len(printable(text[: col - 1]))
                width = len(printable(text[col - 1 : end]))
                gutter = f"{line:>4} | "
                out.append(_paint(gutter, BLUE, color) + printable(text))
                out.append(" " * (len(gutter) + before) + _paint("^" * max(1, width), BOLD + RED, color))
            for note in d.notes:
                out.append("     " + _paint("= help:", CYAN, color) + f" {printable(note)}")
            if d.fix is not None:
                out.append("     " + _paint(f"= {d.fix.applicability} fix:", CYAN, color) + f" {printable(d.fix.message)}")
            out.append("")
    if not quiet:
        out.append(summary(results, color=color))
    return "\n".join(out) + "\n" if out else ""


REASONS = {
    "target": "--target-version",
    "target-history": "--target-version; option names only",
    "inherited": "a --config file, as the launch naming it",
    "pin": "pinned in the file",
    "pin-history": "pinned; option names only",
    "pin-outside-range": "pin not in the knowledge base, newest used",
    "newest": "no pin, newest known",
    "configured": "no pin, the configured target-version",
}


def releases_line(results: list[FileResult]) -> str:
    """Which releases the launches were checked against, and why."""
    counts = Counter((str(rep.version), rep.reason) for r in results for rep in r.launches)
    if not counts:
        return ""
    total = sum(counts.values())
    ordered = sorted(counts.items(), key=lambda kv: (Version(kv[0][0]), kv[0][1]))
    parts = [f"{n} against {v} ({REASONS.get(why, why)})" for (v, why), n in ordered]
    return f"Checked {total} launch{'es' if total != 1 else ''}: " + ", ".join(parts) + "."


def summary(results: list[FileResult], *, color: bool = False) -> str:
    line = releases_line(results)
    text = _counts(results, color)
    return f"{line}\n{text}" if line else text


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def severity_counts(results: list[FileResult]) -> str:
    """``3 errors, 2 warnings and 1 note in 4 files`` (what is zero is left out)."""
    diags = [d for r in results for d in r.diagnostics]
    by = Counter(d.severity for d in diags)
    parts = [_plural(n, word) for sev, word in ((Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "note")) if (n := by[sev])]
    files = sum(1 for r in results if r.diagnostics)
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{listed} in {_plural(files, 'file')}"


def unread_files(results: list[FileResult]) -> list[str]:
    """The files that mention vLLM where no launch was found (:attr:`FileResult.no_launch`)."""
    return [r.path for r in results if r.no_launch]


def unread_line(results: list[FileResult]) -> str:
    """``no vLLM launch found in 2 files that mention vLLM``, or "" when there are none."""
    n = len(unread_files(results))
    return f"no vLLM launch found in {_plural(n, 'file')} that mention{'s' if n == 1 else ''} vLLM" if n else ""


def _counts(results: list[FileResult], color: bool = False) -> str:
    diags = [d for r in results for d in r.diagnostics]
    unread = len(unread_files(results))
    missed = unread_line(results) + " (`--show-launches` lists them)" if unread else ""
    if not diags:
        launches = sum(len(r.launches) for r in results)
        seen = f"{_plural(launches, 'launch', 'launches')} in {_plural(len(results), 'file')}"
        if unread:
            return _paint(f"No diagnostics ({seen}), but {missed}.", BOLD + YELLOW, color)
        return _paint(f"All checks passed ({seen}).", BOLD + "\x1b[32m", color)
    fixable = sum(1 for d in diags if d.fix is not None and d.fix.applicability == "safe")
    unsafe = sum(1 for d in diags if d.fix is not None and d.fix.applicability == "unsafe")
    text = _paint(f"Found {severity_counts(results)}.", BOLD, color)
    if fixable:
        text += f"\n{_paint('[*]', CYAN, color)} {fixable} fixable with the `--fix` option."
    if unsafe:
        text += f"\n{unsafe} hidden fix{'es' if unsafe != 1 else ''} can be enabled with the `--unsafe-fixes` option."
    if unread:
        text += f"\n{missed[0].upper()}{missed[1:]}."
    return text


def statistics_rows(results: list[FileResult]) -> list[dict]:
    """Per rule: code, name, count, and whether a safe fix is offered for some of them (ruff's ``--statistics``)."""
    from rules._lib.base import all_rules

    rules = all_rules()
    by_code = Counter(d.code for r in results for d in r.diagnostics)
    fixable = {d.code for r in results for d in r.diagnostics if d.fix is not None and d.fix.applicability == "safe"}
    rows = []
    for code, n in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = rules.get(code)
        rows.append({"code": code, "name": rule.name if rule is not None else None, "count": n, "fixable": code in fixable})
    return rows


def statistics(results: list[FileResult], *, output_format: str = "full", color: bool = False) -> str:
    """``--statistics``: ``count<TAB>code<TAB>[*] name`` lines, or JSON (``json``/``json-lines``)."""
    rows = statistics_rows(results)
    if output_format == "json":
        return json.dumps(rows, indent=2) + "\n"
    if output_format == "json-lines":
        return "".join(json.dumps(row) + "\n" for row in rows)
    lines = []
    for row in rows:
        mark = _paint("[*]", CYAN, color) if row["fixable"] else "[ ]"
        lines.append(f"{row['count']:>5}\t{_paint(row['code'], BOLD + RED, color)}\t{mark} {row['name'] or ''}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")


def paint_diff(diff: str) -> str:
    """A unified diff in a terminal's colours: file headers bold, hunks cyan, removals red, additions green."""
    out = []
    for line in diff.splitlines(keepends=True):
        body, nl = (line[:-1], "\n") if line.endswith("\n") else (line, "")
        if body.startswith(("--- ", "+++ ")):
            out.append(_paint(body, BOLD, True) + nl)
        elif body.startswith("@@"):
            out.append(_paint(body, CYAN, True) + nl)
        elif body.startswith("-"):
            out.append(_paint(body, RED, True) + nl)
        elif body.startswith("+"):
            out.append(_paint(body, "\x1b[32m", True) + nl)
        else:
            out.append(line)
    return "".join(out)
