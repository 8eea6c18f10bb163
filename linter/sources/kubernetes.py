"""Kubernetes objects: every container of every pod template, wherever it sits.

Deployments, StatefulSets, Jobs, CronJobs, LeaderWorkerSets (leader and
worker templates), KServe runtimes and services, KubeRay clusters and any
operator resource carry pod specs at different paths; a mapping with a
``containers`` or ``initContainers`` list of mappings is treated as one, so
all of them are found without a table of kinds.  Workflow engines' containers
are read the same way: an Argo Workflows template's ``container`` and
``sidecars``, a Tekton task's ``steps`` (each a mapping that names an image).

A container's ``command`` + ``args`` is one argv.  ``args`` alone on a vLLM
image is the image entrypoint's argv, and so are they (a weak candidate) on an
image a chart's template makes of vLLM's values alone
(``{{ .Values.vllm.image.repository }}:{{ .Values.vllm.image.tag }}``).
``sh -c SCRIPT`` goes to the shell extractor with the script's offset map.
``$(VAR)`` is Kubernetes' own expansion and stays opaque.
"""

from __future__ import annotations

import re

from linter.launch import EnvVar, Launch, Span, Token, VersionHint
from linter.lazy_re import lazy_re
from linter.source_file import SourceFile
from linter.sources import Extraction, commands, embedded_shell, kserve
from linter.sources.commands import likely_vllm_image
from linter.sources.words import is_shell, kept_env, shell_script_index, split_words
from linter.sources.yaml_nodes import MappingNode, Node, ScalarNode, SequenceNode, compose_documents, get, pairs, text_of
from linter.sources.yaml_scalars import approximate, fold_spans, scalar_offsets, scalar_token

_K8S_VAR = lazy_re(r"(?<!\$)\$\(([A-Za-z_][A-Za-z0-9_]*)\)")
POD_LIST_KEYS = ("initContainers", "containers")
# the containers of other workloads, each a mapping with an ``image``: Argo Workflows' template
# ``container`` (one) and ``sidecars``, Tekton's task ``steps``
OTHER_LIST_KEYS = ("sidecars", "steps")
# and an Argo script template (``script``: a container whose ``source`` its ``command`` runs)
ONE_CONTAINER_KEYS = ("container", "script")
_CONTAINER_KEYS = frozenset((*POD_LIST_KEYS, *OTHER_LIST_KEYS, *ONE_CONTAINER_KEYS, "<<"))


def containers(spec: MappingNode) -> list[MappingNode]:
    """The container mappings ``spec`` holds, in the document's order: its ``containers`` and
    ``initContainers``, and the containers of other workloads (:data:`OTHER_LIST_KEYS`,
    :data:`ONE_CONTAINER_KEYS`) that name an image."""
    out: list[MappingNode] = []
    for key in POD_LIST_KEYS:
        lst = get(spec, key)
        if isinstance(lst, SequenceNode):
            out.extend(c for c in lst.value if isinstance(c, MappingNode))
    for key in OTHER_LIST_KEYS:
        lst = get(spec, key)
        if isinstance(lst, SequenceNode):
            out.extend(c for c in lst.value if isinstance(c, MappingNode) and get(c, "image") is not None)
    for key in ONE_CONTAINER_KEYS:
        one = get(spec, key)
        if isinstance(one, MappingNode) and get(one, "image") is not None:
            out.append(one)
    out.sort(key=lambda c: c.start_mark.index)  # in the document's order
    return out


def k8s_opaque(tok: Token) -> Token:
    """Mark ``$(VAR)`` references (Kubernetes dependent-variable expansion) as opaque."""
    ranges = tuple((m.start(), m.end()) for m in _K8S_VAR.finditer(tok.value))
    if not ranges:
        return tok
    return Token(tok.value, tok.span, tok.value_start, tok.opaque + ranges, tok.splat)


# Kubeflow Pipelines (v1) component placeholders, items of a component's ``command``/``args``
# that the pipeline replaces by one word (``{inputValue: model}``, ``{concat: [...]}``) or by
# any number of words (``{if: {cond: ..., then: [...]}}``)
_KFP_ONE_WORD = frozenset({"inputValue", "inputPath", "outputPath", "inputUri", "outputUri",
                           "inputMetadata", "outputMetadata", "executorInput", "concat"})
