"""Where an option that the target release does not accept stands in vLLM's history.

One classification serves four rules (removed, renamed, not yet available,
unknown), so an option is reported by exactly one of them.
"""

from __future__ import annotations

from typing import Literal


from linter import knowledge
from linter.argmodel import ParsedOption
from linter.checking import LaunchContext
from linter.knowledge import OptionFact
from linter.records import Record
from rules._lib import facts
from rules._lib.base import launch_memo


class Lifecycle(Record):
    __slots__ = ("status", "option", "last_accepted", "replacement", "replacement_in_target", "available_in", "fact", "suggestion", "first_seen")

    status: Literal["renamed", "removed", "not-yet", "unknown"]
    option: str  # the option string looked up (dashes, no value)
    last_accepted: str | None
    replacement: str | None
    replacement_in_target: bool
    available_in: str | None
    fact: OptionFact | None
    suggestion: str | None
    first_seen: str | None  # the first release that accepted it (VL101's history note)

    def __init__(self, status, option, last_accepted=None, replacement=None, replacement_in_target=False, available_in=None, fact=None, suggestion=None, first_seen=None):
        self.status = status
        self.option = option
        self.last_accepted = last_accepted
        self.replacement = replacement
        self.replacement_in_target = replacement_in_target
        self.available_in = available_in
        self.fact = fact
        self.suggestion = suggestion
        self.first_seen = first_seen


def looked_up_name(ctx: LaunchContext, opt: ParsedOption) -> str:
    if opt.setting is not None and ctx.launch.entrypoint not in ("config", "chart"):
        return facts.option_string_for_dest(opt.written)
    return opt.normalized


def classify(ctx: LaunchContext, opt: ParsedOption) -> Lifecycle | None:
    """None when the option is accepted (or not decidable: opaque, ambiguous).  Asked by four
    rules for each option a launch's release does not know: answered once per launch."""
    if opt.spec is not None or opt.match != "unknown" or opt.name.opaque:
        return None
    memo = launch_memo(ctx)
    kept = memo.get(("lifecycle", id(opt)))
    if kept is None or kept[0] is not opt:
        kept = memo[("lifecycle", id(opt))] = (opt, _classify(ctx, opt))  # the option held: its id is no other's
    return kept[1]


def _classify(ctx: LaunchContext, opt: ParsedOption) -> Lifecycle | None:
    name = looked_up_name(ctx, opt)
    target = ctx.version
    release = ctx.release
    fact = facts.removal(name, target)
    replacement = None
    if fact is None and name.startswith("--no-"):
        # the --no- form of a renamed boolean (a fact lists it in ``names``) renames the same way
        positive = facts.removal("--" + name[5:], target)
        negative = "--no-" + str(positive.replacement or "")[2:] if positive is not None else ""
        if positive is not None and name in positive.names and negative in release.by_name:
            fact, replacement = positive, negative
    # A curated fact's replacement has the same meaning; the history's only names
    # what vLLM's deprecation message pointed to (which may be the opposite switch).
    replacement = replacement or (fact.replacement if fact is not None else None) or facts.history_replacement(name)
    in_target = bool(replacement) and replacement in release.by_name
    seen = knowledge.last_accepted_before(name, target)
    if fact is not None and fact.fix == "rename" and replacement and fact.removed_in:
        return Lifecycle("renamed", name, seen[1] if seen else None, replacement, in_target, fact=fact, first_seen=seen[0] if seen else None)
    if seen is not None:
        return Lifecycle("removed", name, seen[1], replacement, in_target, fact=fact, first_seen=seen[0])
    later = knowledge.first_accepted_after(name, target)
    if later is not None:
        return Lifecycle("not-yet", name, available_in=str(later))
    if ctx.launch.entrypoint != "config" and opt.setting is not None:
        suggestion = _closest(release, opt.written, True)
    else:
        suggestion = _closest(release, name, False)
    return Lifecycle("unknown", name, suggestion=suggestion)


# (id of a release, the word, whether it is a keyword) -> (that release, held so that no other
# takes its id; the closest of its option strings or dests); bounded, as a run's typos are
_CLOSEST: dict[tuple[int, str, bool], tuple[object, str | None]] = {}
_CLOSEST_MAX = 4096


def _closest(release, word: str, dest: bool) -> str | None:
    """The option string (``dest``: the keyword, by dest) of ``release`` closest to ``word``, or
    None: difflib's, once per release and word in a run (a typo copied into many files
    is searched for once; a search compares it with each of the release's 400 options)."""
    key = (id(release), word, dest)
    kept = _CLOSEST.get(key)
    if kept is not None and kept[0] is release:
        return kept[1]
    import difflib  # here: only an option no release accepts needs it

    close = difflib.get_close_matches(word, list(release.by_dest) if dest else release.option_strings, n=1, cutoff=0.75)
    if len(_CLOSEST) >= _CLOSEST_MAX:
        _CLOSEST.clear()
    _CLOSEST[key] = (release, close[0] if close else None)
    return close[0] if close else None

