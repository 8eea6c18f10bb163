"""Parse YAML into composer nodes (never objects) and walk them safely.

Only PyYAML's composer runs: no constructor, so no Python tags are honoured,
unknown tags cannot fail, and an alias is the very node it names (an alias
bomb stays a small graph; walkers visit each node once).  Marks' ``index`` are
character offsets into the parsed ``str``.

Composing is libyaml's (``yaml.CSafeLoader``, 4-6x faster on big manifests)
when PyYAML has it, with its nodes made the pure-Python composer's exactly:
the same ``index`` marks, and after :func:`_as_pure` the same end line and
column at the end of a text without a final line break, a plain scalar's
``style`` ``None`` (libyaml says ``''``) and an indentless sequence's
``flow_style`` ``None`` (libyaml says ``False``); a text that starts with a BOM is
composed without it and its marks moved one index on (PyYAML counts the BOM in
the index, not the column).  What libyaml reads differently goes to the
pure-Python composer, whose reading is the reference: a text that libyaml
refuses (so a parse error's wording and place are PyYAML's), one with a tab
that libyaml reads as white space between tokens (``key:<TAB>value``, a
trailing tab: PyYAML refuses them; a tab in a quoted or block scalar or a
comment reads alike, :func:`_tabs_read_alike`), a BOM after the start, and
nesting deeper than :data:`_C_MAX_DEPTH` (PyYAML may exceed Python's recursion
limit there).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from linter.lazy_re import lazy_re
from linter.launch import Span
from linter.sources import Problem, reading
from linter.sources.pyyaml import printable, yaml

MappingNode, Node, ScalarNode, SequenceNode = yaml.MappingNode, yaml.Node, yaml.ScalarNode, yaml.SequenceNode
_MAX_RESUMES = 100  # broken documents read past; each costs a copy of the rest of the text


class _ComposeLoader(yaml.SafeLoader):
    """SafeLoader used only for composing; an unknown tag is just a string on a node."""


_CLoader = getattr(yaml, "CSafeLoader", None)  # None when PyYAML was built without libyaml
_C_MAX_DEPTH = 100  # deeper nesting is composed by the pure-Python composer (its RecursionError is the reference)
_LINE_BREAKS = "\n\r\x85\u2028\u2029"


def _compose_c(text: str) -> list[Node] | None:
    """The documents of ``text`` composed by libyaml and made the pure-Python composer's
    (:func:`_as_pure`), without the documents that cannot hold a launch (:func:`_cannot_launch`),
    or None when the pure-Python composer must read it (see the module docstring)."""
    if _CLoader is None or text.find("\ufeff", 1) != -1:
        return None
    if text.startswith("\ufeff"):  # libyaml skips it uncounted; PyYAML counts it in the index, not the column
        found = _compose_c(text[1:])
        if found is not None:
            _shift(found, 1, 0)
        return found
    found: list[Node] = []
    counted, lines = 0, 0  # line breaks before ``counted``
    for start, end, skip in _runs(text):
        if skip:
            if not _parses(text[start:end]):
                return None
            continue
        part = text if (start, end) == (0, len(text)) else text[start:end]
        docs = _compose_text(part)
        if docs is None or not _as_pure(docs, part) or ("\t" in part and not _tabs_read_alike(part, docs)):
            return None
        if start:
            lines += _breaks(text, counted, start)
            counted = start
            _shift(docs, start, lines)
        found.extend(docs)
    return found


def _compose_text(text: str) -> list[Node] | None:
    loader = _CLoader(text)
    try:
        found = []
        while loader.check_node():
            node = loader.get_node()
            if node is not None:
                found.append(node)
        return found
    except (yaml.YAMLError, RecursionError, ValueError, UnicodeError):
        return None
    finally:
        loader.dispose()


def refused(text: str) -> bool:
    """True when libyaml's parser refuses ``text`` (as :func:`compose_documents` reads it: its
    non-printable characters as spaces) with a syntax error; False when it reads it, or when it
    cannot say alike (no libyaml, a BOM, a tab, nesting past the recursion limit).  libyaml
    refuses nothing the pure-Python composer reads (it reads more: tabs between tokens; on
    1,051 corpus and bench files the 30 it refused PyYAML refused too), so a caller that only
    asks whether a text parses is answered without the pure-Python composer, which reads up to
    the error to word it."""
    if _CLoader is None or "\ufeff" in text or "\t" in text:
        return False
    return isinstance(_parse_error(printable(text)), yaml.YAMLError)


def _tabs_read_alike(text: str, docs: list[Node]) -> bool:
    """Every tab of ``text`` stands where both composers read it as the same character: inside a
    quoted scalar, in the lines of a block scalar after its header, or in a comment (after a
    ``#`` that starts one, outside those scalars).  libyaml also takes a tab for white space
    between tokens (``key:<TAB>value``, ``value<TAB>``, ``[a,<TAB>b]``), where PyYAML refuses it."""
    inside: list[tuple[int, int]] = []  # the ranges of text where a tab is a scalar's character
    for node in _nodes(docs):
        if isinstance(node, ScalarNode):
            a, b = node.start_mark.index, node.end_mark.index
            if node.style in ("'", '"'):
                inside.append((a, b))
            elif node.style in ("|", ">"):
                body = text.find("\n", a, b)  # the header line (indicators, a comment) is not content
                if body != -1:
                    inside.append((body + 1, b))
    inside.sort()
    starts = [a for a, _ in inside]
    ends: list[int] = []  # the furthest end among the ranges up to each one (ranges may nest)
    for _a, b in inside:
        ends.append(max(b, ends[-1]) if ends else b)

    def in_scalar(i: int) -> bool:
        k = bisect.bisect_right(starts, i) - 1
        return k >= 0 and i < ends[k]

    i = text.find("\t")
    while i != -1:
        if not in_scalar(i):
            line = max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) + 1
            hashes = [j for j in range(line, i) if text[j] == "#" and (j == line or text[j - 1] == " ") and not in_scalar(j)]
            if not hashes:
                return False
        i = text.find("\t", i + 1)
    return True


def _parses(text: str) -> bool:
    """libyaml's parser reads ``text`` without an error (no nodes are built)."""
    return _parse_error(text) is None


def _parse_error(text: str) -> Exception | None:
    """What stops libyaml's parser reading ``text`` (no nodes are built), or None: a
    :class:`yaml.YAMLError` for a syntax error, or the recursion, value or Unicode error."""
    loader = _CLoader(text)
    try:
        loader.raw_parse()
        return None
    except (yaml.YAMLError, RecursionError, ValueError, UnicodeError) as exc:
        return exc
    finally:
        loader.dispose()


# Documents that cannot hold a launch, found with a byte scan and never composed: the
# schemas of an install manifest (96% of KServe's bytes).  A document is one only when every
# top-level ``kind:`` of it says CustomResourceDefinition, and it has no vLLM or LMCache word
# (a schema whose text mentions them is read), no template action, no anchor or alias (the
# composer's own errors, an undefined alias, need it composed); it is never a file's first
# document (``--config`` files read only that one).  Its syntax is still checked by libyaml's
# parser, so a broken schema is reported as before.
_TOP_KIND = lazy_re(r"^kind:[ ]*(.*?)[ ]*(?:#.*)?$", re.M)
_NO_LAUNCH_KINDS = frozenset({"CustomResourceDefinition", "'CustomResourceDefinition'", '"CustomResourceDefinition"'})
_ANCHOR_OR_ALIAS = lazy_re(r"(?:^|[\s\[{,])[&*]")


def _top_kinds(text: str, start: int = 0, end: int | None = None, first: bool = False) -> list[str]:
    """``_TOP_KIND.findall(text, start, end)`` (its first one alone with ``first``), matched only
    where a line starts with ``kind:`` (the multi-line ``^`` scan tries every offset: 0.1 s on a
    3.5 MB manifest)."""
    end = len(text) if end is None else end
    out: list[str] = []
    i = start if (start == 0 or text[start - 1] == "\n") and text.startswith("kind:", start, end) else text.find("\nkind:", start, end) + 1 or -1
    while i >= 0:
        m = _TOP_KIND.match(text, i, end)
        if m is not None:
            out.append(m.group(1))
            if first:
                break
        i = text.find("\nkind:", i, end) + 1 or -1
    return out


def _cannot_launch(doc: str) -> bool:
    kinds = _top_kinds(doc)
    if not kinds or any(k not in _NO_LAUNCH_KINDS for k in kinds):
        return False
    low = doc.lower()
    return "vllm" not in low and "lmcache" not in low and "{{" not in doc and not (("&" in doc or "*" in doc) and _ANCHOR_OR_ALIAS.search(doc))


def _runs(text: str) -> list[tuple[int, int, bool]]:
    """``text`` as ranges ``(start, end, skip)`` that cover it: documents that cannot hold a launch
    (``skip``), and the runs of documents between them.  Documents are split at ``---`` lines (a
    marker at column 0 always starts a document: a block scalar there has ended, and a quoted one
    is an error both composers raise); a text with a directive (``%YAML``, ``%TAG``: it belongs to
    the document after it) is one run."""
    if "CustomResourceDefinition" not in text or text.startswith("%") or "\n%" in text:
        return [(0, len(text), False)]
    starts = [0]
    pos = 0
    while True:
        nxt = _next_document(text, pos)
        if nxt is None:
            break
        starts.append(nxt)
        pos = nxt
    if len(starts) == 1:
        return [(0, len(text), False)]
    bounds = list(zip(starts, starts[1:] + [len(text)]))
    out: list[tuple[int, int, bool]] = []
    composed_one = False
    for start, end in bounds:
        skip = composed_one and _cannot_launch(text[start:end])
        if not skip and (text.startswith("---", start) or _top_kinds(text, start, end, first=True)):
            composed_one = True  # it holds a document (a comment-only preamble holds none)
        if out and out[-1][2] == skip and not skip:
            out[-1] = (out[-1][0], end, False)
        else:
            out.append((start, end, skip))
    return out


def _breaks(text: str, start: int, end: int) -> int:
    """Line breaks in ``text[start:end]`` as PyYAML's reader counts them (CR LF is one)."""
    return (text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)
            + sum(text.count(c, start, end) for c in "\x85\u2028\u2029"))


