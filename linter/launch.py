"""Launches: the place where a file starts vLLM, as the argv vLLM would receive.

Every extractor in ``linter.sources`` yields :class:`Launch` objects.  A launch
holds tokens, and each token knows exactly where it stands in the file, so a
diagnostic can point at the right characters and a fix can edit them.

Offsets are indices into the decoded text of the file (``str`` indices), half
open: ``text[span.start:span.end]``.  :class:`linter.source_file.SourceFile`
converts them to 1-based lines and columns and to byte offsets.
"""

from __future__ import annotations

from typing import Literal

from linter.records import Frozen, Record, _set, setters



class Span(Frozen):
    """A half-open range ``[start, end)`` of character offsets in a file's text."""

    __slots__ = ("start", "end")

    start: int
    end: int

    def __init__(self, start, end):
        if start < 0 or end < start:
            raise ValueError(f"bad span {start}..{end}")
        _span_start(self, start)
        _span_end(self, end)

    def __len__(self) -> int:
        return self.end - self.start


_span_start, _span_end = setters(Span, "start", "end")


class Token(Frozen):
    """One argv element (or one key / value of a keyword-style launch).

    ``value`` is the string the program would receive, after the source's own
    quoting rules are undone (shell quotes, YAML scalar styles, Python string
    literals).  Parts that cannot be known statically (``$VAR``, ``$(VAR)``,
    ``{{ .Values.x }}``, ``${{ matrix.x }}``) stay in ``value`` as written and
    are listed in ``opaque``, as ranges of ``value``.

    ``span`` is where the whole token stands in the file (quotes included).

    ``value_start`` is the file offset of ``value[0]`` when ``value`` appears in
    the file verbatim and contiguously (``file_text[value_start:value_start +
    len(value)] == value``); only then can a fix edit part of the token, and the
    offset of ``value[i]`` is ``value_start + i``.  ``None`` means the token is
    not safely editable (escapes, folded scalars, concatenations).

    ``splat`` marks a token that may expand to any number of argv elements
    (``"${ARGS[@]}"``, ``$EXTRA_ARGS`` unquoted, a templated list): nothing may be
    concluded about the argv positions after it from its count.
    """

    __slots__ = ("value", "span", "value_start", "opaque", "splat", "conditional", "alternatives")

    value: str
    span: Span
    value_start: int | None
    opaque: tuple[tuple[int, int], ...]
    splat: bool
    # present only under a condition the file does not settle (a word inside
    # ``${V:+...}``, a value assigned in one branch): its option is checked, it is never
    # taken for the model, and nothing is concluded from its absence
    conditional: bool
    # the values the word may take, when the file gives several (``IMG`` assigned per branch,
    # used as ``"$IMG"``); ``value`` then is the word as written, unknown
    alternatives: tuple[str, ...]

    def __init__(self, value, span, value_start=None, opaque=(), splat=False, conditional=False, alternatives=()):
        set_value, set_span, set_start, set_opaque, set_splat, set_conditional, set_alternatives = _TOKEN_SET
        set_value(self, value)
        set_span(self, span)
        set_start(self, value_start)
        set_opaque(self, opaque)
        set_splat(self, splat)
        set_conditional(self, conditional)
        set_alternatives(self, alternatives)

    @property
    def editable(self) -> bool:
        return self.value_start is not None

    @property
    def is_opaque(self) -> bool:
        """True when some part of the value is unknown."""
        return bool(self.opaque) or self.splat

    def opaque_in(self, start: int, end: int) -> bool:
        """True when any unknown part overlaps ``value[start:end]``."""
        return self.splat or any(s < end and start < e for s, e in self.opaque)

    def value_span(self, start: int = 0, end: int | None = None) -> Span | None:
        """The file span of ``value[start:end]``, or None if not editable."""
        if self.value_start is None:
            return None
        if end is None:
            end = len(self.value)
        return Span(self.value_start + start, self.value_start + end)


_TOKEN_SET = setters(Token, *Token.__slots__)


# how a setting's value was written (:attr:`Setting.kind`), and where a pin was read
# (:attr:`VersionHint.origin`): the stored extractions check them (:mod:`linter.stored_extraction`)
SettingKind = Literal["str", "int", "float", "bool", "null", "json", "opaque"]
Origin = Literal["image-tag", "pip-pin", "dockerfile-from", "requirements", "comment"]


class Setting(Frozen):
    """A keyword-style option: a Python keyword argument or a ``--config`` YAML key.

    ``name`` is the keyword or key as written (``mamba_cache_mode``,
    ``max-model-len``).  ``value`` holds the value as text; ``kind`` says how it
    was written: ``str``, ``int``, ``float``, ``bool``, ``null``, ``json`` (a
    mapping or list, rendered as JSON in ``value.value``) or ``opaque`` (a
    Python expression or template that cannot be evaluated).
    """

    __slots__ = ("name", "value", "kind")

    name: Token
    value: Token | None
    kind: SettingKind

    def __init__(self, name, value, kind="str"):
        _set(self, "name", name)
        _set(self, "value", value)
        _set(self, "kind", kind)


class VersionHint(Frozen):
    """The vLLM release that a file pins near a launch."""

    __slots__ = ("version", "span", "origin", "editable")

    version: str  # as written, e.g. "v0.30.1", "0.30.0", "latest", "nightly"
    span: Span  # where the version text stands (for a fix that bumps it)
    origin: Origin
    editable: bool

    def __init__(self, version, span, origin, editable=True):
        _set(self, "version", version)
        _set(self, "span", span)
        _set(self, "origin", origin)
        _set(self, "editable", editable)


