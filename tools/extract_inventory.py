"""Extract per-release option inventories from vLLM's real ``vllm serve`` parser.

Regenerate every committed inventory (one command, from the repository root)::

    .venv/bin/python -m tools.extract_inventory --all

or only some releases::

    .venv/bin/python -m tools.extract_inventory 0.33.0 0.32.0

For each release this

1. downloads the release wheel from PyPI (``tools.wheels.wheel_path``, cached in
   ``tools/.cache/wheels``);
2. builds a throwaway venv ``tools/.cache/venv-<version>`` with Python 3.11:
   ``torch==2.13.0`` (the CPU build when the machine's pip finds one, as here),
   the wheel's own ``Requires-Dist`` (markers evaluated for CPython 3.11 on
   x86_64 Linux) minus the GPU-only packages in :data:`GPU_ONLY`, every
   package pinned by :data:`LOCKS`, and finally ``vllm==<version> --no-deps``;
3. runs ``tools/_dump_parser.py`` with the venv's python in a scrubbed
   environment (no ``VLLM_*``/``HF_*`` variables, ``VLLM_TARGET_DEVICE=cpu``,
   ``PYTHONHASHSEED=0``); the script builds the parser by calling vLLM's own
   CLI entry point, walks ``parser._actions`` of the ``serve`` subparser and
   runs the probes of ``tools/_dump_parser.py`` through ``parse_args``;
4. post-processes that raw dump (:func:`build_inventory`) into
   ``rules/data/releases/<version>.json``.

``--relock VERSION`` rebuilds a venv from the unpinned requirements and prints
the frozen versions, to refresh :data:`LOCKS` when a release is added.

Output is deterministic: options keep parser order, sets are sorted, memory
addresses and install paths are stripped, nothing records time or host.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tools.wheels import wheel_path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(__file__).resolve().parent / ".cache"
OUT_DIR = ROOT / "rules" / "data" / "releases"
DUMP_SCRIPT = Path(__file__).resolve().parent / "_dump_parser.py"
RELEASES = ["0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"]
SCHEMA = 1
PYTHON = "3.11"  # torch's CPU wheel on the maintainers' machines is cp311
TORCH = "2.13.0"
MARKER_ENV = {
    "python_version": PYTHON, "python_full_version": PYTHON + ".7",
    "platform_machine": "x86_64", "platform_system": "Linux", "sys_platform": "linux",
    "os_name": "posix", "implementation_name": "cpython",
    "platform_python_implementation": "CPython", "extra": "",
}

# Packages in Requires-Dist that only serve CUDA kernels or media decoding and
# are not needed to build the parser (torch itself is installed separately).
GPU_ONLY = frozenset(canonicalize_name(n) for n in [
    "torch", "torchaudio", "torchvision", "torchcodec", "PyNvVideoCodec",
    "flashinfer-python", "flashinfer-cubin", "flashinfer-jit-cache", "apache-tvm-ffi",
    "tilelang", "nvidia-cudnn-frontend", "nvidia-cutlass-dsl", "nvtx",
    "fastsafetensors", "instanttensor", "quack-kernels", "tokenspeed-mla",
    "humming-kernels", "cupy-cuda12x", "cupy-cuda13x", "deep-gemm", "deep-ep",
])

# Frozen dependency versions per release (``--relock`` prints them).  Kept as a
# common base plus per-release differences.
LOCK_BASE: dict[str, str] = {
    "agent-detector": "2.0.0", "aiohappyeyeballs": "2.7.1", "aiohttp": "3.14.5",
    "aiosignal": "1.4.0", "annotated-doc": "0.0.7", "annotated-types": "0.8.0",
    "anthropic": "2.14.0", "anyio": "4.16.0", "apache-tvm-ffi": "0.1.15.post2", "astor": "0.8.1",
    "attrs": "26.1.0", "blake3": "1.0.11", "cachetools": "8.0.2", "cbor2": "6.3.0",
    "certifi": "2026.10.19.post1", "cffi": "2.1.1", "charset-normalizer": "3.5.3", "click": "8.5.1",
    "cloudpickle": "3.1.3", "compressed-tensors": "0.17.0", "cryptography": "50.0.2",
    "depyf": "0.20.0", "detect-installer": "0.2.1", "dill": "0.4.1", "dnspython": "2.9.2",
    "docstring-parser": "0.18.0", "einops": "0.8.2", "email-validator": "2.4.0",
    "fastapi": "0.136.3", "fastapi-cli": "0.0.34", "fastapi-cloud-cli": "0.28.0",
    "fastar": "0.12.0", "filelock": "4.3.1", "frozenlist": "1.8.0", "fsspec": "2026.9.0",
    "googleapis-common-protos": "1.76.0", "grpcio": "1.85.3", "h11": "0.16.0", "hf-xet": "1.8.0",
    "httpcore": "1.0.9", "httpcore2": "2.16.2", "httptools": "0.9.0", "httpx": "0.28.1",
    "httpx2": "2.16.2", "idna": "3.20", "ijson": "3.6.0", "interegular": "0.3.3", "jinja2": "3.1.6",
    "jiter": "0.19.0", "jmespath": "1.1.0", "jsonschema": "4.26.0",
    "jsonschema-specifications": "2025.9.1", "lark": "1.2.2", "llguidance": "1.7.6",
    "llvmlite": "0.47.0", "lm-format-enforcer": "0.11.3", "loguru": "0.7.3",
    "markdown-it-py": "4.3.0", "markupsafe": "3.0.4", "mcp": "2.3.0", "mcp-types": "2.3.0",
    "mdurl": "0.1.2", "mistral-common": "1.13.1", "model-hosting-container-standards": "0.1.16",
    "mpmath": "1.3.0", "msgspec": "0.23.0", "multidict": "7.2.1", "networkx": "3.6.1",
    "ninja": "1.13.2", "numba": "0.65.0", "numpy": "2.3.5", "openai": "3.57.0",
    "opencv-python-headless": "5.0.0.93", "opentelemetry-api": "1.45.2",
    "opentelemetry-exporter-http-transport": "0.66b2", "opentelemetry-exporter-otlp": "1.45.2",
    "opentelemetry-exporter-otlp-common": "0.66b2",
    "opentelemetry-exporter-otlp-proto-common": "1.45.2",
    "opentelemetry-exporter-otlp-proto-grpc": "1.45.2",
    "opentelemetry-exporter-otlp-proto-http": "1.45.2", "opentelemetry-proto": "1.45.2",
    "opentelemetry-sdk": "1.45.2", "opentelemetry-semantic-conventions": "0.66b2",
    "opentelemetry-semantic-conventions-ai": "0.5.1", "outlines-core": "0.2.14",
    "packaging": "26.4", "partial-json-parser": "0.2.1.1.post7", "pillow": "13.0.0",
    "prometheus-client": "0.26.0", "prometheus-fastapi-instrumentator": "8.1.0",
    "propcache": "0.5.4", "protobuf": "7.36.2", "psutil": "7.2.2", "py-cpuinfo": "9.0.0",
    "pybase64": "1.5.1", "pycountry": "26.2.16", "pycparser": "3.12", "pydantic": "2.14.4",
    "pydantic-core": "2.50.5", "pydantic-extra-types": "2.11.1", "pydantic-settings": "2.16.3",
    "pygments": "2.21.0", "pyjwt": "2.15.1", "python-dotenv": "1.2.4",
    "python-json-logger": "4.2.0", "python-multipart": "0.0.34", "pyyaml": "6.0.4",
    "pyzmq": "27.3.0", "referencing": "0.37.0", "regex": "2026.11.19", "requests": "2.34.2",
    "rich": "15.0.0", "rich-toolkit": "0.20.6", "rignore": "0.8.1", "rpds-py": "2026.9.1",
    "safetensors": "0.8.0", "sentencepiece": "0.2.3", "sentry-sdk": "2.75.0",
    "setproctitle": "1.3.8", "shellingham": "1.5.4", "sniffio": "1.3.1", "sse-starlette": "3.7.0",
    "starlette": "1.10.0", "supervisor": "4.3.0", "sympy": "1.14.0", "tiktoken": "0.14.0",
    "tokenizers": "0.23.3", "torch": "2.13.0", "tqdm": "4.70.1", "triton": "3.9.0",
    "truststore": "0.10.5", "typer": "0.29.2", "typing-extensions": "4.16.0",
    "typing-inspection": "0.4.5", "urllib3": "2.8.0", "uvicorn": "0.54.0", "uvloop": "0.23.0",
    "watchfiles": "1.3.0", "websockets": "17.4", "yarl": "1.25.1",
}
LOCK_DIFF: dict[str, dict[str, str]] = {
    "0.28.0": {
        "huggingface-hub": "2.4.0", "openai-harmony": "0.0.8", "transformers": "5.24.0",
        "xgrammar": "0.2.9",
    },
    "0.29.0": {
        "huggingface-hub": "2.4.0", "openai-harmony": "0.0.8", "transformers": "5.24.0",
        "xgrammar": "0.2.9",
    },
    "0.30.0": {
        "huggingface-hub": "2.4.0", "openai-harmony": "0.0.8", "transformers": "5.24.0",
        "xgrammar": "0.2.9",
    },
    "0.31.0": {
        "huggingface-hub": "1.33.0", "oss-harmony": "0.0.11", "transformers": "5.17.0",
        "xgrammar": "0.2.7",
    },
    "0.32.0": {
        "huggingface-hub": "2.4.0", "oss-harmony": "0.0.11", "transformers": "5.19.0",
        "xgrammar": "0.2.8",
    },
    "0.33.0": {
        "huggingface-hub": "2.4.0", "orjson": "3.13.0", "oss-harmony": "0.0.11",
        "transformers": "5.20.2", "xgrammar": "0.2.8",
    },
}


def lock_for(version: str) -> dict[str, str]:
    lock = dict(LOCK_BASE)
    lock.update(LOCK_DIFF.get(version, {}))
    return {k: v for k, v in lock.items() if v}


# --- requirements and venv ---------------------------------------------------------


def wheel_metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        return zf.read(name).decode("utf-8")


def requirements(wheel: Path) -> list[str]:
    """The wheel's runtime Requires-Dist for CPython 3.11 / x86_64 Linux, minus GPU-only ones."""
    out = []
    for line in wheel_metadata(wheel).splitlines():
        if not line.startswith("Requires-Dist:"):
            continue
        req = Requirement(line.split(":", 1)[1].strip())
        if req.marker is not None and not req.marker.evaluate(MARKER_ENV):
            continue
        if canonicalize_name(req.name) in GPU_ONLY:
            continue
        req.marker = None
        out.append(str(req))
    return out


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _python() -> str:
    exe = os.environ.get("VLLM_LINT_VENV_PYTHON") or shutil.which(f"python{PYTHON}")
    if not exe:
        raise SystemExit(f"python{PYTHON} not found (set VLLM_LINT_VENV_PYTHON)")
    return exe