def _as_pure(docs: list[Node], text: str) -> bool:
    """Give libyaml's nodes the pure-Python composer's plain style (None) and end marks at the
    end of a text without a final line break; False when nesting is deeper than :data:`_C_MAX_DEPTH`."""
    pure_end = None  # (index, line, column) of the end of a text without a final line break, as PyYAML counts
    if text and text[-1] not in _LINE_BREAKS:
        last = max(text.rfind(c) for c in _LINE_BREAKS)
        breaks = _breaks(text, 0, len(text))
        pure_end = (len(text), breaks, len(text) - (last + 1) - text.count("\ufeff", last + 1))  # PyYAML's reader does not count a BOM
    seen: set[int] = set()
    stack: list[tuple[Node, int]] = [(d, 1) for d in docs]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if depth > _C_MAX_DEPTH:
            return False
        if isinstance(node, ScalarNode):
            if node.style == "":
                node.style = None
        elif isinstance(node, MappingNode):
            for k, v in node.value:
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
                if isinstance(v, SequenceNode) and v.flow_style is False and v.start_mark.column == k.start_mark.column:
                    v.flow_style = None  # an indentless sequence (``key:`` then ``- item`` at its column): PyYAML's parser gives it no style
        elif isinstance(node, SequenceNode):
            stack.extend((v, depth + 1) for v in node.value)
        if pure_end is not None:
            for attr in ("start_mark", "end_mark"):
                m = getattr(node, attr)
                if m.index == pure_end[0] and (m.line, m.column) != pure_end[1:]:
                    setattr(node, attr, yaml.Mark(m.name, *pure_end, None, None))
    return True


