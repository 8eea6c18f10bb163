"""The argument model against Python's own argparse, on every committed inventory.

For each release, a reference ``argparse.ArgumentParser`` is built from the
inventory (same option strings, same value counts, the optional positional
model) and random command lines are parsed by both.  The model must accept
exactly what argparse accepts, resolve each option to the same action, and
take the same values.  Rewriting by vLLM (underscores, dotted keys, --model,
--config) is left out of the generated argv; it has its own tests.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from linter import argmodel, knowledge
from linter.launch import Launch, Span, Token

VERSIONS = knowledge.known_versions()
LONG = int(os.environ.get("VLLM_LINT_FUZZ_EXAMPLES", "0"))  # a long random run for maintainers
VALUE_ERRORS = {"invalid-choice", "invalid-type", "invalid-json", "model-not-first"}  # checks beyond argparse structure
pytestmark = pytest.mark.skipif(not VERSIONS, reason="no inventories in rules/data/releases")


class _Record(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        seen = getattr(namespace, "_seen", [])
        seen.append((self.dest, option_string, values))
        namespace._seen = seen


def reference_parser(release: knowledge.Release) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(allow_abbrev=release.allow_abbrev, add_help=False, exit_on_error=False)
    for pos in release.positionals:
        p.add_argument(pos["dest"], nargs=pos.get("nargs"))
    for i, spec in enumerate(release.options):
        if spec.takes_value:
            nargs = spec.nargs
            pos_names = [n for n in spec.names if n not in spec.negative_names]
            neg_names = [n for n in spec.names if n in spec.negative_names]
            p.add_argument(*pos_names, dest=f"o{i}", nargs=nargs, action=_Record)
            if neg_names:
                p.add_argument(*neg_names, dest=f"o{i}", nargs=0, action=_Record)
        else:
            p.add_argument(*spec.names, dest=f"o{i}", nargs=0, action=_Record)
    return p


def reference_parse(p: argparse.ArgumentParser, argv: list[str]):
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            ns, extra = p.parse_known_args(argv)
    except (SystemExit, argparse.ArgumentError):
        return None
    if extra:
        return None
    return ns


def model_parse(release, argv):
    toks, o = [], 0
    for a in argv:
        toks.append(Token(a, Span(o, o + len(a)), o))
        o += len(a) + 1
    launch = Launch("t", "shell", Span(0, o), args=toks)
    return argmodel.parse(launch, release)


def vocabulary(release):
    names = [n for n in release.option_strings if "." not in n]
    longs = sorted(n for n in names if n.startswith("--"))
    prefixes = sorted({n[: max(4, len(n) - 3)] for n in longs[::7]})
    values = ["8", "m", "auto", "x=y", "-1"]  # "--" handling differs between Python versions
    equals = [n + "=8" for n in longs[::11]] + [p + "=x" for p in prefixes[::3]]
    return names, prefixes + equals, values


@pytest.mark.parametrize("version", VERSIONS, ids=str)
def test_model_agrees_with_argparse(version):
    release = knowledge.release(version)
    ref = reference_parser(release)
    names, prefixes, values = vocabulary(release)
    word = st.one_of(st.sampled_from(names), st.sampled_from(prefixes), st.sampled_from(values))
    option_ids = {id(s): i for i, s in enumerate(release.options)}

    @settings(max_examples=LONG or 300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=not LONG)
    @given(st.lists(word, max_size=6), st.booleans())
    def check(words, with_model):
        argv = (["org/model"] if with_model else []) + words
        # vLLM moves `--model X` before argparse runs (tested on its own): not an argparse question
        assume(not any(w == "--model" or w.startswith("--model=") or w == "--config" for w in words))
        ns = reference_parse(ref, argv)
        parsed = model_parse(release, argv)
        structural = [e for e in parsed.errors if e.kind not in VALUE_ERRORS]
        ok = not structural and all(o.spec is not None for o in parsed.options)
        assert ok == (ns is not None), (argv, parsed.errors, [(o.written, o.match) for o in parsed.options])
        if ns is None:
            return
        seen = getattr(ns, "_seen", [])
        got = [(f"o{option_ids[id(o.spec)]}", o.matched) for o in parsed.options]
        assert got == [(d, s) for d, s, _ in seen], argv
        for o, (_, _, vals) in zip(parsed.options, seen):
            want = vals if isinstance(vals, list) else [vals]
            if o.spec.takes_value and not o.negative:
                assert [v.text for v in o.values] == [w for w in want if w is not None], argv

    check()


def _option_tuples_by_scan(release, arg):
    """argparse 3.11's ``_get_option_tuples`` written out over the release's option strings in
    registration order: every string tested (what the model's bisection must give)."""
    out = []
    if arg[1] == "-":
        if not release.allow_abbrev:
            return out
        prefix, explicit = arg.split("=", 1) if "=" in arg else (arg, None)
        return [(spec, opt, explicit) for opt, spec in release.by_name.items() if opt.startswith(prefix)]
    for opt, spec in release.by_name.items():
        if opt == arg[:2]:
            out.append((spec, opt, arg[2:]))
        elif opt.startswith(arg):
            out.append((spec, opt, None))
    return out


@pytest.mark.parametrize("version", VERSIONS, ids=str)
def test_abbreviations_are_found_as_a_scan_of_every_option_finds_them(version):
    """Every prefix of every option string (with a value, and the single-dash forms: ``-tp``,
    ``-tp4``, ``-O3``) gives the options it abbreviates in registration order, as argparse's
    scan of every option string does: ambiguity candidates are listed in that order."""
    release = knowledge.release(version)
    args = {"--", "-", "--=x", "-x", "-tp4", "-O3", "-q8"}
    for opt in release.option_strings:
        for k in range(2, len(opt) + 1):
            args.update((opt[:k], opt[:k] + "=8"))
        if not opt.startswith("--"):
            args.update((opt + "4", opt + "=4"))
    checked = ambiguous = 0
    for arg in sorted(a for a in args if len(a) >= 2):
        got = argmodel._option_tuples(release, arg)
        assert got == _option_tuples_by_scan(release, arg), arg
        checked += 1
        ambiguous += len(got) > 1
    assert checked > 5000 and ambiguous > 1000