_KFP_WORDS = frozenset({"if", "isPresent"})


def _placeholder_token(src: SourceFile, item: MappingNode) -> Token | None:
    """A Kubeflow component placeholder item as one unknown word (``splat`` when it may give
    several, or none), else None."""
    if len(item.value) != 1 or not isinstance(item.value[0][0], ScalarNode):
        return None
    key = item.value[0][0].value
    if key not in _KFP_ONE_WORD and key not in _KFP_WORDS:
        return None
    start, end = item.start_mark.index, min(item.end_mark.index, len(src.text))
    text = src.text[start:end].rstrip()
    several = key in _KFP_WORDS  # present only when the condition holds: never the model
    return Token(text, Span(start, start + len(text)), None, ((0, len(text)),), splat=several, conditional=several)


def word_tokens(src: SourceFile, node: Node | None, *, placeholders: bool = False) -> tuple[list[Token], list[Node]]:
    """The scalar items of a command/args list (a lone scalar counts as one item).

    ``placeholders``: a container's own list, where a Kubeflow component's placeholder item
    (``- {inputValue: model}``) stands for the word the pipeline puts there: it is kept as an
    unknown word, so that ``--model {inputValue: model}`` still gives ``--model`` a value."""
    if isinstance(node, ScalarNode):
        if node.tag.endswith(":null") or (node.style is None and node.value in ("", "~", "null")):
            return [], []
        return [k8s_opaque(scalar_token(src, node))], [node]
    if not isinstance(node, SequenceNode):
        return [], []
    toks, nodes = [], []
    for item in node.value:
        if isinstance(item, ScalarNode):
            toks.append(k8s_opaque(scalar_token(src, item)))
            nodes.append(item)
        elif placeholders and isinstance(item, MappingNode):
            tok = _placeholder_token(src, item)
            if tok is not None:
                toks.append(tok)
                nodes.append(item)
    return toks, nodes


_ARGS_ENV = lazy_re(r"^(VLLM_)?(ADDITIONAL|EXTRA|SERVE|SERVER|ENGINE|VLLM)_?ARGS$")


def env_args_launches(src: SourceFile, env_node: Node | None, *, kind: str, group: str) -> Extraction:
    """``VLLM_ADDITIONAL_ARGS``-style variables whose value is a string of vLLM flags (llm-d images)."""
    out = Extraction()
    if not isinstance(env_node, SequenceNode):
        return out
    for item in env_node.value:
        name = text_of(get(item, "name"))
        value = get(item, "value")
        if name and _ARGS_ENV.match(name) and isinstance(value, ScalarNode) and value.value.lstrip().startswith("--"):
            words = split_words(src.text, value.value, scalar_offsets(src, value))
            if approximate(src, value):
                words = [Token(w.value, w.span, None, w.opaque, w.splat) for w in words]
            launch = Launch(src.path, kind, Span(item.start_mark.index, item.end_mark.index), entrypoint="vllm serve",
                            args=[k8s_opaque(w) for w in words], group=group, notes=[f"arguments from environment variable {name}"],
                            evidence=f"flags in the environment variable {name}, for the image's own start script", strong=False,
                            folds=fold_spans([value]))
            if approximate(src, value):
                launch.editable = False
                launch.notes.append("folded scalar: positions approximate, not editable")
            out.launches.append(launch)
    return out


# vLLM's own image tags: a release (``v0.30.1``, ``v0.8.5.post1``, ``v0.11.0rc2``) or a moving
# name (``latest``, ``nightly``, ``nightly-<sha>``).  Any other tag on an image named like vLLM's
# (``lmcache/vllm-openai:v0.3.9post2``, ``openeuler/vllm-cpu:0.10.1-oe2403lts``) is somebody
# else's release numbering and pins no vLLM release.
_RELEASE_TAG = lazy_re(r"^v?\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?$|^(?:latest|nightly)(?:-[0-9a-f]+)?$")
_COMPOSE_DEFAULT = lazy_re(r"^\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^}]*)\}$")


