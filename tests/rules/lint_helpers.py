"""Lint a realistic file written into a temporary folder, the way the CLI does."""

from __future__ import annotations

from pathlib import Path

from packaging.version import Version

from linter import knowledge
from linter.engine import Settings, lint_file
from linter.fixer import fix_source
from linter.source_file import SourceFile
from rules._lib.base import all_rules


def have(*versions: str) -> bool:
    known = {str(v) for v in knowledge.known_versions()}
    return all(v in known for v in versions)


def lint(tmp_path: Path, name: str, text: str, kind: str, target: str | None = None, select=None):
    path = tmp_path / name
    path.write_bytes(text.encode())
    settings = Settings(target=Version(target) if target else None, select=frozenset(select) if select else None)
    result = lint_file(str(path), kind, settings, all_rules())
    return result


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def flagged(result, code: str) -> list[str]:
    """The source text under each diagnostic of ``code``."""
    return [result.src.text[d.span.start : d.span.end] for d in result.diagnostics if d.code == code]


def only(result, code: str):
    found = [d for d in result.diagnostics if d.code == code]
    assert len(found) == 1, [(d.code, d.message) for d in result.diagnostics]
    return found[0]


K8S = """apiVersion: apps/v1
kind: Deployment
metadata: {{name: qwen}}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.30.0
          args:
{args}
"""


def k8s(*args: str) -> str:
    """A Deployment whose vLLM container (vllm/vllm-openai:v0.30.0) has ``args``."""
    return K8S.format(args="\n".join(f"            - {a}" for a in args))


def fixed(tmp_path: Path, name: str, text: str, kind: str, target: str, unsafe: bool = False) -> str:
    settings = Settings(target=Version(target))
    src = SourceFile(str(tmp_path / name), text)
    return fix_source(src, kind, settings, all_rules(), unsafe).fixed
