"""Property tests of --fix on generated, realistic launch files.

Inputs are built from random choices of real option names from the
inventories (current, older, renamed, removed and abbreviated ones), written
as Kubernetes manifests (block and flow args, ``sh -c`` literal blocks),
compose files, shell scripts, ``--config`` files, Python ``LLM(...)`` calls,
Dockerfiles (exec and shell forms), GitHub Actions ``run: |`` steps, Markdown
code blocks and Helm templates, with random quoting styles, option shapes (``--opt value``,
``--opt=value``, ``"--opt value"`` in one element), CRLF line endings, a BOM
and with or without a final newline.  For each one:

- the fixer reports no error (a broken or non-converging fix is a bug);
- pass by pass, only the recorded edits changed the text;
- a second --fix changes nothing;
- the fixed file still parses (YAML loads to the same shape, Python compiles,
  the shell parse has no new errors), the BOM, CRLF and final newline survive.

The example count is small so the suite stays fast; set
``VLLM_LINT_FIX_EXAMPLES=2000`` (for instance) for a long run.
"""

from __future__ import annotations

import ast
import json
import os
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from packaging.version import Version

from linter import knowledge
from linter.engine import Settings
from linter.fix_check import check_shell, check_yaml
from linter.fixer import fix_source
from linter.source_file import SourceFile
from rules._lib.base import all_rules
from tests.linter.fix_helpers import assert_outside_edits_unchanged

EXAMPLES = int(os.environ.get("VLLM_LINT_FIX_EXAMPLES", "12"))
VERSIONS = [str(v) for v in knowledge.known_versions()]
pytestmark = pytest.mark.skipif(not VERSIONS, reason="no inventories")
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_SAFE_WORD = re.compile(r"^[A-Za-z0-9_./:@%+-]+$")


