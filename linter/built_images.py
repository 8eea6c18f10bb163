"""Images the linted tree builds FROM a vLLM image: ``docker build -t NAME`` then ``docker run NAME args``.

A Dockerfile whose final stage is ``FROM vllm/vllm-openai:...`` (and keeps its entrypoint) builds
an image that runs ``vllm serve`` with the arguments of its ``docker run``.  :func:`collect` reads
the Dockerfiles among the files a run lints (discovery found them already: no second walk) and
says which ones; :class:`linter.engine.Settings` carries the answer (``built_images``) to every
file's reading, where the shell reader ties each ``docker build -t NAME [-f FILE] CONTEXT`` of a
script to one of them (:func:`linter.sources.commands.note_built`) and a later ``docker run NAME``
of the same script is a launch with strong evidence.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from linter.source_file import MAX_FILE_BYTES, DecodeError, SourceFile, read_file

__all__ = ["collect", "take"]

# path -> (text, ``vllm-images`` patterns, extraction): each Dockerfile :func:`collect` read, for
# its own linting to take (:func:`take`) instead of reading it again; one run's at a time
_READ: dict[str, tuple[str, tuple[str, ...], object]] = {}
_KIND = "dockerfile-base"  # the cache entries of the answers (beside the results, apart by kind)


def collect(candidates: Iterable, patterns: tuple[str, ...] = (), cache=None) -> dict[str, str]:
    """Real path -> the vLLM image its final stage runs, for each Dockerfile among ``candidates``
    (:class:`linter.discovery.Candidate`); ``patterns``: the ``vllm-images`` of the configuration.

    With ``cache`` (a :class:`linter.cache.Cache`), an unchanged Dockerfile (its stat index row)
    is answered from the cache, unread; a walked one the index screened out (no vLLM word: an
    official image's repository has a ``vllm`` segment) is none without ``patterns``.  A
    Dockerfile read here keeps its extraction for its own linting (:func:`take`)."""
    _READ.clear()
    index = cache.load() if cache is not None else {}
    out: dict[str, str] = {}
    for c in candidates:
        if getattr(c, "status", "ok") != "ok" or c.kind != "dockerfile":
            continue
        known = index.get(c.path) if cache is not None else None
        if known is not None and getattr(c, "signature", None) is not None and tuple(known[:5]) == tuple(c.signature):
            if not known[5]:  # screened out: no vLLM word in it
                if not patterns and not c.explicit:
                    continue
            else:
                hit = cache.get(_key(cache, c.path, patterns, known[5]))
                if hit is not None and set(hit) <= {"i"} and isinstance(hit.get("i", ""), str):
                    if hit.get("i"):
                        out[os.path.realpath(c.path)] = hit["i"]
                    continue
        try:
            data = read_file(c.path)
            if len(data) > MAX_FILE_BYTES:
                continue
            src = SourceFile.from_bytes(c.path, data)
        except (OSError, DecodeError):
            continue  # its own linting reports it
        from linter.discovery import image_needles, might_launch

        if not patterns and not c.explicit and not might_launch(data, image_needles((), True)):
            continue  # what the stat index answers for it: no vLLM word, no vLLM base (and its linting screens it out)
        from linter.sources import commands, dockerfile  # only when a Dockerfile is read: an unchanged tree needs no reader

        with commands.vllm_images(patterns):
            extraction, base = dockerfile.read(src)
            if extraction is not None and not commands.built_consulted():
                _READ[c.path] = (src.text, tuple(patterns), extraction)
        if base is not None:
            out[os.path.realpath(c.path)] = base
        if cache is not None:
            # beside the file's results, renewed on its own (a result stored anew drops the old entries of its path)
            cache.put(_key(cache, c.path, patterns, cache.digest(data)), f"{c.path}\0{_KIND}", {"i": base} if base else {})
    return out


def _key(cache, path: str, patterns: tuple[str, ...], digest: str) -> str:
    return cache.key(path, _KIND, False, repr(tuple(patterns)), digest)


def take(src: SourceFile, patterns: tuple[str, ...]):
    """The Dockerfile reader's extraction of ``src`` when :func:`collect` read this very text with
    the same ``patterns`` (once: the caller owns it then), or None.  A reading that looked up the
    tree's Dockerfiles (a ``docker build`` in a ``RUN``) is never kept: collect knew none yet."""
    kept = _READ.get(src.path)
    if kept is None or kept[0] != src.text or kept[1] != tuple(patterns):
        return None
    del _READ[src.path]
    return kept[2]
