"""Jupyter notebooks (``.ipynb``): the launches of their code and Markdown cells.

A notebook is JSON (nbformat 4): ``cells``, each with a ``cell_type`` and its ``source``, a
list of strings (one a line, each ending in ``\\n`` but the last) or one string.  Each cell's
text is decoded with its map into the file (a JSON string is a YAML double-quoted scalar:
:func:`linter.sources.yaml_scalars.scalar_offsets`), read by its own reader, and its launches
are placed back through that map:

* a code cell of a Python kernel by the Python reader, IPython's ``!vllm serve ...`` lines
  included (:func:`linter.sources.python.extract`);
* a code cell that is a shell script (``%%bash``, ``%%sh``, ``%%script bash``; any cell of a
  bash kernel) by the shell reader;
* a Markdown cell by the Markdown reader (its fenced blocks).

Launches in a notebook are reported and never edited: a fix would have to write into a JSON
string, escaping what it writes, and a cell's outputs would no longer be what its code
printed.  The cells' comments are reported for suppressions (``# vllm-lint: ignore[...]``),
each saying whether it stands alone on its cell's line (:attr:`Comment.alone`).
"""

from __future__ import annotations

from linter.lazy_re import lazy_re
from linter.launch import Span, VersionHint
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import Comment, Extraction, Problem

_SURROGATE = lazy_re("[\x00\ud800-\udfff]")
_SHELL_KERNELS = frozenset({"bash", "sh", "shell", "zsh"})
_NOTE = "read in a notebook cell: reported, never edited"


class _Cell:
    __slots__ = ("cell_type", "text", "omap", "start")

    def __init__(self, cell_type: str, text: str, omap: OffsetMap, start: int) -> None:
        self.cell_type = cell_type  # "code" or "markdown"
        self.text = text
        self.omap = omap
        self.start = start  # where the cell's ``source`` stands in the file


def extract(src: SourceFile) -> Extraction:
    low = src.text.lower()
    if "vllm" not in low and "lmcache" not in low:
        return Extraction(comments=[])
    from linter.sources.yaml_nodes import compose_documents

    docs, problems = compose_documents(src.text, src.path)
    out = Extraction(comments=[])
    if problems or len(docs) != 1:
        # not a notebook JSON can read: what it starts is lost, and says where it broke
        out.problems.extend(Problem(p.span, f"notebook JSON: {p.message}") for p in problems[:1])
        return out
    cells, shell_kernel = _cells(src, docs[0])
    from linter.sources.python import SHELL_CELL, Imports, names_any

    imports = Imports()  # one kernel: what earlier code cells imported is bound in later ones
    for cell in cells:
        python_code = cell.cell_type == "code" and not shell_kernel and SHELL_CELL.match(cell.text) is None
        low = cell.text.lower()
        if "vllm" in low or "lmcache" in low or (python_code and names_any(cell.text, imports.vllm_names())):
            _read_cell(src, cell, shell_kernel, out, imports if python_code else None)
        if python_code:
            imports.add(cell.text)
    out.launches.sort(key=lambda launch: launch.span.start)
    return out


