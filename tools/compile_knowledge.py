"""Compile the curated YAML of ``rules/data`` to JSON, so a run reads it without PyYAML.

``python -m tools.compile_knowledge`` writes ``X.compiled.json`` beside each ``X.yaml`` of
:data:`SOURCES`: the YAML's data and its checksum (:func:`linter.knowledge.data_yaml` reads
the JSON only while the checksum is the YAML's, else parses the YAML: the YAML stays the
source of truth).  It also writes ``release_names.compiled.json``: the option strings of each
release inventory, the variables its envs.py reads and the places of the inventory's values
in its text, with the inventory's checksum (:func:`linter.knowledge.release_names`,
:func:`linter.knowledge.release_env_names`, which answer from it without parsing the
inventory, and :class:`linter.knowledge.Release`, which parses an option's entry when it needs
it, while the checksum holds).  ``--check`` exits 1
when a compiled file is not what its sources give.
Maintainer tooling only; ``tests/linter/test_knowledge.py`` checks the committed files.
"""

from __future__ import annotations

import argparse
import json

from linter.knowledge import COMPILED, DATA, NAMES, Release, inventory_places, known_versions, parse_data_yaml, source_digest
from tools.generated import json_text

SOURCES = ("migrations.yaml", "models.yaml", "gpus.yaml", "hybrid_configs.yaml")


def compiled_text(name: str) -> str:
    """The compiled form of ``rules/data/NAME``; ValueError when JSON cannot hold its data as it is."""
    text = (DATA / name).read_bytes()
    data = parse_data_yaml(text)
    if json.loads(json.dumps(data)) != data:  # a date, a non-string key, a tuple ...
        raise ValueError(f"{name}: its data does not survive JSON unchanged")
    return json.dumps({"source": name, "checksum": source_digest(text), "data": data}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def names_text() -> str:
    """What ``rules/data/release_names.compiled.json`` holds: each inventory's option strings,
    the variables its envs.py reads, the places of its values in its text
    (:func:`linter.knowledge.inventory_places`) and its checksum."""
    out = {}
    for v in known_versions():
        text = (DATA / "releases" / f"{v}.json").read_bytes()
        inventory = Release(v, json.loads(text))
        out[str(v)] = {"checksum": source_digest(text), "names": sorted(inventory.names), "env": sorted(inventory.env),
                       "places": inventory_places(text.decode("utf-8"))}
    return json_text({"source": "releases/*.json", "releases": out})


def target(name: str):
    return DATA / (name.rsplit(".", 1)[0] + COMPILED)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    args = ap.parse_args(argv)
    stale = []
    for out, new in [*((target(name), compiled_text(name)) for name in SOURCES), (DATA / NAMES, names_text())]:
        if args.check:
            if not out.exists() or out.read_text(encoding="utf-8") != new:
                stale.append(str(out))
        else:
            out.write_text(new, encoding="utf-8")
            print(f"wrote {out}")
    for s in stale:
        print(f"{s} differs from its sources: run python -m tools.compile_knowledge")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