def compose_documents(text: str, path: str = "") -> tuple[list[Node], list[Problem]]:
    """All documents of ``text`` as nodes; a parse error becomes a Problem.

    After an error, reading resumes at the next ``---`` line, so one broken
    document does not hide the others.  Only the rest of the text is read
    again (marks shifted back to file offsets), so a file of many broken
    documents costs linear time, not quadratic.  Within
    :func:`linter.sources.readings_kept` (the fixer's: a pass's check composes the text its
    lint read, the next lint the one the check read; a 3.5 MB manifest takes 40 ms), the nodes
    of a text composed last (this very object) are given again; no reader changes a node.
    """
    docs, problems = reading("yaml documents", text, lambda: _compose_documents(text))
    return list(docs), list(problems)  # (the lists are the caller's)


def _compose_documents(text: str) -> tuple[list[Node], list[Problem]]:
    # characters YAML refuses (control characters) become spaces: offsets stay true
    text = printable(text)
    docs, problems = _compose_all(text)
    if problems and "\t" in text and any("'\\t'" in p.message for p in problems):
        # A tab after a value (``type: LoadBalancer<TAB>``) is white space to YAML 1.2 and to
        # Kubernetes' reader; PyYAML refuses it.  Read again with trailing tabs as spaces
        # (same length: offsets stay true); kept only if that reads better.
        again = _compose_all(_TRAILING_TABS.sub(lambda m: " " * len(m.group(0)), text))
        if len(again[1]) < len(problems):
            return again
    return docs, problems