def pins_vllm(ref: str) -> bool:
    """True when the image reference's tag is a vLLM release (or ``latest``) of a vLLM image."""
    if not commands.is_vllm_image(ref) or "lmcache" in commands.parse_image(ref).repository.lower().split("/")[-2:-1]:
        return False  # ``lmcache/vllm-openai``: tagged by LMCache's releases
    tag = commands.parse_image(ref).tag
    return tag is not None and bool(_RELEASE_TAG.match(tag))


def image_hint(src: SourceFile, image_node: Node | None, scheme: str = "") -> tuple[Token | None, VersionHint | None]:
    """The image token and, for a vLLM image whose tag is a vLLM release, the tag as a version hint.

    ``${IMAGE:-vllm/vllm-openai:v0.30.0}`` (compose, envsubst) is read as its default; ``scheme``
    is a prefix the field's format puts before the reference (SkyPilot's ``docker:``)."""
    if not isinstance(image_node, ScalarNode) or not image_node.value:
        return None, None
    tok = scalar_token(src, image_node)
    ref_text, base = tok.value, 0
    if scheme:
        if not ref_text.startswith(scheme):
            return None, None  # a VM image (``projects/deeplearning-platform/...``): no container
        ref_text, base = ref_text[len(scheme):], len(scheme)
    m = _COMPOSE_DEFAULT.match(ref_text)
    if m:
        ref_text, base = m.group(1), base + m.start(1)
    if not pins_vllm(ref_text):
        return tok, None
    ref = commands.parse_image(ref_text)
    if ref.tag is None or ref.tag_offset is None:
        return tok, None
    if tok.value_start is not None:
        start = tok.value_start + base + ref.tag_offset
        return tok, VersionHint(ref.tag, Span(start, start + len(ref.tag)), "image-tag", "$" not in ref.tag and "{" not in ref.tag)
    return tok, VersionHint(ref.tag, tok.span, "image-tag", False)


def shared_env(var: EnvVar) -> EnvVar:
    """A variable a merge key gives (``<<: *common_env``): written once for every service that
    merges it, so it is reported where it is written but never edited for one of them."""
    def fixed(tok: Token | None) -> Token | None:
        return None if tok is None else Token(tok.value, tok.span, None, tok.opaque, tok.splat)

    return EnvVar(fixed(var.name), fixed(var.value))  # type: ignore[arg-type]


def env_vars(src: SourceFile, env_node: Node | None) -> list[EnvVar]:
    """``VLLM_*`` entries of a container ``env`` list (``valueFrom`` gives a value of None)."""
    out: list[EnvVar] = []
    if isinstance(env_node, SequenceNode):
        for item in env_node.value:
            if isinstance(item, ScalarNode):  # ``- VLLM_X=1`` (dstack, compose-style lists); ``- HF_TOKEN`` passes one through
                eq = item.value.find("=")
                if eq > 0 and kept_env(item.value[:eq]):
                    tok = scalar_token(src, item)
                    out.append(EnvVar(commands.sub_token(tok, 0, eq), commands.sub_token(tok, eq + 1, len(tok.value))))
                continue
            name = get(item, "name")
            if isinstance(name, ScalarNode) and kept_env(name.value):
                value = get(item, "value")
                out.append(EnvVar(scalar_token(src, name), scalar_token(src, value) if isinstance(value, ScalarNode) else None))
    elif isinstance(env_node, MappingNode):  # compose-style maps in operator resources, merge keys included
        own = {id(k) for k, _v in env_node.value}
        for k, v in pairs(env_node):
            if kept_env(k.value):
                var = EnvVar(scalar_token(src, k), scalar_token(src, v) if isinstance(v, ScalarNode) else None)
                out.append(var if id(k) in own else shared_env(var))
    return out


def _is_all_args(tok: Token) -> bool:
    """``"$@"`` (or ``"${@}"``) standing alone: the script's positional parameters, one word each."""
    return tok.value in ("$@", "${@}") and tok.splat


