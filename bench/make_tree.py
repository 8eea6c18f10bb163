"""Build a deterministic synthetic monorepo for the benchmark.

``build(root, n_files)`` writes ``n_files`` files (about 5 KB each on average,
so 20,000 files are about 100 MB).  About 2.5 % of them (500 of 20,000) hold
vLLM launches in every form vllm-lint reads: shell scripts, Kubernetes
manifests, Helm charts (values and templates), docker-compose files, GitHub
Actions workflows, SkyPilot tasks, Dockerfiles, Python, Markdown and vLLM
``--config`` files.  When ``../shared/corpus/tree`` exists its real files are
used for part of the YAML launches (copied into the tree, never into the
repository).  A further 0.5 % mention vLLM without launching it (docs, imports),
and the rest are ordinary source and configuration files: Python, Go,
TypeScript, Java, JSON, YAML with no vLLM in them (manifests of other
services, CI for other projects), Markdown, shell, Dockerfiles, and a few
large files (1-2.5 MB: generated code, lock files, data YAML).

The same ``(n_files, seed)`` always gives byte-identical trees.

    python bench/make_tree.py /tmp/tree 20000
"""

from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path

GENERATOR_VERSION = 5  # bump when the output changes (bench/run.py re-uses trees per version)

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "tree"

MODELS = [
    "Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3",
    "ibm-granite/granite-4.0-h-small", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", "Qwen/Qwen3-Next-80B-A3B-Instruct",
    "google/gemma-3-12b-it", "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
]
VERSIONS = ["0.8.5", "0.10.1", "0.28.0", "0.29.0", "0.30.1", "0.31.0", "0.32.0", "0.33.0"]
# (option, value or None); a mix of current, abbreviated, renamed, removed and deprecated spellings
OPTIONS = [
    ("--max-model-len", "16384"), ("--max-model-len", "32768"), ("--gpu-memory-utilization", "0.9"),
    ("--tensor-parallel-size", "2"), ("--max-num-seqs", "64"), ("--max-num-seq", "128"),
    ("--enable-prefix-caching", None), ("--enable-chunked-prefill", None), ("--enable-chunked", None),
    ("--swap-space", "16"), ("--disable-log-requests", None), ("--max_num_batched_tokens", "8192"),
    ("--dtype", "bfloat16"), ("--kv-cache-dtype", "fp8"), ("--mamba-cache-mode", "all"),
    ("--trust-remote-code", None), ("--served-model-name", "chat"), ("--port", "8000"),
    ("--block-size", "16"), ("--seed", "0"), ("--enforce-eager", None), ("--max-num-batched-tokens", "4096"),
]
ENV = [("VLLM_LOGGING_LEVEL", "INFO"), ("VLLM_USE_V1", "1"), ("VLLM_ATTENTION_BACKEND", "FLASHINFER"), ("HF_HOME", "/cache")]

WORDS = (
    "alpha beta gamma delta service request handler config value index cache buffer worker queue "
    "metrics router account order payment session token user admin tenant region cluster node pod "
    "deploy release build test image volume secret mount probe health ready status error retry "
    "timeout limit batch stream event message topic schema record table column query result"
).split()


class Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def ident(self) -> str:
        return "_".join(self.pick(WORDS) for _ in range(self.r.randint(1, 3)))

    def sentence(self) -> str:
        return " ".join(self.pick(WORDS) for _ in range(self.r.randint(6, 16))).capitalize() + "."

    def options(self) -> list[tuple[str, str | None]]:
        chosen = self.r.sample(OPTIONS, self.r.randint(3, 7))
        seen, out = set(), []
        for name, value in chosen:
            key = name.replace("_", "-")
            if key not in seen:
                seen.add(key)
                out.append((name, value))
        return out

    def argv(self) -> list[str]:
        out = []
        for name, value in self.options():
            out.append(name)
            if value is not None:
                out.append(value)
        return out

    # -- filler, appended to launch files so they have realistic sizes

    def comment_block(self, prefix: str, lines: int) -> str:
        return "".join(f"{prefix} {self.sentence()}\n" for _ in range(lines))


