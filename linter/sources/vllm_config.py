"""vLLM ``--config FILE`` YAML: top-level keys are option names, values their values.

The launch has ``style="settings"`` and one :class:`Setting` per key.  YAML 1.1
scalars are typed as PyYAML's resolver types them (``yes``/``on`` are booleans
there); mappings and lists are rendered as compact JSON, which is how vLLM
passes them on.
"""

from __future__ import annotations

import json

from linter import placeholders
from linter.launch import Launch, Setting, Span, Token
from linter.lazy_re import lazy_re
from linter.source_file import SourceFile
from linter.sources import Extraction
from linter.sources.pyyaml import yaml
from linter.sources.yaml_nodes import MappingNode, Node, ScalarNode, SequenceNode, compose_documents
from linter.sources.yaml_scalars import scalar_token

_KIND_BY_TAG = {
    "tag:yaml.org,2002:str": "str",
    "tag:yaml.org,2002:int": "int",
    "tag:yaml.org,2002:float": "float",
    "tag:yaml.org,2002:bool": "bool",
    "tag:yaml.org,2002:null": "null",
}
_OPTION_KEY = lazy_re(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")
_MAX_JSON_NODES = 2000


def _to_python(node: Node, budget: list[int]):
    """A small, alias-safe conversion of a node to JSON-able data (None if too big)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueError("too large")
    if isinstance(node, ScalarNode):
        kind = _KIND_BY_TAG.get(node.tag, "str")
        if kind == "str":
            return node.value
        try:
            return yaml.safe_load(node.value) if kind != "null" else None
        except yaml.YAMLError:
            return node.value
    if isinstance(node, SequenceNode):
        return [_to_python(v, budget) for v in node.value]
    if isinstance(node, MappingNode):
        return {(k.value if isinstance(k, ScalarNode) else "?"): _to_python(v, budget) for k, v in node.value}
    return None


def setting_of(src: SourceFile, key: ScalarNode, value: Node) -> Setting:
    name = scalar_token(src, key)
    if isinstance(value, ScalarNode):
        kind = _KIND_BY_TAG.get(value.tag, "str")
        # ``max-model-len: ${MAX_LEN}`` (envsubst), ``<MAX_LEN>``: an unknown value, never a wrong one
        tok = placeholders.mark(scalar_token(src, value))
        if tok is not None and tok.opaque == ((0, len(tok.value)),) and tok.value:
            kind = "opaque"
        return Setting(name, tok, kind)  # type: ignore[arg-type]
    span = Span(value.start_mark.index, max(value.start_mark.index, value.end_mark.index))
    try:
        data = _to_python(value, [_MAX_JSON_NODES])
        rendered = json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=str)
    except (ValueError, RecursionError):
        return Setting(name, Token(src.text[span.start:span.end], span), "opaque")
    return Setting(name, Token(rendered, span), "json")


def config_launch(src: SourceFile, doc: Node, *, candidate: bool) -> Launch | None:
    if not isinstance(doc, MappingNode):
        return None
    settings = [setting_of(src, k, v) for k, v in doc.value if isinstance(k, ScalarNode)]
    launch = Launch(
        path=src.path, kind="vllm-config", span=Span(doc.start_mark.index, doc.end_mark.index),
        entrypoint="config", style="settings", settings=settings,
    )
    if candidate:
        launch.notes.append("candidate")
    return launch


def looks_like_config(doc: Node) -> bool:
    """A flat mapping of option-like keys to scalars or small lists/maps."""
    if not isinstance(doc, MappingNode) or not doc.value:
        return False
    for k, v in doc.value:
        if not isinstance(k, ScalarNode) or not _OPTION_KEY.match(k.value):
            return False
        if isinstance(v, (SequenceNode, MappingNode)):
            if len(v.value) > 32:
                return False
            for item in v.value:
                inner = item[1] if isinstance(item, tuple) else item
                if isinstance(inner, (SequenceNode, MappingNode)) and len(inner.value) > 16:
                    return False
    return True


def extract(src: SourceFile) -> Extraction:
    """The file is known to be a vLLM config (named by ``--config``): no candidate note."""
    docs, problems = compose_documents(src.text, src.path)
    out = Extraction(problems=list(problems))
    for doc in docs[:1]:
        launch = config_launch(src, doc, candidate=False)
        if launch is not None:
            out.launches.append(launch)
    return out
