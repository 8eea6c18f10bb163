"""``vllm-lint server``: the Language Server Protocol over standard input and output (pygls).

An editor sends a file's text as it is typed; the server lints it with
:func:`linter.project.lint_document` exactly as ``vllm-lint FILE`` would (the
kind from :func:`linter.discovery.classify`, the configuration found from the
file's folder upwards by :mod:`linter.config`) and publishes the diagnostics:

* **Diagnostics** on open, change and save, for every kind of file; ranges in the
  position encoding negotiated at ``initialize`` (UTF-16 unless the client offers
  another), with the rule code, its severity and the rule's page.
* **Code actions**: each safe fix as a ``quickfix`` (preferred), each unsafe one
  as a ``quickfix`` titled "(unsafe)"; and ``source.fixAll.vllm-lint``, the safe
  fixes of :func:`linter.project.fix_document` (``--fix``).  The edits are the
  fixes' own character-range edits, converted to LSP ranges.
* **Hover** on an option of a launch: what the launch's release says of it (vLLM's
  help text, type, choices, default, group, deprecation) and its history over every known release
  (:func:`linter.knowledge.option_history`).
* **Completion** of option names after ``-`` / ``--`` in a command-line launch,
  from the launch's release.

The release: ``initializationOptions.targetVersion`` (or the ``vllm-lint``
section of ``workspace/didChangeConfiguration``) checks every launch against
it; else a launch's pin; else the configuration's ``target-version``
(:attr:`linter.engine.Settings.fallback`); else the newest known.

Linting runs on one worker thread, never on the event loop.  A change cancels
the run waiting for its document; a run whose document changed meanwhile
publishes nothing.  Results are kept per document and reused while neither the
text nor the settings change (a save after an edit, a configuration event).
A change of a configuration file (``workspace/didChangeWatchedFiles``, or a save
of it in the editor) or of the client settings lints every open document again.

Imported only by ``vllm-lint server``: the command line never loads pygls.
"""

from __future__ import annotations

import asyncio
import bisect
import functools
import logging
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from linter import knowledge
from linter.config import CONFIG_NAMES, Config, ConfigError, Resolver, client_overrides, settings as build_settings
from linter.diagnostic import Diagnostic, Severity
from linter.engine import FileResult, Settings
from linter.kinds import for_language
from linter.records import replace

NAME = "vllm-lint"
FIX_ALL = f"{lsp.CodeActionKind.SourceFixAll.value}.{NAME}"  # source.fixAll.vllm-lint
DEBOUNCE_SECONDS = 0.15  # a burst of keystrokes lints once
_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning, Severity.INFO: lsp.DiagnosticSeverity.Information}

_LINE_END = re.compile(r"\r\n|\r|\n")

log = logging.getLogger(NAME)


# ---------------------------------------------------------------------------
# positions: character offsets of the text <-> LSP line and column


class Lines:
    """Line starts of a text as LSP counts lines (``\\n``, ``\\r\\n`` and a lone ``\\r`` end
    one), and columns in the negotiated encoding's code units (UTF-16 by default)."""

    def __init__(self, text: str, encoding: str = lsp.PositionEncodingKind.Utf16):
        self.text = text
        self.starts = [0, *(m.end() for m in _LINE_END.finditer(text))]
        self.unit = {lsp.PositionEncodingKind.Utf8: "utf-8", lsp.PositionEncodingKind.Utf32: "utf-32-le"}.get(encoding, "utf-16-le")
        self.width = {"utf-8": 1, "utf-16-le": 2, "utf-32-le": 4}[self.unit]

    def _units(self, s: str) -> int:
        return len(s.encode(self.unit, "surrogatepass")) // self.width

    def position(self, offset: int) -> lsp.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return lsp.Position(line, self._units(self.text[self.starts[line] : offset]))

    def range(self, start: int, end: int) -> lsp.Range:
        return lsp.Range(self.position(start), self.position(end))

    def offset(self, pos: lsp.Position) -> int:
        """The character offset of ``pos`` (a column past the line's end is the line's end)."""
        if pos.line >= len(self.starts):
            return len(self.text)
        start = self.starts[pos.line]
        end = self.starts[pos.line + 1] if pos.line + 1 < len(self.starts) else len(self.text)
        units = 0
        for i in range(start, end):
            c = self.text[i]
            if c in "\r\n" or units >= pos.character:
                return i
            units += self._units(c)
        return end


# ---------------------------------------------------------------------------
# what the server keeps of each document