# ---------------------------------------------------------------------------
# launch files


def shell_launch(g: Gen, config: str | None = None) -> str:
    v = g.pick(VERSIONS)
    args = " \\\n  ".join(_pairs(g.argv()))
    cfg = f"  --config {config} \\\n  " if config else "  "
    return (
        "#!/usr/bin/env bash\nset -euo pipefail\n" + g.comment_block("#", g.r.randint(2, 20))
        + f'pip install "vllm=={v}"\nMODEL=${{MODEL:-{g.pick(MODELS)}}}\n\n'
        + f'exec vllm serve "$MODEL" \\\n{cfg}{args} \\\n  --host 0.0.0.0\n'
    )


def _pairs(argv: list[str]) -> list[str]:
    out: list[str] = []
    for a in argv:
        if out and not a.startswith("-") and out[-1].startswith("-") and " " not in out[-1]:
            out[-1] += " " + a
        else:
            out.append(a)
    return out


def _yaml_list(items: list[str], indent: int) -> str:
    pad = " " * indent
    return "".join(f'{pad}- "{a}"\n' for a in items)


def k8s_launch(g: Gen) -> str:
    name = g.ident().replace("_", "-")
    env = "".join(f'            - name: {k}\n              value: "{v}"\n' for k, v in g.r.sample(ENV, 2))
    return (
        f"# {g.sentence()}\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  labels:\n    app: {name}\n"
        f"spec:\n  replicas: {g.r.randint(1, 4)}\n  selector:\n    matchLabels:\n      app: {name}\n  template:\n"
        f"    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n        - name: vllm\n"
        f"          image: vllm/vllm-openai:v{g.pick(VERSIONS)}\n          command: [\"vllm\", \"serve\"]\n          args:\n"
        + _yaml_list([g.pick(MODELS), *g.argv()], 12)
        + f"          env:\n{env}          ports:\n            - containerPort: 8000\n"
        "          resources:\n            limits:\n              nvidia.com/gpu: \"1\"\n"
        f"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n  selector:\n    app: {name}\n"
        "  ports:\n    - port: 80\n      targetPort: 8000\n"
    )


def helm_chart(g: Gen, folder: Path) -> list[tuple[Path, str]]:
    name = g.ident().replace("_", "-")
    args = "".join(f"    - {a!r}\n".replace("'", '"') for a in g.argv())
    values = (
        f"# Default values for {name}.\nreplicaCount: 1\nimage:\n  repository: vllm/vllm-openai\n  tag: v{g.pick(VERSIONS)}\n"
        f"model: {g.pick(MODELS)}\nvllm:\n  extraArgs:\n{args}resources:\n  limits:\n    nvidia.com/gpu: 1\n"
        + g.comment_block("#", g.r.randint(5, 30))
    )
    template = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include \"chart.fullname\" . }}\nspec:\n"
        "  replicas: {{ .Values.replicaCount }}\n  template:\n    spec:\n      containers:\n        - name: vllm\n"
        '          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"\n'
        "          command: [\"vllm\", \"serve\"]\n          args:\n            - {{ .Values.model | quote }}\n"
        + _yaml_list(g.argv(), 12)
        + "            {{- range .Values.vllm.extraArgs }}\n            - {{ . | quote }}\n            {{- end }}\n"
    )
    chart = f"apiVersion: v2\nname: {name}\nversion: 0.1.{g.r.randint(0, 9)}\nappVersion: \"1.0\"\n"
    return [(folder / "Chart.yaml", chart), (folder / "values.yaml", values), (folder / "templates" / "deployment.yaml", template)]


def compose_launch(g: Gen) -> str:
    argv = " ".join([g.pick(MODELS), *g.argv()])
    return (
        f"services:\n  vllm:\n    image: vllm/vllm-openai:v{g.pick(VERSIONS)}\n    command: {argv}\n"
        f"    environment:\n      {g.pick(ENV)[0]}: \"1\"\n    ports:\n      - \"8000:8000\"\n"
        "  redis:\n    image: redis:7\n    ports:\n      - \"6379:6379\"\n"
    )


