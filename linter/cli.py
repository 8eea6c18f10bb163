"""The ``vllm-lint`` command line.

Argument parsing and printing only: what to lint is :mod:`linter.project`'s, the
settings of each file :mod:`linter.config`'s, the reports :mod:`linter.reporters`'.

Exit codes: 0 when no diagnostic that fails the run remains (errors and warnings
fail it; notes only when selected: :meth:`linter.engine.Settings.fails`), 1 when
one does (0 with ``--exit-zero``), 2 on a usage error, an internal error or a
report that cannot be written (a full disk); 130 when interrupted (SIGINT, which
also ends ``--watch``), 143 when terminated (SIGTERM).  A closed standard output
or error is treated as ``/dev/null``; a reader that goes away (``vllm-lint . |
head``) ends the run quietly.
"""

from __future__ import annotations

import errno
import functools
import gc
import io
import json
import os
import signal
import sys
from collections.abc import Callable

# A run allocates millions of small objects and leaves few cycles: with the collector's
# defaults (a collection every 700 allocations, the older generations' every 10 of those) it
# walks objects that live to the end again and again.  Measured: a 4 MB command 9.0 -> 7.0 s
# (77G -> 70G instructions, peak memory 348 -> 357 MB), a cold run of a 6,000-file tree
# about 20 ms of 360, one shell file 414M -> 405M instructions.  Set before the imports (they
# allocate too); the language server, which runs for hours, gets the defaults back
# (command().main).
GC_DEFAULTS = gc.get_threshold()
gc.set_threshold(100_000, 50, 100)

from linter import knowledge  # noqa: E402
from linter.reporters import FORMATS  # noqa: E402
from linter.reporters.common import json_text, printable  # noqa: E402

