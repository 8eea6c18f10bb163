"""The curated data files load into frozen dataclasses; a field the types do not know fails here."""

import dataclasses

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