def _pip(venv: Path, *args: str) -> None:
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                    "--disable-pip-version-check", *args], check=True)


def ensure_venv(version: str, wheel: Path, pinned: bool = True) -> Path:
    venv = CACHE / f"venv-{version}"
    reqs = requirements(wheel)
    lock = lock_for(version) if pinned else {}
    if pinned and not lock:
        raise SystemExit(f"no lock for {version}: run --relock {version} and add it to LOCKS")
    stamp = hashlib.sha256(json.dumps([reqs, lock, wheel.name, TORCH]).encode()).hexdigest()
    marker = venv / ".vllm-lint-stamp"
    if marker.exists() and marker.read_text() == stamp:
        return venv
    if pinned and (venv / "bin" / "python").exists() and freeze(venv) == lock and _has_vllm(venv, version):
        marker.write_text(stamp)  # built earlier (e.g. by --relock) with exactly these pins
        return venv
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.run([_python(), "-m", "venv", str(venv)], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        req_file = Path(tmp) / "requirements.txt"
        req_file.write_text("\n".join(reqs) + "\n")
        extra: list[str] = []
        if lock:
            con = Path(tmp) / "constraints.txt"
            con.write_text("".join(f"{k}=={v}\n" for k, v in sorted(lock.items())))
            extra = ["-c", str(con)]
        # torch first, alone, so that the resolver keeps this build for the rest
        _pip(venv, f"torch=={TORCH}", *extra)
        _pip(venv, "-r", str(req_file), *extra)
    _pip(venv, "--no-deps", str(wheel))
    if pinned and freeze(venv) != lock:
        got = freeze(venv)
        diff = sorted(set(got.items()) ^ set(lock.items()))
        raise SystemExit(f"venv-{version} does not match LOCKS: {diff[:10]}")
    marker.write_text(stamp)
    return venv


def _has_vllm(venv: Path, version: str) -> bool:
    proc = subprocess.run([str(venv / "bin" / "python"), "-c",
                           "import importlib.metadata as m; print(m.version('vllm'))"],
                          capture_output=True, text=True)
    return proc.returncode == 0 and proc.stdout.strip() == version


def freeze(venv: Path) -> dict[str, str]:
    out = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list", "--format=json",
                          "--disable-pip-version-check"], check=True, capture_output=True, text=True)
    pins = {}
    for row in json.loads(out.stdout):
        name = canonicalize_name(row["name"])
        if name in {"vllm", "pip", "setuptools", "wheel"}:
            continue
        pins[name] = row["version"].split("+")[0]
    return dict(sorted(pins.items()))


