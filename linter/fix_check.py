"""Check that one pass of fixes left a file parsing the way it did before.

``--fix`` never re-serialises a file, but an edit in the wrong place (a
wrong offset, a quote that ends a string early, a new list item at the wrong
indentation) would still change what the file *means* to YAML, the shell or
Python.  After each pass the fixer calls :func:`check_pass` with the text
before and after the pass and the pass's edits (in the coordinates of the
text before); a message comes back when the result does not parse as the
original did, and the fixer then writes nothing and reports a bug.

One function per kind of file (its row in :data:`linter.kinds.KINDS` names it):

- YAML (manifests, compose, Actions, Helm, ``--config`` files): the composer
  node trees must have the same shape: the same documents, mappings with the
  same number of pairs (less those an edit deleted whole: a removed `--config` key), the same scalar tags (a quoted ``"8192"`` must stay a
  string), and the same scalar values except where an edit touched the
  scalar.  A sequence may gain items only where an edit touched one of its
  items (one argv element split into two), and lose only items that an edit
  deleted whole (VL801 drops a repeated ``vllm serve``).
- Shell (scripts, Markdown blocks read as shell): tree-sitter-bash finds no
  more error nodes than before and the same number of commands.
- Dockerfile: tree-sitter-dockerfile finds no more error nodes than before
  and the same instructions, less ``ENV`` instructions an edit deleted whole (a variable
  moved to an option).
- Python: the module still parses, to the same number of top-level statements: by
  CPython's own parser, as the reader reads it (a 100 KB module in 10 ms), or by libcst's
  when CPython's refuses the original (syntax newer than the running Python's).
- Markdown: the same fenced code blocks (info strings, closed or not).

Every kind also keeps the extractor's own view: no more parse problems and
the same number of launches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from linter.diagnostic import Edit

if TYPE_CHECKING:
    from yaml.nodes import Node


def _touched(node: Node, edits: Sequence[Edit]) -> bool:
    start, end = node.start_mark.index, node.end_mark.index
    return any(e.span.start <= end and start <= e.span.end for e in edits)


def _deleted(start: int, end: int, edits: Sequence[Edit], text: str = "") -> bool:
    """An edit with no content covers ``[start, end)``: what stood there was deleted whole (or,
    for the only key of a mapping, turned into ``{}``, the mapping left empty:
    :func:`linter.edits.delete_option`).  A block node's end mark lies at the next token, past
    the blank space after it: that space need not go with it."""
    while text and end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return any(e.content in ("", "{}") and e.span.start <= start and end <= e.span.end for e in edits)


class _Mismatch(Exception):
    pass


def _inserted_ranges(edits: Sequence[Edit]) -> list[tuple[int, int]]:
    """Where each edit's new content stands in the text after the pass."""
    out, delta = [], 0
    for e in sorted(edits, key=lambda e: e.span.start):
        start = e.span.start + delta
        out.append((start, start + len(e.content)))
        delta += len(e.content) - (e.span.end - e.span.start)
    return out