def _pool():
    """(option string, spec or None) pairs: real, old, renamed, removed and abbreviated names."""
    if not VERSIONS:
        return None
    specs = {}
    for v in (VERSIONS[0], VERSIONS[-1]):
        for o in knowledge.release(v).options:
            if o.hidden or o.json or o.nargs not in (None, "?"):
                continue
            for n in (*o.names, *sorted(o.negative_names)):
                if n.startswith("--") and n not in ("--help", "--config", "--version"):
                    specs.setdefault(n, o)
    names = sorted(specs)
    pool = []
    for fact in knowledge.migrations().options:
        for n in fact.spellings:
            if n and n.startswith("--"):
                pool.append((n, specs.get(n)))
    for n in ("--swap-space", "--disable-log-requests", "--max-num-seq", "--enable-chunked", "--enable-mamba", "--max_num_batched_tokens"):
        pool.append((n, specs.get(n)))
    # abbreviations: a prefix of a real long name (unique or ambiguous, both are real mistakes)
    for n in names[:: max(1, len(names) // 40)]:
        if len(n) > 10:
            pool.append((n[: len(n) - 3], specs[n]))
    return [(n, specs[n]) for n in names], pool


REAL, MIGRATING = _pool() or ([], [])
POOL = REAL + MIGRATING
MODELS = ["Qwen/Qwen3-8B", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", "ibm-granite/granite-4.0-h-small", "meta-llama/Llama-3.1-8B-Instruct"]


@st.composite
def options(draw, n_max=6):
    """A list of (name, value or None) with realistic values."""
    out = []
    # half of the names are ones that need migrating (renamed, removed, abbreviated, with changed values)
    pick = st.one_of(st.sampled_from(REAL), st.sampled_from(MIGRATING))
    for name, spec in draw(st.lists(pick, min_size=1, max_size=n_max)):
        value = None
        if spec is not None and spec.takes_value:
            if spec.choices:
                choices = [str(c) for c in spec.choices if _SAFE_WORD.match(str(c))]
                if name.startswith("--mamba-cache-mode"):
                    choices.append("all")
                value = draw(st.sampled_from(choices)) if choices else None
            elif spec.type == "int":
                value = str(draw(st.integers(1, 65536)))
            elif spec.type == "float":
                value = draw(st.sampled_from(["0.9", "0.85", "1.5"]))
            else:
                value = draw(st.sampled_from(["auto", "x", "/models/m", "a-b_c", "my model", "a#b", "50%", '{"temperature": 0.5}', "k=v,w=1"]))
            if value is None:
                continue
        elif spec is None and draw(st.booleans()):
            value = str(draw(st.integers(1, 4096)))
        out.append((name, value))
    return out


def _elements(draw, opts, *, one_element_ok=True):
    """argv elements: `--opt value` as two, `--opt=value`, or one element with a space."""
    els = []
    for name, value in opts:
        if value is None:
            els.append(name)
            continue
        shape = draw(st.sampled_from(["sep", "eq", "one"] if one_element_ok else ["sep", "eq"]))
        if shape == "sep":
            els += [name, value]
        elif shape == "eq":
            els.append(f"{name}={value}")
        else:
            els.append(f"{name} {value}")
    return els


def _yaml_scalar(draw, s: str, flow: bool) -> str:
    """``s`` as a YAML scalar in a random style that reads back as the string ``s``."""
    candidates = [s, "'" + s.replace("'", "''") + "'", '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"']
    ok = []
    for c in candidates:
        doc = f"k: [{c}]" if flow else f"k: {c}"
        try:
            loaded = yaml.safe_load(doc)
        except yaml.YAMLError:
            continue
        if loaded == {"k": [s] if flow else s}:
            ok.append(c)
    return draw(st.sampled_from(ok))


def _shell_word(draw, s: str) -> str:
    double = '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`") + '"'
    if not _SAFE_WORD.match(s):
        return draw(st.sampled_from(["'" + s + "'", double]))
    return draw(st.sampled_from([s, "'" + s + "'", double]))


def _pin(draw) -> str:
    return draw(st.sampled_from(VERSIONS + ["0.29.0", "0.30.1"]))


@st.composite
def shell_script(draw):
    opts = draw(options())
    els = _elements(draw, opts)
    indent = draw(st.sampled_from(["  ", "    ", "\t"]))
    words = [_shell_word(draw, e) for e in els]
    lines = ["#!/usr/bin/env bash", "# serve the model", "set -euo pipefail"]
    if draw(st.booleans()):
        lines.append(f'pip install "vllm=={_pin(draw)}"')
    lines.append("")
    head = draw(st.sampled_from(["exec vllm serve", "vllm serve", "python -m vllm.entrypoints.openai.api_server --model"]))
    cmd = f"{head} {draw(st.sampled_from(MODELS))}"
    if draw(st.booleans()):
        lines.append(cmd + " " + " ".join(words))
    else:
        lines.append(cmd + " \\")
        for i, w in enumerate(words):
            lines.append(indent + w + (" \\" if i < len(words) - 1 else ""))
    lines.append("# done")
    return "shell", "serve.sh", "\n".join(lines) + "\n"


@st.composite
def k8s_manifest(draw):
    opts = draw(options())
    model = draw(st.sampled_from(MODELS))
    ind = draw(st.sampled_from(["  ", "    "]))
    head = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm  # the server\n  labels: {app: vllm}\n"
        "spec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n        - name: vllm\n"
        f"          image: vllm/vllm-openai:v{_pin(draw)}\n"
    )
    form = draw(st.sampled_from(["block", "flow", "literal", "sh-c-string"]))
    if form in ("block", "flow"):
        els = [model] + _elements(draw, opts)
        scal = [_yaml_scalar(draw, e, flow=form == "flow") for e in els]
        if form == "block":
            dash = draw(st.sampled_from(["", ind]))
            body = "          args:\n" + "".join(f"          {dash}- {s}\n" for s in scal)
        else:
            body = "          args: [" + ", ".join(scal) + "]\n"
    elif form == "literal":
        words = [_shell_word(draw, e) for e in _elements(draw, opts)]
        body = "          command: [\"/bin/sh\", \"-c\"]\n          args:\n            - |\n"
        body += f"              vllm serve {model} \\\n" + "".join(f"                {w} \\\n" for w in words[:-1]) + f"                {words[-1]}\n"
    else:
        words = [_shell_word(draw, e) for e in _elements(draw, opts, one_element_ok=False)]
        script = " ".join([f"vllm serve {model}", *words])
        body = f"          command: [\"sh\", \"-c\", {_yaml_scalar(draw, script, flow=True)}]\n"
    tail = "          ports:\n            - containerPort: 8000\n"
    if draw(st.booleans()):
        tail += "          env:\n            - name: VLLM_USE_V1\n              value: \"1\"\n"
    return "yaml", "deploy.yaml", head + body + tail


@st.composite
def compose_file(draw):
    opts = draw(options())
    model = draw(st.sampled_from(MODELS))
    head = f"services:\n  vllm:\n    image: vllm/vllm-openai:v{_pin(draw)}\n    ipc: host\n"
    form = draw(st.sampled_from(["string", "block", "flow"]))
    if form == "string":
        els = [_shell_word(draw, e) for e in _elements(draw, opts, one_element_ok=False)]
        line = " ".join([model, *els])
        body = "    command: " + _yaml_scalar(draw, line, flow=False) + "\n"
    else:
        els = [model] + _elements(draw, opts)
        scal = [_yaml_scalar(draw, e, flow=form == "flow") for e in els]
        body = "    command:\n" + "".join(f"      - {s}\n" for s in scal) if form == "block" else "    command: [" + ", ".join(scal) + "]\n"
    return "yaml", "compose.yaml", head + body + "    ports:\n      - \"8000:8000\"\n"


@st.composite
def config_file(draw):
    opts = draw(options())
    lines = ["# options for vllm serve --config"]
    seen = set()
    for name, value in opts:
        key = name[2:]
        if key in seen:
            continue
        seen.add(key)
        if draw(st.booleans()):
            key = key.replace("-", "_")
        if value is None:
            v = draw(st.sampled_from(["true", "false"]))
        else:
            v = _yaml_scalar(draw, value, flow=False)
        comment = draw(st.sampled_from(["", "  # why"]))
        lines.append(f"{key}: {v}{comment}")
        if draw(st.booleans()):
            lines.append("")
    return "vllm-config", "serve-config.yaml", "\n".join(lines) + "\n"


@st.composite
def python_file(draw):
    opts = draw(options())
    q = draw(st.sampled_from(['"', "'"]))
    args = [f"model={q}{draw(st.sampled_from(MODELS))}{q}"]
    seen = set()
    for name, value in opts:
        spec = dict(POOL).get(name)
        kw = spec.dest if spec is not None and name in spec.names else name[2:].replace("-", "_")
        if not kw.isidentifier() or kw in seen or kw == "model":
            continue
        seen.add(kw)
        if value is None:
            lit = draw(st.sampled_from(["True", "False"]))
        elif re.fullmatch(r"-?\d+", value):
            lit = value
        else:
            lit = q + value + q if q not in value and "\\" not in value else repr(value)
        args.append(f"{kw}={lit}")
    sep = draw(st.sampled_from([", ", ",\n    "]))
    text = "from vllm import LLM, SamplingParams\n\n# offline\nllm = LLM(" + sep.join(args) + ")\nprint(llm)\n"
    return "python", "offline.py", text


@st.composite
def dockerfile(draw):
    opts = draw(options())
    model = draw(st.sampled_from(MODELS))
    lines = [f"FROM vllm/vllm-openai:v{_pin(draw)}", "# serve", "ENV VLLM_LOGGING_LEVEL=INFO"]
    form = draw(st.sampled_from(["exec", "entrypoint+cmd", "shell"]))
    if form == "shell":
        words = [_shell_word(draw, e) for e in _elements(draw, opts)]
        lines.append(f"CMD vllm serve {model} \\")
        lines += [f"    {w} \\" for w in words[:-1]] + [f"    {words[-1]}"]
    else:
        els = [model] + _elements(draw, opts)
        arr = "[" + ", ".join(json.dumps(e) for e in els) + "]"
        if form == "entrypoint+cmd":
            lines.append('ENTRYPOINT ["vllm", "serve"]')
        lines.append("CMD " + arr)
    return "dockerfile", "Dockerfile", "\n".join(lines) + "\n"


@st.composite
def actions_workflow(draw):
    opts = draw(options())
    words = [_shell_word(draw, e) for e in _elements(draw, opts)]
    model = draw(st.sampled_from(MODELS))
    body = "".join(f"            {w} \\\n" for w in words[:-1]) + f"            {words[-1]} &\n"
    text = (
        "name: smoke\non: [push]\njobs:\n  serve:\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - run: pip install vllm=={_pin(draw)}\n"
        "      - name: start\n        run: |\n"
        f"          vllm serve {model} \\\n" + body + "          sleep 60\n"
    )
    return "yaml", ".github/workflows/smoke.yml", text


@st.composite
def markdown_doc(draw):
    opts = draw(options())
    words = [_shell_word(draw, e) for e in _elements(draw, opts)]
    fence = draw(st.sampled_from(["```bash", "```sh", "```console"]))
    prompt = "$ " if fence == "```console" else ""
    text = f"# Serving\n\nStart the server:\n\n{fence}\n{prompt}vllm serve {draw(st.sampled_from(MODELS))} " + " ".join(words) + "\n```\n\nThen query it.\n"
    return "markdown", "README.md", text


@st.composite
def helm_template(draw):
    opts = draw(options())
    els = [draw(st.sampled_from(MODELS))] + _elements(draw, opts)
    scal = []
    for e in els:
        scal.append(_yaml_scalar(draw, e, flow=False))
        if draw(st.integers(0, 4)) == 0:
            scal.append(draw(st.sampled_from(["{{ .Values.extraArg | quote }}", '"--port={{ .Values.port }}"', "--max-num-seq{{ .Values.suffix }}"])))
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: vllm\n          image: \"vllm/vllm-openai:{{ .Values.tag | default \"v0.30.0\" }}\"\n          args:\n"
        + "".join(f"            - {x}\n" for x in scal)
        + "          {{- with .Values.resources }}\n          resources: {{ toYaml . | nindent 12 }}\n          {{- end }}\n"
    )
    return "helm-template", "chart/templates/deployment.yaml", text


def _variants(draw, text: str) -> tuple[str, bytes]:
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    bom = draw(st.sampled_from([b"", b"\xef\xbb\xbf"]))
    return text, bom


FILES = st.sampled_from([shell_script, k8s_manifest, compose_file, config_file, python_file, dockerfile, actions_workflow, markdown_doc, helm_template]).flatmap(lambda make: make())


def _parses_the_same(kind: str, before: str, after: str) -> None:
    if kind in ("yaml", "vllm-config"):
        try:
            list(yaml.safe_load_all(before))
        except yaml.YAMLError:
            return
        list(yaml.safe_load_all(after))  # raises if the fix broke it
    elif kind == "python":
        try:
            ast.parse(before)
        except SyntaxError:
            return
        ast.parse(after)
    elif kind == "shell":
        assert check_shell(before, after, []) is None
    elif kind == "dockerfile":
        from linter.fix_check import check_dockerfile

        assert check_dockerfile(before, after, []) is None


@SETTINGS
@given(st.data(), FILES, st.booleans(), st.sampled_from(VERSIONS or ["0.33.0"]))
def test_fix_generated_files(data, generated, unsafe, target):
    kind, name, text = generated
    text, bom = _variants(data.draw, text)
    src = SourceFile.from_bytes(name, bom + text.encode("utf-8"))
    assert src.text == text and src.bom == bom
    cfg = Settings(target=Version(target))
    rules = all_rules()
    # the generated input is a valid file holding a launch (else the test would pass vacuously)
    if kind in ("yaml", "vllm-config"):
        list(yaml.safe_load_all(text))
    elif kind == "python":
        ast.parse(text)
    outcome = fix_source(src, kind, cfg, rules, unsafe)
    assert outcome.remaining is not None and outcome.remaining.launches, f"no launch found in\n{text}"
    assert outcome.error is None, f"{outcome.error}\n--- input ---\n{text}"
    assert_outside_edits_unchanged(outcome)
    fixed = outcome.fixed
    # a second --fix changes nothing
    again = fix_source(SourceFile(name, fixed, src.encoding, src.bom), kind, cfg, rules, unsafe)
    assert again.error is None and again.fixed == fixed, f"second --fix changed the file\n--- input ---\n{text}\n--- fixed ---\n{fixed}"
    # the fixed file parses, with the BOM, line endings and final newline kept
    _parses_the_same(kind, text, fixed)
    if kind in ("yaml", "vllm-config") and fixed != text:
        assert check_yaml(text, fixed, [e for p in outcome.passes for e in p.edits]) is None or len(outcome.passes) > 1
    out = src.encode(fixed)
    assert out.startswith(bom) and SourceFile.from_bytes(name, out).text == fixed
    if "\r\n" in text:
        assert fixed.count("\n") == fixed.count("\r\n"), "a bare LF in a CRLF file"
    assert fixed.endswith("\n") == text.endswith("\n")


CORPUS = __import__("pathlib").Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "tree"
CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file()) if CORPUS.exists() else []


