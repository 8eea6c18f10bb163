"""Apply fixes: byte-range edits on the original text, never a re-serialisation.

Edits are applied back to front; a fix whose edits overlap an already chosen
fix waits for the next pass.  The file is linted again after each pass until
nothing changes (at most :data:`MAX_PASSES`); each pass is recorded in
:attr:`FixOutcome.passes`.  After each pass the result must parse the way the
text before it did (:mod:`linter.fix_check`), else nothing is changed and the
failure is reported as a bug.  The write is atomic (a temporary file in the
same folder, then a rename), keeps the file's mode, goes through a symbolic
link to the real file, and is skipped if the file changed on disk meanwhile
or is read-only.
"""

from __future__ import annotations

import codecs
import errno
import os
import secrets
import signal
import stat
import time

from packaging.version import Version

from linter import kinds
from linter.diagnostic import Diagnostic, Edit, Fix
from linter.engine import FileResult, Settings, lint_source
from linter.records import Record
from linter.reporters.common import printable
from linter.source_file import DecodeError, SourceFile

MAX_PASSES = 8


class FixError(Exception):
    """A fix could not be written; the file is left as it was."""


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (character offsets into ``text``), back to front."""
    ordered = sorted(edits, key=lambda e: (e.span.start, e.span.end))
    for a, b in zip(ordered, ordered[1:]):
        if b.span.start < a.span.end:
            raise ValueError(f"overlapping edits at {a.span} and {b.span}")
    out = text
    for e in reversed(ordered):
        out = out[: e.span.start] + e.content + out[e.span.end :]
    return out


def _applicable(fix: Fix | None, unsafe: bool) -> bool:
    return fix is not None and (fix.applicability == "safe" or (unsafe and fix.applicability == "unsafe"))


def choose_fixes(diagnostics: list[Diagnostic], unsafe: bool) -> list[Diagnostic]:
    """The diagnostics whose fixes can be applied together in one pass."""
    chosen: list[Diagnostic] = []
    taken: list[tuple[int, int]] = []
    seen_edits: set[tuple[int, int, str]] = set()
    for d in sorted(diagnostics, key=lambda d: (d.span.start, d.code)):
        if not _applicable(d.fix, unsafe):
            continue
        spans = [(e.span.start, e.span.end) for e in d.fix.edits]  # type: ignore[union-attr]
        keys = {(e.span.start, e.span.end, e.content) for e in d.fix.edits}  # type: ignore[union-attr]
        if keys <= seen_edits:
            continue  # the same edit offered by another diagnostic
        if any(s < te and ts < e or (s == e == ts == te) for s, e in spans for ts, te in taken):
            continue
        chosen.append(d)
        taken.extend(spans)
        seen_edits |= keys
    return chosen


class FixPass(Record):
    """One pass of fixes: the text it started from and the edits applied to it (in that text's offsets)."""

    __slots__ = ("before", "edits", "applied")

    before: str
    edits: list[Edit]
    applied: list[Diagnostic]

    def __init__(self, before, edits, applied):
        self.before = before
        self.edits = edits
        self.applied = applied


class FixOutcome(Record):
    __slots__ = ("path", "original", "fixed", "applied", "remaining", "error", "passes")

    path: str
    original: str
    fixed: str
    applied: list[Diagnostic]
    remaining: FileResult | None
    error: str | None
    passes: list[FixPass]  # what each pass changed, for checks and --show-fixes

    def __init__(self, path, original, fixed, applied=None, remaining=None, error=None, passes=None):
        self.path = path
        self.original = original
        self.fixed = fixed
        self.applied = ([] if applied is None else applied)
        self.remaining = remaining
        self.error = error
        self.passes = ([] if passes is None else passes)


def fix_source(src: SourceFile, kind: str, settings: Settings, rules: dict, unsafe: bool, *, inherited: Version | None = None) -> FixOutcome:
    """Fix ``src`` pass by pass until nothing changes; the text is only ever edited, never re-serialised.

    After each pass the result must parse the way the text before it did
    (:func:`linter.fix_check.check_pass`); if it does not, or the passes do
    not converge, or edits overlap, nothing is changed and ``error`` says why
    (a bug in a rule's edits).  ``inherited``: the release of the launch naming a
    config file (:func:`linter.engine.choose_release`).
    """
    from linter.sources import readings_kept

    with readings_kept():  # (each pass's lint and check read the same texts)
        return _passes(src, kind, settings, rules, unsafe, inherited)


def _passes(src: SourceFile, kind: str, settings: Settings, rules: dict, unsafe: bool, inherited: Version | None) -> FixOutcome:
    from linter.engine import extract
    from linter.fix_check import check_pass
    from linter.sources import reading
    from linter.sources.commands import vllm_images

    # each text's extraction made once (fix_source's readings_kept block): a pass's check reads
    # the text the lint before it read, and the next lint the text the check read (four readings
    # a pass were two; a 3.5 MB manifest's is 70 ms).  The check reads as the lint does, with
    # the run's images.
    def reader(current: SourceFile, kind: str):
        return reading(f"extraction {kind}", current.text, lambda: extract(current, kind))

    def read_as_linted(current: SourceFile, kind: str):
        with vllm_images(settings.vllm_images, settings.built_images):
            return reader(current, kind)

    outcome = FixOutcome(src.path, src.text, src.text)
    current = src
    result = lint_source(current, kind, settings, rules, inherited=inherited, reader=reader)

    def fail(message: str) -> FixOutcome:
        outcome.error = message
        outcome.remaining = lint_source(src, kind, settings, rules, inherited=inherited)
        outcome.applied = []
        outcome.passes = []
        outcome.fixed = src.text
        return outcome

    for _ in range(MAX_PASSES):
        chosen = choose_fixes(result.diagnostics, unsafe)
        if not chosen:
            break
        edits = _dedupe([e for d in chosen for e in d.fix.edits])  # type: ignore[union-attr]
        try:
            new_text = apply_edits(current.text, edits)
        except ValueError as exc:
            return fail(f"internal error: {exc}; nothing written (a bug: please report it)")
        if new_text == current.text:
            break
        problem = check_pass(current.text, new_text, kind, edits, src.path, read_as_linted)
        if problem is not None and len(chosen) > 1:
            # fixes that each keep the file as it reads but not all together (deleting every key
            # of a mapping: each deletion saw the others' keys beside its own): fewer this pass
            # (all but the last, else the first), the rest again in the next one
            for fewer in (chosen[:-1], chosen[:1]):
                fewer_edits = _dedupe([e for d in fewer for e in d.fix.edits])  # type: ignore[union-attr]
                try:
                    fewer_text = apply_edits(current.text, fewer_edits)
                except ValueError:
                    continue
                if fewer_text != current.text and check_pass(current.text, fewer_text, kind, fewer_edits, src.path, read_as_linted) is None:
                    chosen, edits, new_text, problem = fewer, fewer_edits, fewer_text, None
                    break
        if problem is not None:
            codes = ", ".join(sorted({d.code for d in chosen}))
            return fail(f"the fixed file no longer parses as the original did ({problem}; fixes {codes}); nothing written (a bug: please report it)")
        outcome.applied.extend(chosen)
        outcome.passes.append(FixPass(current.text, edits, chosen))
        current = SourceFile(src.path, new_text, src.encoding, src.bom)
        result = lint_source(current, kind, settings, rules, inherited=inherited, reader=reader)
    else:
        left = _dedupe([e for d in choose_fixes(result.diagnostics, unsafe) for e in d.fix.edits])  # type: ignore[union-attr]
        if left and _changes(current.text, left):
            return fail(f"fixes did not converge after {MAX_PASSES} passes; nothing written (a bug: please report it)")
    outcome.fixed = current.text
    outcome.remaining = result
    return outcome


def _changes(text: str, edits: list[Edit]) -> bool:
    try:
        return apply_edits(text, edits) != text
    except ValueError:
        return True


def _dedupe(edits: list[Edit]) -> list[Edit]:
    seen = set()
    out = []
    for e in edits:
        key = (e.span.start, e.span.end, e.content)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


TEMP_PREFIX, TEMP_SUFFIX = ".vllm-lint-", ".tmp"  # .vllm-lint-PID-XXXXXXXX.tmp
STALE_SECONDS = 60  # a temporary file lives for the milliseconds of one write
_swept: set[str] = set()
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def remove_stale_temp_files(folder: int, name: str) -> None:
    """Remove the temporary files a killed run left in the open folder ``folder`` (SIGKILL runs
    no cleanup): those over a minute old whose process is gone (or that name none: an older
    version's).  Once per folder (``name``) and run; a file that cannot be judged or removed stays."""
    if name in _swept:
        return
    _swept.add(name)
    try:
        names = [n for n in os.listdir(folder) if n.startswith(TEMP_PREFIX) and n.endswith(TEMP_SUFFIX)]
    except OSError:
        return
    now = time.time()
    for entry in names:
        rest = entry[len(TEMP_PREFIX):]
        pid_text = rest.split("-", 1)[0]
        if "-" in rest and pid_text.isdigit() and _running(int(pid_text)):
            continue
        try:
            st = os.stat(entry, dir_fd=folder, follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > STALE_SECONDS:
                os.unlink(entry, dir_fd=folder)
        except OSError:
            pass


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists, by ``/proc`` (no signal is ever sent: the security audit
    forbids ``os.kill``); without ``/proc`` every process counts as running and its file stays."""
    if not os.path.isdir("/proc/self"):
        return True
    return os.path.exists(f"/proc/{pid}")


def _open_folder(real: str) -> int:
    """A descriptor of the folder ``real`` (a real path), opened one component at a time from
    ``/`` without following any link: a folder swapped for a link after ``realpath`` makes
    the open fail (ELOOP, ENOTDIR) instead of leading the write elsewhere."""
    fd = os.open("/", _DIR_FLAGS)
    try:
        for part in real.split(os.sep):
            if part:
                sub = os.open(part, _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = sub
    except BaseException:
        os.close(fd)
        raise
    return fd


def _copy_attributes(src_name: str, folder: int, dst: int) -> None:
    """Copy the extended attributes (POSIX ACLs among them: ``system.posix_acl_access``) of
    ``src_name`` in ``folder`` to the open file ``dst``; FixError when one cannot be copied
    (the new file would grant other rights than the old one)."""
    if not hasattr(os, "listxattr"):
        return
    try:
        src = os.open(src_name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0), dir_fd=folder)
    except OSError as exc:
        raise FixError(f"cannot re-open it to copy its extended attributes ({exc.strerror or exc}); not changed") from None
    try:
        try:
            names = os.listxattr(src)
        except OSError as exc:
            if exc.errno in (errno.ENOTSUP, getattr(errno, "EOPNOTSUPP", errno.ENOTSUP)):
                return  # no extended attributes on this file system: nothing to lose
            raise FixError(f"cannot read its extended attributes ({exc.strerror or exc}); not changed") from None
        for attr in names:
            try:
                os.setxattr(dst, attr, os.getxattr(src, attr))
            except OSError as exc:
                raise FixError(f"its extended attribute or ACL `{attr}` cannot be copied ({exc.strerror or exc}); not changed") from None
    finally:
        os.close(src)


def write_atomic(path: str, original: bytes, new: bytes, roots: list[str] | None = None) -> None:
    """Replace the file's bytes with ``new`` if they are still ``original``.

    Writes through a symbolic link to its target, and never leaves a half-written file: a
    temporary file in the same folder is renamed over the original.  The real path is
    resolved once (and must lie inside ``roots``, the paths given); its folder is opened
    without following links and every later step (stat, re-read, temporary file, rename)
    goes through that descriptor, so a folder swapped for a link meanwhile cannot redirect
    the write.  The new file keeps the owner and group (set first: a chown clears setuid
    and setgid), the mode with its setuid/setgid/sticky bits, and the extended attributes
    and POSIX ACLs; a file whose owner or attributes could not be kept, or that has other
    names (hard links) the rename would split off, is refused and left unchanged.
    """
    from linter.engine import within
    from linter.source_file import read_file

    try:
        real = os.path.realpath(path)
    except (OSError, ValueError) as exc:
        raise FixError(f"cannot resolve its path: {exc}; not changed") from None
    if roots is not None and not within(real, roots):
        raise FixError("lies outside the paths given on the command line (through a symbolic link or a --config path); not changed")
    folder_name, name = os.path.split(real)
    try:
        folder = _open_folder(folder_name)
    except OSError as exc:
        raise FixError(f"its folder cannot be opened without following a link ({exc.strerror or exc}); not changed") from None
    try:
        _write_in(folder, folder_name, name, original, new, read_file)
    finally:
        os.close(folder)


class _signals_held:
    """Hold SIGINT and SIGTERM back (in the main thread, where Python runs their handlers)
    for a step that must not be split: they are delivered, and their handlers raise, when
    it ends.  Elsewhere (another thread, no ``pthread_sigmask``) it does nothing: no
    handler can raise in the middle of the step there."""

    __slots__ = ("before",)

    def __enter__(self):
        import threading

        held = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
        self.before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if held else None

    def __exit__(self, *exc):
        if self.before is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.before)


_HELD = (signal.SIGINT, signal.SIGTERM)


def _write_in(folder: int, folder_name: str, name: str, original: bytes, new: bytes, read_file) -> None:
    try:
        st = os.stat(name, dir_fd=folder, follow_symlinks=False)
        current = read_file(name, len(original) + 1, follow=False, dir_fd=folder)  # never blocks on a pipe swapped in
    except OSError as exc:
        raise FixError(f"cannot re-read before writing: {exc.strerror or exc}") from None
    if current != original:
        raise FixError("the file changed on disk since it was read; not overwritten")
    root = os.geteuid() == 0
    if not root and not os.access(name, os.W_OK, dir_fd=folder):
        raise FixError("the file is read-only; not changed")
    if not (st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)):
        raise FixError("the file is read-only; not changed")
    if st.st_nlink > 1:  # a rename gives this name a new file: the other names would keep the old text
        raise FixError(f"the file has {st.st_nlink} names (hard links), which a fix would split apart; not changed")
    if not root and st.st_uid != os.geteuid():
        raise FixError("the file belongs to another user, and a rewritten file would belong to this one; not changed")
    remove_stale_temp_files(folder, folder_name)
    tmp = None
    try:
        # created inside the guarded block: an interruption (SIGINT, SIGTERM) at any point removes it
        candidate = f"{TEMP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}"
        with _signals_held():  # a signal between the create and ``tmp = ...`` would leave it behind
            try:
                fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=folder)
            except OSError as exc:
                raise FixError(f"cannot create a temporary file next to it: {exc.strerror or exc}") from None
            tmp = candidate
        with os.fdopen(fd, "wb") as f:
            f.write(new)
            f.flush()
            try:  # owner and group first: a chown after the chmod would clear setuid and setgid
                os.fchown(f.fileno(), st.st_uid, st.st_gid)
            except OSError as exc:
                if (os.fstat(f.fileno()).st_uid, os.fstat(f.fileno()).st_gid) != (st.st_uid, st.st_gid):
                    raise FixError(f"its owner or group cannot be kept ({exc.strerror or exc}); not changed") from None
            os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode))
            if stat.S_IMODE(os.fstat(f.fileno()).st_mode) != stat.S_IMODE(st.st_mode):
                raise FixError("its mode (setuid, setgid or sticky bits) cannot be kept; not changed")
            _copy_attributes(name, folder, f.fileno())
            os.fsync(f.fileno())
        now = os.stat(name, dir_fd=folder, follow_symlinks=False)
        if (now.st_ino, now.st_size, now.st_mtime_ns, now.st_ctime_ns) != (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns):
            raise FixError("the file changed on disk while the fix was written; not overwritten")
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        tmp = None
    except BaseException as exc:
        if tmp is not None:
            try:
                os.unlink(tmp, dir_fd=folder)
            except OSError:
                pass
        if isinstance(exc, OSError):
            raise FixError(f"cannot write: {exc.strerror or exc}; the file is unchanged") from None
        raise


_C_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def diff_name(prefix: str, path: str) -> str:
    """``a/PATH`` for a diff header, quoted as git quotes it when the name holds a quote, a
    backslash or a character :func:`linter.reporters.printable` would escape (C escapes,
    other bytes of the UTF-8 name in octal): ``git apply`` and ``patch`` read it back, and a
    terminal showing the diff obeys nothing in the name."""
    name = prefix + path
    if printable(name) == name and '"' not in name and "\\" not in name:
        return name
    out = []
    for c in name:
        if c in _C_ESCAPES:
            out.append(_C_ESCAPES[c])
        elif c.isprintable():
            out.append(c)
        else:
            out.append("".join(f"\\{b:03o}" for b in c.encode("utf-8", "surrogateescape")))
    return '"' + "".join(out) + '"'


def _patch_lines(text: str) -> list[str]:
    """``text`` in lines as ``patch`` and ``git apply`` count them: split after each ``\\n`` only
    (``str.splitlines`` also splits at form feeds, vertical tabs, lone CRs, NEL, U+2028 ...,
    which would make hunks that no tool applies)."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


CONTEXT_LINES = 3  # of a hunk, as ``diff -u``
# the lines a file must have for the lines that both texts begin and end with (beyond a hunk's
# context) to be left out of the comparison: difflib's matcher took 0.33 s on a 3.5 MB manifest
# whose one line a fix changed.  A shorter file is compared whole, as difflib.unified_diff does.
TRIM_AFTER = 1000


def unified_diff(path: str, before: str, after: str, bom: bytes = b"") -> str:
    """A unified diff of ``before`` and ``after`` that ``patch -p1`` applies to the file's bytes:
    lines split at ``\\n`` only, the UTF-8 byte order mark of ``bom`` kept in the first line,
    a last line without a newline marked as ``diff`` does.  The hunks are
    ``difflib.unified_diff``'s, of the lines between what both texts begin and end with when
    the file is long (:data:`TRIM_AFTER`)."""
    import difflib  # here: only --diff prints one

    if bom == codecs.BOM_UTF8:
        before, after = "\ufeff" + before, "\ufeff" + after
    a, b = _patch_lines(before), _patch_lines(after)
    start, a_end, b_end = 0, len(a), len(b)
    if max(len(a), len(b)) > TRIM_AFTER:
        same = _common_start(a, b)
        same_end = _common_end(a, b, min(len(a), len(b)) - same)
        start = max(0, same - CONTEXT_LINES)
        a_end -= max(0, same_end - CONTEXT_LINES)
        b_end -= max(0, same_end - CONTEXT_LINES)
    # the matcher's edit script of the lines between, then the lines left out on both sides as
    # what they are, equal: a change the matcher placed at an end of the window (a line deleted
    # from a run of equal lines) gets its context from beyond it, as in the whole file
    codes: list[tuple[str, int, int, int, int]] = [("equal", 0, start, 0, start)] if start else []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a[start:a_end], b[start:b_end]).get_opcodes():
        _add_code(codes, (tag, start + i1, start + i2, start + j1, start + j2))
    if a_end < len(a):
        _add_code(codes, ("equal", a_end, len(a), b_end, len(b)))
    out: list[str] = []
    for group in _groups(codes, CONTEXT_LINES):
        if not out:
            out += [f"--- {diff_name('a/', path)}\n", f"+++ {diff_name('b/', path)}\n"]
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in a[i1:i2]]
                continue
            if tag in ("replace", "delete"):
                out += ["-" + line for line in a[i1:i2]]
            if tag in ("replace", "insert"):
                out += ["+" + line for line in b[j1:j2]]
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)


