"""docker-compose services: ``command``, ``entrypoint``, ``environment``, ``image``.

Compose interpolates ``${VAR}`` / ``$VAR`` in the file, then splits a string
``command``/``entrypoint`` into words with shell-like rules (quotes and
backslashes, no shell).  :func:`linter.sources.words.split_words` does that split on the scalar's
value and places every word in the file through the scalar's offset map.
The service's argv is ``entrypoint + command``; without an entrypoint on a vLLM
image, ``command`` is the image entrypoint's argv.
"""

from __future__ import annotations

import os

from linter.launch import EnvVar, Launch, Span, Token, VersionHint
from linter.offset_map import OffsetMap
from linter.source_file import SourceFile
from linter.sources import Extraction, commands, embedded_shell
from linter.sources.words import interp_ranges, kept_env, shell_script_index, split_words
from linter.sources.kubernetes import argv_launches, image_hint, image_repository, likely_vllm_image, shared_env
from linter.sources.yaml_nodes import MappingNode, Node, ScalarNode, SequenceNode, compose_documents, get, items, pairs, text_of
from linter.sources.yaml_scalars import approximate, fold_spans, scalar_offsets, scalar_token, sub_token

def command_words(src: SourceFile, node: Node | None) -> tuple[list[Token], list[Node], bool]:
    """Words of a compose ``command``/``entrypoint``; the bool says whether it was a string."""
    if isinstance(node, ScalarNode):
        if node.value in ("", "~", "null") and node.style is None:
            return [], [], True
        omap = scalar_offsets(src, node)
        words = split_words(src.text, node.value, omap)
        if approximate(src, node):
            words = [Token(w.value, w.span, None, w.opaque, w.splat) for w in words]
        return words, [node] * len(words), True
    if isinstance(node, SequenceNode):
        toks, nodes = [], []
        for item in node.value:
            if isinstance(item, ScalarNode):
                tok = scalar_token(src, item)
                opaque = tuple(interp_ranges(tok.value))
                toks.append(Token(tok.value, tok.span, tok.value_start, opaque) if opaque else tok)
                nodes.append(item)
        return toks, nodes, False
    return [], [], False


def service_env(src: SourceFile, node: Node | None) -> list[EnvVar]:
    out: list[EnvVar] = []
    if isinstance(node, MappingNode):
        own = {id(k) for k, _v in node.value}
        for k, v in pairs(node):  # a ``<<: *common_env`` merge key gives its variables too
            if kept_env(k.value):
                var = EnvVar(scalar_token(src, k), scalar_token(src, v) if isinstance(v, ScalarNode) and v.value else None)
                out.append(var if id(k) in own else shared_env(var))
    elif isinstance(node, SequenceNode):
        for item in node.value:
            if isinstance(item, ScalarNode) and kept_env(item.value):
                tok = scalar_token(src, item)
                eq = tok.value.find("=")
                if eq == -1:
                    out.append(EnvVar(tok, None))
                else:
                    out.append(EnvVar(commands.sub_token(tok, 0, eq), commands.sub_token(tok, eq + 1, len(tok.value))))
    return out


