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
IMPORTS
out = {"compiled_at_import": isinstance(yaml.reader.Reader.__dict__["NON_PRINTABLE"], re.Pattern),
        "re_compile_restored": re.compile.__module__ == "re"}
try:
    yaml.load("key: a\\x07b\\n", Loader=yaml.SafeLoader)  # the pure-Python reader refuses the BEL
except yaml.YAMLError as exc:
    out["error"] = str(exc)
out["scan"] = [type(t).__name__ for t in yaml.scan("a: [1, 'x\\u00e9']\\n", Loader=yaml.SafeLoader)]
out["c"] = yaml.load("k: \\u00e9\\U0001f600\\n", Loader=yaml.CSafeLoader) if hasattr(yaml, "CSafeLoader") else None
# every implicit tag the resolver knows, through both loaders
doc = ("a: [1, 0x1f, 0o17, 1_000, -2, 3.5, .inf, -.Inf, .nan, 1e3, 6.8523015e+5, 190:20:30, 0b101]\\n"
       "b: [yes, No, true, off, ~, null, '', 2001-12-14t21:59:43.10-05:00, 2002-12-14, x]\\n"
       "base: &b {k: 1}\\nc: {<<: *b, j: 2}\\n")
out["safe"] = repr(yaml.load(doc, Loader=yaml.SafeLoader))
out["csafe"] = repr(yaml.load(doc, Loader=yaml.CSafeLoader)) if hasattr(yaml, "CSafeLoader") else None
out["tags"] = [n.tag for k, v in yaml.compose(doc + "d: [=, <<]\\n", Loader=yaml.SafeLoader).value for n in getattr(v, "value", ()) if isinstance(n, yaml.ScalarNode)]
out["dump"] = yaml.safe_dump({"s": ["1", "yes", "2002-12-14", "~", "=", "x"]})
print(json.dumps(out))
"""


def test_pyyamls_patterns_are_compiled_when_first_used_and_read_as_before():
    ours = _fresh(PURE_READ.replace("IMPORTS", "from linter.sources.pyyaml import yaml"))
    plain = _fresh(PURE_READ.replace("IMPORTS", "import yaml"))
    assert ours["compiled_at_import"] is False and plain["compiled_at_import"] is True
    assert ours["re_compile_restored"] is True
    assert "special characters are not allowed" in ours["error"]
    assert "datetime.datetime(2001, 12, 14" in ours["safe"] and "'k': 1, 'j': 2" in ours["safe"]
    assert "'1'" in ours["dump"] and "'2002-12-14'" in ours["dump"]  # the dumper quotes what would resolve
    assert {k: v for k, v in ours.items() if k != "compiled_at_import"} == {k: v for k, v in plain.items() if k != "compiled_at_import"}


NEEDED = """
import json, re
from linter.sources.pyyaml import yaml

def compiled():  # the implicit tags whose pattern has been compiled (its methods bound)
    return sorted({tag.rpartition(":")[2] for rows in yaml.SafeLoader.yaml_implicit_resolvers.values()
                   for tag, pattern in rows if "match" in vars(pattern)})

before = compiled()
yaml.load("replicas: 3\\nimage: vllm/vllm-openai\\n", Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
print(json.dumps([before, compiled(), type(re.compile("a+")).__name__]))
"""


def test_only_the_patterns_a_text_needs_are_compiled():
    before, after, plain = _fresh(NEEDED)
    assert before == [] and plain == "Pattern"
    assert "int" in after and "timestamp" not in after and "merge" not in after


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
