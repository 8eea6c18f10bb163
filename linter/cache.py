"""A cache of lint results keyed by file content, settings, release data and tool version.

Like ruff's cache: a ``.vllm-lint-cache`` folder (in the working folder, or
``$VLLM_LINT_CACHE_DIR``) that ``--no-cache`` turns off.  An entry holds a
file's result in the compact form of :mod:`linter.batch` (diagnostics with
their fixes, and what the report needs of each launch), as JSON with a format
version.  Its name is a hash of

* the bytes of the file, its path and kind, and whether it was walked
  (prefiltered) or named;
* everything in :class:`~linter.engine.Settings` that applies to that path
  (target release, selection, per-file ignores, pre-flight settings; files the
  settings name are keyed by their size and modification time);
* the state of the local Hugging Face cache the pre-flight rules read
  (:func:`environment_key`);

and entries live in a folder named after the tool: its version and the size
and modification time of every module and data file of ``linter/`` and
``rules/`` (the release inventories, the history and the curated migrations),
so an upgrade or an edited rule never reads an old entry.

A result that read other files besides its own (the ``--config FILE`` a
launch names, wherever it was looked for) stores their size and modification
time (or their absence) and is used only while they are unchanged.

Everything is in one pack file per tool version (``cache.json``: the entries
and a stat index that spares reading unchanged files), read once at the start
and written once at the end.  Writes are atomic (a temporary file in the same
folder, then ``os.replace``) and merge what a concurrent run saved meanwhile;
a pack or an entry that cannot be read or decoded is treated as missing.  The cache never changes results:
``tests/linter/test_cache.py`` checks cached and uncached runs print the same.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile

FORMAT = 1  # bump when the entry layout changes
DIRNAME = ".vllm-lint-cache"
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_WATCHED = ("linter", "rules")  # walked, sub-folders included


def default_dir() -> str:
    return os.environ.get("VLLM_LINT_CACHE_DIR") or DIRNAME


def tool_key() -> str:
    """The tool's version and the signature of its code and data (size, mtime of each file)."""
    h = hashlib.blake2b(digest_size=8)
    h.update(f"format {FORMAT}\n".encode())
    try:
        from linter import __version__ as version  # type: ignore[attr-defined]
    except ImportError:
        version = "0"
    h.update(f"version {version}\n".encode())
    stack = list(reversed(_WATCHED))
    while stack:
        sub = stack.pop()
        try:
            entries = sorted(os.scandir(os.path.join(_PACKAGE_ROOT, sub)), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            try:
                if e.is_dir():
                    if e.name != "__pycache__" and not e.name.startswith("."):
                        stack.append(f"{sub}/{e.name}")
                    continue
                if not e.name.endswith((".py", ".json", ".yaml", ".yml", ".toml")):
                    continue
                st = e.stat()
            except OSError:
                continue
            h.update(f"{sub}/{e.name} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def file_signature(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return f"{st.st_size}:{st.st_mtime_ns}"


def settings_key(settings, path: str) -> str:
    """What of ``settings`` can change ``path``'s result, as text."""
    parts = []
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if callable(value):  # per-file ignores: what they say for this path
            value = value(path)
        if isinstance(value, (set, frozenset)):
            text = repr(sorted(map(str, value)))
        elif isinstance(value, dict):
            items = []
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0])):
                sig = file_signature(v) if isinstance(v, str) else ""
                items.append((str(k), repr(v), sig))
            text = repr(items)
        else:
            text = repr(value)
        parts.append(f"{f.name}={text}")
    return "\n".join(parts)


def environment_key() -> str:
    """What outside the files and settings the rules read: the local Hugging Face cache.

    The pre-flight rules (VL802/VL803) read a model's ``config.json`` from the
    Hugging Face hub cache when it is there; a model downloaded, or a new
    snapshot of one, since an entry was stored changes their answer.  The key
    holds the hub folder's path, and for each model in it the signature of its
    ``snapshots`` folder and of ``refs/main``.
    """
    hub = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface"), "hub"
    )
    parts = [hub]
    try:
        models = sorted(e.name for e in os.scandir(hub) if e.name.startswith("models--"))
    except OSError:
        models = []
    for m in models:
        folder = os.path.join(hub, m)
        parts.append(f"{m} {file_signature(os.path.join(folder, 'snapshots'))} {file_signature(os.path.join(folder, 'refs', 'main'))}")
    return "\n".join(parts)


