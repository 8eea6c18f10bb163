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

__all__ = ["collect"]


def collect(candidates: Iterable, patterns: tuple[str, ...] = ()) -> dict[str, str]:
    """Real path -> the vLLM image its final stage runs, for each Dockerfile among ``candidates``
    (:class:`linter.discovery.Candidate`); ``patterns``: the ``vllm-images`` of the configuration."""
    out: dict[str, str] = {}
    dockerfiles = [c for c in candidates if getattr(c, "status", "ok") == "ok" and c.kind == "dockerfile"]
    if not dockerfiles:
        return out
    from linter.discovery import image_needles, might_launch
    from linter.sources import commands, dockerfile

    needles = image_needles(patterns)
    with commands.vllm_images(patterns):
        for c in dockerfiles:
            try:
                data = read_file(c.path)
                # a final stage FROM a vLLM image names it (or the stage or ARG it comes from does)
                if len(data) > MAX_FILE_BYTES or not might_launch(data, needles):
                    continue
                src = SourceFile.from_bytes(c.path, data)
            except (OSError, DecodeError):
                continue  # its own linting reports it
            base = dockerfile.vllm_base(src)
            if base is not None:
                out[os.path.realpath(c.path)] = base
    return out
