"""Helm templates: actions masked with same-length filler, opaque tokens, control flow, failures."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import helm
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch, check_token, values

TEMPLATE = """\
{{- range $i, $modelSpec := .Values.servingEngineSpec.modelSpec }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: "{{ .Release.Name }}-{{ $modelSpec.name }}-vllm"
  labels:
  {{- include "chart.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
  template:
    spec:
      containers:
        - name: "vllm"
          image: "{{ $modelSpec.repository }}:{{ $modelSpec.tag }}"
          command:
          {{- if eq $modelSpec.repository "lmcache/vllm-openai" }}
          - "/opt/venv/bin/vllm"
          {{- else }}
          - "vllm"
          {{- end }}
          - "serve"
          - {{ $modelSpec.modelURL | quote }}
          - "--max-model-len"
          - {{ .maxModelLen | quote }}
          - "--kv-transfer-config"
          - '{"kv_connector":"LMCacheConnectorV1","kv_role":"{{ $kv_role }}"}'
          {{- range .extraArgs }}
          - {{ . | quote }}
          {{- end }}
          env:
          - name: VLLM_RPC_TIMEOUT
            value: "1000000"
          {{- with .Values.env }}
          {{- toYaml . | nindent 10 }}
          {{- end }}
---
{{- end }}
"""


def _extract(text: str, path: str = "chart/templates/deployment.yaml"):
    src = SourceFile.from_text(path, text)
    out = yaml_source.extract(src)
    for launch in out.launches:
        check_launch(src, launch)
    return src, out


def test_mask_keeps_length_and_newlines():
    m = helm.mask(TEMPLATE)
    assert len(m.text) == len(TEMPLATE)
    assert [i for i, c in enumerate(m.text) if c == "\n"] == [i for i, c in enumerate(TEMPLATE) if c == "\n"]
    assert "{{" not in m.text and "}}" not in m.text


def test_template_launch_with_opaque_values_and_first_branch():
    src, out = _extract(TEMPLATE)
    assert not out.problems
    (launch,) = out.launches
    assert launch.kind == "helm-template"
    assert values(launch.entry) == ["/opt/venv/bin/vllm", "serve"]  # else branch dropped
    model = launch.args[0]
    assert model.value == "{{ $modelSpec.modelURL | quote }}" and not model.editable
    assert model.opaque == ((0, len(model.value)),)
    check_token(src, launch.args[1], '"--max-model-len"')
    assert launch.args[1].editable and not launch.args[1].is_opaque
    kv = launch.args[4]
    assert kv.value == '{"kv_connector":"LMCacheConnectorV1","kv_role":"{{ $kv_role }}"}'
    assert not kv.editable
    (s, e), = kv.opaque
    assert kv.value[s:e] == "{{ $kv_role }}"
    ranged = launch.args[5]
    assert ranged.value == "{{ . | quote }}" and ranged.splat
    assert launch.group == 'Deployment/{{ .Release.Name }}-{{ $modelSpec.name }}-vllm/spec.template'
    assert [e.name.value for e in launch.env] == ["VLLM_RPC_TIMEOUT"]
    assert launch.image.is_opaque and launch.version_hint is None


def test_template_that_cannot_parse_is_a_problem():
    text = "apiVersion: v1\nkind: Pod\nspec:\n  containers: {{ .Values.x\n  - name: a\n"
    _src, out = _extract(text)
    assert out.problems
    # a document that masking leaves unreadable is reported only where a vLLM command was lost
    text2 = "{{ define \"x\" }}\nfoo: [\n{{ end }}\n"
    _src, out2 = _extract(text2, "chart/templates/_helpers.tpl")
    assert out2.problems == [] and out2.launches == []
    text3 = "{{ define \"x\" }}\nfoo: [\n{{ end }}\ncommand: [vllm, serve, m, --max-model-len, {{ .Values.len }}\n"
    _src, out3 = _extract(text3, "chart/templates/deployment.yaml")
    assert [p.message.endswith("(after masking template actions)") for p in out3.problems] == [True]


def test_values_file_args_under_any_key():
    text = """\
servingEngineSpec:
  modelSpec:
  - name: llama3
    repository: vllm/vllm-openai
    tag: v0.9.0
    modelURL: meta-llama/Llama-3.1-8B-Instruct
    vllmConfig:
      maxModelLen: 4096
      extraArgs: ["--disable-log-requests", "--max-num-seqs", "32"]
routerSpec:
  extraArgs: ["--prefill-model-labels", "llama-prefill"]
"""
    src, out = _extract(text, "values.yaml")
    # the chart runs one server per modelSpec entry: one launch holds the model, the
    # vllmConfig keys as the chart's settings and the extraArgs flags; the router's
    # extraArgs are another component's
    (launch,) = out.launches
    assert (launch.kind, launch.entrypoint, launch.style, launch.strong) == ("helm-values", "chart", "settings", False)
    assert launch.version_hint.version == "v0.9.0"
    check_token(src, launch.args[0], "meta-llama/Llama-3.1-8B-Instruct")
    assert values(launch.args[1:]) == ["--disable-log-requests", "--max-num-seqs", "32"]
    for tok, word in zip(launch.args[1:], ["--disable-log-requests", "--max-num-seqs", "32"]):
        check_token(src, tok, f'"{word}"')
        assert src.text[tok.value_start : tok.value_start + len(word)] == word  # editable in place
    assert [(s.name.value, s.value.value) for s in launch.settings[: launch.loose_from]] == [("maxModelLen", "4096")]
    # the entry's own keys are read as options only when they name one (the argument model decides)
    assert {s.name.value for s in launch.settings[launch.loose_from :]} == {"name", "repository", "tag"}
    check_token(src, launch.settings[0].name, "maxModelLen")
    assert launch.group == "servingEngineSpec.modelSpec.[0]"


def test_github_expressions_are_not_helm_actions():
    assert not helm.has_template("run: echo ${{ github.sha }}\n")
