"""Markdown: vLLM starts in fenced code blocks (README commands, Dockerfiles, manifests).

Fenced code blocks are found by a line scanner that follows CommonMark's fence
rules (``````` and ``~~~`` fences of three or more characters, up to three
spaces of indentation relative to the enclosing list item, block quotes, the
closing fence at least as long as the opening one, an unclosed fence running to
the end).  The body of an MkDocs container (an admonition ``!!! note``, a collapsible
``??? code``, a content tab ``=== "CUDA"``) is indented four columns under its marker and is
read as a list item's body is, its fences included.  A MyST directive fence
(```````{code-block} bash``, or the colon fence ``:::{code-block} bash``) is a block of its
argument's language, its ``:option:`` lines kept out of the code.

A YAML, Python or Dockerfile block is handed to the extractor of its language on a *masked*
copy of the file: every character outside the block's content becomes a space (line ends
kept), so the extractor's offsets are offsets in the Markdown file and no position is copied
by hand; a YAML block in a list item is read a document at a time (its ``---`` lines keep the
item's indentation).  A shell block is handed over as its own lines (prompts, quote markers
and the indentation of a list item or container left out, so a heredoc's body reads as the
command writes it), placed by an offset map.

Blocks are documentation: a session's prompts (``$ ``, ``(venv) user@host:~$ ``, ``>>> ``, the
default prompts of common shells: ``[user@host ~]$ ``, ``bash-5.1$ ``, ``❯ ``) and output lines
(logs pasted between commands, ``vllm==0.10.0`` from ``pip freeze``) are not commands, and a
``> `` line right after a command is bash's second prompt (a heredoc being typed); a bare
``# `` line is a root prompt only when bash parses what follows it, else a comment;
``<MODEL>``, ``...``, ``[--port PORT]``, ``{auto,half}`` and a MyST ``|substitution|`` are
unknown words, never wrong ones; a block that cannot be read is reported only when a launch
in it was lost.  An untagged block may be prose: it is read without parse complaints, and
prose that names ``vllm serve`` mid-line is no launch.  A ``console`` block written without
prompts is read as an untagged one; a ``text`` block is read only when it is a session pasted
with its prompts.  A systemd unit in an ``ini`` block runs its ``ExecStart=`` command.  A
PowerShell block (``powershell``, ``pwsh``) is read as a shell's words, a backtick that ends a
line continuing it (``docker run ... `` on Windows), its ``PS C:\\>`` prompts dropped.  A
notebook cell copied into a shell block keeps IPython's ``!`` before its commands
(``!vllm serve m``): the command is read without it.  A Python block that calls a name an earlier
block imported from vLLM (``from vllm import LLM`` in one cell, ``LLM(...)`` in the next) is
read with that import.  A YAML excerpt whose aliases name anchors it leaves out (a compose service
cut from its file, ``<<: *gpu``) is read with those aliases as unknown values.

Launches found in blocks get ``kind="markdown"`` and a ``group`` per block
(``path#L<fence line>``): the blocks of a README are alternatives, not one
deployment.
"""

from __future__ import annotations

import importlib
import posixpath
import re
from typing import Callable

from linter import placeholders
from linter.launch import EnvVar, Launch, Span, Token
from linter.offset_map import OffsetMap
from linter.records import Record, replace
from linter.source_file import SourceFile
from linter.sources import READ_PAST_AN_ERROR, Extraction, Problem, indented_documents

__all__ = ["extract", "Block", "fenced_blocks"]

# ``sh-session``: GitHub's (Linguist's) extension for a shell session, accepted as a fence's language
SHELL_LANGS = frozenset({"bash", "sh", "shell", "zsh", "console", "shell-session", "shellsession", "bash-session", "sh-session", "terminal", "ksh", "dash"})
PROMPT_LANGS = frozenset({"console", "shell-session", "shellsession", "bash-session", "sh-session", "terminal"})
YAML_LANGS = frozenset({"yaml", "yml"})
DOCKER_LANGS = frozenset({"dockerfile", "docker", "containerfile"})
PYTHON_LANGS = frozenset({"python", "py", "python3", "pycon"})
# a systemd unit shown in an ``ini`` (or ``systemd``) block: its ``ExecStart=`` runs the service
UNIT_LANGS = frozenset({"ini", "systemd", "service"})
# Windows PowerShell: its commands are words as a shell's, a line continued by a backtick at its end
POWERSHELL_LANGS = frozenset({"powershell", "pwsh", "ps1", "ps", "posh"})
# plain text: output, diagrams, prose -- or a session pasted with its prompts (read as one then)
TEXT_LANGS = frozenset({"text", "txt", "plaintext", "plain"})


