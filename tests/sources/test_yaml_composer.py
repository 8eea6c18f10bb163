"""libyaml composes what the pure-Python composer composes, node for node and mark for mark.

``linter.sources.yaml_nodes`` composes with ``yaml.CSafeLoader`` when PyYAML has it, and
normalises its nodes to the pure-Python composer's; what libyaml reads differently goes to
the pure-Python composer.  These tests compare both on texts that reach each difference.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from yaml.nodes import MappingNode, ScalarNode

from linter.sources import yaml_nodes
from linter.sources.pyyaml import printable

pytestmark = pytest.mark.skipif(getattr(yaml, "CSafeLoader", None) is None, reason="PyYAML without libyaml")

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "tree"


def pure(text: str, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(yaml_nodes, "_compose_c", lambda t: None)
        return yaml_nodes.compose_documents(text)


def shape(docs) -> list:
    """Every node with its kind, tag, style, value and both marks; an alias as the index of its node."""
    ids: dict[int, int] = {}

    def rec(n):
        if id(n) in ids:
            return ("alias", ids[id(n)])
        ids[id(n)] = len(ids)
        marks = (n.start_mark.index, n.start_mark.line, n.start_mark.column, n.end_mark.index, n.end_mark.line, n.end_mark.column)
        if isinstance(n, ScalarNode):
            return ("scalar", n.tag, n.style, n.value, marks)
        if isinstance(n, MappingNode):
            return ("map", n.tag, n.flow_style, marks, [(rec(k), rec(v)) for k, v in n.value])
        return ("seq", n.tag, n.flow_style, marks, [rec(v) for v in n.value])

    return [rec(d) for d in docs]


DEPLOYMENT = """\
# the model server
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen-é-𝄞
  annotations: {team: "nlp", cost-center: 'r&d'}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: &img vllm/vllm-openai:v0.30.1
        command: ["vllm", "serve"]
        args:
        - Qwen/Qwen3-8B
        - --max-model-len
        - "16384"
        - >-
          --served-model-name
        env:
          - name: VLLM_LOGGING_LEVEL
            value: DEBUG
        script: |
          vllm serve --port 8000 \\
            --dtype bfloat16
      - name: sidecar
        image: *img
        empty:
---
apiVersion: v1
kind: Service
metadata: {name: qwen}
spec:
  ports: [{port: 80, targetPort: 8000}]
...
"""


def variants(text: str):
    yield text
    yield text.rstrip("\n")  # no final line break: end marks at EOF
    yield text.replace("\n", "\r\n")
    yield text.replace("\n", "\r\n").rstrip("\r\n")
    yield text.rstrip("\n").rstrip(".").rstrip("\n") + "  # last comment"
    yield text.rstrip("\n") + "\n\n\n"


TABBED = """\
# generated\tby the chart\t(do not edit)
apiVersion: v1
kind: ConfigMap
metadata:
  name: "launch\tscripts"  # tab\tin a comment
data:
  serve.sh: |
    #!/bin/sh
    exec vllm serve Qwen/Qwen3-8B \\
    \t--max-model-len 8192\t\\
    \t--port 8000
  notes: >-
    one\ttwo
    \tthree
  single: 'a\tb'
  script: |  # header\tcomment
    x\ty