def _launch_from_match(src: SourceFile, m: commands.Match, *, kind: str, span: Span, group: str) -> Launch:
    env = [EnvVar(n, v) for n, v in m.env if kept_env(n.value)]
    launch = Launch(
        path=src.path, kind=kind, span=span, program=m.program, entrypoint=m.entrypoint,
        entry=list(m.entry), args=list(m.args), env=env, image=m.image, group=group,
    )
    if any(t.value_start is None for t in [*m.entry, *m.args]):
        launch.notes.append("some tokens are not editable (escapes or folded text)")
    launch.evidence, launch.strong = evidence_of(m.entrypoint, m.entry, m.image)
    return launch


def image_repository(ref: str) -> str:
    """The repository part of an image reference whose tag is templated or interpolated
    (``vllm/vllm-openai:${TAG:-latest}``, ``${IMAGE:-vllm/vllm-openai:v0.30.0}``)."""
    m = _COMPOSE_DEFAULT.match(ref)
    if m:
        ref = m.group(1)
    for mark in (":$", ":{{", ":x"):  # interpolated, templated, or masked (``xxxx``) tags
        k = ref.find(mark)
        if k != -1 and (mark != ":x" or set(ref[k + 1 :]) == {"x"}):
            return ref[:k]
    return ref


def evidence_of(entrypoint: str, entry: list[Token], image: Token | None) -> tuple[str, bool]:
    """Why words start vLLM, and whether that is strong: a vLLM command word or entrypoint
    module is; arguments handed to an image's entrypoint are when the image is vLLM's own,
    and weak when only its name says vLLM (the entrypoint is assumed) or no image is given."""
    if entrypoint != "image" and entry:
        return f"`{' '.join(t.value for t in entry)}` command", True
    if image is not None and commands.is_vllm_image(image_repository(image.value)):
        return f"arguments of the vLLM image {image.value}, whose entrypoint takes them", True
    if image is not None:
        return f"arguments of the image {image.value}, whose name says vLLM (its entrypoint is assumed to be vLLM's)", False
    return "arguments that start with --model, with no image given (a patch of a container)", False


def argv_launches(
    src: SourceFile,
    words: list[Token],
    nodes: list[Node],
    *,
    kind: str,
    span: Span,
    group: str,
    image: Token | None = None,
    image_runs_args: bool = False,
) -> Extraction:
    """Launches started by an argv (``sh -c`` scripts go to the shell extractor)."""
    out = Extraction()
    if not words:
        if image_runs_args:
            why, strong = evidence_of("image", [], image)
            out.launches.append(Launch(src.path, kind, span, entrypoint="image", image=image, group=group, evidence=why, strong=strong))
        return out
    k = shell_script_index(words)
    if k is not None:
        script_node = nodes[k]
        omap = scalar_offsets(src, script_node)
        editable = not approximate(src, script_node)
        sub = embedded_shell.extract(src, words[k].value, omap, kind=kind, group=group, editable=editable)
        positional = words[k + 2 :]  # ``sh -c SCRIPT $0 $1 ...``: the script's "$@"
        for launch in sub.launches:
            launch.folds = fold_spans([script_node])
            if not editable:
                launch.editable = False
                launch.notes.append("folded scalar: positions approximate")
            if positional and any(_is_all_args(t) for t in launch.args):
                launch.args = [x for t in launch.args for x in (positional if _is_all_args(t) else [t])]
                launch.notes.append("\"$@\" of the script: the words after it in the list")
        out.extend(sub)
        return out
    k = kserve.runtime_index(words)
    if k is not None:
        out.launches.append(kserve_launch(src, words, k, kind=kind, span=span, group=group, image=image))
        return out
    m = commands.match_words(words)
    repeated = m is not None and image_runs_args and m.program == "vllm" and bool(m.entry) and m.entry[0] is words[0]
    if m is None and image_runs_args:
        m = commands.match_words(words, image_entrypoint=True)
        m.image = image
    if m is not None:
        if m.image is None:
            m.image = image
        launch = _launch_from_match(src, m, kind=kind, span=span, group=group)
        if repeated:
            launch.notes.append(commands.ENTRYPOINT_REPEATED)
        out.launches.append(launch)
    return out


