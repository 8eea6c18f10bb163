"""Invariants of rules/data/migrations.yaml, the curated vLLM 0.28-0.33 migration facts.

The first group needs only the YAML.  The second group checks the facts against the
per-release option inventories in rules/data/releases/<version>.json (generated from
the wheels by tools/extract_inventory.py) and is skipped while those files are absent.
No network.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "rules" / "data"
MIGRATIONS = DATA / "migrations.yaml"
RELEASES_DIR = DATA / "releases"

FIX_KINDS = {"rename", "drop", "change-value", "manual"}
SECTIONS = ("options", "values", "effects", "env", "behaviour")


def _load() -> dict:
    with MIGRATIONS.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


DOC = _load()
RELEASES: list[str] = DOC["releases"]


def _v(s: str) -> Version:
    return Version(s)


# ---------------------------------------------------------------------------
# Inventories (tolerant of the exact JSON layout: options as a list or a mapping,
# each option carrying `names`; env as a list of names or a mapping keyed by name).


def _inventory_path(version: str) -> Path:
    return RELEASES_DIR / f"{version}.json"


def _have_inventories() -> bool:
    return all(_inventory_path(v).exists() for v in RELEASES)


def _option_records(inv: dict) -> list[dict]:
    opts = inv.get("options", inv)
    if isinstance(opts, dict):
        records = []
        for key, rec in opts.items():
            if isinstance(rec, dict):
                rec = dict(rec)
                rec.setdefault("names", [key] if key.startswith("-") else [])
                records.append(rec)
        return records
    return [r for r in opts if isinstance(r, dict)]


_CACHE: dict[str, dict] = {}


def _inv(version: str) -> dict:
    if version not in _CACHE:
        raw = json.loads(_inventory_path(version).read_text(encoding="utf-8"))
        records = _option_records(raw)
        names: dict[str, dict] = {}
        for rec in records:
            # `names` are argparse's option_strings; 0.33 hides some accepted --no-
            # strings from them, so also take any list the inventory keeps for those.
            for key in ("names", "negative_names", "hidden_names"):
                for name in rec.get(key) or []:
                    names[name] = rec
        env = raw.get("env", [])
        if isinstance(env, dict):
            env = list(env)
        env_names = {e if isinstance(e, str) else e["name"] for e in env}
        _CACHE[version] = {"names": names, "env": env_names}
    return _CACHE[version]


def _options(version: str) -> dict[str, dict]:
    return _inv(version)["names"]


def _env(version: str) -> set[str]:
    return _inv(version)["env"]


def _hidden_no_forms() -> set[str]:
    twins = {b["id"]: b for b in DOC["behaviour"]}["enable-disable-twins"]
    return set(twins["hidden-no-forms"])


def _accepted(version: str) -> set[str]:
    """Option strings the release's parser accepts: the inventory's, plus (0.33+) the
    --no- forms EnableDisableAction keeps registered but drops from option_strings."""
    accepted = set(_options(version))
    if _v(version) >= _v("0.33.0"):
        accepted |= {h for h in _hidden_no_forms() if "--" + h.removeprefix("--no-") in accepted}
    return accepted


needs_inventories = pytest.mark.skipif(
    not _have_inventories(),
    reason="rules/data/releases/<v>.json not generated yet for every release",
)


def _option_string(replacement: str) -> str:
    """`--logging-config.pylogging_config_file` -> `--logging-config`; `--x y` -> `--x`."""
    first = replacement.split()[0]
    return first.split(".", 1)[0]


def _names(entry: dict) -> list[str]:
    return entry.get("names") or [entry["option"]]


def _prev(version: str) -> str | None:
    i = RELEASES.index(version)
    return RELEASES[i - 1] if i > 0 else None


def _later_or_equal(version: str) -> list[str]:
    return [r for r in RELEASES if _v(r) >= _v(version)]


# ---------------------------------------------------------------------------
# YAML-only invariants


def test_yaml_shape():
    assert DOC["schema"] == 1
    for section in SECTIONS:
        assert isinstance(DOC[section], list) and DOC[section], section
    assert RELEASES == sorted(RELEASES, key=Version)


def _all_entries():
    for section in SECTIONS:
        for entry in DOC[section]:
            yield section, entry


@pytest.mark.parametrize("section,entry", list(_all_entries()), ids=lambda x: str(x)[:60])
def test_every_entry_has_a_source(section, entry):
    assert isinstance(entry.get("source"), str) and entry["source"].strip(), entry


@pytest.mark.parametrize("section,entry", list(_all_entries()), ids=lambda x: str(x)[:60])
def test_versions_ordered(section, entry):
    def get(key):
        value = entry.get(key)
        if value is not None:
            assert isinstance(value, str), f"{key} must be a quoted string: {entry}"
            return _v(value)
        return None

    added, deprecated, removed = get("added-in"), get("deprecated-in"), get("removed-in")
    returned, available = get("returned-in"), get("replacement-available-in")
    if added and deprecated:
        assert added <= deprecated, entry
    if added and removed:
        assert added < removed, entry
    if deprecated and removed:
        assert deprecated < removed, entry
    if removed and returned:
        assert removed < returned, entry
    if available and removed:
        assert available <= removed, entry


@pytest.mark.parametrize("section", ["options", "values"])
def test_fix_kinds(section):
    for entry in DOC[section]:
        assert entry["fix"] in FIX_KINDS, entry


def test_value_entries_say_how_they_fail():
    for entry in DOC["values"]:
        assert entry["rejected-by"] in {"argparse", "startup", None}, entry
        assert (entry["rejected-by"] is None) == (entry["removed-in"] is None), entry


def test_option_entries_are_option_strings():
    for entry in DOC["options"]:
        for name in _names(entry):
            assert name.startswith("--"), entry
        assert entry["option"] in _names(entry)


def test_required_facts_present():
    """The facts the rule authors rely on, pinned so an edit cannot silently drop them."""
    opts = {e["option"]: e for e in DOC["options"]}
    fine = opts["--enable-mamba-fine-grained-prefix-cache"]
    assert (fine["added-in"], fine["removed-in"]) == ("0.30.0", "0.31.0")
    assert fine["replacement"] == "--enable-mamba-shared-prefix-checkpoint"
    assert fine["fix"] == "rename"
    assert opts["--mamba-cache-mode"]["deprecated-in"] == "0.33.0"
    assert opts["--mamba-cache-mode"]["removed-in"] is None
    assert opts["--disable-log-requests"]["returned-in"] == "0.33.0"

    (all_mode,) = [v for v in DOC["values"] if v["option"] == "--mamba-cache-mode"]
    assert (all_mode["value"], all_mode["deprecated-in"], all_mode["removed-in"]) == (
        "all", "0.30.0", "0.32.0")
    assert all_mode["replacement"] == "align" and all_mode["applicability"] == "unsafe"

    effects = {e["option"]: e for e in DOC["effects"]}
    assert effects["--mamba-block-size"]["no-effect-from"] == "0.32.0"
    assert "--disable-hybrid-kv-cache-manager" in effects

    behaviour = {b["id"]: b for b in DOC["behaviour"]}
    assert behaviour["yarn-max-model-len"]["since"] == "0.30.0"
    assert behaviour["enable-disable-twins"]["since"] == "0.33.0"
    for trap in ("config-equals-ignored", "config-file-false-dropped",
                 "serve-model-option", "dash-dot-token-is-json-key"):
        assert behaviour[trap]["releases"] == RELEASES, trap


# ---------------------------------------------------------------------------
# Checks against the release inventories


@needs_inventories
def test_replacements_exist_from_available_release_on():
    for entry in DOC["options"]:
        replacement = entry.get("replacement")
        if not replacement:
            continue
        start = entry.get("replacement-available-in") or entry.get("removed-in")
        assert start, entry
        for release in _later_or_equal(start):
            assert _option_string(replacement) in _accepted(release), (release, entry["option"])


@needs_inventories
def test_removed_options_absent_and_previously_present():
    for entry in DOC["options"]:
        removed = entry.get("removed-in")
        if not removed:
            continue
        returned = entry.get("returned-in")
        prev = _prev(removed)
        for name in _names(entry):
            if prev is not None:
                assert name in _accepted(prev), (name, prev)
            for release in _later_or_equal(removed):
                if returned and _v(release) >= _v(returned):
                    break
                assert name not in _accepted(release), (name, release)


@needs_inventories
def test_returned_options():
    for entry in DOC["options"]:
        returned = entry.get("returned-in")
        if not returned:
            continue
        assert entry["option"] in _accepted(returned)
        for release in entry.get("absent-in", []):
            assert entry["option"] not in _accepted(release), release
        prev = _prev(returned)
        if prev is not None:
            assert entry["option"] not in _accepted(prev)


@needs_inventories
def test_deprecated_options_still_accepted():
    for entry in DOC["options"]:
        deprecated = entry.get("deprecated-in")
        if not deprecated or entry.get("removed-in"):
            continue
        for release in _later_or_equal(deprecated):
            assert entry["option"] in _accepted(release), (entry["option"], release)


def _disappearances(kind: str) -> list[tuple[str, str]]:
    """(name, first release without it) for every name in release k missing from k+1."""
    out = []
    for older, newer in zip(RELEASES, RELEASES[1:]):
        if kind == "options":
            gone = set(_options(older)) - set(_options(newer))
        else:
            gone = _env(older) - _env(newer)
        out += [(name, newer) for name in sorted(gone) if name.startswith("-") or kind == "env"]
    return out


def _twins_entry() -> dict:
    return {b["id"]: b for b in DOC["behaviour"]}["enable-disable-twins"]


@needs_inventories
def test_every_disappearing_option_is_covered():
    covered = {}
    for entry in DOC["options"]:
        for name in _names(entry):
            covered.setdefault(name, set())
            if entry.get("removed-in"):
                covered[name].add(entry["removed-in"])
    # 0.33 hides the --no- form of every --enable-/--disable- boolean from
    # option_strings, but the parser still accepts it: not a removal.
    for name in _twins_entry()["hidden-no-forms"]:
        covered.setdefault(name, set()).add("0.33.0")
    missing = [(n, r) for n, r in _disappearances("options") if r not in covered.get(n, set())]
    assert not missing, f"options removed between releases with no entry: {missing}"


@needs_inventories
def test_hidden_no_forms_existed_before_033():
    for name in _twins_entry()["hidden-no-forms"]:
        assert name in _options("0.32.0"), name
        primary = "--" + name.removeprefix("--no-")
        assert primary in _options("0.33.0"), primary


@needs_inventories
def test_every_disappearing_env_is_covered():
    covered = {}
    for entry in DOC["env"]:
        covered.setdefault(entry["name"], set()).add(entry.get("removed-in"))
    missing = [(n, r) for n, r in _disappearances("env") if r not in covered.get(n, set())]
    assert not missing, f"VLLM_* variables removed between releases with no entry: {missing}"


@needs_inventories
def test_env_entries_match_inventories():
    for entry in DOC["env"]:
        removed = entry.get("removed-in")
        if removed:
            assert entry["name"] not in _env(removed), entry["name"]
            prev = _prev(removed)
            if prev is not None:
                assert entry["name"] in _env(prev), (entry["name"], prev)
        returned = entry.get("returned-in")
        if returned:
            assert entry["name"] in _env(returned), entry["name"]


@needs_inventories
def test_removed_values_match_choices():
    for entry in DOC["values"]:
        removed = entry.get("removed-in")
        # Only argparse-level removals are visible as `choices` in the inventories.
        if not removed or entry.get("rejected-by") != "argparse":
            continue
        values = [entry["value"], *entry.get("also-values", [])]
        prev = _prev(removed)
        for value in values:
            if prev is not None:
                assert value in (_options(prev)[entry["option"]].get("choices") or []), (value, prev)
            for release in _later_or_equal(removed):
                record = _options(release).get(entry["option"])
                if record is not None:
                    assert value not in (record.get("choices") or []), (value, release)
            for release in _later_or_equal(entry.get("deprecated-in") or removed):
                if _v(release) >= _v(removed):
                    break
                assert value in (_options(release)[entry["option"]].get("choices") or []), value


@needs_inventories
def test_every_removed_choice_is_covered():
    covered = {}
    for entry in DOC["values"]:
        if entry.get("rejected-by") == "argparse":
            for value in [entry["value"], *entry.get("also-values", [])]:
                covered.setdefault((entry["option"], str(value)), set()).add(entry["removed-in"])
    missing = []
    for older, newer in zip(RELEASES, RELEASES[1:]):
        for name, record in _options(older).items():
            if name != record["names"][0] or not record.get("choices"):
                continue
            new_record = _options(newer).get(name)
            if new_record is None or new_record.get("choices") is None:
                continue  # option gone (options section) or no longer a fixed list
            for value in set(map(str, record["choices"])) - set(map(str, new_record["choices"])):
                if newer not in covered.get((name, value), set()):
                    missing.append((name, value, newer))
    assert not missing, f"choices removed between releases with no values entry: {missing}"


@needs_inventories
def test_hybrid_kv_cache_manager_names_per_release():
    (entry,) = [e for e in DOC["effects"] if e["option"] == "--disable-hybrid-kv-cache-manager"]
    for release, names in entry["names-per-release"].items():
        record = _options(release)[entry["option"]]
        accepted = {name for name, rec in _options(release).items() if rec is record}
        if _v(release) >= _v("0.33.0"):
            accepted |= {h for h in _hidden_no_forms() if "--" + h.removeprefix("--no-") in accepted}
        assert accepted == set(names), release


@needs_inventories
def test_enable_disable_twins_are_new_in_033():
    twins = _twins_entry()
    assert twins["twins"], "twins list not filled in"
    for twin in twins["twins"]:
        assert twin in _accepted("0.33.0"), twin
        assert twin not in _accepted("0.32.0"), twin
    for new, portable in twins["portable-rewrite"].items():
        assert new in _accepted("0.33.0") and new not in _accepted("0.32.0"), new
        for release in RELEASES:
            assert portable in _accepted(release), (portable, release)