@dataclass
class Run:
    """The last lint of one document: the text and settings it was made with, and its result."""

    version: int | None
    text: str
    key: tuple
    result: FileResult
    lines: Lines
    problem: str | None = None  # a configuration the settings could not use, for the editor's log


@dataclass
class DocState:
    pending: asyncio.Task | None = None
    run: Run | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


def _lines_on_disk(path: str, encoding) -> Lines | None:
    """The lines of another file a diagnostic points into (a ``--config`` file), or None."""
    from linter.source_file import DecodeError, SourceFile, read_file

    try:
        return Lines(SourceFile.from_bytes(path, read_file(path)).text, encoding)
    except (OSError, DecodeError):
        return None


def _same_on_disk(path: str, data: bytes) -> bool:
    """The file ``path`` holds ``data`` (the buffer is saved): only then may its reading be stored."""
    from linter.source_file import read_file

    try:
        return read_file(path) == data
    except OSError:
        return False


def _path_of(uri: str) -> str:
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        return os.path.normpath(unquote(parsed.path))
    return unquote(parsed.path) or uri


@functools.cache
def rule_url(code: str) -> str | None:
    """The rule's page: on the project's public home, else the ``docs/rules.md`` beside the package."""
    from linter.reporters.common import RULES_DOC, project_url, rule_doc_ref

    base = project_url()
    if base:
        return base.rstrip("/") + "/blob/main/" + rule_doc_ref(code)
    local = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), RULES_DOC)
    if os.path.isfile(local):
        return "file://" + local + "#" + code.lower()
    return None