def kserve_launch(src: SourceFile, words: list[Token], k: int, *, kind: str, span: Span, group: str, image: Token | None) -> Launch:
    """``python -m huggingfaceserver ...``: the runtime's own flags stripped, the rest vLLM's
    (with the vLLM backend, which the runtime picks when vLLM supports the model)."""
    args, removed = kserve.strip_runtime_flags(words[k:])
    launch = Launch(src.path, kind, span, entrypoint="api_server", entry=list(words[:k]), args=args, image=image, group=group,
                    evidence="KServe's Hugging Face runtime, whose vLLM backend reads these flags", strong=False)
    if removed:
        launch.notes.append(f"KServe huggingfaceserver's own flags, read before vLLM's: {', '.join(removed)}")
    return launch


def script_node(container: MappingNode, cmd: list[Token]) -> ScalarNode | None:
    """The shell script a container runs instead of its image's entrypoint: a Tekton step's
    ``script`` or an Argo Workflows script template's ``source`` (run by its ``command``), when
    the interpreter is a shell (a ``#!`` line or the command says so; none means a shell)."""
    for key in ("script", "source"):
        node = get(container, key)
        if isinstance(node, ScalarNode) and node.tag.endswith(":str") and node.value.strip():
            break
    else:
        return None
    first = node.value.lstrip().split("\n", 1)[0]
    if first.startswith("#!"):
        words = first[2:].split()
        if words and commands.basename(words[0]) == "env":
            words = words[1:]
        return node if words and is_shell(words[0]) else None
    if cmd and not is_shell(cmd[0].value):
        return None  # ``command: [python]``: a program in another language
    return node


def _script_launches(src: SourceFile, node: ScalarNode, *, kind: str, group: str) -> Extraction:
    omap = scalar_offsets(src, node)
    editable = not approximate(src, node)
    out = embedded_shell.extract(src, node.value, omap, kind=kind, group=group, editable=editable)
    for launch in out.launches:
        launch.folds = fold_spans([node])
        if not editable:
            launch.editable = False
            launch.notes.append("folded scalar: positions approximate")
    return out


def container_launches(src: SourceFile, container: MappingNode, *, kind: str, group: str, ray_node: bool = False) -> Extraction:
    """Launches of one container mapping (``image``, ``command``, ``args``, ``env``).

    ``ray_node``: a KubeRay head or worker group, whose container KubeRay starts with
    ``ray start`` whatever the image's entrypoint is; only its own command can start vLLM.
    """
    command = get(container, "command")
    args = get(container, "args")
    image_tok, hint = image_hint(src, get(container, "image"))
    cmd_words, cmd_nodes = word_tokens(src, command, placeholders=True)
    arg_words, arg_nodes = word_tokens(src, args, placeholders=True)
    runs_image = not cmd_words and not ray_node and image_tok is not None and likely_vllm_image(image_repository(image_tok.value))
    assumed = runs_image and not commands.is_vllm_image(image_tok.value)
    if not cmd_words and image_tok is None and arg_words and arg_words[0].value.startswith("--model"):
        runs_image = assumed = True  # a patch (kustomize) of a vLLM container: image set elsewhere
    span = Span(container.start_mark.index, container.end_mark.index)
    script = script_node(container, cmd_words)
    if script is not None:
        # a Tekton step's ``script`` / an Argo script's ``source`` runs, not the image's entrypoint
        out = _script_launches(src, script, kind=kind, group=group)
    else:
        out = argv_launches(
            src, cmd_words + arg_words, cmd_nodes + arg_nodes, kind=kind, span=span, group=group,
            image=image_tok, image_runs_args=runs_image,
        )
    if not out.launches:
        out.extend(env_args_launches(src, get(container, "env"), kind=kind, group=group))
    if not out.launches:
        out.extend(_model_command(src, container, cmd_words, arg_words, kind=kind, group=group, span=span))
    if not out.launches:
        out.extend(_script_args_candidate(src, container, cmd_words, arg_words, kind=kind, group=group, span=span))
    env = env_vars(src, get(container, "env"))
    for launch in out.launches:
        if launch.image is None:
            launch.image = image_tok
        if launch.version_hint is None and hint is not None:
            launch.version_hint = hint
        if not launch.group:
            launch.group = group
        names = {e.name.value for e in launch.env}
        launch.env.extend(e for e in env if e.name.value not in names)
        if assumed and launch.entrypoint == "image":
            launch.notes.append("image entrypoint assumed to be vLLM's")
    return out


