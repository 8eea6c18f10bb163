"""The rule index (``rules/data/rule_index.json``): what a run reads instead of importing every rule module."""

from __future__ import annotations

import json
import subprocess
import sys

from rules._lib import base


def test_the_committed_index_is_what_the_rules_give():
    from tools import gen_rule_index

    assert base.INDEX.read_text(encoding="utf-8") == gen_rule_index.text(), "run python -m tools.gen_rule_index"
    assert base.rule_index() is not None
    assert base.rule_codes() == list(base.all_rules())


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=base.INDEX.parent.parent.parent).stdout


def test_a_selection_imports_only_the_modules_of_its_codes():
    out = _run(
        "import sys\n"
        "from linter.engine import Settings\n"
        "from rules._lib.base import rules_for\n"
        "rules = rules_for(Settings(select=frozenset({'VL101'})).enabled)\n"
        "print(sorted(m for m in sys.modules if m.startswith('rules.') and not m.startswith('rules._lib')))\n"
        "print('VL101' in rules)\n"
    )
    modules, has = out.splitlines()
    assert has == "True"
    assert eval(modules) == ["rules.input_problem", "rules.removed_option"] or eval(modules) == ["rules.removed_option"]


def test_explain_imports_one_rule_module():
    out = _run(
        "import sys\n"
        "from rules._lib.base import rule_for_code\n"
        "r = rule_for_code('VL101')\n"
        "print(r.code, sorted(m for m in sys.modules if m.startswith('rules.') and not m.startswith('rules._lib')))\n"
    )
    assert out.strip() == "VL101 ['rules.removed_option']"


def test_a_stale_index_is_not_trusted(tmp_path, monkeypatch):
    data = json.loads(base.INDEX.read_text(encoding="utf-8"))
    some = next(iter(data["modules"]))
    data["modules"][some]["checksum"] = "crc32:0:00000000"  # its source changed since
    stale = tmp_path / "rule_index.json"
    stale.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(base, "INDEX", stale)
    monkeypatch.setattr(base, "_index", [])
    monkeypatch.setattr(base, "_read", [])
    assert base.rule_index() is None
    assert base.rule_codes() == list(base.all_rules())  # every module imported instead
    del data["modules"][some]  # a module the index does not know
    stale.write_text(json.dumps({**data, "modules": {k: v for k, v in data["modules"].items()}}), encoding="utf-8")
    monkeypatch.setattr(base, "_index", [])
    monkeypatch.setattr(base, "_read", [])
    assert base.rule_index() is None
    stale.write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(base, "_index", [])
    monkeypatch.setattr(base, "_read", [])
    assert base.rule_index() is None


def _selection_with_index(tmp_path, edit) -> list[str]:
    """The rule modules a run of VL101 alone imports with the committed index edited by ``edit``."""
    data = json.loads(base.INDEX.read_text(encoding="utf-8"))
    edit(data["modules"])
    index = tmp_path / "rule_index.json"
    index.write_text(json.dumps(data), encoding="utf-8")
    out = _run(
        "import sys\n"
        "from pathlib import Path\n"
        "from linter.engine import Settings\n"
        "from rules._lib import base\n"
        f"base.INDEX = Path({str(index)!r})\n"
        "base.rules_for(Settings(select=frozenset({'VL101'})).enabled)\n"
        "print(sorted(m for m in sys.modules if m.startswith('rules.') and not m.startswith('rules._lib')))\n"
    )
    return eval(out)


def test_a_selection_checks_the_sources_of_the_modules_it_leaves_out(tmp_path):
    # the module of VL101 is imported whatever the index says of its source: its registration
    # says its codes; a module left out on the index's word must be the indexed source
    def edited_imported(modules):
        modules["rules.removed_option"]["checksum"] = "crc32:0:00000000"

    def edited_left_out(modules):
        modules["rules.unknown_option"]["checksum"] = "crc32:0:00000000"

    assert "rules.unknown_option" not in _selection_with_index(tmp_path, edited_imported)
    assert len(_selection_with_index(tmp_path, edited_left_out)) == len(base.rule_modules())  # every module imported