@pytest.mark.skipif(not CORPUS_FILES, reason="shared corpus not present")
@SETTINGS
@given(st.data(), st.sampled_from(CORPUS_FILES or [None]), st.booleans(), st.sampled_from(VERSIONS or ["0.33.0"]))
def test_fix_corpus_files_with_crlf_bom_and_no_final_newline(data, path, unsafe, target):
    from linter.discovery import classify

    raw = path.read_bytes()
    kind = classify(str(path), raw[:512]) or "yaml"
    try:
        text = SourceFile.from_bytes(str(path), raw).text
    except Exception:
        return
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    text, bom = _variants(data.draw, text)
    src = SourceFile.from_bytes(str(path), bom + text.encode("utf-8"))
    cfg = Settings(target=Version(target))
    outcome = fix_source(src, kind, cfg, all_rules(), unsafe)
    assert outcome.error is None, outcome.error
    assert_outside_edits_unchanged(outcome)
    again = fix_source(SourceFile(str(path), outcome.fixed, src.encoding, src.bom), kind, cfg, all_rules(), unsafe)
    assert again.fixed == outcome.fixed
    _parses_the_same(kind, text, outcome.fixed)
    if "\r\n" in text:
        assert outcome.fixed.count("\n") == outcome.fixed.count("\r\n"), "a bare LF in a CRLF file"
    assert src.encode(outcome.fixed).startswith(bom)