def _model_command(src: SourceFile, container: MappingNode, cmd: list[Token], args: list[Token], *,
                   kind: str, group: str, span: Span) -> Extraction:
    """llm-d modelservice values: ``modelCommand: vllmServe`` makes the chart run ``vllm serve
    MODEL --port ...`` followed by the container's ``args``; ``imageDefault`` runs the image's
    own entrypoint with them.  Chart keys, not a command: weak."""
    out = Extraction()
    mode = text_of(get(container, "modelCommand"))
    if cmd or mode not in ("vllmServe", "imageDefault"):
        return out
    candidate = [] if mode == "vllmServe" else ["candidate: arguments for the image's default command"]
    out.launches.append(Launch(
        src.path, kind, span, entrypoint="vllm serve" if mode == "vllmServe" else "image", args=list(args), group=group,
        notes=[*candidate, f"modelCommand {mode}: the chart adds the model and its own flags"],
        evidence=f"chart container with modelCommand {mode}" + (" (the chart runs vllm serve)" if mode == "vllmServe" else ""),
        strong=False,
    ))
    return out


def _script_args_candidate(src: SourceFile, container: MappingNode, cmd: list[Token], args: list[Token], *,
                           kind: str, group: str, span: Span) -> Extraction:
    """A vLLM container whose command is a start script of its own (``/scripts/startup.sh``,
    defined elsewhere) and whose args are flags: presumably the script hands them to
    ``vllm serve "$@"``.  Weak: a candidate the engine keeps only when most flags are vLLM
    options of the release and none is another program's."""
    out = Extraction()
    if not cmd and not args and get(container, "image") is None and env_vars(src, get(container, "env")):
        # a patch that sets only vLLM's variables on a container defined elsewhere
        out.launches.append(Launch(
            src.path, kind, span, entrypoint="image", group=group, notes=["environment only: a container patch"],
            evidence="VLLM_* variables of a container patch without image or command", strong=False,
        ))
        return out
    if not args or not any(a.value.startswith("--") for a in args):
        return out
    if not cmd and get(container, "image") is None:
        # a patch (kustomize) that replaces a container's args: the image is set elsewhere
        out.launches.append(Launch(
            src.path, kind, span, entrypoint="image", args=list(args), group=group,
            notes=["candidate: arguments of a container patch"],
            evidence="flags of a container patch without image or command (the image is set elsewhere)", strong=False,
        ))
        return out
    written = getattr(src, "original_text", "") or src.text  # a Helm template's own text
    text = written[container.start_mark.index : container.end_mark.index].lower()
    chart = _vllm_chart(written) if getattr(src, "original_text", "") else None
    if "vllm" not in text and chart is None:
        return out
    # a container of a chart named vllm (``{{ include "vllm.fullname" . }}``) whose own text
    # does not say it (``name: {{ .Chart.Name }}``): the chart's name is the evidence
    by_chart = "" if "vllm" in text else f" (chart {chart})"
    def templated(t: Token) -> bool:
        return t.is_opaque or "{{" in written[t.span.start : t.span.end]

    image = get(container, "image")
    if cmd and all(templated(t) for t in cmd) and (not by_chart or _templated_image(written, image) is not None):
        # ``command:`` from a template (``{{ range .Values.extraCmd.command }}``): when
        # it renders nothing, the image's entrypoint takes the args
        out.launches.append(Launch(
            src.path, kind, span, entrypoint="image", args=list(args), group=group,
            notes=["candidate: arguments of a templated command", "the command is set by the template"],
            evidence=f"flags of a vLLM container whose command comes from the template{by_chart}", strong=False,
        ))
        return out
    image_value = None if cmd else _vllm_image_value(written, image) or (_templated_image(written, image) if chart else None)
    if image_value is not None:
        # ``image: "{{ .Values.vllm.image.repository }}:{{ .Values.vllm.image.tag }}"``: the
        # chart's vLLM image, whose entrypoint takes the args
        out.launches.append(Launch(
            src.path, kind, span, entrypoint="image", args=list(args), group=group,
            notes=["candidate: arguments of a templated image", f"image set by the template from {image_value}"],
            evidence=f"flags handed to the image the template sets from {image_value}{by_chart}", strong=False,
        ))
        return out
    if by_chart:
        return out  # a start script of its own: only the container's own text says vLLM
    named = text_of(get(container, "name")) or ""
    if not cmd and image is not None and "vllm" in named.lower() and not any(w in named.lower() for w in _OTHER_IMAGES):
        # ``- name: vllm`` running an image of the project's own (``llm-serving:gpu``, a CI
        # placeholder ``IMAGE_PLACEHOLDER``) with flags only: its entrypoint is presumably vLLM's
        out.launches.append(Launch(
            src.path, kind, span, entrypoint="image", args=list(args), group=group,
            notes=["candidate: arguments of a container named after vLLM", "image entrypoint assumed to be vLLM's"],
            evidence=f"flags of the container {named}, whose name says vLLM (its image's entrypoint is assumed to be vLLM's)",
            strong=False,
        ))
        return out
    if len(cmd) != 1 or templated(cmd[0]):
        return out
    script = commands.basename(cmd[0].value)
    if is_shell(script) or "." in script and not script.endswith((".sh", ".bash")):
        return out
    out.launches.append(Launch(
        src.path, kind, span, entrypoint="vllm serve", args=list(args), group=group,
        notes=["candidate: arguments of a start script", f"start script {cmd[0].value}"],
        evidence=f"flags handed to the container's start script {cmd[0].value} in a vLLM container", strong=False,
    ))
    return out