class Block(Record):
    __slots__ = ("info", "lang", "fence_line", "fence_start", "fence_indent", "lines", "closed", "options")

    info: str
    lang: str
    fence_line: int  # 1-based line of the opening fence
    fence_start: int  # offset of the opening fence's first character
    fence_indent: int  # columns of indentation of the opening fence
    lines: list[tuple[int, int]]  # content ranges (line end excluded)
    closed: bool
    options: list[str]  # a MyST directive's option names (``substitutions``), not in ``lines``

    def __init__(self, info, lang, fence_line, fence_start, fence_indent, lines=None, closed=False, options=None):
        self.info = info
        self.lang = lang
        self.fence_line = fence_line
        self.fence_start = fence_start
        self.fence_indent = fence_indent
        self.lines = ([] if lines is None else lines)
        self.closed = closed
        self.options = ([] if options is None else options)


_LINE_END = re.compile(r"\r\n?|\n")  # CommonMark's line endings: LF, CRLF and a lone CR


def _lines(text: str) -> list[tuple[int, int, int]]:
    """``(start, end, next)`` for each line: ``text[start:end]`` without its line end."""
    out = []
    k = 0
    for m in _LINE_END.finditer(text):
        out.append((k, m.start(), m.end()))
        k = m.end()
    if k < len(text):
        out.append((k, len(text), len(text)))
    return out


def _blank(text: str) -> str:
    """``text`` with every character but line ends turned to a space, a lone CR to a LF: the
    same offsets, and line ends a code block's own parser (shell, Python) reads as such."""
    return _LONE_CR.sub("\n", _NOT_LINE_END.sub(_spaces, text))


def _spaces(m: re.Match) -> str:
    return " " * (m.end() - m.start())


_NOT_LINE_END = re.compile(r"[^\r\n]+")  # a line at a time (a character at a time is 30 ns each)
_LONE_CR = re.compile(r"\r(?!\n)")


def _indent(text: str, k: int, end: int) -> tuple[int, int]:
    """``(columns, chars)`` of leading spaces/tabs from ``k``."""
    col = 0
    j = k
    while j < end and text[j] in " \t":
        col = col + 4 - (col % 4) if text[j] == "\t" else col + 1
        j += 1
    return col, j - k


def _blockquote_prefix(text: str, k: int, end: int, limit: int | None = None) -> tuple[int, int]:
    """``(characters, markers)`` of the ``>`` block quote markers (with their optional space) at ``k``.

    ``limit``: at most that many markers (inside a code block, only the block quotes the
    opening fence stands in; a ``>>>`` prompt of the block's own text is content).
    """
    j = k
    depth = 0
    while limit is None or depth < limit:
        col, n = _indent(text, j, end)
        if col > 3 or j + n >= end or text[j + n] != ">":
            break
        j += n + 1
        depth += 1
        if j < end and text[j] == " ":
            j += 1
    return j - k, depth


def _list_marker(text: str, k: int, end: int) -> int | None:
    """Width of a list item marker plus its following spaces at ``k`` (``- ``, ``1. ``), or None."""
    if k >= end:
        return None
    ch = text[k]
    j = k
    if ch in "-*+":
        j = k + 1
    elif ch.isdigit():
        while j < end and j - k < 9 and text[j].isdigit():
            j += 1
        if j >= end or text[j] not in ".)":
            return None
        j += 1
    else:
        return None
    if j < end and text[j] not in " \t":
        return None
    spaces = 0
    while j < end and text[j] == " " and spaces < 4:
        j += 1
        spaces += 1
    if spaces == 0 and j < end:
        return None
    return j - k


# The opening line of an MkDocs (Python-Markdown) container: an admonition ``!!! note "Title"``,
# a collapsible ``??? code`` / ``???+ note`` (pymdownx.details), a content tab ``=== "CUDA"``
# (pymdownx.tabbed).  Its body is the following lines indented four columns deeper than the marker.
_CONTAINER = re.compile(r"(?:!!!|\?\?\?\+?)[ \t]+[A-Za-z]|===\+?[ \t]+\"")


# MyST (Sphinx) code directives, ```{code-block} bash (or the colon fence :::{code-block} bash):
# the language is the argument, and the directive's options (``:substitutions:``, ``:caption: x``)
# open the block, one a line
_CODE_DIRECTIVES = frozenset({"{code-block}", "{code}", "{sourcecode}", "{code-cell}"})
_DIRECTIVE_OPTION = re.compile(r"[ \t]*:([A-Za-z][\w-]*):(?:[ \t]|$)")
# a MyST substitution, ``quay.io/ascend/vllm-ascend:|vllm_ascend_version|``, in a block whose
# directive has ``:substitutions:``: a value filled in when the docs are built
_SUBSTITUTION = re.compile(r"\|[A-Za-z_][\w.-]+\|")


