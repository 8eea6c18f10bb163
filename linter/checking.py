"""What a rule sees: one parsed launch (or all launches of a file) and helpers to report.

The helpers turn argument-model items into file spans and edits, so rules
never compute offsets themselves: an edit is offered only when the token it
touches stands verbatim in the file.  A check yields
:class:`~linter.diagnostic.Finding` values and its rule stamps them; the
contexts are never changed while rules run.
"""

from __future__ import annotations


from packaging.version import Version

from linter.argmodel import Item, ParsedLaunch, ParsedOption
from linter.diagnostic import Edit, Fix
from linter.knowledge import Release
from linter.launch import Launch, Span
from linter.records import Frozen, _set
from linter.source_file import SourceFile


class LaunchContext(Frozen):
    __slots__ = ("src", "parsed", "pin", "pin_known", "target_explicit", "settings")

    src: SourceFile
    parsed: ParsedLaunch
    pin: Version | None  # the release the file pins for this launch, if any
    pin_known: Version | None  # the known release that stands for the pin
    target_explicit: bool  # the user gave --target-version
    settings: object  # the run's linter.engine.Settings (None in some tests)

    def __init__(self, src, parsed, pin, pin_known, target_explicit, settings=None):
        _set(self, "src", src)
        _set(self, "parsed", parsed)
        _set(self, "pin", pin)
        _set(self, "pin_known", pin_known)
        _set(self, "target_explicit", target_explicit)
        _set(self, "settings", settings)

    @property
    def launch(self) -> Launch:
        return self.parsed.launch

    @property
    def release(self) -> Release:
        return self.parsed.release

    @property
    def version(self) -> Version:
        return self.parsed.release.version

    # -- spans ------------------------------------------------------------
    def item_span(self, item: Item | None) -> Span:
        if item is None or item.token is None:
            return self.launch.span
        tok = item.token
        if tok.value_start is not None and item.end >= item.start:
            return Span(tok.value_start + item.start, tok.value_start + item.end)
        return tok.span

    def item_editable(self, item: Item | None) -> bool:
        """The item's text stands verbatim in the file, with no unknown part (``$VAR``, ``{{ }}``) in it."""
        if item is None or item.token is None or item.token.value_start is None or not self.launch.editable:
            return False
        tok = item.token
        start, end = (item.start, item.end) if item.end > item.start else (0, len(tok.value))
        return not item.opaque and not tok.splat and not tok.opaque_in(start, end)

    def name_span(self, opt: ParsedOption) -> Span:
        tok = opt.name.token
        if tok is not None and tok.value_start is not None:
            s, e = opt.name_range
            return Span(tok.value_start + s, tok.value_start + e)
        return self.item_span(opt.name)

    def name_editable(self, opt: ParsedOption) -> bool:
        tok = opt.name.token
        if tok is None or tok.value_start is None or not self.launch.editable or opt.dotted is not None:
            return False
        return not tok.splat and not tok.opaque_in(*opt.name_range)  # `--opt=$VALUE`: the name itself is known

    def option_span(self, opt: ParsedOption) -> Span:
        """The option and its values, for messages about the whole option."""
        start = self.name_span(opt)
        end = start
        for v in opt.values:
            if v.token is not None:
                s = self.item_span(v)
                if s.end > end.end:
                    end = s
        return Span(start.start, max(start.end, end.end))

    # -- edits -----------------------------------------------------------
    def rename_fix(self, opt: ParsedOption, new_name: str, message: str, applicability: str = "safe") -> Fix | None:
        """Replace the option name as written (keeps ``--opt=value`` / ``--opt value``)."""
        if not self.name_editable(opt):
            return None
        if opt.setting is not None:
            new = _setting_name(self.launch, self.release, opt, new_name)
            if new is None:
                return None
            new_name = new
        return Fix(message, (Edit(self.name_span(opt), new_name),), applicability)  # type: ignore[arg-type]

    def delete_fix(self, opt: ParsedOption, message: str, applicability: str = "unsafe") -> Fix | None:
        """Delete the option and its values as written, with their separator (see
        :func:`linter.edits.delete_span`): argv items, shell words, a Python keyword, a
        ``--config`` key.  None when a token it would delete holds anything else (a positional
        or another option), is not verbatim in the file, or may be several argv strings."""
        from linter.edits import delete_option

        edit = delete_option(self.src, self.parsed, opt)
        return Fix(message, (edit,), applicability) if edit is not None else None  # type: ignore[arg-type]

    def replace_item_fix(self, item: Item, content: str, message: str, applicability: str = "safe") -> Fix | None:
        if not self.item_editable(item):
            return None
        return Fix(message, (Edit(self.item_span(item), content),), applicability)  # type: ignore[arg-type]


def _setting_name(launch: Launch, release: Release, opt: ParsedOption, option_string: str) -> str | None:
    """The keyword spelling of an option string for a keyword launch.

    A ``--config`` key keeps the writer's choice of dashes or underscores; a
    Python keyword is the option's dest in the release being checked.
    """
    bare = option_string.lstrip("-")
    if launch.entrypoint == "config":
        return bare.replace("-", "_") if "_" in opt.written else bare
    spec = release.by_name.get(option_string)
    if spec is None or option_string in spec.negative_names:
        return None
    return spec.dest


class FileContext(Frozen):
    __slots__ = ("src", "launches")

    src: SourceFile
    launches: tuple[LaunchContext, ...]

    def __init__(self, src, launches=()):
        _set(self, "src", src)
        _set(self, "launches", launches)