def _same_yaml(a: Node, b: Node, edits: Sequence[Edit], inserted: list[tuple[int, int]], seen: set[int], where: str, text: str = "") -> None:
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode  # here: a fix of a shell file or a Dockerfile needs no PyYAML

    if id(a) in seen:  # an alias: the node was compared where its anchor stands
        return
    seen.add(id(a))
    if type(a) is not type(b):
        raise _Mismatch(f"{where}: a {type(a).__name__[:-4].lower()} became a {type(b).__name__[:-4].lower()}")
    if a.tag != b.tag:
        raise _Mismatch(f"{where}: tag {a.tag} became {b.tag}")
    if isinstance(a, ScalarNode):
        if a.value != b.value and not _touched(a, edits):
            raise _Mismatch(f"{where}: the untouched scalar {a.value!r} became {b.value!r}")
        return
    if isinstance(a, MappingNode):
        # pairs an edit deleted whole (VL101 drops a removed `--config` key) are gone on purpose
        # (a value that is an alias, ``volumes: *vol``, carries its anchor's marks, earlier in
        # the text: the pair then ends with its key)
        pairs = [(k, v) for k, v in a.value
                 if not _deleted(k.start_mark.index, v.end_mark.index if v.start_mark.index >= k.start_mark.index else k.end_mark.index, edits, text)]
        if len(pairs) != len(b.value):
            raise _Mismatch(f"{where}: a mapping of {len(pairs)} keys now has {len(b.value)}")
        for (ka, va), (kb, vb) in zip(pairs, b.value):
            name = ka.value if isinstance(ka, ScalarNode) else "?"
            _same_yaml(ka, kb, edits, inserted, seen, f"{where}.{name}", text)
            _same_yaml(va, vb, edits, inserted, seen, f"{where}.{name}", text)
        return
    assert isinstance(a, SequenceNode)
    # an element split in two adds an item that starts inside the edit's new text
    new = [x for x in b.value if any(s < x.start_mark.index < e for s, e in inserted)]
    kept = [x for x in b.value if not any(x is y for y in new)]
    if new and (not any(_touched(x, edits) for x in a.value) or not all(isinstance(x, ScalarNode) for x in new)):
        raise _Mismatch(f"{where}: new items where no item was edited")
    # items an edit deleted whole (an empty replacement covering the item) are gone on purpose
    before = [x for x in a.value if not _deleted(x.start_mark.index, x.end_mark.index, edits, text)]
    if len(kept) != len(before):
        raise _Mismatch(f"{where}: a list of {len(a.value)} items now has {len(kept)}")
    for i, (x, y) in enumerate(zip(before, kept)):
        _same_yaml(x, y, edits, inserted, seen, f"{where}[{i}]", text)


def check_yaml(before: str, after: str, edits: Sequence[Edit]) -> str | None:
    from linter.sources.yaml_nodes import compose_documents

    docs_a, probs_a = compose_documents(before)
    docs_b, probs_b = compose_documents(after)
    if len(probs_b) > len(probs_a):
        return f"YAML no longer parses: {probs_b[len(probs_a)].message if len(probs_b) > len(probs_a) else ''}"
    if len(docs_a) != len(docs_b):
        return f"YAML now has {len(docs_b)} documents instead of {len(docs_a)}"
    try:
        seen: set[int] = set()
        inserted = _inserted_ranges(edits)
        for n, (a, b) in enumerate(zip(docs_a, docs_b)):
            _same_yaml(a, b, edits, inserted, seen, f"document {n + 1}", before)
    except _Mismatch as exc:
        return f"YAML structure changed: {exc}"
    except RecursionError:
        return None  # too deep to compare; the extractor checks still run
    return None


def _ts_counts(tree, wanted: frozenset[str]) -> tuple[int, int]:
    """(error or missing nodes, nodes whose type is in ``wanted``) of a tree-sitter tree."""
    errors = kept = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            errors += 1
        if node.type in wanted:
            kept += 1
        stack.extend(node.children)
    return errors, kept


def _deleted_nodes(tree, data: bytes, before: str, edits: Sequence[Edit], types: frozenset[str]) -> int:
    """How many nodes of ``types`` in ``tree`` (of ``before``, as ``data``) an edit deleted whole."""
    from linter.sources import char_offsets

    nodes, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type in types:
            nodes.append(node)
        stack.extend(node.children)
    if not nodes or not any(e.content == "" for e in edits):
        return 0
    conv = char_offsets(data, [b for n in nodes for b in (min(n.start_byte, len(data)), min(n.end_byte, len(data)))])
    return sum(1 for n in nodes if _deleted(conv[min(n.start_byte, len(data))], conv[min(n.end_byte, len(data))], edits, before))


def _check_tree_sitter(parse: Callable[[bytes], object], before: str, after: str, wanted: frozenset[str], what: str,
                       edits: Sequence[Edit] = (), deletable: frozenset[str] = frozenset()) -> str | None:
    """``deletable``: node types an edit may delete whole (a Dockerfile's ``ENV`` instruction
    whose variable became an option); the rest of ``wanted`` keep their count."""
    data = before.encode("utf-8", "surrogatepass")
    tree_a = parse(data)
    err_a, n_a = _ts_counts(tree_a, wanted)
    err_b, n_b = _ts_counts(parse(after.encode("utf-8", "surrogatepass")), wanted)
    if err_b > err_a:
        return f"{what} has {err_b - err_a} new parse error(s)"
    gone = _deleted_nodes(tree_a, data, before, edits, deletable) if deletable else 0
    if n_a - gone != n_b:
        return f"{what} now has {n_b} {'/'.join(sorted(wanted))} nodes instead of {n_a - gone}"
    return None


