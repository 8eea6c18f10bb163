"""The curated data files load into frozen records; a field the types do not know fails here."""

import dataclasses
import json

import pytest
import yaml

from linter import knowledge


def test_migrations_load_typed_and_whole():
    m = knowledge.migrations()
    with (knowledge.DATA / "migrations.yaml").open(encoding="utf-8") as f:
        raw = yaml.safe_load(f)
    for section in ("options", "values", "effects", "env", "behaviour"):
        assert len(getattr(m, section)) == len(raw[section])
    assert knowledge.migrations() is m  # read once


def test_facts_are_frozen():
    fact = knowledge.migrations().values[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        fact.value = "other"  # type: ignore[misc]


@pytest.mark.parametrize("cls", [knowledge.OptionFact, knowledge.ValueFact, knowledge.EffectFact, knowledge.EnvFact, knowledge.BehaviourFact])
def test_unknown_field_is_refused(cls):
    with pytest.raises(ValueError, match="unknown field `replacment`"):
        knowledge._fields(cls, {"replacment": "x"})


def test_value_fact_values_and_states():
    traces = next(f for f in knowledge.migrations().values if f.option == "--collect-detailed-traces")
    assert traces.values[0] == "model,worker" and "all,model" in traces.values
    assert traces.state_at(knowledge.Version("0.30.0")) is None
    assert traces.state_at(knowledge.Version("0.31.0")) == "removed"


def test_models_load_typed_once_and_whole():
    table = knowledge.models()
    with (knowledge.DATA / "models.yaml").open(encoding="utf-8") as f:
        raw = yaml.safe_load(f)
    assert sorted(table) == sorted(m["model"] for m in raw["models"])
    assert knowledge.models() is table
    qwen = table["Qwen/Qwen3.6-27B"]
    assert qwen.is_hybrid and qwen.architecture == "Qwen3_5ForConditionalGeneration"
    assert qwen.layer_types == knowledge.LayerTypes(full_attention=16, mamba=48)


def test_model_entry_refuses_unknown_fields():
    with pytest.raises(ValueError, match="unknown field `hybird`"):
        knowledge.ModelEntry.from_yaml({"model": "org/m", "hybird": "gdn"})
    # N is computed (linter/hybrid_block.py), no longer a row of the table
    with pytest.raises(ValueError, match="unknown field `block-size`"):
        knowledge.ModelEntry.from_yaml({"model": "org/m", "block-size": [{"n": 784, "source": "s"}]})


def test_compiled_knowledge_is_what_the_yaml_gives():
    """The committed ``X.compiled.json`` files hold their YAML's data and digest (else a run
    parses the YAML: slower, never stale); `python -m tools.compile_knowledge` rewrites them."""
    from tools import compile_knowledge

    for name in compile_knowledge.SOURCES:
        assert compile_knowledge.target(name).read_text(encoding="utf-8") == compile_knowledge.compiled_text(name), name
        with (knowledge.DATA / name).open(encoding="utf-8") as f:
            assert knowledge.data_yaml(name) == (yaml.safe_load(f) or {})


def test_release_names_are_the_inventories_and_never_stale(tmp_path, monkeypatch):
    """The committed names of each inventory (its option strings, the variables its envs.py
    reads) are what it holds; a regenerated inventory whose digest they do not carry is parsed
    instead (slower, never stale)."""
    from tools import compile_knowledge

    assert (knowledge.DATA / knowledge.NAMES).read_text(encoding="utf-8") == compile_knowledge.names_text()
    versions = knowledge.known_versions()
    assert set(knowledge.compiled_names()) == {str(v) for v in versions}
    for v in versions:
        assert knowledge.release_names(v) == knowledge.release(v).names
        assert knowledge.release_env_names(v) == frozenset(knowledge.release(v).env)
    assert "VLLM_ENGINE_ITERATION_TIMEOUT_S" in knowledge.release_env_names(versions[0])  # read by 0.28, gone later
    assert "VLLM_ENGINE_ITERATION_TIMEOUT_S" not in knowledge.release_env_names(versions[-1])
    old = versions[0]
    (tmp_path / "releases").mkdir()
    inventory = {"schema": 1, "options": [{"names": ["--only-here"], "dest": "only_here"}], "env": [{"name": "VLLM_ONLY_HERE"}]}
    (tmp_path / "releases" / f"{old}.json").write_text(json.dumps(inventory), encoding="utf-8")
    (tmp_path / knowledge.NAMES).write_text((knowledge.DATA / knowledge.NAMES).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(knowledge, "DATA", tmp_path)
    caches = (knowledge.compiled_names, knowledge.release, knowledge.release_names, knowledge.release_env_names, knowledge._compiled_entry)
    for c in caches:
        c.cache_clear()
    try:
        assert knowledge.release_names(old) == {"--only-here"}  # the stale entry is not read
        assert knowledge.release_env_names(old) == {"VLLM_ONLY_HERE"}
    finally:
        for c in caches:
            c.cache_clear()


def test_an_edited_yaml_is_read_not_its_stale_compiled_form(tmp_path, monkeypatch):
    (tmp_path / "gpus.yaml").write_text("gpus:\n  - name: H100\n    mib: 81559\n    labels: [nvidia-h100-80gb]\n", encoding="utf-8")
    stale = {"source": "gpus.yaml", "checksum": knowledge.source_digest(b"gpus: []\n"), "data": {"gpus": []}}
    (tmp_path / "gpus.compiled.json").write_text(__import__("json").dumps(stale), encoding="utf-8")
    monkeypatch.setattr(knowledge, "DATA", tmp_path)
    assert knowledge.data_yaml("gpus.yaml") == {"gpus": [{"name": "H100", "mib": 81559, "labels": ["nvidia-h100-80gb"]}]}
    (tmp_path / "gpus.compiled.json").write_text("{not json", encoding="utf-8")
    assert knowledge.data_yaml("gpus.yaml")["gpus"][0]["mib"] == 81559
    assert knowledge.data_yaml("absent.yaml") == {}


def test_the_knowledge_loads_without_pyyaml():
    import subprocess
    import sys

    code = (
        "import sys; from linter import knowledge; from rules._lib import hybrid_facts, local_facts\n"
        "knowledge.migrations(); knowledge.models(); local_facts._gpus(); hybrid_facts.shipped_configs()\n"
        "assert 'yaml' not in sys.modules, sorted(m for m in sys.modules if m.startswith('yaml'))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=knowledge.DATA.parent.parent)


def test_a_release_names_every_option_string_its_specs_hold():
    for v in knowledge.known_versions():
        r = knowledge.release(v)
        assert r.names == frozenset(r.by_name)


def test_history_inventories_are_the_same_with_versions_parsed_once(monkeypatch):
    """Release strings of the data are parsed once a run (knowledge._parsed); every names-only
    inventory and every option's history read as with a fresh parse of each string."""
    from packaging.version import Version

    shared = {str(v): knowledge._history_inventory(v) for v in knowledge.history_versions()}
    options = sorted(knowledge.history()["options"])[:40]
    histories = [knowledge.option_history(o) for o in options]
    monkeypatch.setattr(knowledge, "_parsed", Version)
    assert {str(v): knowledge._history_inventory(v) for v in knowledge.history_versions()} == shared
    assert [knowledge.option_history(o) for o in options] == histories
    assert knowledge._parsed("0.10.1") is not knowledge._parsed("0.10.1")  # the plain parse, patched in


def _fresh(version):
    """The release's inventory in a Release of its own (the cached one may have built its specs)."""
    with (knowledge.DATA / "releases" / f"{version}.json").open(encoding="utf-8") as f:
        return knowledge.Release(version, json.load(f))


def _built(release) -> int:
    return sum(spec is not None for spec in release._specs)


@pytest.mark.parametrize("version", knowledge.known_versions(), ids=str)
def test_lookup_tables_hold_what_the_whole_list_gives_and_build_only_what_is_asked(version, monkeypatch):
    """by_name (the last option registering a string, as argparse's table), by_dest (the first
    storing a dest) and the chart keys are tables of places: looking up an option builds its
    spec alone, and each lookup gives the very spec the whole list holds, platform choices and all."""
    from linter import argmodel

    monkeypatch.setattr(argmodel, "_CHART_KEYS", {})  # (kept by release name: the cached release's table otherwise)
    r = _fresh(version)
    spec = r.by_name["--max-model-len"]
    assert spec.dest == "max_model_len" and _built(r) == 1
    assert r.by_name.get("--no-such-option") is None and "--no-such-option" not in r.by_name and _built(r) == 1
    assert argmodel.chart_option(r, "maxModelLen") is spec and _built(r) == 1
    assert list(r.by_name) == r.option_strings and len(r.by_name) == len({n for o in r.data["options"] for n in o["names"]})
    eager_names, eager_dests = {}, {}
    for s in r.options:  # (every spec built now)
        for n in s.names:
            eager_names[n] = s
        eager_dests.setdefault(s.dest, s)
    assert r.by_name["--max-model-len"] is spec
    assert all(r.by_name[n] is s for n, s in eager_names.items()) and dict(r.by_name) == eager_names
    assert all(r.by_dest[d] is s for d, s in eager_dests.items()) and set(r.by_dest) == set(eager_dests)
    platform = r.platform_choices
    for s in r.options:
        extra = platform.get(s.primary)
        if extra and s.choices is not None:
            assert set(extra) <= set(s.choices)


@pytest.mark.parametrize("version", knowledge.known_versions(), ids=str)
def test_a_release_read_by_places_is_the_release_parsed_whole(version, monkeypatch):
    """knowledge.release reads an inventory by the places the compiled names hold (while its
    checksum is the inventory's): each option's entry parsed when its spec is built, the rest
    when asked for.  It holds what the inventory parsed whole holds, option by option."""
    from linter import argmodel

    monkeypatch.setattr(argmodel, "_CHART_KEYS", {})
    text = (knowledge.DATA / "releases" / f"{version}.json").read_bytes().decode("utf-8")
    assert knowledge.compiled_names()[str(version)]["places"] == knowledge.inventory_places(text)
    knowledge.release.cache_clear()
    placed = knowledge.release(version)
    assert placed._placed() and placed._text == text
    whole = _fresh(version)
    assert placed.by_name["--max-model-len"] == whole.by_name["--max-model-len"] and _built(placed) == 1
    assert "data" not in placed.__dict__  # nothing parsed whole yet
    assert placed.parser == whole.parser and placed.positionals == whole.positionals and placed.env == whole.env
    assert placed.option_strings == whole.option_strings and placed.names == whole.names
    assert argmodel.chart_option(placed, "maxModelLen") == whole.by_name["--max-model-len"]
    assert [s.raw for s in placed.options] == whole.data["options"] and placed.options == whole.options
    assert dict(placed.by_dest) == dict(whole.by_dest)
    assert "data" not in placed.__dict__ and placed.data == whole.data  # parsed whole when asked for
    knowledge.release.cache_clear()


def test_inventory_places_are_read_by_the_json_decoder():
    text = '{ "a" : [1, {"b": "]"}] ,\n "options": [ {"names": ["--x", "--no-x"], "dest": "x", "negative_names": ["--no-x"]} ,{"names":["-y"],"dest":"y"}],"z":"}"}'
    places = knowledge.inventory_places(text)
    assert {k: json.loads(text[s:e]) for k, (s, e) in places["parts"].items()} == json.loads(text)
    assert [json.loads(text[s:e]) for s, e, *_ in places["options"]] == json.loads(text)["options"]
    assert [o[2:] for o in places["options"]] == [["x", ["--x", "--no-x"], ["--no-x"]], ["y", ["-y"], []]]
    with pytest.raises(ValueError):
        knowledge.inventory_places("[1, 2]")


def test_by_name_keeps_the_last_option_of_a_string_and_by_dest_the_first():
    """argparse's table keeps the last action registering an option string; a dest names the
    first option storing it.  Keys keep the order they first come in (option_strings)."""
    options = [
        {"names": ["--a", "-x"], "dest": "a", "takes_value": True},
        {"names": ["--b"], "dest": "shared", "takes_value": False},
        {"names": ["--x-long", "-x"], "dest": "shared", "takes_value": True},
    ]
    r = knowledge.Release(knowledge.Version("0.99.0"), {"options": options, "parser": {}})
    assert r.by_name["-x"].dest == "shared" and r.by_name["-x"].names == ("--x-long", "-x")
    assert r.by_dest["shared"].names == ("--b",)
    assert r.option_strings == ["--a", "-x", "--b", "--x-long"]