def actions_launch(g: Gen) -> str:
    args = " ".join(g.argv())
    return (
        f"name: serve-smoke-{g.ident()}\non: [push, pull_request]\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n        with:\n          python-version: \"3.12\"\n"
        f"      - run: pip install vllm=={g.pick(VERSIONS)}\n      - name: serve\n        run: |\n"
        f"          vllm serve {g.pick(MODELS)} {args} &\n          sleep 60\n          curl -f localhost:8000/health\n"
    )


def skypilot_launch(g: Gen) -> str:
    args = " \\\n    ".join(_pairs(g.argv()))
    return (
        f"name: {g.ident()}\nresources:\n  accelerators: L4:1\n  ports: 8000\nenvs:\n  MODEL_NAME: {g.pick(MODELS)}\n"
        f"setup: |\n  pip install vllm=={g.pick(VERSIONS)}\nrun: |\n  vllm serve $MODEL_NAME \\\n    {args}\n"
    )


def dockerfile_launch(g: Gen) -> str:
    argv = ", ".join(f'"{a}"' for a in [g.pick(MODELS), *g.argv()])
    return (
        f"FROM vllm/vllm-openai:v{g.pick(VERSIONS)}\n" + g.comment_block("#", g.r.randint(1, 10))
        + f"ENV {g.pick(ENV)[0]}=1\nRUN pip install --no-cache-dir boto3\nWORKDIR /app\nCOPY . /app\n"
        f"CMD [{argv}]\n"
    )


def python_launch(g: Gen) -> str:
    if g.r.random() < 0.5:
        kwargs = "".join(f"    {n.lstrip('-').replace('-', '_')}={v if v and v.replace('.', '').isdigit() else repr(v or True)},\n" for n, v in g.options())
        body = f"from vllm import LLM, SamplingParams\n\nllm = LLM(\n    model={g.pick(MODELS)!r},\n{kwargs})\n" \
               "print(llm.generate([\"Hello\"], SamplingParams(max_tokens=16)))\n"
    else:
        body = f"import subprocess\n\ncmd = {['vllm', 'serve', g.pick(MODELS), *g.argv()]!r}\nsubprocess.run(cmd, check=True)\n"
    return f'"""{g.sentence()}"""\n' + body + _python_filler(g, g.r.randint(1, 6))


def markdown_launch(g: Gen) -> str:
    args = " \\\n  ".join(_pairs(g.argv()))
    return (
        f"# Serving {g.pick(MODELS)}\n\n" + "\n".join(g.sentence() for _ in range(g.r.randint(3, 12)))
        + f"\n\n```bash\npip install vllm=={g.pick(VERSIONS)}\nvllm serve {g.pick(MODELS)} \\\n  {args}\n```\n\n"
        + "\n".join(g.sentence() for _ in range(g.r.randint(3, 30))) + "\n"
    )


def vllm_config(g: Gen) -> str:
    lines = []
    for name, value in g.options():
        if name in ("--port",):
            continue
        lines.append(f"{name.lstrip('-')}: {value if value is not None else 'true'}")
    return "# vLLM options\n" + "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# ordinary files


def _python_filler(g: Gen, n: int) -> str:
    out = []
    for _ in range(n):
        fn = g.ident()
        out.append(f"\n\ndef {fn}(request, limit={g.r.randint(1, 100)}):\n    \"\"\"{g.sentence()}\"\"\"\n"
                   f"    result = []\n    for item in request.{g.ident()}:\n        if item.{g.pick(WORDS)} > limit:\n"
                   f"            result.append(item.{g.ident()}())\n    return result\n")
    return "".join(out)


def py_file(g: Gen, size: int) -> str:
    head = f'"""{g.sentence()}"""\n\nimport os\nimport json\nfrom dataclasses import dataclass\n'
    return head + _python_body(g, size - len(head))