_TRAILING_TABS = lazy_re(r"[ \t]*\t[ \t]*(?=\r?$|\s#)", re.M)


def _compose_all(text: str) -> tuple[list[Node], list[Problem]]:
    docs: list[Node] = []
    problems: list[Problem] = []
    start = 0
    resumes = 0
    while True:
        found: list[Node] = []
        local: list[Problem] = []
        pos = _compose_into(text[start:] if start else text, found, local)
        if start:
            _shift(found, start, text.count("\n", 0, start))
            local = [Problem(Span(p.span.start + start, p.span.end + start), p.message) for p in local]
        docs.extend(found)
        problems.extend(local)
        if pos is None:
            break
        # the broken document began after the last good one
        begin = found[-1].end_mark.index if found else start
        resume = _next_document(text, max(begin, start))
        if resume is None or resume <= start:
            break
        resumes += 1
        if resumes > _MAX_RESUMES:
            problems.append(Problem(Span(resume, resume), f"YAML parse error: more than {_MAX_RESUMES} broken documents; the rest of the file is not read"))
            break
        start = resume
    return docs, problems


def _shift(docs: list[Node], offset: int, lines: int) -> None:
    """Move the marks of nodes composed from ``text[offset:]`` to offsets in ``text``."""
    for node in _nodes(docs):
        for attr in ("start_mark", "end_mark"):
            m = getattr(node, attr, None)
            if m is not None:
                setattr(node, attr, yaml.Mark(m.name, m.index + offset, m.line + lines, m.column, None, None))


def _nodes(docs: list[Node]) -> Iterator[Node]:
    """Every node of ``docs`` once (an alias is the node it names)."""
    seen: set[int] = set()
    stack: list[Node] = list(docs)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        if isinstance(node, MappingNode):
            for k, v in node.value:
                stack.append(k)
                stack.append(v)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)


def _next_document(text: str, pos: int) -> int | None:
    i = text.find("\n---", pos)
    while i != -1:
        after = text[i + 4 : i + 5]
        if after in ("", "\n", "\r", " ", "\t"):
            return i + 1
        i = text.find("\n---", i + 1)
    return None


def _compose_into(text: str, docs: list[Node], problems: list[Problem]) -> int | None:
    """Compose documents into ``docs``; return the error offset, or None when the stream ended."""
    fast = _compose_c(text)
    if fast is not None:
        docs.extend(fast)
        return None
    loader = None
    try:
        loader = _ComposeLoader(text)
        while loader.check_node():
            node = loader.get_node()
            if node is not None:
                docs.append(node)
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        pos = min(mark.index, len(text)) if mark is not None else 0
        if mark is None and hasattr(exc, "position"):  # ReaderError: a non-printable character
            pos = min(exc.position, len(text))
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        message = f"{context}: {problem}" if context else str(problem)
        end = min(pos + 1, len(text))
        problems.append(Problem(Span(pos, end), f"YAML parse error: {message}"))
        return pos
    except RecursionError:
        problems.append(Problem(Span(0, 0), "YAML parse error: nesting too deep"))
        return None
    finally:
        if loader is not None:
            loader.dispose()


