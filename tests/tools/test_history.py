"""rules/data/history.json: option history of `vllm serve` from 0.6.0 to 0.27.1.

The data is produced by tools/extract_history.py (static AST reading of every
release's wheel). These tests need no network:

* invariants of the file;
* facts checked by reading the releases' code by hand (file:line in comments);
* the static extractor against the real-parser inventories
  (rules/data/releases/<v>.json, written by tools/extract_inventory.py): the
  0.27.1 -> 0.28.0 boundary always, and a full per-release comparison when the
  release wheel is in the local wheel cache (skipped otherwise, e.g. in CI).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
HISTORY = ROOT / "rules" / "data" / "history.json"
RELEASES_DIR = ROOT / "rules" / "data" / "releases"
WHEEL_CACHE = ROOT / "tools" / ".cache" / "wheels"


@pytest.fixture(scope="module")
def history() -> dict:
    return json.loads(HISTORY.read_text(encoding="utf-8"))


def accepted_in(history: dict, option: str, version: str) -> bool:
    rel = history["releases"]
    i = rel.index(version)
    return any(rel.index(a) <= i <= rel.index(b) for a, b in history["options"][option]["accepted"])


def accepted_set(history: dict, version: str) -> set[str]:
    return {o for o in history["options"] if accepted_in(history, o, version)}


# ----------------------------------------------------------------------------- invariants


def test_schema_and_releases(history):
    assert history["schema"] == 1
    rel = history["releases"]
    assert rel[0] == "0.6.0" and rel[-1] == "0.27.1"
    assert rel == sorted(rel, key=Version) and len(set(rel)) == len(rel)
    # .postN and four-part releases are scanned too
    assert {"0.6.1.post2", "0.8.5.post1", "0.9.0.1", "0.10.1.1"} <= set(rel)
    assert len(rel) == 60


def test_file_is_canonical(history):
    text = HISTORY.read_text(encoding="utf-8")
    assert text == json.dumps(history, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def test_option_entries(history):
    rel = history["releases"]
    keys = {"accepted", "takes_value", "deprecated_in", "deprecated_source", "replacement",
            "replacement_source"}
    for name, o in history["options"].items():
        assert name.startswith("-") and " " not in name, name
        assert set(o) == keys, name
        runs = o["accepted"]
        assert runs, name
        idx = [(rel.index(a), rel.index(b)) for a, b in runs]
        for (a, b) in idx:
            assert a <= b, name
        for (a1, b1), (a2, b2) in zip(idx, idx[1:]):
            assert b1 + 1 < a2, f"{name}: runs not maximal/ordered {runs}"
        assert isinstance(o["takes_value"], bool)
        if o["deprecated_in"] is not None:
            assert accepted_in(history, name, o["deprecated_in"]), name
            assert o["deprecated_source"].endswith(" in " + o["deprecated_in"])
        else:
            assert o["deprecated_source"] is None
        if o["replacement"] is not None:
            assert o["replacement"].startswith("--") and o["replacement"] != name
            assert o["replacement_source"] and o["replacement_source"].startswith("vllm/")
        else:
            assert o["replacement_source"] is None


def test_negative_forms_have_positive(history):
    for name in history["options"]:
        if name.startswith("--no-"):
            pos = "--" + name[5:]
            assert pos in history["options"], name
            for v in history["releases"]:
                if accepted_in(history, name, v):
                    assert accepted_in(history, pos, v), (name, v)
                    assert history["options"][name]["takes_value"] is False


def test_always_there(history):
    for name in ("--help", "-h", "--model", "--port", "--host", "--tensor-parallel-size", "-tp",
                 "--max-model-len", "--gpu-memory-utilization", "--dtype"):
        assert history["options"][name]["accepted"] == [["0.6.0", "0.27.1"]], name


# ----------------------------------------------------------------------------- verified facts

# option -> (accepted runs, takes_value, deprecated_in) read in the releases' code:
VERIFIED = {
    # 0.9.2 vllm/engine/arg_utils.py:921 add_argument('--use-v2-block-manager', action='store_true',
    # deprecated=True); its help turns into a deprecation note in 0.6.3.post1 (arg_utils.py:376);
    # gone from 0.10.0.
    "--use-v2-block-manager": ([["0.6.0", "0.9.2"]], False, "0.6.3.post1"),
    # 0.17.1 vllm/engine/arg_utils.py:951 ("--swap-space", **cache_kwargs["swap_space"]); gone in 0.18.0
    # (where LLM(swap_space=...) is only warned about and ignored).
    "--swap-space": ([["0.6.0", "0.17.1"]], True, None),
    # 0.10.0 vllm/engine/arg_utils.py:803 ("--num-scheduler-steps", **scheduler_kwargs[...]).
    "--num-scheduler-steps": ([["0.6.0", "0.10.0"]], True, None),
    # 0.6.6.post1 vllm/engine/arg_utils.py:402 store_true with a "Deprecated, use
    # --distributed-executor-backend=ray" help; gone in 0.7.0.
    "--worker-use-ray": ([["0.6.0", "0.6.6.post1"]], False, "0.6.0"),
    # 0.6.1 vllm/engine/arg_utils.py:1046 in AsyncEngineArgs.add_cli_args, help says DEPRECATED;
    # not in 0.6.1.post1.
    "--engine-use-ray": ([["0.6.0", "0.6.1"]], False, "0.6.0"),
    # 0.10.2 vllm/engine/arg_utils.py:532 ("--max-seq-len-to-capture", **model_kwargs[...]); gone in 0.11.0.
    "--max-seq-len-to-capture": ([["0.6.0", "0.10.2"]], True, None),
    # store_true until 0.10.0; 0.10.1 arg_utils.py:1752 BooleanOptionalAction with deprecated=True;
    # last in 0.16.0 (arg_utils.py:2087); not registered in 0.17.0 .. 0.27.1.
    "--disable-log-requests": ([["0.6.0", "0.16.0"]], False, "0.10.1"),
    "--no-disable-log-requests": ([["0.10.1", "0.16.0"]], False, "0.10.1"),
    # 0.6.3.post1 vllm/engine/arg_utils.py: help of --max-context-len-to-capture says to use
    # --max-seq-len-to-capture instead; gone in 0.6.4.
    "--max-context-len-to-capture": ([["0.6.0", "0.6.3.post1"]], True, "0.6.0"),
    # Standalone speculative options: last in 0.8.2, replaced by --speculative-config (added 0.8.2).
    "--speculative-model": ([["0.6.0", "0.8.2"]], True, None),
    "--num-speculative-tokens": ([["0.6.0", "0.8.2"]], True, None),
    "-spec-draft-tp": ([["0.6.0", "0.8.2"]], True, None),
    # BooleanOptionalAction since 0.6.5 (explicit action= in arg_utils.py).
    "--no-enable-prefix-caching": ([["0.6.5", "0.27.1"]], False, None),
    # `-O` is an argparse option 0.6.5..0.11.2 and a parse_args shorthand for
    # --optimization-level from 0.12.0 (vllm/utils/argparse_utils.py).
    "-O": ([["0.6.5", "0.27.1"]], True, None),
    # 0.11.0 arg_utils.py loops over a literal list of deprecated guided-decoding options
    # (type=str/bool, deprecated=True); gone in 0.12.0.
    "--guided-decoding-backend": ([["0.6.0", "0.11.2"]], True, "0.11.0"),
    # 0.11.1 arg_utils.py: "--cuda-graph-sizes" is registered on the capture-sizes field with
    # deprecated=True; gone in 0.13.0.
    "--cuda-graph-sizes": ([["0.9.0", "0.12.0"]], True, "0.11.1"),
    # still accepted in 0.27.1, removed in 0.28.0 (see the boundary test); the field docstring in
    # 0.19.0 vllm/config/cache.py:84 starts with a deprecation note.
    "--calculate-kv-scales": ([["0.7.0", "0.27.1"]], False, "0.19.0"),
}

VERIFIED_REPLACEMENTS = {
    "--worker-use-ray": "--distributed-executor-backend",
    "--max-context-len-to-capture": "--max-seq-len-to-capture",
    "--enable-reasoning": "--reasoning-parser",
    "--speculative-model": "--speculative-config",
    "--disable-log-requests": "--enable-log-requests",
    "--disable-mm-preprocessor-cache": "--mm-processor-cache-gb",
    "--enable-multimodal-encoder-data-parallel": "--mm-encoder-tp-mode",
    "--cuda-graph-sizes": "--cudagraph-capture-sizes",
    "--rope-scaling": "--hf-overrides",
    "--override-pooler-config": "--pooler-config",
    "--num-redundant-experts": "--eplb-config",
    "--task": "--runner",
    # no replacement named by the code
    "--swap-space": None,
    "--use-v2-block-manager": None,
    "--num-scheduler-steps": None,
    "--engine-use-ray": None,
    "--max-seq-len-to-capture": None,
}


@pytest.mark.parametrize("option", sorted(VERIFIED))
def test_verified_runs(history, option):
    runs, takes_value, deprecated_in = VERIFIED[option]
    got = history["options"][option]
    assert got["accepted"] == runs
    assert got["takes_value"] is takes_value
    assert got["deprecated_in"] == deprecated_in


@pytest.mark.parametrize("option", sorted(VERIFIED_REPLACEMENTS))
def test_verified_replacements(history, option):
    got = history["options"][option]
    assert got["replacement"] == VERIFIED_REPLACEMENTS[option]
    if got["replacement"]:
        assert got["replacement"] in history["options"]


def test_removed_options_are_known(history):
    """Everything the linter must flag as gone by 0.28 has a last release before 0.27.1."""
    last = history["releases"][-1]
    gone = {o for o, d in history["options"].items() if d["accepted"][-1][1] != last}
    assert {"--swap-space", "--use-v2-block-manager", "--num-scheduler-steps", "--worker-use-ray",
            "--engine-use-ray", "--max-seq-len-to-capture", "--disable-log-requests"} <= gone
    assert len(gone) > 70


# ----------------------------------------------------------------------------- static vs real parser

def inventory(version: str) -> dict | None:
    path = RELEASES_DIR / f"{version}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def inventory_names(inv: dict) -> dict[str, dict]:
    out = {}
    for o in inv["options"]:
        for n in o["names"]:
            out[n] = o
    return out


# Read in 0.28.0's code: these three are registered by 0.27.1's arg_utils.py and not by 0.28.0's.
REMOVED_IN_0_28 = {"--calculate-kv-scales", "--no-calculate-kv-scales", "--override-attention-dtype"}


@pytest.mark.skipif(inventory("0.28.0") is None, reason="rules/data/releases/0.28.0.json not generated yet")
def test_boundary_0_27_1_to_0_28_0(history):
    real = set(inventory_names(inventory("0.28.0")))
    static_0271 = accepted_set(history, "0.27.1")
    # -O is a parse_args shorthand in 0.28, recorded by the inventory as parser.optimization_shorthand
    assert static_0271 - real - {"-O"} == REMOVED_IN_0_28


def _static(version: str):
    from tools import extract_history as eh

    wheels = sorted(WHEEL_CACHE.glob(f"vllm-{version}-*.whl"))
    if not wheels:
        pytest.skip(f"no cached wheel for {version} in {WHEEL_CACHE}")
    opts, warnings = eh.extract(eh.sources_from_wheel(wheels[0]), version)
    return opts, warnings


@pytest.mark.parametrize("version", ["0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"])
def test_static_matches_real_parser(version):
    inv = inventory(version)
    if inv is None:
        pytest.skip(f"rules/data/releases/{version}.json not generated yet")
    static, warnings = _static(version)
    assert warnings == []
    real = inventory_names(inv)
    extra = set(static) - set(real)
    if inv.get("parser", {}).get("optimization_shorthand") == "-O":
        extra.discard("-O")
    assert extra == set()
    assert set(real) - set(static) == set()
    for name in real:
        assert static[name]["takes_value"] == real[name]["takes_value"], name
        assert bool(static[name]["deprecated"]) == bool(real[name]["deprecated"]), name


# The real `vllm serve` parser of some scanned releases, dumped with tools/_dump_parser.py in a
# throwaway venv (vLLM < 0.28 picks its CPU platform only when its version string contains
# "cpu", which the check faked; before 0.11 `FlexibleArgumentParser` is imported from vllm.utils
# and vllm/config.py is a module, not a package; before 0.7 the CLI is vllm.scripts:main).
# Digest = sha256 of the sorted option strings joined by "\n" (plus "-O", which the inventory
# records as parser.optimization_shorthand when it is not an argparse option).
REAL_PARSER = {
    "0.15.1": {
        "names": (288, "893474420d715bbdeebbd8a3499c596431aedab5b238110243bb7fef117d3b33"),
        # The inventory also flags --convert, from "`--convert mm_encoder_only` is deprecated"
        # (vllm/config/model.py:504): a retired VALUE, so the history leaves the option unflagged.
        "deprecated": ["--disable-log-requests", "--model", "--no-disable-log-requests"],
    },
    "0.27.1": {
        "names": (384, "1420b0bfa19148824ccab92b6e7ac092eeda588a5aef2c4a393bab6d478d93b4"),
        # options that take a value, plus "-O" (the shorthand takes one)
        "takes_value": (221, "34ab62e4d6a8709a00d0cb961f43683c2a73c2da53022d8baf7df0028d50fbbd"),
        "deprecated": ["--calculate-kv-scales", "--model", "--no-calculate-kv-scales"],
    },
    "0.6.0": {
        "names": (114, "d83704ff5d1a9cded85a0ad2ba7dc015ef2c648e88b37b2bd243fa8188182c48"),
        "deprecated": ["--engine-use-ray", "--max-context-len-to-capture", "--worker-use-ray"],
    },
    "0.6.6.post1": {
        "names": (135, "36115e0afa663909b6eb59b1afd973937b7d8222ad344b4853182ad4271628ff"),
        "deprecated": ["--rope-scaling", "--rope-theta", "--use-v2-block-manager", "--worker-use-ray"],
    },
    "0.8.5": {
        "names": (157, "c30937a85e9690f55e8af4f2196d81b4b7b29a2a5179e0892be0e19ae31ce653"),
        "deprecated": ["--rope-scaling", "--rope-theta", "--tokenizer-pool-extra-config",
                       "--tokenizer-pool-size", "--tokenizer-pool-type", "--use-v2-block-manager"],
    },
    "0.10.1.1": {
        "names": (231, "fa6753cff6bd82435706328ab7b9578c522f3350b63858efa7f096dab7303ff1"),
        "deprecated": ["--disable-log-requests", "--disable-mm-preprocessor-cache",
                       "--enable-prompt-adapter", "--no-disable-log-requests", "--rope-scaling",
                       "--rope-theta", "--task"],
    },
}


def _digest(names) -> tuple[int, str]:
    import hashlib

    names = sorted(names)
    return len(names), hashlib.sha256("\n".join(names).encode()).hexdigest()


@pytest.mark.parametrize("version", sorted(REAL_PARSER))
def test_history_matches_real_parser_dump(history, version):
    if version == "0.15.1":
        assert history["options"]["--convert"]["deprecated_in"] is None
    real = REAL_PARSER[version]
    accepted = accepted_set(history, version)
    assert _digest(accepted) == real["names"]
    for name in real["deprecated"]:
        dep = history["options"][name]["deprecated_in"]
        assert dep is not None and Version(dep) <= Version(version), name
    if "takes_value" in real:  # last scanned release: takes_value is this release's
        assert _digest(n for n in accepted if history["options"][n]["takes_value"]) == real["takes_value"]
