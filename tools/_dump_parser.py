"""Dump the real ``vllm serve`` parser of the vLLM installed in *this* interpreter.

Run by ``tools/extract_inventory.py`` with the python of a throwaway per-release
venv (never imported by the project itself)::

    <venv>/bin/python tools/_dump_parser.py OUT.json PROBE_DIR

It builds the parser by calling vLLM's own CLI entry point
(``vllm.entrypoints.cli.main.main`` with ``sys.argv == ["vllm"]``, which builds
every subcommand parser and prints the top-level help), keeping a reference to
each ``ArgumentParser`` it creates.  Nothing of vLLM is replaced: the only
instrumentation wraps ``ArgumentParser.__init__`` and
``_ActionsContainer._add_action`` to *record* the parsers and the vLLM source
line that added each action, and both wrappers return exactly what the
originals return.

The output is a raw dump (file paths are made relative, values are made
JSON-safe) that ``tools/extract_inventory.py`` post-processes into
``rules/data/releases/<version>.json``.  It must run on every Python the venvs
use, so it sticks to the standard library.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import enum
import io
import json
import logging
import math
import os
import re
import sys
import tokenize
import traceback
import warnings

OUT, PROBE_DIR = (sys.argv[1], sys.argv[2]) if __name__ == "__main__" else (None, None)  # (imported by the tests)
PROBE_TOKEN = "<probe-dir>"

# The probes: argv after ``vllm serve``.  ``<probe-dir>`` is replaced by the
# folder holding the probe YAML files, and replaced back in every result.
PROBES: list[list[str]] = [
    ["m"],
    ["m", "--max-num-seqs", "8"],
    ["m", "--max-num-seq", "8"],
    ["m", "--max-num", "8"],
    ["m", "--max_num_seqs", "8"],
    ["m", "--max_num_seqs=8"],
    ["m", "--max-num-seqs=8"],
    ["m", "--max-num-seqs", "8", "--max-num-seqs", "9"],
    ["m", "-tp", "2"],
    ["m", "-tp=2"],
    ["m", "-tp2"],
    ["m", "--compilation-config.mode", "3"],
    ["m", "--compilation-config.mode=3"],
    ["m", "--compilation_config.mode", "3"],
    ["m", "--compilation-config", '{"mode": 3}'],
    ["m", "--compilation-config={\"mode\": 3}"],
    ["m", "--compilation-config.mode", "3", "--compilation-config", '{"mode": 2}'],
    ["m", "--compilation-config", '{"mode": 2}', "--compilation-config.mode", "3"],
    ["m", "--compilation-config.cudagraph_capture_sizes+", "1,2", "--compilation-config.cudagraph_capture_sizes+", "4"],
    ["m", "--compilation-conf.mode", "3"],
    ["m", "-O3"],
    ["m", "-O", "3"],
    ["m", "-O=3"],
    ["m", "--max-model-len 8192"],
    ["m", "--max-model-len", "8192"],
    ["m", "--max-model-len=8192"],
    ["m", "--max-model-len", "32k"],
    ["m", "--max-model-len", "32K"],
    ["m", "--max-model-len", "1.5K"],
    ["m", "--max-model-len", "auto"],
    ["m", "--max-model-len", "-1"],
    ["m", "--enable-chunked", "1"],
    ["m", "--enable-chunked"],
    ["m", "--enable-chunked-prefill"],
    ["m", "--enable-chunked-prefill", "false"],
    ["m", "--enable-chunked-prefill=false"],
    ["--enable-chunked-prefill", "false"],
    ["--enable-prefix-caching", "m"],
    ["m", "--enable-prefix-caching", "--no-enable-prefix-caching"],
    ["m", "--disable-chunked-prefill"],
    ["m", "--no-disable-log-stats"],
    ["m", "--enable-log-stats"],
    ["m", "--enable-mamba"],
    ["m", "--enable-prefix-caching"],
    ["m", "--no-enable-prefix-caching"],
    ["m", "--no-enable-prefix"],
    ["m", "--disable-prefix-caching"],
    ["m", "--disable-log-requests"],
    ["m", "--enable-log-requests"],
    ["m", "--disable-log-stats"],
    ["--model", "m1"],
    ["--model=m1"],
    ["m0", "--model", "m1"],
    ["m", "--model", "m1", "--model", "m2"],
    ["--served-model-name", "x"],
    ["--served-model-name", "x", "m"],
    ["m", "--config=<probe-dir>/x.yaml"],
    ["m", "--config", "<probe-dir>/x.yaml"],
    ["--config", "<probe-dir>/x.yaml"],
    ["--config", "<probe-dir>/model.yaml"],
    ["m", "--config", "<probe-dir>/x.yaml", "--max-num-seqs", "4"],
    ["m", "--config", "<probe-dir>/x.json"],
    ["m", "--config", "<probe-dir>/true.yaml"],
    ["m", "--gpu-memory-utilization", "-0.5"],
    ["m", "--gpu-memory-utilization", "-0.5", "--max-num-seqs", "8"],
    ["m", "--gpu-memory-utilization=-0.5"],
    ["m", "--gpu-memory-utilization", "-.5"],
    ["m", "--gpu-memory-utilization", "-5e-1"],
    ["m", "--gpu-memory-utilization", "0.5"],
    ["m", "--seed", "-1"],
    ["m", "--tensor-parallel-size", "two"],
    ["m", "--dtype", "float17"],
    ["m", "--port", "80"],
    ["m", "--task", "embed"],
    ["m", "--mamba-cache-mode", "all"],
    ["m", "--mamba-cache-mode", "align"],
    ["m", "--kv-cache-dtype", "fp8"],
    ["m", "--api-key", "a", "b"],
    ["m", "--no-such-option", "1"],
    ["m", "extra-positional"],
]

YAML_FILES = {
    "x.yaml": "max-num-seqs: 8\nenable-prefix-caching: false\n",
    "model.yaml": "model: m2\nmax_num_seqs: 8\n",
    "x.json": '{"max-num-seqs": 8}\n',
    "true.yaml": "enable-prefix-caching: true\nenable-chunked-prefill: false\n",
}

_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")
_OPT_TOKEN = re.compile(r"(?<![\w-])--[a-z0-9][a-z0-9_.-]*[a-z0-9](?![\w-])")
_ENV_TOKEN = re.compile(r"\bVLLM_[A-Z0-9_]+")
_SITE: list[str] = []


def clean(text: str) -> str:
    """Strip machine-dependent parts (memory addresses, install paths) from text."""
    text = _ADDR.sub("", text)
    text = text.replace(PROBE_DIR, PROBE_TOKEN)
    for site in _SITE:
        text = text.replace(site, "<site-packages>/")
    return text


def jsonify(value, depth: int = 0):
    """A JSON-native copy of ``value``; anything else becomes ``{"repr": ...}``."""
    if value is None or type(value) in (bool, str, int):
        return value
    if type(value) is float:
        return value if math.isfinite(value) else {"repr": repr(value)}
    if type(value) in (list, tuple):
        return [jsonify(v, depth + 1) for v in value]
    if type(value) in (set, frozenset):
        items = [jsonify(v, depth + 1) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if type(value) is dict and all(type(k) is str for k in value):
        return {k: jsonify(v, depth + 1) for k, v in value.items()}
    if isinstance(value, enum.Enum):
        return {"repr": f"{type(value).__name__}.{value.name}"}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"repr": clean(_dataclass_repr(value))}
    if callable(value):
        return {"repr": "callable:" + describe_callable_name(value)}
    return {"repr": clean(repr(value))}


def _dataclass_repr(obj) -> str:
    """``Name(field=value, ...)`` listing only the fields that differ from a fresh instance."""
    cls = type(obj)
    try:
        fresh = cls()
    except Exception:
        fresh = None
    parts = []
    for f in dataclasses.fields(obj):
        if not f.repr:
            continue
        v = getattr(obj, f.name, None)
        if fresh is not None:
            try:
                if getattr(fresh, f.name, None) == v:
                    continue
            except Exception:
                pass
        if isinstance(v, enum.Enum):
            text = f"{type(v).__name__}.{v.name}"
        else:
            text = json.dumps(jsonify(v), sort_keys=True)
        parts.append(f"{f.name}={text}")
    return f"{cls.__name__}({', '.join(parts)})"


def describe_callable_name(fn) -> str:
    mod = getattr(fn, "__module__", None) or ""
    qual = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    return f"{mod}.{qual}" if mod else qual


def describe_type(fn):
    """A structured description of an action's ``type`` callable (closures are opened)."""
    if fn is None:
        return None
    if isinstance(fn, type):
        return {"kind": "class", "name": describe_callable_name(fn)}
    out = {"kind": "callable", "name": describe_callable_name(fn)}
    closure = getattr(fn, "__closure__", None)
    code = getattr(fn, "__code__", None)
    if closure and code is not None:
        inner = {}
        for name, cell in zip(code.co_freevars, closure):
            try:
                v = cell.cell_contents
            except ValueError:
                continue
            if callable(v):
                inner[name] = describe_type(v)
            elif type(v) in (int, str, bool, float) or v is None:
                inner[name] = v
        if inner:
            out["closure"] = inner
    defaults = getattr(fn, "__defaults__", None)
    if defaults and code is not None:
        names = code.co_varnames[code.co_argcount - len(defaults):code.co_argcount]
        kw = {}
        for n, d in zip(names, defaults):
            if isinstance(d, type):
                kw[n] = {"kind": "class", "name": describe_callable_name(d),
                         "dataclass": dataclasses.is_dataclass(d)}
        if kw:
            out["defaults"] = kw
    return out