_TEMPLATE_ACTION = lazy_re(r"\{\{-?\s*(.*?)\s*-?\}\}", re.S)
# values of the components that run beside vLLM (a router's or an LMCache server's image)
_OTHER_IMAGES = ("router", "gateway", "epp", "proxy", "scheduler", "lmcache", "cache", "frontend", "redis")


def _templated_image(written: str, image: Node | None) -> str | None:
    """An image reference made of template values alone, none of them another component's
    (``{{ .Values.image.repository }}:{{ .Values.image.tag }}``): the reference as written,
    else None (a literal part names the image itself)."""
    if not isinstance(image, ScalarNode):
        return None
    text = written[image.start_mark.index : image.end_mark.index].strip("\"' \t")
    actions = [m.group(1) for m in _TEMPLATE_ACTION.finditer(text)]
    rest = _TEMPLATE_ACTION.sub("", text)
    if not actions or any(c.isalnum() for c in rest):
        return None
    said = " ".join(actions).lower()
    if any(word in said for word in _OTHER_IMAGES):
        return None
    return text


def _vllm_image_value(written: str, image: Node | None) -> str | None:
    """The template values an image reference is made of, when that is all it is made of and
    they are vLLM's (``{{ .Values.vllm.image.repository }}:{{ .Values.vllm.image.tag }}``):
    the reference as written, else None."""
    text = _templated_image(written, image)
    return text if text is not None and "vllm" in " ".join(_TEMPLATE_ACTION.findall(text)).lower() else None


# the named templates a chart defines after its own name (``helm create vllm``):
# ``{{ include "vllm.fullname" . }}``, ``{{ template "vllm.labels" . }}``
_CHART_HELPER = lazy_re(r"\{\{-?\s*(?:include|template)\s+\"([A-Za-z0-9_-]+)\.(?:fullname|name|labels|selectorLabels|chart)\"")


def _vllm_chart(written: str) -> str | None:
    """The name of the chart a Helm template belongs to, when its helpers say it is vLLM's
    (``vllm``, ``vllm-server``) and not a component beside it (``vllm-router``)."""
    names = {m.group(1) for m in _CHART_HELPER.finditer(written)}
    if len(names) != 1:
        return None
    (name,) = names
    low = name.lower()
    return name if "vllm" in low and not any(word in low for word in _OTHER_IMAGES) else None


def object_name(src: SourceFile, node: Node) -> str | None:
    kind = text_of(get(node, "kind"))
    if kind is None:
        return None
    name_node = get(get(node, "metadata"), "name")
    name = text_of(name_node) or "?"
    original = getattr(src, "original_text", "")
    if original and isinstance(name_node, ScalarNode):  # a Helm template: show the name as written
        name = original[name_node.start_mark.index : name_node.end_mark.index].strip("\"'")
    return f"{kind}/{name}"