EXIT_CLEAN, EXIT_FOUND, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM
# errors of writing a report: the stream's fault, not vllm-lint's
_STREAM_ERRNOS = frozenset(getattr(errno, n) for n in ("ENOSPC", "EDQUOT", "EIO", "EBADF", "EFBIG", "EROFS", "ENXIO") if hasattr(errno, n))
# whether the process ends after the run (the command line: not main called as a function, nor
# --watch, which runs again), and what the run left to that end (_leave_to_the_exit)
_ENDS_AFTER_RUN = False
_LEFT: list = []


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like SIGINT's KeyboardInterrupt so every ``finally`` and cleanup runs
    (a fix's temporary file is removed, the original stays whole)."""


def _terminate(signum, frame):
    raise Terminated()


def _standard_streams() -> None:
    """A closed standard output or error (``>&-``) becomes ``/dev/null``, not a crash on the first write."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the flush at exit has nowhere left to fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _flush_stdout(code) -> object:
    """Flush the report now (not at interpreter exit, where a failure is a bare warning and
    exit code 120); the exit code to use."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except OSError as exc:
        _silence_stdout()
        return _cannot_write(exc)
    return code


def _cannot_write(exc: OSError) -> int:
    try:
        _echo(f"vllm-lint: cannot write the report to standard output: {exc.strerror or exc}", err=True)
    except OSError:
        pass
    return EXIT_ERROR
KNOWN_KINDS = "shell, Dockerfile, YAML, Python, Markdown, requirements"


def _codes(values: tuple[str, ...], option: str) -> frozenset[str]:
    """Rule codes or prefixes of ``option``; one that names no rule is a usage error (as in the configuration)."""
    from linter.config import ConfigError, check_codes

    try:
        return frozenset(check_codes(values, option))
    except ConfigError as exc:
        raise _usage(str(exc)) from None


def _model_configs(values: tuple[str, ...]) -> dict[str, str]:
    """``--model-config [MODEL=]PATH`` values as {model: path}; "" applies to every model."""
    out: dict[str, str] = {}
    for value in values:
        model, sep, path = value.rpartition("=")
        path = path if sep else value
        if not os.path.isfile(path):
            raise _usage(f"--model-config: {path}: no such file (give a config.json)")
        out[model if sep else ""] = path
    return out


def _changes(versions, fmt, paths, cfg, *, respect_gitignore, force_exclude) -> int:
    from linter import changes

    old, new = (_target(v) for v in versions)
    if not old < new:
        raise _usage(f"--changes {versions[0]} {versions[1]}: the first release must be older than the second")
    from linter import project

    candidates = project.candidates(paths, cfg, respect_gitignore=respect_gitignore, force_exclude=force_exclude)
    _echo("\n".join(map(printable, changes.run(candidates, old, new, fmt).split("\n"))), nl=False)
    return EXIT_CLEAN


def _target(value: str | None):
    if value is None:
        return None
    try:
        return knowledge.resolve_target(value)
    except knowledge.UnknownRelease as exc:
        raise _usage(str(exc)) from None


def _exit_now(code) -> None:
    """End the process with ``code`` as ``sys.exit(code)`` would, without tearing the interpreter
    down: freeing the run's objects one by one took 35 ms of a cold run of a 6,000-file tree and
    15 ms of a warm one.  The report is flushed already (:func:`_flush_stdout`); both streams
    are flushed again, and the ``atexit`` handlers run (none are vllm-lint's: coverage's, a
    plugin's)."""
    if code is None:
        code = EXIT_CLEAN
    elif not isinstance(code, int):
        try:
            sys.stderr.write(f"{code}\n")  # as sys.exit says a message, exit code 1
        except (OSError, ValueError, AttributeError):
            pass
        code = 1
    import atexit

    try:
        atexit._run_exitfuncs()
    except Exception:  # noqa: BLE001 - a handler's failure must not change the exit code (nor does it at a normal exit)
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    batch = sys.modules.get("linter.batch")
    if batch is not None:
        batch.reap()  # the forked processes that had not ended when the run went on (counted as its children)
    os._exit(code & 0xFF)  # (the status the system keeps of any code, as for sys.exit)


def _leave_to_the_exit(*objects) -> None:
    """Keep ``objects`` (a run's results, its cache) to the end of the process when it ends
    after the run (:func:`_exit_now`, which frees nothing), rather than freeing them object by
    object as the run's frames return.  A cold run of bench/run.py's monorepo freed its 6,000
    results, 3,800 candidates and the cache's packs in about 4 ms of its serial end."""
    if _ENDS_AFTER_RUN:
        _LEFT.append(objects)


class Option:
    """One option of the command line: the declarations and attributes that
    :func:`click.option` takes (``choices``: a :class:`click.Choice` of them), which
    :func:`command` builds the click command from, and which :func:`_read_argv`
    reads a plain command line by, without importing click."""

    __slots__ = ("decls", "attrs", "dest")

    def __init__(self, *decls: str, **attrs):
        self.decls = decls
        self.attrs = attrs
        # the parameter's name as click derives it: a declaration that is a name, else the first
        # long option's, dashes as underscores
        self.dest = next((d for d in decls if d.isidentifier()), None) or next(d for d in decls if d.startswith("--"))[2:].replace("-", "_").lower()

    @property
    def plain(self) -> bool:
        """Read by :func:`_read_argv`: a flag, or one string value (a choice, or given again for
        ``multiple``); not hidden."""
        a = self.attrs
        return not a.get("hidden") and a.get("nargs", 1) == 1 and a.get("type") is None


# after the paths (any number) and --version, in the order of --help
OPTIONS = (
    Option("--target-version", "target_version", metavar="X.Y", help="Check for this vLLM release (default: each file's pin, else the newest known); 0.6.0 to 0.27.x by option names only."),
    Option("--output-format", choices=FORMATS, default="full", show_default=True, help="full, concise, json, json-lines; for CI: sarif, github, rdjson, gitlab, junit."),
    Option("--select", multiple=True, help="Rule codes or prefixes to enable (comma-separated)."),
    Option("--extend-select", multiple=True, help="Rule codes or prefixes to enable in addition to the defaults."),
    Option("--ignore", multiple=True, help="Rule codes or prefixes to disable."),
    Option("--fix", is_flag=True, help="Apply safe fixes in place."),
    Option("--unsafe-fixes", is_flag=True, help="Also apply unsafe fixes (with --fix or --diff)."),
    Option("--diff", "show_diff", is_flag=True, help="Print a unified diff of what --fix would change; write nothing."),
    Option("--exit-zero", is_flag=True, help="Exit 0 even when diagnostics remain (2 still means a usage or internal error)."),
    Option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when a fix was applied, even if nothing remains."),
    Option("--show-fixes", is_flag=True, help="With --fix or --diff: list per file the fixes applied (on standard error)."),
    Option("--statistics", is_flag=True, help="Count diagnostics per rule, with its name and whether it is fixable (JSON with --output-format json)."),
    Option("-q", "--quiet", is_flag=True, help="Print the diagnostics only: no summary, no messages about the run."),
    Option("--watch", is_flag=True, help="Lint again whenever a linted file or a configuration file changes (until interrupted)."),
    Option("--watch-interval", type=float, default=0.5, hidden=True),
    Option("--watch-polls", type=int, default=None, hidden=True),  # tests: end the watch after this many polls
    Option("--no-respect-gitignore", is_flag=True, help="Lint files that .gitignore excludes."),
    Option("--force-exclude", is_flag=True, help="Apply excludes to paths named on the command line too."),
    Option("--list-options", is_flag=True, help="Print the option table of the target release."),
    Option("--show-launches", is_flag=True, help="Print every launch found, with its options and positions, and the files that mention vLLM without one."),
    Option("--show-settings", "show_settings", metavar="FILE", help="Print the settings that apply to FILE and where each comes from."),
    Option("--list-rules", is_flag=True, help="List the rules."),
    Option("--explain", metavar="CODE", help="Print a rule's page."),
    Option("--config", "config_file", metavar="FILE", help="Read this configuration file for every file (default: for each file the nearest vllm-lint.toml, .vllm-lint.toml or pyproject.toml [tool.vllm-lint] above it)."),
    Option("--changes", nargs=2, metavar="OLD NEW", help="Upgrade review: what changes from release OLD to NEW for the options the files use (no linting)."),
    Option("--changes-format", choices=("text", "markdown"), default="text", show_default=True, help="With --changes: a terminal table, or Markdown for a pull request."),
    Option("--model-config", "model_config", multiple=True, metavar="[MODEL=]PATH", help="A local config.json for the KV cache estimate (VL802/VL803); MODEL= limits it to that model."),
    Option("--stdin-filename", metavar="PATH", help="With `-`: the name of the file read from standard input (decides its kind)."),
    Option("--no-cache", is_flag=True, help="Neither read nor write the result cache (.vllm-lint-cache, or $VLLM_LINT_CACHE_DIR)."),
)


def _read_argv(argv: list[str]) -> dict | None:
    """The parameters click would give the command for ``argv``, read without importing click
    (about 11 ms of a one-file run's 70 and of a 6,000-file tree's cold 270), or None for click
    to read it: a name or form that is not a plain option (:attr:`Option.plain`: ``-h``,
    ``--version``, ``--changes OLD NEW``, ``-qq``, ``--fix=1``, an unknown one), a value that
    could be an option (``--select -x``) or that click would refuse (``--output-format
    nope``), the language server (``server``), shell completion, Windows (whose arguments click
    expands).  tests/test_cli_argv.py checks that wherever this answers, click gives the same."""
    if os.name == "nt" or argv[:1] == ["server"] or any(k[:1] == "_" and k.endswith("_COMPLETE") for k in os.environ):
        return None
    names = {name: opt for opt in OPTIONS if opt.plain for name in opt.decls if name[:1] == "-"}
    given: dict = {}
    paths: list[str] = []
    k = 0
    while k < len(argv):
        arg = argv[k]
        k += 1
        if arg == "--":  # the rest are paths
            paths.extend(argv[k:])
            break
        if arg[:1] != "-" or arg == "-":
            paths.append(arg)
            continue
        name, eq, value = arg.partition("=") if arg[:2] == "--" else (arg, "", "")
        opt = names.get(name)
        if opt is None:
            return None
        attrs = opt.attrs
        if attrs.get("is_flag"):
            if eq:
                return None
            given[opt.dest] = True
            continue
        if not eq:
            if k == len(argv) or argv[k][:1] == "-":
                return None
            value = argv[k]
            k += 1
        if "choices" in attrs and value not in attrs["choices"]:
            return None
        if attrs.get("multiple"):
            given.setdefault(opt.dest, []).append(value)
        else:
            given[opt.dest] = value
    params: dict = {"paths": tuple(paths)}
    for opt in OPTIONS:
        attrs = opt.attrs
        if opt.dest in given:
            value = given[opt.dest]
            params[opt.dest] = tuple(value) if attrs.get("multiple") else value
        else:
            params[opt.dest] = () if attrs.get("multiple") else attrs.get("default", False if attrs.get("is_flag") else None)
    return params


def run() -> None:
    """The process's entry (the ``vllm-lint`` script, ``python -m linter.cli``); never returns.
    A command line that :func:`_read_argv` reads runs without click, which is imported only
    to show a usage error as its command would; any other goes to the click command
    (:func:`command`)."""
    argv = sys.argv[1:]
    params = _read_argv(argv)
    if params is None:
        command().main()  # (ends the process: Command.main)
        return

    def read_here() -> None:
        try:
            _command(**params)
        except Exception as exc:  # noqa: BLE001 - what _command lets through: click's usage errors
            sys.exit(_usage_shown(exc, argv))

    _to_the_end(read_here)


def _to_the_end(call: Callable[[], object]) -> None:
    """Run ``call`` as what the process does last (the process's run, by either reading of its
    command line) and end the process with the exit code it raises (:func:`_exit_now`); never
    returns.  The run knows it ends the process (:func:`_leave_to_the_exit`)."""
    global _ENDS_AFTER_RUN
    _ENDS_AFTER_RUN = True
    try:
        call()
    except SystemExit as exc:
        _exit_now(exc.code)
    _exit_now(EXIT_CLEAN)


def _usage_shown(exc: Exception, argv: list[str]) -> int:
    """Show a usage error of a run :func:`run` read the command line of, as the click command
    shows it (after ``Usage:`` and the help hint of its context, made from the same command
    line): its exit code.  Anything else is raised again."""
    click = sys.modules.get("click")
    if click is None or not isinstance(exc, click.UsageError):
        raise exc
    from click.utils import _detect_program_name

    if exc.ctx is None:  # (as click's Context.invoke adds it)
        exc.ctx = command().make_context(_detect_program_name(), list(argv))
    exc.show()
    return exc.exit_code


def __getattr__(name: str):
    # ``main``: the click command (tests, CliRunner, a program embedding vllm-lint), built
    # once asked for
    if name == "main":
        return command()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def command():
    """The ``vllm-lint`` command as click declares it, from :data:`OPTIONS`: its help, its
    usage errors, and every command line that :func:`run` does not read itself (``-h``,
    ``--version``, ``--changes OLD NEW``, ``server``, anything unusual or wrong) go through
    it; so do the tests' ``CliRunner`` and a program that calls ``linter.cli.main``.  What it
    runs is :func:`_command`.  Built (and click imported) on first use."""
    import click

    class Command(click.Command):
        """``vllm-lint server ...`` starts the language server (:mod:`linter.server`, which imports
        pygls: only then); anything else is the linter's command line.  A file named ``server`` is
        linted as ``./server``."""

        def main(self, args=None, *rest, **kwargs):
            argv = list(sys.argv[1:] if args is None else args)
            if argv[:1] == ["server"]:
                gc.set_threshold(*GC_DEFAULTS)
                try:
                    from linter.server import serve
                except ImportError as exc:
                    click.echo(f"vllm-lint server needs pygls: pip install 'vllm-lint[server]' ({exc})", err=True)
                    sys.exit(EXIT_ERROR)
                sys.exit(serve(argv[1:]))
            if args is not None or not kwargs.get("standalone_mode", True):
                return super().main(args, *rest, **kwargs)  # called as a function (tests, a program embedding it)
            _to_the_end(lambda: super(Command, self).main(args, *rest, **kwargs))

    def print_version(ctx, _param, value) -> None:
        if not value or ctx.resilient_parsing:
            return
        from linter.reporters.common import version_text

        click.echo(version_text(), nl=False)
        ctx.exit(EXIT_CLEAN)

    def declared(callback):
        # the paths, --version and OPTIONS, as decorators written above it in that order would
        for opt in reversed(OPTIONS):
            attrs = dict(opt.attrs)
            if "choices" in attrs:
                attrs["type"] = click.Choice(list(attrs.pop("choices")))
            callback = click.option(*opt.decls, **attrs)(callback)
        callback = click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=print_version,
                                help="Print the version and the vLLM and LMCache releases the knowledge covers.")(callback)
        return click.argument("paths", nargs=-1, type=click.Path())(callback)

    @click.command(cls=Command, context_settings={"help_option_names": ["-h", "--help"]})
    @declared
    def main(**params):
        """Lint (and migrate) the commands and configs that start vLLM servers (default: the working folder).

        `vllm-lint server` starts the language server (LSP over standard input and output).
        """
        _command(**params)

    return main


