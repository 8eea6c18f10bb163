"""Hand a shell script embedded in another file (``sh -c``, ``run: |``) to the shell extractor.

:func:`extract` is :func:`linter.sources.shell.extract_script` behind a guard: a bug in the
script reader must not stop the YAML extraction around it (the shell extractor reports its
own problems and never raises; this is the last fence).  Which words run a script string is
:func:`linter.sources.words.shell_script_index`.
"""

from __future__ import annotations

from linter import placeholders
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import Extraction


def extract(src: SourceFile, script: str, offsets: OffsetMap, *, kind: str, group: str, editable: bool = True) -> Extraction:
    """The launches of ``script``; documentation placeholders in it (``vllm serve <MODEL>``,
    ``--model <model path>``) are read as unknown words, not as redirections.  The shell
    reader (tree-sitter and its grammar) is imported by the first script met: a manifest or a
    Python file that runs none does not load it."""
    from linter.sources.shell import extract_script

    holes = placeholders.shell_holes(script)
    try:
        out = extract_script(src, placeholders.stand_in(script, holes), offsets, kind=kind, group=group, editable=editable)
    except Exception:  # noqa: BLE001 - a bug in a script parser must not stop YAML extraction
        return Extraction()
    if holes:
        exprs = [(offsets.nearest(a), script[a:b]) for a, b in holes]
        for launch in out.launches:
            launch.entry = [placeholders.restore(src, t, exprs) for t in launch.entry]
            launch.args = [placeholders.restore(src, t, exprs) for t in launch.args]
    return out
