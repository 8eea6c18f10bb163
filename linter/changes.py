"""``vllm-lint --changes OLD NEW PATH...``: what changes between two releases for the options a tree uses.

An upgrade review: the options (and ``VLLM_*`` variables) the scanned files
actually use, each compared between the two releases' inventories
(``rules/data/releases``; names only before 0.28, from the history) and the curated
facts of ``rules/data/migrations.yaml`` that fall in ``(OLD, NEW]``:

* removed (with the curated replacement when there is one: renamed),
* deprecated,
* choices added or removed,
* default changed,
* values deprecated or removed, options that stop having an effect, variables
  removed or renamed.

Printed as a table for the terminal, or as Markdown for a pull request
description (``--changes-format markdown``).  Options the files use that did not
change are counted, not listed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from packaging.version import Version

from linter import argmodel, knowledge


@dataclass
class Use:
    option: str  # the canonical option string (the old release's primary name), or as written
    places: list[str] = field(default_factory=list)  # path:line of each use
    values: dict[tuple[str | None, str], list[str]] = field(default_factory=dict)  # (JSON key or None, value) -> where the files give it


@dataclass
class Change:
    option: str
    kind: str  # removed | renamed | deprecated | choices | default | value | effect | env
    old: str
    new: str
    note: str
    places: list[str]


def _in_range(text, old: Version, new: Version) -> bool:
    if text in (None, ""):
        return False
    try:
        v = Version(str(text))
    except ValueError:
        return False
    return old < v <= new


def collect(candidates: Iterable, old: Version) -> tuple[dict[str, Use], dict[str, Use], int]:
    """(options used, VLLM_* variables used, launches read) in the candidates, read as ``old`` reads them.

    The launches are the ones ``--show-launches`` lists (:func:`linter.project.lint`: a
    ``--config`` file is read once, as the file its launch names; weak resemblances only when
    the argument model confirms them).  Each option keeps the values the files give it.
    """
    from linter import project
    from linter.engine import Settings

    release = knowledge.release(old)
    options: dict[str, Use] = {}
    env: dict[str, Use] = {}
    launches = 0
    for result in project.lint(list(candidates), Settings(target=old)):
        src = result.src
        if src is None:
            continue
        for rep in result.launches:
            launch = rep.launch
            if launch is None or launch.program != "vllm":
                continue
            launches += 1
            parsed = argmodel.parse(launch, release)
            for opt in parsed.options:
                tok = opt.name.token
                if tok is None:
                    continue
                name = opt.spec.primary if opt.spec is not None else opt.normalized.split("=", 1)[0]
                if not name.startswith("-"):
                    name = "--" + name.replace("_", "-")
                use = options.setdefault(name, Use(name))
                place = f"{result.path}:{src.line_col(tok.span.start)[0]}"
                use.places.append(place)
                for pair in _values_of(opt):
                    use.values.setdefault(pair, []).append(place)
            for var in launch.env:
                env.setdefault(var.name.value, Use(var.name.value)).places.append(f"{result.path}:{src.line_col(var.name.span.start)[0]}")
    return options, env, launches


def _values_of(opt) -> set[tuple[str | None, str]]:
    """(JSON key or None, value) pairs the option is given: its plain values, and each string of its JSON object."""
    out: set[tuple[str | None, str]] = set()
    if opt.value_opaque:
        return out
    for v in opt.values:
        out.add((None, v.text))
        out.update((None, w) for w in v.text.split())
    data = opt.json_object
    for key, value in (data or {}).items():
        if isinstance(value, str):
            out.add((key, value))
    for d in opt.dotted or ():
        if len(d.path) == 1 and d.value is not None:
            out.add((d.path[0], d.value))
    return out


def _spec_in(release, name: str):
    spec = release.by_name.get(name)
    if spec is None:
        return None
    return spec


def _fmt(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def _default(spec) -> str:
    """The default as a user would write it: ``{'repr': 'MambaBackendEnum.TRITON'}`` (what the
    inventory keeps of a value JSON cannot hold) is ``triton``, a mapping or list is JSON text."""
    value = spec.default
    if isinstance(value, dict) and set(value) == {"repr"}:
        text = str(value["repr"])
        m = re.fullmatch(r"[A-Za-z_][\w]*\.([A-Za-z_]\w*)", text)
        if m:
            member = m.group(1)
            match = next((str(c) for c in spec.choices or () if str(c).lower() == member.lower()), None)
            return match or member.lower()
        return text
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(", ", ": "))
    if isinstance(value, bool):
        return "true" if value else "false"
    return _fmt(value)


def compare(options: dict[str, Use], env: dict[str, Use], old: Version, new: Version) -> list[Change]:
    a, b = knowledge.release(old), knowledge.release(new)
    facts = knowledge.migrations()
    out: list[Change] = []
    for name, use in sorted(options.items()):
        places = use.places
        sa, sb = _spec_in(a, name), _spec_in(b, name)
        curated = facts.curated(name)
        note = curated.note.strip() if curated is not None else ""
        if sa is not None and sb is None:
            replacement = curated.replacement if curated is not None else None
            if replacement:
                out.append(Change(name, "renamed", name, replacement, note, places))
            else:
                last = knowledge.last_accepted_before(name, new)
                out.append(Change(name, "removed", "accepted", "unrecognized argument", note or (f"last accepted by {last[1]}" if last else ""), places))
            continue
        if sa is None and sb is None:
            continue  # unknown to both: the linter reports it as VL104
        if sa is None:
            continue  # new in NEW (the files use it already: VL105 reports it for OLD)
        if sb.deprecated and not sa.deprecated:
            out.append(Change(name, "deprecated", "supported", "deprecated", note, places))
        if sa.choices is not None and sb.choices is not None and set(map(str, sa.choices)) != set(map(str, sb.choices)):
            added = [c for c in sb.choices if str(c) not in set(map(str, sa.choices))]
            gone = [c for c in sa.choices if str(c) not in set(map(str, sb.choices))]
            parts = []
            if added:
                parts.append("new: " + _fmt(added))
            if gone:
                parts.append("removed: " + _fmt(gone))
            out.append(Change(name, "choices", f"{len(sa.choices)} choices", f"{len(sb.choices)} choices", "; ".join(parts), places))
        if "default" in sa.raw and "default" in sb.raw and _default(sa) != _default(sb):
            out.append(Change(name, "default", _default(sa), _default(sb), "", places))
    for v in facts.values:
        use = options.get(v.option)
        if use is None:
            continue
        used = [x for x in v.values if (v.key, x) in use.values]
        if not used:
            continue  # the files give the option other values
        for when, word in ((v.removed_in, "removed"), (v.deprecated_in, "deprecated")):
            if _in_range(when, old, new):
                shown = ", ".join(f"`{x}`" for x in used) if v.key is None else ", ".join(f"`{v.key}: {x}`" for x in used)
                places = sorted({p for x in used for p in use.values[(v.key, x)]}, key=use.places.index)
                out.append(Change(use.option, "value", f"{shown} accepted", f"{shown} {word} in {when}",
                                  f"use `{v.replacement}`" if v.replacement and v.value in used else "", places))
                break
    for e in facts.effects:
        use = options.get(e.option)
        if use is not None and _in_range(e.no_effect_from, old, new):
            out.append(Change(use.option, "effect", "in effect", f"no effect from {e.no_effect_from} ({e.applies_to or 'all models'})",
                              e.why, use.places))
    for e in facts.env:
        use = env.get(e.name)
        if use is None:
            continue
        for when, word in ((e.removed_in, "removed"), (e.deprecated_in, "deprecated")):
            if _in_range(when, old, new):
                out.append(Change(use.option, "env", "read", f"{word} in {when}", f"use `{e.replacement}`" if e.replacement else "", use.places))
                break
    order = ["removed", "renamed", "value", "deprecated", "effect", "choices", "default", "env"]
    out.sort(key=lambda c: (order.index(c.kind), c.option))
    return out


def _where(places: list[str], limit: int = 3) -> str:
    shown = places[:limit]
    more = len(places) - len(shown)
    return ", ".join(shown) + (f" (+{more} more)" if more > 0 else "")


def render_text(changes: list[Change], old: Version, new: Version, used: int, launches: int) -> str:
    head = ("option", "change", f"in {old}", f"in {new}", "note", "used at")
    rows = [(c.option, c.kind, c.old, c.new, c.note, _where(c.places)) for c in changes]
    lines = [f"Changes from vLLM {old} to {new} for the {used} options and variables used by {launches} launches:"]
    if not rows:
        lines.append("nothing the files use changes.")
        return "\n".join(lines) + "\n"
    clip = [min(max(len(str(r[i])) for r in [head, *rows]), 44) for i in range(len(head))]

    def cut(text: str, width: int) -> str:
        text = " ".join(str(text).split())
        return text if len(text) <= width else text[: width - 1] + "…"

    fmt = "  ".join("{:<%d}" % w for w in clip)
    lines.append(fmt.format(*head).rstrip())
    lines.append("  ".join("-" * w for w in clip))
    for r in rows:
        lines.append(fmt.format(*(cut(x, w) for x, w in zip(r, clip))).rstrip())
    lines.append(f"{len(rows)} change{'s' if len(rows) != 1 else ''}; {used - len({c.option for c in changes})} of the used options and variables do not change.")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def render_markdown(changes: list[Change], old: Version, new: Version, used: int, launches: int) -> str:
    lines = [f"### vLLM {old} → {new}: what changes for this repository", ""]
    lines.append(f"{used} options and `VLLM_*` variables used by {launches} launches were compared "
                 f"(release inventories and curated migration facts, generated by vllm-lint).")
    lines.append("")
    if not changes:
        lines.append("Nothing the files use changes.")
        return "\n".join(lines) + "\n"
    lines.append(f"| option | change | {old} | {new} | note | used at |")
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for c in changes:
        lines.append(f"| `{_md(c.option)}` | {c.kind} | {_md(c.old)} | {_md(c.new)} | {_md(c.note)} | {_md(_where(c.places))} |")
    lines.append("")
    lines.append(f"Run `vllm-lint --target-version {new.major}.{new.minor} --diff` to see the fixes it can make.")
    return "\n".join(lines) + "\n"


def run(candidates, old: Version, new: Version, fmt: str = "text") -> str:
    options, env, launches = collect(candidates, old)
    changes = compare(options, env, old, new)
    used = len(options) + len(env)
    if fmt == "markdown":
        return render_markdown(changes, old, new, used, launches)
    return render_text(changes, old, new, used, launches)
