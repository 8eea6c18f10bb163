"""Shared helpers for the tests of the hybrid (LMCache) and long-context rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from linter.engine import FileResult, Settings, lint_file
from linter import knowledge
from linter.knowledge import DATA
from rules._lib.base import all_rules

MP = '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both"}'
V1 = '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'


# The release before the first inventory: the history gives a names-only inventory for it.
BEFORE_FIRST = "0.27.0"


def need(version: str) -> None:
    if (DATA / "releases" / f"{version}.json").exists():
        return
    if Version(version) in knowledge.history_versions():
        return
    pytest.skip(f"no inventory for vLLM {version} yet")


def lint(tmp_path: Path, name: str, text: str, kind: str, target: str = "0.32.0", extend: frozenset[str] = frozenset()) -> FileResult:
    need(target)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    settings = Settings(target=Version(target), extend_select=extend)
    return lint_file(str(path), kind, settings, all_rules())


def hits(result: FileResult, code: str) -> list[tuple[str, str, str]]:
    """(severity, text at the span, message) of every diagnostic with ``code``."""
    src = result.src
    assert src is not None
    return [(d.severity.value, src.text[d.span.start : d.span.end], d.message) for d in result.diagnostics if d.code == code]


def pod(lmcache_args: list[str], vllm_args: list[str], *, lmcache_image: str = "lmcache/standalone:0.5.6", vllm_image: str = "vllm/vllm-openai:v0.32.0") -> str:
    """A Kubernetes pod with an `lmcache server` container and a vLLM container."""

    def flow(words: list[str]) -> str:
        return "[" + ", ".join("'" + w.replace("'", "''") + "'" for w in words) + "]"

    return (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: qwen\nspec:\n  containers:\n"
        f"    - name: lmcache\n      image: {lmcache_image}\n      command: ['lmcache', 'server']\n      args: {flow(lmcache_args)}\n"
        f"    - name: vllm\n      image: {vllm_image}\n      args: {flow(vllm_args)}\n"
    )


L1 = ["--l1-size-gb", "20", "--eviction-policy", "LRU"]