# --- running the dump ---------------------------------------------------------------


def run_dump(venv: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="vllm-lint-") as tmp:
        home = Path(tmp) / "home"
        probe = Path(tmp) / "probe"
        home.mkdir()
        probe.mkdir()
        out = Path(tmp) / "raw.json"
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "PYTHONHASHSEED": "0",
            "TMPDIR": tmp,
            "COLUMNS": "80",
            "VLLM_TARGET_DEVICE": "cpu",
            "VLLM_NO_USAGE_STATS": "1",
            "HF_HUB_OFFLINE": "1",
        }
        proc = subprocess.run([str(venv / "bin" / "python"), str(DUMP_SCRIPT), str(out), str(probe)],
                              env=env, cwd=tmp, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout[-5000:] + proc.stderr[-5000:])
            raise SystemExit(f"dump failed in {venv}")
        return json.loads(out.read_text())


# --- post-processing ------------------------------------------------------------------

ACTIONS = {
    "argparse._StoreAction": "store",
    "argparse._StoreConstAction": "store_const",
    "argparse._StoreTrueAction": "store_true",
    "argparse._StoreFalseAction": "store_false",
    "argparse.BooleanOptionalAction": "boolean_optional",
    "argparse._AppendAction": "append",
    "argparse._AppendConstAction": "append_const",
    "argparse._CountAction": "count",
    "argparse._HelpAction": "help",
    "argparse._VersionAction": "version",
}
NO_VALUE = {"store_const", "store_true", "store_false", "boolean_optional", "append_const",
            "count", "help", "version"}