def rel(path: str) -> str:
    for site in _SITE:
        if path.startswith(site):
            return path[len(site):]
    return os.path.basename(path)


# --- instrumentation: record, never change -----------------------------------

_parsers: list[argparse.ArgumentParser] = []
_sites: dict[int, str] = {}
_orig_init = argparse.ArgumentParser.__init__
_orig_add_action = argparse._ActionsContainer._add_action


def _recording_init(self, *args, **kwargs):
    result = _orig_init(self, *args, **kwargs)
    _parsers.append(self)
    return result


def _recording_add_action(self, action):
    result = _orig_add_action(self, action)
    if id(action) not in _sites:
        for frame in reversed(traceback.extract_stack()[:-1]):
            f = frame.filename.replace(os.sep, "/")
            if "/vllm/" in f and not f.endswith("/vllm/utils/argparse_utils.py"):
                _sites[id(action)] = f"{rel(f)}:{frame.lineno}"
                break
    return result


def build():
    import site

    _SITE.extend(sorted({p.rstrip("/") + "/" for p in site.getsitepackages()}, key=len, reverse=True))
    argparse.ArgumentParser.__init__ = _recording_init
    argparse._ActionsContainer._add_action = _recording_add_action
    # arg_utils reads ``--help`` from sys.argv at import time to decide whether to
    # load help texts from docstrings; load them so deprecation notes are visible.
    sys.argv = ["vllm", "serve", "--help"]
    import vllm.engine.arg_utils  # noqa: F401

    sys.argv = ["vllm"]
    from vllm.entrypoints.cli.main import main

    with contextlib.redirect_stdout(io.StringIO()):
        main()
    argparse.ArgumentParser.__init__ = _orig_init
    argparse._ActionsContainer._add_action = _orig_add_action
    top = _parsers[0]
    serve = top._subparsers._group_actions[0].choices["serve"]
    return top, serve


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _reset_warn_once():
    """vLLM's ``warning_once`` is lru-cached; clear it so every probe sees its own warnings."""
    import vllm.logger as vlog

    for name in dir(vlog):
        fn = getattr(vlog, name)
        if callable(getattr(fn, "cache_clear", None)):
            fn.cache_clear()


