"""linter.records: the start path's records behave as the dataclasses they replaced."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import pkgutil

import pytest

import linter
import rules
from linter import records
from linter.diagnostic import Diagnostic, Edit, Fix, Severity
from linter.discovery import Candidate
from linter.engine import FileResult, Settings
from linter.launch import EnvVar, Launch, Span, Token
from linter.lazy_re import lazy_re
from linter.sources.placed import PlacedText


def _record_classes():
    for pkg in (linter, rules):
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if m.name in ("linter.server", "linter.cli"):  # pygls; the CLI's imports are the others'
                continue
            module = importlib.import_module(m.name)
            for value in vars(module).values():
                if isinstance(value, type) and issubclass(value, records.Record) and value.__module__ == module.__name__ and module is not records:
                    yield value


def test_every_record_names_its_fields_as_its_annotations():
    """``__slots__`` (or ``_fields``) and the annotations list the same fields in the same order, and
    ``__init__`` takes each of them by name."""
    found = [cls for cls in _record_classes() if "__slots__" in vars(cls) or "_fields" in vars(cls)]  # not a subclass that adds none
    assert len(found) > 60
    for cls in found:
        annotated = tuple(cls.__dict__.get("__annotations__", {}))
        assert cls._fields == annotated, cls
        params = cls.__init__.__code__.co_varnames[1 : cls.__init__.__code__.co_argcount]
        assert params == cls._fields, cls
        for extra in (cls._compare or ()) + (cls._shown or ()):
            assert extra in cls._fields, (cls, extra)


def test_frozen_records_refuse_assignment_and_hash_like_the_dataclass():
    tok = Token("--max-model-len", Span(3, 18), 3)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'value'"):
        tok.value = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'span'"):
        del tok.span
    assert hash(Span(1, 2)) == hash((1, 2))
    assert Span(1, 2) == Span(1, 2) and Span(1, 2) != Span(1, 3) and Span(1, 2) != (1, 2)
    assert {Token("a", Span(0, 1)), Token("a", Span(0, 1))} == {Token("a", Span(0, 1))}
    with pytest.raises(ValueError, match="bad span 2..1"):
        Span(2, 1)


def test_compare_and_repr_leave_out_what_the_dataclass_left_out():
    a = Candidate("serve.sh", "shell", signature=(1, 2, 3, 4, 5))
    b = Candidate("serve.sh", "shell", signature=None)
    assert a == b and hash(a) == hash(b)
    assert repr(a) == "Candidate(path='serve.sh', kind='shell', reason='', explicit=False, status='ok')"
    assert repr(Span(0, 4)) == "Span(start=0, end=4)"


def test_mutable_records_are_unhashable_and_compare_by_fields():
    d = Diagnostic("VL101", "gone", "serve.sh", Span(0, 4))
    assert d == Diagnostic("VL101", "gone", "serve.sh", Span(0, 4), Severity.ERROR)
    assert d.related == [] and d.related is not Diagnostic("VL101", "gone", "serve.sh", Span(0, 4)).related
    with pytest.raises(TypeError):
        hash(d)
    p, q = PlacedText(), PlacedText()
    assert p != q and p == p and len({p, q}) == 2  # eq=False: identity, as before


def test_replace_pickle_and_copy():
    fix = Fix("rename", (Edit(Span(3, 18), "--max-model-len"),), "unsafe")
    d = Diagnostic("VL201", "abbreviation", "serve.sh", Span(3, 10), fix=fix, related=[("x", Span(0, 1))])
    r = records.replace(d, fix=None)
    assert r.fix is None and r.code == "VL201" and d.fix is fix
    with pytest.raises(TypeError):
        records.replace(d, nonsense=1)
    launch = Launch("serve.sh", "shell", Span(0, 40), args=[Token("m", Span(11, 12), 11)], env=[EnvVar(Token("VLLM_X", Span(0, 6)), None)])
    result = FileResult("serve.sh", [d], src=None)
    for value in (fix, d, launch, result, Settings(select=frozenset({"VL1"})), Candidate("a", "shell", signature=(1, 2, 3, 4, 5))):
        back = pickle.loads(pickle.dumps(value))
        assert back == value and type(back) is type(value)
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert pickle.loads(pickle.dumps(Candidate("a", "shell", signature=(1, 2, 3, 4, 5)))).signature == (1, 2, 3, 4, 5)
    assert records.field_names(Settings)[:2] == ("target", "fallback")


def test_lazy_re_compiles_on_first_use():
    pat = lazy_re(r"v(\d+)")
    assert "match" not in vars(pat)
    assert pat.match("v12").group(1) == "12"
    assert "match" in vars(pat) and pat.pattern == r"v(\d+)"
    assert [m.group(0) for m in pat.finditer("v1 v2")] == ["v1", "v2"]
    assert lazy_re(rb"\d", 0).sub(b"#", b"a1") == b"a#"
