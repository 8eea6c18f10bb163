"""Lookups in the curated migration facts (``rules/data/migrations.yaml``).

Rules ask questions of the facts here, so the YAML layout is known in one place.
"""

from __future__ import annotations

from packaging.version import Version

from linter import knowledge


# Values that have a rule of their own (with its own page); generic value rules skip them.
SPECIFIC_VALUE_RULES = frozenset({("--mamba-cache-mode", "all")})


def active_effects(option: str, target: Version) -> list[dict]:
    """Effect facts (``no-effect-from``) in force for ``option`` at ``target``."""
    out = []
    for entry in effect_facts(option):
        since = _v(entry.get("no-effect-from"))
        until = _v(entry.get("until"))
        if since is not None and since <= target and (until is None or target < until):
            out.append(entry)
    return out


def _v(text: str | None) -> Version | None:
    return Version(str(text)) if text else None


def option_fact(option: str) -> dict | None:
    for entry in knowledge.migrations().get("options", []) or []:
        if entry.get("option") == option:
            return entry
    return None


def option_facts(option: str) -> list[dict]:
    return [e for e in knowledge.migrations().get("options", []) or [] if e.get("option") == option]


def value_facts(option: str) -> list[dict]:
    return [e for e in knowledge.migrations().get("values", []) or [] if e.get("option") == option]


def effect_facts(option: str) -> list[dict]:
    return [e for e in knowledge.migrations().get("effects", []) or [] if e.get("option") == option]


def env_fact(name: str) -> dict | None:
    for entry in knowledge.migrations().get("env", []) or []:
        if entry.get("name") == name:
            return entry
    return None


def removal(option: str, target: Version) -> dict | None:
    """The fact that says ``option`` is gone in ``target`` (removed-in <= target), if any."""
    for entry in option_facts(option):
        if str(target) in (entry.get("absent-in") or []):
            return entry  # gone in this release, whatever happened around it
        removed = _v(entry.get("removed-in"))
        if removed is not None and removed <= target:
            back = _v(entry.get("returned-in") or entry.get("readded-in"))
            if back is not None and back <= target:
                continue
            return entry
    return None


def history_replacement(option: str) -> str | None:
    entry = knowledge.history().get("options", {}).get(option) or {}
    return entry.get("replacement")


def option_string_for_dest(dest: str) -> str:
    return "--" + dest.replace("_", "-")
