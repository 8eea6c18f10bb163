"""Comments of each kind of file, found with that kind's own tokenisation, so a ``#``
inside a string never counts.

Python's :mod:`tokenize`; tree-sitter-bash ``comment`` nodes for shell;
tree-sitter-dockerfile comments plus bash comments inside shell-form
instructions for Dockerfiles; for YAML, every ``#`` preceded by white space (or
at a line start) that no token of PyYAML's scanner covers (quoted and block
scalars are tokens), plus bash comments inside literal block scalars (a script
in ``args: |``); Markdown code fences by their language; requirements files by
pip's rule.  A reader that parses the file anyway reports its comments itself
(``Extraction.comments``); the row of each other kind in
:data:`linter.kinds.KINDS` names its finder here.
"""

from __future__ import annotations

import io

from linter.sources import Comment, masked_stretch as _masked, shifted as _shifted


def shell_comments(text: str) -> list[Comment]:
    from linter.sources.shell import script_comments  # the grammar the shell extractor loaded

    return script_comments(text)


def dockerfile_comments(text: str) -> list[Comment]:
    from linter.sources.dockerfile import file_comments  # the Dockerfile reader's own finder

    return file_comments(text)


def python_comments(text: str) -> list[Comment]:
    import tokenize  # (here: a run without Python files needs none of it)

    starts = [0]
    for i, c in enumerate(text):
        if c == "\n":
            starts.append(i + 1)
    out: list[Comment] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                (row, col), (erow, ecol) = tok.start, tok.end
                out.append(Comment(starts[row - 1] + col, starts[erow - 1] + ecol, tok.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # keep the comments before the error; the file is reported as VL001 anyway
    return out


def _hash_comments(text: str, covered: list[tuple[int, int]]) -> list[Comment]:
    """``#`` at a line start or after white space, outside ``covered`` ranges, to the end of its line."""
    import bisect

    covered = sorted(covered)
    starts = [a for a, _ in covered]
    out: list[Comment] = []
    i = text.find("#")
    while i != -1:
        k = bisect.bisect_right(starts, i) - 1
        inside = k >= 0 and covered[k][0] <= i < covered[k][1]
        if not inside and (i == 0 or text[i - 1] in " \t\r\n"):
            end = text.find("\n", i)
            end = len(text) if end == -1 else end
            out.append(Comment(i, end, text[i:end].rstrip("\r")))
            i = text.find("#", end)
            continue
        i = text.find("#", i + 1)
    return out


def yaml_comments(text: str) -> list[Comment]:
    from linter.sources.pyyaml import yaml

    covered: list[tuple[int, int]] = []
    literal_blocks: list[tuple[int, int]] = []
    end_of_scan = len(text)
    try:
        for tok in yaml.scan(text, Loader=yaml.SafeLoader):
            a, b = tok.start_mark.index, tok.end_mark.index
            if isinstance(tok, yaml.ScalarToken) and b > a:
                covered.append((a, b))
                if tok.style == "|":
                    literal_blocks.append((a, b))
            elif isinstance(tok, (yaml.DirectiveToken, yaml.TagToken, yaml.AnchorToken, yaml.AliasToken)) and b > a:
                covered.append((a, b))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        end_of_scan = mark.index if mark is not None else 0
    out = [c for c in _hash_comments(text, covered) if c.start < end_of_scan]
    if end_of_scan < len(text):  # past a scanner error: a `#` after white space, outside quotes on its line
        out.extend(c for c in plain_line_comments(text) if c.start >= end_of_scan)
    for a, b in literal_blocks:  # a script in a literal block: its shell comments
        first_nl = text.find("\n", a)
        if first_nl == -1 or first_nl >= b:
            continue
        out.extend(_shifted(shell_comments(text[first_nl + 1 : b]), first_nl + 1))
    return out


def plain_line_comments(text: str) -> list[Comment]:
    """Fallback for text no tokeniser accepts: quotes are followed within one line."""
    out: list[Comment] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        quote = None
        for j, c in enumerate(line):
            if quote:
                if c == quote:
                    quote = None
                continue
            if c in "'\"" and (j == 0 or line[j - 1] in " \t[{,:-"):
                quote = c
            elif c == "#" and (j == 0 or line[j - 1] in " \t"):
                body = line[j:].rstrip("\r\n")
                out.append(Comment(pos + j, pos + j + len(body), body))
                break
        pos += len(line)
    return out


def helm_comments(text: str) -> list[Comment]:
    try:
        from linter.sources.helm import _actions

        actions, unclosed = _actions(text)
    except Exception:
        return plain_line_comments(text)
    if unclosed is not None:
        actions.append((unclosed, len(text)))
    blanked = list(text)
    for a, b in actions:
        for i in range(a, b):
            if blanked[i] not in "\r\n":
                blanked[i] = " "
    masked = "".join(blanked)
    return [Comment(c.start, c.end, text[c.start : c.end]) for c in yaml_comments(masked)]


def requirements_comments(text: str) -> list[Comment]:
    return _hash_comments(text, [])  # pip: a `#` at a line start or after white space


def markdown_comments(text: str) -> list[Comment]:
    from linter.sources.markdown import DOCKER_LANGS, POWERSHELL_LANGS, PYTHON_LANGS, SHELL_LANGS, YAML_LANGS, fenced_blocks

    out: list[Comment] = []
    for block in fenced_blocks(text):
        if not block.lines:
            continue
        lang = (block.lang or "").lower()
        if lang in YAML_LANGS:
            finder = yaml_comments
        elif lang in DOCKER_LANGS:
            finder = dockerfile_comments
        elif lang in PYTHON_LANGS:
            finder = python_comments
        elif lang in SHELL_LANGS or lang in POWERSHELL_LANGS or lang == "":
            finder = shell_comments
        else:
            continue
        base, masked = _masked(text, block.lines)
        if finder is python_comments and block.fence_indent:
            finder = plain_line_comments  # an indented block does not tokenize as it stands
        out.extend(_shifted(finder(masked), base))
    return out
