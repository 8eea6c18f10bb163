"""Any YAML file: decide per document what it is and hand it to the right reader.

* Kubernetes objects (``apiVersion`` + ``kind``, ``kind: List`` included) and
  any document holding pod specs (``containers`` lists): :mod:`kubernetes`; a
  Kustomization's inline patches (``patches[].patch``, ``patchesStrategicMerge``
  items) are objects of their own, read as files held in a string, and JSON patch
  operations that write flags into a container's args of a vLLM-named target are a
  weak candidate.
* docker-compose (``services:`` of mappings): :mod:`compose`.
* GitHub Actions (``jobs:`` + ``on:``, or a composite action's ``runs:``) and
  SkyPilot tasks (``run:``/``setup:``/``resources:``): :mod:`actions`.
* A flat mapping of option-like keys: a vLLM ``--config`` candidate.
* Everything else, and whatever the readers above leave: a list of words
  that starts vLLM, a string holding such a command, an ``args`` list that an
  operator hands to vLLM (KubeAI ``engine: VLLM``, production-stack
  ``vllmConfig.extraArgs``), or a mapping of vLLM options under a vLLM-named
  key (production-stack ``vllmConfig``, KAITO ``vllm:``, Kthena worker
  ``config``) — whatever the key is called.

Helm templates are masked first (:mod:`helm`), so their positions stay true.
"""

from __future__ import annotations

import bisect
import posixpath
import re

from linter import placeholders
from linter.lazy_re import lazy_re
from linter.launch import EnvVar, Launch, Setting, Span, Token, VersionHint
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import Extraction, Problem, actions, commands, compose, embedded_shell, helm, kserve, kubernetes, vllm_config
from linter.sources.yaml_nodes import MappingNode, Node, ScalarNode, SequenceNode, compose_documents, get, items, refused, text_of, walk
from linter.sources.yaml_scalars import approximate, fold_spans, remap_launch, remap_token, scalar_offsets, scalar_token

_ARGS_KEYS = frozenset({"args", "extraArgs", "extra_args", "engineArgs", "engine_args", "vllmArgs", "vllm_args", "serverArgs", "arguments"})
_SETTINGS_KEY = lazy_re(r"^(vllm([-_]?(config|configs|args|options|settings|engine[-_]?args))?|engine[-_]?args)$", re.I)
# a chart's keys for the container's environment (a list of name/value, or a map of NAME: value)
_ENV_KEYS = frozenset({"env", "extraEnv", "extraEnvVars", "envVars", "extraEnvs"})
_OPTIONISH = lazy_re(r"^[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*$")
_PIN = lazy_re(r"^vllm(?:\[[^\]]*\])?==([0-9][^\s;,]*)$")
# a vLLM command or image in a YAML document's text, in any style (``vllm serve``, ``[vllm, serve]``, ``- vllm\n- serve``)
_LOST_HINT = lazy_re(r"\bvllm\b[\W_]{1,12}serve\b|vllm\.entrypoints\.|\bvllm/vllm-|\blmcache\s+server")
_COMMAND_HINT = lazy_re(r"\bvllm\s+serve\b|vllm\.entrypoints\.|\blmcache\s+server\b|lmcache\.v1\.multiprocess")


def kind_of_file(path: str, templated: bool) -> str:
    base = posixpath.basename(path).lower()
    if templated and ("templates/" in path or "templates__" in base or base.endswith(".tpl")):
        return "helm-template"
    if "values" in base:
        return "helm-values"
    return "yaml"


def document_form(doc: Node) -> str:
    """``k8s``, ``compose``, ``actions``, ``skypilot``, ``config`` or ``yaml``."""
    if not isinstance(doc, MappingNode):
        return "yaml"
    if text_of(get(doc, "apiVersion")) is not None and text_of(get(doc, "kind")) is not None:
        return "k8s"
    services = get(doc, "services")
    if isinstance(services, MappingNode) and any(isinstance(v, MappingNode) for _k, v in services.value):
        if get(doc, "jobs") is None:
            return "compose"
    if isinstance(get(doc, "jobs"), MappingNode) and (get(doc, "on") is not None or get(doc, "name") is not None):
        return "actions"
    runs = get(doc, "runs")
    if isinstance(runs, MappingNode) and get(runs, "steps") is not None:
        return "actions"
    if isinstance(get(doc, "run"), ScalarNode) or isinstance(get(doc, "setup"), ScalarNode):
        return "skypilot"
    if vllm_config.looks_like_config(doc):
        if any(isinstance(k, ScalarNode) and _SETTINGS_KEY.match(k.value) and isinstance(v, MappingNode) for k, v in doc.value):
            return "yaml"  # options nested under a ``vllm:`` key (KAITO inference config)
        return "config"
    return "yaml"


def _services_fragment(doc: Node) -> bool:
    """Compose services shown without their ``services:`` key (a guide's "add this service to
    your compose file"): every top-level value a mapping, one of them a container with an
    ``image:`` string and an ``entrypoint:`` or ``command:`` (a chart's values name images by
    mappings and hold scalars beside them)."""
    if not isinstance(doc, MappingNode) or not doc.value:
        return False
    if not all(isinstance(k, ScalarNode) and isinstance(v, MappingNode) for k, v in doc.value):
        return False
    return any(
        isinstance(get(v, "image"), ScalarNode) and (get(v, "entrypoint") is not None or get(v, "command") is not None)
        for _k, v in doc.value
    )


def _vllm_context(path: tuple[str, ...], parent: Node | None) -> bool:
    """An operator-style args list belongs to vLLM: a vLLM-named key above it, or a vLLM engine/image beside it."""
    if any("vllm" in p.lower() for p in path[:-1]):
        return True
    if path and path[0] == "sampleApplication":  # llm-d deployer values: vLLM args of prefill/decode pods
        return True
    if isinstance(parent, MappingNode):
        if (text_of(get(get(parent, "modelFormat"), "name")) or "").lower() == "huggingface":
            return True  # KServe's Hugging Face runtime hands unknown args to vLLM
        for key in ("engine", "backend", "type", "runtime", "framework", "modelFormat"):
            v = text_of(get(parent, key))
            if v and "vllm" in v.lower():
                return True
        img = text_of(get(parent, "image"))
        if img and commands.is_vllm_image(img):
            return True
    return False