def _python_body(g: Gen, size: int) -> str:
    """Functions of about ``size`` characters (at least one)."""
    parts = []
    total = 0
    while total < size:
        chunk = _python_filler(g, 1)
        parts.append(chunk)
        total += len(chunk)
    return "".join(parts)


def go_file(g: Gen, size: int) -> str:
    parts, total = [f"package {g.pick(WORDS)}\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n"], 0
    while total < size:
        s = (f"\n// {g.sentence()}\nfunc {g.pick(WORDS).capitalize()}{g.pick(WORDS).capitalize()}(w http.ResponseWriter, r *http.Request) {{\n"
             f"\tv := r.URL.Query().Get(\"{g.pick(WORDS)}\")\n\tif v == \"\" {{\n\t\thttp.Error(w, \"missing\", 400)\n\t\treturn\n\t}}\n"
             f"\tfmt.Fprintf(w, \"%s {g.pick(WORDS)}\", v)\n}}\n")
        parts.append(s)
        total += len(s)
    return "".join(parts)


def ts_file(g: Gen, size: int) -> str:
    parts, total = [f"import {{ {g.pick(WORDS)} }} from './{g.pick(WORDS)}';\n"], 0
    while total < size:
        s = (f"\n/** {g.sentence()} */\nexport function {g.pick(WORDS)}{g.pick(WORDS).capitalize()}(input: string[]): number {{\n"
             f"  return input.filter((x) => x.length > {g.r.randint(1, 9)}).map((x) => x.trim()).length;\n}}\n")
        parts.append(s)
        total += len(s)
    return "".join(parts)


def java_file(g: Gen, size: int) -> str:
    cls = g.pick(WORDS).capitalize() + g.pick(WORDS).capitalize()
    parts, total = [f"package com.example.{g.pick(WORDS)};\n\npublic class {cls} {{\n"], 0
    while total < size:
        s = f"    /** {g.sentence()} */\n    public int {g.pick(WORDS)}{g.r.randint(0, 999)}(int x) {{ return x * {g.r.randint(2, 9)}; }}\n"
        parts.append(s)
        total += len(s)
    return "".join(parts) + "}\n"


def json_file(g: Gen, size: int) -> str:
    parts, total = ["{\n"], 0
    i = 0
    while total < size:
        s = f'  "{g.pick(WORDS)}_{i}": {{"id": {g.r.randint(0, 10**6)}, "name": "{g.pick(WORDS)}", "tags": ["{g.pick(WORDS)}", "{g.pick(WORDS)}"]}},\n'
        parts.append(s)
        total += len(s)
        i += 1
    return "".join(parts) + '  "end": true\n}\n'


