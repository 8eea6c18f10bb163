"""Facts and launch readings shared by the hybrid (LMCache) and long-context rules.

Not a rule module: it answers, from the models table (``rules/data/models.yaml``,
loaded by :func:`linter.knowledge.models`), the questions
those rules ask of a parsed launch (which model, which KV connector, which
LMCache server runs beside it, which LMCache release, the block size N).  Every
answer is ``None`` when the launch does not say it statically: an opaque token
never becomes a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from linter import knowledge
from linter.argmodel import Item, ParsedLaunch, ParsedOption
from linter.knowledge import BlockRow, ModelEntry
from linter.launch import Launch, Span, Token
from linter.sources.commands import is_vllm_image, parse_image, version_of_tag

LOG_LINE = "Setting attention block size to N tokens"
N_UNKNOWN_HINT = (
    f"read N from vLLM's startup log line `{LOG_LINE} to ensure that attention page size is >= mamba page size`"
)

# vLLM's defaults for --max-num-batched-tokens on GPUs (engine/arg_utils.py get_batch_defaults,
# L2940-3038 in 0.33): never below 2048 for `vllm serve` on GPUs (TPUs go lower).
DEFAULT_BATCHED_TOKENS_MIN = 2048


# ---------------------------------------------------------------------------
# The models table


def facts_for(name: str | None) -> ModelEntry | None:
    if not name:
        return None
    return knowledge.models().get(name.strip().rstrip("/"))


# ---------------------------------------------------------------------------
# Reading a parsed launch


def model_facts(parsed: ParsedLaunch) -> ModelEntry | None:
    return facts_for(parsed.model)


def connector(parsed: ParsedLaunch) -> tuple[str, ParsedOption, Item | None] | None:
    """(kv_connector, option, the item that names it) from ``--kv-transfer-config``."""
    opt = parsed.last("kv_transfer_config")
    config = opt.json_object if opt is not None else None
    if opt is None or config is None:
        return None
    name = config.get("kv_connector")
    if not isinstance(name, str):
        return None
    where: Item | None = opt.values[-1] if opt.values else None
    if opt.dotted:
        for part in opt.dotted:
            if part.path == ["kv_connector"] and part.value_item is not None:
                where = part.value_item
    return name, opt, where


def connector_span(ctx, opt: ParsedOption, where: Item | None) -> Span:
    """Where to point for a connector: the value that names it (JSON or dotted), else the option."""
    if where is not None and where.token is not None:
        return ctx.item_span(where)
    return ctx.name_span(opt)


# ---------------------------------------------------------------------------
# The block size N


# Options that change N in ways the table does not cover.
_N_CHANGERS = (
    "block_size",
    "speculative_config",
    "num_speculative_tokens",
    "mamba_ssm_cache_dtype",
    "mamba_cache_dtype",
    "hf_overrides",
    "attention_backend",
    "decode_context_parallel_size",
    "kv_cache_dtype_skip_layers",
)


@dataclass(frozen=True)
class BlockSizes:
    """The N values a launch can get: one per GPU condition the table knows."""

    rows: tuple[BlockRow, ...]
    reason: str  # why N is unknown, when rows is empty

    @property
    def known(self) -> bool:
        return bool(self.rows)

    @property
    def values(self) -> list[int]:
        return sorted({r.n for r in self.rows})


def block_sizes(parsed: ParsedLaunch, facts: ModelEntry, version: Version) -> BlockSizes:
    if not facts.block_size:
        return BlockSizes((), f"the models table has no block size N for {facts.model}")
    for dest in _N_CHANGERS:
        opt = parsed.last(dest)
        if opt is not None:
            return BlockSizes((), f"`{opt.written}` changes N")
    tp_opt = parsed.last("tensor_parallel_size")
    tp = 1 if tp_opt is None else tp_opt.int_value
    if tp is None:
        return BlockSizes((), "the tensor-parallel size is not known statically")
    kv_opt = parsed.last("kv_cache_dtype")
    kv = "auto" if kv_opt is None else kv_opt.known_value
    if kv is None:
        return BlockSizes((), "the KV cache dtype is not known statically")
    dtype_opt = parsed.last("dtype")
    if dtype_opt is not None and dtype_opt.known_value not in ("auto", "bfloat16", "half", "float16"):
        return BlockSizes((), f"`{dtype_opt.written}` changes N")
    gdn_opt = parsed.last("gdn_prefill_backend")
    gdn = None if gdn_opt is None else gdn_opt.known_value
    if gdn_opt is not None and gdn is None:
        return BlockSizes((), "the GDN prefill backend is not known statically")
    extra_opt = parsed.last("additional_config")
    extra = extra_opt.json_object if extra_opt is not None else None
    if extra and isinstance(extra.get("gdn_prefill_backend"), str):
        gdn = extra["gdn_prefill_backend"]
    rows = [r for r in facts.block_size if r.covers(version) and r.tp == tp and r.kv_cache_dtype == kv]
    if gdn == "triton":
        rows = [r for r in rows if r.gdn_prefill in ("any", "triton")]
    elif gdn is not None and gdn != "flashinfer":
        rows = [r for r in rows if r.gdn_prefill == "any"]
    if not rows:
        return BlockSizes((), f"the models table has no N for {facts.model} with tensor-parallel size {tp}, KV cache dtype {kv} on vLLM {version}")
    return BlockSizes(tuple(rows), "")


# ---------------------------------------------------------------------------
# LMCache servers beside a vLLM launch


@dataclass
class LMCacheServer:
    launch: Launch
    options: dict[str, list[tuple[Token, Token | None]]]  # option name -> (name token, value token)
    uncertain: bool  # a splat or opaque option name may hide anything

    def has(self, name: str) -> bool:
        return name in self.options

    def last(self, name: str) -> tuple[Token, Token | None] | None:
        found = self.options.get(name)
        return found[-1] if found else None


# `lmcache server` flags that take no value (BooleanOptionalAction and store_true ones the rules read).
_LMCACHE_FLAGS = frozenset(
    {
        "--separate-object-groups",
        "--no-separate-object-groups",
        "--l1-use-lazy",
        "--no-l1-use-lazy",
        "--l1-use-hugepages",
        "--isolated-ipc",
        "--enable-segmented-prefix",
        "--enable-dedup-content",
        "--enable-blend-reorder",
        "--disable-metrics",
    }
)


def read_lmcache(launch: Launch) -> LMCacheServer:
    """The `lmcache server` argv as option -> tokens (a plain walk of the argv words)."""
    opts: dict[str, list[tuple[Token, Token | None]]] = {}
    uncertain = False
    args = launch.args
    i = 0
    while i < len(args):
        tok = args[i]
        if tok.splat or tok.opaque_in(0, 2):
            uncertain = True
            i += 1
            continue
        text = tok.value
        if not text.startswith("--"):
            i += 1
            continue
        if "=" in text:
            name = text.split("=", 1)[0]
            opts.setdefault(name, []).append((tok, tok))
            i += 1
            continue
        if text in _LMCACHE_FLAGS:
            opts.setdefault(text, []).append((tok, None))
            i += 1
            continue
        value = args[i + 1] if i + 1 < len(args) and not args[i + 1].value.startswith("--") else None
        opts.setdefault(text, []).append((tok, value))
        i += 2 if value is not None else 1
    return LMCacheServer(launch, opts, uncertain)


def token_value(name_tok: Token, value_tok: Token | None) -> tuple[str | None, Span | None]:
    """The known text of an lmcache option value and its span (for ``--x=v``, the part after ``=``)."""
    if value_tok is None:
        return None, None
    if value_tok is name_tok:
        eq = value_tok.value.index("=") + 1
        if value_tok.opaque_in(eq, len(value_tok.value)):
            return None, None
        span = value_tok.value_span(eq) or value_tok.span
        return value_tok.value[eq:], span
    if value_tok.is_opaque:
        return None, None
    return value_tok.value, value_tok.value_span() or value_tok.span


def lmcache_servers(fctx, lctx) -> list[LMCacheServer]:
    """`lmcache server` launches that run together with ``lctx`` (same file, same group)."""
    out = []
    for other in fctx.launches:
        launch = other.launch
        if launch.program != "lmcache" or launch.entrypoint != "lmcache server":
            continue
        if launch.path != lctx.launch.path or launch.group != lctx.launch.group:
            continue
        out.append(read_lmcache(launch))
    return out


def lmcache_version(fctx, lctx) -> tuple[Version | None, Token | None]:
    """LMCache's release from an ``lmcache/...:0.5.4`` image tag in the launch's group.

    Only LMCache's own images count (``lmcache/standalone``, ``lmcache/lmcache``); the tag of
    ``lmcache/vllm-openai`` is not read as an LMCache release.  Pip pins of ``lmcache`` are not
    recorded by the extractors, so they are not read either.
    """
    for other in [lctx, *fctx.launches]:
        launch = other.launch
        if launch.path != lctx.launch.path or launch.group != lctx.launch.group or launch.image is None:
            continue
        if launch.image.is_opaque:
            continue
        image = parse_image(launch.image.value)
        if not (image.repository.startswith("lmcache/") or "/lmcache/" in image.repository) or image.tag is None:
            continue
        if is_vllm_image(launch.image.value):
            continue  # lmcache/vllm-openai: whose release its tag names is not known
        text = version_of_tag(image.tag)
        if text is None or text.count(".") != 2:
            continue
        try:
            return Version(text), launch.image
        except InvalidVersion:
            continue
    return None, None


def mp_hybrid_launches(fctx, rule):
    """(launch context, model facts) of vLLM launches in ``fctx`` that use
    ``LMCacheMPConnector`` with a hybrid model from the table, in the rule's release range."""
    for lctx in fctx.launches:
        if lctx.launch.program != "vllm" or not rule.applies_to(lctx.version):
            continue
        found = connector(lctx.parsed)
        if found is None or found[0] != "LMCacheMPConnector":
            continue
        facts = model_facts(lctx.parsed)
        if facts is None or not facts.is_hybrid:
            continue
        yield lctx, facts


