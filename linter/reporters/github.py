"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line per diagnostic.

``::error file=deploy/serve.sh,line=7,col=5,endLine=7,endColumn=15,title=VL102::message``

Escaping follows the Actions runner: the message escapes ``%``, CR and LF;
property values escape those and ``:`` and ``,`` too.  Before that, control and
format characters of paths and messages are escaped (:func:`linter.reporters.common.printable`):
the runner prints the rest to the log as it stands.  Columns are characters,
1-based, the end one past the last character (as in the text output).
"""

from __future__ import annotations

from linter.diagnostic import Diagnostic, Severity
from linter.engine import FileResult
from linter.reporters.common import char_pos, printable, rel_path

_NEWLINES = "\r\n"  # encoded by escape_data, shown as line breaks
COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(result: FileResult, d: Diagnostic) -> str:
    line, col = char_pos(result.src, d.span.start)
    end_line, end_col = char_pos(result.src, d.span.end)
    props = [
        ("file", printable(rel_path(result.path))),
        ("line", str(line)),
        ("col", str(col)),
        ("endLine", str(end_line)),
        ("endColumn", str(end_col)),
        ("title", d.code),
    ]
    message = printable(d.message, keep=_NEWLINES)
    if d.vllm_version:
        message += f" [vLLM {d.vllm_version}]"
    if d.fix is not None:
        message += f"\n{d.fix.applicability} fix: {printable(d.fix.message, keep=_NEWLINES)}"
    head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{COMMANDS[d.severity]} {head}::{escape_data(message)}"


def as_github(results: list[FileResult]) -> str:
    return "".join(annotation(r, d) + "\n" for r in results for d in r.diagnostics)
