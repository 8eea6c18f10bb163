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


def test_mask_keeps_length_and_text():
    m = helm.mask(TEMPLATE)
    assert len(m.text) == len(TEMPLATE)
    assert "{{" not in m.text and "}}" not in m.text
    # every character outside the actions and the white space they trim is the file's own
    else_body = (TEMPLATE.index("{{- else }}"), TEMPLATE.index("{{- end }}", TEMPLATE.index("{{- else }}")))
    for i, (a, b) in enumerate(zip(TEMPLATE, m.text)):
        if a != b:
            assert a in " \n" or any(s <= i < e for s, e in helm.action_spans(TEMPLATE)) or else_body[0] <= i < else_body[1]


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


def test_template_with_format_holes_reports_a_parse_error_only_where_a_command_is_lost():
    # a `.tpl` of a SkyPilot task filled by Python's str.format: `{region_block}` alone on its
    # line is no YAML, but nothing of vLLM's is lost with it
    text = "resources:\n  accelerators: \"{gpu}:{gpu_count}\"\n  ports: {port}\n{region_block}\n\nrun: |\n  {vllm_cmd}\n"
    _src, out = _extract(text, "templates/skyserve/vllm.yaml.tpl")
    assert out.problems == [] and out.launches == []
    lost = "resources:\n  ports: {port}\n{region_block}\n\nrun: |\n  vllm serve {model} --port {port}\n"
    _src, out2 = _extract(lost, "templates/skyserve/vllm.yaml.tpl")
    assert [p.message.startswith("YAML parse error") for p in out2.problems] == [True]


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


SCRIPT_TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-vllm
  labels:
    {{- include "chart.labels" . | nindent 4 }}
spec:
  template:
    spec:
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.10.0
          command: ["/bin/sh", "-c"]
          args:
            - |
              {{- if .Values.lmcache.enabled }}
              export LMCACHE_DISTRIBUTED_URL=${POD_IP} && \\
              {{- end }}
              vllm serve {{ .Values.model }} \\
              --port {{ if .Values.port }}{{ .Values.port }}{{ else }}5555{{ end }} \\
              {{- if .Values.chunked }}
              --enable-chunked-prefill \\{{- else }}--no-enable-chunked-prefill \\
              {{- end }}
              {{- if .Values.maxLen }}
              --max-model-len {{ .Values.maxLen }} \\
              {{- end }}
              --swap-space 4 \\
              --num-scheduler-steps 8
          env:
            {{- range $k, $v := .Values.env }}
            - name: {{ $k }}
              value: {{ $v | quote }}
            {{- end }}
"""


def test_chomping_actions_inside_a_continued_script():
    """``{{- if }}``/``{{- end }}`` lines inside a ``\\``-continued ``sh -c`` script (Helm trims
    the line ends before them, so the command goes on), a conditional as the block scalar's
    first line, an inline ``\\{{- else }}`` branch: one launch with every flag of the first
    branches, no parse error."""
    src, out = _extract(SCRIPT_TEMPLATE)
    assert out.problems == []
    (launch,) = out.launches
    words = values(launch.args)
    assert words[0] == "{{ .Values.model }}"
    assert words[1:] == ["--port", "{{ .Values.port }}", "--enable-chunked-prefill", "--max-model-len", "{{ .Values.maxLen }}",
                         "--swap-space", "4", "--num-scheduler-steps", "8"]
    port = launch.args[2]
    assert port.is_opaque and not port.editable  # one unknown value, not the value plus 5555
    check_token(src, launch.args[-4], "--swap-space")
    assert launch.args[-4].editable


def test_chomped_script_is_checked_like_the_rendered_one(tmp_path):
    from tests.rules.lint_helpers import codes, flagged, lint

    (tmp_path / "templates").mkdir()
    result = lint(tmp_path, "templates/deployment.yaml", SCRIPT_TEMPLATE, "helm-template", target="0.33")
    # the flags past the conditionals are read: both removed ones are reported, nothing else
    assert sorted(set(codes(result)) - {"VL601"}) == ["VL101"]
    assert sorted(flagged(result, "VL101")) == ["--num-scheduler-steps", "--swap-space"]


def test_unchomped_action_line_opening_a_block_scalar():
    text = SCRIPT_TEMPLATE.replace("{{- if .Values.lmcache.enabled }}", "{{ if .Values.lmcache.enabled }}").replace(
        "${POD_IP} && \\\\\n              {{- end }}", "${POD_IP} && \\\\\n              {{- end }}")
    _src, out = _extract(text)
    assert out.problems == []
    (launch,) = out.launches
    assert "--swap-space" in values(launch.args)


def test_crlf_template_reads_the_same():
    src, out = _extract(SCRIPT_TEMPLATE.replace("\n", "\r\n"))
    assert out.problems == []
    (launch,) = out.launches
    assert values(launch.args)[1:4] == ["--port", "{{ .Values.port }}", "--enable-chunked-prefill"]
    assert values(launch.args)[-4:] == ["--swap-space", "4", "--num-scheduler-steps", "8"]


def test_conditional_value_in_an_argv_list_is_one_unknown_value():
    text = """\
apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.30.0
      args:
        - --model
        - {{ .Values.model }}
        - --port
        - "{{ if .Values.port }}{{ .Values.port }}{{ else }}5555{{ end }}"
        {{- if .Values.eager }}
        - --enforce-eager
        {{- else }}
        - --max-num-seqs
        - "8"
        {{- end }}
        - --swap-space
        - "4"
"""
    _src, out = _extract(text)
    assert out.problems == []
    (launch,) = out.launches
    words = values(launch.args)
    cond = "{{ if .Values.port }}{{ .Values.port }}{{ else }}5555{{ end }}"
    assert words == ["--model", "{{ .Values.model }}", "--port", cond, "--enforce-eager", "--swap-space", "4"]
    assert launch.args[3].opaque == ((0, len(cond)),)  # the whole conditional is one unknown value


FOLDED_TEMPLATE = """\
{{- /* the vLLM server of this chart */ -}}
apiVersion: v1
kind: Pod
metadata:
  name: {{ .Release.Name }}
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:{{ .Values.tag | default "v0.30.0" }}
      command: ["/bin/bash", "-c"]
      args:
        - >-
          vllm serve {{ .Values.model }}
          --port 8000
          {{- if .Values.lora }}
          --enable-lora --max-loras {{ .Values.maxLoras }}
          {{- end }}
          {{- if .Values.eager }}
          --enforce-eager
          {{- else }}
          --max-num-seqs 8
          {{- end }}
          --swap-space 4