def _usage(message: str) -> Exception:
    """The usage error of ``message`` (exit code 2), shown after the usage line; click is
    imported for it only now."""
    import click

    return click.UsageError(message)


def _click_exit(exc: BaseException) -> bool:
    """Whether ``exc`` is click's usage error or exit, which the command leaves to click (or to
    :func:`run`) to show."""
    click = sys.modules.get("click")
    return click is not None and isinstance(exc, (click.UsageError, click.exceptions.Exit))


def _echo(message: str, *, nl: bool = True, err: bool = False, color: bool | None = None) -> None:
    """``click.echo(message, nl=nl, err=err, color=color)``: written here when click would write
    the text unchanged to the stream itself (a text stream of an encoding that is not ASCII,
    not Windows's console, no ANSI sequence it would strip), else by click."""
    stream = sys.stderr if err else sys.stdout
    text = message + "\n" if nl else message
    if os.name == "nt" or not isinstance(stream, io.TextIOBase) or ("\x1b" in text and color is not True) or _ascii(getattr(stream, "encoding", None)):
        import click

        click.echo(message, nl=nl, err=err, color=color)
        return
    if text:
        stream.write(text)
    stream.flush()


def _ascii(encoding: str | None) -> bool:
    """As click judges a stream's encoding misconfigured (one it writes through a UTF-8 one)."""
    import codecs

    try:
        return codecs.lookup(encoding or "ascii").name == "ascii"
    except LookupError:
        return False


