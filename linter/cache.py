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
  settings name are keyed by their size and modification time), except that the
  images built in the tree count only as whether there are any (an entry whose
  reading looked them up holds them, :func:`linter.batch.cached_extract`), and
  that a file whose extraction holds no launch is keyed without the settings
  only launches read (target, fallback, pre-flight facts, roots);
* the state of the local Hugging Face cache the pre-flight rules read
  (:func:`environment_key`);

and entries live in a folder named after the tool: its version and the size
and modification time of every module and data file of ``linter/`` and
``rules/`` (the release inventories, the history and the curated migrations),
so an upgrade or an edited rule never reads an old entry.

Apart from the results, the cache keeps each file's extraction (the launches,
pins, problems and comments its reader found; :mod:`linter.stored_extraction`)
in a pack of its own, keyed by the file's bytes, path and kind and named after
the extractor code only (:func:`extractor_key`: the readers and what they
import, not the argument model, the rules or the release data).  A run whose
results miss (a new ``--target-version``, selection, knowledge update or rule)
reads the extractions of unchanged files from it and re-runs only the argument
model and the rules.

A result that read other files besides its own (the ``--config FILE`` a
launch names, wherever it was looked for) stores their signature (size,
modification and change times, inode and device, as git's index keeps; or
their absence) and is used only while they are unchanged.

Everything is in two pack files per tool version (``cache.json``: the entries;
``index.json``: a stat index that spares reading unchanged files), read once at
the start and written once at the end, each only when the run changed it (a new
``--target-version`` adds entries and leaves the index as it was).  Writes are
atomic (a temporary file in the same folder, then ``os.replace``) and merge what
a concurrent run saved meanwhile.  A pack is untrusted input (anyone who can write the folder can write it): it is
read without blocking, up to :data:`MAX_PACK_BYTES`, never through a symbolic
link, and every row and entry is checked before use (:func:`linter.batch.decode`
checks an entry's spans against the file's text); a pack, row or entry that fails
is treated as missing.  A cache root or version folder that is a symbolic link is
refused (a committed ``.vllm-lint-cache`` link would redirect every contributor's
writes): the run is then uncached.  Writes go through a descriptor of the version
folder opened without following links.  The cache never changes results:
``tests/linter/test_cache.py`` checks cached and uncached runs print the same.
"""

from __future__ import annotations

import json
import os

from linter.hashes import blake2b
from linter.records import field_names

# bump when the entry layout changes (2: ctime and device in every signature; 3: the stat index in a
# file of its own; 4: a stat index row says when its screening found a vLLM word, VLLM_WORD_FOUND)
FORMAT = 4
MAX_PACK_BYTES = 512 * 1024 * 1024
DIRNAME = ".vllm-lint-cache"
PACK = "cache.json"  # the entries (of results; of extractions, in the extractions' folder)
INDEX = "index.json"  # the stat index of the version folder
# a screening that found a vLLM word (:func:`linter.discovery.screening`), as a stat index row records it
VLLM_WORD_FOUND = "vllm"
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_WATCHED = ("linter", "rules")  # walked, sub-folders included


def default_dir() -> str:
    return os.environ.get("VLLM_LINT_CACHE_DIR") or DIRNAME


# what the readers are made of: what an extraction depends on (kept apart from the rules,
# the argument model and the release data, so that changing those keeps the extractions)
_EXTRACTOR_CODE = ("linter/sources", "linter/launch.py", "linter/source_file.py", "linter/offset_map.py", "linter/placeholders.py", "linter/records.py", "linter/lazy_re.py",
                   "linter/kinds.py", "linter/stored_extraction.py", "linter/cache.py", "linter/suppression.py")


def tool_key() -> str:
    """The tool's version and the signature of its code and data (size, mtime of each file)."""
    return _code_key(_WATCHED)


def extractor_key() -> str:
    """The tool's version and the signature of the readers' code (:data:`_EXTRACTOR_CODE`)."""
    return _code_key(_EXTRACTOR_CODE)


