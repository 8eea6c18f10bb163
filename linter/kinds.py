"""Every kind of file vllm-lint reads, in one table.

A row says, for one kind: which names (and shebangs) make a file that kind,
the source module that reads it (``extract(src) -> Extraction``), how its
comments are found when its reader does not report them (``Extraction.comments``),
the check that a pass of fixes left it parsing as before, how one argv element
is written as two (shell words, or items of a YAML / JSON / Python list), and
whether a walked file that never says ``vllm`` nor ``lmcache`` is skipped unread.

Adding a kind of file is one source module and one row here; nothing else
names kinds.  Rows without a reader are *forms*: what a launch found inside
another kind's file is (a Kubernetes manifest or a compose file is read by the
YAML reader); launches carry them in ``Launch.kind`` and they give only the
edit style.  Functions are named as ``"module:function"`` strings and looked
up when used, so this module imports nothing heavy (discovery uses it).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from functools import lru_cache
from typing import Literal

from linter.records import Frozen, _set
from linter.sources.words import SHELLS

# How one argv element is written as two (:mod:`linter.edits`): shell words; items of a YAML
# sequence (plain or quoted scalars); items of a JSON array or a Python list (always quoted
# literals; in Python a backslash escapes inside either quote).
EditStyle = Literal["words", "yaml-items", "json-items", "python-items"]


class Kind(Frozen):
    __slots__ = ("name", "reader", "extensions", "claims", "interpreter", "comments", "fix_check", "edit", "prefilter", "languages", "holds_launches",
                 "claims_any_name")

    name: str
    reader: str | None  # module exposing ``extract(src) -> Extraction``; None: a form inside other kinds' files
    extensions: frozenset[str]  # lower-case name extensions this kind claims (not every such name is it)
    # (path, lower-case base name, extension, first bytes) -> whether the file is this kind; None: any name with
    # one of ``extensions``
    claims: Callable[[str, str, str, bytes], bool] | None
    interpreter: Callable[[str], bool] | None  # a shebang's program that makes an extension-less file this kind
    # "module:function" (text -> comments) for a reader that does not report comments; None: the reader
    # reports them in ``Extraction.comments`` (found in its own parse)
    comments: str | None
    fix_check: str | None  # "module:function" (before, after, edits) -> why the pass broke the file, or None
    edit: EditStyle | None  # None: argv elements are never split
    prefilter: bool  # walked files without ``vllm``/``lmcache`` in them are skipped unread
    # editors' language ids (LSP ``languageId``: VS Code's, Neovim's file types) of a buffer of this
    # kind: what classifies an unnamed buffer (``untitled:``) for the language server
    languages: frozenset[str]
    holds_launches: bool  # False: the kind pins releases but never starts a server (requirements)
    # False: ``claims`` says no to every name whose extension is not one of ``extensions``, so it
    # is not asked about them (the walk asks about thousands of names); True: about any name;
    # prefixes: about the (lower-cased) names of other extensions that start with one of them
    claims_any_name: bool | tuple[str, ...]

    def __init__(self, name, reader=None, extensions=frozenset(), claims=None, interpreter=None, comments=None, fix_check=None, edit=None, prefilter=True, languages=frozenset(), holds_launches=True,
                 claims_any_name=True):
        _set(self, "name", name)
        _set(self, "reader", reader)
        _set(self, "extensions", extensions)
        _set(self, "claims", claims)
        _set(self, "interpreter", interpreter)
        _set(self, "comments", comments)
        _set(self, "fix_check", fix_check)
        _set(self, "edit", edit)
        _set(self, "prefilter", prefilter)
        _set(self, "languages", languages)
        _set(self, "holds_launches", holds_launches)
        _set(self, "claims_any_name", claims_any_name)

    def is_name(self, path: str, lower: str, ext: str, head: bytes) -> bool:
        if self.claims is not None:
            return self.claims(path, lower, ext, head)
        return ext in self.extensions


# ---------------------------------------------------------------------------
# Names and shebangs

_YAML = frozenset({".yaml", ".yml"})
# ``Dockerfile.<x>`` names that are not Dockerfiles
_NOT_DOCKERFILE_SUFFIXES = frozenset(
    {".md", ".markdown", ".rst", ".txt", ".json", ".yaml", ".yml", ".sh", ".py", ".lock", ".dockerignore", ".orig", ".bak"}
)


_DOCKERFILE_BASES = ("dockerfile", "containerfile")  # what a Dockerfile's name is or starts with


def _dockerfile_name(path: str, lower: str, ext: str, head: bytes) -> bool:
    if ext not in (".dockerfile", ".containerfile") and not lower.startswith(_DOCKERFILE_BASES):
        return False  # (most names: a walk asks about every file)
    if lower in _DOCKERFILE_BASES or ext in (".dockerfile", ".containerfile"):
        return True
    for base in _DOCKERFILE_BASES:
        if lower.startswith(base) and len(lower) > len(base) and lower[len(base)] in ".-_":
            if ext not in _NOT_DOCKERFILE_SUFFIXES:
                return True
    return False


@lru_cache(maxsize=4096)
def _has_chart(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "Chart.yaml")) or os.path.isfile(os.path.join(folder, "Chart.yml"))


def _helm_template(path: str, lower: str, ext: str, head: bytes) -> bool:
    if ext == ".tpl":  # Go templates of YAML (values rendered by Terraform); Helm's `_*.tpl` partials only define
        return not lower.startswith("_")
    if ext not in _YAML or lower.startswith("values") or "templates" not in path:
        return False  # (no ``templates`` in the path: no part of it is that folder)
    parts = os.path.normpath(path).replace(os.sep, "/").split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "templates":
            chart_dir = "/".join(parts[:i]) or ("/" if path.startswith("/") else ".")
            if _has_chart(chart_dir):
                return True
    # no chart on disk beside it (a path given without the tree): trust the template syntax
    return "templates" in parts[:-1] and b"{{" in head


def _requirements_name(path: str, lower: str, ext: str, head: bytes) -> bool:
    if ext not in (".txt", ".in"):
        return False
    if lower.startswith(("requirements", "constraints")):
        return True
    parent = os.path.basename(os.path.dirname(os.path.normpath(path))).lower()
    return parent in ("requirements", "constraints")


def _is_python_name(name: str) -> bool:
    if name.startswith("python"):
        rest = name[len("python"):]
        return rest == "" or all(c.isdigit() or c == "." for c in rest)
    return name in ("pypy", "pypy3")


def shebang_interpreter(head: bytes) -> str | None:
    """The program a ``#!`` line runs (through ``env`` and its options), or None."""
    if not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0].strip()
    words = line.decode("utf-8", "replace").split()
    if not words:
        return None
    prog = os.path.basename(words[0])
    if prog == "env":
        i = 1
        while i < len(words):
            w = words[i]
            if w in ("-u", "--unset", "-C", "--chdir"):
                i += 2
                continue
            if w.startswith("-S") and len(w) > 2:  # -Sbash
                return os.path.basename(w[2:])
            if w.startswith("-") or ("=" in w and not w.startswith("=")):
                i += 1
                continue
            return os.path.basename(w)
        return None
    return prog