def get(node: Node | None, key: str) -> Node | None:
    """The value of ``key`` in a mapping node (the last one when a key repeats), or else the
    value a merge key gives it (``<<: *defaults``, as compose and Kubernetes read it)."""
    if not isinstance(node, MappingNode):
        return None
    found = None
    merge = False
    for k, v in node.value:
        if isinstance(k, ScalarNode):
            if k.value == key:
                found = v
            elif k.value == "<<":
                merge = True
    if found is None and merge:  # (a merge key asked for itself is found above)
        for merged in _merged_maps(node):
            found = get(merged, key)
            if found is not None:
                break
    return found


def _merged_maps(node: MappingNode, depth: int = 0) -> list[MappingNode]:
    """The mappings a ``<<`` merge key of ``node`` names, first one first (it wins)."""
    out: list[MappingNode] = []
    if depth > 8:
        return out
    for k, v in node.value:
        if isinstance(k, ScalarNode) and k.value == "<<" and k.tag == "tag:yaml.org,2002:merge":
            for m in (v.value if isinstance(v, SequenceNode) else [v]):
                if isinstance(m, MappingNode) and m is not node:
                    out.append(m)
    return out


def get_key(node: Node | None, key: str) -> ScalarNode | None:
    if not isinstance(node, MappingNode):
        return None
    found = None
    for k, _v in node.value:
        if isinstance(k, ScalarNode) and k.value == key:
            found = k
    return found


def text_of(node: Node | None) -> str | None:
    """A scalar's value, or None for anything else."""
    return node.value if isinstance(node, ScalarNode) else None


def items(node: Node | None) -> list[tuple[str, Node]]:
    """``(key, value)`` pairs of a mapping whose keys are scalars."""
    if not isinstance(node, MappingNode):
        return []
    own = [(k.value, v) for k, v in node.value if isinstance(k, ScalarNode) and not (k.value == "<<" and k.tag == "tag:yaml.org,2002:merge")]
    names = {name for name, _v in own}
    for merged in _merged_maps(node):
        for name, v in items(merged):
            if name not in names:
                own.append((name, v))
                names.add(name)
    return own


def pairs(node: Node | None) -> list[tuple[ScalarNode, Node]]:
    """``(key node, value)`` pairs of a mapping whose keys are scalars, with the pairs its
    ``<<`` merge keys give it (``environment: {<<: *common_env, X: 1}``) that it does not set itself."""
    if not isinstance(node, MappingNode):
        return []
    own = [(k, v) for k, v in node.value if isinstance(k, ScalarNode) and not (k.value == "<<" and k.tag == "tag:yaml.org,2002:merge")]
    names = {k.value for k, _v in own}
    for merged in _merged_maps(node):
        for k, v in pairs(merged):
            if k.value not in names:
                own.append((k, v))
                names.add(k.value)
    return own


def walk(node: Node, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Node]]:
    """Every node under ``node`` once, with its key path (sequence items as ``[i]``)."""
    seen: set[int] = set()
    stack: list[tuple[tuple[str, ...], Node]] = [(path, node)]
    while stack:
        p, n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        yield p, n
        children: list[tuple[tuple[str, ...], Node]] = []
        if isinstance(n, MappingNode):
            for k, v in n.value:
                name = k.value if isinstance(k, ScalarNode) else "?"
                children.append((p + (name,), v))
        elif isinstance(n, SequenceNode):
            for i, v in enumerate(n.value):
                children.append((p + (f"[{i}]",), v))
        stack.extend(reversed(children))


def is_scalar_list(node: Node | None) -> bool:
    return isinstance(node, SequenceNode) and all(isinstance(v, ScalarNode) for v in node.value)


__all__ = ["MappingNode", "Node", "ScalarNode", "SequenceNode", "compose_documents", "get", "get_key", "items", "text_of", "walk", "is_scalar_list"]
