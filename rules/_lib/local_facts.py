"""What the machine around a launch says: its local Hugging Face cache and its GPU.

Not a rule module.  Shared by the pre-flight estimate (``preflight``) and the hybrid
readings (``hybrid_facts``: the config.json of a model, the GPU that decides vLLM's
batch defaults and 0.33's GDN prefill backend); both read files only, never the network.
"""

from __future__ import annotations

import glob
import os
from functools import cache


from linter import knowledge
from linter.records import Frozen, _set
from linter.source_file import read_file

GiB = 1024**3
MiB = 1024**2


def hf_cache_config(model: str) -> str | None:
    """``config.json`` of ``model`` in the local Hugging Face cache, if it is there (never the network)."""
    if model.count("/") != 1 or model.startswith(("/", ".", "~")):
        return None
    hub = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface"), "hub"
    )
    folder = os.path.join(hub, "models--" + model.replace("/", "--"))
    ref = os.path.join(folder, "refs", "main")
    try:
        commit = read_file(ref, 4096).decode("utf-8", "replace").strip()
        candidate = os.path.join(folder, "snapshots", commit, "config.json")
        if os.path.isfile(candidate):
            return candidate
    except OSError:
        pass
    found = sorted(glob.glob(os.path.join(glob.escape(folder), "snapshots", "*", "config.json")), key=os.path.getmtime)
    return found[-1] if found else None



# ---------------------------------------------------------------------------
# GPUs


class Gpu(Frozen):
    __slots__ = ("name", "total_bytes", "source")

    name: str
    total_bytes: int
    source: str  # "gpu-memory-gib", or the label as written

    def __init__(self, name, total_bytes, source):
        _set(self, "name", name)
        _set(self, "total_bytes", total_bytes)
        _set(self, "source", source)


@cache
def _gpus() -> dict[str, tuple[str, int]]:
    raw = knowledge.data_yaml("gpus.yaml")
    out: dict[str, tuple[str, int]] = {}
    for g in raw.get("gpus", []) or []:
        for label in g.get("labels", []) or []:
            out[str(label).lower()] = (str(g["name"]), int(g["mib"]) * MiB)
    return out


def gpu_for(resources: dict[str, str], gpu_memory_gib: float | None) -> Gpu | None:
    if gpu_memory_gib:
        return Gpu(f"{gpu_memory_gib:g} GiB GPU", int(gpu_memory_gib * GiB), "gpu-memory-gib")
    label = resources.get("gpu-product")
    if not label:
        return None
    found = _gpus().get(label.strip().lower())
    if found is None:
        return None
    return Gpu(found[0], found[1], label)