def pod_specs(src: SourceFile, doc: Node) -> list[tuple[str, MappingNode, list[MappingNode]]]:
    """Every mapping holding containers, with a stable group name and its containers (:func:`containers`)."""
    found: list[tuple[str, MappingNode, list[MappingNode]]] = []
    seen: set[int] = set()
    stack: list[tuple[Node, str, tuple[str, ...]]] = [(doc, "", ())]
    while stack:
        node, owner, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, MappingNode):
            name = object_name(src, node)
            if name is not None:
                owner, path = name, ()
            held = containers(node) if any(isinstance(k, ScalarNode) and k.value in _CONTAINER_KEYS for k, _v in node.value) else None
            if held:
                p = path[:-1] if path and path[-1] == "spec" else path
                found.append((f"{owner}/{'.'.join(p)}" if owner else ".".join(p) or "pod", node, held))
            children = [(v, owner, path + (k.value if isinstance(k, ScalarNode) else "?",)) for k, v in node.value]
        elif isinstance(node, SequenceNode):
            children = [(v, owner, path + (f"[{i}]",)) for i, v in enumerate(node.value)]
        else:
            children = []
        stack.extend(reversed(children))
    return found


_RAY_GROUP = lazy_re(r"(?:^|[./])(?:headGroupSpec|workerGroupSpecs)(?:[.\[/]|$)")


GPU_LABELS = ("nvidia.com/gpu.product", "cloud.google.com/gke-accelerator")


def _plain(node: Node | None) -> str | None:
    """A scalar's value when it holds no template (``{{ }}``, ``$(VAR)``, ``${VAR}``)."""
    if not isinstance(node, ScalarNode) or not node.value or any(m in node.value for m in ("{{", "$(", "${")):
        return None
    return node.value


def gpu_product(spec: MappingNode) -> str | None:
    """The GPU a pod spec asks for: a ``nodeSelector`` label, else a required node affinity term with one value."""
    selector = get(spec, "nodeSelector")
    for label in GPU_LABELS:
        value = _plain(get(selector, label))
        if value is not None:
            return value
    required = get(get(get(get(spec, "affinity"), "nodeAffinity"), "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms")
    if not isinstance(required, SequenceNode) or len(required.value) != 1:
        return None  # several terms are alternatives: any of them may schedule the pod
    expressions = get(required.value[0], "matchExpressions")
    for expr in expressions.value if isinstance(expressions, SequenceNode) else []:
        if text_of(get(expr, "key")) in GPU_LABELS and text_of(get(expr, "operator")) == "In":
            values = get(expr, "values")
            if isinstance(values, SequenceNode) and len(values.value) == 1:
                return _plain(values.value[0])
    return None


def gpu_count(container: MappingNode) -> str | None:
    """The container's ``nvidia.com/gpu`` limit (else request), as written."""
    resources = get(container, "resources")
    for key in ("limits", "requests"):
        value = _plain(get(get(resources, key), "nvidia.com/gpu"))
        if value is not None:
            return value
    return None


def extract_document(src: SourceFile, doc: Node, *, kind: str = "k8s") -> tuple[Extraction, set[int]]:
    """Launches of every pod spec in a document, and the ids of the container nodes used."""
    out = Extraction()
    used: set[int] = set()
    for group, spec, held in pod_specs(src, doc):
        product = gpu_product(spec)
        for container in held:
            if id(container) not in used:
                used.add(id(container))
                found = container_launches(src, container, kind=kind, group=group, ray_node=_RAY_GROUP.search(group) is not None)
                count = gpu_count(container)
                for launch in found.launches:
                    if product is not None:
                        launch.resources.setdefault("gpu-product", product)
                    if count is not None:
                        launch.resources.setdefault("gpu-count", count)
                out.extend(found)
    return out, used


def extract(src: SourceFile) -> Extraction:
    docs, problems = compose_documents(src.text, src.path)
    out = Extraction(problems=list(problems))
    for doc in docs:
        out.extend(extract_document(src, doc)[0])
    return out