def fenced_blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text."""
    blocks: list[Block] = []
    cur: Block | None = None
    fence_char = ""
    fence_len = 0
    levels: list[int] = []  # content columns of the open list items and MkDocs containers, innermost last
    list_indent = 0  # content column of the innermost one (0: none)
    quote_depth = 0  # block quotes the open fence stands in
    options = False  # the open block is a MyST directive whose option lines may still come
    for lineno, (start, end, _nxt) in enumerate(_lines(text), 1):
        bq, depth = _blockquote_prefix(text, start, end, quote_depth if cur is not None else None)
        k = start + bq
        col, n = _indent(text, k, end)
        body = k + n
        if cur is not None:
            rel = col - list_indent if col >= list_indent else col
            run = 0
            while body + run < end and text[body + run] == fence_char:
                run += 1
            if rel <= 3 + max(0, cur.fence_indent - list_indent) and run >= fence_len and not text[body + run : end].strip():
                cur.closed = True
                blocks.append(cur)
                cur = None
                continue
            # content: drop up to fence_indent columns of indentation
            drop = 0
            c = 0
            while k + drop < end and text[k + drop] == " " and c < cur.fence_indent:
                drop += 1
                c += 1
            opt = _DIRECTIVE_OPTION.match(text, k + drop, end) if options else None
            if opt is not None:  # ``:substitutions:``, ``:caption: x``: the directive's, not the code's
                cur.options.append(opt.group(1))
                continue
            options = False
            cur.lines.append((k + drop, end))
            continue
        if body >= end:
            continue  # blank line: lists and containers stay open
        while levels and col < levels[-1]:  # a line less indented closes the items and containers it leaves
            levels.pop()
        marker = _list_marker(text, body, end)
        fence_at = body
        fence_col = col
        if marker is not None and text[body : body + 3] not in ("---", "***", "___"):
            levels.append(col + marker)
            fence_at = body + marker
            fence_col = col + marker
        elif _CONTAINER.match(text, body, end):
            levels.append(col + 4)
            list_indent = levels[-1]
            continue
        list_indent = levels[-1] if levels else 0
        rel = fence_col - list_indent if fence_col >= list_indent else fence_col
        if rel > 3:
            continue
        ch = text[fence_at] if fence_at < end else ""
        if ch not in ("`", "~", ":"):
            continue
        run = 0
        while fence_at + run < end and text[fence_at + run] == ch:
            run += 1
        if run < 3:
            continue
        info = text[fence_at + run : end].strip()
        if ch == "`" and "`" in info:
            continue
        words = info.split()
        if ch == ":" and not (words and words[0].lower() in _CODE_DIRECTIVES):
            continue  # a MyST colon fence is code only as a code directive (``:::{note}`` is prose)
        options = bool(words) and words[0].lower() in _CODE_DIRECTIVES
        if options:  # MyST: ```{code-block} bash -- the language is the directive's argument
            lang = words[1].lower() if len(words) > 1 else ""
        else:
            lang = words[0].lower() if words else ""
        lang = lang.strip("{}.").split(",")[0]
        cur = Block(info, lang, lineno, fence_at, fence_col)
        fence_char, fence_len = ch, run
        quote_depth = depth
    if cur is not None:
        blocks.append(cur)
    return blocks


def _sniff(src_text: str, block: Block) -> str:
    content = "\n".join(src_text[a:b] for a, b in block.lines)
    stripped = [ln.strip() for ln in content.splitlines() if ln.strip()]
    if not stripped:
        return ""
    first = stripped[0].split(None, 1)[0].upper() if stripped[0].split() else ""
    if first in ("FROM", "ARG") and any(ln.split(None, 1)[0].upper() in ("CMD", "ENTRYPOINT", "RUN", "ENV") for ln in stripped[1:] if ln.split()):
        return "dockerfile"
    if any(ln.startswith(("apiVersion:", "services:", "kind:")) for ln in stripped):
        return "yaml"
    if any(ln.startswith(("import ", "from ")) for ln in stripped) and ("LLM(" in content or "import" in stripped[0] or _SHELL_ESCAPE.match(stripped[0])):
        return "python"  # a notebook cell: Python, its ``!pip install`` lines shell escapes
    if any(ln.startswith(("$ ", "# ")) for ln in stripped) and not any(ln.startswith("#!") for ln in stripped):
        return "console"
    return "bash"


def _mid_line_past_an_error(text: str, launch: Launch) -> bool:
    """A launch the shell reader read past a parse error (its note says so) that starts after
    other words of its line."""
    if READ_PAST_AN_ERROR not in launch.notes:
        return False
    line_start = text.rfind("\n", 0, launch.span.start) + 1
    return bool(text[line_start : launch.span.start].strip())


def _masked(src: SourceFile, ranges: list[tuple[int, int]], blank: str | None = None) -> list[str]:
    text = src.text
    out = list(blank if blank is not None else _blank(text))
    for a, b in ranges:
        out[a:b] = text[a:b]
    return out


def _script(src: SourceFile, ranges: list[tuple[int, int]], substitutions: bool = False, backticks: bool = False) -> tuple[str, OffsetMap]:
    """A shell block's script: its command lines (``ranges``, one a line) each ended by a line
    break, and the map placing the script's characters in the file.  The indentation of a block
    in a list item or an MkDocs container, a block quote's ``>`` and a session's prompts are
    not part of it: a heredoc's body (a manifest with its ``---``, a Python script) is read as
    the command writes it, not shifted by the document's layout.  With ``substitutions``, a MyST
    substitution (``|version|``, a shell pipe to bash) stands as an unknown variable as long.
    With ``backticks`` (a PowerShell block), a backtick that ends a line continues it, as a
    backslash does in bash: it is read as one, standing nowhere in the file."""
    text = src.text
    parts: list[str] = []
    offsets = OffsetMap(fallback=ranges[0][0])
    at = 0
    for a, b in ranges:
        line = text[a:b]
        verbatim = [(0, b - a)]
        if substitutions and _SUBSTITUTION.search(line):
            holes = [m.span() for m in _SUBSTITUTION.finditer(line)]
            line = _SUBSTITUTION.sub(lambda m: "${" + "_" * (len(m.group()) - 3) + "}", line)
            edges = [0, *(x for h in holes for x in h), b - a]
            verbatim = [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)]  # a stand-in stands nowhere
        elif backticks and line.rstrip(" \t").endswith("`"):
            line = line.rstrip(" \t")[:-1] + "\\"
            verbatim = [(0, len(line) - 1)]
        parts.append(line)
        for i, j in verbatim:
            offsets.add(at + i, a + i, j - i)
        at += len(line)
        parts.append("\n")
        if text.startswith("\n", b):  # the line's own break, where it is one
            offsets.add(at, b, 1)
        at += 1
    return "".join(parts), offsets


_MAX_BLOCKS = 500  # code blocks analysed per file: each non-shell block is parsed at the file's full length


# A shell prompt at the start of a console line: "$ ", "# ", "% ", "(venv) $ ", "user@host:~/x$ ",
# and the default prompts of common shells and systems: "[user@host ~]$ " (Fedora, RHEL),
# "user@host ~ % " (zsh on macOS), "bash-5.1$ " and "sh-4.4# " (bash's own), "❯ " (starship).
_PROMPT = re.compile(
    r"(?:\([^()\n]*\)\s*)?"  # (venv), (base)
    r"(?:\[[^\[\]\n]{1,80}\]"  # [user@host dir]
    r"|[\w.-]+@[\w.-]+(?::[^\s$#]*|[ \t]+[^\s$#%]+)?[ \t]*"  # user@host:~/x, user@host ~
    r"|(?:ba|da|k|z)?sh-\d+(?:\.\d+)*"  # bash-5.1
    r")?[$#%] "
    r"|❯ "
)


def _console_ranges(text: str, block: Block) -> list[tuple[int, int]]:
    """Command lines of a console session, prompts dropped; output lines dropped.

    A bare ``# `` is a root prompt or a comment: its line (with the lines it continues onto) is
    a command only when bash parses it on its own.  A comment that does not parse (``# Don't
    forget the token``: a quote never closed; ``# Options for serve.sh (vllm serve --config
    x.yaml)``, a diff's context line) would otherwise break the session's parse, hiding the
    commands after it and making a parse error of prose."""
    from linter.sources import shell

    ranges: list[tuple[int, int]] = []
    command: list[tuple[int, int]] = []  # the ranges of the command being read
    bare = False  # its prompt is a bare ``# ``
    continuing = False
    typing = False  # the line before was part of a command (a "> " line goes on with it)

    def close() -> None:
        if command and (not bare or shell.parses("\n".join(text[a:b] for a, b in command))):
            ranges.extend(command)
        command.clear()

    for a, b in block.lines:
        line = text[a:b]
        stripped = line.lstrip()
        lead = len(line) - len(stripped)
        if continuing:
            if stripped.startswith("> "):  # the PS2 prompt of a continued line
                lead += 2
            command.append((a + lead, b))
            continuing = line.rstrip().endswith("\\")
            continue
        m = _PROMPT.match(stripped)
        if m is not None:
            close()
            bare = m.end() == 2 and stripped.startswith("# ")
            command.append((a + lead + m.end(), b))
            continuing = line.rstrip().endswith("\\")
        elif typing and (stripped.startswith("> ") or stripped == ">"):
            # the PS2 prompt of a command still being typed: a heredoc's body and its end, a
            # quoted string's next line
            command.append((a + lead + min(2, len(stripped)), b))
            continuing = line.rstrip().endswith("\\")
        else:
            typing = False  # output: a later "> " line is output too
            continue
        typing = True
    close()
    return ranges


# a server's log line pasted into a command block (vLLM's logger, uvicorn, a process prefix, a timestamp)
_LOG_LINE = re.compile(
    r"[ \t]*(?:(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|TRACE)(?:[ \t:\]]|$)"
    r"|\((?:APIServer|EngineCore\w*|VllmWorker\w*|Worker\w*|RayWorker\w*)[ \t]+pid=\d+\)"
    r"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d)"
)


def _without_log_lines(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A block's lines without the log output pasted between its commands (not a continued line)."""
    out: list[tuple[int, int]] = []
    continued = False
    for a, b in lines:
        if continued or not _LOG_LINE.match(text, a, b):
            out.append((a, b))
        continued = text[a:b].rstrip().endswith("\\")
    return out


