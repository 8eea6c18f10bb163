"""Lookups in the curated migration facts (``rules/data/migrations.yaml``, typed in
:mod:`linter.knowledge`).

Rules ask questions of the facts here, so the YAML layout is known in one place.
"""

from __future__ import annotations

from packaging.version import Version

from linter import knowledge
from linter.knowledge import EffectFact, EnvFact, OptionFact, ValueFact

# Values that have a rule of their own (with its own page); generic value rules skip them.
SPECIFIC_VALUE_RULES = frozenset({("--mamba-cache-mode", "all")})


def active_effects(option: str, target: Version) -> list[EffectFact]:
    """Effect facts (``no-effect-from``) in force for ``option`` at ``target``."""
    return [f for f in knowledge.migrations().effect_facts(option) if f.active_at(target)]


def option_facts(option: str) -> list[OptionFact]:
    return knowledge.migrations().option_facts(option)


def value_facts(option: str) -> list[ValueFact]:
    return knowledge.migrations().value_facts(option)


def value_fact(option: str, value: str, key: str | None = None) -> ValueFact | None:
    """The fact about ``value`` (of JSON key ``key``) of ``option``, unless a rule of its own explains it."""
    if key is None and (option, value) in SPECIFIC_VALUE_RULES:
        return None
    return next((f for f in value_facts(option) if f.key == key and value in f.values), None)


def env_fact(name: str) -> EnvFact | None:
    return knowledge.migrations().env_fact(name)


def removal(option: str, target: Version) -> OptionFact | None:
    """The fact that says ``option`` is gone in ``target`` (removed-in <= target), if any."""
    return next((f for f in option_facts(option) if f.gone_in(target)), None)


def history_replacement(option: str) -> str | None:
    entry = knowledge.history().get("options", {}).get(option) or {}
    return entry.get("replacement")


def option_string_for_dest(dest: str) -> str:
    return "--" + dest.replace("_", "-")