_OTHER_COMPONENTS = ("router", "gateway", "epp", "proxy", "scheduler", "lmcache", "cacheserver", "frontend", "redis", "autoscal")


def _other_component(path: tuple[str, ...]) -> bool:
    """An args list of a component that runs beside vLLM (production-stack's router, llm-d's EPP)."""
    return any(word in p.lower() for p in path for word in _OTHER_COMPONENTS)


def _is_args_key(key: str) -> bool:
    return key in _ARGS_KEYS or key.lower().endswith(("args", "arguments")) and not key.lower().endswith("jvmargs")


def _option_keys(node: Node) -> bool:
    """A non-empty mapping whose keys could all be option names."""
    return (isinstance(node, MappingNode) and bool(node.value)
            and all(isinstance(k, ScalarNode) and _OPTIONISH.match(k.value) for k, _v in node.value))


def _settings_mapping(node: Node) -> bool:
    if not _option_keys(node):
        return False
    scalars = sum(1 for _k, v in node.value if isinstance(v, ScalarNode))
    return scalars >= max(1, len(node.value) // 2)


_CAMEL = lazy_re(r"^[a-z]+(?:[A-Z0-9][a-z0-9]*)+$|^[a-z]+(?:[A-Z]+[a-z0-9]*)+$")


def _chart_settings(node: Node) -> bool:
    """Chart values of vLLM settings: option-like keys, scalars mostly, some camelCase."""
    return _settings_mapping(node) and any(isinstance(k, ScalarNode) and _CAMEL.match(k.value) for k, _v in node.value)


_SERVE_CONFIG_KEYS = frozenset({"serveConfigV2", "serveConfig", "serve_config"})  # KubeRay RayService: a Serve config as a string
_KUSTOMIZE_KINDS = frozenset({"Kustomization", "Component"})
_KUSTOMIZATION_FILES = frozenset({"kustomization.yaml", "kustomization.yml", "kustomization"})


def _inline_patch(path: tuple[str, ...], node: ScalarNode) -> bool:
    """A Kustomization's inline patch: the ``patch`` of a ``patches`` (or ``patchesJson6902``)
    entry, or an item of ``patchesStrategicMerge`` (else a file name)."""
    inline = path[-1:] == ("patch",) or path[-2:-1] == ("patchesStrategicMerge",)
    return inline and node.tag == "tag:yaml.org,2002:str" and "\n" in node.value.strip()


# a JSON patch operation's path into a container's args: all of them, one to append (``-``), or one at an index
_ARGS_OP_PATH = lazy_re(r"/containers/\d+/args(?:/(-|\d+))?$")


def _json_patch_args(src: SourceFile, node: ScalarNode) -> list[Token]:
    """The words JSON patch operations (``- {op: add, path: .../containers/0/args/-, value:
    --kv-cache-dtype}``) write into a container's args, in order: every word appended or
    replacing the whole list, and the flags written at an index (their neighbours are the
    resource's).  Offsets are in ``node``'s value."""
    docs, problems = compose_documents(node.value, src.path)
    if problems or len(docs) != 1 or not isinstance(docs[0], SequenceNode):
        return []
    inner = SourceFile(src.path, node.value)
    words: list[Token] = []
    for op in docs[0].value:
        m = _ARGS_OP_PATH.search(text_of(get(op, "path")) or "")
        if m is None or text_of(get(op, "op")) not in ("add", "replace"):
            continue  # ``test`` asserts what the args already hold; ``remove`` writes nothing
        toks, _nodes = kubernetes.word_tokens(inner, get(op, "value"))
        words.extend(toks if m.group(1) in (None, "-") else [t for t in toks if t.value.startswith("--")])
    return words


_NOT_SHELL_FILES = (".py", ".json", ".yaml", ".yml", ".toml", ".txt", ".md", ".conf", ".cfg", ".ini", ".js", ".ts", ".jinja", ".j2", ".tpl")
_SCRIPT_KEY = lazy_re(r"(?i)(command|cmd|script|run|entrypoint|setup|exec|\.sh$|\.bash$)")


class _Generic:
    """The catch-all walk over one document."""

    def __init__(self, src: SourceFile, kind: str, skip: set[int], out: Extraction) -> None:
        self.src, self.kind, self.skip, self.out = src, kind, skip, out
        self.seen: set[int] = set()
        self.mentions_vllm = False
        self.owner = ""
        self.kustomization = False

    def context(self, doc: Node) -> None:
        start, end = doc.start_mark.index, doc.end_mark.index
        self.mentions_vllm = "vllm" in self.src.text[start:end].lower()
        self.owner = kubernetes.object_name(self.src, doc) or ""
        self.kustomization = (text_of(get(doc, "kind")) in _KUSTOMIZE_KINDS
                              or posixpath.basename(self.src.path).lower() in _KUSTOMIZATION_FILES)

    def run(self, doc: Node) -> None:
        stack: list[tuple[tuple[str, ...], Node, tuple[Node, ...]]] = [((), doc, ())]
        while stack:
            path, node, above = stack.pop()
            parent = above[-1] if above else None
            if id(node) in self.seen or id(node) in self.skip:
                continue
            self.seen.add(id(node))
            if isinstance(node, SequenceNode):
                if self._sequence(path, node, parent):
                    continue
                stack.extend(reversed([(path + (f"[{i}]",), v, above + (node,)) for i, v in enumerate(node.value)]))
            elif isinstance(node, MappingNode):
                if self._mapping(path, node, above):
                    continue
                stack.extend(reversed([(path + ((k.value if isinstance(k, ScalarNode) else "?"),), v, above + (node,)) for k, v in node.value]))
            elif isinstance(node, ScalarNode):
                self._scalar(path, node, parent, above)

    def _written(self, node: Node) -> str:
        """A node's text as the file writes it (a Helm template's actions included)."""
        text = getattr(self.src, "original_text", "") or self.src.text
        return text[node.start_mark.index : node.end_mark.index]

    def _group(self, path: tuple[str, ...]) -> str:
        """The unit a launch belongs to: the path up to the last list item (a modelSpec entry,
        a worker), else the parent key; prefixed by the Kubernetes object when there is one."""
        parent = path[:-1]
        for i in range(len(parent) - 1, -1, -1):
            if parent[i].startswith("["):
                parent = parent[: i + 1]
                break
        name = ".".join(parent) or "document"
        return f"{self.owner}/{name}" if self.owner else name

    def _sequence(self, path: tuple[str, ...], node: SequenceNode, parent: Node | None) -> bool:
        words, nodes = kubernetes.word_tokens(self.src, node)
        if not words or len(words) != len(node.value):
            words_ok = bool(words)
        else:
            words_ok = True
        if not words_ok:
            return False
        span = Span(node.start_mark.index, node.end_mark.index)
        found = kubernetes.argv_launches(self.src, words, nodes, kind=self.kind, span=span, group=self._group(path))
        if found.launches:
            self.out.extend(found)
            return True
        key = path[-1] if path else ""
        context = _vllm_context(path, parent)
        if (_is_args_key(key) and any(w.value.startswith("--") for w in words) and not _other_component(path)
                and (self.mentions_vllm or context)):
            # Beside a vLLM engine or image, or under a vLLM-named key, the flags are vLLM's;
            # in a document that merely mentions vLLM they are a candidate, kept only when
            # most of them are vLLM options and none is foreign (a launcher's ``build_args``).
            args, notes = list(words), []
            if isinstance(parent, MappingNode) and (text_of(get(get(parent, "modelFormat"), "name")) or "").lower() == "huggingface":
                # KServe's Hugging Face runtime reads its own flags first (``--model_name``, ``--model_id``)
                args, removed = kserve.strip_runtime_flags(args)
                if removed:
                    notes.append(f"KServe huggingfaceserver's own flags, read before vLLM's: {', '.join(removed)}")
            launch = Launch(
                path=self.src.path, kind=self.kind, span=span, entrypoint="vllm serve", args=args,
                group=self._group(path),
                notes=([] if context else ["candidate: flags in a document that mentions vLLM"]) + [f"operator args: {'.'.join(path)}"] + notes,
                evidence=f"flags under `{key}` " + (
                    "below a vLLM-named key" if any('vllm' in p.lower() for p in path[:-1])
                    else "beside a vLLM engine or image" if context else "in a document that mentions vLLM"),
                strong=False,
            )
            if isinstance(parent, MappingNode):
                launch.env = kubernetes.env_vars(self.src, get(parent, "env"))
            self.out.launches.append(launch)
            return True
        if key == "pip":
            for w in words:
                m = _PIN.match(w.value)
                if m and w.value_start is not None:
                    start = w.value_start + m.start(1)
                    self.out.pins.append(VersionHint(m.group(1), Span(start, start + len(m.group(1))), "pip-pin"))
        return False

    def _chart(self, path: tuple[str, ...], node: MappingNode) -> bool:
        """A chart's model entry: the chart renders ``vllm serve MODEL`` from its values.

        production-stack ``servingEngineSpec.modelSpec[]`` (``modelURL``, ``repository``,
        ``tag``, ``vllmConfig: {maxModelLen: ..., extraArgs: [...]}``), the VLLMRuntime CR
        (``spec.model.modelURL`` beside ``spec.vllmConfig``) and any mapping that holds a
        vLLM-named mapping of camelCase settings; beside a chart's vLLM image
        (``image: {repository: vllm/vllm-openai}``), the ``model:`` mapping that names the
        model and an ``engine:`` mapping hold settings too.  One launch: the model and the extra
        flags as argv, the keyed settings as the chart's keys (``maxModelLen`` is
        ``--max-model-len``; a key that names no option needs the chart's template).
        The evidence is the chart's schema, not a command: weak, never edited.
        """
        model_map = get(node, "model")
        url = get(node, "modelURL")
        if not isinstance(url, ScalarNode) and isinstance(model_map, MappingNode) and isinstance(get(model_map, "modelURL"), ScalarNode):
            url = get(model_map, "modelURL")
        else:
            model_map = None
        config = [(k, v) for k, v in node.value
                  if isinstance(k, ScalarNode) and _SETTINGS_KEY.match(k.value) and isinstance(v, MappingNode)]
        camel = [(k, v) for k, v in config if _chart_settings(v)]
        repo_node = get(node, "repository")
        image_map = get(node, "image")
        if not isinstance(repo_node, ScalarNode) and isinstance(image_map, MappingNode):
            # ``image: {repository: vllm/vllm-openai, tag: v0.19.1}`` of a chart's values
            candidate = get(image_map, "repository")
            if isinstance(candidate, ScalarNode) and kubernetes.likely_vllm_image(kubernetes.image_repository(candidate.value)):
                repo_node = candidate
            else:
                image_map = None
        else:
            image_map = None
        tag_map = image_map if image_map is not None else node
        if not isinstance(repo_node, ScalarNode):
            # ``vllm: {image: {repository: vllm/vllm-openai, tag: v0.10.0}, maxModelLen: ...}``: the
            # image of the vLLM-named mapping the settings are in
            for _k, v in camel:
                held = get(v, "image")
                candidate = get(held, "repository") if isinstance(held, MappingNode) else None
                if isinstance(candidate, ScalarNode) and kubernetes.likely_vllm_image(kubernetes.image_repository(candidate.value)):
                    repo_node, tag_map = candidate, held
                    break
        repo = text_of(repo_node)
        beside: list[MappingNode] = []  # the entry's mappings of settings for the chart's vLLM image
        if image_map is not None and url is None:
            for key in ("modelURL", "id", "modelId", "name"):
                found = get(get(node, "model"), key)
                if isinstance(found, ScalarNode) and found.value and not found.tag.endswith(":null"):
                    url = found
                    beside.append(get(node, "model"))  # ``model: {name: ..., maxModelLen: ...}``
                    break
        if image_map is not None:
            engine = get(node, "engine")  # ``engine: {tensorParallelSize: 2, ...}``
            if isinstance(engine, MappingNode) and _settings_mapping(engine):
                beside.append(engine)
        if not camel and image_map is None and model_map is None and not (isinstance(url, ScalarNode) and (repo is not None or config)):
            return False
        args: list[Token] = []
        settings: list[Setting] = []
        loose_from = 0
        env: list[EnvVar] = kubernetes.env_vars(self.src, get(node, "env"))
        notes = [f"chart values: {'.'.join(path) or 'document'}"]
        if isinstance(url, ScalarNode):
            args.append(scalar_token(self.src, url))
        # the chart's vLLM-named mappings first; then the keys that are read only where they
        # name an option: the model's own, the mappings beside the image, the entry's scalars
        loose = ([model_map] if model_map is not None else []) + beside + [node]
        holders = [v for _k, v in config] + loose
        for holder in holders:
            if holder is loose[0]:
                loose_from = len(settings)
            for k, v in holder.value:
                if not isinstance(k, ScalarNode) or v is url or id(v) in self.seen:
                    continue
                entry_args = holder is node and _is_args_key(k.value) and isinstance(v, SequenceNode) and any(
                    isinstance(i, ScalarNode) and i.value.startswith("--") for i in v.value)
                if holder is node and not entry_args and not (
                        isinstance(v, ScalarNode) and (_CAMEL.match(k.value) or k.value.isalpha() and k.value.islower())
                        and not v.tag.endswith(":null")):
                    continue  # the entry's own structure (name, env, resources): searched as usual
                if _is_args_key(k.value) and isinstance(v, SequenceNode):
                    if holder is node:
                        self.seen.add(id(v))
                    words, _nodes = kubernetes.word_tokens(self.src, v)
                    args.extend(words)
                elif k.value in _ENV_KEYS:
                    env.extend(kubernetes.env_vars(self.src, v))
                elif k.value == "model" and isinstance(v, MappingNode) and holder is not node and holder is not model_map:
                    # ``vllm: {model: {name: Qwen/..., maxModelLen: 16384}}``: the model and its settings
                    for mk, mv in v.value:
                        if not (isinstance(mk, ScalarNode) and isinstance(mv, ScalarNode)) or mv.tag.endswith(":null") or not mv.value:
                            continue
                        if mk.value in ("name", "modelURL", "id", "modelId") and url is None:
                            url = mv
                            args.insert(0, scalar_token(self.src, mv))
                        elif mk.value not in ("name", "modelURL", "id", "modelId", "label") and _OPTIONISH.match(mk.value):
                            settings.append(vllm_config.setting_of(self.src, mk, mv))
                elif isinstance(v, ScalarNode) or (isinstance(v, SequenceNode) and all(isinstance(i, ScalarNode) for i in v.value)):
                    if isinstance(v, ScalarNode) and (holder is model_map or any(holder is b for b in beside)) and not _OPTIONISH.match(k.value):
                        continue
                    settings.append(vllm_config.setting_of(self.src, k, v))
                if holder is not node:
                    self.seen.add(id(v))
            if holder is not node:
                self.seen.add(id(holder))
        launch = Launch(
            path=self.src.path, kind=self.kind, span=Span(node.start_mark.index, node.end_mark.index),
            entrypoint="chart", style="settings", args=args, settings=settings, env=env,
            group=self._group(path + ("x",)), notes=notes, loose_from=loose_from,
            evidence="chart values: " + (f"`{camel[0][0].value}` settings" if camel else "modelURL" if image_map is None else "settings beside a chart's image")
                     + (" beside a vLLM image" if repo and commands.is_vllm_image(repo) else "")
                     + "; the chart's template renders the command (keys that name no vLLM option are its own)",
            strong=False,
        )
        if repo is not None:
            launch.image = scalar_token(self.src, repo_node)
            tag = get(tag_map, "tag")
            if isinstance(tag, ScalarNode) and tag.value and kubernetes.pins_vllm(f"{repo}:{tag.value}"):
                tok = scalar_token(self.src, tag)
                span = tok.value_span() or tok.span
                launch.version_hint = VersionHint(tag.value, span, "image-tag", tok.editable)
        self.out.launches.append(launch)
        return True

    def _command_and_args(self, path: tuple[str, ...], node: MappingNode) -> None:
        """``command`` + ``args`` side by side outside a pod spec (chart values of a serving
        runtime, an operator's container template): one argv, as a container runs them."""
        command, args = get(node, "command"), get(node, "args")
        if not isinstance(command, (SequenceNode, ScalarNode)) or not isinstance(args, SequenceNode):
            return
        if id(command) in self.seen or id(args) in self.seen:
            return
        cmd_words, cmd_nodes = kubernetes.word_tokens(self.src, command)
        arg_words, arg_nodes = kubernetes.word_tokens(self.src, args)
        if not cmd_words:
            return
        found = kubernetes.argv_launches(self.src, cmd_words + arg_words, cmd_nodes + arg_nodes, kind=self.kind,
                                         span=Span(node.start_mark.index, node.end_mark.index), group=self._group(path + ("x",)))
        if found.launches:
            for launch in found.launches:
                launch.env.extend(e for e in kubernetes.env_vars(self.src, get(node, "env")) if e.name.value not in {x.name.value for x in launch.env})
            self.out.extend(found)
            self.seen.update((id(command), id(args)))

    def _ray_llm(self, path: tuple[str, ...], node: MappingNode, kwargs: MappingNode, above: tuple[Node, ...]) -> None:
        """Ray Serve LLM ``LLMConfig`` (``llm_configs[]``, ``llm_config``, ``prefill_config``...)
        and RayLLM ``engine_config``: ``engine_kwargs`` are vLLM's engine arguments,
        ``model_loading_config.model_source`` (else ``model_id``) the model, ``runtime_env.env_vars``
        of the config or of its application the environment."""
        settings = [vllm_config.setting_of(self.src, k, v) for k, v in kwargs.value if isinstance(k, ScalarNode)]
        loading = get(node, "model_loading_config")
        model = None
        for holder, key in ((loading, "model_source"), (loading, "model_id"), (node, "hf_model_id"), (node, "model_id")):
            v = get(holder, key)
            if isinstance(v, ScalarNode) and v.value:
                model = v
                break
        if model is not None and not any(st.name.value == "model" for st in settings):
            tok = scalar_token(self.src, model)
            settings.insert(0, Setting(Token("model", tok.span, None), tok, "str"))
        env: list[EnvVar] = []
        for holder in (node, *reversed(above)):
            if isinstance(holder, MappingNode):
                for e in kubernetes.env_vars(self.src, get(get(holder, "runtime_env"), "env_vars")):
                    if e.name.value not in {x.name.value for x in env}:
                        env.append(e)
        engine_type = text_of(get(node, "type")) or ""
        schema = isinstance(loading, MappingNode) or "vllm" in engine_type.lower()
        launch = Launch(
            path=self.src.path, kind=self.kind, span=Span(node.start_mark.index, node.end_mark.index),
            entrypoint="AsyncEngineArgs", style="settings", settings=settings, env=env,
            group=self._group(path + ("engine_kwargs",)), notes=[f"Ray Serve LLM engine_kwargs: {'.'.join(path + ('engine_kwargs',))}"],
            evidence=("Ray Serve LLM config: engine_kwargs beside model_loading_config" if isinstance(loading, MappingNode)
                      else f"engine_kwargs of a {engine_type} engine config" if schema else "an engine_kwargs mapping"),
            strong=schema,
        )
        self.out.launches.append(launch)

    def _task_container(self, path: tuple[str, ...], node: MappingNode) -> bool:
        """An Amazon ECS container definition (``containerDefinitions[]`` of a task definition, as
        the API, the console's JSON and CloudFormation's ``ContainerDefinitions`` write it): its
        ``entryPoint`` is the image's ENTRYPOINT and its ``command`` the CMD after it (a pod's
        ``command`` and ``args``), ``environment`` a list of ``name``/``value``.  Read as the pod
        container it is."""
        if len(path) < 2 or path[-2] not in ("containerDefinitions", "ContainerDefinitions"):
            return False

        def field(*names: str) -> Node | None:
            return next((v for v in (get(node, n) for n in names) if v is not None), None)

        image, entry, command = field("image", "Image"), field("entryPoint", "EntryPoint"), field("command", "Command")
        if image is None or (entry is None and command is None):
            return False
        str_tag = "tag:yaml.org,2002:str"
        view = [(ScalarNode(str_tag, name), value) for name, value in
                (("image", image), ("command", entry), ("args", command), ("env", field("environment"))) if value is not None]
        container = MappingNode("tag:yaml.org,2002:map", view, node.start_mark, node.end_mark)
        found = kubernetes.container_launches(self.src, container, kind=self.kind, group=self._group(path))
        if not found.launches:
            return False
        self.out.extend(found)
        self.seen.update(id(v) for _k, v in view)
        return True

    def _mapping(self, path: tuple[str, ...], node: MappingNode, above: tuple[Node, ...] = ()) -> bool:
        key = path[-1] if path else ""
        if self._task_container(path, node):
            return False  # (its other fields, a ``healthCheck`` command among them, are still searched)
        self._command_and_args(path, node)
        self._benchmark_test(path, node)
        kwargs = get(node, "engine_kwargs")
        engine_type = (text_of(get(node, "type")) or "").lower()
        if isinstance(kwargs, MappingNode) and _option_keys(kwargs) and (not engine_type or "vllm" in engine_type):
            self._ray_llm(path, node, kwargs, above)
            self.seen.add(id(kwargs))
        if self._chart(path, node):
            return False  # the rest of the entry (its containers, sidecars) is still searched
        if key and _SETTINGS_KEY.search(key) and _settings_mapping(node):
            self._settings(path, node)
            # still look inside for argument lists (``vllmConfig.extraArgs``)
            for k, v in node.value:
                if isinstance(v, SequenceNode):
                    self._sequence(path + (k.value,), v, node)
                    self.seen.add(id(v))
            return True
        # Kthena ModelBooster / similar: a ``config`` mapping beside a vLLM image
        cfg = get(node, "config")
        img_node = get(node, "image")
        if isinstance(cfg, MappingNode) and isinstance(img_node, ScalarNode) and _settings_mapping(cfg) and (
                kubernetes.likely_vllm_image(kubernetes.image_repository(img_node.value)) or "vllm" in self._written(img_node).lower()):
            self._settings(path + ("config",), cfg)
            self.seen.add(id(cfg))
        if key == "data" and self.owner.startswith("ConfigMap/") and len(path) == 1:
            self._configmap_env(path, node)
        # Files held in a string (ConfigMap data, KubeRay ``serveConfigV2``): YAML that
        # configures vLLM, Python that starts it; shell scripts are read by ``_scalar``.
        for k, v in node.value:
            if not (isinstance(k, ScalarNode) and isinstance(v, ScalarNode) and v.tag == "tag:yaml.org,2002:str"):
                continue
            low = v.value.lower()
            if (k.value.endswith((".yaml", ".yml")) or k.value in _SERVE_CONFIG_KEYS) and ("vllm" in low or "engine_kwargs" in low):
                self._embedded(path + (k.value,), v, "yaml")
                self.seen.add(id(v))
            elif k.value.endswith(".py") and "vllm" in low:
                self._embedded(path + (k.value,), v, "python")
                self.seen.add(id(v))
        return False

    def _benchmark_test(self, path: tuple[str, ...], node: MappingNode) -> None:
        """A test of vLLM's benchmark suite (``.buildkite/nightly-benchmarks/tests/serving-tests.json``
        and the suites copied from it): its script runs ``vllm serve`` with each key of
        ``server_parameters`` as ``--key-with-dashes value`` (``json2args`` in
        run-performance-benchmarks.sh; a value of ``""`` is a flag alone) and
        ``server_environment_variables`` as the environment.  vLLM's when the test's
        ``client_parameters.backend`` names vLLM, or when the key itself does
        (``vllm_server_parameters`` of the nightly suite, beside other engines' keys)."""
        params = get(node, "vllm_server_parameters")
        evidence = "vllm_server_parameters of a benchmark test"
        if not isinstance(params, MappingNode):
            params = get(node, "server_parameters")
            backend = text_of(get(get(node, "client_parameters"), "backend")) or ""
            if not isinstance(params, MappingNode) or "vllm" not in backend.lower():
                return
            evidence = f"server_parameters of a benchmark test whose client backend is {backend}"
        if not params.value or id(params) in self.seen or not _option_keys(params):
            return
        self.seen.add(id(params))
        model: list[Token] = []
        args: list[Token] = []
        for k, v in params.value:
            if not isinstance(k, ScalarNode):
                continue
            name = scalar_token(self.src, k)
            flag = Token("--" + k.value.replace("_", "-"), name.span)  # written as a key: never edited
            if isinstance(v, ScalarNode):
                value = scalar_token(self.src, v) if v.value != "" else None
            else:
                setting = vllm_config.setting_of(self.src, k, v)  # a list or a mapping: compact JSON, as jq writes it
                value = setting.value
            if k.value == "model" and value is not None:
                model = [value]  # ``--model M``: the model, read as ``vllm serve M``
                continue
            args.append(flag)
            if value is not None:
                args.append(value)
        launch = Launch(
            path=self.src.path, kind=self.kind, span=Span(node.start_mark.index, node.end_mark.index), entrypoint="vllm serve",
            args=model + args, env=kubernetes.env_vars(self.src, get(node, "server_environment_variables")),
            group=self._group(path + ("x",)), notes=["benchmark test: vllm serve with server_parameters as --options"],
            evidence=evidence, strong=False,
        )
        self.out.launches.append(launch)

    def _configmap_env(self, path: tuple[str, ...], node: MappingNode) -> None:
        """A ConfigMap of ``VLLM_*`` variables: the environment of the vLLM container that
        loads it (``envFrom``); weak, the container is elsewhere."""
        env = [e for e in kubernetes.env_vars(self.src, node) if e.value is not None]
        if not env:
            return
        self.out.launches.append(Launch(
            path=self.src.path, kind=self.kind, span=Span(node.start_mark.index, node.end_mark.index),
            entrypoint="image", env=env, group=self._group(path + ("x",)),
            notes=["environment only: the container that loads this ConfigMap starts vLLM"],
            evidence=f"VLLM_* variables in {self.owner}, for a vLLM container's envFrom", strong=False,
        ))

    def _settings(self, path: tuple[str, ...], node: MappingNode) -> None:
        settings = [vllm_config.setting_of(self.src, k, v) for k, v in node.value if isinstance(k, ScalarNode)]
        self.out.launches.append(Launch(
            path=self.src.path, kind="vllm-config", span=Span(node.start_mark.index, node.end_mark.index),
            entrypoint="config", style="settings", settings=settings, group=self._group(path),
            notes=["candidate: under a vLLM-named key", f"operator settings: {'.'.join(path)}"],
            evidence=f"option-like keys under `{path[-1] if path else 'document'}`", strong=False,
        ))

    def _embedded(self, path: tuple[str, ...], node: ScalarNode, lang: str) -> None:
        """A file held in a scalar: read by its own extractor, placed back through the scalar's map."""
        omap = scalar_offsets(self.src, node)
        inner = SourceFile(self.src.path, node.value)
        if lang == "python":
            from linter.sources import python

            try:
                sub = python.extract(inner)
            except Exception:  # noqa: BLE001 - a program in a ConfigMap must not stop the YAML's reading
                return
            sub.problems = []  # its own parse problems are not this file's launch
        else:
            sub = extract_text(inner, kind=self.kind)
            if path and path[-1] in _SERVE_CONFIG_KEYS:  # a Serve config is never a vLLM ``--config`` file
                sub.launches = [x for x in sub.launches if x.entrypoint != "config"]
        for launch in sub.launches:
            self.out.launches.append(remap_launch(launch, omap, self.src.text, editable=node.style != ">", note="file held in a YAML string"))
        for p in sub.problems:
            self.out.problems.append(Problem(Span(omap.nearest(p.span.start), max(omap.nearest(p.span.start), omap.span_end(p.span.end))), p.message))

    def _kustomize_patch(self, path: tuple[str, ...], node: ScalarNode, parent: Node | None) -> None:
        """``patches: [{patch: |- ...}]``, ``patchesStrategicMerge: [|- ...]``: the objects a
        Kustomization merges into its resources (a container's ``args``, its ``image``), read as
        a file held in the string; or JSON patch operations that write a container's args, a
        weak candidate when the patch (its ``target`` included) names vLLM."""
        entry = self._written(parent) if isinstance(parent, MappingNode) else node.value
        if "vllm" not in entry.lower():
            return
        words = _json_patch_args(self.src, node)
        if not words:
            if "vllm" in node.value.lower():
                self._embedded(path, node, "yaml")
            return
        if not any(w.value.startswith("--") for w in words):
            return
        omap = scalar_offsets(self.src, node)
        launch = Launch(
            path=self.src.path, kind=self.kind, span=Span(0, len(node.value)), entrypoint="image", args=words,
            group=self._group(path), notes=["candidate: arguments of a container patch", f"JSON patch operations: {'.'.join(path)}"],
            evidence="flags a Kustomization's JSON patch writes into a container's args (the image is set elsewhere)", strong=False,
        )
        self.out.launches.append(remap_launch(launch, omap, self.src.text, editable=node.style != ">", note="file held in a YAML string"))

    def _scalar(self, path: tuple[str, ...], node: ScalarNode, parent: Node | None, above: tuple[Node, ...] = ()) -> None:
        if self.kustomization and _inline_patch(path, node):
            self._kustomize_patch(path, node, parent)
            return
        if node.tag != "tag:yaml.org,2002:str" or not _COMMAND_HINT.search(node.value):
            return
        key = path[-1] if path else ""
        if key.lower().endswith(_NOT_SHELL_FILES):
            return  # a ConfigMap entry holding a Python program, a JSON file, ...
        omap = scalar_offsets(self.src, node)
        rough = approximate(self.src, node)
        sub = embedded_shell.extract(self.src, node.value, omap, kind=self.kind, group=self._group(path), editable=not rough)
        for launch in sub.launches:
            launch.folds = fold_spans([node])
            if rough:
                launch.editable = False
                launch.notes.append("folded scalar: positions approximate, not editable")
        if not _SCRIPT_KEY.search(key):
            # Any string that mentions vLLM is tried as shell; only a key that says
            # "script" makes a failure to parse worth reporting.
            sub.problems = []
        # the environment the schema gives the command: ``env``/``envs``/``environment``
        # mappings of VLLM_* variables beside it or above it (a recipe, a task)
        env: list[EnvVar] = []
        for holder in reversed(above):
            for name in ("env", "envs", "environment"):
                env.extend(e for e in kubernetes.env_vars(self.src, get(holder, name)) if e.name.value not in {x.name.value for x in env})
        for launch in sub.launches:
            names = {e.name.value for e in launch.env}
            launch.env.extend(e for e in env if e.name.value not in names)
        self.out.extend(sub)


def extract_document(src: SourceFile, doc: Node, *, kind: str) -> Extraction:
    out = Extraction()
    form = document_form(doc)
    skip: set[int] = set()
    candidate: Launch | None = None
    if form == "compose":
        out.extend(compose.extract_document(src, doc))
        services = get(doc, "services")
        skip.add(id(services))
    elif form in ("yaml", "config") and _services_fragment(doc):
        for name, service in items(doc):
            out.extend(compose.service_launches(src, name, service, group="compose"))
            skip.add(id(service))
    elif form == "actions":
        out.extend(actions.actions_document(src, doc))
        for key in ("jobs", "runs"):
            if get(doc, key) is not None:
                skip.add(id(get(doc, key)))
    elif form == "skypilot":
        out.extend(actions.skypilot_document(src, doc))
        for key in ("run", "setup"):
            if get(doc, key) is not None:
                skip.add(id(get(doc, key)))
    elif form == "config" and posixpath.basename(src.path) == "model.json":
        # Triton's vLLM backend reads ``<model>/<version>/model.json`` and passes its keys to
        # ``AsyncEngineArgs(**config)``: keyword arguments, the model among them.
        settings = [vllm_config.setting_of(src, k, v) for k, v in doc.value if isinstance(k, ScalarNode)]
        if any(st.name.value == "model" for st in settings):
            out.launches.append(Launch(
                path=src.path, kind=kind, span=Span(doc.start_mark.index, doc.end_mark.index), entrypoint="AsyncEngineArgs",
                style="settings", settings=settings, group="model.json", notes=["Triton vLLM backend model.json"],
                evidence="a Triton vLLM backend model.json: AsyncEngineArgs keyword arguments", strong=False,
            ))
            return out
    elif form == "config":
        # Top-level keys that look like option names make a ``--config`` candidate (weak:
        # kept only when the release knows most of them); the document is searched all
        # the same (a recipe's ``command: |``, a Serve config's ``engine_kwargs``).
        candidate = vllm_config.config_launch(src, doc, candidate=True)
        if candidate is not None:
            candidate.evidence = "top-level keys that look like vLLM option names"
            candidate.strong = False
    k8s_kind = "k8s" if kind == "yaml" else kind
    pods, used = kubernetes.extract_document(src, doc, kind=k8s_kind)
    out.extend(pods)
    skip |= used
    walker = _Generic(src, k8s_kind if form == "k8s" else kind, skip, out)
    walker.context(doc)
    walker.run(doc)
    kept = []
    for launch in out.launches:
        _holes(launch)
        strip_omni(launch)
        if not launch.evidence and launch.entry:
            launch.evidence, launch.strong = kubernetes.evidence_of(launch.entrypoint, launch.entry, launch.image)
        if _something_to_check(launch):
            kept.append(launch)
    out.launches = kept
    if candidate is not None and not kept:  # a document that starts vLLM elsewhere is no config file
        out.launches.append(candidate)
    return out


def strip_omni(launch: Launch) -> None:
    """``vllm serve ... --omni``: the ``vllm`` CLI hands the whole command to vllm-omni before
    its own parser runs (``maybe_run_omni`` in vllm/entrypoints/cli/main.py, 0.30.0 to 0.33.0),
    so ``--omni`` is vllm-omni's switch, not an unknown vLLM option."""
    if launch.style != "argv" or not launch.entry or launch.entry[0].value.rsplit("/", 1)[-1] != "vllm":
        return
    if any(t.value == "--omni" and not t.is_opaque for t in launch.args):
        launch.args = [t for t in launch.args if t.is_opaque or t.value != "--omni"]
        launch.notes.append("--omni: vllm-omni takes over the command (its parser extends vLLM's)")


def _something_to_check(launch: Launch) -> bool:
    """A launch with no literal argument, setting or vLLM variable is not reported: an
    overlay that only swaps the entrypoint, a command made of ``${VARS}`` only.  Nothing in
    the file could be checked.  (A chart entry that names only the model is dropped by the
    engine, which knows which of its keys are options.)"""
    if launch.env or any(not s.name.is_opaque for s in launch.settings if s.name.value != "model"):
        return True  # (a chart entry's own keys may name no option: the engine decides)
    args = launch.args
    if launch.entry and launch.entrypoint != "image":
        return True  # a command of its own: even ``vllm serve "$@"`` is a launch to list
    return any(not t.is_opaque for t in args)


def _holes(launch: Launch) -> None:
    """Placeholders and template holes left in YAML values (``<MODEL>``, ``{port}``, ``${VAR}``) are unknown."""
    mark = placeholders.mark
    launch.entry = [mark(t) for t in launch.entry]
    launch.args = [mark(t) for t in launch.args]
    launch.settings = [Setting(s.name, mark(s.value), s.kind) for s in launch.settings]
    launch.env = [EnvVar(e.name, mark(e.value)) for e in launch.env]


def extract_text(src: SourceFile, *, kind: str) -> Extraction:
    docs, problems = compose_documents(src.text, src.path)
    out = Extraction(problems=list(problems))
    for doc in docs:
        out.extend(extract_document(src, doc, kind=kind))
    return out


def extract(src: SourceFile) -> Extraction:
    """Launches of a YAML file of any form; parse errors become problems."""
    try:
        return _extract(src)
    except RecursionError:
        return Extraction(problems=[Problem(Span(0, 0), "YAML parse error: nesting too deep")])


_MAX_JSON_CHARS = 256 * 1024  # engine-argument JSON files are small; a bigger one is data


def _extract(src: SourceFile) -> Extraction:
    if src.path.lower().endswith(".json"):
        # JSON is read as YAML for its launches only: a JSON file that PyYAML cannot read
        # (tabs, a trailing comma) is nobody's broken launch.
        if len(src.text) > _MAX_JSON_CHARS:
            return Extraction()
        # a raw tab in valid JSON is white space (strings escape theirs); PyYAML refuses
        # tabs for indentation, so they become spaces (same length: offsets stay true)
        work = SourceFile(src.path, src.text.replace("\t", " "), src.encoding, src.bom) if "\t" in src.text else src
        out = extract_text(work, kind="yaml")
        out.problems = []
        return out
    if not helm.has_template(src.text) or _actions_in_scalars(src.text):
        # ``{{ }}`` only inside string values (a Jinja chat template in a ConfigMap, a
        # Go template an operator renders): the YAML is read as written, the actions
        # are unknown parts of those values
        out = extract_text(src, kind=kind_of_file(src.path, False))
        if any(p.message.startswith("YAML parse error") for p in out.problems):
            _recover_containers(src, out, kind_of_file(src.path, False))
        if src.path.lower().endswith(".tpl"):
            # a template by its name whose holes are not ``{{ }}`` (``{port}`` of a Python
            # ``str.format``, Terraform's ``%{ if }``): what it renders need not be YAML as
            # written, so, as for masked Helm templates, only a lost vLLM command is reported
            out.problems = _lost_only(src.text, out.problems, "")
        return out
    m = helm.mask(src.text)
    work = helm.masked_source(src, m)
    kind = kind_of_file(src.path, True)
    out = extract_text(work, kind=kind)
    out.launches = [helm.unmask(src, m, launch) for launch in out.launches]
    span = helm.problem_span(m)
    if span is not None:
        out.problems.append(Problem(span, "template action without a closing '}}'"))
    # Masking is an approximation of what the template renders: a document it leaves
    # unreadable is reported only where a vLLM command was lost with it.
    out.problems = _lost_only(src.text, out.problems, " (after masking template actions)")
    return out


def _lost_only(text: str, problems: list[Problem], suffix: str) -> list[Problem]:
    """``problems`` without the YAML parse errors of documents that hold no vLLM command."""
    kept = []
    for p in problems:
        if p.message.startswith("YAML parse error"):
            if not _LOST_HINT.search(text[_document_start(text, p.span.start) : _document_end(text, p.span.start)]):
                continue
            p = Problem(p.span, p.message + suffix)
        kept.append(p)
    return kept


_MAX_RECOVERED_BLOCKS = 16
_CONTAINERS_KEY = lazy_re(r"^([ ]*)(-[ ]+)?((?:init)?[cC]ontainers:)[ ]*(?:#.*)?$", re.M)


def _recover_containers(src: SourceFile, out: Extraction, kind: str) -> None:
    """Launches of a ``containers:`` block that a parse error elsewhere in its document hid.

    The parse error stays (``kubectl`` refuses the file: the launch never starts as written),
    but what the containers say is read: each ``containers:`` block that holds a vLLM command
    and that no launch covers is read alone, the rest of the file blanked (line ends kept, so
    offsets stay true; a block mapping may start at any column)."""
    text = src.text
    covered = [(launch.span.start, launch.span.end) for launch in out.launches]
    tried = 0
    for m in _CONTAINERS_KEY.finditer(text):
        indent = len(m.group(1)) + len(m.group(2) or "")
        start = m.start(3)
        end = _block_end(text, m.end(), indent)
        if not _LOST_HINT.search(text, start, end) or any(start <= a < end for a, _b in covered):
            continue
        tried += 1
        if tried > _MAX_RECOVERED_BLOCKS:  # each block is read at the file's length
            break
        chars = [c if c in "\r\n" else " " for c in text]
        chars[start:end] = text[start:end]
        part = SourceFile(src.path, "".join(chars), src.encoding, src.bom)
        docs, problems = compose_documents(part.text, src.path)
        if problems:
            continue
        for doc in docs:
            found = extract_document(part, doc, kind=kind)
            for launch in found.launches:
                launch.path = src.path
                launch.notes.append("read from its `containers:` block alone: the YAML around it does not parse")
            out.launches.extend(found.launches)
            out.pins.extend(found.pins)


def _block_end(text: str, at: int, indent: int) -> int:
    """The end of the block below a key at column ``indent`` whose line ends at ``at``: up to the
    first line with text at a column below it (a sequence may stand at the key's column)."""
    pos = at
    while pos < len(text):
        nl = text.find("\n", pos + 1)
        line_end = len(text) if nl == -1 else nl
        line = text[pos + 1 : line_end] if text[pos] == "\n" else text[pos:line_end]
        stripped = line.lstrip(" ")
        col = len(line) - len(stripped)
        if stripped.strip() and not stripped.startswith("#"):
            if col < indent or (col == indent and not stripped.startswith("-")) or stripped.startswith("---"):
                return pos
        if nl == -1:
            return len(text)
        pos = nl
    return len(text)


def _actions_in_scalars(text: str) -> bool:
    """True when ``text`` parses as YAML and every template action lies inside a scalar that
    holds no vLLM command (a command's conditional flags are read from the masked text, where
    the first branch of each ``{{ if }}`` stays)."""
    if refused(text):  # most templates (``{{ if }}`` lines, ``- {{ . }}`` items) are no YAML
        return False
    docs, problems = compose_documents(text)
    if problems:
        return False
    spans: list[tuple[int, int]] = []
    for doc in docs:
        for _path, node in walk(doc):
            if isinstance(node, ScalarNode):
                if "{{" in node.value and _COMMAND_HINT.search(node.value):
                    return False
                spans.append((node.start_mark.index, node.end_mark.index))
            elif isinstance(node, MappingNode):
                spans.extend((k.start_mark.index, k.end_mark.index) for k, _v in node.value if isinstance(k, ScalarNode))
    spans.sort()
    starts = [a for a, _b in spans]
    for s, e in helm.action_spans(text):
        k = bisect.bisect_right(starts, s) - 1
        if k < 0 or not (spans[k][0] <= s and e <= spans[k][1]):
            return False
    return True


def _document_start(text: str, pos: int) -> int:
    k = text.rfind("\n---", 0, pos)
    return 0 if k == -1 else k + 1


def _document_end(text: str, pos: int) -> int:
    k = text.find("\n---", pos)
    return len(text) if k == -1 else k