def _cells(src: SourceFile, root) -> tuple[list[_Cell], bool]:
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    from linter.sources.yaml_nodes import get, text_of
    from linter.sources.yaml_scalars import scalar_offsets

    kernel = (text_of(get(get(get(root, "metadata"), "kernelspec"), "language"))
              or text_of(get(get(get(root, "metadata"), "language_info"), "name")) or "python").lower()
    found = get(root, "cells")
    if not isinstance(found, SequenceNode):  # nbformat 3: worksheets[].cells
        sheets = get(root, "worksheets")
        cell_nodes = [c for ws in (sheets.value if isinstance(sheets, SequenceNode) else []) for c in _seq(get(ws, "cells"))]
    else:
        cell_nodes = found.value
    cells = []
    for node in cell_nodes:
        if not isinstance(node, MappingNode):
            continue
        cell_type = text_of(get(node, "cell_type"))
        if cell_type not in ("code", "markdown"):
            continue
        source = get(node, "source") if get(node, "source") is not None else get(node, "input")  # nbformat 3: input
        pieces = [source] if isinstance(source, ScalarNode) else [p for p in _seq(source) if isinstance(p, ScalarNode)]
        if not pieces:
            continue
        omap = OffsetMap(fallback=pieces[0].start_mark.index)
        parts = []
        at = 0
        for piece in pieces:
            # a lone surrogate or a NUL (JSON ``\ud800``, ``\u0000`` escapes) is no text a reader
            # can take: one replacement character each, so offsets stay
            value = _SURROGATE.sub("\ufffd", piece.value)
            if parts and not parts[-1].endswith("\n"):  # nbformat 3 and hand-written notebooks: lines without ends
                parts.append("\n")
                at += 1
            for s, f, n in scalar_offsets(src, piece).segments:
                omap.add(at + s, f, n)
            parts.append(value)
            at += len(value)
        cells.append(_Cell(cell_type, "".join(parts), omap, pieces[0].start_mark.index))
    return cells, kernel in _SHELL_KERNELS


def _seq(node) -> list:
    from yaml.nodes import SequenceNode

    return node.value if isinstance(node, SequenceNode) else []


def _read_cell(src: SourceFile, cell: _Cell, shell_kernel: bool, out: Extraction, imports=None) -> None:
    from linter.sources import comments as found

    inner = SourceFile(src.path, cell.text)
    group = src.path  # one program: a server started in one cell, its LMCache server in another
    try:
        if cell.cell_type == "markdown":
            from linter.sources import markdown

            sub = markdown.extract(inner)
            sub.problems = []  # prose cells: a block that does not parse lost no launch of a notebook's own
            notes = found.markdown_comments(cell.text)
        else:
            from linter.sources.python import SHELL_CELL

            m = SHELL_CELL.match(cell.text)
            if m is not None or shell_kernel:
                from linter.sources import embedded_shell

                start = m.end() if m is not None else 0
                script = cell.text[start:]
                sub = embedded_shell.extract(inner, script, OffsetMap.identity(start, len(script)), kind="shell", group=group)
                notes = [Comment(c.start + start, c.end + start, c.text) for c in found.shell_comments(script)]
            else:
                from linter.sources import python

                sub = python.extract(inner, imports=imports)
                notes = found.python_comments(cell.text)
    except Exception as exc:  # noqa: BLE001 - one cell's failure must not stop the notebook
        out.problems.append(Problem(Span(cell.start, cell.start), f"notebook cell: extraction failed: {type(exc).__name__}: {exc}"))
        return
    from linter.sources.yaml_scalars import remap_launch

    for launch in sub.launches:  # (its kind stays the cell's: a Markdown cell's placeholders are read as Markdown's)
        out.launches.append(remap_launch(launch, cell.omap, src.text, editable=False, note=_NOTE, verbatim=False))
    for p in sub.problems:
        out.problems.append(Problem(_span(p.span, cell.omap), f"notebook cell: {p.message}"))
    for pin in sub.pins:  # (``!pip install vllm==X``: the notebook's release, never edited)
        out.pins.append(VersionHint(pin.version, _span(pin.span, cell.omap), pin.origin, editable=False))
    # the cell's comments (``# vllm-lint: ignore[...]``), as its own syntax reads them
    out.comments.extend(_comment(c, cell) for c in notes)  # type: ignore[union-attr]


def _span(span: Span, omap: OffsetMap) -> Span:
    s = omap.nearest(span.start)
    return Span(s, max(s, omap.span_end(span.end)))


def _comment(c: Comment, cell: _Cell) -> Comment:
    span = _span(Span(c.start, c.end), cell.omap)
    line_start = cell.text.rfind("\n", 0, c.start) + 1
    return Comment(span.start, span.end, c.text, alone=not cell.text[line_start : c.start].strip())