"""


@pytest.mark.parametrize("text", list(variants(DEPLOYMENT)) + list(variants(TABBED)) + [
    "a:", "a: b", "- - - x", "key:\n- a\n- b", "[1, [2, [3]]]", "", "# only a comment",
    "\ufeffa: b\nc: [1, 2]",  # a BOM: PyYAML counts it in the index (libyaml does not)
    "\ufeff" + DEPLOYMENT.rstrip("\n"), "\ufeff" + TABBED.replace("\n", "\r\n"), "\ufeff---\na: 1\n---\nb: 2",
])
def test_libyaml_nodes_are_the_pure_composers(text, monkeypatch):
    assert yaml_nodes._compose_c(printable(text)) is not None, "libyaml composes these"
    fast = yaml_nodes.compose_documents(text)
    assert shape(fast[0]) == shape(pure(text, monkeypatch)[0])
    assert fast[1] == []


@pytest.mark.parametrize("text", [
    "a: b\t\nc: d\n",  # libyaml accepts the trailing tab, PyYAML refuses it
    "a: b\tc\n", "a:\t b\n", "a: [b,\tc]\n", "- a\t\n", "a: x\n  \ty\n", "a: b\t# c\n",  # tabs as white space between tokens
    "a: |\t\n  x\n", "a: 'x'\t\n", "a: |\n\tx\n",  # after a block header, after a quote, as indentation
    "a: b\nc: \ufeffd\n",  # a BOM inside the text
    "a: [1, 2\nb: c\n",  # a parse error: PyYAML's wording and place
    "a: b\n---\nc: [d\n---\ne: f\n",  # a broken document among good ones
    "x: " + "[" * 150 + "]" * 150 + "\n",  # nesting deeper than the C path takes
    "x: " + "[" * 600 + "]" * 600 + "\n",  # PyYAML's recursion limit: its "nesting too deep"
    "k: 'unterminated\n",
])
def test_what_libyaml_reads_differently_is_the_pure_composers(text, monkeypatch):
    assert yaml_nodes._compose_c(printable(text)) is None
    fast = yaml_nodes.compose_documents(text)
    slow = pure(text, monkeypatch)
    assert shape(fast[0]) == shape(slow[0])
    assert fast[1] == slow[1]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no shared corpus")
def test_corpus_yaml_composes_the_same(monkeypatch):
    compared = 0
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.suffix not in (".yaml", ".yml"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for t in (text, text.rstrip("\n"), text.replace("\n", "\r\n").rstrip("\n")):
            fast, slow = yaml_nodes.compose_documents(t), pure(t, monkeypatch)
            assert (shape(fast[0]), fast[1]) == (shape(slow[0]), slow[1]), path.name
            compared += 1
    assert compared > 300


# ---------------------------------------------------------------------------
# documents that cannot hold a launch are not composed


def crd(name: str, extra: str = "") -> str:
    return f"""\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {name}s.serving.example.io
spec:
  group: serving.example.io
  names:
    kind: {name.capitalize()}
  versions:
  - name: v1beta1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            description: The desired state, é 𝄞.
            properties:
              args:
                items:
                  type: string
                type: array
              image:
                type: string{extra}
            type: object
"""


RUNTIME = """\
apiVersion: serving.kserve.io/v1alpha1
kind: ClusterServingRuntime
metadata:
  name: hf-runtime
spec:
  supportedModelFormats:
  - name: huggingface
  containers:
  - name: kserve-container
    image: vllm/vllm-openai:v0.30.1
    args: ["--model=Qwen/Qwen3-8B", "--max-num-seq", "64", "--swap-space", "4"]
"""

DEPLOYMENT_2 = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: server
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.31.0
        command: ["vllm", "serve"]
        args: ["Qwen/Qwen3-8B", "--enable-chunked", "--disable-log-requests"]
"""


def manifest(*docs: str, lead: str = "") -> str:
    return lead + "---\n".join(docs)


MANIFESTS = {
    "schemas around launches": manifest(crd("first"), crd("model"), RUNTIME, crd("route"), crd("pool"), DEPLOYMENT_2, crd("last")),
    "comment preamble, CRLF": manifest(crd("a"), crd("b"), DEPLOYMENT_2, lead="# generated\n# do not edit\n").replace("\n", "\r\n"),
    "no final line break": manifest(RUNTIME, crd("b"), crd("c")).rstrip("\n"),
    "leading marker": "---\n" + manifest(crd("a"), crd("b"), RUNTIME),
    "schema mentioning vLLM": manifest(RUNTIME, crd("a", "\n                description: the vLLM image")),
    "schema with an alias": manifest(RUNTIME, crd("a", "\n              other: &x {type: string}\n              again: *x")),
    "two kinds": manifest(RUNTIME, crd("a") + "kind: Deployment\n"),
}


@pytest.mark.parametrize("name", sorted(MANIFESTS))
def test_skipped_schemas_change_no_launch_and_no_mark(name, monkeypatch):
    """The YAML reader finds the same launches, pins and problems, token for token, whether
    schemas are composed or not; the documents that are composed carry the same marks."""
    from linter.source_file import SourceFile
    from linter.sources import yaml as yaml_reader

    text = MANIFESTS[name]
    src = SourceFile("deploy/install.yaml", text)
    skipping = yaml_reader.extract(src)
    fast_docs = yaml_nodes.compose_documents(text)[0]
    with monkeypatch.context() as m:
        m.setattr(yaml_nodes, "_cannot_launch", lambda doc: False)
        composing = yaml_reader.extract(src)
    assert skipping == composing
    assert skipping.launches
    every = pure(text, monkeypatch)[0]
    kept = {d.start_mark.index for d in fast_docs}
    assert shape(fast_docs) == shape([d for d in every if d.start_mark.index in kept])


def test_schemas_are_skipped_but_never_the_first_document(monkeypatch):
    text = MANIFESTS["schemas around launches"]
    docs = yaml_nodes.compose_documents(text)[0]
    assert len(docs) == 3  # the first schema, the runtime, the deployment
    assert docs[0].start_mark.index == 0
    for name in ("schema mentioning vLLM", "schema with an alias", "two kinds"):
        assert len(yaml_nodes.compose_documents(MANIFESTS[name])[0]) == 2, name


