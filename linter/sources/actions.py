"""Scripts in CI and task YAML: GitHub Actions ``run:`` steps and SkyPilot ``run:``/``setup:``.

Each script scalar goes to the shell extractor with the scalar's offset map.
GitHub expressions ``${{ ... }}`` are replaced, before the shell sees them, by
a shell variable of the same length (``$___...``) so the shell parser treats
them as unknown values and every offset stays true; the original text is put
back into the tokens afterwards.  Folded (``>``) scripts are extracted with
approximate positions and their launches marked not editable.
"""

from __future__ import annotations

import re

from linter import placeholders
from linter.launch import EnvVar, Launch, Token
from linter.lazy_re import lazy_re
from linter.source_file import SourceFile
from linter.sources import Extraction, embedded_shell, kubernetes
from linter.sources.words import kept_env
from linter.sources.yaml_nodes import MappingNode, Node, ScalarNode, SequenceNode, compose_documents, get, items
from linter.sources.yaml_scalars import approximate, fold_spans, scalar_offsets, scalar_token

_EXPR = lazy_re(r"\$\{\{.*?\}\}", re.S)


def mask_expressions(script: str) -> tuple[str, list[tuple[int, int]]]:
    """Replace each ``${{ ... }}`` by ``$___`` of the same length; return the ranges."""
    ranges = [(m.start(), m.end()) for m in _EXPR.finditer(script)]
    return placeholders.stand_in(script, ranges), ranges


def script_launches(src: SourceFile, node: ScalarNode, *, kind: str, group: str) -> Extraction:
    omap = scalar_offsets(src, node)
    script, masked = mask_expressions(node.value)
    editable = not approximate(src, node) and not (node.style == '"' and "\\" in src.text[node.start_mark.index : node.end_mark.index])
    out = embedded_shell.extract(src, script, omap, kind=kind, group=group, editable=editable)
    exprs = [(omap.nearest(a), node.value[a:b]) for a, b in masked]
    for launch in out.launches:
        launch.folds = fold_spans([node])
        if masked:
            launch.entry = [placeholders.restore(src, t, exprs) for t in launch.entry]
            launch.args = [placeholders.restore(src, t, exprs) for t in launch.args]
        if not editable:
            launch.editable = False
            launch.notes.append("script in a folded or escaped scalar: positions approximate, not editable")
    return out


def _env_map(src: SourceFile, node: Node | None) -> list[EnvVar]:
    out = []
    for k, v in (node.value if isinstance(node, MappingNode) else []):
        if isinstance(k, ScalarNode) and kept_env(k.value):
            out.append(EnvVar(scalar_token(src, k), scalar_token(src, v) if isinstance(v, ScalarNode) else None))
    return out


def _attach_env(launches: list[Launch], env: list[EnvVar]) -> None:
    for launch in launches:
        names = {e.name.value for e in launch.env}
        launch.env.extend(e for e in env if e.name.value not in names)


def actions_document(src: SourceFile, doc: Node) -> Extraction:
    """GitHub workflow (``jobs.*.steps``) or composite action (``runs.steps``)."""
    out = Extraction()
    step_lists: list[tuple[str, Node | None, list[EnvVar]]] = []
    top_env = _env_map(src, get(doc, "env"))
    for job_name, job in items(get(doc, "jobs")):
        step_lists.append((f"job/{job_name}", get(job, "steps"), top_env + _env_map(src, get(job, "env"))))
    runs = get(doc, "runs")
    if runs is not None:
        step_lists.append(("action", get(runs, "steps"), top_env))
    for group, steps, env in step_lists:
        if not isinstance(steps, SequenceNode):
            continue
        for step in steps.value:
            run = get(step, "run")
            if isinstance(run, ScalarNode):
                sub = script_launches(src, run, kind="actions", group=group)
                _attach_env(sub.launches, env + _env_map(src, get(step, "env")))
                out.extend(sub)
    return out


def skypilot_document(src: SourceFile, doc: Node) -> Extraction:
    out = Extraction()
    env = _env_map(src, get(doc, "envs"))
    # ``resources.image_id: docker:vllm/vllm-openai:v0.11.0``: the task's scripts run in that
    # container, so a vLLM image's release tag pins them
    image, hint = kubernetes.image_hint(src, get(get(doc, "resources"), "image_id"), scheme="docker:")
    for key in ("setup", "run"):
        node = get(doc, key)
        if isinstance(node, ScalarNode):
            sub = script_launches(src, node, kind="skypilot", group="task")
            _attach_env(sub.launches, env)
            for launch in sub.launches:
                launch.image = launch.image or image
                launch.version_hint = launch.version_hint or hint
            out.extend(sub)
    # SkyPilot services may also define a readiness probe etc.; only scripts start vLLM
    return out


def extract(src: SourceFile) -> Extraction:
    docs, problems = compose_documents(src.text, src.path)
    out = Extraction(problems=list(problems))
    for doc in docs:
        if get(doc, "jobs") is not None or get(doc, "runs") is not None:
            out.extend(actions_document(src, doc))
        else:
            out.extend(skypilot_document(src, doc))
    return out