"""


def test_chomped_lines_in_a_folded_script_and_a_chomped_comment_first():
    """A ``{{- /* */ -}}`` comment trims the line end after it (``apiVersion:`` stays at column 0
    once rendered), and ``{{- if }}`` lines in a folded (``>-``) script leave no blank line (a
    blank line there would end the command): one launch with every first-branch flag."""
    _src, out = _extract(FOLDED_TEMPLATE)
    assert out.problems == []
    (launch,) = out.launches
    assert values(launch.args)[1:] == ["--port", "8000", "--enable-lora", "--max-loras", "{{ .Values.maxLoras }}",
                                       "--enforce-eager", "--swap-space", "4"]


def test_unchomped_action_line_in_a_folded_script_ends_the_command_as_rendered():
    # Helm renders `{{ if }}` alone on a line as a blank line, which a folded scalar keeps as a
    # line end: the script runs `vllm serve ... --port 8000`, then `--swap-space 4` as a command
    text = FOLDED_TEMPLATE.replace("          {{- if .Values.lora }}", "          {{ if .Values.lora }}")
    _src, out = _extract(text)
    (launch,) = out.launches
    assert values(launch.args)[1:] == ["--port", "8000"]


def test_an_option_whose_value_is_an_action_with_spaces_is_that_option(tmp_path, monkeypatch):
    """``--task={{ .Values.task }}``: argparse reads a word with a space as a positional, but the
    spaces are the action's, not the rendered value's: the word is the option ``--task`` (gone
    after 0.12), never a second model; a space written outside the action still counts."""
    import json

    from click.testing import CliRunner

    from linter.cli import main

    chart = tmp_path / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: serve\nversion: 0.1.0\n", encoding="utf-8")
    (chart / "templates" / "deployment.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: vllm\n          image: vllm/vllm-openai:v0.30.0\n"
        "          args:\n"
        '            - "--model={{ .Values.model }}"\n'
        "            {{- if .Values.task }}\n"
        '            - "--task={{ .Values.task }}"\n'
        "            {{- end }}\n"
        '            - "--swap-space={{ .Values.swapSpace }}" # in GiB\n'
        '            - "--max-model-len={{ .Values.maxModelLen | default 4096 }}"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--no-cache", "--output-format", "json", "chart"])
    found = sorted((d["code"], d["location"]["row"]) for d in json.loads(result.stdout))
    assert found == [("VL101", 12), ("VL101", 14)], result.stdout  # and no "the model is given twice"
    [launch] = json.loads(CliRunner().invoke(main, ["--no-cache", "--show-launches", "--output-format", "json", "chart"]).stdout)
    assert [(o["name"], o["value"]) for o in launch["options"]] == [
        ("--model", "{{ .Values.model }}"), ("--task", None), ("--swap-space", None), ("--max-model-len", "{{ .Values.maxModelLen | default 4096 }}")
    ]  # the removed options' values are not read (no release parses them); the others keep their actions as written


def test_a_space_outside_the_action_still_makes_a_positional():
    from linter import argmodel
    from linter.launch import Span, Token

    tok = Token("--task=a {{ .Values.x }}", Span(0, 24), opaque=((9, 24),))
    it = argmodel.Item(tok.value, tok, 0, len(tok.value), opaque=True)
    assert argmodel._holes_filled(it) == "--task=a xxxxxxxxxxxxxxx"  # the written space is kept: argparse's positional
    tok = Token("--task={{ .Values.x }}", Span(0, 22), opaque=((7, 22),))
    assert " " not in argmodel._holes_filled(argmodel.Item(tok.value, tok, 0, len(tok.value), opaque=True))


IMAGE_FROM_VALUES = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "stack.fullname" . }}-engine
spec:
  template:
    spec:
      containers:
        - name: engine
          image: "{{ .Values.vllm.image.repository }}:{{ .Values.vllm.image.tag }}"
          args:
            - --model={{ .Values.vllm.model }}
            - --max-model-len={{ .Values.vllm.maxModelLen }}
            - --gpu-memory-utilization=0.9
            - --swap-space=4
            {{- range .Values.vllm.extraArgs }}
            - {{ . | quote }}
            {{- end }}
        - name: gateway
          image: "{{ .Values.gateway.image.repository }}:{{ .Values.gateway.image.tag }}"
          args: [--upstream, http://localhost:8000, --max-num-seqs=4]
"""


def test_args_of_an_image_the_template_takes_from_vllm_values(tmp_path):
    """``image: "{{ .Values.vllm.image.repository }}:{{ ... }}"`` without a command: the chart's
    vLLM image runs the args (weak: the reading is kept when the argument model confirms it,
    reported, never edited); an image from another component's values is not vLLM's."""
    from tests.rules.lint_helpers import flagged, lint

    _src, out = _extract(IMAGE_FROM_VALUES)
    (launch,) = out.launches
    assert (launch.entrypoint, launch.strong) == ("image", False)
    assert values(launch.args)[2:4] == ["--gpu-memory-utilization=0.9", "--swap-space=4"]
    assert "{{ .Values.vllm.image.repository }}" in launch.evidence
    (tmp_path / "templates").mkdir()
    result = lint(tmp_path, "templates/deployment.yaml", IMAGE_FROM_VALUES, "helm-template", target="0.33")
    (rep,) = result.launches
    assert flagged(result, "VL101") == ["--swap-space"]
    assert all(d.fix is None for d in result.diagnostics)
    # a literal image name is the image's own word: not this form
    literal = IMAGE_FROM_VALUES.replace('"{{ .Values.vllm.image.repository }}:', '"ghcr.io/acme/server:')
    assert _extract(literal)[1].launches == []


