"""ruff-like text output: ``path:line:col: CODE message`` with the source line and a caret."""

from __future__ import annotations

from collections import Counter

from packaging.version import Version

from linter.diagnostic import Diagnostic
from linter.engine import FileResult
from linter.reporters.common import printable


def _position(result: FileResult, d: Diagnostic) -> tuple[int, int]:
    if result.src is None:
        return 1, 1
    return result.src.line_col(d.span.start)


def concise(results: list[FileResult]) -> str:
    lines = []
    for result in results:
        for d in result.diagnostics:
            line, col = _position(result, d)
            lines.append(f"{printable(d.path)}:{line}:{col}: {d.code} {_suffix(d)}{printable(d.message)}")
    lines.append(summary(results))
    return "\n".join(lines) + "\n"


def _suffix(d: Diagnostic) -> str:
    return "[*] " if d.fix is not None and d.fix.applicability == "safe" else ""


def full(results: list[FileResult]) -> str:
    out = []
    for result in results:
        src = result.src
        for d in result.diagnostics:
            line, col = _position(result, d)
            where = f" [vLLM {d.vllm_version}]" if d.vllm_version else ""
            out.append(f"{printable(d.path)}:{line}:{col}: {d.code} {_suffix(d)}{printable(d.message)}{where}")
            if src is not None and src.text:
                text = src.line_text(line).expandtabs(1)
                end_line, end_col = src.line_col(max(d.span.end, d.span.start))
                end = end_col - 1 if end_line == line else len(text)
                # the caret under the escaped line: columns counted in what is shown
                before = len(printable(text[: col - 1]))
                width = len(printable(text[col - 1 : end]))
                gutter = f"{line:>4} | "
                out.append(gutter + printable(text))
                out.append(" " * (len(gutter) + before) + "^" * max(1, width))
            for note in d.notes:
                out.append(f"     = help: {printable(note)}")
            if d.fix is not None:
                out.append(f"     = {d.fix.applicability} fix: {printable(d.fix.message)}")
            out.append("")
    out.append(summary(results))
    return "\n".join(out) + "\n"


REASONS = {
    "target": "--target-version",
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


def summary(results: list[FileResult]) -> str:
    line = releases_line(results)
    text = _counts(results)
    return f"{line}\n{text}" if line else text


def _counts(results: list[FileResult]) -> str:
    diags = [d for r in results for d in r.diagnostics]
    if not diags:
        launches = sum(len(r.launches) for r in results)
        return f"All checks passed ({launches} launch{'es' if launches != 1 else ''} in {len(results)} file{'s' if len(results) != 1 else ''})."
    fixable = sum(1 for d in diags if d.fix is not None and d.fix.applicability == "safe")
    unsafe = sum(1 for d in diags if d.fix is not None and d.fix.applicability == "unsafe")
    text = f"Found {len(diags)} error{'s' if len(diags) != 1 else ''}."
    if fixable:
        text += f"\n[*] {fixable} fixable with the `--fix` option."
    if unsafe:
        text += f"\n{unsafe} hidden fix{'es' if unsafe != 1 else ''} can be enabled with the `--unsafe-fixes` option."
    return text


def statistics(results: list[FileResult]) -> str:
    by_code = Counter(d.code for r in results for d in r.diagnostics)
    return "\n".join(f"{n:>5}\t{code}" for code, n in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0]))) + ("\n" if by_code else "")