def _add_code(codes: list, code: tuple[str, int, int, int, int]) -> None:
    """Append an opcode, two equal runs in a row made one (as difflib's matcher gives them)."""
    if code[0] == "equal" and codes and codes[-1][0] == "equal":
        last = codes[-1]
        codes[-1] = ("equal", last[1], code[2], last[3], code[4])
    else:
        codes.append(code)


def _groups(codes: list, n: int):
    """The hunks of the opcodes ``codes`` with ``n`` lines of context: what
    ``difflib.SequenceMatcher.get_grouped_opcodes`` makes of its own opcodes (Python 3.11)."""
    codes = list(codes) or [("equal", 0, 1, 0, 1)]
    if codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2
    if codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)
    group: list = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > n + n:  # a long run without changes ends a hunk
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            yield group
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        yield group


def _range(start: int, stop: int) -> str:
    """Lines ``start:stop`` as a hunk header names them (difflib's ``_format_range_unified``)."""
    length = stop - start
    if length == 1:
        return f"{start + 1}"
    return f"{start if not length else start + 1},{length}"


def _common_start(a: list[str], b: list[str]) -> int:
    """How many lines ``a`` and ``b`` begin with alike."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _common_end(a: list[str], b: list[str], most: int) -> int:
    """How many lines (at most ``most``) ``a`` and ``b`` end with alike."""
    n = 0
    while n < most and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def fixes_summary(fixed: list[tuple[str, list[Diagnostic]]], *, would: bool = False) -> str:
    """What ``--show-fixes`` prints: per file, how many fixes of each rule were applied."""
    from rules._lib.base import all_rules

    names = {code: r.name for code, r in all_rules().items()}
    total = sum(len(applied) for _, applied in fixed)
    if not total:
        return ""
    lines = [f"{'Would fix' if would else 'Fixed'} {total} error{'s' if total != 1 else ''}:"]
    for path, applied in fixed:
        if not applied:
            continue
        lines.append(f"- {printable(path)}:")
        counts: dict[str, int] = {}
        for d in applied:
            counts[d.code] = counts.get(d.code, 0) + 1
        for code in sorted(counts):
            lines.append(f"    {counts[code]} \u00d7 {code} ({names.get(code, '?')})")
    return "\n".join(lines) + "\n"


class FileFix(Record):
    """One file read and fixed in memory (nothing written yet)."""

    __slots__ = ("path", "kind", "data", "src", "outcome", "inherited")

    path: str  # as the walk (or the launch naming it) named it
    kind: str
    data: bytes | None  # its bytes when read, which a write checks are still there (None when no write will: linter.project.fix)
    src: SourceFile
    outcome: FixOutcome
    inherited: Version | None  # a named config file's release (see fix_source)

    def __init__(self, path, kind, data, src, outcome, inherited=None):
        self.path = path
        self.kind = kind
        self.data = data
        self.src = src
        self.outcome = outcome
        self.inherited = inherited


# what :func:`fix_file` answers for a walked file whose bytes cannot hold a launch: the check's
# answer for it is an empty result, given without reading the file again
CANNOT_LAUNCH = object()


def fix_file(path: str, kind: str, settings: Settings, rules: dict, unsafe: bool, *, prefilter: bool = False, inherited: Version | None = None) -> FileFix | None:
    """Read and fix one file; None when the check reports it instead (unreadable, too big, not
    text), so --fix and the check agree, and :data:`CANNOT_LAUNCH` for a walked file that
    cannot hold a launch (the check's result for it is empty)."""
    from linter.discovery import image_needles, might_launch
    from linter.engine import MAX_FILE_BYTES, read_file

    try:
        data = read_file(path)  # never blocks on a pipe swapped in after discovery
        if len(data) > MAX_FILE_BYTES:
            return None
        if prefilter and kinds.prefiltered(kind) and not might_launch(data, image_needles(settings.vllm_images, bool(settings.built_images))):
            return CANNOT_LAUNCH
        src = SourceFile.from_bytes(path, data)
    except (OSError, DecodeError):
        return None
    return FileFix(path, kind, data, src, fix_source(src, kind, settings, rules, unsafe, inherited=inherited), inherited)