class Cache:
    def __init__(self, root: str, tool: str | None = None):
        self.root = root
        self.folder = os.path.join(root, f"v{FORMAT}-{tool or tool_key()}")
        self.environment = hashlib.blake2b(environment_key().encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
        self.files: dict = {}
        self.entries: dict = {}
        self.added: dict = {}
        self.file_updates: dict = {}

    @staticmethod
    def digest(data: bytes) -> str:
        return hashlib.blake2b(data, digest_size=20).hexdigest()

    def key(self, path: str, kind: str, prefilter: bool, settings_text: str, digest: str) -> str:
        h = hashlib.blake2b(digest_size=20)
        h.update(f"{path}\0{kind}\0{int(prefilter)}\0{settings_text}\0{self.environment}\0{digest}".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    # -- one pack file per tool version: the entries and the stat index
    #
    # ``entries``: key -> [path, compact result].  ``files`` (the stat index, like
    # git's): path -> [size, mtime_ns, inode, content digest, whether the bytes name
    # vllm/lmcache]; it spares reading unchanged files.  A file is only recorded when
    # last modified over RACY_SECONDS before, so an edit in the same clock tick as
    # the recording cannot hide behind an equal mtime.  One file rather than one per
    # entry: creating files is the slow part of a cold run on most file systems.

    def _read_pack(self) -> tuple[dict, dict]:
        try:
            with open(os.path.join(self.folder, PACK), "rb") as f:
                pack = json.loads(f.read())
            if isinstance(pack, dict) and pack.get("v") == FORMAT:
                files, entries = pack.get("files"), pack.get("entries")
                if isinstance(files, dict) and isinstance(entries, dict):
                    return files, entries
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            pass
        return {}, {}

    def load(self) -> dict:
        """Read the pack; return the stat index."""
        self.files, self.entries = self._read_pack()
        return self.files

    def get(self, key: str) -> dict | None:
        entry = self.entries.get(key)
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], dict):
            return entry[1]
        return None

    def put(self, key: str, path: str, payload: dict) -> None:
        self.added[key] = [path, payload]

    def note_file(self, path: str, row: list) -> None:
        if self.files.get(path) != row:
            self.file_updates[path] = row

    def save(self) -> None:
        """Write the pack: what another run saved meanwhile, then this run's entries and index updates.

        An entry of a path that this run stored anew is dropped (the file changed, or
        the settings did), so the pack holds about one entry per file."""
        if not self.added and not self.file_updates:
            return
        files, entries = self._read_pack()  # a concurrent run's additions are kept
        files.update(self.file_updates)
        renewed = {entry[0] for entry in self.added.values()}
        entries = {k: e for k, e in entries.items() if not (isinstance(e, list) and e and e[0] in renewed)}
        entries.update(self.added)
        try:
            self._prepare(self.folder)
            data = json.dumps({"v": FORMAT, "files": files, "entries": entries}, ensure_ascii=False, separators=(",", ":"))
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data.encode("utf-8", "surrogateescape"))
                os.replace(tmp, os.path.join(self.folder, PACK))
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except (OSError, ValueError, UnicodeEncodeError):
            return  # a cache that cannot be written is only slower
        self.files, self.entries, self.added, self.file_updates = files, entries, {}, {}

    def _prepare(self, folder: str) -> None:
        if not os.path.isdir(self.root):
            os.makedirs(self.root, exist_ok=True)
            # like ruff's: keep the folder out of git and of backups
            for name, text in ((".gitignore", "# Automatically created by vllm-lint.\n*\n"), ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")):
                try:
                    with open(os.path.join(self.root, name), "x") as f:
                        f.write(text)
                except OSError:
                    pass
        os.makedirs(folder, exist_ok=True)


PACK = "cache.json"
RACY_SECONDS = 2.0
