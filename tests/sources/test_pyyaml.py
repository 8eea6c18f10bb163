"""PyYAML imported for the readers (:mod:`linter.sources.pyyaml`): its reader's pattern of the
characters YAML refuses is compiled on first use, not at import, and reads as before; the
linter's own spelling of that set of characters is the same set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from linter.sources import pyyaml

ROOT = Path(__file__).resolve().parents[2]


def _fresh(code: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


PURE_READ = """
import json, re, sys
{imports}
out = {{"compiled_at_import": isinstance(yaml.reader.Reader.__dict__["NON_PRINTABLE"], re.Pattern),
        "re_compile_restored": re.compile.__module__ == "re"}}
try:
    yaml.load("key: a\\x07b\\n", Loader=yaml.SafeLoader)  # the pure-Python reader refuses the BEL
except yaml.YAMLError as exc:
    out["error"] = str(exc)
out["scan"] = [type(t).__name__ for t in yaml.scan("a: [1, 'x\\u00e9']\\n", Loader=yaml.SafeLoader)]
out["c"] = yaml.load("k: \\u00e9\\U0001f600\\n", Loader=yaml.CSafeLoader) if hasattr(yaml, "CSafeLoader") else None
print(json.dumps(out))
"""


def test_the_readers_pattern_is_compiled_when_the_pure_reader_first_reads():
    ours = _fresh(PURE_READ.format(imports="from linter.sources.pyyaml import yaml"))
    plain = _fresh(PURE_READ.format(imports="import yaml"))
    assert ours["compiled_at_import"] is False and plain["compiled_at_import"] is True
    assert ours["re_compile_restored"] is True
    assert "special characters are not allowed" in ours["error"]
    assert {k: v for k, v in ours.items() if k != "compiled_at_import"} == {k: v for k, v in plain.items() if k != "compiled_at_import"}


def test_a_pyyaml_imported_before_is_used_as_it_is():
    got = _fresh("import json, re, yaml; from linter.sources.pyyaml import yaml as ours; "
                 "print(json.dumps([ours is yaml, isinstance(yaml.reader.Reader.__dict__['NON_PRINTABLE'], re.Pattern)]))")
    assert got == [True, True]


def test_the_pattern_is_pyyamls_own():
    """The reader's pattern, as PyYAML spells it (else it would be compiled at import, as before)."""
    assert yaml.reader.Reader.NON_PRINTABLE.pattern == pyyaml.READER_NON_PRINTABLE


def test_not_printable_is_the_complement_of_the_readers_class():
    every = "".join(map(chr, range(0x110000)))
    reader = yaml.reader.Reader.NON_PRINTABLE
    assert pyyaml.NOT_PRINTABLE.sub("#", every) == reader.sub("#", every)
    ascii_only = every[:128]
    assert pyyaml.ASCII_NOT_PRINTABLE.sub("#", ascii_only) == reader.sub("#", ascii_only)


def test_printable_blanks_what_yaml_refuses_in_place():
    reader = yaml.reader.Reader.NON_PRINTABLE
    for text in ("a: 1\n", "a: b\x07c\x00\x7f\r\n\tk: v\x0b\n", "m: \u00e9\x85\x86\ud800\ufffe\U0001f600\x9f\n", ""):
        assert pyyaml.printable(text) == reader.sub(" ", text)
        assert len(pyyaml.printable(text)) == len(text)