class EnvVar(Frozen):
    """An environment variable set for the launch (only ``VLLM_*`` ones are kept)."""

    __slots__ = ("name", "value")

    name: Token
    value: Token | None

    def __init__(self, name, value):
        _set(self, "name", name)
        _set(self, "value", value)


Program = Literal["vllm", "lmcache"]
Style = Literal["argv", "settings"]


class Launch(Record):
    """One start of vLLM (or of an LMCache server beside it) found in a file.

    ``args`` is the argv the program's own parser receives, *after* the words
    that select it (``vllm serve``, ``python -m vllm.entrypoints.openai.api_server``,
    the image's entrypoint); the positional model, when given, is ``args[0]`` as
    argparse would see it.  ``entry`` holds the words that selected it.

    ``style`` is ``argv`` for command lines and ``settings`` for keyword
    launches (``LLM(model=..., max_model_len=...)``, ``EngineArgs(...)``) and for
    ``--config`` files, whose options are in ``settings``.

    ``group`` names the unit that launches share for cross-launch checks (a pod
    template, a compose file, a script): launches with the same ``path`` and
    ``group`` run together.
    """

    __slots__ = ("path", "kind", "span", "program", "entrypoint", "style", "entry", "args", "settings", "env", "version_hint", "image", "group", "editable", "notes", "shell_words", "resources", "evidence", "strong", "loose_from", "config", "folds", "mounts")

    path: str
    kind: str  # a row of linter.kinds.KINDS: the file's kind, or the form it takes there (k8s, compose, actions ...)
    span: Span
    program: Program
    entrypoint: str  # "vllm serve", "api_server", "image", "LLM", "EngineArgs", "AsyncEngineArgs", "LLMConfig" (Ray Serve LLM), "config", "lmcache server"
    style: Style
    entry: list[Token]
    args: list[Token]
    settings: list[Setting]
    env: list[EnvVar]
    version_hint: VersionHint | None
    image: Token | None  # the container image, when the launch runs in one
    group: str
    editable: bool  # False when no token of the launch may be edited safely
    notes: list[str]  # why a launch is partial (e.g. "folded scalar")
    # the args are words of a shell command line (a script, or one embedded in YAML, a
    # Dockerfile or a Python string): an edit that splits a word writes shell words
    shell_words: bool
    # What the file says about the hardware the launch runs on (Kubernetes pod specs):
    # ``gpu-product`` (the value of an ``nvidia.com/gpu.product`` or
    # ``cloud.google.com/gke-accelerator`` node selector or required node affinity with one
    # value) and ``gpu-count`` (the container's ``nvidia.com/gpu`` limit), as written.
    resources: dict[str, str]
    # Why this is vLLM's, in words for ``--show-launches`` ("`vllm serve` command",
    # "image vllm/vllm-openai:v0.30.0", "LLM imported from vllm", "named by --config in
    # serve.sh"), and whether that evidence is strong: a vLLM command word or entrypoint
    # module, a vLLM image whose entrypoint takes the arguments, a vllm / ray.serve.llm
    # import, a file named by a launch's ``--config``.  Weak evidence (keys that merely look
    # like option names, a Markdown block that mentions vLLM) is reported only when the
    # argument model confirms it, and is never edited: the engine drops every fix of a weak
    # launch.
    evidence: str
    strong: bool
    # Chart launches (``entrypoint="chart"``): the index of the first setting that is one of
    # the chart entry's own keys (``enableLoRA``, ``replicaCount`` beside ``modelURL``), read
    # as an option only when its words name one; the settings before it come from a
    # vLLM-named mapping (``vllmConfig``), where a key that names no option is the template's.
    loose_from: int | None
    # the config file ``--config FILE`` names when the same file writes it (a heredoc body in
    # the script): its settings are read as a named config file's, and it is linted as its own launch
    config: Launch | None
    # file ranges of YAML scalars holding the args whose line breaks read as spaces (a folded
    # ``>`` block, a plain scalar over several lines): a line of nothing but an option's words
    # may be deleted whole there, the lines around still fold into one command line
    folds: list[Span]
    # files of the host the container sees (compose ``volumes: [./cfg.yaml:/etc/vllm/cfg.yaml]``),
    # as written: (the path in the container, the host path, relative to the launch's file
    # unless absolute); a ``--config`` naming a container path is read from the host file
    mounts: list[tuple[str, str]]

    def __init__(self, path, kind, span, program="vllm", entrypoint="vllm serve", style="argv", entry=None, args=None, settings=None, env=None, version_hint=None, image=None, group="", editable=True, notes=None, shell_words=False, resources=None, evidence="", strong=True, loose_from=None, config=None, folds=None, mounts=None):
        self.path = path
        self.kind = kind
        self.span = span
        self.program = program
        self.entrypoint = entrypoint
        self.style = style
        self.entry = ([] if entry is None else entry)
        self.args = ([] if args is None else args)
        self.settings = ([] if settings is None else settings)
        self.env = ([] if env is None else env)
        self.version_hint = version_hint
        self.image = image
        self.group = group
        self.editable = editable
        self.notes = ([] if notes is None else notes)
        self.shell_words = shell_words
        self.resources = ({} if resources is None else resources)
        self.evidence = evidence
        self.strong = strong
        self.loose_from = loose_from
        self.config = config
        self.folds = ([] if folds is None else folds)
        self.mounts = ([] if mounts is None else mounts)