def _code_key(watched) -> str:
    h = blake2b(digest_size=8)
    h.update(f"format {FORMAT}\n".encode())
    try:
        from linter import __version__ as version  # type: ignore[attr-defined]
    except ImportError:
        version = "0"
    h.update(f"version {version}\n".encode())
    for item in watched:  # single files
        if item.endswith(".py"):
            try:
                st = os.stat(os.path.join(_PACKAGE_ROOT, item))
                h.update(f"{item} {st.st_size} {st.st_mtime_ns}\n".encode())
            except OSError:
                h.update(f"{item} missing\n".encode())
    stack = [w for w in reversed(watched) if not w.endswith(".py")]
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


def stat_signature(st: os.stat_result) -> tuple[int, int, int, int, int]:
    """(size, mtime, ctime, inode, device): what git's index compares.  An in-place rewrite
    that keeps the size and mtime (``unzip -o``, ``touch -r``, ``rsync --inplace -t``)
    still changes the ctime, which no user call can set back.  The racy check (see
    ``RACY_SECONDS``) looks at the mtime only, as git's does: a fresh checkout's old files
    are recorded at once."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def file_signature(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return ":".join(map(str, stat_signature(st)))


def settings_key(settings, path: str, *, built_images: bool = True) -> str:
    """What of ``settings`` can change ``path``'s result, as text.  ``built_images=False``: the
    images built in the tree only as whether there are any (they decide which walked files are
    read); the caller keys them into the results of the readings that looked them up
    (:func:`linter.sources.commands.built_consulted`)."""
    parts = []
    for name in field_names(settings):
        value = getattr(settings, name)
        if name == "built_images" and not built_images:
            value = bool(value)
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
        parts.append(f"{name}={text}")
    return "\n".join(parts)


def settings_key_part(settings, path: str) -> tuple:
    """What :func:`settings_key` reads of ``settings`` for ``path`` in particular (the answers of
    the fields it asks per path: the per-file ignores): paths with the same part have the same
    settings text."""
    return tuple(value(path) for name in field_names(settings) if callable(value := getattr(settings, name)))


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
        self.environment = blake2b(environment_key().encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
        self.files: dict = {}
        self.entries: dict = {}
        self._loaded = False
        self.added: dict = {}
        self.file_updates: dict = {}
        self._extract_folder: str | None = None
        self.extractions: dict | None = None  # read on first use: a warm run never needs it
        self.extractions_added: dict = {}
        # (folder name, "" for the version folder; pack file) -> the stat signature of the pack
        # as it was when this run read it ("absent"), or None (it could not tell): the save
        # reads a pack again only when another run replaced it meanwhile
        self._read_as: dict = {}

    @staticmethod
    def digest(data: bytes) -> str:
        return blake2b(data, digest_size=20).hexdigest()

    def key(self, path: str, kind: str, prefilter: bool, settings_text: str, digest: str) -> str:
        h = blake2b(digest_size=20)
        h.update(f"{path}\0{kind}\0{int(prefilter)}\0{settings_text}\0{self.environment}\0{digest}".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    @property
    def extract_folder(self) -> str:
        if self._extract_folder is None:
            self._extract_folder = os.path.join(self.root, f"x{FORMAT}-{extractor_key()}")
        return self._extract_folder

    def extraction_key(self, path: str, kind: str, digest: str, images: str = "") -> str:
        """``images``: the ``vllm-images`` setting, which every reading depends on.  The images
        built in the tree are kept with the extractions whose reading looked them up
        (:func:`linter.batch.cached_extract`), not in every key."""
        h = blake2b(digest_size=20)
        h.update(f"{path}\0{kind}\0{digest}\0{images}".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def load_extractions(self) -> None:
        if self.extractions is None:
            pack = self._read_json(os.path.basename(self.extract_folder))
            entries = pack.get("entries")
            self.extractions = _valid_entries(entries) if isinstance(entries, dict) else {}

    def get_extraction(self, key: str) -> dict | None:
        """The stored extraction (checked by :func:`linter.stored_extraction.decode` before
        use), or None."""
        self.load_extractions()
        entry = self.extractions.get(key)
        return entry[1] if entry is not None else None

    def put_extraction(self, key: str, path: str, payload: dict) -> None:
        self.extractions_added[key] = [path, payload]

    # -- two pack files per tool version: the entries (PACK) and the stat index (INDEX)
    #
    # ``entries``: key -> [path, compact result].  ``files`` (the stat index, like
    # git's): path -> [size, mtime_ns, ctime_ns, inode, device, content digest, whether
    # the bytes name vllm/lmcache]; it spares reading unchanged files.  A file is only
    # recorded when last changed over RACY_SECONDS before, so an edit in the same clock
    # tick as the recording cannot hide behind an equal mtime.  One file rather than one
    # per entry: creating files is the slow part of a cold run on most file systems; the
    # index apart, since most runs that store entries change no row of it.
    # The extractions' pack (``entries`` only) is read and written the same way.

    def _open_folder(self, create: bool, name: str | None = None) -> int | None:
        """A descriptor of the version folder (or of the root's folder ``name``), opened
        without following a link at the root or at that folder (None: absent, or refused)."""
        flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            root = os.open(self.root, flags)
        except FileNotFoundError:
            if not create:
                return None
            try:
                os.makedirs(self.root)
                root = os.open(self.root, flags)
            except OSError:
                return None
            # like ruff's: keep the folder out of git and of backups
            for file_name, text in ((".gitignore", "# Automatically created by vllm-lint.\n*\n"), ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")):
                try:
                    fd = os.open(file_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644, dir_fd=root)
                    with os.fdopen(fd, "w") as f:
                        f.write(text)
                except OSError:
                    pass
        except OSError:  # a link (ELOOP), not a folder, unreadable: no cache
            return None
        try:
            name = name or os.path.basename(self.folder)
            try:
                return os.open(name, flags, dir_fd=root)
            except FileNotFoundError:
                if not create:
                    return None
                os.mkdir(name, 0o755, dir_fd=root)
                return os.open(name, flags, dir_fd=root)
        except OSError:
            return None
        finally:
            os.close(root)

    def _read_json(self, name: str | None = None, file: str = PACK) -> dict:
        """The pack ``file`` of the version folder (or of the root's folder ``name``), or {}:
        read non-blocking, bounded, never through a link, of this format."""
        from linter import bounded_json
        from linter.source_file import read_file

        folder = self._open_folder(create=False, name=name)
        if folder is None:
            self._read_as[name or "", file] = None
            return {}
        try:
            self._read_as[name or "", file] = _pack_signature(folder, file)  # before reading: a replacement after it shows
            data = read_file(file, MAX_PACK_BYTES, follow=False, dir_fd=folder)  # never blocks, never follows a link
            if len(data) > MAX_PACK_BYTES:
                return {}
            pack = bounded_json.loads(data, max_depth=16)
        except (OSError, ValueError):
            return {}
        finally:
            os.close(folder)
        if not isinstance(pack, dict) or pack.get("v") != FORMAT:
            return {}
        return pack

    def _read_entries(self) -> dict:
        entries = self._read_json().get("entries")
        return _valid_entries(entries) if isinstance(entries, dict) else {}

    def _read_index(self) -> dict:
        files = self._read_json(file=INDEX).get("files")
        return {p: row for p, row in files.items() if _valid_row(row)} if isinstance(files, dict) else {}

    def is_new(self) -> bool:
        """No stat index is stored yet (a first run, or a new version of the tool): every file
        will be read."""
        return not os.path.lexists(os.path.join(self.folder, INDEX))

    def load(self) -> dict:
        """Read the packs (once: the run's later calls, one per group of files with their own
        settings, reuse them); return the stat index."""
        if not self._loaded:
            self.files, self.entries = self._read_index(), self._read_entries()
            self._loaded = True
        return self.files

    def get(self, key: str) -> dict | None:
        """The stored payload (checked by :func:`linter.batch.decode` before use), or None."""
        entry = self.entries.get(key)
        return entry[1] if entry is not None else None

    def put(self, key: str, path: str, payload: dict) -> None:
        self.added[key] = [path, payload]

    def note_file(self, path: str, row: list) -> None:
        if self.files.get(path) != row:
            self.file_updates[path] = row

    def save(self) -> None:
        """Write the packs this run changed: what another run saved meanwhile, then this run's
        entries (``cache.json``) and index updates (``index.json``).

        An entry of a path that this run stored anew is dropped (the file changed, or
        the settings did), so the pack holds about one entry per file; likewise for the
        extractions' pack."""
        if self.extractions_added:
            name = os.path.basename(self.extract_folder)
            if self.extractions is not None and self._unchanged(name, PACK):
                stored = self.extractions  # as this run read it: no other run saved since
            else:
                stored = self._read_json(name).get("entries")
                stored = _valid_entries(stored) if isinstance(stored, dict) else {}
            extractions = _renew(stored, self.extractions_added)
            if self._write({"v": FORMAT, "entries": extractions}, name):
                self.extractions, self.extractions_added = extractions, {}
        if self.added:
            # as this run read them when no other run saved since, else what it saved (kept)
            entries = self.entries if self._loaded and self._unchanged("", PACK) else self._read_entries()
            entries = _renew(entries, self.added)
            if self._write({"v": FORMAT, "entries": entries}):
                self.entries, self.added = entries, {}
        if self.file_updates:
            files = dict(self.files) if self._loaded and self._unchanged("", INDEX) else self._read_index()
            files.update(self.file_updates)
            if self._write({"v": FORMAT, "files": files}, file=INDEX):
                self.files, self.file_updates = files, {}

    def _unchanged(self, name: str, file: str) -> bool:
        """Whether the pack ``file`` of the folder ``name`` ("": the version folder) is the file
        this run read: the same signature (size, modification and change times, inode, device),
        or absent then and now."""
        before = self._read_as.get((name, file))
        if before is None:
            return False
        folder = self._open_folder(create=False, name=name or None)
        if folder is None:
            return False
        try:
            return _pack_signature(folder, file) == before
        finally:
            os.close(folder)

    def _write(self, pack: dict, name: str | None = None, file: str = PACK) -> bool:
        """Write ``pack`` atomically as the pack ``file`` of the version folder (or of the root's
        folder ``name``), never through a link; False when it cannot be written."""
        folder = self._open_folder(create=True, name=name)
        if folder is None:
            return False  # refused (a link) or cannot be made: the run is only slower
        tmp = f".tmp-{os.getpid()}-{os.urandom(4).hex()}"  # what secrets.token_hex(4) gives, without importing it (random, hmac, base64)
        try:
            # ASCII, escapes and all: a file name that is not UTF-8 (a lone surrogate here) stays
            # readable JSON, and the C encoder is about a quarter faster so (6,000 index rows: 3.8 -> 2.7 ms);
            # no check for circular references (plain rows and entries hold none): a quarter more
            # (the monorepo's 3,800 rows: 4.2 -> 3.1 ms)
            data = json.dumps(pack, separators=(",", ":"), check_circular=False)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644, dir_fd=folder)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data.encode("ascii"))
                os.replace(tmp, file, src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                try:
                    os.unlink(tmp, dir_fd=folder)
                except OSError:
                    pass
                raise
        except (OSError, ValueError, UnicodeEncodeError):
            return False  # a cache that cannot be written is only slower
        finally:
            os.close(folder)
        return True


def _pack_signature(folder: int, file: str):
    """The stat signature of the pack ``file`` in the folder descriptor ``folder`` (its link's,
    when it is one), "absent", or None when it cannot be told."""
    try:
        return stat_signature(os.stat(file, dir_fd=folder, follow_symlinks=False))
    except FileNotFoundError:
        return "absent"
    except OSError:
        return None


def _valid_entries(entries: dict) -> dict:
    """The well-formed ``key -> [path, payload]`` entries of a pack (a payload's own content
    is checked where it is decoded)."""
    return {k: e for k, e in entries.items() if isinstance(e, list) and len(e) == 2 and isinstance(e[0], str) and isinstance(e[1], dict)}


def _valid_row(row) -> bool:
    """A stat index row: [size, mtime_ns, ctime_ns, inode, device, digest, might launch] (might
    launch: :data:`VLLM_WORD_FOUND`, True, False, or None when only the build words were not
    looked for: linter.batch._screen_one)."""
    # ``type(v) is int``: JSON gives ints and bools exactly these types (a bool is no size)
    return (
        type(row) is list and len(row) == 7
        and type(row[0]) is int and type(row[1]) is int and type(row[2]) is int and type(row[3]) is int and type(row[4]) is int
        and type(row[5]) is str and (row[6] is None or type(row[6]) is bool or row[6] == VLLM_WORD_FOUND)
    )


def _renew(entries: dict, added: dict) -> dict:
    """``entries`` without those of a path ``added`` stores anew, then ``added``."""
    renewed = {entry[0] for entry in added.values()}
    out = {k: e for k, e in entries.items() if not (isinstance(e, list) and e and e[0] in renewed)}
    out.update(added)
    return out


RACY_SECONDS = 2.0
