"""Lint many files fast: the cache, shares of the files on every core, and a compact result form.

:func:`lint_many` lints walked or named candidates and returns one
:class:`~linter.engine.FileResult` per candidate, in the candidates' order
whatever the number of processes.  Each result travels (from another process, or
from the cache) in a compact form holding what the reports need: the diagnostics
(with their fixes and related locations), and for each launch the release it
was checked against, the pin and why; the file's bytes come along when there
are diagnostics, to rebuild the :class:`~linter.source_file.SourceFile` the
reporters take positions from.  ``--show-launches`` and ``--fix`` need the
launches themselves and do not come here.

What the stat index and the cache answer is answered in the calling process.
On a run that reads every file, a :class:`Screener` forked as the walk goes on
has read and screened the walked files meanwhile: those without a vLLM word are
answered unread.  The files left are read, screened and linted there, or, when they are work
enough for it (over :data:`SPLIT_BYTES` bytes or :data:`SPLIT_FILES` files), by
one process per core: the calling one and ``fork``ed ones take chunks of them in
turn, the heaviest first, from a queue (a pipe); the forked ones send the
results of each chunk back as JSON through a pipe each, taken in by the calling
one between its own chunks (what a failed one did not send is linted here after
all).  A config file that a launch names (``--config FILE``) is linted ahead by
the process that linted the launch, for :func:`lint_named` to take after them
while its bytes are the same.  A progress bar goes to
standard error when it is a terminal and the run takes a while.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterable

from packaging.version import Version

from linter import kinds, source_file
from linter.cache import RACY_SECONDS, VLLM_WORD_FOUND
from linter.diagnostic import Diagnostic, Edit, Fix, Severity
from linter.discovery import words_in
from linter.launch import Span
from linter.records import replace

# the files left must hold more bytes to read than this, or be more files, for shares on several
# cores: forking, and the readers' and releases' first use in each process, cost more than they
# gain on less
SPLIT_BYTES = 4 << 20
SPLIT_FILES = 2000
PER_FILE = 8 << 10  # a file's weight besides its bytes (opening, screening, its result)
# the weight of linting a file that holds a vLLM word, besides its bytes: the monorepo of
# bench/run.py screens its 35 MB in about 0.1 s and lints each such file in about 1.7 ms, as
# long as screening 600 KB
LINT_WEIGHT = 512 << 10
# files with a word that do not count toward sharing: a forked process's first use of the rules,
# the releases and the patterns costs about as much as linting them.  --no-cache on trees of 360
# files with 15, 23, 39 and 71 such files (medians of 21 runs in one process each): shared 106,
# 111, 148, 153 ms; alone 96, 113, 153, 173 ms.  With 16, work shares from 24 such files on.
UNSHARED_LINTS = 16
CHUNK_WEIGHT = 128 << 10  # what the processes take at a time, at least (a heavier file alone)
# the bytes of the files left after screening kept in this process until they are linted; a file
# past it is read (and screened) again then.  A few multi-megabyte install manifests fit: each
# was read twice.
KEEP_BYTES = 32 << 20
PROGRESS_AFTER = 1.0  # seconds before a progress bar appears
# work judged too small to share by its bytes is shared anyway once it has taken this long in
# one process (checked every ALONE_SLICE files)
SHARE_AFTER = 0.25
ALONE_SLICE = 8

# set in the calling process before the shares fork (their processes inherit them)
_STATE: dict = {}


# ---------------------------------------------------------------------------
# compact form


def encode(result) -> dict:
    """A FileResult as plain data (see the module docstring)."""
    diags = []
    for d in result.diagnostics:
        fix = None
        if d.fix is not None:
            fix = [d.fix.message, d.fix.applicability, [[e.span.start, e.span.end, e.content] for e in d.fix.edits]]
        diags.append([
            d.code, d.message, None if d.path == result.path else d.path, d.span.start, d.span.end, d.severity.value,
            fix, d.vllm_version, [[p, s.start, s.end] for p, s in d.related], list(d.notes),
        ])
    out: dict = {}
    if diags:
        out["d"] = diags
    if result.launches:
        out["l"] = [[str(r.version), r.pin, r.reason] for r in result.launches]
    if result.named_configs:
        out["n"] = [[p, str(v)] for p, v in result.named_configs]
    if result.standalone:
        out["s"] = 1
    if result.no_launch:
        out["m"] = 1
    return out


class BadEntry(ValueError):
    """A compact result (from the cache) that is not one :func:`encode` could have written."""


_APPLICABILITY = ("safe", "unsafe", "display-only")
_SEVERITIES = {s.value: s for s in Severity}


def _str(v) -> str:
    if not isinstance(v, str):
        raise BadEntry("not a string")
    return v


def _opt_str(v) -> str | None:
    return None if v is None else _str(v)


def _span(s, e, size: int | None) -> Span:
    if not (isinstance(s, int) and isinstance(e, int)) or isinstance(s, bool) or isinstance(e, bool):
        raise BadEntry("not a span")
    if not 0 <= s <= e or (size is not None and e > size):
        raise BadEntry("span outside the file")
    return Span(s, e)


def _list(v) -> list:
    if not isinstance(v, list):
        raise BadEntry("not a list")
    return v


def _rows(v, width: int) -> list:
    if not isinstance(v, list) or not all(isinstance(r, list) and len(r) == width for r in v):
        raise BadEntry("malformed rows")
    return v


# path -> (bytes, their SourceFile): a cached result is decoded to check its spans and again for
# the report; the text is decoded once (held until the run's results hold it: lint_many, lint_named)
_TEXTS: dict = {}


def _source(path: str, data: bytes):
    from linter.source_file import SourceFile

    kept = _TEXTS.get(path)
    if kept is not None and kept[0] is data:
        return kept[1]
    src = SourceFile.from_bytes(path, data)
    _TEXTS[path] = (data, src)
    return src


def decode(path: str, payload: dict, data):
    """The FileResult of a compact result; raises :class:`BadEntry` (a ValueError) for one
    :func:`encode` could not have written: wrong types, an unknown severity, a span outside
    the file's text (checked when ``data`` is given) or past ``data``'s size (always)."""
    from linter.engine import MAX_FILE_BYTES, FileResult, LaunchReport
    from linter.source_file import DecodeError, SourceFile

    if not isinstance(payload, dict) or not set(payload) <= {"b", "d", "l", "m", "n", "s", "x"}:
        raise BadEntry("not a compact result")
    if "b" in payload:
        _str(payload["b"])
    result = FileResult(path)
    if isinstance(data, SourceFile):  # linted in this run: its text as the linting decoded it (_pack)
        result.src = data
    elif data is not None:
        try:
            result.src = _source(path, data)
        except DecodeError:
            result.src = None
    size = len(result.src.text) if result.src is not None else (len(data) if data is not None else MAX_FILE_BYTES)
    for code, message, dpath, start, end, severity, fix, version, related, notes in _rows(payload.get("d", []), 10):
        f = None
        if fix is not None:
            if not isinstance(fix, list) or len(fix) != 3 or fix[1] not in _APPLICABILITY:
                raise BadEntry("malformed fix")
            f = Fix(_str(fix[0]), tuple(Edit(_span(s, e, size), _str(c)) for s, e, c in _rows(fix[2], 3)), fix[1])
        if severity not in _SEVERITIES:
            raise BadEntry("unknown severity")
        dpath = _opt_str(dpath)
        result.diagnostics.append(
            Diagnostic(code=_str(code), message=_str(message), path=path if dpath is None else dpath,
                       span=_span(start, end, size if dpath is None else None), severity=_SEVERITIES[severity], fix=f,
                       vllm_version=_opt_str(version),
                       related=[(_str(p), _span(s, e, size if p == path else None)) for p, s, e in _rows(related, 3)],
                       notes=tuple(_str(n) for n in _list(notes)))
        )
    for version, pin, reason in _rows(payload.get("l", []), 3):
        result.launches.append(LaunchReport(None, Version(_str(version)), _opt_str(pin), _str(reason)))
    result.named_configs = [(_str(p), Version(_str(v))) for p, v in _rows(payload.get("n", []), 2)]
    result.standalone = payload.get("s") == 1
    result.no_launch = payload.get("m") == 1
    for f, sig in _rows(payload.get("x", []), 2):
        _str(f), _str(sig)
    return result


# ---------------------------------------------------------------------------
# one file


def _outside_files(result, path: str) -> list[str]:
    """The files besides its own that linting ``path`` looked at: each ``--config FILE`` a launch
    names, at every place :func:`linter.engine.config_path` looks for it."""
    from linter.engine import config_candidates

    out: list[str] = []
    for rep in result.launches:
        args = rep.launch.args if rep.launch is not None else ()
        for i, tok in enumerate(args[:-1]):
            if getattr(tok, "value", None) != "--config":
                continue
            name = getattr(args[i + 1], "value", "") or ""
            for c in config_candidates(rep.launch, path, name):
                if c not in out:
                    out.append(c)
    return out


def _outside_signatures(files: list[str]):
    """[[path, signature]] of ``files``, or None when one changed too recently to be trusted."""
    from linter.cache import file_signature

    out = []
    for f in files:
        sig = file_signature(f)
        if sig != "missing" and int(sig.split(":")[1]) >= (time.time() - RACY_SECONDS) * 1e9:
            return None
        out.append([f, sig])
    return out


def _read(path: str) -> bytes | None:
    """The file's bytes (as :func:`linter.engine.read_file` reads them: regular files only,
    never blocking), or None when it is too big or cannot be read: then ``lint_file``
    reads it again and says why."""
    from linter.source_file import MAX_FILE_BYTES, read_file

    try:
        data = read_file(path)
    except OSError:
        return None
    return data if len(data) <= MAX_FILE_BYTES else None


def _keys(cache, path: str, kind: str, prefilter: bool, digest: str) -> tuple[str, str]:
    """The result's cache key, and the key of a result whose file holds no launch (stored under
    that one, :func:`lint_one`): without the settings that only launches read (the target and
    fallback release, the pre-flight facts, the roots a ``--config`` is read under), so a new
    ``--target-version`` finds the files that mention vLLM without launching it unchanged."""
    from linter.cache import settings_key, settings_key_part

    inherited = _STATE.get("inherited")  # a named config file's release, which changes its result
    extra = f"\ninherited={inherited}" if inherited is not None else ""
    # the settings as text, once a run for the paths the same settings text serves (all of them
    # without per-file ignores): 0.1 ms a file otherwise
    texts = _STATE.setdefault("settings_texts", {})
    settings = _STATE["settings"]
    part = settings_key_part(settings, path)
    got = texts.get(part)
    if got is None:
        bare = replace(settings, target=None, fallback=None, gpu_memory_gib=None, model_configs={}, roots=None)
        got = texts[part] = (settings_key(settings, path, built_images=False), "no launch\n" + settings_key(bare, path, built_images=False))
    full, launchless = got
    return cache.key(path, kind, prefilter, full + extra, digest), cache.key(path, kind, prefilter, launchless + extra, digest)


def _cached(cache, path: str, kind: str, prefilter: bool, digest: str, data: bytes | None = None):
    """(the result's key, the key of a launch-less result, see :func:`_keys`), and the stored
    compact result, ``{}`` for an empty one, or None (absent, unreadable, malformed, or with
    spans outside ``data``'s text)."""
    key, bare = _keys(cache, path, kind, prefilter, digest)
    hit = cache.get(key)
    if hit is None:
        hit = cache.get(bare)
        if hit is not None and hit.get("l"):
            hit = None  # a launch-less entry reports no launch
    if hit is not None and "b" in hit and hit["b"] != built_key(_STATE["settings"]):
        hit = None  # its reading looked up the tree's Dockerfiles, and they are not as they were
    if hit is not None:
        try:
            decode(path, hit, data)  # a well-formed entry, or a miss
            if "x" in hit:  # the other files it read must be as they were
                from linter.cache import file_signature

                if any(file_signature(f) != sig for f, sig in hit["x"]):
                    hit = None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            hit = None
    return (key, bare), hit


_MISS = object()


def _from_index(path: str, kind: str, prefilter: bool, signature):
    """What the stat index and the cache answer without linting (``_MISS`` when they cannot)."""
    if signature is None:
        from linter.cache import stat_signature

        try:
            signature = stat_signature(os.stat(path))
        except OSError:
            return _MISS
    known = _STATE["index"].get(path)
    if known is None or tuple(known[:5]) != (signature if type(signature) is tuple else tuple(signature)):
        return _MISS
    digest, might = known[5], known[6]
    if not might and prefilter and kinds.prefiltered(kind):
        if _STATE["settings"].vllm_images:
            return _MISS  # screened without the configured images' names: screen it again
        if might is None and _STATE["settings"].built_images:
            return _MISS  # screened without the build words, which now count (see _screen_one)
        return None  # nothing to read
    cache = _STATE["cache"]
    _key, hit = _cached(cache, path, kind, prefilter, digest)
    if hit is None:
        if not digest:
            return _MISS
        return _Known(digest, might == VLLM_WORD_FOUND)  # unchanged: its digest is known (a new --target-version)
    if not hit:
        return None
    if not hit.get("d"):
        return hit, None
    data = _read(path)
    if data is None or cache.digest(data) != digest:
        return _MISS
    _key, hit = _cached(cache, path, kind, prefilter, digest, data)  # its spans lie in the text
    return (hit, data) if hit else _MISS


class _Known:
    """Not answered by the cache, but unchanged since the stat index recorded its digest, and
    (``word``) whether its screening then found a vLLM word in it (its row's
    :data:`~linter.cache.VLLM_WORD_FOUND`): then it is not screened again."""

    __slots__ = ("digest", "word")

    def __init__(self, digest: str, word: bool = False):
        self.digest = digest
        self.word = word


def lint_one(path: str, kind: str, prefilter: bool, signature=None):
    """(compact result or None when there is nothing to report, the bytes when it has diagnostics),
    and for the parent's cache: (stat index row or None, new entry or None, new extraction entry or None)."""
    done, read = _screen_one(path, kind, prefilter, signature)
    return done if done is not None else _lint_read(path, kind, prefilter, *read)


def _screen_one(path: str, kind: str, prefilter: bool, signature=None, known: str | None = None, word: bool = False):
    """The cheap half of :func:`lint_one`: read the file and screen it.  (its answer, None) when
    that settles it (screened out, unreadable, or in the cache), else (None, (bytes, digest, stat
    index update)) for :func:`_lint_read`.  ``known``: the digest of the file's bytes, from its
    unchanged stat index row (:class:`_Known`): not computed again (a multi-megabyte manifest's
    is 1 ms a megabyte).  ``word``: a vLLM word is known to be in these bytes (that row's
    screening found one, or this run's :class:`Screener` did): not screened again, since no
    needle the settings add can change that answer; otherwise the screening is, as its
    needles depend on the settings (screening its launch files again, three 3.5 MB manifests
    and two 2.4 MB scripts among them, was about 3% of a new ``--target-version``'s run on
    bench/run.py's platform tree)."""
    from linter.engine import lint_file

    settings, cache = _STATE["settings"], _STATE.get("cache")
    screened = prefilter and kinds.prefiltered(kind)  # walked files without vllm/lmcache are empty results
    if cache is not None and signature is None:
        from linter.cache import stat_signature

        try:
            signature = stat_signature(os.stat(path))
        except OSError:
            signature = None
    data = _read(path)
    if data is None:  # too big or unreadable: lint_file says which, as a diagnostic
        return (_pack(lint_file(path, kind, settings, _rules(), prefilter=prefilter), None), (None, None, None)), None
    from linter.discovery import image_needles, screening

    # The stat index records the screening: VLLM_WORD_FOUND (a vLLM word: so whatever the
    # settings), True (no vLLM word, but a build word ``docker build``... when the tree builds a
    # vLLM image, or a configured image's name; or a kind that is not screened), False
    # (neither), or None (no vLLM word; the build words were not looked for, since no
    # Dockerfile of the tree builds FROM a vLLM image: most files hold some ``build``, and the
    # five build needles cost more than the vLLM words).  A file kept only by those words is
    # read when the tree builds one, and a None row is screened again then (:func:`_from_index`).
    if not screened:
        indexed = might = True
    elif word:
        indexed = might = VLLM_WORD_FOUND
    elif settings.built_images:
        indexed = might = screening(data, image_needles(settings.vllm_images, True))
    else:
        found = screening(data, image_needles(settings.vllm_images, False))
        indexed, might = (found, found) if found else (None, False)
    digest = (known or cache.digest(data)) if cache is not None and indexed else ""
    update = _index_update(cache, path, signature, digest, indexed)
    if not might:
        return (None, (update, None, None)), None  # what lint_file returns for it: an empty result
    return None, (data, digest, update)


def _index_update(cache, path: str, signature, digest: str, indexed: str | bool | None, racy: float | None = None):
    """The stat index row of a screened file, ``(path, row)`` (see :meth:`linter.cache.Cache.note_file`),
    or None: no cache, no signature, or changed too recently to be trusted (``racy``: the
    mtime in ns from which it is, :data:`RACY_SECONDS` before now by default)."""
    if cache is None or signature is None:
        return None
    if signature[1] >= ((time.time() - RACY_SECONDS) * 1e9 if racy is None else racy):
        return None
    return path, [*signature, digest, indexed]


def _lint_read(path: str, kind: str, prefilter: bool, data: bytes, digest: str, update):
    """The rest of :func:`lint_one`: the cache's answer for ``data``, or its linting."""
    from linter.engine import extract, lint_file

    settings, cache = _STATE["settings"], _STATE.get("cache")
    key = None
    if cache is not None:
        key, hit = _cached(cache, path, kind, prefilter, digest, data)
        if hit is not None:
            return ((hit, data if hit.get("d") else None) if hit else None), (update, None, None)
    stored: list = []
    looked: list = []
    launches: list = []
    images = images_key(settings)
    built = built_key(settings)
    reader = (lambda src, kind: _counted(cached_extract(cache, src, kind, digest, stored, images, built, looked), launches)) if cache is not None else extract
    result = lint_file(path, kind, settings, _rules(), data=data, reader=reader)  # screened already (_screen_one)
    packed = _pack(result, data)
    payload = packed[0] if packed is not None else {}
    if looked:  # the reading looked up the tree's Dockerfiles: the result holds while they are the same
        payload = {**payload, "b": built}
    entry = None
    if key is not None:  # a file read once, its extraction without a launch: the launch-less key
        entry = _entry(key[1] if launches == [0] and not result.launches else key[0], result, path, payload)
    return packed, (update, entry, stored[0] if stored else None)


def _counted(extraction, launches: list):
    """``extraction``, its number of launches appended to ``launches``."""
    launches.append(len(extraction.launches))
    return extraction


def images_key(settings) -> str:
    """The ``vllm-images`` patterns as text, for the extraction key (the reading depends on them)."""
    return repr(settings.vllm_images) if settings.vllm_images else ""


def built_key(settings) -> str:
    """The images built in the tree (:attr:`linter.engine.Settings.built_images`) as text, for
    the entries whose reading looked them up."""
    return repr(sorted(settings.built_images.items()))


def cached_extract(cache, src, kind: str, digest: str, stored: list, images: str = "", built: str = "[]", looked: list | None = None):
    """The extraction of ``src`` from the cache, or from its reader (appending to ``stored``
    the entry for the cache to keep).  ``images``: the ``vllm-images`` patterns (in the key);
    ``built``: :func:`built_key`, kept with an extraction whose reading looked up the tree's
    Dockerfiles (:func:`linter.sources.commands.built_consulted`), which is used only while
    they are the same; such a reading appends True to ``looked``."""
    from linter import stored_extraction
    from linter.engine import extract
    from linter.sources.commands import built_consulted
    from linter.suppression import directive_comments

    key = cache.extraction_key(src.path, kind, digest, images)
    hit = cache.get_extraction(key)
    if hit is not None and hit.get("B", built) == built:
        try:
            found = stored_extraction.decode({k: v for k, v in hit.items() if k != "B"}, len(src.text))
            if "B" in hit and looked is not None:
                looked.append(True)
            return found
        except ValueError:
            pass
    extraction = extract(src, kind)
    consulted = built_consulted()
    extraction.directives = directive_comments(src, kind)  # searched once, kept for the next target
    if consulted and looked is not None:
        looked.append(True)
    if stored_extraction.storable(extraction):
        payload = stored_extraction.encode(extraction)  # before the engine sets pins on launches
        if consulted:
            payload["B"] = built
        stored.append((key, src.path, payload))
    return extraction


def _entry(key: str, result, path: str, payload: dict):
    """(key, path, payload) to store, or None when an outside file it read is too fresh to trust."""
    outside = _outside_files(result, path)
    if outside:
        sigs = _outside_signatures(outside)
        if sigs is None:
            return None
        payload = {**payload, "x": sigs}
    return key, path, payload


def lint_named(path: str, settings, rules, cache, inherited=None, ahead: dict | None = None):
    """Lint a config file named by ``--config FILE`` (kind ``vllm-config``) against ``inherited``,
    the release of the launch naming it (:func:`linter.engine.choose_release`), through the cache.
    ``ahead``: what the shares of :func:`lint_many` found for the config files they linted ahead
    (:func:`_lint_ahead`), taken when this file's bytes are still those they read."""
    from linter.cache import Cache
    from linter.engine import FileResult, lint_file

    data = _read(path) if cache is not None or ahead else None
    if data is None:
        return lint_file(path, "vllm-config", settings, rules or _rules(settings), inherited=inherited)
    digest = Cache.digest(data)
    got = ahead.get((path, str(inherited))) if ahead else None
    if got is not None and got[0] == digest:
        try:
            result = decode(path, *got[1]) if got[1] is not None else FileResult(path)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            pass  # (a share that sent what is not results: linted here)
        else:
            _TEXTS.clear()
            _put(cache, got[2])
            return result
    if cache is None:
        return lint_file(path, "vllm-config", settings, rules or _rules(settings), data=data, inherited=inherited)
    _STATE.update(settings=settings, cache=cache, rules=rules, inherited=inherited, settings_texts={})
    try:
        answer, updates = _named_answer(path, data, digest, settings, cache, inherited)
    finally:
        _STATE.clear()
    _put(cache, updates)
    try:
        return decode(path, *answer) if answer is not None else FileResult(path)
    finally:
        _TEXTS.clear()


def _put(cache, updates) -> None:
    """Note a packed answer's ``updates`` (stat index row, entry, extraction) in ``cache``."""
    _put_all(cache, (updates,))


def _put_all(cache, all_updates: Iterable) -> None:
    """:func:`_put` of each of ``all_updates`` (a run's thousands: one call)."""
    if cache is None:
        return
    note_file, put, put_extraction = cache.note_file, cache.put, cache.put_extraction
    for update, entry, extraction in all_updates:
        if update is not None:
            note_file(*update)
        if entry is not None:
            put(*entry)
        if extraction is not None:
            put_extraction(*extraction)


def _named_answer(path: str, data: bytes, digest: str, settings, cache, inherited):
    """What :func:`lint_named` finds for the config file ``path`` whose bytes are ``data``, in
    the packed form (:func:`_lint_read`'s): the answer, or None for an empty result, and the
    updates (no stat index row; its cache entry, its extraction).  ``_STATE`` holds the run's
    settings, rules, cache and ``inherited``."""
    from linter.engine import extract, lint_file

    key = None
    if cache is not None:
        (key, _bare), hit = _cached(cache, path, "vllm-config", False, digest, data)
        if hit is not None:
            return ((hit, data if hit.get("d") else None) if hit else None), (None, None, None)
    looked: list = []
    stored: list = []
    images, built = images_key(settings), built_key(settings)
    reader = (lambda src, kind: cached_extract(cache, src, kind, digest, stored, images, built, looked)) if cache is not None else extract
    result = lint_file(path, "vllm-config", settings, _rules(), data=data, inherited=inherited, reader=reader)
    packed = _pack(result, data)
    entry = None
    if key is not None:
        payload = packed[0] if packed is not None else {}
        entry = _entry(key, result, path, {**payload, "b": built} if looked else payload)
    return packed, (None, entry, stored[0] if stored else None)


def _lint_ahead(named: list) -> None:
    """Lint ahead, where the file naming them was linted, the config files of ``named`` (a
    result's ``"n"``: [path as named, release] each) into ``_STATE["ahead"]``, (path,
    release) -> (digest, answer, updates) (:func:`_named_answer`'s), each once: the shares of
    :func:`lint_many` do it, not the calling process after them (:func:`lint_named` takes
    what they found)."""
    from linter.cache import Cache

    ahead = _STATE.get("ahead")
    if ahead is None:
        return
    for path, version in named:
        if (path, version) in ahead or not isinstance(path, str):
            continue
        data = _read(path)
        if data is None:  # too big, or unreadable: lint_named says why
            continue
        digest = Cache.digest(data)
        inherited = Version(version)
        _STATE["inherited"] = inherited
        try:
            ahead[(path, version)] = (digest, *_named_answer(path, data, digest, _STATE["settings"], _STATE.get("cache"), inherited))
        finally:
            del _STATE["inherited"]


def _rules(settings=None):
    """The rules the settings (the run's, or ``settings``) select, imported on the first file
    that is not served from the cache: only the modules of selected codes."""
    if _STATE.get("rules") is None:
        from rules._lib.base import rules_for

        rules = rules_for((settings or _STATE["settings"]).enabled)
        if settings is not None and "settings" not in _STATE:
            return rules  # outside a run of lint_many/lint_named: nothing to keep it in
        _STATE["rules"] = rules
    return _STATE["rules"]


def _pack(result, data):
    """(compact result, the file's SourceFile when it has diagnostics to place) or None."""
    payload = encode(result)
    if not payload:
        return None
    return payload, (result.src if payload.get("d") and result.src is not None and data is not None else None)


# ---------------------------------------------------------------------------
# many files


def _workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Progress:
    def __init__(self, total: int):
        self.total = total
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.on = total > 0 and sys.stderr is not None and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"

    def update(self, done: int) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if now - self.start < PROGRESS_AFTER or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        sys.stderr.write(f"\rvllm-lint [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} files")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 70 + "\r")
            sys.stderr.flush()


def lint_many(candidates, settings, rules, *, cache=None, processes: int | None = None, screener: Screener | None = None,
              ahead: dict | None = None) -> list:
    """One FileResult per linted candidate (``error`` ones become VL003, ``unknown`` ones are
    skipped), in order.  ``screener``: the :class:`Screener` the walk fed, whose flags spare
    reading the files it found no word in.  ``ahead``: a dict given to be filled with the config
    files that the launches linted name, linted ahead (:func:`_lint_ahead`), for
    :func:`lint_named`."""
    from linter.engine import FileResult, input_problem

    jobs = []
    slots: list = []
    results: dict = {}  # slot -> FileResult
    for c in candidates:
        if c.status == "error":
            slots.append(input_problem("VL003", c.path, f"cannot read: {c.reason}", settings))
            continue
        if c.status == "unknown":
            continue
        jobs.append((len(slots), c.path, c.kind, not c.explicit, getattr(c, "signature", None)))
        slots.append(None)
    paths = {job[0]: job[1] for job in jobs}

    def take_in(items: list) -> None:
        # the results and cache updates of packed answers; while the shares lint, as they come,
        # not all left to the end: decoded first, so that a malformed answer (a share's)
        # raises before any of its frame is kept
        decoded = [(slot, FileResult(paths[slot]) if answer is None else decode(paths[slot], answer[0], answer[1]))
                   for slot, answer, _u in items]
        _put_all(cache, (updates for _s, _a, updates in items))
        results.update(decoded)
    index = cache.load() if cache is not None else {}
    _STATE.update(settings=settings, rules=rules, cache=cache, index=index, settings_texts={}, ahead={} if ahead is not None else None)
    packed: list = []
    if cache is not None and index:  # in this process: what the stat index and the cache answer (most of a warm run; none of a first one)
        rest = []
        for job in jobs:
            fast = _from_index(job[1], job[2], job[3], job[4])
            if fast is _MISS:
                rest.append(job)
            elif type(fast) is _Known:
                rest.append((*job, fast.digest, fast.word))
            else:
                packed.append((job[0], fast, (None, None, None)))
        jobs_left = rest
    else:
        jobs_left = jobs
    flags: dict = {}
    # (fewer files left: screened here sooner than waited for; another group of files, with
    # settings of their own, may still take the flags)
    if screener is not None and len(jobs_left) >= SCREEN_AFTER:
        if screener.running:  # what the shares need (the readers of every kind walked), while the screener finishes
            _warm_up(settings, {job[2] for job in jobs_left})
        flags = screener.flags()
        jobs_left = _screened(jobs_left, flags, settings, cache, packed)
        # the files it found a vLLM word in are not screened again when they are read to be linted
        jobs_left = [(*job, None, True) if len(job) == 5 and flags.get(job[1]) == VLLM_WORD else job for job in jobs_left]
    if cache is not None and jobs_left:
        cache.load_extractions()  # before the shares fork: their processes inherit it
    progress = _Progress(len(jobs_left))
    n = processes if processes is not None else _workers()
    children: list = []
    try:
        chunks = None
        base = 0  # the jobs linted here before the shares fork
        if n > 1 and len(jobs_left) > 1 and _can_fork():
            weights = [_weight(job, cache, flags.get(job[1])) for job in jobs_left]
            linted = sum(1 for job in jobs_left if flags.get(job[1]) in (VLLM_WORD, BUILD_WORD))
            free = LINT_WEIGHT * min(linted, UNSHARED_LINTS)  # (what a forked process's first use costs)
            if len(jobs_left) <= SPLIT_FILES and sum(weights) - free <= SPLIT_BYTES + PER_FILE * len(jobs_left):
                base = _alone(jobs_left, packed, progress)  # too little to share, by its bytes, unless it proves long
                jobs_left, weights = jobs_left[base:], weights[base:]
            if jobs_left:
                _warm_up(settings, {job[2] for job, w in zip(jobs_left, weights) if w > PER_FILE})
                chunks = _chunks(jobs_left, weights)
        if chunks is None:
            packed.extend(_run(jobs_left, progress, base))
        else:
            queue, children = _fork_takers(chunks, n - 1, paths, take_in)
            try:
                take_in(packed)  # what was answered before they forked (while they lint: the end of the run waits for less)
                packed.clear()
                done = _take(queue, chunks, take_in, progress, base, children)
            finally:
                os.close(queue)
            for share in children:  # what each sent whole; what a failed one left is linted here (below)
                share.finish()
            missing = [job for job in jobs_left if job[0] not in results]
            if missing:
                packed.extend(_run(missing, progress, base + done + sum(share.taken for share in children)))
        if ahead is not None:
            for share in children:
                ahead.update(share.ahead)
            ahead.update(_STATE["ahead"])
    finally:
        for share in children:  # interrupted: the other processes end with this one
            share.end()
        progress.close()
        _STATE.clear()
    try:
        take_in(packed)  # (the cache is saved by the caller, once, with the named config files' entries: Cache.save)
        out = [slot if slot is not None else results[i] for i, slot in enumerate(slots)]
    finally:
        _TEXTS.clear()  # the results hold the texts now (or the run is over)
    return out


def _worker_signals() -> None:
    """A share's process leaves interruptions to the calling one: Ctrl-C reaches the whole
    process group, and an interrupted run ends the others; neither must print a trace from each."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _warm_up(settings, kinds_left: Iterable[str] = ()) -> None:
    """Import the rules, the readers of the kinds left to read (each share is likely to meet each
    kind) and load the release every share will need (the target, or the newest one that
    unpinned launches are checked against) before forking, so that the shares' processes
    inherit them instead of loading them again.  Other releases are loaded by the processes
    whose files pin them."""
    from linter import knowledge

    _rules()
    for kind in sorted(set(kinds_left)):
        kinds.reader(kind)
    knowledge.release(settings.target or knowledge.newest()).by_name


def _run(jobs, progress, done: int = 0) -> list:
    """Read and screen each of ``jobs`` (most files end there), then lint the rest: their packed
    results (see :func:`lint_one`)."""
    packed: list = []
    left: list = []
    kept = 0
    for k, job in enumerate(jobs, 1):
        answer, read = _screen_one(*job[1:])
        if answer is not None:
            packed.append((job[0], *answer))
        else:
            size = len(read[0])
            keep = kept + size <= KEEP_BYTES  # bounded: bytes kept in this process
            left.append((job, read if keep else None))
            kept += size if keep else 0
        progress.update(done + k - len(left))
    done += len(jobs) - len(left)
    for job, read in left:
        answer = _lint_read(*job[1:4], *read) if read is not None else lint_one(*job[1:5])
        packed.append((job[0], *answer))
        if answer[0] is not None and "n" in answer[0][0]:
            _lint_ahead(answer[0][0]["n"])
        done += 1
        progress.update(done)
    return packed


def _weight(job, cache, flag: int | None = None) -> int:
    """The work of ``job`` for the processes: its bytes (to read, screen and lint) plus
    :data:`PER_FILE`, and :data:`LINT_WEIGHT` more when the screener found a word in it
    (``flag``: it is linted); only :data:`PER_FILE` when its digest is known unchanged
    (:class:`_Known`, the job's sixth item; the seventh says a vLLM word is known to be in it)
    and the cache holds its extraction (a new ``--target-version``: only the rules are left)."""
    if flag == VLLM_WORD or flag == BUILD_WORD:
        return _weight(job, cache) + LINT_WEIGHT
    if len(job) > 5 and job[5] and cache.get_extraction(cache.extraction_key(job[1], job[2], job[5], images_key(_STATE["settings"]))) is not None:
        return PER_FILE
    sig = job[4]
    if sig is None:
        try:
            return os.stat(job[1]).st_size + PER_FILE
        except OSError:
            return PER_FILE
    return sig[0] + PER_FILE


def _chunks(jobs, weights: list[int]) -> list:
    """``jobs`` in chunks for the processes to take in turn (:func:`_take`): the heaviest first
    (:func:`_weight`), so that the last ones taken are small and the processes end together;
    a job alone when it weighs :data:`CHUNK_WEIGHT` or more, the others together up to about
    that much; each chunk in the jobs' order; at most about 800 chunks."""
    target = max(CHUNK_WEIGHT, sum(weights) // 400 + 1)  # a closed chunk weighs over half of it
    chunks: list[list[int]] = []
    current: list[int] = []
    weight = 0
    for k in sorted(range(len(jobs)), key=lambda k: (-weights[k], k)):
        if current and weight + weights[k] > target:
            chunks.append(current)
            current, weight = [], 0
        current.append(k)
        weight += weights[k]
    if current:
        chunks.append(current)
    return [[jobs[k] for k in sorted(c)] for c in chunks]


def _fork_takers(chunks, n: int, paths: dict, take_in: Callable[[list], None]) -> tuple[int, list]:
    """A queue of the numbers of ``chunks`` (a pipe, written whole before any process reads it)
    and ``n`` forked processes taking chunks from it, each sending the results of every chunk as
    soon as it is linted (:func:`_send_results`): (the queue's read end, a :class:`_Share` of each
    process); fewer processes when a fork fails.  ``paths``: slot -> path of the jobs;
    ``take_in``: given the packed results of each frame a share sends."""
    import gc

    reap()  # those of an earlier run (the language server's) that ended after it
    queue, feed = os.pipe()
    os.write(feed, b"".join(k.to_bytes(2, "little") for k in range(len(chunks))))  # (under 2 KiB: fits any pipe)
    children = []
    gc.freeze()  # the collector of each process leaves the inherited objects alone: their pages stay shared
    try:
        for _ in range(n):
            child = _fork(lambda out: _send_results(queue, chunks, out), (feed,))
            if child is not None:
                children.append(_Share(*child, paths, take_in))
    finally:
        gc.unfreeze()
        os.close(feed)  # the queue ends once every number is taken
    return queue, children


def _take(queue: int, chunks, take_in: Callable[[list], None], progress, done: int = 0, shares: list | None = None) -> int:
    """Take chunk numbers from ``queue`` until it is empty, linting each chunk, its packed
    results given to ``take_in``: how many jobs it linted (``done``: the jobs finished before,
    for the progress bar).  Two bytes a read: a read of a pipe takes its bytes whole, and every
    number was written before the first read.  After each chunk, what the ``shares``
    (:class:`_Share`) sent meanwhile is taken in."""
    linted = 0
    while True:
        data = os.read(queue, 2)
        if len(data) < 2:
            break
        packed = _run(chunks[int.from_bytes(data, "little")], progress, done + linted)
        linted += len(packed)
        take_in(packed)
        if shares:
            for share in shares:
                share.poll()
            progress.update(done + linted + sum(share.taken for share in shares))
    return linted


_LENGTH = 4  # the bytes of a frame's length (little-endian), before its results; 0: the last frame


def _send_results(queue: int, chunks, out: int) -> bytes:
    """A share's process: the chunks it takes from ``queue`` (:func:`_take`), the results of
    each written to ``out`` once it is linted, as a frame: their length, then their wire form
    (:func:`_to_wire`); once the queue is empty, a frame of length 0 says that all were sent
    (the calling process goes on without waiting for this one to end, :meth:`_Share.finish`).
    The calling process takes them in between its own chunks, so neither the encoding nor the
    decoding of all of them is left to the end of the run."""
    progress = _Progress(0)
    try:
        import fcntl

        fcntl.fcntl(out, fcntl.F_SETPIPE_SZ, 1 << 20)  # room for the results of a chunk or more while it lints its own
    except (ImportError, AttributeError, OSError):
        pass
    ahead = _STATE.get("ahead")
    sent = len(ahead) if ahead is not None else 0  # (those linted ahead before the fork are the calling process's)
    while True:
        data = os.read(queue, 2)
        if len(data) < 2:
            _write_all(out, bytes(_LENGTH))
            return b""
        results = _run(chunks[int.from_bytes(data, "little")], progress)
        named = list(ahead.items())[sent:] if ahead is not None else []
        sent += len(named)
        wire = _to_wire(results, named)
        _write_all(out, len(wire).to_bytes(_LENGTH, "little") + wire)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class _Share:
    """A forked taker's process (:func:`_send_results`) as the calling one reads it: its frames
    decoded as they come (:meth:`poll`, never waiting) and given to ``take_in``, the rest at
    the end (:meth:`finish`)."""

    def __init__(self, pid: int, fd: int, paths: dict, take_in: Callable[[list], None]):
        self.pid, self.fd = pid, fd
        self.paths = paths
        self.take_in = take_in
        self.taken = 0  # the results of the frames taken in
        self.ahead: list = []  # and the config files it linted ahead (:func:`_from_wire`)
        self._buffer = bytearray()
        self._broken = False  # a frame that was not results: nothing after it is taken
        self._sent = False  # its last frame came: all it took was sent
        self._ended = False  # reaped (or left to :func:`reap`), its pipe closed
        os.set_blocking(fd, False)

    def poll(self) -> None:
        """Take in the frames it sent so far."""
        while not self._broken and not self._sent:
            try:
                more = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                return
            except OSError:
                self._broken = True
                return
            if not more:
                return
            self._buffer += more
            self._frames()

    def _frames(self) -> None:
        buffer = self._buffer
        start = 0
        while not self._broken and not self._sent and len(buffer) - start >= _LENGTH:
            size = int.from_bytes(buffer[start:start + _LENGTH], "little")
            if size == 0:
                self._sent = True
                break
            end = start + _LENGTH + size
            if end > len(buffer):
                break
            try:
                packed, ahead = _from_wire(bytes(buffer[start + _LENGTH:end]), self.paths)
                self.take_in(packed)
                self.taken += len(packed)
                self.ahead.extend(ahead)
            except (ValueError, TypeError, KeyError, IndexError):  # not results: what it took is linted here
                self._broken = True
            start = end
        del buffer[:start]

    def finish(self) -> None:
        """Take in every frame it sent whole, until its last (a process that failed or was cut
        short sent fewer, and no last frame: the caller lints what they lack).  Its process is
        reaped when it has ended, else left to :func:`reap`: the end of a process that shares
        the pages of a big one takes a few milliseconds, which this one need not wait."""
        os.set_blocking(self.fd, True)
        try:
            while not self._broken and not self._sent:
                try:
                    more = os.read(self.fd, 1 << 20)
                except OSError:
                    break
                if not more:
                    break
                self._buffer += more
                self._frames()
        finally:
            self._ended = True
            try:
                os.close(self.fd)
            except OSError:
                pass
            _reap_later(self.pid, wait=not self._sent)  # (no last frame: it failed, or was cut short)

    def end(self) -> None:
        """End its process if it still runs (the run interrupted)."""
        if not self._ended:
            self._ended = True
            _end(self.pid, self.fd)


# the forked processes that sent all they had but had not ended when the run went on (:meth:`_Share.finish`)
_UNREAPED: list[int] = []


def _reap_later(pid: int, wait: bool = False) -> None:
    """Reap the process ``pid`` now if it has ended (or, ``wait``: once it does), else leave
    it to :func:`reap`."""
    try:
        if wait:
            os.waitpid(pid, 0)
        elif os.waitpid(pid, os.WNOHANG)[0] == 0:
            _UNREAPED.append(pid)
    except OSError:
        pass


def reap() -> None:
    """Reap the processes left by :func:`_reap_later`: they sent all they had and are ending,
    or ended (killed first, never waited for longer).  Called before this process exits, so
    that what the system counts of its children (their peak memory) counts them, and before
    new ones fork."""
    while _UNREAPED:
        _end(_UNREAPED.pop())


def _alone(jobs, packed: list, progress) -> int:
    """Lint the first of ``jobs`` in this process, :data:`ALONE_SLICE` at a time, onto
    ``packed``, until all are done or that has taken :data:`SHARE_AFTER` seconds with two or
    more left for the shares: how many were done.  Their bytes said the work was too small to
    share, but a file dense with launches costs far more than its bytes (400 scripts of 20
    launches each: 5.9 s, on one core)."""
    start = time.perf_counter()
    for k in range(0, len(jobs), ALONE_SLICE):
        if k and len(jobs) - k > 1 and time.perf_counter() - start > SHARE_AFTER:
            return k
        packed.extend(_run(jobs[k:k + ALONE_SLICE], progress, k))
    return len(jobs)


# ---------------------------------------------------------------------------
# screening while the walk goes on

SCREEN_AFTER = 256  # walked files to screen before a process is forked to screen them while the walk goes on
_FS_ENCODING = (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())  # what os.fsencode encodes a name with
_SEND_BYTES = 4096  # the names sent to it at a time
_FLAGS_EVERY = 32  # the files it screens between two writes of their flags
# what it found in a file: no vLLM word nor build word; a build word only; a vLLM word; not
# screened (unreadable or too big: read here as before, to say why)
NO_WORD, BUILD_WORD, VLLM_WORD, UNSCREENED = b"nbv?"


class Screener:
    """Reads and screens the walked files in a forked process while the walk goes on.

    On the monorepo of ``bench/run.py`` the walk takes about 80 ms of a 0.42 s cold run, with
    the other core idle, and reading and screening its 3,800 files (all but 180 without a vLLM
    word) about 100 ms of the 0.44 s of CPU time that both cores then spend.  Once the walk has found
    :data:`SCREEN_AFTER` files that are screened unread when they hold no vLLM word, a process
    is forked (when another core is free and no other thread runs); the walk sends it their
    names through a pipe as they are found, never waiting for it, and it sends back a flag
    for each file it read, in order (:func:`_screen_names`): which words the file holds
    (:func:`linter.discovery.words_in`: a vLLM word, a build word, neither).

    When :func:`lint_many` asks for the flags (:meth:`flags`), the files the process has not
    reached (or was never sent) are screened here, from the last one back, until the two
    meet; then it is ended.  So a slow process, or one that died, costs time, never a file.
    :func:`lint_many` answers the files with neither word (or with a build word, when the
    tree builds no vLLM image) as its own screening would, without reading them again: an
    empty result, and the same stat index row.

    Made only for a run that reads every file (``--fix`` and ``--diff``, whose
    :func:`linter.project.fix` takes the flags too; a check with no cache, or a new one:
    :meth:`linter.cache.Cache.is_new`): the stat index answers for most files of the others,
    unread, and a forked process makes the first one pay for every page of memory it changes
    while the other lives (0.18 s to 0.20 s on the monorepo warm).
    """

    def __init__(self):
        self.sent: list[str] = []  # the names, in the order the flags come back
        self._encoded = 0  # how many of them are in ``_pending`` or gone out
        self._unsent = 0  # about how many bytes the names after those make
        self._pending = bytearray()  # encoded names the pipe has not taken yet
        self._child: tuple[int, int] | None = None  # (pid, read end of the flags)
        self._feed: int | None = None  # write end of the names
        self._off = False  # never started, or stopped: no name goes out any more
        self._flags: dict | None = None
        self._screens: dict[str, bool] = {}  # kind -> kinds.prefiltered(kind), asked once a kind

    @property
    def running(self) -> bool:
        """Its process was forked, and its flags not taken yet."""
        return self._child is not None

    def add(self, candidate) -> None:
        """A walked candidate (one the walk yields, in order)."""
        if self._off or candidate.status != "ok" or candidate.explicit:
            return
        kind = candidate.kind
        screened = self._screens.get(kind)
        if screened is None:
            screened = self._screens[kind] = kinds.prefiltered(kind)
        if not screened:
            return
        path = candidate.path
        self.sent.append(path)
        if self._child is None:
            if len(self.sent) >= SCREEN_AFTER:
                self._start()
            return
        self._unsent += len(path) + 1
        if self._unsent >= _SEND_BYTES:
            self._send()

    def _start(self) -> None:
        if _workers() < 2 or not _can_fork():
            self._stop()
            return
        names, feed = os.pipe()
        child = _fork(lambda out: _screen_names(names, out), (feed,))
        os.close(names)
        if child is None:
            os.close(feed)
            self._stop()
            return
        os.set_blocking(feed, False)  # the walk never waits for the screening
        os.set_blocking(child[1], False)  # nor does :meth:`flags`: it screens meanwhile
        try:
            import fcntl

            fcntl.fcntl(feed, fcntl.F_SETPIPE_SZ, 1 << 20)  # room for 20,000 names ahead of it
        except (ImportError, AttributeError, OSError):
            pass
        self._child, self._feed = child, feed
        self._send()

    def _send(self) -> None:
        """Encode the names not encoded yet, NUL after each, as os.fsencode encodes (one call for
        the names of about :data:`_SEND_BYTES`, not one a name: a walk sends thousands), and
        write what the pipe takes of those pending, never waiting."""
        if self._encoded < len(self.sent):
            self._pending += ("\0".join(self.sent[self._encoded:]) + "\0").encode(*_FS_ENCODING)
            self._encoded, self._unsent = len(self.sent), 0
        try:
            n = os.write(self._feed, self._pending)
        except BlockingIOError:
            return
        except OSError:  # the process ended: the names left are screened here (:meth:`flags`)
            self._close_feed()
            self._stop()
            return
        del self._pending[:n]

    def walked(self) -> None:
        """The walk is over: the names the pipe takes go out, and the process knows no more come."""
        if self._child is None:
            self._stop()  # too few files for a process of their own
            return
        if self._feed is not None:
            self._send()
        self._close_feed()
        self._stop()

    def flags(self) -> dict[str, int]:
        """Name -> flag of each file sent; {} when no process was forked (the screening stays
        in :func:`lint_many`).  The files the process has not screened yet are screened
        here, the last first, while its flags keep coming."""
        if self._flags is None:
            self._flags = {}
            if self._child is not None:
                self.walked()
                pid, fd = self._child
                self._child = None
                try:
                    self._flags = dict(zip(self.sent, self._met(fd)))
                finally:
                    _end(pid, fd, wait=False)  # (its end, or the rest of what this one screened too, is not waited for)
        return self._flags

    def _met(self, fd: int) -> bytes:
        """The flags of every name: the process's from the first, this one's from the last,
        until they meet."""
        total = len(self.sent)
        got = bytearray()
        mine = bytearray()  # from the last name back
        done = False  # the process ended (its pipe's end), or sent what is not a flag
        while len(got) + len(mine) < total:
            if not done:
                try:
                    more: bytes | None = os.read(fd, 1 << 16)
                except BlockingIOError:
                    more = None  # nothing new yet: one more file screened here
                if more is not None:
                    if not more:
                        done = True  # the process ended
                    elif more.translate(None, b"nbv?"):
                        done = True  # not flags: none of its answer is used
                        got.clear()
                    else:
                        got += more
                    continue
            mine.append(_screen_flag(self.sent[total - 1 - len(mine)]))
        mine.reverse()
        return bytes(got[: total - len(mine)]) + bytes(mine)

    def _stop(self) -> None:
        self._off = True
        self._pending.clear()

    def _close_feed(self) -> None:
        if self._feed is not None:
            try:
                os.close(self._feed)
            except OSError:
                pass
            self._feed = None

    def close(self) -> None:
        """End the process if it still runs (its flags unasked, or the run interrupted)."""
        self._close_feed()
        self._stop()
        if self._child is not None:
            _end(*self._child)
            self._child = None


def _screen_flag(path: str) -> int:
    """What :func:`linter.discovery.words_in` finds in the file ``path`` (see :class:`Screener`):
    read in one go when small (:func:`linter.source_file.read_small`, most files), else a piece
    at a time (:func:`linter.source_file.read_pieces`); the bytes are not kept.  (Its modules
    are imported once, not by each call: a screening asks about thousands of files.)"""
    try:
        data = source_file.read_small(path)
        if data is not None:  # the whole file in one read (most files)
            size = len(data)
            vllm, build = words_in((data,))
        else:
            size = 0

            def counted(pieces):
                nonlocal size
                for piece in pieces:
                    size += len(piece)
                    yield piece

            pieces = source_file.read_pieces(path)
            try:
                vllm, build = words_in(counted(pieces))
            finally:
                pieces.close()
    except OSError:
        return UNSCREENED  # read here, to say why
    if vllm:
        return VLLM_WORD  # (read here whatever its size)
    return UNSCREENED if size > source_file.MAX_FILE_BYTES else BUILD_WORD if build else NO_WORD


def _screen_names(names: int, out: int) -> bytes:
    """The screener's process: the flag of each name read from ``names`` until its end, in
    order, written to ``out`` :data:`_FLAGS_EVERY` at a time (see :class:`Screener`)."""
    flags = bytearray()
    rest = b""
    while True:
        chunk = os.read(names, 1 << 16)
        if not chunk:
            break
        got = rest + chunk
        end = got.rfind(b"\0")  # (a name cut short at the end never comes whole: left)
        if end < 0:
            rest = got
            continue
        rest = got[end + 1:]
        paths = got[:end].decode(*_FS_ENCODING).split("\0")  # (os.fsdecode's, once for them all)
        for k, path in enumerate(paths, 1):
            flags.append(_screen_flag(path))
            if len(flags) >= _FLAGS_EVERY or k == len(paths):
                os.write(out, flags)  # (a pipe takes a write of 512 bytes or less whole)
                flags.clear()
    return b""


def screened_out(flag: int | None, kind: str, prefilter: bool, settings) -> bool:
    """Whether the screener's ``flag`` for a file (None: it has none) answers it unread, as an
    empty result: a walked file (``prefilter``) of a kind that is screened, in which it found
    neither word, or only a build word when the tree builds no vLLM image, with no
    ``vllm-images`` patterns (needles it did not look for)."""
    if flag is None or settings.vllm_images or not prefilter or not kinds.prefiltered(kind):
        return False
    return flag == NO_WORD or (flag == BUILD_WORD and not settings.built_images)


def _screened(jobs, flags: dict, settings, cache, packed: list) -> list:
    """``jobs`` without those the screener found neither word in (and, unless the tree builds
    a vLLM image, no vLLM word): their answers go onto ``packed``, as :func:`_screen_one`'s
    for them (an empty result, the stat index row of a file screened out)."""
    if not flags or settings.vllm_images:  # needles the screener did not look for
        return jobs
    built = bool(settings.built_images)
    racy = (time.time() - RACY_SECONDS) * 1e9
    rest = []
    for job in jobs:
        signature = job[4]
        if signature is None or len(job) > 5 or not screened_out(flags.get(job[1]), job[2], job[3], settings):
            rest.append(job)
            continue
        # (screened out: False with the build words looked for, None without, as _screen_one records it)
        packed.append((job[0], None, (_index_update(cache, job[1], signature, "", False if built else None, racy), None, None)))
    return rest


def _fork(work, close: tuple[int, ...] = ()) -> tuple[int, int] | None:
    """A forked process that runs ``work(out)`` and sends through a pipe what it writes to the
    descriptor ``out`` and then the bytes it returns: (its pid, the read end), or None when
    the fork fails.  The process closes the descriptors ``close`` first (the write end of a
    pipe it reads to its end), leaves interruptions to this one (:func:`_worker_signals`) and
    never returns: a failure is its exit code."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the forked process: never returns
        code = 1
        try:
            os.close(read_end)
            for fd in close:
                os.close(fd)
            _worker_signals()
            data = work(write_end)
            with os.fdopen(write_end, "wb") as f:
                f.write(data)
            code = 0
        except BaseException:  # noqa: BLE001 - reported by the exit code: the parent does what it took
            pass
        finally:
            os._exit(code)  # no atexit handlers, no flush of the parent's buffers
    os.close(write_end)
    return pid, read_end


def _to_wire(packed: list, ahead: Iterable = ()) -> bytes:
    """A share's packed results as JSON, the form the cache keeps them in (results, stat index
    rows, entries, extractions), with the texts that place their diagnostics (a SourceFile's
    text, encoding and BOM; a file's bytes as base64); and the config files it linted ahead,
    ``((path, release), (digest, answer, updates))`` each (see :func:`_lint_ahead`)."""
    rows = [[slot, _answer_out(answer), list(updates)] for slot, answer, updates in packed]
    named = [[path, version, digest, _answer_out(answer), list(updates)] for (path, version), (digest, answer, updates) in ahead]
    # ASCII: a lone surrogate of a text as its escape; plain data, no circular reference to look for
    return json.dumps([rows, named], separators=(",", ":"), check_circular=False).encode("ascii")


def _from_wire(data: bytes, paths: dict) -> tuple[list, list]:
    """:func:`_to_wire`'s results and config files linted ahead again, SourceFiles made anew
    (their texts are not decoded again); ``paths``: slot -> path of the jobs."""
    rows, named = json.loads(data)
    out = [(slot, _answer_in(answer, paths[slot]), tuple(updates)) for slot, answer, updates in rows]
    ahead = []
    for path, version, digest, answer, updates in named:
        if not (isinstance(path, str) and isinstance(version, str) and isinstance(digest, str)):
            raise ValueError("not a config file linted ahead")
        ahead.append(((path, version), (digest, _answer_in(answer, path), tuple(updates))))
    return out, ahead


def _answer_out(answer):
    if answer is None:
        return None
    from linter.source_file import SourceFile

    payload, src = answer
    if isinstance(src, SourceFile):
        src = {"t": src.text, "e": src.encoding, "b": src.bom.hex()}
    elif src is not None:
        import base64  # (not on the start path: a run with no shares needs none)

        src = {"d": base64.b64encode(src).decode("ascii")}
    return [payload, src]


def _answer_in(answer, path: str):
    if answer is None:
        return None
    from linter.source_file import SourceFile

    payload, src = answer
    if src is not None and "t" in src:
        src = SourceFile(path, src["t"], src["e"], bytes.fromhex(src["b"]))
    elif src is not None:
        import base64

        src = base64.b64decode(src["d"])
    return payload, src


def _end(pid: int, fd: int | None = None, wait: bool = True) -> None:
    """Kill the process ``pid`` and reap it (unless ``wait`` is False: then now if it has
    ended, else by :func:`reap`); close ``fd``, its pipe."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    _reap_later(pid, wait=wait)
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass


def _can_fork() -> bool:
    """A ``fork`` that copies only this thread is safe: no other thread runs (the language
    server's, an embedding program's), and the platform has it."""
    import threading

    return hasattr(os, "fork") and threading.active_count() == 1