def _env_args_launches(src: SourceFile, node: Node | None, image: Token | None, *, span: Span, group: str) -> Extraction:
    """``VLLM_ARGS=--model m --max-model-len 8192``-style variables of a service whose image
    reads its vLLM flags from the environment (``environment:`` as a list or a map)."""
    from linter.sources.kubernetes import _ARGS_ENV, k8s_opaque

    out = Extraction()
    pairs: list[tuple[str, ScalarNode, int]] = []  # (name, scalar holding the value, offset of the value in it)
    if isinstance(node, MappingNode):
        pairs = [(k.value, v, 0) for k, v in node.value if isinstance(k, ScalarNode) and isinstance(v, ScalarNode)]
    elif isinstance(node, SequenceNode):
        for item in node.value:
            if isinstance(item, ScalarNode) and "=" in item.value:
                pairs.append((item.value.split("=", 1)[0], item, item.value.index("=") + 1))
    for name, scalar, at in pairs:
        value = scalar.value[at:]
        body = value.lstrip(" \t\n")
        lead = ""
        if body[:1] in (">", "|") and body[1:2] in (" ", "\n", "-"):
            lead, body = body[:1], body[1:].lstrip(" \t\n")  # a block indicator written as text
        if not _ARGS_ENV.match(name) or not body.startswith("--"):
            continue
        omap = scalar_offsets(src, scalar)
        shifted = OffsetMap([(a - at, f, n) for a, f, n in omap.segments if a >= at], omap.fallback)
        words = [w for w in split_words(src.text, value, shifted)]
        if lead and words and words[0].value == lead:
            words = words[1:]
        launch = Launch(src.path, "compose", span, entrypoint="image", args=[k8s_opaque(w) for w in words], image=image, group=group,
                        notes=[f"arguments from environment variable {name}"] + ([f"the '{lead}' before them is text, not a block indicator"] if lead else []),
                        evidence=f"flags in the environment variable {name}, for the image's own start script", strong=False)
        if approximate(src, scalar):
            launch.editable = False
        launch.folds = fold_spans([scalar])
        out.launches.append(launch)
    return out


def _built_base(src: SourceFile, build: Node | None) -> str | None:
    """The vLLM image a service's ``build:`` (a context, or ``{context, dockerfile}``) builds FROM."""
    if build is None:
        return None
    context, dockerfile = ".", "Dockerfile"
    if isinstance(build, ScalarNode):
        context = build.value
    elif isinstance(build, MappingNode):
        context = text_of(get(build, "context")) or "."
        dockerfile = text_of(get(build, "dockerfile")) or "Dockerfile"
    else:
        return None
    if "://" in context or "$" in context or "$" in dockerfile:
        return None  # a remote context or an interpolated path: not a file of this tree
    folder = os.path.dirname(os.path.abspath(src.path)) if src.path else os.getcwd()
    return commands.dockerfile_base(os.path.realpath(os.path.join(folder, context, dockerfile)))


def bind_mounts(node: Node | None) -> list[tuple[str, str]]:
    """(container path, host path) of a service's bind mounts of this tree: ``volumes`` items
    ``./cfg.yaml:/etc/vllm/cfg.yaml[:ro]`` and ``{type: bind, source, target}``
    (:func:`linter.sources.commands.bind_mount`)."""
    out: list[tuple[str, str]] = []
    for item in node.value if isinstance(node, SequenceNode) else ():
        if isinstance(item, ScalarNode):
            mount = commands.volume_mount(item.value)
        elif isinstance(item, MappingNode) and text_of(get(item, "type")) == "bind":
            mount = commands.bind_mount(text_of(get(item, "source")) or "", text_of(get(item, "target")) or "")
        else:
            continue
        if mount is not None:
            out.append(mount)
    return out


