"""Command words shared by every source: shell names, ``sh -c``, word splitting, env, pins.

One place for what each extractor used to write for itself:

``SHELLS``
    the POSIX-family shells whose ``-c`` runs a script (discovery sniffs shebangs with it).
``shell_script_index(words)``
    where the script word of ``sh -c SCRIPT`` / ``env bash -lc SCRIPT`` stands.
``split_words(text, value, omap)``
    shell-like splitting (quotes and backslashes, no expansion) of a string placed in a file,
    as compose does for a string ``command``, and as the llm-d ``VLLM_ADDITIONAL_ARGS`` env is read.
``kept_env(name)``
    the environment variables a launch keeps (``VLLM_*`` and ``LMCACHE_*``).
``nearest_pin(at, pins)``
    the release pin that applies to a launch at ``at``: the last one before it, else the first.
"""

from __future__ import annotations

import posixpath

from linter.launch import Span, Token, VersionHint
from linter.lazy_re import lazy_re
from linter.offset_map import OffsetMap
from linter.sources.yaml_scalars import sub_token

__all__ = ["SHELLS", "ENV_PREFIXES", "kept_env", "shell_script_index", "split_words", "interp_ranges", "nearest_pin"]

# bash(1), dash(1), zsh(1), ksh(1), mksh(1), busybox ash: each takes ``-c STRING``.
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh"})
# Words that run the next words as a command before a shell (``env bash -c``).
_SHELL_PREFIXES = frozenset({"env", "exec", "tini", "dumb-init", "--"})

# The variables a launch keeps, in every source: vLLM reads ``VLLM_*`` (vllm/envs.py), an
# LMCache connector beside it ``LMCACHE_*``; rules/env_var.py checks the ``VLLM_*`` ones.
ENV_PREFIXES = ("VLLM_", "LMCACHE_")


def kept_env(name: str) -> bool:
    """True for an environment variable a launch keeps (read by vLLM or LMCache)."""
    return name.startswith(ENV_PREFIXES)


def is_shell(word: str) -> bool:
    return posixpath.basename(word) in SHELLS


def shell_script_index(words: list[Token], *, prefixes: bool = True) -> int | None:
    """Index of the script word in ``sh -c SCRIPT`` / ``/bin/bash -lc SCRIPT`` / ``env bash -c``.

    Shell options before ``-c`` are skipped (``-e``, ``-x``, ``-o pipefail``, ``--login``);
    ``-c`` may be combined (``-lc``, ``-ec``) and followed by ``--``.  None when the words do
    not run a script string.  ``prefixes``: skip ``env``/``exec``/``tini`` before the shell.
    """
    i = 0
    n = len(words)
    while prefixes and i < n and posixpath.basename(words[i].value) in _SHELL_PREFIXES:
        i += 1
    if i >= n or words[i].opaque_in(0, len(words[i].value)) or not is_shell(words[i].value):
        return None
    i += 1
    has_c = False
    while i < n:
        v = words[i].value
        if v in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if v == "--":
            i += 1
            break
        if v.startswith(("-", "+")) and len(v) > 1 and not v.startswith("--"):
            has_c = has_c or "c" in v[1:]
            i += 1
            continue
        if v.startswith("--") and len(v) > 2:
            i += 1
            continue
        break
    if has_c and i < n:
        return i
    return None


_INTERP = lazy_re(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*")


def interp_ranges(value: str) -> list[tuple[int, int]]:
    """``${VAR}``/``$VAR`` ranges of ``value`` (``$$`` is a literal dollar)."""
    out = []
    i = 0
    while i < len(value):
        if value.startswith("$$", i):
            i += 2
            continue
        m = _INTERP.match(value, i)
        if m:
            out.append((m.start(), m.end()))
            i = m.end()
        else:
            i += 1
    return out


def split_words(text: str, value: str, omap: OffsetMap) -> list[Token]:
    """Split ``value`` like ``shlex.split`` (POSIX mode, no comments) into placed tokens.

    A word whose characters all come from one verbatim stretch of the value is
    editable; quotes or backslashes inside a word make it not editable.  A word
    containing interpolation is opaque there, and a bare unquoted variable may
    become several words (``splat``).
    """
    interp = interp_ranges(value)
    words: list[Token] = []
    i, n = 0, len(value)
    while i < n:
        while i < n and value[i] in " \t\r\n":
            i += 1
        if i >= n:
            break
        start = i
        # (value start, length) runs of the word's characters in ``value``
        runs: list[tuple[int, int]] = []

        def take(a: int, b: int) -> None:
            if b <= a:
                return
            if runs and runs[-1][0] + runs[-1][1] == a:
                runs[-1] = (runs[-1][0], runs[-1][1] + b - a)
            else:
                runs.append((a, b - a))

        quoted = False
        while i < n and value[i] not in " \t\r\n":
            c = value[i]
            if c == "'":
                quoted = True
                j = value.find("'", i + 1)
                j = n if j == -1 else j
                take(i + 1, j)
                i = j + 1
            elif c == '"':
                quoted = True
                i += 1
                while i < n and value[i] != '"':
                    if value[i] == "\\" and i + 1 < n and value[i + 1] in '"\\$`\n':
                        i += 1
                    take(i, i + 1)
                    i += 1
                i += 1
            elif c == "\\" and i + 1 < n:
                take(i + 1, i + 2)
                i += 2
            else:
                take(i, i + 1)
                i += 1
        end = min(i, n)
        word = "".join(value[a : a + k] for a, k in runs)
        # opaque ranges in word coordinates
        opaque = []
        for s, e in interp:
            lo = hi = None
            w = 0
            for a, k in runs:
                x, y = max(s, a), min(e, a + k)
                if x < y:
                    lo = w + x - a if lo is None else lo
                    hi = w + y - a
                w += k
            if lo is not None and hi is not None:
                opaque.append((lo, hi))
        splat = not quoted and any(s == start and e == end for s, e in interp)
        s_file = omap.nearest(start)
        e_file = max(s_file, omap.span_end(end))
        if len(runs) == 1:
            a, k = runs[0]
            tok = sub_token(text, omap, value, a, a + k, opaque, splat)
            tok = Token(tok.value, Span(s_file, e_file), tok.value_start, tok.opaque, tok.splat)
        else:
            tok = Token(word, Span(s_file, e_file), None, tuple(opaque), splat)
        words.append(tok)
    return words


def nearest_pin(at: int, pins: list[VersionHint]) -> VersionHint | None:
    """The pin that applies at file offset ``at``: the last one at or before it, else the first."""
    best: VersionHint | None = None
    for p in pins:
        if p.span.start <= at and (best is None or p.span.start >= best.span.start):
            best = p
    if best is not None:
        return best
    return min(pins, key=lambda p: p.span.start) if pins else None
