"""The folder is the registry: every top-level module of ``rules/`` is a rule module
(registers at least one rule), every registered rule comes from one, and the helpers
in ``rules/_lib`` register nothing."""

from pathlib import Path

from rules._lib.base import all_rules, rule_modules

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


def test_every_top_level_module_is_a_rule_module():
    on_disk = {f"rules.{p.stem}" for p in RULES_DIR.glob("*.py") if p.name != "__init__.py"}
    assert set(rule_modules()) == on_disk
    registered_by = {r.module for r in all_rules().values()}
    assert registered_by == on_disk, f"modules under rules/ that register no rule: {sorted(on_disk - registered_by)}"


def test_helpers_register_nothing():
    helpers = {f"rules._lib.{p.stem}" for p in (RULES_DIR / "_lib").glob("*.py")}
    assert not {r.module for r in all_rules().values()} & helpers


def test_codes_are_unique_and_well_formed():
    rules = all_rules()
    names = [r.name for r in rules.values()]
    assert len(names) == len(set(names))
    for code, r in rules.items():
        assert code == r.code and code.startswith("VL") and code[2:].isdigit() and len(code) == 5
        assert r.doc, f"{code} has no page"


def test_every_code_is_named_by_a_test():
    """Besides its page (tests/rules/test_rule_pages.py), each code is named by a test of its own."""
    tests = Path(__file__).resolve().parents[1]
    text = "\n".join(p.read_text(encoding="utf-8") for p in tests.rglob("test_*.py") if p.name not in ("test_rule_pages.py", "test_registry.py"))
    missing = [code for code in all_rules() if code not in text]
    assert not missing, f"codes no test names: {missing}"


def test_all_rules_walks_the_folder_even_after_one_rule_module_was_imported():
    # the engine imports rules.input_problem alone for an unreadable file; a later all_rules()
    # must still hold every rule (a child interpreter, so this process's registry is not the one tested)
    import subprocess
    import sys

    code = "import rules.input_problem; from rules._lib.base import all_rules; print(len(all_rules()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=RULES_DIR.parent)
    assert int(out.stdout) == len(all_rules()) > 3