def test_a_broken_schema_is_reported_as_before(monkeypatch):
    text = manifest(RUNTIME, crd("a").replace("type: object\n", "type: [object\n", 1), DEPLOYMENT_2)
    fast, slow = yaml_nodes.compose_documents(text), pure(text, monkeypatch)
    assert fast[1] and fast[1] == slow[1]
    assert shape(fast[0]) == shape(slow[0])


def test_tabs_and_a_bom_anywhere_compose_as_the_pure_composer_does(monkeypatch):
    """Tabs put at random places (for a space or added) in real-shaped documents, CRLF or not,
    with or without a final line break and a BOM: libyaml's reading, when it is taken, is the
    pure-Python composer's node for node, and so are the parse errors."""
    import random

    bases = [DEPLOYMENT, TABBED, RUNTIME, crd("model"), "a: |\n  x\n   y\nb: >-\n  p\n\n  q\nc: 'u v'\nd: \"w x\"  # c d\n# top\ne: [1, {f: g}]\n"]
    rnd = random.Random(18)
    through_c = 0
    for _ in range(1200):
        text = rnd.choice(bases)
        if rnd.random() < 0.3:
            text = text.replace("\n", "\r\n")
        if rnd.random() < 0.3:
            text = text.rstrip("\r\n")
        chars = list(text)
        for _k in range(rnd.randint(1, 3)):
            i = rnd.randrange(len(chars) + 1)
            if i < len(chars) and chars[i] == " " and rnd.random() < 0.5:
                chars[i] = "\t"
            else:
                chars.insert(i, "\t")
        text = ("\ufeff" if rnd.random() < 0.2 else "") + "".join(chars)
        through_c += yaml_nodes._compose_c(printable(text)) is not None
        fast, slow = yaml_nodes.compose_documents(text), pure(text, monkeypatch)
        assert (shape(fast[0]), fast[1]) == (shape(slow[0]), slow[1]), repr(text)
    assert through_c > 100  # libyaml reads a good share of them (143 of 1200 with this seed)


def test_top_kinds_are_the_multiline_scan_s() -> None:
    # the ``kind:`` lines of a document, found from line starts only: what the ``^`` scan finds
    import random

    from linter.sources.yaml_nodes import _TOP_KIND, _top_kinds

    rng = random.Random(3)
    parts = ["kind: A\n", "kind:B # c\n", " kind: C\n", "x: 1\n", "kind: \r\n", "\n", "kind:", "kin", "d: X\n", "---\n", "kind: 'CustomResourceDefinition'\n"]
    for _ in range(3000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 12)))
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        assert _top_kinds(text) == _TOP_KIND.findall(text)
        assert _top_kinds(text, a, b) == _TOP_KIND.findall(text, a, b), (text, a, b)
        assert bool(_top_kinds(text, a, b, first=True)) == bool(_TOP_KIND.search(text, a, b)), (text, a, b)


HELM_TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          args:
            - {{ .Values.model | quote }}
            - "--max-model-len"
            {{- range .Values.extraArgs }}
            - {{ . | quote }}
            {{- end }}
"""
CHAT_TEMPLATE = """\
apiVersion: v1
kind: ConfigMap
data:
  template.jinja: |
    {{- bos_token }}{% for m in messages %}{{ m['content'] }}{% endfor %}
"""


@pytest.mark.parametrize("text", [
    HELM_TEMPLATE, CHAT_TEMPLATE, "{{- if .Values.enabled }}\n" + CHAT_TEMPLATE + "{{- end }}\n", "a: [1, 2\nb: c\n",
    "a: b\n---\nc: [d\n---\ne: f\n", "k: 'unterminated\n", "a: b\t\nc: d\n", "x: " + "[" * 600 + "]" * 600 + "\n", "a: \x07b\n",
])
def test_libyaml_refuses_only_what_the_pure_composer_refuses(text, monkeypatch):
    if yaml_nodes.refused(text):
        assert pure(text, monkeypatch)[1], "refused by libyaml, read by the pure composer"
    elif "\t" not in text and "[" * 600 not in text:
        assert not pure(text, monkeypatch)[1]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no shared corpus")
def test_corpus_yaml_refused_by_libyaml_is_refused_by_the_pure_composer(monkeypatch):
    refused = 0
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.suffix not in (".yaml", ".yml", ".tpl"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if yaml_nodes.refused(text):
            refused += 1
            assert pure(text, monkeypatch)[1], path
    assert refused > 5  # the corpus's Helm templates