# ---------------------------------------------------------------------------
# The table (name order is the order names are tried: Dockerfile.<x> before the extension
# of <x>, Helm templates before other YAML)

_S = "linter.sources.comments:"
_F = "linter.fix_check:"

KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("dockerfile", "linter.sources.dockerfile", frozenset({".dockerfile", ".containerfile"}), claims=_dockerfile_name, claims_any_name=_DOCKERFILE_BASES,
         fix_check=_F + "check_dockerfile", edit="json-items", languages=frozenset({"dockerfile"})),  # the reader reports its comments
    Kind("shell", "linter.sources.shell", frozenset({".sh", ".bash", ".zsh", ".ksh"}), interpreter=SHELLS.__contains__,
         fix_check=_F + "check_shell", edit="words", languages=frozenset({"shellscript", "sh", "bash", "zsh"})),  # the reader reports its comments
    Kind("helm-template", "linter.sources.yaml", _YAML | {".tpl"}, claims=_helm_template, claims_any_name=False,
         comments=_S + "helm_comments", fix_check=_F + "check_yaml", edit="yaml-items"),
    # JSON is YAML: engine-argument files (Triton's model.json), read for their launches only
    Kind("yaml", "linter.sources.yaml", _YAML | {".json"}, comments=_S + "yaml_comments", fix_check=_F + "check_yaml", edit="yaml-items",
         languages=frozenset({"yaml", "json"})),
    Kind("python", "linter.sources.python", frozenset({".py"}), interpreter=_is_python_name,
         comments=_S + "python_comments", fix_check=_F + "check_python", edit="python-items", languages=frozenset({"python"})),
    Kind("markdown", "linter.sources.markdown", frozenset({".md", ".markdown", ".mdx"}),
         comments=_S + "markdown_comments", fix_check=_F + "check_markdown", edit="words", languages=frozenset({"markdown"})),
    # Jupyter notebooks: launches in code and Markdown cells, reported and never edited (inside JSON strings)
    Kind("notebook", "linter.sources.notebook", frozenset({".ipynb"})),
    Kind("requirements", "linter.sources.requirements", frozenset({".txt", ".in"}), claims=_requirements_name, claims_any_name=False,
         comments=_S + "requirements_comments", prefilter=False, languages=frozenset({"pip-requirements", "requirements"}), holds_launches=False),  # a pin alone is worth reading (VL601)
    # a file named by ``--config FILE`` (never found by its name); YAML or JSON, which has no comments
    Kind("vllm-config", "linter.sources.vllm_config", comments=_S + "yaml_comments", fix_check=_F + "check_yaml"),
    # forms of launches inside YAML files
    Kind("k8s", edit="yaml-items"),
    Kind("compose", edit="yaml-items"),
    Kind("helm-values", edit="yaml-items"),
    Kind("actions", edit="words"),  # a `run:` script
    Kind("skypilot", edit="words"),  # a `run:`/`setup:` script
)}