BUILTIN_TYPES = {"builtins.int": "int", "builtins.float": "float", "builtins.str": "str",
                 "builtins.bool": "bool"}
JSON_CALLABLES = {"json.loads"}
NAMED_CALLABLES = {"vllm.utils.argparse_utils.human_readable_int": "human_readable_int"}


def _short(qualified: str) -> str:
    """``pkg.mod.Class.method`` -> ``Class.method`` (drop the module path)."""
    parts = qualified.split(".")
    for i, part in enumerate(parts):
        if part[:1].isupper() or "<" in part:
            return ".".join(parts[i:]) if i else qualified
    return parts[-1]


def normalise_type(t: dict | None) -> tuple[str | None, bool, bool]:
    """(type name, value parsed as JSON, accepts the strings "" / "None" as null)."""
    if t is None:
        return None, False, False
    name = t["name"]
    if t["kind"] == "class":
        return BUILTIN_TYPES.get(name, "callable:" + _short(name)), False, False
    closure = t.get("closure", {})
    if name.endswith("optional_type.<locals>._optional_type") and "return_type" in closure:
        inner, is_json, _ = normalise_type(closure["return_type"])
        return inner, is_json, True
    if name.endswith("parse_type.<locals>._parse_type") and "return_type" in closure:
        return normalise_type(closure["return_type"])
    if name.endswith(".parse_dataclass") and t.get("defaults", {}).get("cls", {}).get("dataclass"):
        return "json", True, False
    if name in JSON_CALLABLES:
        return "json", True, False
    if name in NAMED_CALLABLES:
        return NAMED_CALLABLES[name], False, False
    if name.endswith(".union_dict_and_str"):
        # a JSON object when the value looks like one, else the plain string
        return "callable:union_dict_and_str", True, False
    return "callable:" + _short(name), False, False


def _action_kind(a: dict) -> str:
    if a["class"] in ACTIONS:
        return ACTIONS[a["class"]]
    if "argparse.BooleanOptionalAction" in a["bases"]:
        return "boolean_optional"  # e.g. vLLM's EnableDisableAction (see action_class)
    return "other:" + a["class"].rsplit(".", 1)[-1]


