"""Find the files to lint under the given paths, and say what kind each one is.

Cheap by design: folders are walked with :func:`os.scandir`, names decide the
kind, and only extension-less files have their first bytes read (for a
shebang).  Nothing but regular files is ever opened: named pipes, sockets and
devices are skipped (or reported when given by name).  Symlinked folders are
not followed (so links out of the tree and link loops cannot be walked);
symlinked files are kept when their target is a regular file inside the
walked folder.

Ignoring works like ruff's: a default list of folders (``.git``, ``.venv``,
``node_modules`` ...) that ``exclude`` replaces and ``extend_exclude`` extends,
plus ``.gitignore`` files (nested ones, negations, folder patterns) and
``.git/info/exclude``.  A file named on the command line is always linted,
unless ``force_exclude`` is set and it is excluded or ignored.

Errors (a folder that cannot be listed, a file that cannot be read, a path
that does not exist) are yielded as ``Candidate.failed(path, reason)``;
discovery itself never raises for them.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Literal

from linter.cache import VLLM_WORD_FOUND, stat_signature
from linter.kinds import classify
from linter.lazy_re import lazy_re
from linter.records import Frozen, _set, setters
from linter.source_file import read_file

if TYPE_CHECKING:
    import pathspec  # imported when an ignore file or an exclude pattern is read

DEFAULT_EXCLUDES: tuple[str, ...] = (
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".svn", ".jj", ".ipynb_checkpoints",
    ".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".tox",
    ".venv", "venv", ".vscode", ".idea", "__pypackages__", "__pycache__", "_build", "buck-out",
    "build", "dist", "node_modules", "site-packages", ".vllm-lint-cache",
)

# the words without which a file cannot launch vLLM (Ray Serve LLM's ``LLMConfig`` starts it
# without naming it): :func:`might_launch` looks for them, lower-cased; the Python reader too
VLLM_WORDS = ("vllm", "lmcache", "ray.serve.llm")
_NAME = attrgetter("name")
HEAD_SIZE = 256  # bytes read from an extension-less file to find its shebang
_CHUNK = 1 << 20
# bytes each chunk screened shares with the next, so that a word across two is seen: the longest
# needle, ``ray.serve.llm`` in UTF-32, is 52 bytes
_OVERLAP = 64

class Candidate(Frozen):
    """A file to lint.

    ``kind`` is what :func:`classify` said: a row of :data:`linter.kinds.KINDS`,
    or None when ``status`` is not ``"ok"``: ``"unknown"`` for a file given by
    name whose kind is not known, ``"error"`` when it cannot be read (then
    ``reason`` says why and the path must not be read).
    """

    __slots__ = ("path", "kind", "reason", "explicit", "signature", "status")
    _compare = ("path", "kind", "reason", "explicit", "status")
    _shown = ("path", "kind", "reason", "explicit", "status")

    path: str
    kind: str | None
    reason: str
    explicit: bool  # named on the command line rather than found by walking
    # linter.cache.stat_signature of a walked file when it was found: the cache's stat index uses it
    signature: tuple[int, int, int, int, int] | None
    status: Literal["ok", "unknown", "error"]

    def __init__(self, path, kind, reason="", explicit=False, signature=None, status="ok"):
        set_path, set_kind, set_reason, set_explicit, set_signature, set_status = _CANDIDATE_SET
        set_path(self, path)
        set_kind(self, kind)
        set_reason(self, reason)
        set_explicit(self, explicit)
        set_signature(self, signature)
        set_status(self, status)

    @classmethod
    def failed(cls, path: str, reason: str, *, explicit: bool = False) -> Candidate:
        return cls(path, None, reason, explicit=explicit, status="error")


_CANDIDATE_SET = setters(Candidate, *Candidate.__slots__)  # (a walk makes thousands)


def tidy_path(path: str) -> str:
    """``path`` as ruff prints it: without ``.`` components (``./x`` -> ``x``, ``a/./x`` -> ``a/x``).

    Only ``.`` components and repeated separators go; ``..`` stays (through a
    symbolic link ``a/..`` is not the folder ``a`` came from), and so does a leading ``/``.
    """
    sep, alt = os.sep, os.altsep
    if (
        path != "." and not path.startswith("." + sep) and not path.endswith(sep + ".")
        and f"{sep}.{sep}" not in path and sep * 2 not in path and (alt is None or alt not in path)
    ):
        return path  # no ``.`` component, no repeated separator (the walk's paths are born so)
    seps = os.sep + (os.altsep or "")
    lead = path[:1] if path[:1] in seps else ""
    parts = [p for p in re.split(f"[{re.escape(seps)}]", path) if p not in ("", ".")]
    return lead + os.sep.join(parts) if parts else (lead or ".")


# ---------------------------------------------------------------------------
# Kinds


def _needs_head(name: str) -> bool:
    """Only extension-less files are sniffed for a shebang."""
    return "." not in name.lstrip(".")


# what a script or compose file that builds an image says: ``docker build`` (``buildx``,
# ``podman``, ``nerdctl``), or a compose ``build:`` key (block or flow, quoted or not: ``build``
# after a line start, blank, quote, ``{`` or ``,``, then ``:`` and a blank or the end; never an
# image tag, ``org/build:1.2``).  One pattern that starts with its literal, so the engine scans
# for ``build`` and tests what is around each one in C.
_BUILD_WORDS = lazy_re(
    rb"""build(?:(?<=docker build)|(?<=buildx build)|(?<=podman build)|(?<=nerdctl build)"""
    rb"""|(?<![^ \t\r\n{,"']build)["']?[ \t]*:(?=\s|$))"""
)


def _builds(chunk: bytes) -> bool:
    return _BUILD_WORDS.search(chunk) is not None


def image_needles(patterns, built: bool = False) -> tuple:
    """See :func:`_image_needles` (once per run for each set of patterns: a walk screens every file with them)."""
    return _image_needles(tuple(patterns), built)


@lru_cache(maxsize=64)
def _image_needles(patterns: tuple[str, ...], built: bool) -> tuple:
    """What a file naming one of the ``vllm-images`` glob ``patterns`` must hold: the longest
    stretch without glob characters of each, lower-cased (for :func:`might_launch`); ``built``:
    the tree has Dockerfiles built FROM a vLLM image, so a script that builds one (``docker
    build``, ``buildx build``, ``podman build``) or a compose ``build:`` key may run it.  A
    needle is bytes to find, or a test of a chunk of lower-cased bytes."""
    out: list = [_builds] if built else []
    for p in patterns:
        parts = re.split(r"[*?\[\]!]+", p.lower())
        out.append(max(parts, key=len).encode("utf-8"))
    return tuple(out)


def might_launch(data: bytes | bytearray | memoryview, needles: tuple = ()) -> bool:
    """False when ``data`` cannot hold a launch (no ``vllm``, ``lmcache`` nor ``ray.serve.llm`` in
    any case, nor any of ``needles``: see :func:`image_needles`).

    ``ray.serve.llm``: Ray Serve LLM's ``LLMConfig`` starts vLLM without the word.

    Lower-cases at most about 1 MiB at a time, so a big buffer is never copied whole.
    """
    return bool(screening(data, needles))


def screening(data: bytes | bytearray | memoryview, needles: tuple = ()) -> str | bool:
    """:func:`might_launch`'s answer, and why: :data:`VLLM_WORD_FOUND` (``"vllm"``, as the stat
    index records it) when ``data`` holds a vLLM word, the one answer no settings change; True
    when it holds none but one of ``needles`` (which come from the ``vllm-images`` patterns
    and the tree's Dockerfiles: the answer holds only for them); False when it holds neither."""
    for start in range(0, len(data), _CHUNK):
        chunk = data[start : start + _CHUNK + _OVERLAP]  # a word across two chunks is still seen
        if isinstance(chunk, memoryview):
            chunk = chunk.tobytes()
        chunk = chunk.lower()
        if _vllm_word_in(chunk):
            return VLLM_WORD_FOUND
        if any((n in chunk) if isinstance(n, bytes) else n(chunk) for n in needles):
            return True  # (a vLLM word further on is not looked for: True is the answer that asks again)
    return False


def words_in(pieces: Iterable[bytes]) -> tuple[bool, bool]:
    """(whether the bytes ``pieces`` make end to end hold a vLLM word, whether they hold a build
    word), as :func:`might_launch` looks for them: with no ``vllm-images`` patterns,
    ``might_launch(data)`` is the first and ``might_launch(data, image_needles((), True))``
    either.  The second is looked for only until a vLLM word is found (a file with one is
    linted either way).  One pass for both, for a screening made before the run knows whether
    the tree builds a vLLM image (:class:`linter.batch.Screener`), of a file read a piece at a
    time (:func:`linter.source_file.read_pieces`), wherever it is cut: each piece is screened
    with the last :data:`_OVERLAP` bytes before it, and a build word ending where a piece ends
    (``build:``, whose next byte decides) is left to the next piece, which holds it again."""
    build = False
    tail = b""
    it = iter(pieces)
    piece = next(it, None)
    while piece is not None:
        after = next(it, None)
        chunk = (tail + piece).lower()
        if _vllm_word_in(chunk):
            return True, build
        if not build:
            build = _builds(chunk) if after is None else _builds_before_end(chunk)
        tail = chunk[-_OVERLAP:]
        piece = after
    return False, build


def _vllm_word_in(chunk: bytes) -> bool:
    """A vLLM word in the lower-cased ``chunk``, in ASCII or in UTF-16/32 (BOM-marked; or not:
    then reported as not text rather than passed as clean)."""
    # VLLM_WORDS, each ``in`` a scan of the whole chunk, are looked for only where ``lm`` is,
    # which each of them holds: most files cost one scan (a short needle's scan is no faster)
    if b"lm" in chunk and (b"vllm" in chunk or b"lmcache" in chunk or b"ray.serve.llm" in chunk):
        return True
    return b"\x00" in chunk and any(n in chunk for n in _WIDE_NEEDLES)


def _builds_before_end(chunk: bytes) -> bool:
    """A build word in ``chunk`` that does not end at its end (one that does starts within the
    overlap the next piece is screened with, unless it is longer)."""
    end = len(chunk)
    return any(m.end() < end or m.start() < end - _OVERLAP for m in _BUILD_WORDS.finditer(chunk))


_WIDE_NEEDLES = tuple(
    word.encode(enc) for word in VLLM_WORDS for enc in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
)


# ---------------------------------------------------------------------------
# Ignore files


def _read_lines(path: str) -> list[str] | None:
    # through the non-blocking reader: a named pipe called .gitignore must not hang the walk
    try:
        data = read_file(path, (1 << 20) - 1)[: 1 << 20]
    except OSError:
        return None
    return data.decode("utf-8", "replace").splitlines()


def gitignore_spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    """``lines`` compiled as gitignore patterns (pathspec's errors and ``re.error`` propagate).
    A pattern such as ``[[a]x`` compiles to a regex that Python's ``re`` warns about
    (``FutureWarning: Possible nested set``): a note for regex authors, not for the owner of
    the ``.gitignore``, so it is not shown on vllm-lint's standard error."""
    import warnings

    import pathspec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return pathspec.GitIgnoreSpec.from_lines(lines)


def _gitignore_spec(lines: list[str]) -> pathspec.GitIgnoreSpec | None:
    try:
        return gitignore_spec(lines)
    except Exception:  # a malformed pattern must not stop discovery
        return None


def _patterns(lines: list[str] | None) -> list[str]:
    """The pattern lines of an ignore file (not blank, not a comment)."""
    return [line for line in lines or () if line.strip() and not line.startswith("#")]


def _check(spec: pathspec.GitIgnoreSpec, rel: str) -> bool | None:
    """True: ignored; False: re-included by a negation; None: no pattern of ``spec`` matches."""
    check = getattr(spec, "check_file", None)
    if check is not None:
        include = check(rel).include
        return None if include is None else bool(include)
    verdict = None  # older pathspec: the last matching pattern decides
    for pattern in spec.patterns:
        if pattern.include is not None and pattern.match_file(rel) is not None:
            verdict = bool(pattern.include)
    return verdict


# a literal stretch of a gitignore pattern: no wildcard, escape (the escaped character starts
# the next stretch), separator or blank (trailing blanks are not part of a pattern); with the
# separator that follows it, which a matching path holds there too (``foo/`` matches a folder
# ``foo``, given as ``foo/``, and what lies in it)
_LITERAL = lazy_re(r"[^*?\\/\s]+/?")


def needed_text(pattern: str) -> str:
    """A stretch of text that every path the gitignore ``pattern`` matches holds, as written
    (matching is case-sensitive; a folder is given with its trailing ``/``); ``""`` when there
    is none (``*``, ``[ab]*``).  The longest literal stretch of the pattern before any ``[`` (a
    bracket class is no literal, and where it ends is left to pathspec)."""
    body = pattern[1:] if pattern.startswith("!") else pattern
    return max((m.group() for m in _LITERAL.finditer(body.split("[", 1)[0])), key=len, default="")


class _IgnoreFile:
    """One ignore file's patterns (``patterns``, its lines that are not blank or comments), read
    in ``folder``; compiled by pathspec when a path holds the text one of them needs."""

    __slots__ = ("folder", "prefix", "patterns", "needles", "_spec", "_screens")

    def __init__(self, folder: str, patterns: list[str]):
        self.folder = folder
        self.prefix = folder if folder.endswith(os.sep) else folder + os.sep
        self.patterns = patterns
        # what a path must hold for some pattern to match it (None: a pattern matches without
        # any text, ``*``): a path holding none is decided by no pattern, and pathspec is not
        # even imported for a walk whose paths hold none (``*.pyc``, ``/build/``)
        needles = {needed_text(p) for p in patterns}
        self.needles = None if "" in needles else tuple(sorted(needles))
        self._spec = None
        self._screens: tuple | None = None

    def _compiled(self) -> tuple:
        if self._screens is None:
            self._spec = _gitignore_spec(self.patterns)
            # the regular expressions of the patterns that can decide: pathspec tries a path with
            # each one's ``regex`` (``search``, or ``match`` in old releases, which finds less), so
            # a path none of them finds is decided by no pattern, and costs no full check
            self._screens = () if self._spec is None else tuple(
                p.regex for p in self._spec.patterns if p.include is not None and getattr(p, "regex", None) is not None)
        return self._screens

    def verdict(self, rel: str) -> bool | None:
        """:func:`_check` of ``rel`` (a path from ``folder``, ``/``-separated)."""
        needles = self.needles
        if needles is not None:
            for needle in needles:
                if needle in rel:
                    break
            else:
                return None
        norm = rel[1:] if rel.startswith("/") else rel[2:] if rel.startswith("./") else rel  # as pathspec normalises it
        for regex in self._compiled():
            if regex.search(norm) is not None:
                return _check(self._spec, rel)
        return None


class _Rules(Frozen):
    """The ignore files in force in one folder, outermost first."""

    # ``_needles``: every text a pattern of theirs needs (:func:`needed_text`), or None when a
    # pattern needs none (or paths are not ``/``-separated): a path that holds none of them is
    # ignored by no file, answered without a look at each (a walk asks about every name)
    __slots__ = ("files", "_needles")
    _fields = ("files",)

    files: tuple[_IgnoreFile, ...]

    def __init__(self, files=()):
        _set(self, "files", files)
        needles: tuple[str, ...] | None = () if os.sep == "/" else None
        for f in files:
            if needles is None or f.needles is None:
                needles = None
                break
            needles += f.needles
        _set(self, "_needles", needles)

    def ignored(self, path: str, is_dir: bool) -> bool:
        needles = self._needles
        if needles is not None:
            probe = path + "/" if is_dir else path  # (what a folder's path is matched as)
            for needle in needles:
                if needle in probe:
                    break
            else:
                return False
        for f in reversed(self.files):
            if path.startswith(f.prefix):
                rel = path[len(f.prefix):]
            else:
                rel = os.path.relpath(path, f.folder)
                if rel.startswith(".."):
                    continue
            if os.sep != "/":
                rel = rel.replace(os.sep, "/")
            if is_dir:
                rel += "/"
            verdict = f.verdict(rel)
            if verdict is not None:
                return verdict
        return False

    def entering(self, folder: str, names: frozenset[str] | set[str] | None = None) -> _Rules:
        """The rules inside ``folder`` (its own ``.gitignore`` added; a nested repository starts
        afresh); ``names``: the folder's entries when the walk listed it (then a folder without
        ``.git`` or ``.gitignore`` costs no look-up)."""
        files = self.files
        if (".git" in names) if names is not None else os.path.lexists(os.path.join(folder, ".git")):
            files = ()
            exclude = _patterns(_read_lines(os.path.join(folder, ".git", "info", "exclude")))
            if exclude:
                files = (_IgnoreFile(folder, exclude),)
        if names is not None and ".gitignore" not in names:
            return _Rules(files) if files is not self.files else self
        lines = _patterns(_read_lines(os.path.join(folder, ".gitignore")))
        if lines:
            files = (*files, _IgnoreFile(folder, lines))
        return _Rules(files) if files is not self.files else self


def _rules_above(folder: str) -> _Rules:
    """Ignore rules in force in ``folder`` from the folders above it (up to the repository root)."""
    folder = os.path.abspath(folder)
    chain = [folder]
    cur = folder
    while not os.path.lexists(os.path.join(cur, ".git")):
        parent = os.path.dirname(cur)
        if parent == cur:
            chain = [folder]  # not in a repository: only the walked tree's own ignore files count
            break
        cur = parent
        chain.append(cur)
    rules = _Rules()
    for f in reversed(chain[1:]):
        rules = rules.entering(f)
    return rules


# ---------------------------------------------------------------------------
# The walk


def _spec(patterns: Iterable[str]) -> pathspec.GitIgnoreSpec | None:
    patterns = [p for p in patterns if p]
    if not patterns:
        return None
    return gitignore_spec(patterns)


def _matches(spec: pathspec.GitIgnoreSpec | None, rel: str, is_dir: bool) -> bool:
    if spec is None:
        return False
    rel = rel.replace(os.sep, "/")
    return spec.match_file(rel + "/" if is_dir else rel)


_PLAIN_NAME = lazy_re(r"\.?[A-Za-z0-9_][A-Za-z0-9_.+-]*")


def _split_names(patterns: list[str]) -> tuple[frozenset[str], pathspec.GitIgnoreSpec | None]:
    """Exclude ``patterns`` as (plain names, a spec of the other patterns) for the walk.

    A pattern that is a plain name (``node_modules``, ``.git``) matches an entry
    of that name at any depth, and the walk checks every folder on the way down,
    so a set lookup on the entry's name is the same verdict as the pattern's
    regex, at a fraction of the cost (and pathspec is not imported for the
    default excludes).  With a negation anywhere the whole list is compiled as
    it is (a later ``!name`` may re-include).
    """
    patterns = [p for p in patterns if p]
    if any(p.startswith("!") for p in patterns):
        return frozenset(), _spec(patterns)
    names = frozenset(p for p in patterns if _PLAIN_NAME.fullmatch(p))
    return names, _spec([p for p in patterns if p not in names])


def _read_head(path: str) -> tuple[bytes | None, str | None]:
    """First bytes of a regular file, through the non-blocking reader (a pipe or device is refused)."""
    try:
        return read_file(path, HEAD_SIZE - 1)[:HEAD_SIZE], None
    except OSError as exc:
        return None, exc.strerror or str(exc)


def _readable(path: str) -> str | None:
    """None when the file can be opened for reading, else why not."""
    if _ROOT:
        return None  # root reads every file whatever its mode
    return None if os.access(path, os.R_OK) else "permission denied"


_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def discover(
    paths: Iterable[str],
    *,
    exclude: Iterable[str] | None = None,
    extend_exclude: Iterable[str] = (),
    include: Iterable[str] | None = None,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    listed: Callable[[str, frozenset[str], str], None] | None = None,
) -> Iterator[Candidate]:
    """Yield the files to lint under ``paths`` (files and folders), each with its kind.

    ``listed(folder, names, prefix)``: told the absolute path and entry names of each walked
    folder before its files are yielded, and the prefix its files' paths start with (``a/b/``;
    ``""`` in the working folder walked as ``.``): :meth:`linter.config.Resolver.note_listing`
    then finds the configuration files of the folder without a look-up, and the folder of a
    file's path without making it absolute again.

    ``exclude`` replaces :data:`DEFAULT_EXCLUDES` (``None`` keeps them);
    ``extend_exclude`` adds to them.  Patterns are gitignore-style and match
    paths relative to the folder being walked (or to the working folder for
    files given by name).  ``include``: when given, walked files must also
    match one of these patterns.
    """
    excludes = [*(DEFAULT_EXCLUDES if exclude is None else exclude), *extend_exclude]
    compiled: list = []

    def excl():  # compiled when a named path is checked (``force_exclude``)
        if not compiled:
            compiled.append(_spec(excludes))
        return compiled[0]

    incl = _spec(include) if include is not None else None
    seen: set[tuple[int, int]] = set()  # (device, inode) of the files yielded: a symbolic link to one is not linted again
    named: set[str] = set()  # their absolute names: a hard link's other names are (a fix must not break it unseen)
    for path in paths:
        try:
            st = os.stat(path)
        except OSError as exc:
            yield Candidate.failed(path, exc.strerror or str(exc), explicit=True)
            continue
        if stat.S_ISDIR(st.st_mode):
            if force_exclude and _force_excluded(path, excl(), respect_gitignore, is_dir=True):
                continue
            rules = _rules_above(path).entering(os.path.abspath(path)) if respect_gitignore else _Rules()
            yield from _walk(path, _split_names(excludes), incl, rules, respect_gitignore, seen, named, listed)
            continue
        if force_exclude and _force_excluded(path, excl(), respect_gitignore):
            continue
        if not stat.S_ISREG(st.st_mode):
            yield Candidate.failed(path, "not a regular file", explicit=True)
            continue
        outside = _link_out_of_its_folder(path)
        if outside:
            yield Candidate.failed(path, outside, explicit=True)
            continue
        key = (st.st_dev, st.st_ino)
        name = os.path.abspath(path)
        if name in named:  # the same name twice; another name of the same file is linted too
            continue
        named.add(name)
        seen.add(key)
        head = b""
        if _needs_head(os.path.basename(path)):
            head_or_none, err = _read_head(path)
            if head_or_none is None:
                yield Candidate.failed(path, err or "unreadable", explicit=True)
                continue
            head = head_or_none
        else:
            err = _readable(path)
            if err is not None:
                yield Candidate.failed(path, err, explicit=True)
                continue
        kind = classify(path, head)
        yield Candidate(path, kind, explicit=True, status="ok" if kind is not None else "unknown")


def _link_out_of_its_folder(path: str) -> str | None:
    """Why a file named on the command line is not read when it is a symbolic link out of the
    folder it lies in (as the walk treats a link met in that folder), else None."""
    try:
        if not os.path.islink(path):
            return None
        real = os.path.realpath(path)
        folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
        if os.path.commonpath([real, folder]) == folder:
            return None
    except (OSError, ValueError):
        pass
    return "symbolic link to a file outside the linted folder; not read"


def _force_excluded(path: str, excl: pathspec.GitIgnoreSpec | None, respect_gitignore: bool, *, is_dir: bool = False) -> bool:
    """Whether a path given by name is excluded or git-ignored (for ``force_exclude``)."""
    if _excluded_path(excl, _relative_to_cwd(path), is_dir):
        return True
    if not respect_gitignore:
        return False
    absolute = os.path.abspath(path)
    parent = os.path.dirname(absolute)
    return _rules_above(parent).entering(parent).ignored(absolute, is_dir)


def _relative_to_cwd(path: str) -> str:
    absolute = os.path.abspath(path)
    rel = os.path.relpath(absolute)
    return rel if not rel.startswith("..") else absolute.lstrip("/")


def _excluded_path(excl: pathspec.GitIgnoreSpec | None, rel: str, is_dir: bool = False) -> bool:
    """A path is excluded when it or any folder above it matches."""
    if excl is None:
        return False
    parts = rel.replace(os.sep, "/").split("/")
    for i in range(1, len(parts)):
        if _matches(excl, "/".join(parts[:i]), True):
            return True
    return _matches(excl, rel, is_dir)


def _walk(
    root: str,
    excludes: tuple[frozenset[str], pathspec.GitIgnoreSpec | None],
    incl: pathspec.GitIgnoreSpec | None,
    rules: _Rules,
    respect_gitignore: bool,
    seen: set[tuple[int, int]],
    named: set[str],
    listed: Callable[[str, frozenset[str], str], None] | None = None,
) -> Iterator[Candidate]:
    root = tidy_path(root)  # every path below is then tidy too (``./x`` is ``x``)
    root_abs = os.path.abspath(root)
    root_real = os.path.realpath(root)
    try:
        root_st = os.stat(root)
        visited = {(root_st.st_dev, root_st.st_ino)}
    except OSError:
        visited = set()
    # stack of (folder path as the caller spelled it, its absolute path, its path from root, rules in force inside it)
    excl_names, excl = excludes  # :func:`_split_names`
    # the rules in force inside a folder are known once it is listed (its .gitignore, if any),
    # so a folder is stacked with its parent's rules and ``entered`` False (the root's are given)
    stack: list[tuple[str, str, str, _Rules, bool]] = [(root, root_abs, "", rules, True)]
    links: list[tuple[str, tuple[int, int]]] = []
    rows: dict = {}  # classify's rows by name extension, for this walk
    while stack:
        folder, folder_abs, folder_rel, folder_rules, entered = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=_NAME)
        except OSError as exc:
            yield Candidate.failed(folder, exc.strerror or str(exc))
            continue
        # os.path.join(folder, name) for every entry, the separator decided once per folder
        folder_sep = "" if folder == "." else folder if folder.endswith(os.sep) else folder + os.sep
        if listed is not None or (respect_gitignore and not entered):
            names = frozenset(map(_NAME, entries))
            if listed is not None:
                listed(folder_abs, names, folder_sep)
            if respect_gitignore and not entered:
                folder_rules = folder_rules.entering(folder_abs, names)
        subfolders: list[tuple[str, str, str, _Rules, bool]] = []
        folder_abs_sep = folder_abs if folder_abs.endswith(os.sep) else folder_abs + os.sep
        for entry in entries:
            name = entry.name
            path = folder_sep + name
            path_abs = folder_abs_sep + name
            rel = (folder_rel + "/" + name if folder_rel else name) if excl is not None or incl is not None else None  # only patterns read it
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                is_file = not is_dir and entry.is_file(follow_symlinks=False)
                is_link = not is_dir and not is_file and entry.is_symlink()  # (a folder or a regular file is not a link)
            except OSError as exc:
                yield Candidate.failed(path, exc.strerror or str(exc))
                continue
            if is_dir:
                if name in excl_names or (excl is not None and _matches(excl, rel, True)):
                    continue
                if respect_gitignore and folder_rules.ignored(path_abs, True):
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                    key = (st.st_dev, st.st_ino)
                except OSError as exc:
                    yield Candidate.failed(path, exc.strerror or str(exc))
                    continue
                if key in visited:
                    continue
                visited.add(key)
                subfolders.append((path, path_abs, rel, folder_rules, False))
                continue
            if name in excl_names or (excl is not None and _matches(excl, rel, False)):
                continue
            needs_head = "." not in name.lstrip(".")  # (:func:`_needs_head`, inline: a walk asks about every name)
            kind_by_name = classify(path, b"", name, rows) if not needs_head else None
            if kind_by_name is None and not needs_head and not is_link and is_file:
                continue  # not a kind we lint: no ignore check, no stat
            if respect_gitignore and folder_rules.ignored(path_abs, False):
                continue
            if incl is not None and not _matches(incl, rel, False):
                continue
            if is_link:
                # a symlinked file counts only when it leads to a regular file inside the tree;
                # any other link is never opened, and reported when its name says it is ours
                try:
                    target_st = os.stat(path)
                except OSError as exc:
                    if kind_by_name is not None:
                        yield Candidate.failed(path, "symbolic link loop" if exc.errno == errno.ELOOP else "broken symbolic link")
                    continue
                if not stat.S_ISREG(target_st.st_mode):
                    if kind_by_name is not None:
                        yield Candidate.failed(path, "symbolic link to something that is not a regular file (a device, pipe or folder); not read")
                    continue
                real = os.path.realpath(path)
                if os.path.commonpath([real, root_real]) != root_real:
                    if kind_by_name is not None:
                        yield Candidate.failed(path, "symbolic link to a file outside the linted folder; not read")
                    continue
                is_file = True
            if not is_file:
                # a pipe, socket or device: never opened; reported only when its name says it is ours
                if kind_by_name is not None:
                    yield Candidate.failed(path, "not a regular file")
                continue
            try:
                st = os.stat(path)
                key = (st.st_dev, st.st_ino)
            except OSError as exc:
                yield Candidate.failed(path, exc.strerror or str(exc))
                continue
            if is_link:
                if key not in seen:
                    links.append((path, key))  # after the walk: the real file, if also in the tree, wins
                continue
            if path_abs in named:
                continue
            if needs_head:
                head, err = _read_head(path)
                if head is None:
                    yield Candidate.failed(path, err or "unreadable")
                    continue
                kind = classify(path, head, name, rows)
            else:
                kind = kind_by_name
                if kind is not None and not _ROOT:  # (root reads every file: :func:`_readable` asks nothing)
                    err = _readable(path)
                    if err is not None:
                        yield Candidate.failed(path, err)
                        continue
            if kind is None:
                continue
            seen.add(key)
            named.add(path_abs)
            yield Candidate(path, kind, signature=stat_signature(st))
        # depth-first, in name order
        stack.extend(reversed(subfolders))
    for path, key in links:
        if key in seen:
            continue
        head = b""
        if _needs_head(os.path.basename(path)):
            head_or_none, err = _read_head(path)
            if head_or_none is None:
                yield Candidate.failed(path, err or "unreadable")
                continue
            head = head_or_none
        kind = classify(path, head)
        if kind is not None:
            seen.add(key)
            yield Candidate(path, kind)
