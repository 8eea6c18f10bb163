"""Edits that depend on how a token is written: splitting one argv element in two.

A fix that only renames text inside a token is a plain replacement.  Turning
one element (`"--max-model-len 8192"`, `--config=FILE`) into two needs the
element's own syntax: a new item of a YAML block sequence on its own line with
the same indentation and quoting, a new item of a flow list (YAML, JSON or a
Python list) after a comma, or a second shell word.  The result must read back
as exactly the intended strings, so an edit is offered only when each part can
be written in the element's quoting without escapes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from linter.diagnostic import Edit
from linter.kinds import EditStyle, edit_style
from linter.launch import Launch, Span, Token
from linter.lazy_re import lazy_re
from linter.source_file import SourceFile

_SHELL_SAFE = lazy_re(r"^[A-Za-z0-9_./:=,@%+-]+$")
_YAML_INDICATORS = tuple("?:,[]{}#&*!|>'\"%@`")
# YAML 1.1 plain scalars that do not load as strings (numbers, booleans, null)
_YAML_NOT_STRING = lazy_re(r"^(?:[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0x[0-9a-fA-F_]+|0o?[0-7_]+|(?i:true|false|yes|no|on|off|y|n|null)|~)$")


def _quote(raw: str) -> str:
    return raw[0] if raw[:1] in ("'", '"') and len(raw) >= 2 and raw[-1] == raw[0] else ""


def _writable(part: str, quote: str, style: EditStyle) -> bool:
    """Whether ``part`` reads back as itself when written between ``quote`` characters."""
    if not part:
        return False
    if quote == '"':
        bad = '"\\$`' if style == "words" else '"\\'
        return not any(c in part for c in bad)
    if quote == "'":
        return "'" not in part and (style != "python-items" or "\\" not in part)
    if style == "words":
        return bool(_SHELL_SAFE.match(part))
    if style in ("python-items", "json-items"):
        return False  # string literals and JSON strings are always quoted
    return bool(_SHELL_SAFE.match(part)) and not part.startswith(_YAML_INDICATORS) and not _YAML_NOT_STRING.match(part)


def split_element(src: SourceFile, launch: Launch, tok: Token, parts: tuple[str, str]) -> Edit | None:
    """An edit that writes ``tok`` as the two elements ``parts``, in the token's own style.

    None when the token is not written verbatim, the launch is not editable, or
    the parts cannot be written in the token's quoting without escapes.
    """
    if tok.value_start is None or not launch.editable or tok.is_opaque:
        return None
    raw = src.text[tok.span.start : tok.span.end]
    quote = _quote(raw)
    inner = raw[1:-1] if quote else raw
    if inner != tok.value:
        return None
    # a word of a shell command line, in a script or embedded in YAML, a Dockerfile or a Python string
    style = "words" if launch.shell_words else edit_style(launch.kind)
    if style is None:
        return None  # a kind whose elements are never split (a --config file's values)
    written = []
    for p in parts:
        if _writable(p, quote, style):
            written.append(quote + p + quote)
        elif not quote and style != "words" and _writable(p, '"', style):
            written.append('"' + p + '"')  # a YAML plain `8192` would load as a number: quote it
        else:
            return None
    a, b = written
    if style == "words":
        return Edit(tok.span, f"{a} {b}")
    line_start = src.text.rfind("\n", 0, tok.span.start) + 1
    before = src.text[line_start : tok.span.start]
    if re.fullmatch(r"\s*-\s+", before):  # a YAML block sequence item: a new item below, same indentation
        after = src.text[tok.span.end : src.text.find("\n", tok.span.end) if "\n" in src.text[tok.span.end :] else len(src.text)]
        if after.strip() and not after.lstrip().startswith("#"):
            return None
        newline = "\r\n" if src.text[tok.span.end :].startswith("\r\n") or src.text[line_start - 2 : line_start] == "\r\n" else "\n"
        return Edit(tok.span, f"{a}{newline}{before}{b}")
    prev = src.text[: tok.span.start].rstrip()
    if prev.endswith(("[", ",")):  # a flow list (YAML, JSON exec form, Python list)
        return Edit(tok.span, f"{a}, {b}")
    return None


# -- deleting an option ---------------------------------------------------------
_HSPACE = " \t"


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_end(text: str, pos: int) -> int:
    """The offset just past the newline that ends the line holding ``pos`` (or the text's end)."""
    nl = text.find("\n", pos)
    return len(text) if nl == -1 else nl + 1


def _rest_is_comment(rest: str) -> bool:
    stripped = rest.strip()
    return not stripped or stripped.startswith("#")


def delete_span(text: str, start: int, end: int, style: EditStyle | None, *, words: bool, folds: Sequence[Span] = ()) -> Edit | None:
    """One edit that deletes ``text[start:end]`` (an option and its values, whole tokens) with its
    separator, so what is left reads as the same list without them.

    ``words``: the tokens are words of one command line (a shell script, a YAML string, a compose
    command string): the spaces around go, and so does a line made empty, including a ``\\``
    continuation that would be left dangling.  ``folds``: file ranges of YAML scalars whose
    line breaks read as spaces (a folded ``>`` block, a plain scalar over several lines); a
    line there of nothing but the tokens goes whole, since the lines around it still fold
    into one command line.  Otherwise the tokens are items of a YAML block
    sequence (their lines go), of a flow list, a Python call or dict, or a JSON array (the comma
    after, or the one before the last item, goes), or a key of a YAML mapping (its lines go).
    None when the surroundings are none of these.
    """
    ls, le = _line_start(text, start), _line_end(text, end)
    left, right = text[ls:start], text[end:le].rstrip("\r\n")
    if words:
        if not left.strip(" \t") and right.strip(_HSPACE) == "\\":
            return Edit(Span(ls, le), "")  # `  --swap-space 4 \` on its own line
        if not left.strip(" \t") and not right.strip(_HSPACE):
            # the last words of a continued command: drop the ` \` that ends the line before
            prev_end = ls - 1
            if prev_end > 0:
                prev = text[_line_start(text, prev_end) : prev_end].rstrip("\r")
                if prev.rstrip(_HSPACE).endswith("\\"):
                    cut = _line_start(text, prev_end) + len(prev.rstrip(_HSPACE)) - 1
                    while cut > 0 and text[cut - 1] in _HSPACE:
                        cut -= 1
                    return Edit(Span(cut, end), "")
            if any(f.start < ls and le <= f.end + 1 for f in folds):
                return Edit(Span(ls, le), "")  # a line of a folded scalar: the lines around still join
            return None  # a command line made of nothing but the option: not ours to empty
        before = len(left) - len(left.rstrip(_HSPACE))
        after = len(right) - len(right.lstrip(_HSPACE))
        if not left.strip(_HSPACE):
            # the first words of their line: the spaces before them are the line's indentation,
            # which a YAML block scalar (`run: |`, `command: >`) needs, so the spaces after go
            return Edit(Span(start, end + after), "")
        if before:
            return Edit(Span(start - before, end), "")
        if after:
            return Edit(Span(start, end + after), "")
        return None
    # a YAML block sequence item (`- --swap-space`), or a key of a block mapping
    if re.fullmatch(r"[ \t]*(?:-[ \t]+)?", left) and _rest_is_comment(right):
        in_flow = text[end:].lstrip(" \t\r\n").startswith((",", "]", "}", ")")) or text[:start].rstrip().endswith((",", "[", "{", "("))
        if not in_flow and style != "python-items":
            return Edit(Span(ls, le), "")
    # an item of a comma-separated list: the comma after it, or the one before the last item
    j = end
    while j < len(text) and text[j] in " \t\r\n":
        j += 1
    if j < len(text) and text[j] == ",":
        j += 1
        while j < len(text) and text[j] in _HSPACE:
            j += 1
        if not left.strip() and (j >= len(text) or text[j] in "\r\n#"):
            return Edit(Span(ls, _line_end(text, j)), "")  # the item alone on its line: the line goes
        while j < len(text) and text[j] in " \t\r\n":
            j += 1
        return Edit(Span(start, j), "")
    i = start
    while i > 0 and text[i - 1] in " \t\r\n":
        i -= 1
    if i > 0 and text[i - 1] == ",":
        return Edit(Span(i - 1, end), "")
    if i > 0 and text[i - 1] in "[({":
        return Edit(Span(i, j), "")  # the only item: the brackets stay
    return None


def delete_tokens(src: SourceFile, launch: Launch, tokens: list[Token], *, words: bool) -> Edit | None:
    """Delete consecutive argv ``tokens`` (an option and its values) of ``launch`` from the file."""
    if not tokens or not launch.editable or any(t.splat or t.value_start is None for t in tokens):
        return None
    start = min(t.span.start for t in tokens)
    end = max(t.span.end for t in tokens)
    return delete_span(src.text, start, end, _style(launch), words=words, folds=launch.folds)


def _style(launch: Launch) -> EditStyle | None:
    return "words" if launch.shell_words else edit_style(launch.kind)


def _words(src: SourceFile, launch: Launch, tok: Token) -> bool:
    """Whether ``tok`` is a word of a command line (rather than an item of a list)."""
    style = _style(launch)
    if style == "words":
        return True
    if style in ("python-items", "json-items"):
        return False  # argv lists and exec forms; their command strings are shell words
    text = src.text
    left = text[_line_start(text, tok.span.start) : tok.span.start]
    if re.fullmatch(r"[ \t]*-[ \t]+", left) or text[: tok.span.start].rstrip().endswith(("[", ",")):
        return False
    return not text[tok.span.end :].lstrip(" \t\r\n").startswith((",", "]"))


def delete_option(src: SourceFile, parsed, opt) -> Edit | None:
    """One edit deleting ``opt`` (a :class:`linter.argmodel.ParsedOption` of ``parsed``) and its
    values from the file, in the launch's own syntax; None when that cannot be done exactly."""
    launch = parsed.launch
    if opt.from_config or not launch.editable or opt.name.opaque and opt.setting is None:
        return None
    if opt.setting is not None:  # a Python keyword, a --config key
        s = opt.setting
        if s.name.is_opaque or s.name.value_start is None:
            return None
        end = s.value.span.end if s.value is not None else s.name.span.end
        edit = delete_span(src.text, s.name.span.start, end, _style(launch), words=False)
        return _keep_a_mapping(src.text, s.name.span.start, end, edit, _style(launch))
    tokens: list[Token] = []
    for item in (opt.name, *opt.values):
        if item.token is None or item.splat:
            return None
        if not any(t is item.token for t in tokens):
            tokens.append(item.token)
    # every other reading of these tokens (another option, a positional) would go with them
    others = [o.name for o in parsed.options if o is not opt] + [v for o in parsed.options if o is not opt for v in o.values] + list(parsed.positionals)
    if any(it.token is t for it in others for t in tokens):
        return None
    where = [next((i for i, a in enumerate(launch.args) if a is t), None) for t in tokens]
    if None in where or sorted(where) != list(range(min(where), min(where) + len(where))):  # type: ignore[type-var, arg-type]
        return None
    following = max(where) + 1  # type: ignore[type-var, arg-type]
    if opt.spec is None and not opt.values and following < len(launch.args) and launch.args[following].splat:
        # an option this release does not know (a removed one) before an unquoted variable
        # (``--swap-space ${SWAP:-4}``): the variable may be its value, which would stay behind
        return None
    return delete_tokens(src, launch, tokens, words=_words(src, launch, tokens[0]))


def _keep_a_mapping(text: str, start: int, end: int, edit: Edit | None, style: EditStyle | None) -> Edit | None:
    """``edit``, unless it deletes the lines of the only key of a YAML block mapping (the last
    option of a ``--config`` file, of an ``engine_kwargs``): then the key and its value become
    ``{}``, so the mapping stays one.  An emptied config file is no YAML document at all, which
    vLLM's ``load_config_file`` cannot read (0.33.0, vllm/utils/argparse_utils.py L645 and L653:
    ``yaml.safe_load`` gives None, then ``config.items()``), and an emptied ``engine_kwargs:`` is
    null, not a mapping."""
    if edit is None or edit.content or style in ("python-items", "json-items"):
        return edit
    ls, le = _line_start(text, start), _line_end(text, end)
    if edit.span != Span(ls, le) or not text.startswith(":", _key_end(text, start)):
        return edit
    indent = text[ls:start]
    if not re.fullmatch(r"[ \t]*", indent) or _key_sibling(text, ls, le, indent):
        return edit
    return Edit(Span(start, end), "{}")


_PLAIN_KEY = lazy_re(r"[^:\s#]+(?:[ \t]+[^:\s#]+)*")


def _key_end(text: str, start: int) -> int:
    """Where the plain key starting at ``start`` ends (before its ``:``)."""
    m = _PLAIN_KEY.match(text, start)
    return m.end() if m else start


# -- moving an environment variable to an option -------------------------------------


def _sibling(text: str, ls: int, le: int, prefix: str) -> bool:
    """Another entry beside ``text[ls:le]`` starts with ``prefix`` at the same indentation (lines
    indented deeper belong to an entry): the list or mapping keeps an entry when those lines go."""
    depth = len(prefix) - len(prefix.lstrip(" \t"))

    def scan(lines) -> bool:
        for line in lines:
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if line.startswith(prefix):
                return True
            if len(line) - len(line.lstrip(" \t")) <= depth:
                return False
        return False

    return scan(reversed(text[:ls].split("\n")[:-1])) or scan(text[le:].split("\n"))


def _key_sibling(text: str, ls: int, le: int, indent: str) -> bool:
    """Another key of the same block mapping beside ``text[ls:le]``."""
    for lines in (reversed(text[:ls].split("\n")[:-1]), text[le:].split("\n")):
        for line in lines:
            if not line.strip() or line.strip().startswith("#"):
                continue
            if line.startswith(indent) and line[len(indent) : len(indent) + 1] not in (" ", "\t", "-"):
                return True
            if len(line) - len(line.lstrip(" \t")) <= len(indent):
                break
    return False


def delete_env(src: SourceFile, launch: Launch, var) -> Edit | None:
    """An edit deleting the assignment of ``var`` (a :class:`linter.launch.EnvVar` of
    ``launch``) where it is written: a Kubernetes ``- name: X`` / ``value: Y`` item, a compose
    ``- X=Y`` item or ``X: Y`` key, a shell ``export X=Y`` line or ``X=Y`` prefix of the
    command, a Dockerfile ``ENV`` entry (the instruction, when it is its only one).  None when
    the assignment shares its line with other text, is not written out verbatim, or is the only
    entry of its YAML list or mapping."""
    if var.value is None or var.name.value_start is None or var.value.value_start is None or var.name.is_opaque:
        return None
    text = src.text
    n, v = var.name.span, var.value.span
    if v.start < n.end:
        return None
    ls, le = _line_start(text, n.start), _line_end(text, v.end)
    left, between = text[ls : n.start], text[n.end : v.start]
    right = text[v.end : le].rstrip("\r\n")
    quoted_end = re.fullmatch(r"[\"']?[ \t]*(?:#.*)?", right) is not None
    file_style = edit_style(launch.kind)  # where the assignment is written: the file's own syntax
    if file_style == "json-items":
        return _delete_env_entry(text, n.start, v.end)
    if file_style == "words":
        if re.fullmatch(r"[ \t]*(?:export[ \t]+)?", left) and between == "=" and not right.strip():
            return Edit(Span(ls, le), "")
        if between == "=" and right[:1] in (" ", "\t") and right.strip() and not right.strip().startswith(("&", "|", ";")):
            gap = len(right) - len(right.lstrip(_HSPACE))
            return Edit(Span(n.start, v.end + gap), "")
        return None
    m = re.fullmatch(r"([ \t]*)-[ \t]+name:[ \t]*[\"']?", left)
    if m and re.fullmatch(r"[\"']?[ \t]*\r?\n[ \t]+value:[ \t]*[\"']?", between) and quoted_end:
        return Edit(Span(ls, le), "") if _sibling(text, ls, le, m.group(1) + "- ") else None
    m = re.fullmatch(r"([ \t]*)-[ \t]+[\"']?", left)
    if m and between == "=" and quoted_end:
        return Edit(Span(ls, le), "") if _sibling(text, ls, le, m.group(1) + "- ") else None
    m = re.fullmatch(r"([ \t]*)[\"']?", left)
    if m and re.fullmatch(r"[\"']?:[ \t]*[\"']?", between) and quoted_end:
        indent = m.group(1)
        return Edit(Span(ls, le), "") if indent and _key_sibling(text, ls, le, indent) else None
    return None


def _delete_env_entry(text: str, start: int, end: int) -> Edit | None:
    """The edit deleting the Dockerfile ``ENV`` entry ``text[start:end]`` (``NAME=value``, or a
    legacy ``NAME value``): the whole instruction when it is its only entry (its lines go), else
    the entry with its separator, a ``\\`` continuation included (as shell words)."""
    from linter.sources.dockerfile_grammar import env_instruction_at  # not the reader: a new target reads none

    found = env_instruction_at(text, start)
    if found is None:
        return None
    instr, pairs = found
    pair = next((p for p in pairs if p.start <= start and end <= p.end), None)
    if pair is None:
        return None
    if len(pairs) > 1:
        joined = re.match(r"[ \t]*\\\r?\n[ \t]*", text[pair.end :]) if pair is pairs[0] else None
        if joined:  # `ENV X=1 \` with the others below: they move up behind `ENV `
            return Edit(Span(pair.start, pair.end + joined.end()), "")
        return delete_span(text, pair.start, pair.end, "words", words=True)
    ls, le = _line_start(text, instr.start), _line_end(text, instr.end)
    if text[ls : instr.start].strip(_HSPACE) or text[instr.end : le].strip():
        return None
    return Edit(Span(ls, le), "")


def append_args(src: SourceFile, launch: Launch, parts: tuple[str, ...]) -> Edit | None:
    """An edit adding the argv strings ``parts`` at the end of ``launch``'s arguments, written as
    its last argument is (another shell word, list item or flow item, in the same quoting)."""
    if launch.style != "argv" or not launch.args or not launch.editable:
        return None
    tok = launch.args[-1]
    if tok.value_start is None or tok.splat:
        return None
    text = src.text
    raw = text[tok.span.start : tok.span.end]
    quote = _quote(raw)
    words = _words(src, launch, tok)
    style = "words" if words else _style(launch)
    if style is None:
        return None
    written = []
    for p in parts:
        if _writable(p, quote, style):
            written.append(quote + p + quote)
        elif not quote and not words and _writable(p, '"', style):
            written.append('"' + p + '"')
        else:
            return None
    if words:
        return Edit(Span(tok.span.end, tok.span.end), "".join(" " + w for w in written))
    ls = _line_start(text, tok.span.start)
    before = text[ls : tok.span.start]
    if re.fullmatch(r"[ \t]*-[ \t]+", before):
        le = _line_end(text, tok.span.end)
        rest = text[tok.span.end : le].rstrip("\r\n")
        if rest.strip():
            return None
        newline = "\r\n" if text[tok.span.end : le].endswith("\r\n") else "\n"
        at = tok.span.end + len(rest)
        return Edit(Span(at, at), "".join(f"{newline}{before}{w}" for w in written))
    if text[: tok.span.start].rstrip().endswith(("[", ",")):
        return Edit(Span(tok.span.end, tok.span.end), "".join(f", {w}" for w in written))
    return None
