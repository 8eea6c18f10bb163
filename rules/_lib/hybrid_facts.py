"""Facts and launch readings shared by the hybrid (LMCache) and long-context rules.

Not a rule module: it answers the questions those rules ask of a parsed launch
(which model and whether its release treats it as hybrid, which KV connector, which
LMCache server runs beside it, which LMCache release and what that release
accepts, the block size N computed from the model's config.json by
:mod:`linter.hybrid_block`).  The models table (``rules/data/models.yaml``, loaded by
:func:`linter.knowledge.models`) names architectures where no config.json is at hand.  Every
answer is ``None`` when the launch does not say it statically: an opaque token
never becomes a guess.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from packaging.version import InvalidVersion, Version

from linter import knowledge
from linter.argmodel import Item, ParsedLaunch, ParsedOption
from linter.knowledge import ModelEntry
from linter.launch import Launch, Span, Token
from linter.records import Frozen, Record, _set, replace
from linter.sources.commands import is_vllm_image, parse_image, version_of_tag
from rules._lib import local_facts

# linter.hybrid_block and linter.batch_defaults are imported by the functions that use them:
# a launch of a model that is not hybrid (most) needs neither
if TYPE_CHECKING:
    from linter import batch_defaults as bd

LOG_LINE = "Setting attention block size to N tokens"
N_UNKNOWN_HINT = (
    f"read N from vLLM's startup log line `{LOG_LINE} to ensure that attention page size is >= mamba page size`"
)


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
# The hybrid model of a launch and its block size N (linter/hybrid_block.py)




@cache
def shipped_configs() -> dict[str, tuple[dict, str]]:
    """model id -> (config.json fields, source) from ``rules/data/hybrid_configs.yaml``."""
    raw = knowledge.data_yaml("hybrid_configs.yaml")
    return {m["model"]: (m["config"], str(m["source"])) for m in raw.get("models", []) or []}


def find_config(name: str, ctx) -> tuple[dict, str] | None:
    """(config.json, where it was found) for the model a launch names, never the network.

    In order: a model folder in the tree (``vllm serve ./models/x`` with
    ``./models/x/config.json`` beside the linted file or in the working folder), the
    ``--model-config [MODEL=]PATH`` of the run, the Hugging Face cache, the shipped table.
    """
    from linter import hybrid_block as hb

    import os

    base = os.path.dirname(os.path.abspath(ctx.src.path)) if getattr(ctx, "src", None) is not None else None
    if not name.startswith(("http:", "https:")):
        expanded = os.path.expanduser(name)
        for folder in ([base] if base else []) + [os.getcwd()]:
            candidate = os.path.join(folder, expanded, "config.json")
            if os.path.isfile(candidate):
                loaded = hb.load_config(candidate)
                if loaded is not None:
                    return loaded, os.path.relpath(candidate) if not os.path.isabs(expanded) else candidate
    settings = getattr(ctx, "settings", None)
    configs = dict(getattr(settings, "model_configs", None) or {})
    path = configs.get(name) or configs.get("")
    if path:
        loaded = hb.load_config(path)
        if loaded is not None:
            return loaded, f"--model-config {path}"
    cached = local_facts.hf_cache_config(name)
    if cached:
        loaded = hb.load_config(cached)
        if loaded is not None:
            return loaded, cached
    shipped = shipped_configs().get(name.strip().rstrip("/"))
    if shipped is not None:
        return shipped[0], "the shipped config table (rules/data/hybrid_configs.yaml)"
    return None


_FAMILIES = {
    "gated_delta_net_state_shape": "GDN",
    "kda_state_shape": "KDA",
    "mamba2_state_shape": "Mamba2",
    "mamba1_state_shape": "Mamba",
    "short_conv_state_shape": "short-convolution",
    "linear_attention_state_shape": "linear-attention",
}


class HybridModel(Frozen):
    """A launch's model that the launch's vLLM release treats as hybrid (its model registry)."""

    __slots__ = ("model", "architecture", "entry", "config", "config_source")

    model: str
    architecture: str | None
    entry: dict
    config: dict | None
    config_source: str | None

    def __init__(self, model, architecture, entry, config, config_source):
        _set(self, "model", model)
        _set(self, "architecture", architecture)
        _set(self, "entry", entry)
        _set(self, "config", config)
        _set(self, "config_source", config_source)

    is_hybrid = True

    @property
    def hybrid(self) -> str:
        calc = (self.entry.get("state-shape") or {}).get("calculator")
        return _FAMILIES.get(calc, "Mamba")

    @property
    def mamba_all_mode(self) -> bool:
        return bool(self.entry.get("mamba-prefix-caching"))


def hybrid_model(ctx) -> HybridModel | None:
    """The launch's model when vLLM ``ctx.version`` treats it as hybrid, else None.

    The architecture comes from the model's config.json (:func:`find_config`), else from
    the models table; hybrid-ness from that release's registry (``rules/data/hybrid.json``).
    """
    from linter import hybrid_block as hb

    name = ctx.parsed.model
    if name is None:
        return None
    version = ctx.version
    found = find_config(name, ctx)
    if found is not None:
        config, source = found
        entry = hb.classify(config, version)
        if entry is None:
            return None
        return HybridModel(name, hb.architecture(config), entry, config, source)
    facts = facts_for(name)
    if facts is None or not facts.architecture or facts.hybrid == "none":
        return None
    rel = hb.release_facts(version)
    entry = (rel or {}).get("architectures", {}).get(facts.architecture)
    if entry is None or not entry.get("hybrid"):
        return None
    return HybridModel(name, facts.architecture, entry, None, None)


# Options that change N in ways the port does not follow.
_N_CHANGERS = (
    "hf_overrides",
    "attention_backend",
    "decode_context_parallel_size",
    "kv_cache_dtype_skip_layers",
)


class Candidate(Frozen):
    """N on one kind of GPU."""

    __slots__ = ("n", "gpu", "gdn_prefill", "derivation")

    n: int
    gpu: str
    gdn_prefill: str  # any | triton | flashinfer
    derivation: str

    def __init__(self, n, gpu, gdn_prefill, derivation):
        _set(self, "n", n)
        _set(self, "gpu", gpu)
        _set(self, "gdn_prefill", gdn_prefill)
        _set(self, "derivation", derivation)


class BlockSizes(Frozen):
    """The N values a launch can get: one per GPU condition that changes it."""

    __slots__ = ("rows", "reason", "source")

    rows: tuple[Candidate, ...]
    reason: str  # why N is unknown, when rows is empty
    source: str  # the config.json N was computed from

    def __init__(self, rows, reason, source=""):
        _set(self, "rows", rows)
        _set(self, "reason", reason)
        _set(self, "source", source)

    @property
    def known(self) -> bool:
        return bool(self.rows)

    @property
    def values(self) -> list[int]:
        return sorted({r.n for r in self.rows})

    def how(self, row: Candidate) -> str:
        """How N was derived, for messages."""
        return f"N computed as vLLM's _align_hybrid_block_size does from {self.source}: {row.derivation}"


_SM90 = ("h100", "h200", "h800", "gh200")
_NOT_SM90 = ("a100", "a10", "l4", "l40", "t4", "a6000", "v100", "rtx")


def _deployment(parsed: ParsedLaunch, version: Version) -> tuple[dict, str | None]:
    """The launch settings N depends on, or (.., why they are not known)."""
    for dest in _N_CHANGERS:
        opt = parsed.last(dest)
        if opt is not None:
            return {}, f"`{opt.written}` changes N in ways not computed here"
    out: dict = {}
    for dest, key in (("tensor_parallel_size", "tp"), ("block_size", "block_size"), ("mamba_block_size", "mamba_block_size")):
        opt = parsed.last(dest)
        if opt is None:
            continue
        value = opt.int_value
        if value is None or value <= 0:
            return {}, f"`{opt.written}` is not known statically"
        out[key] = value
    for dest in ("kv_cache_dtype", "dtype", "mamba_cache_dtype", "mamba_ssm_cache_dtype", "gdn_prefill_backend", "mamba_cache_mode"):
        opt = parsed.last(dest)
        if opt is None:
            continue
        value = opt.known_value
        if value is None:
            return {}, f"`{opt.written}` is not known statically"
        out[dest] = value.strip()
    extra_opt = parsed.last("additional_config")
    extra = extra_opt.json_object if extra_opt is not None else None
    if extra and isinstance(extra.get("gdn_prefill_backend"), str):
        out["gdn_prefill_backend"] = extra["gdn_prefill_backend"]
    spec_opt = parsed.last("speculative_config")
    if spec_opt is not None:
        spec = spec_opt.json_object
        n = spec.get("num_speculative_tokens") if spec else None
        if not isinstance(n, int) or isinstance(n, bool):
            return {}, f"the speculative tokens of `{spec_opt.written}` are not known statically"
        out["num_spec"] = n
    spec_n = parsed.last("num_speculative_tokens")
    if spec_n is not None:
        value = spec_n.int_value
        if value is None:
            return {}, f"`{spec_n.written}` is not known statically"
        out["num_spec"] = value
    pc_set, pc_on, _ = parsed.flag("enable_prefix_caching")
    if pc_set and pc_on is False:
        out["prefix_caching_off"] = True
    return out, None


def block_sizes(ctx, model: HybridModel) -> BlockSizes:
    """LMCache's N for the launch: computed from the model's config.json per GPU condition."""
    from linter import hybrid_block as hb

    version = ctx.version
    if model.config is None:
        return BlockSizes((), f"no config.json of {model.model} is at hand (name one with `--model-config {model.model}=PATH`)")
    settings, why = _deployment(ctx.parsed, version)
    if why:
        return BlockSizes((), why)
    base = hb.Deployment(
        tp=settings.get("tp", 1),
        kv_cache_dtype=settings.get("kv_cache_dtype", "auto"),
        dtype=settings.get("dtype", "auto"),
        mamba_cache_dtype=settings.get("mamba_cache_dtype", "auto"),
        mamba_ssm_cache_dtype=settings.get("mamba_ssm_cache_dtype", "auto"),
        num_spec=settings.get("num_spec", 0),
        block_size=settings.get("block_size"),
        mamba_block_size=settings.get("mamba_block_size"),
        mamba_cache_mode=_mode(settings, version),
    )
    conditions: list[tuple[str, str]] = [("any", "GPUs whose attention kernels use blocks of 16 (FlashAttention, FlashInfer, Triton)")]
    if hb.gdn_prefill_matters(model.config, version):
        forced = settings.get("gdn_prefill_backend")
        gpu = _gpu_name(ctx)
        if forced is not None and forced != "auto":
            conditions = [("flashinfer" if forced == "flashinfer" else "triton", f"`--gdn-prefill-backend {forced}`")]
        elif gpu is not None and any(k in gpu.lower() for k in _SM90):
            conditions = [("flashinfer", f"{gpu} (SM90: FlashInfer GDN prefill chosen by default)")]
        elif gpu is not None and any(k in gpu.lower() for k in _NOT_SM90):
            conditions = [("triton", f"{gpu} (Triton GDN prefill)")]
        else:
            conditions = [
                ("triton", "Ampere, or Hopper with `--gdn-prefill-backend triton`"),
                ("flashinfer", "H100/H200 (SM90), or SM100/SM120 with CUDA 13: FlashInfer GDN prefill chosen by default"),
            ]
    rows = []
    for prefill, gpu in conditions:
        dep = replace(base, gdn_prefill="flashinfer" if prefill == "flashinfer" else "triton")
        try:
            result = hb.block_size(model.config, version, dep)
        except hb.NotComputed as e:
            return BlockSizes((), str(e))
        rows.append(Candidate(result.n, gpu, prefill, result.summary()))
    return BlockSizes(tuple(rows), "", model.config_source or "")


def batch_defaults(ctx) -> list[bd.Default] | None:
    """vLLM's ``--max-num-batched-tokens`` for a launch that leaves it out, per GPU condition
    (one when the GPU is known); None when a setting it depends on is not known statically."""
    from linter import batch_defaults as bd

    parsed = ctx.parsed
    launch = ctx.launch
    usage = "serve"
    if launch.style == "settings" and launch.entrypoint != "config":
        usage = "llm" if launch.entrypoint == "LLM" else None
    values: dict = {}
    for dest in ("max_model_len", "max_num_seqs", "data_parallel_size"):
        opt = parsed.last(dest)
        if opt is not None:
            value = opt.int_value
            if value is None:
                return None
            values[dest] = value
    texts: dict = {}
    for dest in ("all2all_backend", "performance_mode"):
        opt = parsed.last(dest)
        if opt is not None:
            text = opt.known_value
            if text is None:
                return None
            texts[dest] = text
    ep_set, ep_on, _ = parsed.flag("enable_expert_parallel")
    cp_set, cp_on, _ = parsed.flag("enable_chunked_prefill")
    if (ep_set and ep_on is None) or (cp_set and cp_on is None):
        return None
    settings = getattr(ctx, "settings", None)
    found = local_facts.gpu_for(dict(getattr(launch, "resources", None) or {}), getattr(settings, "gpu_memory_gib", None))
    gpu = bd.Gpu(found.name, found.total_bytes / 2**30) if found is not None else None
    return bd.batched_tokens(
        ctx.version,
        usage=usage,
        gpu=gpu,
        batched_dp_moe=bd.uses_batched_dp_moe(
            ctx.version, all2all_backend=texts.get("all2all_backend"), expert_parallel=bool(ep_on),
            data_parallel_size=values.get("data_parallel_size", 1),
        ),
        throughput=texts.get("performance_mode") == "throughput",
        chunked_prefill=cp_on is not False,
        max_model_len=values.get("max_model_len"),
        max_num_seqs=values.get("max_num_seqs"),
    )


def _mode(settings: dict, version: Version) -> str:
    """The Mamba cache mode vLLM ends up with (models/config.py MambaModelConfig
    ``verify_and_update_config``: prefix caching off forces ``none``, on turns ``none`` into
    ``align``; 0.33 ignores ``--mamba-cache-mode``, engine/arg_utils.py L2304-2305)."""
    if settings.get("prefix_caching_off"):
        return "none"
    value = settings.get("mamba_cache_mode", "align")
    if version >= Version("0.33") or value == "none":
        return "align"
    return value


def _gpu_name(ctx) -> str | None:
    settings = getattr(ctx, "settings", None)
    gpu = local_facts.gpu_for(dict(getattr(ctx.launch, "resources", None) or {}), getattr(settings, "gpu_memory_gib", None))
    return gpu.name if gpu is not None and gpu.source != "gpu-memory-gib" else None


# ---------------------------------------------------------------------------
# LMCache releases (rules/data/lmcache.json, generated by tools/extract_lmcache.py)


LMCACHE_DATA = Path(__file__).resolve().parent.parent / "data" / "lmcache.json"


class LMCacheRelease(Frozen):
    """What one lmcache release's `lmcache server` accepts, and its connector's checks."""

    __slots__ = ("version", "options", "connector")

    version: Version
    options: dict[str, dict]  # every option string (negative `--no-` names too) -> its entry
    connector: dict

    def __init__(self, version, options, connector):
        _set(self, "version", version)
        _set(self, "options", options)
        _set(self, "connector", connector)

    def option(self, name: str) -> dict | None:
        return self.options.get(name)

    def default(self, name: str):
        entry = self.options.get(name)
        return None if entry is None else entry.get("default")

    def required(self, name: str) -> bool:
        entry = self.options.get(name)
        return bool(entry and entry.get("required"))

    @property
    def step_upper_bound(self) -> bool:
        """The connector rejects ``max_num_batched_tokens >= 2 * block_size`` (align mode)."""
        return bool((self.connector.get("mamba-step-check") or {}).get("upper-bound"))


@cache
def lmcache_releases() -> tuple[LMCacheRelease, ...]:
    with LMCACHE_DATA.open(encoding="utf-8") as f:
        raw = json.load(f)
    out = []
    for v, rel in raw["releases"].items():
        options: dict[str, dict] = {}
        for entry in rel["server-options"]:
            for n in [*entry["names"], *entry.get("negative_names", [])]:
                options.setdefault(n, entry)
        out.append(LMCacheRelease(Version(v), options, rel.get("connector") or {}))
    return tuple(sorted(out, key=lambda r: r.version))


def lmcache_release(version: Version | None) -> LMCacheRelease | None:
    """The facts for ``version``: the newest recorded release at or before it; with no version
    (nothing in the file says it), the newest recorded release.  None before the first."""
    releases = lmcache_releases()
    if version is None:
        return releases[-1]
    found = [r for r in releases if r.version <= version]
    return found[-1] if found else None


def lmcache_first_with(name: str) -> Version | None:
    """The first recorded lmcache release whose server accepts ``name``."""
    for r in lmcache_releases():
        if name in r.options:
            return r.version
    return None


# ---------------------------------------------------------------------------
# LMCache servers beside a vLLM launch


class LMCacheServer(Record):
    __slots__ = ("launch", "options", "uncertain")

    launch: Launch
    options: dict[str, list[tuple[Token, Token | None]]]  # option name -> (name token, value token)
    uncertain: bool  # a splat or opaque option name may hide anything

    def __init__(self, launch, options, uncertain):
        self.launch = launch
        self.options = options
        self.uncertain = uncertain

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
    """(launch context, hybrid model) of vLLM launches in ``fctx`` that use
    ``LMCacheMPConnector`` with a model their release treats as hybrid, in the rule's range."""
    for lctx in fctx.launches:
        if lctx.launch.program != "vllm" or not rule.applies_to(lctx.version):
            continue
        found = connector(lctx.parsed)
        if found is None or found[0] != "LMCacheMPConnector":
            continue
        model = hybrid_model(lctx)
        if model is None:
            continue
        yield lctx, model


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