def run_probe(top, argv):
    real = [a.replace(PROBE_TOKEN, PROBE_DIR) for a in argv]
    err = io.StringIO()
    handler = _Collect()
    vllm_logger = logging.getLogger("vllm")
    _reset_warn_once()
    vllm_logger.addHandler(handler)
    result: dict
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                ns = top.parse_args(["serve", *real])
        result = {"ok": True, "ns": ns}
    except SystemExit as e:
        text = err.getvalue()
        msg = text.rsplit("error: ", 1)[-1].strip() if "error: " in text else text.strip()
        result = {"ok": False, "exit": e.code, "error": clean(msg)}
        caught = []
    except Exception as e:  # vLLM raises plain exceptions from parse_args too
        result = {"ok": False, "error": clean(f"{type(e).__name__}: {e}")}
        caught = []
    finally:
        vllm_logger.removeHandler(handler)
    msgs = [clean(m) for m in handler.messages] + [clean(str(w.message)) for w in caught]
    if msgs:
        result["warnings"] = msgs
    return result


def scan_strings(relpath: str):
    """(text, line) of every string literal in a vLLM source file that mentions deprecation."""
    import vllm

    root = os.path.dirname(os.path.dirname(vllm.__file__))
    path = os.path.join(root, relpath)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    found = []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        if not text:
            continue
        low = text.lower()
        cut = min((i for i in (low.find("deprecat"), low.find("will be removed")) if i >= 0), default=-1)
        if cut < 0:
            continue
        # option names written before the deprecation wording ("--x is deprecated",
        # "the `--model` option will be removed"); dotted names are JSON sub-keys.
        names = [m.group(0) for m in _OPT_TOKEN.finditer(text[:cut])]
        found.append({"options": [n for n in names if "." not in n],
                      "env": _ENV_TOKEN.findall(text[:cut]),
                      "source": f"{relpath}:{node.lineno}"})
    return found


