"""Helpers the reporters share: positions in the unit each format counts in, paths
relative to the working folder, rule page references, and fingerprints that survive
lines moving.  Imports no reporter (:mod:`linter.reporters` dispatches to them)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from urllib.parse import quote

from linter.diagnostic import Diagnostic
from linter.engine import FileResult
from linter.source_file import SourceFile

RULES_DOC = "docs/rules.md"  # the rule pages, generated from the rule modules; anchors are lower-case codes


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str, style: str = "text", keep: str = "") -> str:
    """``text`` with every character a terminal or log viewer could obey or hide escaped.

    File names, option values and source lines come from the repository: an escape
    sequence in them (clear screen, window title, OSC 8 links, OSC 52 clipboard writes,
    C1 controls, bidi overrides, zero-width characters) must be shown, never obeyed.
    Every character :meth:`str.isprintable` refuses (controls, format characters, line
    and paragraph separators, lone surrogates from undecodable names, unassigned code
    points) is escaped:

    * ``style="text"``: as Python writes it (``\\x1b``, ``\\u202e``, ``\\n``), for people;
    * ``style="json"``: as a JSON ``\\uXXXX`` escape, applied to serialised JSON, whose
      only raw control character is the newline between tokens (kept): the decoded
      values stay exact;
    * ``style="xml"``: as an XML character reference (``&#x202e;``), applied to a
      serialised document, newlines between elements kept.

    ``keep``: characters the format itself encodes (the CR and LF of a workflow command).
    """
    if text.isprintable():
        return text
    out = []
    for c in text:
        if c.isprintable() or c in keep or (c == "\n" and style != "text"):
            out.append(c)
            continue
        o = ord(c)
        if style == "json":
            if o > 0xFFFF:
                o -= 0x10000
                out.append(f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}")
            else:
                out.append(f"\\u{o:04x}")
        elif style == "xml":
            out.append(f"&#x{o:x};")
        elif c in _NAMED:
            out.append(_NAMED[c])
        else:
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}")
    return "".join(out)


def json_text(value, **kwargs) -> str:
    """``json.dumps`` for a report: UTF-8 kept readable, control and format characters escaped."""
    import json

    return printable(json.dumps(value, ensure_ascii=False, **kwargs), "json")


def rule_doc_ref(code: str) -> str:
    """``docs/rules.md#vl101``: the rule's page, relative to the repository root."""
    return f"{RULES_DOC}#{code.lower()}"


@lru_cache(maxsize=1)
def version_text() -> str:
    """``--version``: the tool's version and the releases its knowledge covers."""
    from linter import knowledge

    full = knowledge.known_versions()
    history = knowledge.history_versions()
    lines = [f"vllm-lint {tool_version()}"]
    if full:
        lines.append(f"vLLM {full[0]} to {full[-1]}: every option, type and choice, from each release's `vllm serve` parser ({len(full)} releases)")
    if history:
        lines.append(f"vLLM {history[0]} to {history[-1]}: option names only ({len(history)} releases)")
    from rules._lib.hybrid_facts import lmcache_releases

    lm = [r.version for r in lmcache_releases()]
    if lm:
        lines.append(f"LMCache {lm[0]} to {lm[-1]}: every `lmcache server` option, from each release's parser ({len(lm)} releases)")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def project_urls() -> dict[str, str]:
    """``[project.urls]`` of the installed package, as {lower-case label: URL} (http(s) only)."""
    try:
        from importlib.metadata import metadata

        entries = metadata("vllm-lint").get_all("Project-URL") or []
    except Exception:
        return {}
    found = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        url = url.strip()
        if url.startswith(("https://", "http://")):
            found[label.strip().lower()] = url
    return found


def rule_url(code: str) -> str:
    """The rule's page: absolute when ``[project.urls]`` has a ``Documentation`` URL (the folder
    the docs are published at: ``{Documentation}/rules.md#vl101``) or a repository
    (``{Repository}/blob/main/docs/rules.md#vl101``), else relative to the repository root."""
    urls = project_urls()
    docs = urls.get("documentation")
    if docs:
        return f"{docs.rstrip('/')}/{RULES_DOC.split('/', 1)[1]}#{code.lower()}"
    for key in ("repository", "source", "homepage"):
        base = urls.get(key, "")
        if base.startswith(("https://github.com/", "https://gitlab.com/")):
            return f"{base.rstrip('/')}/blob/main/{rule_doc_ref(code)}"
    return rule_doc_ref(code)


def tool_version() -> str:
    try:
        from importlib.metadata import version

        return version("vllm-lint")
    except Exception:  # not installed (running from a checkout)
        return "0.0.0"


def project_url() -> str | None:
    """The project's public home from the package metadata (``[project.urls]``), if it declares one."""
    urls = project_urls()
    for key in ("documentation", "homepage", "repository", "source"):
        if key in urls:
            return urls[key]
    return None


# (working folder, path) -> rel_path's answer: a report names each file once per diagnostic, and
# each answer costs two abspath and a relpath (14 us; 2.3 ms of the monorepo's cold report)
_REL: dict[tuple[str, str], str] = {}
_REL_KEPT = 4096  # answers kept at most (a language server reports for hours)


def rel_path(path: str) -> str:
    """``path`` relative to the working folder with ``/`` separators (absolute when outside it)."""
    key = (os.getcwd(), path)
    got = _REL.get(key)
    if got is None:
        absolute = os.path.join(key[0], path)  # what abspath does, with the folder fetched once
        rel = os.path.relpath(absolute, key[0])
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            got = os.path.normpath(absolute).replace(os.sep, "/")
        else:
            got = rel.replace(os.sep, "/")
        if len(_REL) >= _REL_KEPT:
            _REL.clear()
        _REL[key] = got
    return got


def path_uri(path: str) -> str:
    """A URI reference for ``path``: relative (percent-encoded) inside the working folder, ``file://`` outside."""
    rel = rel_path(path)
    if rel.startswith("/"):
        return "file://" + quote(rel, safe="/")
    return quote(rel, safe="/")


def _clamp(src: SourceFile, offset: int) -> int:
    return max(0, min(offset, len(src.text)))


def char_pos(src: SourceFile | None, offset: int) -> tuple[int, int]:
    """1-based line and 1-based column in characters (code points)."""
    if src is None:
        return 1, 1
    return src.line_col(_clamp(src, offset))


def _prefix(src: SourceFile, offset: int) -> tuple[int, str]:
    offset = _clamp(src, offset)
    line, _ = src.line_col(offset)
    return line, src.text[src.line_starts[line - 1] : offset]


def utf16_pos(src: SourceFile | None, offset: int) -> tuple[int, int]:
    """1-based line and 1-based column in UTF-16 code units (SARIF's default ``columnKind``)."""
    if src is None:
        return 1, 1
    line, prefix = _prefix(src, offset)
    return line, len(prefix.encode("utf-16-le")) // 2 + 1


def utf8_pos(src: SourceFile | None, offset: int) -> tuple[int, int]:
    """1-based line and 1-based column in UTF-8 bytes (reviewdog's unit)."""
    if src is None:
        return 1, 1
    line, prefix = _prefix(src, offset)
    return line, len(prefix.encode("utf-8")) + 1


def span_text(src: SourceFile | None, d: Diagnostic) -> str:
    if src is None:
        return ""
    return src.text[_clamp(src, d.span.start) : _clamp(src, d.span.end)]


def fingerprinted(results: list[FileResult]) -> Iterator[tuple[FileResult, Diagnostic, str]]:
    """Each diagnostic with a fingerprint that does not change when lines move.

    The hash covers the path, the rule code, the text of the flagged span and
    the occurrence index of that (path, code, text) triple in the file, never
    a line number: inserting lines above a finding keeps its fingerprint, and
    two identical findings in one file still get different ones.
    """
    from linter.hashes import sha256

    for result in results:
        seen: Counter[tuple[str, str]] = Counter()
        path = rel_path(result.path)
        for d in result.diagnostics:
            text = span_text(result.src, d)
            key = (d.code, text)
            index = seen[key]
            seen[key] += 1
            payload = "\0".join((path, d.code, " ".join(text.split()), str(index)))
            yield result, d, sha256(payload.encode("utf-8")).hexdigest()[:32]