class VllmLintServer(LanguageServer):
    def __init__(self):
        from linter.reporters.common import tool_version

        super().__init__(NAME, tool_version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.docs: dict[str, DocState] = {}
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vllm-lint")
        self.options: dict = {}  # initializationOptions, updated by workspace/didChangeConfiguration
        self._resolver: Resolver | None = None
        self._option_problems: list[str] = []
        self._cache = None  # linter.cache.Cache, made on the first lint

    # -- settings: the command line's builder, the client options as its override layer

    def set_options(self, options: dict) -> None:
        """New client options (``initialize``, ``workspace/didChangeConfiguration``)."""
        self.options = options
        self._resolver = None

    def resolver(self) -> tuple[Resolver | None, str | None]:
        """The :class:`linter.config.Resolver` of the client options (made once, until they or a
        configuration file change), or (None, the problem) when their ``config`` cannot be read."""
        if self._resolver is None:
            overrides, problems = client_overrides(self.options)
            try:
                self._resolver = Resolver(self.options.get("config") or None, overrides)
            except ConfigError as exc:
                return None, "; ".join([*problems, str(exc)])
            self._option_problems = problems
        return self._resolver, "; ".join(self._option_problems) or None

    def configuration_changed(self) -> None:
        """A configuration file changed: read them again (a new resolver at the next lint, rather
        than one emptied under the worker thread that may be reading it)."""
        self._resolver = None

    def settings_for(self, path: str) -> tuple[Settings, Config, str | None]:
        """(settings, configuration, problem) for the file ``path``, built as the command line builds them
        (:func:`linter.config.settings`): its configuration (the ``config`` option, else the
        nearest file from its folder upwards), under the client options
        (:func:`linter.config.client_overrides`).  What cannot be used is a problem: a bad
        configuration file gives way to the defaults, a bad ``target-version`` to none."""
        resolver, problem = self.resolver()
        problems = [problem] if problem else []
        overrides = resolver.overrides if resolver is not None else client_overrides(self.options)[0]
        cfg = Config()
        if resolver is not None:
            try:
                cfg = resolver.config_for(path)
            except ConfigError as exc:
                problems.append(str(exc))
        try:
            built = build_settings(cfg, overrides)
        except ConfigError as exc:  # the file's target-version names no release
            problems.append(str(exc))
            built = build_settings(replace(cfg, target_version=None), overrides)
        return built, cfg, "; ".join(problems) or None

    # -- linting, off the event loop

    def lint_now(self, uri: str, version: int | None, text: str, language: str | None) -> Run | None:
        """Lint ``text`` as the file of ``uri`` (on the worker thread); None when vllm-lint does
        not read that kind of file, or the configuration excludes it (as ``--force-exclude``
        does for standard input: an editor names every file it opens)."""
        from linter.cache import settings_key
        from linter import project

        path = _path_of(uri)
        on_disk = urlparse(uri).scheme == "file"
        data = text.encode("utf-8", "surrogatepass")
        settings, cfg, problem = self.settings_for(path)
        # a buffer without a name vllm-lint knows (``untitled:``) is classified by its language
        check = project.check_document(path, data, settings, cfg, force_exclude=on_disk, respect_gitignore=cfg.respect_gitignore,
                                       fallback_kind=None if on_disk else for_language(language), origin="the buffer")
        if check.too_big is not None:
            return Run(version, text, ("too-big",), check.too_big, Lines(text, self.workspace.position_encoding), problem)
        if check.kind is None:
            return None
        kind = check.kind
        key = (kind, settings_key(settings, path))
        state = self.docs.get(uri)
        if state is not None and state.run is not None and state.run.text == text and state.run.key == key:
            return Run(version, text, key, state.run.result, state.run.lines, problem)
        cache = self.cache()
        result = project.lint_document(path, data, settings, kind, cache=cache, store=cache is not None and on_disk and _same_on_disk(path, data))
        return Run(version, text, key, result, Lines(text, self.workspace.position_encoding), problem)

    def cache(self):
        """The on-disk cache the command line uses (``$VLLM_LINT_CACHE_DIR``, else
        ``.vllm-lint-cache`` in the workspace's root folder), or None: no root folder, or the
        client option ``"cache": false`` (as ``--no-cache``)."""
        if self.options.get("cache") is False:
            return None
        if self._cache is None:
            from linter.cache import DIRNAME, Cache

            root = os.environ.get("VLLM_LINT_CACHE_DIR")
            if not root:
                folder = self.workspace.root_path
                if not folder:
                    return None
                root = os.path.join(folder, DIRNAME)
            self._cache = Cache(root)
        return self._cache

    def document(self, uri: str):
        """The open document ``uri`` (as the client names it), or None once closed."""
        return self.workspace.get_text_document(uri) if uri in self.docs else None

    async def relint(self, uri: str, *, delay: float = 0.0) -> None:
        state = self.docs.setdefault(uri, DocState())
        if state.pending is not None and not state.pending.done():
            state.pending.cancel()  # a stale run that has not started: dropped
        state.done.clear()
        state.pending = asyncio.ensure_future(self._lint_and_publish(uri, delay))

    async def _lint_and_publish(self, uri: str, delay: float) -> None:
        state = self.docs[uri]
        try:
            if delay:
                await asyncio.sleep(delay)
            doc = self.workspace.get_text_document(uri)
            version, text = doc.version, doc.source
            loop = asyncio.get_running_loop()
            run = await loop.run_in_executor(self.executor, self.lint_now, uri, version, text, doc.language_id)
            current = self.document(uri)
            if current is None or current.version != version:
                return  # the document changed (or closed) while it was linted: a newer run publishes
            state.run = run
            if run is not None and run.problem:
                self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, f"vllm-lint: {run.problem}"))
            diagnostics = [] if run is None else [self.lsp_diagnostic(run, d) for d in run.result.diagnostics]
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics))
            state.done.set()
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug in a rule: say so in the editor's log, keep serving
            import traceback

            self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, f"vllm-lint: internal error linting {uri}:\n{traceback.format_exc()}"))
            state.done.set()

    async def current_run(self, uri: str, timeout: float = 30.0) -> Run | None:
        """The run of the document's present text (waiting for the pending one, if any)."""
        state = self.docs.get(uri)
        if state is None:
            return None
        if state.pending is not None and not state.pending.done():
            try:
                await asyncio.wait_for(asyncio.shield(state.done.wait()), timeout)
            except asyncio.TimeoutError:
                pass
        doc = self.document(uri)
        run = state.run
        if run is None or doc is None or run.text != doc.source:
            return None
        return run

    def lsp_diagnostic(self, run: Run, d: Diagnostic) -> lsp.Diagnostic:
        url = rule_url(d.code)
        related = None
        if d.related:
            related = []
            for path, span in d.related:
                if path == run.result.path:
                    related.append(lsp.DiagnosticRelatedInformation(lsp.Location(self._uri_of(run), run.lines.range(span.start, span.end)), "here"))
                else:
                    lines = _lines_on_disk(path, self.workspace.position_encoding)
                    where = lines.range(span.start, span.end) if lines is not None else lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
                    related.append(lsp.DiagnosticRelatedInformation(lsp.Location(Path(os.path.abspath(path)).as_uri(), where), os.path.basename(path)))
        return lsp.Diagnostic(
            range=run.lines.range(d.span.start, d.span.end),
            message=d.message,
            severity=_SEVERITY[d.severity],
            code=d.code,
            code_description=lsp.CodeDescription(href=url) if url else None,
            source=NAME,
            related_information=related,
            data={"fix": d.fix.applicability if d.fix is not None else None},
        )

    def _uri_of(self, run: Run) -> str:
        for uri, state in self.docs.items():
            if state.run is run:
                return uri
        return ""