def _command(**params) -> None:
    """The command's run from its parameters (those of :data:`main`'s callback, or of
    :func:`_read_argv`): exit codes, interruptions, a report that cannot be written."""
    _standard_streams()
    previous = signal.signal(signal.SIGTERM, _terminate) if _main_thread() else None
    try:
        _main(**params)
    except SystemExit as exc:
        sys.exit(_flush_stdout(exc.code))
    except KeyboardInterrupt as exc:
        _silence_stdout()
        try:
            _echo("vllm-lint: terminated" if isinstance(exc, Terminated) else "vllm-lint: interrupted", err=True)
        except OSError:
            pass
        sys.exit(EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED)
    except BrokenPipeError:  # the reader went away (``vllm-lint ... | head``)
        _silence_stdout()
        sys.exit(EXIT_CLEAN)
    except OSError as exc:
        if exc.errno not in _STREAM_ERRNOS:
            _internal_error()
        _silence_stdout()
        sys.exit(_cannot_write(exc))
    except Exception as exc:
        if _click_exit(exc):  # (shown by click, or by run())
            raise
        _internal_error()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _internal_error() -> None:
    """An internal error is a bug: say so, exit 2."""
    import traceback

    _echo("vllm-lint: internal error (please report it with this trace):", err=True)
    _echo(traceback.format_exc(), err=True)
    sys.exit(EXIT_ERROR)


