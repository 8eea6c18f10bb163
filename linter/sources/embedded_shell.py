"""Hand a shell script embedded in YAML (``sh -c``, ``run: |``) to the shell extractor.

``linter.sources.shell.extract_script(src, script, offsets, kind=..., group=...,
editable=...)`` parses the script and places its tokens in the file through
``offsets``.  It is written separately; until it can be imported, scripts are
skipped (no launch, no crash).
"""

from __future__ import annotations

from linter.launch import Token
from linter.offset_map import OffsetMap
from linter.sources import Extraction
from linter.source_file import SourceFile

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ash", "ksh"})

try:  # pragma: no cover - depends on the shell extractor being present
    from linter.sources.shell import extract_script as _extract_script
except Exception:  # noqa: BLE001 - any import failure means "no shell support yet"
    _extract_script = None


def available() -> bool:
    return _extract_script is not None


def extract(src: SourceFile, script: str, offsets: OffsetMap, *, kind: str, group: str, editable: bool = True) -> Extraction:
    if _extract_script is None:
        return Extraction()
    try:
        result = _extract_script(src, script, offsets, kind=kind, group=group, editable=editable)
    except Exception:  # noqa: BLE001 - a bug in a script parser must not stop YAML extraction
        return Extraction()
    if isinstance(result, Extraction):
        return result
    out = Extraction()
    out.launches.extend(result or [])
    return out


def shell_script_index(words: list[Token]) -> int | None:
    """Index of the script word in ``sh -c SCRIPT`` / ``/bin/bash -lc SCRIPT`` / ``env bash -c``."""
    i = 0
    n = len(words)
    while i < n and words[i].value.rsplit("/", 1)[-1] in ("env", "exec", "tini", "dumb-init", "--"):
        i += 1
    if i >= n or words[i].value.rsplit("/", 1)[-1] not in SHELLS:
        return None
    i += 1
    while i < n:
        v = words[i].value
        if v.startswith("-") and len(v) > 1 and not v.startswith("--"):
            if "c" in v[1:]:
                j = i + 1
                if j < n and words[j].value == "--":
                    j += 1
                return j if j < n else None
            i += 1
            continue
        if v.startswith("--"):
            i += 1
            continue
        return None
    return None
