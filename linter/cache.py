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

and entries live in a folder named after the tool: its version and the size
and modification time of every module and data file of ``linter/`` and
``rules/`` (the release inventories, the history and the curated migrations),
so an upgrade or an edited rule never reads an old entry.

A result that read other files besides its own (the ``--config FILE`` a
launch names, wherever it was looked for) stores their size and modification
time (or their absence) and is used only while they are unchanged.

Writes are atomic (a temporary file in the same folder, then ``os.replace``),
so concurrent runs can only race to write the same bytes; an entry that cannot
be read or decoded is treated as missing.  The cache never changes results:
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


class Cache:
    def __init__(self, root: str, tool: str | None = None):
        self.root = root
        self.folder = os.path.join(root, f"v{FORMAT}-{tool or tool_key()}")
        self._made: set[str] = set()

    @staticmethod
    def digest(data: bytes) -> str:
        return hashlib.blake2b(data, digest_size=20).hexdigest()

    def key(self, path: str, kind: str, prefilter: bool, settings_text: str, digest: str) -> str:
        h = hashlib.blake2b(digest_size=20)
        h.update(f"{path}\0{kind}\0{int(prefilter)}\0{settings_text}\0{digest}".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    # -- the stat index: what a file's bytes were when it had this size, mtime and inode
    #
    # Like git's index, it spares reading unchanged files: ``path -> [size, mtime_ns,
    # inode, content digest, whether the bytes name vllm/lmcache]``.  An entry is
    # only recorded for a file last modified over two seconds before, so an edit in
    # the same clock tick as the recording cannot hide behind an equal mtime.

    def load_index(self) -> dict:
        try:
            with open(os.path.join(self.folder, "index.json"), "rb") as f:
                index = json.loads(f.read())
            if isinstance(index, dict) and index.get("v") == FORMAT and isinstance(index.get("files"), dict):
                return index["files"]
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        return {}

    def save_index(self, files: dict) -> None:
        try:
            if self.folder not in self._made:
                self._prepare(self.folder)
            data = json.dumps({"v": FORMAT, "files": files}, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape")
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, os.path.join(self.folder, "index.json"))
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except (OSError, ValueError, UnicodeEncodeError):
            pass

    def _path(self, key: str) -> str:
        return os.path.join(self.folder, key[:2], key[2:] + ".json")

    def get(self, key: str) -> dict | None:
        try:
            with open(self._path(key), "rb") as f:
                entry = json.loads(f.read())
            if not isinstance(entry, dict) or entry.get("v") != FORMAT or not isinstance(entry.get("r"), dict):
                return None
            return entry["r"]
        except (OSError, ValueError, UnicodeDecodeError):
            return None

    def put(self, key: str, payload: dict) -> None:
        target = self._path(key)
        folder = os.path.dirname(target)
        try:
            if folder not in self._made:
                self._prepare(folder)
            data = json.dumps({"v": FORMAT, "r": payload}, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape")
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except (OSError, ValueError, UnicodeEncodeError):
            pass  # a cache that cannot be written is only slower

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
        self._made.add(folder)


RACY_SECONDS = 2.0