def _main(paths, target_version, output_format, select, extend_select, ignore, fix, unsafe_fixes, show_diff, exit_zero, exit_non_zero_on_fix, show_fixes, statistics, quiet, watch, watch_interval, watch_polls, no_respect_gitignore, force_exclude, list_options, show_launches, show_settings, list_rules, explain, config_file, stdin_filename, changes, changes_format, model_config, no_cache):
    from linter.config import ConfigError, Overrides, Resolver, target_of
    from linter.reporters import use_color

    cli_select = _codes(select, "--select") or None
    overrides = Overrides(
        target=_target(target_version),
        select=cli_select,
        extend_select=_codes(extend_select, "--extend-select"),
        ignore=_codes(ignore, "--ignore"),
    )
    try:
        resolver = Resolver(config_file, overrides)
        cfg = resolver.root()
        target = overrides.target if overrides.target is not None else target_of(cfg)
    except ConfigError as exc:
        raise _usage(str(exc)) from None
    out = _Out(color=use_color(sys.stdout), quiet=quiet)
    try:
        if explain:
            sys.exit(_explain(explain))
        if list_rules:
            sys.exit(_list_rules(output_format))
        if list_options:
            sys.exit(_list_options(target or knowledge.newest(), output_format))
        if show_settings:
            from linter.config import describe

            try:
                _echo(describe(show_settings, resolver), nl=False)
            except ConfigError as exc:
                raise _usage(str(exc)) from None
            sys.exit(EXIT_CLEAN)
        if not paths:
            paths = (".",)  # as ruff: lint the working folder
        respect_gitignore = cfg.respect_gitignore and not no_respect_gitignore
        if changes:
            sys.exit(_changes(changes, changes_format, paths, cfg, respect_gitignore=respect_gitignore, force_exclude=force_exclude))
        # what a launch's ``--config FILE`` may read: the folders given, the working folder for files in it
        from linter.engine import linted_roots

        roots = linted_roots(paths)
        resolver.overrides = Overrides(overrides.target, overrides.select, overrides.extend_select, overrides.ignore, _model_configs(model_config), roots)
        settings_of = _settings_of(resolver)
        if "-" in paths:
            if len(paths) > 1:
                raise _usage("`-` (standard input) cannot be combined with other paths")
            if watch:
                raise _usage("--watch re-reads files; it cannot watch standard input (`-`)")
            if not stdin_filename:
                raise _usage("reading standard input (`-`) needs --stdin-filename PATH to know what kind of file it is")
            sys.exit(_stdin(stdin_filename, settings_of(stdin_filename), _config_of(resolver, stdin_filename), output_format=output_format, fix=fix, show_diff=show_diff, unsafe=unsafe_fixes, force_exclude=force_exclude, respect_gitignore=respect_gitignore, statistics=statistics, show_fixes=show_fixes, exit_non_zero_on_fix=exit_non_zero_on_fix, exit_zero=exit_zero, out=out))
        from linter import project

        def find(screener=None):
            found = project.candidates(paths, _root(resolver), respect_gitignore=respect_gitignore, force_exclude=force_exclude, config_of=_config_of(resolver), listed=resolver.note_listing,
                                       screener=screener)
            _warn_unknown(found, out)
            return found

        if show_launches:
            sys.exit(_show_launches(find(), settings_of, output_format))

        def once() -> int:
            from linter.batch import Screener

            fixing = fix or show_diff  # (which uses no cache)
            cache = _cache() if not (no_cache or fixing) else None
            # a run that reads every file has them read and screened on another core as the walk goes on
            screener = Screener() if cache is None or cache.is_new() else None
            try:
                if fixing:
                    return _fix(find(screener), settings_of, output_format=output_format, write=fix and not show_diff, unsafe=unsafe_fixes, exit_non_zero_on_fix=exit_non_zero_on_fix,
                                show_fixes=show_fixes, roots=list(paths), exit_zero=exit_zero, out=out, screener=screener)
                return _check(find(screener), settings_of, output_format, statistics, cache=cache, screener=screener, exit_zero=exit_zero, out=out)
            finally:
                if screener is not None:
                    screener.close()
                _leave_to_the_exit(cache)

        if watch:
            global _ENDS_AFTER_RUN
            _ENDS_AFTER_RUN = False  # (a round is followed by the next)
            sys.exit(_watch(once, paths, resolver, respect_gitignore=respect_gitignore, force_exclude=force_exclude, interval=watch_interval, polls=watch_polls, out=out))
        sys.exit(once())
    except ConfigError as exc:  # a nested configuration file found on the way is broken
        raise _usage(str(exc)) from None




class _Out:
    """Where the CLI prints: colour on standard output or not, and ``--quiet``."""

    def __init__(self, *, color: bool, quiet: bool):
        self.color = color
        self.quiet = quiet

    def report(self, fmt: str, results) -> None:
        from linter.reporters import report

        _echo(report(fmt, results, color=self.color, quiet=self.quiet), nl=False, color=self.color)

    def note(self, text: str) -> None:
        """A message about the run, on standard error (none with ``--quiet``)."""
        if text and not self.quiet:
            sys.stderr.write(text if text.endswith("\n") else text + "\n")


def _root(resolver):
    from linter.config import ConfigError

    try:
        return resolver.root()
    except ConfigError as exc:
        raise _usage(str(exc)) from None


def _settings_of(resolver):
    from linter.config import ConfigError

    def settings_of(path: str):
        try:
            return resolver.settings_for(path)
        except ConfigError as exc:
            raise _usage(str(exc)) from None

    return settings_of


def _config_of(resolver, path: str | None = None):
    from linter.config import ConfigError

    def config_of(p: str):
        try:
            return resolver.config_for(p)
        except ConfigError as exc:
            raise _usage(str(exc)) from None

    return config_of(path) if path is not None else config_of


def _warn_unknown(candidates, out: _Out) -> None:
    """A file named on the command line whose kind is not known is not linted: say so (ruff warns too)."""
    for c in candidates:
        if c.status == "unknown" and c.explicit:
            out.note(f"vllm-lint: warning: {printable(c.path)}: not linted: vllm-lint does not know this kind of file ({KNOWN_KINDS}); `cat FILE | vllm-lint - --stdin-filename NAME` lints it as NAME")