def yaml_file(g: Gen, size: int) -> str:
    """A manifest or CI file of another service (no vLLM)."""
    name = g.ident().replace("_", "-")
    parts = [f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  template:\n    spec:\n      containers:\n"]
    total = len(parts[0])
    while total < size:
        s = (f"        - name: {g.pick(WORDS)}-{g.r.randint(0, 99)}\n          image: ghcr.io/example/{g.pick(WORDS)}:{g.r.randint(1, 9)}.{g.r.randint(0, 20)}\n"
             f"          args: [\"--{g.pick(WORDS)}\", \"{g.r.randint(0, 999)}\", \"--{g.pick(WORDS)}-{g.pick(WORDS)}\"]\n"
             f"          env:\n            - name: {g.pick(WORDS).upper()}_{g.pick(WORDS).upper()}\n              value: \"{g.pick(WORDS)}\"\n")
        parts.append(s)
        total += len(s)
    return "".join(parts)


def md_file(g: Gen, size: int) -> str:
    parts, total = [f"# {g.pick(WORDS).capitalize()}\n\n"], 0
    while total < size:
        s = "\n".join(g.sentence() for _ in range(5)) + f"\n\n```sh\nmake {g.pick(WORDS)}\n```\n\n"
        parts.append(s)
        total += len(s)
    return "".join(parts)


def sh_file(g: Gen, size: int) -> str:
    parts, total = ["#!/bin/sh\nset -e\n"], 0
    while total < size:
        s = f"# {g.sentence()}\n{g.pick(WORDS)}_dir=\"${{ROOT:-.}}/{g.pick(WORDS)}\"\nmkdir -p \"${g.pick(WORDS)}_dir\"\ncp -r src/{g.pick(WORDS)} \"${g.pick(WORDS)}_dir\"\n"
        parts.append(s)
        total += len(s)
    return "".join(parts)


def dockerfile_plain(g: Gen, size: int) -> str:
    return f"FROM python:3.12-slim\nWORKDIR /app\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\nCOPY . .\nCMD [\"python\", \"-m\", \"{g.pick(WORDS)}\"]\n"


def txt_file(g: Gen, size: int) -> str:
    parts, total = [], 0
    while total < size:
        s = g.sentence() + "\n"
        parts.append(s)
        total += len(s)
    return "".join(parts)


def mention(g: Gen) -> tuple[str, str]:
    """A file that mentions vLLM without launching it."""
    k = g.r.randrange(3)
    if k == 0:
        return ".md", f"# Notes\n\nWe evaluated vLLM and {g.pick(WORDS)}.\n" + "\n".join(g.sentence() for _ in range(20)) + "\n"
    if k == 1:
        return ".py", "from vllm.sampling_params import SamplingParams\n\n" + _python_filler(g, 4)
    return ".yaml", f"# client of the vllm service\nendpoint: http://vllm.{g.pick(WORDS)}.svc:8000/v1\ntimeout: 30\n"


ORDINARY = [  # (extension, maker, weight)
    (".py", py_file, 30), (".go", go_file, 12), (".ts", ts_file, 12), (".java", java_file, 8), (".json", json_file, 8),
    (".yaml", yaml_file, 12), (".md", md_file, 8), (".sh", sh_file, 3), ("Dockerfile", dockerfile_plain, 1), (".txt", txt_file, 6),
]


def _size(g: Gen) -> int:
    # log-normal-ish around 4.5 KB, capped; big files come separately
    return max(200, min(60_000, int(g.r.lognormvariate(7.95, 0.7))))


def build(root: str | os.PathLike, n_files: int, seed: int = 0, use_corpus: bool = True) -> dict:
    """Write the tree; return counts by category."""
    root = Path(root)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    g = Gen(seed)
    files: list[tuple[Path, str | bytes]] = []
    n_launch = max(12, n_files * 500 // 20_000)
    n_mention = n_files // 200
    n_big = max(2, n_files // 1000)
    counts = {"launch": 0, "mention": 0, "big": 0, "ordinary": 0}

    corpus = sorted(p for p in CORPUS.rglob("*") if p.is_file()) if use_corpus and CORPUS.is_dir() else []
    # launch files: round-robin over the forms
    forms = ["shell", "k8s", "helm", "compose", "actions", "skypilot", "dockerfile", "python", "markdown", "config", "corpus"]
    if not corpus:
        forms.remove("corpus")
    made, i = 0, 0
    while made < n_launch:
        form = forms[i % len(forms)]
        svc = root / "services" / f"svc{i % 97:02d}" / f"model{i}"
        if form == "shell":
            files.append((svc / "serve.sh", shell_launch(g)))
        elif form == "k8s":
            files.append((root / "deploy" / "k8s" / f"cluster{i % 13}" / f"vllm-{i}.yaml", k8s_launch(g)))
        elif form == "helm":
            files.extend(helm_chart(g, root / "charts" / f"vllm-chart-{i}"))
            made += 1  # values + template
        elif form == "compose":
            files.append((svc / "docker-compose.yaml", compose_launch(g)))
        elif form == "actions":
            files.append((root / ".github" / "workflows" / f"serve-{i}.yml", actions_launch(g)))
        elif form == "skypilot":
            files.append((root / "sky" / f"task-{i}.yaml", skypilot_launch(g)))
        elif form == "dockerfile":
            files.append((svc / "Dockerfile", dockerfile_launch(g)))
        elif form == "python":
            files.append((svc / "launch.py", python_launch(g)))
        elif form == "markdown":
            files.append((root / "docs" / "serving" / f"model-{i}.md", markdown_launch(g)))
        elif form == "config":
            files.append((svc / "serve-config.yaml", vllm_config(g)))
            files.append((svc / "serve-with-config.sh", shell_launch(g, config="serve-config.yaml")))
            made += 1
        else:  # a real file from the corpus, under a folder that keeps its repository's name
            src = corpus[(i // len(forms)) % len(corpus)]
            rel = src.relative_to(CORPUS)
            dest = root / "third_party" / f"c{i}" / rel
            if src.suffix == ".tpl" or "templates__" in src.name:
                dest = root / "third_party" / f"c{i}" / "templates" / src.name
            files.append((dest, src.read_bytes()))
        made += 1
        i += 1
    counts["launch"] = made

    for j in range(n_mention):
        ext, text = mention(g)
        files.append((root / "misc" / f"m{j % 50}" / f"note{j}{ext}", text))
    counts["mention"] = n_mention

    big_makers = [(".yaml", yaml_file), (".json", json_file), (".py", py_file), (".go", go_file), (".md", md_file)]
    for j in range(n_big):
        ext, maker = big_makers[j % len(big_makers)]
        files.append((root / "data" / f"big{j}{ext}", maker(g, g.r.randint(1_000_000, 2_500_000))))
    counts["big"] = n_big

    weights = [w for _e, _m, w in ORDINARY]
    rest = n_files - len(files)
    for j in range(max(0, rest)):
        ext, maker, _w = g.r.choices(ORDINARY, weights)[0]
        top = g.pick(["libs", "apps", "services", "tools", "infra", "web"])
        folder = root / top / f"pkg{g.r.randrange(max(1, n_files // 250))}" / g.pick(["src", "lib", "internal", "config", "docs", "deploy"])
        name = "Dockerfile" if ext == "Dockerfile" else f"{g.pick(WORDS)}_{j}{ext}"
        files.append((folder / name, maker(g, _size(g))))
    counts["ordinary"] = max(0, rest)

    total = 0
    for path, content in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode() if isinstance(content, str) else content
        path.write_bytes(data)
        total += len(data)
    (root / ".gitignore").write_text("*.pyc\n/build/\n")
    counts["files"] = len(files) + 1
    counts["bytes"] = total
    return counts


# ---------------------------------------------------------------------------
# a large platform repository (the shape of KServe, llm-d and the like)


def crd(g: Gen, depth: int, width: int) -> str:
    """One CustomResourceDefinition document: an openAPIV3Schema of nested properties (no launch)."""
    kind = g.pick(WORDS).capitalize() + g.pick(WORDS).capitalize()
    out = [f"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n"
           f"    controller-gen.kubebuilder.io/version: v0.16.{g.r.randint(0, 5)}\n  name: {kind.lower()}s.serving.example.io\n"
           f"spec:\n  group: serving.example.io\n  names:\n    kind: {kind}\n    plural: {kind.lower()}s\n  scope: Namespaced\n"
           "  versions:\n  - name: v1beta1\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n"]

    def props(level: int, pad: str) -> None:
        for _ in range(width if level < depth else 2):
            name = g.pick(WORDS) + g.pick(WORDS).capitalize()
            desc = g.sentence()
            if level < depth and g.r.random() < 0.55:
                out.append(f"{pad}{name}:\n{pad}  description: |-\n{pad}    {desc}\n{pad}    {g.sentence()}\n"
                           f"{pad}  type: object\n{pad}  properties:\n")
                props(level + 1, pad + "    ")
                out.append(f"{pad}  required:\n{pad}  - {g.pick(WORDS)}\n")
            elif g.r.random() < 0.3:
                out.append(f"{pad}{name}:\n{pad}  description: {desc}\n{pad}  items:\n{pad}    type: string\n{pad}  type: array\n"
                           f"{pad}  x-kubernetes-list-type: atomic\n")
            else:
                t = g.pick(["string", "integer", "boolean"])
                fmt = f"{pad}  format: int32\n" if t == "integer" else ""
                out.append(f"{pad}{name}:\n{pad}  description: {desc}\n{fmt}{pad}  type: {t}\n")

    props(0, "          ")
    out.append("    served: true\n    storage: true\n    subresources:\n      status: {}\n")
    return "".join(out)


def _platform_launch_document(g: Gen, style: int) -> str:
    """The one launch of an install manifest: a Deployment running vLLM, or a runtime that names
    vLLM only through its image (KServe's ServingRuntime)."""
    name = g.ident().replace("_", "-")
    if style % 2 == 0:
        return (
            f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}-vllm\n  namespace: serving\nspec:\n  template:\n"
            f"    spec:\n      containers:\n      - name: server\n        image: vllm/vllm-openai:v{g.pick(VERSIONS)}\n"
            "        command: [\"vllm\", \"serve\"]\n        args:\n" + _yaml_list([g.pick(MODELS), *g.argv()], 8)
        )
    return (
        f"apiVersion: serving.kserve.io/v1alpha1\nkind: ClusterServingRuntime\nmetadata:\n  name: {name}-runtime\nspec:\n"
        "  supportedModelFormats:\n  - name: huggingface\n    version: \"1\"\n    autoSelect: true\n  containers:\n"
        f"  - name: kserve-container\n    image: vllm/vllm-openai:v{g.pick(VERSIONS)}\n    command: [\"python\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n"
        "    args:\n" + _yaml_list([f"--model={g.pick(MODELS)}", *g.argv()], 4)
    )


def install_manifest(g: Gen, size: int, style: int) -> str:
    """A multi-megabyte install manifest: CRD schemas (almost all the bytes), RBAC and services,
    and one vLLM launch among them."""
    docs: list[str] = []
    total = 0
    launch_at = g.r.randint(3, 8)
    while total < size:
        if len(docs) == launch_at:
            d = _platform_launch_document(g, style)
        elif g.r.random() < 0.7:
            d = crd(g, depth=g.r.randint(3, 4), width=g.r.randint(4, 7))
        else:
            n = g.ident().replace("_", "-")
            d = (f"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {n}\nrules:\n"
                 f"- apiGroups:\n  - serving.example.io\n  resources:\n  - {g.pick(WORDS)}s\n  verbs:\n  - get\n  - list\n  - watch\n")
        docs.append(d)
        total += len(d) + 4
    if len(docs) <= launch_at:
        docs.insert(len(docs) // 2, _platform_launch_document(g, style))
    return "---\n".join(docs)


def install_script(g: Gen, manifest: str) -> str:
    """An install script that embeds a manifest in a heredoc (a few non-ASCII characters) and
    serves a model with vLLM once."""
    return (
        "#!/usr/bin/env bash\nset -eo pipefail\n# Installs the platform \u2014 CRDs, controller and runtimes \u2713\n"
        f'echo "Installing \u2026"\ncat <<EOF | kubectl apply -f -\n{manifest}EOF\n'
        f"vllm serve {g.pick(MODELS)} " + " ".join(g.argv()) + " &\n"
        "echo \"\U0001F680 done\"\n"
    )


def big_python_module(g: Gen, size: int, launch: bool) -> str:
    """A 100+ KB module (valid Python) that mentions vLLM once: in a docstring, or in the argv
    list a function launches it with (some of them)."""
    head = '"""Runtime adapters for the serving controller."""\n\nimport os\nimport json\nfrom dataclasses import dataclass\n'
    first, mid, second = _python_body(g, size // 2), _python_filler(g, 40), _python_body(g, size // 2)
    if launch:
        call = f"\n\ndef start_server():\n    import subprocess\n    return subprocess.Popen({['vllm', 'serve', g.pick(MODELS), *g.argv()]!r})\n"
    else:
        call = "\n\ndef backend_name():\n    \"\"\"The name the vllm backend registers under.\"\"\"\n    return 'default'\n"
    return head + first + call + mid + second


PLATFORM = {"manifests": 3, "manifest_mb": 3.5, "scripts": 2, "big_python": 40, "small": 4000}


def build_platform(root: str | os.PathLike, seed: int = 1, scale: float = 1.0) -> dict:
    """A tree shaped like a large platform repository: multi-megabyte multi-document install
    manifests with one vLLM launch each among CRD schemas, install scripts that embed them,
    100+ KB Python modules mentioning vLLM once, ordinary launch files, and thousands of small
    files.  Deterministic for ``(seed, scale)``."""
    root = Path(root)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    g = Gen(seed)
    files: list[tuple[Path, str]] = []
    manifests = []
    for j in range(PLATFORM["manifests"]):
        m = install_manifest(g, int(PLATFORM["manifest_mb"] * 1e6 * scale), j)
        manifests.append(m)
        files.append((root / "install" / f"v0.{14 + j}.0" / "kserve.yaml", m))
    for j in range(PLATFORM["scripts"]):
        files.append((root / "hack" / f"quick_install_{j}.sh", install_script(g, manifests[j % len(manifests)][: int(2.4e6 * scale)] + "\n")))
    for j in range(int(PLATFORM["big_python"] * scale) or 1):
        files.append((root / "python" / f"pkg{j % 6}" / f"adapter_{j}.py", big_python_module(g, g.r.randint(100_000, 160_000), launch=j % 8 == 0)))
    # the launch files a repository of examples holds
    makers = [("serve.sh", lambda: shell_launch(g)), ("vllm.yaml", lambda: k8s_launch(g)), ("docker-compose.yaml", lambda: compose_launch(g)),
              ("Dockerfile", lambda: dockerfile_launch(g)), ("README.md", lambda: markdown_launch(g)), ("launch.py", lambda: python_launch(g))]
    for j in range(int(60 * scale) or 1):
        name, maker = makers[j % len(makers)]
        files.append((root / "docs" / "samples" / f"s{j}" / name, maker()))
    weights = [w for _e, _m, w in ORDINARY]
    n_small = int(PLATFORM["small"] * scale)
    for j in range(n_small):
        ext, maker, _w = g.r.choices(ORDINARY, weights)[0]
        folder = root / g.pick(["pkg", "cmd", "test", "config", "python", "docs"]) / f"d{g.r.randrange(max(1, n_small // 40))}"
        name = "Dockerfile" if ext == "Dockerfile" else f"{g.pick(WORDS)}_{j}{ext}"
        files.append((folder / name, maker(g, min(_size(g), 8000))))
    total = 0
    for path, content in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode()
        path.write_bytes(data)
        total += len(data)
    return {"files": len(files), "bytes": total, "launch": PLATFORM["manifests"] + PLATFORM["scripts"] + int(60 * scale) + int(PLATFORM["big_python"] * scale) // 8}


def shell_command(size: int = 4_200_000) -> str:
    """One ``vllm serve`` command of ``size`` bytes (line-continued words: a generated launcher)."""
    g = Gen(7)
    parts = [f"#!/bin/sh\nexec vllm serve {g.pick(MODELS)} \\\n"]
    total = len(parts[0])
    i = 0
    while total < size:
        s = f"  --served-model-name alias-{i}-{g.pick(WORDS)} \\\n" if i % 3 else f"  --max-model-len {g.r.randint(1, 9) * 4096} \\\n"
        parts.append(s)
        total += len(s)
        i += 1
    parts.append("  --port 8000\n")
    return "".join(parts)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "platform":
        print(build_platform(sys.argv[2]))
    else:
        out = build(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20_000)
        print(out)