server = VllmLintServer()


# ---------------------------------------------------------------------------
# lifecycle and document events


@server.feature(lsp.INITIALIZE)
def initialize(ls: VllmLintServer, params: lsp.InitializeParams) -> None:
    opts = params.initialization_options
    ls.set_options(dict(opts) if isinstance(opts, dict) else {})
    # the workspace's root is the working folder the command line would run in: excludes and a
    # relative ``config`` are read from it
    root = params.root_path if params.root_uri is None else _path_of(params.root_uri)
    if root and os.path.isdir(root):
        os.chdir(root)


@server.feature(lsp.INITIALIZED)
def initialized(ls: VllmLintServer, params: lsp.InitializedParams) -> None:
    """Ask to hear of configuration files changing, when the client can watch files."""
    watch = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if watch and watch.dynamic_registration:
        watchers = [lsp.FileSystemWatcher(glob_pattern=f"**/{name}") for name in (*CONFIG_NAMES, "pyproject.toml")]
        ls.client_register_capability(
            lsp.RegistrationParams([lsp.Registration(id="vllm-lint-config", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers))])
        )


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: VllmLintServer, params: lsp.DidOpenTextDocumentParams) -> None:
    await ls.relint(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: VllmLintServer, params: lsp.DidChangeTextDocumentParams) -> None:
    await ls.relint(params.text_document.uri, delay=DEBOUNCE_SECONDS)


def _is_config(uri: str) -> bool:
    return os.path.basename(_path_of(uri)) in (*CONFIG_NAMES, "pyproject.toml")


async def _relint_all(ls: VllmLintServer, *, configuration: bool = False) -> None:
    if configuration:
        ls.configuration_changed()
    for uri in list(ls.docs):
        await ls.relint(uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: VllmLintServer, params: lsp.DidSaveTextDocumentParams) -> None:
    if _is_config(params.text_document.uri):
        await _relint_all(ls, configuration=True)
    else:
        await ls.relint(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: VllmLintServer, params: lsp.DidCloseTextDocumentParams) -> None:
    state = ls.docs.pop(params.text_document.uri, None)
    if state is not None and state.pending is not None:
        state.pending.cancel()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: VllmLintServer, params: lsp.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict):
        section = settings.get(NAME, settings)
        if isinstance(section, dict):
            ls.set_options({**ls.options, **section})
    await _relint_all(ls)


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(ls: VllmLintServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    if any(_is_config(c.uri) for c in params.changes):
        await _relint_all(ls, configuration=True)


# ---------------------------------------------------------------------------
# code actions


def _edit(run: Run, edits) -> list[lsp.TextEdit]:
    return [lsp.TextEdit(run.lines.range(e.span.start, e.span.end), e.content) for e in edits]


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]))
async def code_action(ls: VllmLintServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    run = await ls.current_run(uri)
    if run is None:
        return []
    only = params.context.only
    out: list[lsp.CodeAction] = []
    want_quick = not only or any(lsp.CodeActionKind.QuickFix.value.startswith(k) or k.startswith(lsp.CodeActionKind.QuickFix.value) for k in only)
    want_all = not only or any(FIX_ALL.startswith(k) for k in only)
    version = run.version
    if want_quick:
        for d in run.result.diagnostics:
            if d.fix is None or d.fix.applicability == "display-only":
                continue
            diag = ls.lsp_diagnostic(run, d)
            if not _overlaps(diag.range, params.range):
                continue
            unsafe = d.fix.applicability == "unsafe"
            out.append(
                lsp.CodeAction(
                    title=f"{d.code}: {d.fix.message}" + (" (unsafe)" if unsafe else ""),
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    is_preferred=not unsafe,
                    edit=_workspace_edit(uri, version, _edit(run, d.fix.edits)),
                )
            )
    if want_all and any(d.fix is not None and d.fix.applicability == "safe" for d in run.result.diagnostics):
        loop = asyncio.get_running_loop()
        edits = await loop.run_in_executor(ls.executor, _fix_all_edits, ls, uri, run)
        if edits:
            out.append(lsp.CodeAction(title="vllm-lint: fix all safe problems", kind=FIX_ALL, edit=_workspace_edit(uri, version, edits)))
    return out


def _workspace_edit(uri: str, version: int | None, edits: list[lsp.TextEdit]) -> lsp.WorkspaceEdit:
    return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(lsp.OptionalVersionedTextDocumentIdentifier(uri, version), edits)])