def _exit_code(results, settings_of, exit_zero: bool) -> int:
    """1 when a diagnostic that fails the run remains (:meth:`linter.engine.Settings.fails`), else 0; 0 with ``--exit-zero``."""
    if exit_zero:
        return EXIT_CLEAN
    failing = any(settings_of(r.path).fails(d) for r in results for d in r.diagnostics)
    return EXIT_FOUND if failing else EXIT_CLEAN


def _watch(once, paths, resolver, *, respect_gitignore, force_exclude, interval, polls, out) -> int:
    """``--watch``: lint now and again on every change (:mod:`linter.watch`)."""
    import time

    from linter import project
    from linter.config import CONFIG_NAMES
    from linter.watch import watch

    def files():
        found = [c.path for c in project.candidates(paths, resolver.root(), respect_gitignore=respect_gitignore, force_exclude=force_exclude) if c.status != "unknown"]
        folders = {os.path.dirname(os.path.abspath(p)) for p in found} | {os.getcwd()}
        configs = {resolver.config_in(f).path for f in folders} - {None}
        for config in list(configs):
            configs.update(resolver.config_in(os.path.dirname(config)).extends)
        # a configuration file created next to a linted file counts too
        configs.update(os.path.join(f, n) for f in folders for n in (*CONFIG_NAMES, "pyproject.toml"))
        return [*found, *sorted(configs)]

    def changed():
        resolver.reload()  # read the configuration files again
        if not out.quiet:
            _echo(f"[{time.strftime('%H:%M:%S')}] File change detected; linting again.")

    if not out.quiet:
        _echo(f"[{time.strftime('%H:%M:%S')}] Watching {', '.join(paths)} for changes (Ctrl-C to stop).")
    return watch(once, files, interval=interval, polls=polls, on_change=changed)


def _stdin(filename, settings, cfg, *, output_format, fix, show_diff, unsafe, force_exclude, respect_gitignore, statistics, show_fixes=False, exit_non_zero_on_fix=False, exit_zero=False, out=None) -> int:
    """Lint standard input as the file ``filename`` would be (with ``settings`` and ``cfg``, its
    file's configuration).

    With ``--fix`` the fixed text goes to standard output and the remaining
    diagnostics to standard error (as ruff does); with ``--diff`` the diff goes
    to standard output.
    """
    from linter import project
    from linter.engine import MAX_FILE_BYTES
    from linter.reporters import report

    out = out or _Out(color=False, quiet=False)
    found = lambda results: _exit_code(results, lambda _p: settings, exit_zero)  # noqa: E731
    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)  # bounded: ``cat /dev/zero | vllm-lint -`` must end
    check = project.check_document(filename, data, settings, cfg, force_exclude=force_exclude, respect_gitignore=respect_gitignore)
    if check.too_big is not None or check.excluded:
        if fix:  # passes through unchanged, the rest streamed in bounded memory
            import shutil

            sys.stdout.buffer.write(data)
            shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer)
            sys.stdout.flush()
        if check.too_big is None:
            return EXIT_CLEAN
        result = check.too_big
        text = report("concise" if fix and output_format == "full" else output_format, [result], quiet=out.quiet)
        (sys.stderr if fix else sys.stdout).write(text)
        return found([result])
    kind = check.kind
    if kind is None:
        raise _usage(f"--stdin-filename {filename}: vllm-lint does not know this kind of file ({KNOWN_KINDS})")

    if fix or show_diff:
        from linter.fixer import fixes_summary, unified_diff

        fixed = project.fix_document(filename, data, settings, kind, unsafe=unsafe)
        if fixed is not None:
            src, outcome = fixed.src, fixed.outcome
            if outcome.error:
                _echo(printable(f"vllm-lint: {filename}: {outcome.error}"), err=True)
            if show_fixes:
                sys.stderr.write(fixes_summary([(filename, outcome.applied)], would=show_diff))
            remaining = [outcome.remaining] if outcome.remaining is not None else []
            if show_diff:
                sys.stdout.write(_diff_text(unified_diff(filename, outcome.original, outcome.fixed, src.bom), out))
                return EXIT_ERROR if outcome.error else (EXIT_FOUND if outcome.fixed != outcome.original and not exit_zero else EXIT_CLEAN)
            sys.stdout.buffer.write(src.encode(outcome.fixed))
            sys.stdout.flush()
            sys.stderr.write(report("concise" if output_format == "full" else output_format, remaining, quiet=out.quiet))
            if outcome.error:
                return EXIT_ERROR
            if found(remaining):
                return EXIT_FOUND
            return EXIT_FOUND if exit_non_zero_on_fix and outcome.applied else EXIT_CLEAN
    result = project.lint_document(filename, data, settings, kind)
    if fix:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        sys.stderr.write(report("concise" if output_format == "full" else output_format, [result], quiet=out.quiet))
        return found([result])
    if statistics:
        from linter.reporters.text import statistics as stats

        _echo(stats([result], output_format=output_format, color=out.color), nl=False, color=out.color)
    else:
        out.report(output_format, [result])
    return found([result])