def check_shell(before: str, after: str, edits: Sequence[Edit]) -> str | None:
    from linter.sources import shell

    parser = shell._parser()
    return _check_tree_sitter(parser.parse, before, after, frozenset({"command", "pipeline", "list"}), "the shell script")


def check_dockerfile(before: str, after: str, edits: Sequence[Edit]) -> str | None:
    import tree_sitter as ts

    from linter.sources import dockerfile

    language = getattr(dockerfile, "_LANGUAGE", None)
    if language is None:
        return None
    parser = ts.Parser(language)
    wanted = frozenset(
        {"from_instruction", "run_instruction", "cmd_instruction", "entrypoint_instruction", "env_instruction", "arg_instruction", "json_string_array"}
    )
    return _check_tree_sitter(parser.parse, before, after, wanted, "the Dockerfile", edits, frozenset({"env_instruction"}))


def check_python(before: str, after: str, edits: Sequence[Edit]) -> str | None:
    import ast

    from linter.sources.python import _parse

    mod_a = _parse(before)
    if isinstance(mod_a, SyntaxError):  # syntax newer than this Python's, or none: libcst's parser decides
        return _check_python_cst(before, after)
    if not isinstance(mod_a, ast.Module):  # nested too deeply to parse: nothing to compare with
        return None
    mod_b = _parse(after)
    if not isinstance(mod_b, ast.Module):
        return f"the Python module no longer parses: {mod_b.msg if isinstance(mod_b, SyntaxError) else mod_b.message}"
    if len(mod_a.body) != len(mod_b.body):
        return f"the Python module now has {len(mod_b.body)} statements instead of {len(mod_a.body)}"
    return None


def _check_python_cst(before: str, after: str) -> str | None:
    import libcst as cst

    try:
        mod_a = cst.parse_module(before)
    except Exception:  # the original did not parse: nothing to compare with
        return None
    try:
        mod_b = cst.parse_module(after)
    except Exception as exc:
        return f"the Python module no longer parses: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    if len(mod_a.body) != len(mod_b.body):
        return f"the Python module now has {len(mod_b.body)} statements instead of {len(mod_a.body)}"
    return None


def check_markdown(before: str, after: str, edits: Sequence[Edit]) -> str | None:
    """The same fenced code blocks, with the same info strings, each still closed as before
    (the blocks' contents are checked by the extractor, as the kind of code they hold)."""
    from linter.sources.markdown import fenced_blocks

    a, b = fenced_blocks(before), fenced_blocks(after)
    if len(a) != len(b):
        return f"the Markdown file now has {len(b)} code blocks instead of {len(a)}"
    for x, y in zip(a, b):
        if (x.info, x.closed) != (y.info, y.closed):
            return f"the code block of line {x.fence_line} changed its fence"
    return None


def check_pass(before: str, after: str, kind: str, edits: Sequence[Edit], path: str = "", reader: Callable | None = None) -> str | None:
    """Why ``after`` does not parse the way ``before`` did, or None when it does.  ``reader``:
    what gives a text's extraction (:func:`linter.engine.extract`; the fixer's, which keeps
    the one its lint of ``before`` made and gives the one made here to its lint of ``after``)."""
    from linter.engine import extract
    from linter.kinds import fix_check
    from linter.source_file import SourceFile

    check = fix_check(kind)  # the kind's row names its check
    if check is not None:
        problem = check(before, after, edits)
        if problem:
            return problem
    read = extract if reader is None else reader
    ex_a = read(SourceFile(path, before), kind)
    ex_b = read(SourceFile(path, after), kind)
    if len(ex_b.problems) > len(ex_a.problems):
        return f"the fixed file has {len(ex_b.problems) - len(ex_a.problems)} new parse problem(s)"
    if len(ex_b.launches) != len(ex_a.launches):
        return f"the fixed file has {len(ex_b.launches)} launches instead of {len(ex_a.launches)}"
    return None