def _fix_all_edits(ls: VllmLintServer, uri: str, run: Run) -> list[lsp.TextEdit]:
    """The edits of ``--fix`` on the document: the first pass's own edits when one pass fixes
    everything; after more passes (a fix that needs another's result), one edit spanning what
    the passes changed, as later passes' edits refer to the text of the pass before."""
    from linter import project
    from linter.discovery import classify

    path = _path_of(uri)
    data = run.text.encode("utf-8", "surrogatepass")
    kind = run.key[0] or classify(path, data[:256])
    settings, _cfg, _problem = ls.settings_for(path)
    fixed = project.fix_document(path, data, settings, kind)
    if fixed is None or fixed.outcome.error or fixed.outcome.fixed == fixed.outcome.original:
        return []
    outcome = fixed.outcome
    if outcome.original != run.text:
        return []
    if len(outcome.passes) == 1:
        return _edit(run, outcome.passes[0].edits)
    a, b = outcome.original, outcome.fixed
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    return [lsp.TextEdit(run.lines.range(start, end_a), b[start:end_b])]


# ---------------------------------------------------------------------------
# hover and completion: the options of the launch under the cursor


def _option_at(run: Run, offset: int):
    """(parsed option, its file span, launch report) of the option name at ``offset``, or None."""
    from linter import argmodel

    for rep in run.result.launches:
        launch = rep.launch
        if not launch.span.start <= offset <= launch.span.end or launch.program != "vllm":
            continue
        parsed = argmodel.parse(launch, knowledge.release(rep.version))
        for opt in parsed.options:
            tok = opt.name.token
            if tok is None:
                continue
            if tok.value_start is not None:
                start, end = tok.value_start + opt.name_range[0], tok.value_start + opt.name_range[1]
            else:
                start, end = tok.span.start, tok.span.end
            if start <= offset <= end:
                return opt, (start, end), rep
    return None


def _fmt(value) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(f"`{v}`" for v in value)
    return f"`{value}`"


def hover_text(opt, rep) -> str:
    """Markdown: what the launch's release says of the option, then its history."""
    release = rep.version
    spec = opt.spec
    name = spec.primary if spec is not None else opt.normalized.split("=", 1)[0]
    lines = [f"**`{name}`** — vLLM {release}" + (f" (pinned {rep.pin})" if rep.pin else "")]
    if spec is None:
        what = {"ambiguous": f"an ambiguous abbreviation ({', '.join(opt.candidates)})", "abbrev": "an abbreviation"}.get(opt.match, "not an option of this release")
        lines.append(f"\n`{opt.written}` is {what}.")
    else:
        if opt.written != name and opt.match in ("abbrev", "normalized"):
            lines.append(f"\nWritten `{opt.written}` ({'an abbreviation' if opt.match == 'abbrev' else 'normalized by vLLM'}).")
        if spec.help:  # vLLM's own text, as ``vllm serve --help`` shows it in this release
            lines.append("\n" + spec.help)
        facts = []
        if spec.takes_value:
            kind = (spec.type or "str").removeprefix("callable:")
            facts.append(f"- type: `{kind}`" + (f", {spec.nargs} values" if spec.nargs not in (None, "?") else ""))
        else:
            facts.append("- a flag (takes no value)" + (f"; negative form {_fmt(sorted(spec.negative_names))}" if spec.negative_names else ""))
        if spec.choices is not None:
            facts.append(f"- choices: {_fmt(spec.choices)}")
        if "default" in spec.raw:
            facts.append(f"- default: {_fmt(spec.default)}")
        aliases = [n for n in spec.names if n != name and n not in spec.negative_names]
        if aliases:
            facts.append(f"- also spelled {_fmt(aliases)}")
        if spec.group:
            facts.append(f"- group: `{spec.group}`")
        if spec.deprecated:
            facts.append(f"- **deprecated** in {release}")
        if spec.raw.get("partial") or "type" not in spec.raw:
            facts.append("- (option names only for this release: types and choices are not recorded)")
        lines.append("\n" + "\n".join(facts))
    written = opt.matched or opt.normalized.split("=", 1)[0]  # the option string as vLLM reads it
    for option in dict.fromkeys([written, name]):
        lines.append("\n" + history_text(option))
    return "\n".join(lines)