# an unprompted line that starts a vLLM command (``vllm serve``, ``X=1 python -m vllm...``,
# ``docker run ... vllm/vllm-openai``), not output that names vLLM (``vllm==0.10.0``,
# ``Unable to find image 'vllm/vllm-openai:latest' locally``)
_STARTS_VLLM = re.compile(
    r"(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*(?:(?:sudo|nohup|exec|time)[ \t]+)*"
    r"(?:vllm[ \t]|python[0-9.]*[ \t]+(?:-\S+[ \t]+)*-m[ \t]+vllm\b|(?:docker|podman)[ \t]+run\b.*vllm)"
)


_RUNS_VLLM = re.compile(r"\bvllm[ \t]+serve\b|[ \t]-m[ \t]+vllm\b")


def _prompted(ln: str) -> bool:
    """``$ ``, ``% `` (zsh), ``(venv) $ ``, ``user@host:~/x$ ``, ``root@host:/# ``: not a bare ``# ``."""
    m = _PROMPT.match(ln)
    return m is not None and not ln.startswith("# ")  # a bare ``# `` line is a comment


def _has_prompts(text: str, block: Block) -> bool:
    """A block tagged as a script that is really a session: its first command line (comments
    aside) is prompted and no unprompted line starts a vLLM command.  The lines a prompted command continues onto (after
    a ``\\``: ``vllm/vllm-openai:latest \\``) and the output between commands (``vllm==0.10.0``
    from ``pip freeze``) are no unprompted commands."""
    lines = [text[a:b] for a, b in block.lines]
    first = next((ln.lstrip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    if not _prompted(first):
        return False
    continued = False
    for raw in lines:
        ln = raw.lstrip()
        was, continued = continued, raw.rstrip().endswith("\\")
        if was or not ln or _prompted(ln) or _LOG_LINE.match(ln):
            continue
        if _STARTS_VLLM.match(ln) or _RUNS_VLLM.search(ln):  # ``uv run vllm serve``, ``srun ... -m vllm...``
            return False
    return True


def _no_prompt(text: str, block: Block) -> bool:
    """A session block (``console``) written without prompts: no ``$ `` and no bare ``# `` line that
    starts a vLLM command.  It is commands (vLLM's own docs write them so), or output."""
    for a, b in block.lines:
        ln = text[a:b].lstrip()
        if _prompted(ln) or (ln.startswith("# ") and _STARTS_VLLM.match(ln, 2)):
            return False
    return True


# ``ExecStart=``, with the prefixes that change how systemd runs it (``-`` ignore failure, ``@``, ``+``, ``!``)
_EXEC_START = re.compile(r"[ \t]*ExecStart[ \t]*=[ \t]*[-@:+!]*[ \t]*")


def _exec_start_ranges(text: str, block: Block) -> list[tuple[int, int]]:
    """The command of each ``ExecStart=`` line of a systemd unit, with the lines a trailing
    backslash continues it onto (systemd joins them as bash does).  Its words are split
    as a shell's (quotes, ``$VAR``); other keys (``ExecStartPre=``, ``Environment=``) are not
    the service's command."""
    ranges: list[tuple[int, int]] = []
    continuing = False
    for a, b in block.lines:
        line = text[a:b]
        if continuing:
            ranges.append((a, b))
        else:
            m = _EXEC_START.match(text, a, b)
            if m is None:
                continue
            ranges.append((m.end(), b))
        continuing = line.rstrip().endswith("\\")
    return ranges


# a notebook's shell escape (``!pip install vllm``, ``!vllm serve m``) at the start of a command line
_SHELL_ESCAPE = re.compile(r"[ \t]*!(?=[A-Za-z_./~$\"'])")


def _without_shell_escapes(text: str, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Command lines copied from a notebook cell (a Colab or Kaggle session shown as a ``bash``
    block) without the ``!`` that makes IPython run them: bash reads ``!vllm`` as a command of
    that name, and ``! cmd``, its negation, keeps its space."""
    out: list[tuple[int, int]] = []
    continued = False
    for a, b in ranges:
        m = None if continued else _SHELL_ESCAPE.match(text, a, b)
        out.append((m.end(), b) if m is not None else (a, b))
        continued = text[a:b].rstrip().endswith("\\")
    return out


# PowerShell's prompt (``PS C:\\Users\\me> ``) and the prompt of a line it continues (``>> ``)
_PS_PROMPT = re.compile(r"[ \t]*PS(?: [^>\n]*)?> ")
_PS_CONTINUED = re.compile(r"[ \t]*>> ")


def _powershell_ranges(text: str, block: Block) -> list[tuple[int, int]]:
    """The command lines of a PowerShell block.  A session pasted with its prompts
    (``PS C:\\> docker run ... `` and its ``>> `` lines) is its prompted lines, prompts dropped,
    with the lines a trailing backtick continues them onto; its other lines are output.  A
    script is every line but a server's log output."""
    prompted = any(_PS_PROMPT.match(text, a, b) for a, b in block.lines)
    ranges: list[tuple[int, int]] = []
    continued = False
    for a, b in block.lines:
        m = _PS_PROMPT.match(text, a, b)
        if continued:
            c = _PS_CONTINUED.match(text, a, b)
            ranges.append((c.end() if c is not None else a, b))
        elif m is not None:
            ranges.append((m.end(), b))
        elif prompted or _LOG_LINE.match(text, a, b):
            continue  # output
        else:
            ranges.append((a, b))
        continued = text[a:b].rstrip(" \t").endswith("`")
    return ranges


def _module(name: str):
    try:
        return importlib.import_module(f"linter.sources.{name}")
    except Exception:  # noqa: BLE001 - the module may not exist yet or may be broken
        return None


def _run(fn: Callable[[], Extraction], out: Extraction, block: Block, src: SourceFile) -> Extraction | None:
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - one block's failure must not stop the file
        out.problems.append(Problem(Span(block.fence_start, block.fence_start), f"{block.lang or 'code'} block: extraction failed: {type(exc).__name__}: {exc}"))
        return None


def _fix_token(text: str, tok: Token | None) -> Token | None:
    if tok is None or tok.value_start is None:
        return tok
    if text[tok.value_start : tok.value_start + len(tok.value)] == tok.value:
        return tok
    return replace(tok, value_start=None)


def _fix_launch(text: str, launch: Launch) -> None:
    launch.entry = [_fix_token(text, t) for t in launch.entry]  # type: ignore[misc]
    launch.args = [_fix_token(text, t) for t in launch.args]  # type: ignore[misc]
    launch.env = [EnvVar(_fix_token(text, e.name), _fix_token(text, e.value)) for e in launch.env]  # type: ignore[arg-type]
    launch.image = _fix_token(text, launch.image)
    launch.settings = [
        replace(s, name=_fix_token(text, s.name), value=_fix_token(text, s.value)) for s in launch.settings
    ]


# prose that names a YAML block as vLLM's config file
_SAYS_CONFIG = re.compile(
    r"--config\b|\bvllm\b[^\n.]{0,40}\bconfig(?:uration)?(?:\s+file|\.ya?ml)\b|\bconfig(?:uration)?\s+file\b[^\n.]{0,40}\bvllm\b",
    re.I)
_CONFIG_FILE = re.compile(r"--config[= ]+['\"]?([^\s'\"]+\.ya?ml)")


_SYNOPSIS = re.compile(r"\[(?:-|options\]|args\]|flags\])", re.I)  # ``[-h]``, ``[--port PORT]``, ``[OPTIONS]``


def _is_synopsis(launch: Launch) -> bool:
    """A usage line: a synopsis word (``[-h]``, ``[options]``) and no option given outside brackets."""
    words = [t.value for t in launch.args]
    return any(_SYNOPSIS.match(w) for w in words) and not any(w.startswith("-") for w in words)


# A line of a program's log (``INFO 01-02 10:00:00 api_server.py:123] ...``, ``ERROR: ...``,
# ``(VllmWorker rank=0 pid=12) WARNING ...``, ``2025-01-02 10:00:00,123 - ...``) pasted in a shell block.
_LOG_LINE = re.compile(
    r"[ \t]*(?:\([^()\n]*\)[ \t]*)?(?:(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL|TRACE)\b[:\s]"
    r"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\[?\d\d-\d\d \d\d:\d\d:\d\d)")


def _named_as_config(text: str, block: Block, since: int) -> bool:
    """A YAML block is a vLLM ``--config`` file only when the document says so: the prose just
    before it (or its info string, or the comments it opens with: ``# config.yaml``) names it as
    vLLM's config, or a ``--config FILE`` elsewhere in the document names a file that the prose
    before it mentions."""
    before = text[max(since, block.fence_start - 600) : block.fence_start] + " " + block.info
    for a, b in block.lines:  # the comments the block opens with: ``# config.yaml``
        line = text[a:b].strip()
        if line and not line.startswith("#"):
            break
        before += " " + line
    if _SAYS_CONFIG.search(before):
        return True
    names = {posixpath.basename(m.group(1)) for m in _CONFIG_FILE.finditer(text)}
    return any(n in before for n in names)


def _calls(text: str, block: Block, names: set[str]) -> bool:
    """Whether the block calls or uses one of ``names`` (``LLM(``, ``vllm.LLM``)."""
    if not names:
        return False
    pattern = re.compile(r"(?<![\w.])(?:" + "|".join(sorted(map(re.escape, names))) + r")[ \t]*[(.]")
    return any(pattern.search(text, a, b) for a, b in block.lines)


# a YAML alias (``*defaults``) where a node starts, and an anchor (``&defaults``)
_ALIAS = re.compile(r"(?<=[\s\[{,])\*([^\s,\[\]{}]+)")
_ANCHOR = re.compile(r"(?<=[\s\[{,])&([^\s,\[\]{}]+)")


def _unknown_aliases(text: str, block: Block, masked: str) -> str:
    """``masked`` with each alias of the block whose anchor the block does not define written as
    a variable of the same length (``*env_files`` as ``$env_files``): an unknown value."""
    anchors = {m.group(1) for a, b in block.lines for m in _ANCHOR.finditer(text, a, b)}
    chars = list(masked)
    for a, b in block.lines:
        for m in _ALIAS.finditer(text, a, b):
            if m.group(1) not in anchors:
                chars[m.start()] = "$"
    return "".join(chars)


def extract(src: SourceFile) -> Extraction:
    out = Extraction()
    try:
        blocks = fenced_blocks(src.text)
    except Exception as exc:  # noqa: BLE001
        out.problems.append(Problem(Span(0, 0), f"markdown scan failed: {type(exc).__name__}: {exc}"))
        return out
    blank = _blank(src.text)  # once per file, not per block
    analysed = 0
    prev_end = 0
    mentions_vllm = "vllm" in src.text.lower()
    # what the document's Python blocks imported so far (:class:`linter.sources.python.Imports`):
    # a later block (a notebook's next cell, the next step of a tutorial) that calls ``LLM(...)``
    # is read with them
    imports = None
    for block in blocks:
        if not block.lines:
            continue
        since, prev_end = prev_end, block.lines[-1][1]
        content = "\n".join(src.text[a:b] for a, b in block.lines).lower()
        named = block.lang in YAML_LANGS and _named_as_config(src.text, block, since)
        # a Ray Serve LLM / RayLLM config block in a document about vLLM: its engine_kwargs are vLLM's
        serve_config = block.lang in YAML_LANGS and "engine_kwargs" in content and mentions_vllm
        uses_carried = (block.lang in PYTHON_LANGS or not block.lang) and imports is not None and _calls(src.text, block, imports.vllm_names())
        if "vllm" not in content and "lmcache" not in content and not named and not serve_config and not uses_carried:
            continue  # nothing to find: no start, no pin (a config block the prose names is read)
        analysed += 1
        if analysed > _MAX_BLOCKS:
            out.problems.append(Problem(Span(block.fence_start, block.fence_start), f"more than {_MAX_BLOCKS} code blocks that mention vLLM; the rest of the file is not checked"))
            break
        sniffed = not block.lang
        lang = block.lang or ("python" if uses_carried else _sniff(src.text, block))
        if lang in TEXT_LANGS and _has_prompts(src.text, block):
            lang, sniffed = "console", True  # a session shown as plain text: its prompted lines are commands
        group = f"{src.path}#L{block.fence_line}"
        ex: Extraction | None = None
        if lang in SHELL_LANGS or lang in UNIT_LANGS or lang in POWERSHELL_LANGS:
            if lang in UNIT_LANGS:  # a systemd unit: the commands of its ExecStart= lines
                ranges = _exec_start_ranges(src.text, block)
                sniffed = True  # systemd splits the line, not bash: no parse complaints
            elif lang in POWERSHELL_LANGS:  # ``docker run ... ` `` continued lines: a command's words
                ranges = _powershell_ranges(src.text, block)
                sniffed = True  # PowerShell's own syntax (``$env:X = 1``, ``if (...) {}``) is no parse error
            else:
                prompted = lang in PROMPT_LANGS or _has_prompts(src.text, block)
                if prompted and lang in PROMPT_LANGS and _no_prompt(src.text, block):
                    prompted = False  # commands without prompts (or output): read as an untagged block is
                    sniffed = True
                ranges = _console_ranges(src.text, block) if prompted else _without_log_lines(src.text, block.lines)
                ranges = _without_shell_escapes(src.text, ranges)
            from linter.sources import embedded_shell

            if ranges:  # only the block's own text is parsed, placed by an offset map
                script, offsets = _script(src, ranges, "substitutions" in block.options, backticks=lang in POWERSHELL_LANGS)
                ex = _run(lambda: embedded_shell.extract(src, script, offsets, kind="markdown", group=group), out, block, src)
                if ex is not None:  # documentation: ``<MODEL>``, ``...``, ``[--port PORT]``, ``{auto,half}`` are holes
                    # a usage synopsis (``vllm serve [-h] [--port PORT] model``) is no command; a
                    # command that passes a real option beside ``[--port PORT]`` is (its brackets are holes)
                    ex.launches = [launch for launch in ex.launches if not _is_synopsis(launch)]
                    for launch in ex.launches:
                        launch.entry = [placeholders.mark(t) for t in launch.entry]
                        launch.args = [placeholders.mark_doc(t) for t in launch.args]
                        launch.env = [EnvVar(e.name, placeholders.mark(e.value)) for e in launch.env]
            else:
                ex = Extraction()
        elif lang in DOCKER_LANGS:
            masked = "".join(_masked(src, block.lines, blank))
            msrc = SourceFile(src.path, masked, src.encoding, src.bom)
            from linter.sources import dockerfile

            ex = _run(lambda: dockerfile.extract(msrc), out, block, src)
        elif lang in YAML_LANGS or lang in PYTHON_LANGS:
            mod = _module("yaml" if lang in YAML_LANGS else "python")
            if mod is None or not hasattr(mod, "extract"):
                continue
            chars = _masked(src, block.lines, blank)
            if lang in PYTHON_LANGS and block.fence_indent > 0:
                # Indented block (inside a list item): give the parser a header
                # line at column 0 in the masked fence line so the indentation is legal.
                a = src.text.rfind("\n", 0, block.fence_start) + 1
                header = "if 1:"
                line_end = src.text.find("\n", a)
                line_end = len(src.text) if line_end == -1 else line_end
                if line_end - a >= len(header):
                    chars[a : a + len(header)] = list(header)
            masked = "".join(chars)
            msrc = SourceFile(src.path, masked, src.encoding, src.bom)
            # pseudo-code (``max_model_len=<MAX_LEN>``, ``...``) is read by the Python reader's doc mode
            if lang in PYTHON_LANGS:
                prior = imports if uses_carried else None
                ex = _run(lambda: mod.extract(msrc, doc=True, imports=prior), out, block, src)
                if imports is None:
                    imports = mod.Imports()
                imports.add("\n".join(src.text[a:b] for a, b in block.lines))
            else:  # a block in a list item keeps its indentation (blanked): its ``---`` separate no documents
                ex = Extraction()
                for part in indented_documents(msrc):
                    got = _run(lambda: mod.extract(part), out, block, src)
                    if got is not None:
                        ex.extend(got)
                if any("undefined alias" in p.message for p in ex.problems):
                    # an excerpt of a larger file (a compose service shown alone) names an anchor
                    # the excerpt leaves out: its aliases stand for unknown values, as ``$name``
                    masked = _unknown_aliases(src.text, block, masked)
                    again = Extraction()
                    for part in indented_documents(SourceFile(src.path, masked, src.encoding, src.bom)):
                        got = _run(lambda: mod.extract(part), out, block, src)
                        if got is not None:
                            again.extend(got)
                    if not any("undefined alias" in p.message for p in again.problems):
                        ex = again
        else:
            continue
        if ex is None:
            continue
        if sniffed:
            ex.problems = []  # an untagged block may be prose or pseudo code: no parse complaints
            # nor launches read past a parse error from the middle of a line: prose that names
            # a command (``Tip: run vllm serve with --max-model-len 4096 (it is smaller).``),
            # nor a bare ``vllm serve`` with nothing to check (a list of concepts, a call graph)
            ex.launches = [
                launch for launch in ex.launches
                if (launch.args or launch.settings or launch.env or launch.config is not None) and not _mid_line_past_an_error(src.text, launch)
            ]
        if lang in YAML_LANGS and any(launch.entrypoint == "config" for launch in ex.launches):
            if not named:
                ex.launches = [launch for launch in ex.launches if launch.entrypoint != "config" or not any(n.startswith("candidate") for n in launch.notes)]
        lo, hi = block.lines[0][0], block.lines[-1][1]
        for launch in ex.launches:
            launch.kind = "markdown"
            launch.group = group if launch.group in ("", src.path, group) else f"{group}/{launch.group}"
            if launch.span.start < lo or launch.span.end > hi:
                a = min(max(launch.span.start, lo), hi)
                launch.span = Span(a, max(a, min(launch.span.end, hi)))
            if launch.path != src.path:
                launch.path = src.path
            _fix_launch(src.text, launch)
            launch.notes.append(f"markdown {lang} block at line {block.fence_line}")
        clamped: list[Problem] = []
        for prob in ex.problems:
            a = min(max(prob.span.start, lo), hi)
            if lang in SHELL_LANGS and _LOG_LINE.match(src.text, src.text.rfind("\n", 0, a) + 1):
                continue  # a server's log line that names ``vllm serve`` is output, not a lost command
            p = Problem(Span(a, max(a, min(prob.span.end, hi))), prob.message)
            if p not in clamped:
                clamped.append(p)
        ex.problems = clamped
        ex.pins = [p for p in ex.pins if not p.editable or src.text[p.span.start : p.span.end] == p.version]
        out.extend(ex)
    return out