def _diff_text(diff: str, out: _Out) -> str:
    if not out.color:
        return diff
    from linter.reporters.text import paint_diff

    return paint_diff(diff)


def _fix(candidates, settings_of, *, output_format: str, write: bool, unsafe: bool, exit_non_zero_on_fix: bool, show_fixes: bool, roots: list[str], exit_zero: bool = False, out: _Out,
         screener=None) -> int:
    """Fix (or, without ``write``, diff) every candidate; print what remains.  ``screener``: the
    :class:`linter.batch.Screener` their walk fed.

    Exit code: 2 when a fix turned out broken (a bug; that file is left as it
    was), else 1 when diagnostics that fail the run remain (or, with ``--diff``,
    when something would change; with ``exit_non_zero_on_fix``, when something
    was fixed), else 0; ``--exit-zero`` makes every 1 a 0.
    """
    from linter import project
    from linter.fixer import fixes_summary, unified_diff

    run = project.fix_tree(candidates, settings_of, unsafe=unsafe, write=write, roots=roots, screener=screener)
    for path, message in run.problems:
        _echo(printable(f"vllm-lint: {path}: {message}"), err=True)
    applied = run.applied
    if not write:
        diff = "".join(unified_diff(ff.path, ff.outcome.original, ff.outcome.fixed, ff.src.bom) for ff in run.files if ff.outcome.fixed != ff.outcome.original)
        _echo(_diff_text(diff, out), nl=False, color=out.color)
        summary = fixes_summary(run.changed, would=True) if show_fixes else ""
        if show_fixes:
            sys.stderr.write(summary)
        if not summary:
            out.note(f"Would fix {applied} error{'s' if applied != 1 else ''}.")
        return EXIT_ERROR if run.broken else (EXIT_FOUND if applied and not exit_zero else EXIT_CLEAN)
    summary = fixes_summary(run.changed) if show_fixes else ""
    if show_fixes:
        sys.stderr.write(summary)
    if not summary:
        out.note(f"Fixed {applied} error{'s' if applied != 1 else ''}.")
    out.report(output_format, run.remaining)
    if run.broken:
        return EXIT_ERROR
    code = _exit_code(run.remaining, settings_of, exit_zero)
    if code:
        return code
    return EXIT_FOUND if exit_non_zero_on_fix and applied else EXIT_CLEAN


def _cache():
    from linter.cache import Cache, default_dir

    return Cache(default_dir())


def _check(candidates, settings_of, output_format, statistics, cache=None, screener=None, exit_zero=False, out=None) -> int:
    """Lint ``candidates`` through ``cache`` (a :class:`linter.cache.Cache`, or None) and report;
    ``screener``: the :class:`linter.batch.Screener` their walk fed.  The results and candidates
    are left to the process's end when it ends after the run (:func:`_leave_to_the_exit`)."""
    out = out or _Out(color=False, quiet=False)
    from linter import project

    results = project.lint_tree(candidates, settings_of, compact=True, cache=cache, screener=screener)
    if statistics:
        from linter.reporters.text import statistics as stats

        _echo(stats(results, output_format=output_format, color=out.color), nl=False, color=out.color)
    else:
        out.report(output_format, results)
    _leave_to_the_exit(results, candidates)
    return _exit_code(results, settings_of, exit_zero)


def _model_of(parsed) -> str | None:
    if parsed.positionals:
        return parsed.positionals[0].text
    if parsed.model_option is not None:
        return parsed.model_option.text
    setting = next((o for o in parsed.options if o.setting is not None and o.written == "model"), None)
    if setting is not None:
        return setting.value
    option = next((o for o in parsed.options if o.setting is None and o.normalized == "--model" and o.value is not None), None)
    return option.value if option is not None else None  # ``python -m vllm.entrypoints.openai.api_server --model M``