def _negative_names(a: dict, kind: str) -> list[str]:
    """Names that set the flag's dest to False.

    BooleanOptionalAction: the ``--no-x`` forms.  vLLM's EnableDisableAction
    (0.33+) lists its own negations (``--no-enable-x`` and ``--disable-x``).
    """
    if a.get("negative_option_strings") is not None:
        neg = set(a["negative_option_strings"])
        return [n for n in a["option_strings"] if n in neg]
    negating = (kind in {"boolean_optional", "store_false"}
                or (kind == "store_const" and a["const"] is False))
    return [n for n in a["option_strings"] if negating and n.startswith("--no-")]


def _deprecation(a: dict, messages_by_option: dict[str, str]) -> str | None:
    """The source of the first deprecation mark vLLM puts on this action, or None."""
    site = a.get("site") or "unknown"
    if a["argparse_deprecated"]:
        return site  # add_argument(..., deprecated=True)
    if "deprecat" in a["class"].rsplit(".", 1)[-1].lower():
        return site  # an Action subclass that warns when used
    if a["help_deprecation_notice"]:
        return site  # help text says the option is deprecated
    for name in a["option_strings"]:
        if name in messages_by_option:
            return messages_by_option[name]  # a warning/message names the option
    return None


def build_inventory(raw: dict, wheel: dict) -> dict:
    """Turn a raw dump of ``tools/_dump_parser.py`` into the committed inventory."""
    messages_by_option: dict[str, str] = {}
    for m in raw["deprecation_messages"]:
        for opt in m["options"]:
            messages_by_option.setdefault(opt, m["source"])

    positionals, options = [], []
    for a in raw["actions"]:
        if not a["option_strings"]:
            positionals.append({"dest": a["dest"], "nargs": a["nargs"]})
            continue
        kind = _action_kind(a)
        type_name, is_json, accepts_none = normalise_type(a["type"])
        nargs = a["nargs"]
        takes_value = kind not in NO_VALUE and nargs != 0
        option = {
            "names": list(a["option_strings"]),
            "negative_names": _negative_names(a, kind),
            "dest": a["dest"],
            "action": kind,
            "takes_value": takes_value,
            "nargs": nargs,
            "type": type_name,
            "accepts_none": accepts_none,
            "choices": a["choices"],
            "default": a["default"],
            "deprecated": False,
            "group": a["group"] if a["group"] not in ("options", "optional arguments") else None,
            "json": is_json,
            "required": a["required"],
            "hidden": a["help_suppressed"],
            # accepted by the parser but left out of --help (vLLM >= 0.33)
            "hidden_names": [n for n in a["option_strings"]
                             if n not in a.get("visible_option_strings", a["option_strings"])],
        }
        if a["class"] not in ACTIONS and kind in ACTIONS.values():
            option["action_class"] = a["class"].rsplit(".", 1)[-1]
        source = _deprecation(a, messages_by_option)
        if source:
            option["deprecated"] = True
            option["deprecated_source"] = source
        if a.get("help_text") is not None:
            option["help"] = a["help_text"]  # as ``serve --help`` shows it, unwrapped
        options.append(option)

    probes = {tuple(p["argv"]): p for p in raw["probes"]}

    def probe_ok(*argv: str) -> dict | None:
        p = probes.get(argv)
        return p["namespace"] if p and p["ok"] else None

    under = probe_ok("m", "--max_num_seqs", "8")
    dotted = probe_ok("m", "--compilation-config.mode", "3")
    plus = probe_ok("m", "--compilation-config.cudagraph_capture_sizes+", "1,2",
                    "--compilation-config.cudagraph_capture_sizes+", "4")
    has_config = any("--config" in o["names"] for o in options)

    env_marks = raw["env"]["marks"]
    env = []
    for name in sorted(n for n in raw["env"]["names"] if n.startswith("VLLM_")):
        entry = {"name": name, "deprecated": name in env_marks}
        if name in env_marks:
            entry["deprecated_source"] = env_marks[name][0]["source"]  # envs.py's own mark first
        env.append(entry)

    out_probes = []
    for p in raw["probes"]:
        q = {"argv": p["argv"], "ok": p["ok"]}
        if p["ok"]:
            q["namespace"] = p["namespace"]
        else:
            q["error"] = p["error"]
        if p.get("warnings"):
            q["warnings"] = p["warnings"]
        out_probes.append(q)

    return {
        "schema": SCHEMA,
        "vllm_version": raw["vllm_version"],
        "wheel": wheel,
        "extracted_with": {"python": raw["python"], "torch": raw["torch"].split("+")[0],
                           "platform": raw["platform"]},
        "parser": {
            "prog": raw["parser"]["prog"],
            "allow_abbrev": raw["parser"]["allow_abbrev"],
            "underscores_as_dashes": bool(under and under.get("max_num_seqs") == 8),
            "dotted_json": dotted is not None and "compilation_config" in dotted,
            "dotted_append_plus": bool(plus and "compilation_config" in plus),
            "config_option": "--config" if has_config and raw["parser"]["has_pull_args_from_config"] else None,
            # FlexibleArgumentParser rewrites -O3 / -O 3 / -O=3 to --optimization-level
            "optimization_shorthand": "-O" if probe_ok("m", "-O3") else None,
            "probes": out_probes,
        },
        "positionals": positionals,
        "options": options,
        "env": env,
    }