def history_text(option: str) -> str:
    h = knowledge.option_history(option)
    parts = []
    if h.runs:
        oldest = min((*knowledge.history_versions(), *knowledge.known_versions()))
        def stretch(a, b) -> str:
            first = f"{a} (the oldest release known)" if a == oldest else str(a)
            return first if a == b else f"{first} to {b}"

        parts.append("accepted by " + ", ".join(stretch(a, b) for a, b in h.runs))
        if h.runs[0][0] != oldest:
            parts.append(f"added in {h.runs[0][0]}")
    else:
        parts.append("accepted by no known release")
    if h.deprecated_in:
        parts.append(f"deprecated in {h.deprecated_in}")
    if h.removed_in:
        parts.append(f"removed in {h.removed_in}")
    if h.replacement:
        parts.append(f"renamed to `{h.replacement}`")
    out = f"History of `{option}`: " + "; ".join(parts) + "."
    for fact in h.facts:
        if fact.note.strip():
            out += f"\n\n{' '.join(fact.note.split())}"
    return out


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
async def hover(ls: VllmLintServer, params: lsp.HoverParams) -> lsp.Hover | None:
    run = await ls.current_run(params.text_document.uri)
    if run is None:
        return None
    found = _option_at(run, run.lines.offset(params.position))
    if found is None:
        return None
    opt, (start, end), rep = found
    return lsp.Hover(contents=lsp.MarkupContent(lsp.MarkupKind.Markdown, hover_text(opt, rep)), range=run.lines.range(start, end))


_CONTINUATION = re.compile(r"(?:[ \t]|\\\r?\n)*")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["-"]))
async def completion(ls: VllmLintServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    run = await ls.current_run(params.text_document.uri)
    if run is None:
        return None
    text = run.text
    offset = run.lines.offset(params.position)
    start = offset
    while start > 0 and text[start - 1] in _WORD:
        start -= 1
    word = text[start:offset]
    if not word.startswith("-"):
        return None
    # the launch the word is in (or that it extends: after its last word, past blanks and
    # backslash-newline continuations only)
    launch_rep = None
    for rep in run.result.launches:
        launch = rep.launch
        if launch.program != "vllm" or launch.style != "argv":
            continue
        if launch.span.start <= start <= launch.span.end or (launch.span.end <= start and _CONTINUATION.fullmatch(text, launch.span.end, start)):
            launch_rep = rep
            break
    if launch_rep is None:
        return None
    release = knowledge.release(launch_rep.version)
    items = []
    edit_range = run.lines.range(start, offset)
    for spec in release.options:
        if spec.hidden:
            continue
        for name in spec.names:
            if not name.startswith("--") or not name.startswith(word.replace("_", "-")):
                continue
            detail = (spec.type or "").removeprefix("callable:") if spec.takes_value else "flag"
            items.append(
                lsp.CompletionItem(
                    label=name,
                    kind=lsp.CompletionItemKind.Property,
                    detail=f"{detail} (vLLM {release.name})".strip(),
                    deprecated=spec.deprecated or None,
                    tags=[lsp.CompletionItemTag.Deprecated] if spec.deprecated else None,
                    text_edit=lsp.TextEdit(edit_range, name),
                    filter_text=name,
                )
            )
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.SHUTDOWN)
def shutdown(ls: VllmLintServer, params: None) -> None:
    for state in ls.docs.values():
        if state.pending is not None:
            state.pending.cancel()
    ls.executor.shutdown(wait=False, cancel_futures=True)


def serve(argv: list[str]) -> int:
    """``vllm-lint server [--log-file FILE]``: serve over standard input and output until ``exit``."""
    import argparse

    parser = argparse.ArgumentParser(prog="vllm-lint server", description="The vllm-lint language server (LSP over standard input and output).")
    parser.add_argument("--log-file", metavar="FILE", help="write the server's log here")
    parser.add_argument("--stdio", action="store_true", help="(the default; accepted as editors pass it)")
    args = parser.parse_args(argv)
    if args.log_file:
        logging.basicConfig(filename=args.log_file, level=logging.INFO)
    server.start_io()
    return 0