def _show_launches(candidates, settings_of, output_format: str = "json") -> int:
    """Every launch found; then the files that mention vLLM but hold no launch (after the
    launches in text, on standard error with the JSON formats, whose rows stay launches)."""
    from linter import argmodel, project
    from linter.engine import config_path
    from linter.reporters.text import unread_files, unread_line

    results = project.lint_tree(candidates, settings_of)
    unread = unread_files(results)
    out = []
    for r in results:
        src = r.src
        for rep in r.launches:
            launch = rep.launch
            line, col = src.line_col(launch.span.start) if src else (1, 1)
            parsed = argmodel.parse(launch, knowledge.release(rep.version))
            options = []
            for o in parsed.options:
                tok = o.name.token
                offset = (tok.value_start + o.name_range[0]) if tok is not None and tok.value_start is not None else (tok.span.start if tok else launch.span.start)
                ol, oc = src.line_col(offset) if src else (1, 1)
                if o.dotted:  # ``--attention-config.backend X``: each dotted key as written, with its value
                    for part in o.dotted:
                        ptok = part.name_item.token
                        at = (ptok.value_start + part.name_item.start) if ptok is not None and ptok.value_start is not None else offset
                        pl, pc = src.line_col(at) if src else (ol, oc)
                        name = ".".join([part.key, *part.path]) + ("+" if part.append else "")
                        options.append({"name": name, "value": part.value, "line": pl, "column": pc})
                    continue
                options.append({"name": o.written, "value": o.value, "line": ol, "column": oc})
            notes = list(launch.notes)
            for item in parsed.config_files:  # ``--config FILE``: vLLM reads the file's options first
                tok = item.token
                ol, oc = src.line_col(tok.span.start) if src and tok is not None else (line, col)
                options.append({"name": "--config", "value": item.text, "line": ol, "column": oc})
                if item.opaque:
                    continue
                named, outside = config_path(launch, r.path, settings_of(r.path).roots)
                if outside is not None:
                    notes.append(f"--config {item.text}: outside the linted folder; not read")
                elif named is None:
                    notes.append(f"--config {item.text}: no such YAML file next to {os.path.basename(r.path)}; its options are not checked")
            out.append(
                {
                    "file": r.path,
                    "line": line,
                    "column": col,
                    "kind": launch.kind,
                    "program": launch.program,
                    "entrypoint": launch.entrypoint,
                    "vllm_version": launch.version_hint.version if launch.version_hint else None,
                    "checked_against": str(rep.version),
                    "checked_because": rep.reason,
                    "editable": launch.editable,
                    "model": _model_of(parsed),
                    "options": options,
                    "env": [{"name": e.name.value, "value": e.value.value if e.value else None} for e in launch.env],
                    "notes": notes,
                    "evidence": launch.evidence,
                    "strong": launch.strong,
                }
            )
    if output_format == "json":
        _echo(json_text(out, indent=2))
    elif output_format == "json-lines":
        for row in out:
            _echo(json_text(row))
    else:
        for row in out:
            opts = " ".join(o["name"] + ("" if o["value"] is None else f" {o['value']}") for o in row["options"])
            pin = f", pinned {row['vllm_version']}" if row["vllm_version"] else ""
            _echo(printable(f"{row['file']}:{row['line']}:{row['column']}: {row['kind']} {row['entrypoint']} (checked against {row['checked_against']}{pin})"))
            _echo(f"    model: {printable(str(row['model']))}" + (f"\n    options: {printable(opts)}" if opts else ""))
            if row["evidence"]:
                _echo(f"    evidence: {printable(str(row['evidence']))}" + ("" if row["strong"] else " (weak: reported, never edited)"))
        for path in unread:
            _echo(f"{printable(path)}: no vLLM launch found (the file mentions vLLM)")
        missed = unread_line(results)
        _echo(f"{len(out)} launch{'es' if len(out) != 1 else ''}." + (f" {missed[0].upper()}{missed[1:]}." if missed else ""))
    if unread and output_format in ("json", "json-lines"):
        sys.stderr.write(f"vllm-lint: {unread_line(results)}: {', '.join(map(printable, unread))}\n")
    return EXIT_CLEAN


def _list_options(version, output_format) -> int:
    release = knowledge.release(version)
    if output_format in ("json", "json-lines"):
        rows = [
            {
                "names": list(o.names),
                "negative_names": sorted(o.negative_names),
                "dest": o.dest,
                "takes_value": o.takes_value,
                "nargs": o.nargs,
                "type": o.type,
                "choices": list(o.choices) if o.choices is not None else None,
                "default": o.default,
                "deprecated": o.deprecated,
                "group": o.group,
                "help": o.help,
            }
            for o in release.options
        ]
        if output_format == "json":
            _echo(json.dumps(rows, indent=2, ensure_ascii=False))
        else:
            for row in rows:
                _echo(json.dumps(row, ensure_ascii=False))
        return EXIT_CLEAN
    _echo(f"vLLM {release.name}: {len(release.options)} options")
    for o in release.options:
        flags = ", ".join(o.names)
        extra = []
        if o.takes_value:
            extra.append(o.type or "value")
        if o.choices is not None:
            extra.append("{" + ",".join(str(c) for c in o.choices) + "}")
        if o.deprecated:
            extra.append("deprecated")
        _echo(f"  {flags}  [{' '.join(extra)}]" if extra else f"  {flags}")
    return EXIT_CLEAN


def _list_rules(output_format) -> int:
    from rules._lib.base import all_rules

    rules = all_rules()
    if output_format in ("json", "json-lines"):
        rows = [
            {"code": r.code, "name": r.name, "summary": r.summary, "severity": r.severity.value, "default": r.default, "fixable": r.fixable, "versions": r.versions}
            for r in rules.values()
        ]
        _echo(json.dumps(rows, indent=2))
        return EXIT_CLEAN
    for r in rules.values():
        marks = ("*" if r.fixable else " ") + (" " if r.default else "o")
        _echo(f"{r.code}  {marks} {r.name:<34} {r.summary} ({r.severity.value}; {r.versions})")
    _echo("\n* fixable   o off by default (enable with --extend-select)")
    return EXIT_CLEAN


def _explain(code: str) -> int:
    from rules._lib.base import rule_for_code

    rule = rule_for_code(code.upper())
    if rule is None:
        raise _usage(f"unknown rule {code!r}; `vllm-lint --list-rules` lists them")
    _echo(f"{rule.code} {rule.name}: {rule.summary}")
    _echo(f"Severity: {rule.severity.value}. Releases: {rule.versions}. Fixable: {'yes' if rule.fixable else 'no'}.\n")
    _echo(rule.doc)
    return EXIT_CLEAN


if __name__ == "__main__":  # pragma: no cover
    run()
