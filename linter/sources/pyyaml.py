"""PyYAML, imported once for every YAML reader of the linter (``from linter.sources.pyyaml import yaml``).

Importing PyYAML compiles a dozen regular expressions in its modules' bodies, most of which a
run never matches.  The dearest by far is its pure-Python reader's pattern of the characters
YAML refuses (``yaml.reader.Reader.NON_PRINTABLE``): a negated class over every plane, which
Python's compiler spends 58 million instructions on (5 ms, more than the rest of PyYAML's
import), the largest single cost of a one-file run on a YAML file; composing is libyaml's
(:mod:`linter.sources.yaml_nodes`), which checks the characters itself, so only the
pure-Python reader uses it (a text libyaml reads differently, the comment scan of
:func:`linter.sources.comments.yaml_comments`, a PyYAML without libyaml).  Then come the
resolver's implicit-tag patterns (a scalar is matched only against those of its first
character: a manifest of strings and integers never needs the timestamp's or the merge
key's) and the constructor's timestamp.  So while PyYAML is imported here, every pattern a
``yaml`` module compiles is made a :func:`linter.lazy_re.lazy_re`, compiled the first time it
is used (PyYAML calls them only through ``match`` and ``search``); every other caller gets
:func:`re.compile` itself.  A PyYAML imported before is used as it is.

:data:`NOT_PRINTABLE` and :data:`ASCII_NOT_PRINTABLE` are the reader's set of characters
written as what it holds (a few small ranges, cheap to compile), for the linter's own use.
"""

from __future__ import annotations

import re
import sys

from linter.lazy_re import lazy_re

__all__ = ["yaml", "NOT_PRINTABLE", "ASCII_NOT_PRINTABLE"]

# yaml/reader.py's (PyYAML 6.0)
READER_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]"
# the characters READER_NON_PRINTABLE matches, written as the few small ranges they are
NOT_PRINTABLE = lazy_re("[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]")
ASCII_NOT_PRINTABLE = lazy_re("[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]")  # those of them in ASCII


def _import():
    if "yaml" in sys.modules:
        return sys.modules["yaml"]
    compile_now = re.compile

    def compile(pattern, flags=0):
        if sys._getframe(1).f_globals.get("__name__", "").partition(".")[0] == "yaml":
            return lazy_re(pattern, flags)
        return compile_now(pattern, flags)

    re.compile = compile
    try:
        import yaml
    finally:
        re.compile = compile_now
    return yaml


yaml = _import()


def printable(text: str) -> str:
    """``text`` with every character YAML refuses (control characters, surrogates, U+FFFE and
    U+FFFF) made a space: offsets stay true."""
    return (ASCII_NOT_PRINTABLE if text.isascii() else NOT_PRINTABLE).sub(" ", text)