def service_launches(src: SourceFile, name: str, service: MappingNode, *, group: str) -> Extraction:
    entry_words, entry_nodes, _ = command_words(src, get(service, "entrypoint"))
    cmd_words, cmd_nodes, cmd_is_string = command_words(src, get(service, "command"))
    image_tok, hint = image_hint(src, get(service, "image"))
    folded = any(isinstance(n, ScalarNode) and approximate(src, n) for n in entry_nodes + cmd_nodes)
    span = Span(service.start_mark.index, service.end_mark.index)
    words = entry_words + cmd_words
    nodes = entry_nodes + cmd_nodes
    out = Extraction()
    k = shell_script_index(words)
    if k is not None and k < len(nodes) and nodes[k] is not nodes[k - 1]:
        # the script is a list item of its own: its scalar's map places it exactly
        out = argv_launches(src, words, nodes, kind="compose", span=span, group=group, image=image_tok)
    elif k is not None:
        # the script is one word of a split string: map the word back through the scalar
        tok = words[k]
        if tok.value_start is not None:
            sub = OffsetMap.identity(tok.value_start, len(tok.value))
        else:
            sub = OffsetMap(fallback=tok.span.start)
            # inner text of a quoted word: characters between the quotes map one to one when unescaped
            raw = src.text[tok.span.start:tok.span.end]
            if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"" and raw[1:-1] == tok.value:
                sub = OffsetMap.identity(tok.span.start + 1, len(tok.value))
        out = embedded_shell.extract(src, tok.value, sub, kind="compose", group=group, editable=not folded)
    else:
        build = get(service, "build")
        base = _built_base(src, build)
        built = image_tok is None and build is not None and (
            "vllm" in name.lower() or "vllm" in src.text[build.start_mark.index : build.end_mark.index].lower())
        likely = base is not None or likely_vllm_image(image_repository(image_tok.value) if image_tok else None) or built
        runs_image = not entry_words and bool(cmd_words) and likely
        if runs_image and base is None and not (image_tok and commands.is_vllm_image(image_tok.value)) and commands.match_words(words) is None:
            # an image only named like vLLM's (or a vLLM-named build) runs its own entrypoint:
            # the command is vLLM's arguments only when it reads as them (``ray start ...``,
            # ``vllm-omni serve ...`` are programs of their own), as for ``docker run IMAGE ARGS``
            runs_image = commands.named_like_vllm(words, image_tok) is not None
        out = argv_launches(src, words, nodes, kind="compose", span=span, group=group, image=image_tok, image_runs_args=runs_image)
        for launch in out.launches if runs_image else ():
            if launch.entrypoint != "image":
                continue
            if base is not None:
                # ``build:`` of a Dockerfile of this tree FROM a vLLM image (its entrypoint kept)
                launch.evidence, launch.strong = f"built here FROM vLLM image {base}", True
                found = commands.release_tag(base)
                if found is not None and hint is None:
                    at = image_tok.span if image_tok is not None else Span(service.start_mark.index, service.start_mark.index)
                    launch.version_hint = VersionHint(found[0], at, "image-tag", False)
            elif not (image_tok and commands.is_vllm_image(image_tok.value)):
                launch.notes.append("image entrypoint assumed to be vLLM's")
                if built:
                    launch.evidence = f"command of service {name}, built from a vLLM build (its entrypoint is assumed to be vLLM's)"
                    launch.strong = False
    if not out.launches:
        out.extend(_env_args_launches(src, get(service, "environment"), image_tok, span=span, group=group))
    if not cmd_words and image_tok is None:
        # an override file's fragment (only ``entrypoint:``): the command it runs with is in
        # the base compose file, so nothing here can be checked
        out.launches = [x for x in out.launches if x.args or x.env]
    env = service_env(src, get(service, "environment"))
    mounts = bind_mounts(get(service, "volumes"))
    for launch in out.launches:
        launch.mounts = launch.mounts or mounts
        launch.image = launch.image or image_tok
        launch.version_hint = launch.version_hint or hint
        launch.group = launch.group or group
        if folded:
            launch.editable = False
            launch.notes.append("folded scalar: positions approximate, not editable")
        launch.folds = launch.folds or fold_spans(entry_nodes + cmd_nodes)
        if cmd_is_string:
            launch.notes.append(f"compose service {name}: command string split by compose")
        names = {e.name.value for e in launch.env}
        launch.env.extend(e for e in env if e.name.value not in names)
    return out


def extract_document(src: SourceFile, doc: Node) -> Extraction:
    out = Extraction()
    services = get(doc, "services")
    for name, service in items(services):
        if isinstance(service, MappingNode):
            out.extend(service_launches(src, name, service, group="compose"))
    return out


def extract(src: SourceFile) -> Extraction:
    docs, problems = compose_documents(src.text, src.path)
    out = Extraction(problems=list(problems))
    for doc in docs:
        out.extend(extract_document(src, doc))
    return out