def render(inventory: dict) -> str:
    return json.dumps(inventory, indent=1, ensure_ascii=False) + "\n"


def env_read_elsewhere(wheel: Path, table: set[str]) -> list[dict]:
    """``VLLM_*`` variables that vLLM reads outside ``vllm/envs.py``'s table.

    A static walk (``ast``) over every module of the wheel for
    ``os.getenv("VLLM_X")``, ``os.environ.get/pop/setdefault("VLLM_X")``,
    ``os.environ["VLLM_X"]`` and ``"VLLM_X" in os.environ``: connectors and
    platform code read some variables directly, and a linter that only knew the
    table would call them unused.  Each name keeps its first place (sorted by path).
    """
    import ast
    import zipfile

    found: dict[str, str] = {}

    def environ(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "environ"

    def note(value: ast.AST, where: str) -> None:
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.startswith("VLLM_"):
            if value.value not in table:
                found.setdefault(value.value, where)

    with zipfile.ZipFile(wheel) as zf:
        for name in sorted(n for n in zf.namelist() if n.startswith("vllm/") and n.endswith(".py")):
            if name == "vllm/envs.py":
                continue
            try:
                tree = ast.parse(zf.read(name).decode("utf-8"))
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            for node in ast.walk(tree):
                where = f"{name}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                    f = node.func
                    if f.attr == "getenv" or (f.attr in ("get", "pop", "setdefault") and environ(f.value)):
                        note(node.args[0], where)
                elif isinstance(node, ast.Subscript) and environ(node.value):
                    note(node.slice, where)
                elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) and environ(node.comparators[0]):
                    note(node.left, where)
    return [{"name": n, "source": found[n]} for n in sorted(found)]


def extract(version: str) -> Path:
    wheel = wheel_path(version)
    venv = ensure_venv(version, wheel)
    raw = run_dump(venv)
    if raw["vllm_version"] != version:
        raise SystemExit(f"venv holds vllm {raw['vllm_version']}, expected {version}")
    inventory = build_inventory(raw, {"filename": wheel.name, "sha256": sha256(wheel)})
    inventory["env_elsewhere"] = env_read_elsewhere(wheel, {e["name"] for e in inventory["env"]})
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    out = OUT_DIR / f"{version}.json"
    out.write_text(render(inventory), encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.extract_inventory", description=__doc__.split("\n")[0])
    ap.add_argument("versions", nargs="*")
    ap.add_argument("--all", action="store_true", help=f"all committed releases: {' '.join(RELEASES)}")
    ap.add_argument("--relock", metavar="VERSION", help="build an unpinned venv and print its pins")
    ap.add_argument("--raw", metavar="FILE", help="also write the raw dump of the (single) version here")
    args = ap.parse_args(argv)
    if args.relock:
        venv = ensure_venv(args.relock, wheel_path(args.relock), pinned=False)
        print(json.dumps(freeze(venv), indent=1))
        return 0
    versions = RELEASES if args.all else args.versions
    if not versions:
        ap.error("give versions or --all")
    for v in versions:
        if args.raw:
            venv = ensure_venv(v, wheel_path(v))
            Path(args.raw).write_text(json.dumps(run_dump(venv), indent=1) + "\n")
        print(extract(v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