def entry_span(launch: Launch) -> Span:
    """The words that start a launch (``lmcache server``), else the whole launch."""
    if launch.entry:
        return Span(launch.entry[0].span.start, launch.entry[-1].span.end)
    return launch.span


def model_span(lctx) -> Span:
    """Where the model is named, else the launch."""
    item = lctx.parsed.model_item
    if item is not None and item.token is not None:
        return lctx.item_span(item)
    return lctx.launch.span


YARN_TYPES = frozenset({"yarn", "deepseek_yarn", "telechat3-yarn"})


def yarn_override(parsed: ParsedLaunch) -> tuple[dict, dict, ParsedOption] | None:
    """(rope parameters, the overrides, the option) when ``--hf-overrides`` sets a YaRN rope."""
    opt = parsed.last("hf_overrides")
    overrides = opt.json_object if opt is not None else None
    if opt is None or overrides is None:
        return None
    for scope in (overrides, overrides.get("text_config")):
        if not isinstance(scope, dict):
            continue
        for key in ("rope_scaling", "rope_parameters"):
            rp = scope.get(key)
            candidates = [rp] if isinstance(rp, dict) and ("rope_type" in rp or "type" in rp) else (
                list(rp.values()) if isinstance(rp, dict) else []
            )
            for c in candidates:
                if isinstance(c, dict) and str(c.get("rope_type", c.get("type", ""))) in YARN_TYPES:
                    return c, scope, opt
    return None


def with_value(name: str, value: object) -> str:
    """``--opt 5`` or ``opt=5`` depending on how ``name`` is spelled (see :meth:`~linter.argmodel.ParsedLaunch.spelling`)."""
    return f"{name}{value}" if name.endswith(("=", ": ")) else f"{name} {value}"


def _is_config(opt: ParsedOption) -> bool:
    return opt.normalized.startswith("--")  # config keys are read as ``--key``; Python keywords are dests


def as_written(opt: ParsedOption) -> str:
    """The option as the user wrote it, for messages (``--no-enable-prefix-caching``, ``enable_prefix_caching=False``)."""
    if opt.setting is not None:
        value = opt.setting.value.value if opt.setting.value is not None else ""
        return f"{opt.written}: {value}" if opt.name.token is not None and opt.written and _is_config(opt) else f"{opt.written}={value}"
    if opt.values and not opt.value_opaque:
        return f"{opt.written} {opt.values[-1].text}"
    return opt.written