def classify(path: str, head: bytes = b"", name: str | None = None, rows: dict | None = None) -> str | None:
    """The kind of file ``path`` is, from its name and (for extension-less files) its first bytes;
    ``name``: ``path``'s last component when the caller has it (a walk does); ``rows``: a dict
    the caller keeps for the calls of one walk (:func:`rows_for` each extension, once)."""
    lower = (os.path.basename(path) if name is None else name).lower()
    ext = extension(lower)
    found = rows.get(ext) if rows is not None else None
    if found is None:
        found = rows_for(ext)
        if rows is not None:
            rows[ext] = found
    tried, known = found
    for name_, claims, prefixes in tried:
        if prefixes is not None and not lower.startswith(prefixes):
            continue  # (a Dockerfile's claim, asked only of names that start as one's do)
        if claims is None or claims(path, lower, ext, head):
            return name_
    if known:  # `notes.txt`: a known extension whose kind did not want the name
        return None
    interpreter = shebang_interpreter(head)
    if interpreter is not None:
        for k in KINDS.values():
            if k.interpreter is not None and k.interpreter(interpreter):
                return k.name
    return None


def rows_for(ext: str) -> tuple[tuple[tuple[str, Callable | None, tuple[str, ...] | None], ...], bool]:
    """The rows of :data:`KINDS` that can claim a name of extension ``ext``, in table order (the
    reader rows whose ``extensions`` hold it, and those whose ``claims`` is asked about other
    names: ``claims_any_name``), each as its name, its ``claims`` (None: a row without one
    claims every name of its extensions, :meth:`Kind.is_name`) and the prefixes a name must
    start with to be asked (None: any), and whether a row names ``ext`` at all.  A walk
    classifies thousands of names of a few extensions, and most rows say no to each."""
    rows = []
    for k in KINDS.values():
        if k.reader is None:
            continue
        if ext in k.extensions:
            rows.append((k.name, k.claims, None))
        elif k.claims is not None and k.claims_any_name:
            rows.append((k.name, k.claims, k.claims_any_name if isinstance(k.claims_any_name, tuple) else None))
    return tuple(rows), any(ext in k.extensions for k in KINDS.values())


def extension(name: str) -> str:
    """``os.path.splitext(name)[1]`` of a file name (no separator in it): from the last dot, unless
    only dots come before it (``.bashrc`` and ``..x`` have none)."""
    dot = name.rfind(".")
    return name[dot:] if dot > 0 and name[:dot].strip(".") else ""


# ---------------------------------------------------------------------------
# Reading a row


def _resolve(ref: str | None):
    if ref is None:
        return None
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def for_language(language: str | None) -> str | None:
    """The kind of an editor buffer whose language id is ``language`` (None: no row claims it)."""
    return next((k.name for k in KINDS.values() if k.reader is not None and language in k.languages), None)


def reader(kind: str):
    """The source module that reads ``kind``, or None (not a kind of file, or its module is missing)."""
    row = KINDS.get(kind)
    if row is None or row.reader is None:
        return None
    try:
        return importlib.import_module(row.reader)
    except ModuleNotFoundError as exc:
        if exc.name == row.reader:
            return None
        raise


def comment_finder(kind: str) -> Callable | None:
    """``text -> comments`` for a kind whose reader does not report comments (None: unknown kind)."""
    row = KINDS.get(kind)
    return _resolve(row.comments) if row is not None else None


def fix_check(kind: str) -> Callable | None:
    row = KINDS.get(kind)
    return _resolve(row.fix_check) if row is not None else None


def edit_style(kind: str) -> EditStyle | None:
    row = KINDS.get(kind)
    return row.edit if row is not None else None


def holds_launches(kind: str) -> bool:
    """Whether a file of ``kind`` can start a server (a requirements file only pins)."""
    row = KINDS.get(kind)
    return row.holds_launches if row is not None else True


def prefiltered(kind: str) -> bool:
    """Whether a walked file of ``kind`` without ``vllm``/``lmcache`` in it is skipped unread."""
    row = KINDS.get(kind)
    return row.prefilter if row is not None else True