IF_ELSE_OPTIONS = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-engine
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          command:
          {{- if .Values.venv }}
          - "/opt/venv/bin/vllm"
          {{- else }}
          - "vllm"
          {{- end }}
          - "serve"
          - {{ .Values.model | quote }}
          args:
          {{- if .Values.enableChunkedPrefill }}
          - "--enable-chunked-prefill"
          {{- else }}
          - "--no-enable-chunked-prefill"
          {{- end }}
          {{- if .Values.enablePrefixCaching }}
          - "--enable-prefix-caching"
          {{- else }}
          - "--no-enable-prefx-caching"
          {{- end }}
          {{- if .Values.maxModelLen }}
          - "--max-model-len"
          - {{ .Values.maxModelLen | quote }}
          {{- else }}
          - "--max-model-len"
          - "8192"
          {{- end }}
"""


def test_both_option_branches_of_an_if_else_are_read_conditionally(tmp_path) -> None:
    """``{{ if .X }}- "--enable-x"{{ else }}- "--no-enable-x"{{ end }}``: rendering keeps one
    of the two option items, so both are read, each conditional (a misspelt one is reported,
    neither is a duplicate of the other).  Alternative programs (``/opt/venv/bin/vllm`` or
    ``vllm``) and branches that hold a value keep the first branch only."""
    from tests.rules.lint_helpers import lint

    src = SourceFile.from_text("templates/deployment.yaml", IF_ELSE_OPTIONS)
    ex = yaml_source.extract(src)
    (launch,) = ex.launches
    check_launch(src, launch)
    assert [t.value for t in launch.entry][-1] == "serve"
    assert values(launch.args)[1:] == [
        "--enable-chunked-prefill", "--no-enable-chunked-prefill", "--enable-prefix-caching", "--no-enable-prefx-caching",
        "--max-model-len", '{{ .Values.maxModelLen | quote }}',
    ]
    assert [t.conditional for t in launch.args[1:5]] == [True, True, True, True]
    assert not launch.args[5].conditional
    result = lint(tmp_path, "deployment.yaml", IF_ELSE_OPTIONS, "helm-template", target="0.33")
    assert [(d.code, IF_ELSE_OPTIONS[d.span.start : d.span.end]) for d in result.diagnostics] == [("VL104", "--no-enable-prefx-caching")]


SCAFFOLDED_CHART = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "vllm.fullname" . }}
  labels:
    {{- include "vllm.labels" . | nindent 4 }}
spec:
  template:
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
          {{- if .Values.command }}
          command: {{ .Values.command }}
          {{- end }}
          args:
            - --model
            - {{ .Values.config.model }}
            - --max-model-len
            - {{ .Values.config.maxModelLen | quote }}
            - --swap-space=4
        - name: metrics
          image: "{{ .Values.exporter.image.repository }}:{{ .Values.exporter.image.tag }}"
          args: ["--web.listen-address=:9400", "--collectors=/etc/collectors.csv"]
"""


def test_args_of_a_templated_image_in_a_chart_named_vllm(tmp_path):
    """``helm create vllm`` names the chart's helpers after it (``include "vllm.fullname"``)
    and writes ``name: {{ .Chart.Name }}`` and ``image: "{{ .Values.image.repository }}:..."``:
    the container's own text never says vLLM, the chart's name does.  Its args-only container
    is a weak launch (kept when the argument model confirms it, never edited); before, no launch
    was found.  A sidecar's flags are not vLLM's and are dropped; a chart of another name, or
    of a component beside vLLM (``vllm-router``), gives no launch."""
    from tests.rules.lint_helpers import flagged, lint

    _src, out = _extract(SCAFFOLDED_CHART)
    assert [values(launch.args)[:2] for launch in out.launches][0] == ["--model", "{{ .Values.config.model }}"]
    assert all(not launch.strong and "(chart vllm)" in launch.evidence for launch in out.launches)
    (tmp_path / "templates").mkdir()
    result = lint(tmp_path, "templates/deployment.yaml", SCAFFOLDED_CHART, "helm-template", target="0.33")
    (rep,) = result.launches
    assert values(rep.launch.args)[2:] == ["--max-model-len", "{{ .Values.config.maxModelLen | quote }}", "--swap-space=4"]
    assert flagged(result, "VL101") == ["--swap-space"]
    assert all(d.fix is None for d in result.diagnostics)
    for other in ('"myapp.', '"vllm-router.'):
        text = SCAFFOLDED_CHART.replace('"vllm.', other)
        assert _extract(text)[1].launches == []