def env_dump():
    import vllm
    import vllm.envs as envs

    names = sorted(envs.environment_variables)
    root = os.path.dirname(os.path.dirname(vllm.__file__))
    path = os.path.join(root, "vllm/envs.py")
    with open(path, encoding="utf-8") as fh:
        src = fh.read()
    tree = ast.parse(src)
    comments: dict[int, str] = {}
    with open(path, "rb") as fh:
        for tok in tokenize.tokenize(fh.readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.string
    marks: dict[str, list[dict]] = {}
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == "environment_variables"
                and isinstance(node.value, ast.Dict)):
            continue
        prev_end = node.value.lineno
        for key, value in zip(node.value.keys, node.value.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            # comment lines between the previous entry and this key
            for line in range(prev_end + 1, key.lineno):
                c = comments.get(line, "")
                if "deprecat" in c.lower():
                    marks.setdefault(key.value, []).append(
                        {"how": "comment", "source": f"vllm/envs.py:{line}"})
            for sub in ast.walk(value):
                if isinstance(sub, ast.Name) and "deprecat" in sub.id.lower():
                    marks.setdefault(key.value, []).append(
                        {"how": f"call:{sub.id}", "source": f"vllm/envs.py:{sub.lineno}"})
            prev_end = value.end_lineno
    # config code that still reads an env var and warns that it is deprecated
    paths = ["vllm/engine/arg_utils.py"] + [
        f"vllm/config/{n}" for n in sorted(os.listdir(os.path.join(root, "vllm", "config")))
        if n.endswith(".py")]
    for relpath in paths:
        with open(os.path.join(root, relpath), encoding="utf-8") as fh:
            ctree = ast.parse(fh.read())
        for node in ast.walk(ctree):
            if not isinstance(node, ast.Call):
                continue
            fname = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if "deprecated_env" not in fname:
                continue
            for arg in node.args:
                if (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                        and arg.value in envs.environment_variables):
                    marks.setdefault(arg.value, []).append(
                        {"how": f"call:{fname}", "source": f"{relpath}:{node.lineno}"})
                    break
    for s in scan_strings("vllm/envs.py"):
        if s["env"] and s["env"][0] in envs.environment_variables:
            marks.setdefault(s["env"][0], []).append({"how": "message", "source": s["source"]})
    return {"names": names, "marks": marks}


def shown_help(formatter, action):
    """The help text ``serve --help`` shows for ``action``, unwrapped, or None.

    The same steps as argparse's ``HelpFormatter._format_action``: no text for
    SUPPRESS or an empty help; otherwise the parser's own formatter class expands
    it (``_expand_help``: ``%(default)s``, ``%(choices)s``, ``%(prog)s`` ..., and the
    ``(default: ...)`` suffix of ArgumentDefaultsHelpFormatter), before wrapping.
    """
    if action.help == argparse.SUPPRESS or not action.help or not action.help.strip():
        return None
    return formatter._expand_help(action).rstrip()


def main():
    for name, text in YAML_FILES.items():
        with open(os.path.join(PROBE_DIR, name), "w", encoding="utf-8") as fh:
            fh.write(text)
    top, serve = build()
    from vllm.utils.argparse_utils import FlexibleArgumentParser
    from vllm.platforms import current_platform
    import vllm

    argparse_deprecated = set()
    for holder in (FlexibleArgumentParser, serve):
        d = getattr(holder, "_deprecated", None)
        if isinstance(d, (set, frozenset)):
            argparse_deprecated |= {id(a) for a in d}

    group_of = {}
    for g in serve._action_groups:
        for a in g._group_actions:
            group_of.setdefault(id(a), g.title)

    # Every string the parser accepts for an action.  vLLM >= 0.33 narrows
    # ``action.option_strings`` to the names shown in help after registering
    # (EnableDisableAction), so the parser's own table is the truth.
    accepted: dict[int, list[str]] = {}
    for opt, a in serve._option_string_actions.items():
        accepted.setdefault(id(a), []).append(opt)

    formatter = serve._get_formatter()
    actions = []
    for a in serve._actions:
        cls = type(a)
        names = list(a.option_strings) + [o for o in accepted.get(id(a), []) if o not in a.option_strings]
        negative = getattr(a, "negative_option_strings", None)
        actions.append({
            "option_strings": names,
            "visible_option_strings": list(a.option_strings),
            "negative_option_strings": None if negative is None else sorted(negative),
            "dest": a.dest,
            "class": describe_callable_name(cls),
            "bases": [describe_callable_name(b) for b in cls.__mro__],
            "nargs": a.nargs,
            "const": jsonify(a.const),
            "default": jsonify(a.default),
            "type": describe_type(a.type),
            "choices": None if a.choices is None else jsonify(a.choices),
            "choices_is_set": isinstance(a.choices, (set, frozenset)),
            "required": bool(a.required),
            "help_suppressed": a.help == argparse.SUPPRESS,
            "help_mentions_deprecated": isinstance(a.help, str) and "deprecat" in a.help.lower(),
            "help_deprecation_notice": isinstance(a.help, str) and bool(re.search(
                r"\b(is|are|now|has been|was)\s+deprecated\b|^\s*\[?deprecated\b|\bdeprecated[:;,.]\s",
                a.help, re.IGNORECASE)),
            "argparse_deprecated": bool(getattr(a, "deprecated", False)) or id(a) in argparse_deprecated,
            "group": group_of.get(id(a)),
            "site": _sites.get(id(a)),
            "help_text": shown_help(formatter, a),
        })

    baseline = run_probe(top, ["m"])
    base_ns = vars(baseline["ns"])
    probes = []
    for argv in PROBES:
        r = run_probe(top, argv)
        if r["ok"]:
            ns = vars(r["ns"])
            diff = {}
            for k in sorted(set(ns) | set(base_ns)):
                v = jsonify(ns.get(k))
                if v != jsonify(base_ns.get(k)) or (k not in base_ns):
                    diff[k] = v
            r = {"ok": True, "namespace": json.loads(clean(json.dumps(diff))),
                 **({"warnings": r["warnings"]} if "warnings" in r else {})}
        probes.append({"argv": argv, **r})

    # the module that defines make_arg_parser moved between releases
    # (entrypoints/openai, entrypoints/launchers, entrypoints/common)
    import vllm.entrypoints.cli.serve as serve_module

    cli_args = sys.modules[serve_module.make_arg_parser.__module__].__file__
    messages = []
    for relpath in sorted({"vllm/engine/arg_utils.py", rel(cli_args.replace(os.sep, "/")),
                           "vllm/entrypoints/cli/serve.py", "vllm/utils/argparse_utils.py"}):
        messages.extend(scan_strings(relpath))
    config_dir = os.path.join(os.path.dirname(vllm.__file__), "config")
    for name in sorted(os.listdir(config_dir)):
        if name.endswith(".py"):
            messages.extend(scan_strings(f"vllm/config/{name}"))

    import torch

    raw = {
        "vllm_version": vllm.__version__,
        "python": "%d.%d" % sys.version_info[:2],
        "torch": torch.__version__,
        "platform": current_platform.device_type or "unspecified",
        "top": {"prog": top.prog, "allow_abbrev": top.allow_abbrev},
        "parser": {
            "prog": serve.prog,
            "class": describe_callable_name(type(serve)),
            "allow_abbrev": serve.allow_abbrev,
            "prefix_chars": serve.prefix_chars,
            "has_pull_args_from_config": hasattr(top, "_pull_args_from_config"),
        },
        "actions": actions,
        "probes": probes,
        "deprecation_messages": messages,
        "env": env_dump(),
    }
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(raw, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
