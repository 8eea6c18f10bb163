"""Dockerfiles: the vLLM start of the final stage, build-time ``RUN`` starts, release pins.

Parsed with tree-sitter-dockerfile.  ``CMD``/``ENTRYPOINT`` exec forms are JSON
arrays whose strings are decoded exactly (escapes included) with their places in
the file; shell forms, ``RUN`` lines and ``sh -c`` strings go to
:func:`linter.sources.shell.extract_script` through an :class:`OffsetMap` that
drops line continuations and comment lines the way Docker does.

When the final stage's base image is a vLLM image and no ``ENTRYPOINT`` is set,
``CMD`` is the argv of the image's entrypoint (``image_entrypoint=True``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

import tree_sitter as _ts

from linter.launch import EnvVar, Launch, Span, VersionHint
from linter.offset_map import OffsetMap
from linter.records import Record
from linter.source_file import SourceFile
from linter.sources import Comment, Extraction, Problem, char_offsets, commands, masked_stretch, shell, shifted
from linter.sources.dockerfile_grammar import LANGUAGE as _LANGUAGE
from linter.sources.placed import PlacedText
from linter.sources.words import SHELLS, kept_env, shell_script_index

__all__ = ["extract"]

INSTRUCTIONS = frozenset(
    "FROM RUN CMD LABEL MAINTAINER EXPOSE ENV ADD COPY ENTRYPOINT VOLUME USER WORKDIR ARG ONBUILD "
    "STOPSIGNAL HEALTHCHECK SHELL".split()
)


_HEREDOC_ONLY = re.compile(r"<<-?\s*(['\"]?)[A-Za-z_][A-Za-z0-9_]*\1")

# A decoded string with the file offset of each verbatim run (escapes have none).
_Val = PlacedText


# ``VLLM_*`` variables that vLLM's own build reads and its runtime does not (vllm/envs.py
# lists the others): setup.py, CMakeLists.txt and cmake/*.cmake of the 0.11.0 and 0.33.0
# sdists (``$ENV{...}``, ``os.getenv``/``os.environ``; e.g. 0.33.0 setup.py L65
# VLLM_USE_PRECOMPILED_RUST, cmake/cpu_extension.cmake L17 VLLM_CPU_X86, 0.11.0
# cmake/cpu_extension.cmake VLLM_CPU_DISABLE_AVX512).  In a Dockerfile that builds vLLM
# they are build settings, not the server's environment.
VLLM_BUILD_ENV = frozenset(
    """VLLM_CPU_ARM_BF16 VLLM_CPU_ARM_I8MM VLLM_CPU_AVX512BF16 VLLM_CPU_AVX512VNNI VLLM_CPU_DISABLE_AVX512
    VLLM_CPU_RVV_BF16 VLLM_CPU_X86 VLLM_CUTLASS_SRC_DIR VLLM_DISABLE_SCCACHE VLLM_DOCKER_BUILD_CONTEXT
    VLLM_FLASH_ATTN_SRC_DIR VLLM_KERNEL_SYMBOL_MAP VLLM_MAIN_CUDA_VERSION VLLM_PRECOMPILED_WHEEL_COMMIT
    VLLM_PRECOMPILED_WHEEL_LOCATION VLLM_PRECOMPILED_WHEEL_VARIANT VLLM_REQUIRE_RUST_FRONTEND
    VLLM_SKIP_PRECOMPILED_VERSION_SUFFIX VLLM_SKIP_VERSION_SUFFIX VLLM_TARGET_DEVICE
    VLLM_TEST_USE_PRECOMPILED_NIGHTLY_WHEEL VLLM_USE_PRECOMPILED VLLM_USE_PRECOMPILED_RUST
    VLLM_VERSION_OVERRIDE""".split()
)
# A RUN that builds vLLM from source: its setup.py, a pip/uv install of a source tree,
# or a clone of vLLM's repository.
_BUILDS_VLLM = re.compile(
    r"setup\.py\s+(bdist_wheel|develop|install|build_ext)"
    r"|\b(pip3?|uv\s+pip)\s+install\b[^\n]*?\s(-e\s+)?\.(/)?(\s|$|\[)"
    r"|\bpython3?\s+-m\s+build\b|github\.com/vllm-project/vllm(\.git)?(\s|$)",
    re.MULTILINE,
)


class _Form(Record):
    """A CMD/ENTRYPOINT/RUN body: exec form (strings) or shell form (a script)."""

    __slots__ = ("exec_words", "script", "span", "keyword")

    exec_words: list[_Val] | None
    script: _Val | None
    span: Span
    keyword: str

    def __init__(self, exec_words, script, span, keyword):
        self.exec_words = exec_words
        self.script = script
        self.span = span
        self.keyword = keyword


class _Stage(Record):
    __slots__ = ("base", "image", "alias", "span", "parent", "env", "cmd", "entrypoint", "entrypoint_set", "shell", "pin")

    base: str
    image: _Val | None
    alias: str | None
    span: Span
    parent: _Stage | None
    env: list[EnvVar]
    cmd: _Form | None
    entrypoint: _Form | None
    entrypoint_set: bool
    shell: list[str] | None
    pin: VersionHint | None

    def __init__(self, base, image, alias, span, parent=None, env=None, cmd=None, entrypoint=None, entrypoint_set=False, shell=None, pin=None):
        self.base = base
        self.image = image
        self.alias = alias
        self.span = span
        self.parent = parent
        self.env = ([] if env is None else env)
        self.cmd = cmd
        self.entrypoint = entrypoint
        self.entrypoint_set = entrypoint_set
        self.shell = shell
        self.pin = pin


class _Dockerfile:
    def __init__(self, src: SourceFile) -> None:
        self.src = src
        self.out = Extraction()
        text = src.text
        self.escape = _escape_char(text)
        # Parse text: same length as the file; \r and a backtick escape made digestible.
        chars = list(text)
        _normalise_continuations(chars, text, self.escape)
        _mask_for_grammar(chars)
        self.ptext = "".join(chars)
        self.global_args: dict[str, _Val] = {}
        self.stage_args: dict[str, _Val] = {}
        self.stages: list[_Stage] = []
        self.builds_vllm = bool(_BUILDS_VLLM.search(text))
        self.manual: list[tuple[str, int, int, int]] = []  # (keyword, line start, rest start, end)

    # -- positions ---------------------------------------------------------

    def _set_text(self, text: str) -> None:
        self.data = text.encode("utf-8", "surrogatepass")
        if len(self.data) != len(text):
            b2c = [0] * (len(self.data) + 1)
            b = 0
            for k, ch in enumerate(text):
                n = len(ch.encode("utf-8", "surrogatepass"))
                for j in range(n):
                    b2c[b + j] = k
                b += n
            b2c[len(self.data)] = len(text)
            self.b2c: list[int] | None = b2c
        else:
            self.b2c = None

    def c(self, byte: int) -> int:
        return byte if self.b2c is None else self.b2c[byte]

    def span(self, node: _ts.Node) -> Span:
        n = len(self.src.text)
        a, b = min(self.c(node.start_byte), n), min(self.c(node.end_byte), n)
        while b > a and self.src.text[b - 1] in "\r\n":
            b -= 1
        return Span(a, b)

    def t(self, node: _ts.Node) -> str:
        return self.src.text[self.c(node.start_byte) : self.c(node.end_byte)]

    # -- parsing with recovery --------------------------------------------

    def parse(self) -> _ts.Node:
        parser = _ts.Parser(_LANGUAGE)
        masked = list(self.ptext)
        tree = None
        for _ in range(50):
            text = "".join(masked)
            # the grammar wants a final newline (Docker does not); one more character at the end
            self._set_text(text if text.endswith("\n") else text + "\n")
            tree = parser.parse(self.data)
            root = tree.root_node
            if not root.has_error:
                break
            progressed = False
            for err in _errors(root):
                if err.is_missing:
                    continue
                start = self.c(err.start_byte)
                line_start = text.rfind("\n", 0, start) + 1
                end = self._logical_end(text, line_start)
                if not text[line_start:end].strip():
                    continue
                self._note_error(text, line_start, end)
                for k in range(line_start, end):
                    if masked[k] != "\n":
                        masked[k] = " "
                progressed = True
                break  # reparse after each masked line: the rest may now parse
            if not progressed:
                break
        assert tree is not None
        for err in _errors(tree.root_node):
            sp = self.span(err)
            msg = f"dockerfile parse error: missing {err.type!r}" if err.is_missing else "dockerfile parse error"
            self.out.problems.append(Problem(sp, msg))
        return tree.root_node

    def _logical_end(self, text: str, line_start: int) -> int:
        """End of the logical line starting at ``line_start`` (continuations followed)."""
        k = line_start
        n = len(text)
        while True:
            nl = text.find("\n", k)
            if nl == -1:
                return n
            line = text[k:nl].rstrip(" \t\r")
            if line.endswith("\\") and not text[k:nl].lstrip().startswith("#"):
                k = nl + 1
                # comment lines inside a continuation belong to it
                continue
            if text[k:nl].lstrip().startswith("#") and k != line_start:
                k = nl + 1
                continue
            return nl

    def _note_error(self, text: str, line_start: int, end: int) -> None:
        line = text[line_start:end]
        stripped = line.lstrip()
        word = stripped.split(None, 1)[0] if stripped.split() else ""
        kw_start = line_start + (len(line) - len(stripped))
        span = Span(kw_start, kw_start + len(word))
        upper = word.upper()
        if upper not in INSTRUCTIONS:
            self.out.problems.append(Problem(span, f"unknown Dockerfile instruction {word!r}"))
            return
        rest = kw_start + len(word)
        while rest < end and text[rest] in " \t":
            rest += 1
        if upper == "ARG":
            # ``ARG A=1 B=2`` (several names in one instruction) is valid; the grammar reads one
            self.manual.append((upper, line_start, rest, end))
            return
        if upper in ("ENV", "CMD", "ENTRYPOINT", "RUN"):
            self.manual.append((upper, line_start, rest, end))
            if upper != "ENV" and text[rest : rest + 1] == "[" and "vllm" in text[rest:end].lower():
                # not JSON: Docker runs it with /bin/sh -c; a choice, unless it was meant as
                # a vLLM argv (then the argv is lost)
                self.out.problems.append(
                    Problem(Span(rest, end), f"{upper} is not a valid JSON array; Docker runs it with /bin/sh -c")
                )
            return
        if upper in ("FROM", "SHELL"):
            # a stage or the shell its commands run in is lost; an unreadable COPY, LABEL,
            # HEALTHCHECK ... (``COPY --parents``, newer flags) holds no launch
            self.out.problems.append(Problem(Span(line_start, end), f"dockerfile parse error in {upper}"))

    # -- values ------------------------------------------------------------

    def raw(self, start: int, end: int, *, drop_comments: bool = True) -> _Val:
        """Text of an instruction's body with Docker's line continuations (and comment lines) removed."""
        v = _Val(start=start, end=end)
        text = self.src.text
        esc = self.escape
        k = start
        while k < end:
            nl = text.find("\n", k, end)
            line_end = end if nl == -1 else nl + 1
            body_end = line_end
            continued = False
            # ``ESC [blanks] [\r] \n`` continues the line: the escape and the break are dropped
            j = (nl if nl != -1 else end) - 1
            if nl != -1:
                if j >= k and text[j] == "\r":
                    j -= 1
                while j >= k and text[j] in " \t":
                    j -= 1
                if j >= k and text[j] == esc:
                    body_end, continued = j, True
            if not continued and nl != -1 and nl > k and text[nl - 1] == "\r":
                v.lit(text[k : nl - 1], k)  # CRLF: the \r is dropped, the \n kept
                v.lit("\n", nl)
            else:
                v.lit(text[k:body_end], k)
            k = line_end
            if not continued:
                continue
            # lines inside a continuation: comment lines and empty lines are skipped
            while drop_comments and k < end:
                j = k
                while j < end and text[j] in " \t":
                    j += 1
                if j < end and text[j] in "#\r\n":
                    nl2 = text.find("\n", j, end)
                    k = end if nl2 == -1 else nl2 + 1
                    continue
                break
        return v

    def json_string(self, node: _ts.Node) -> _Val:
        sp = self.span(node)
        v = _Val(start=sp.start, end=sp.end, anchor=sp.start + 1)
        text = self.src.text
        k, end = sp.start + 1, sp.end - 1
        while k < end:
            ch = text[k]
            if ch != "\\" or k + 1 >= end:
                j = text.find("\\", k + 1, end)
                j = end if j == -1 else j
                v.lit(text[k:j], k)
                k = j
                continue
            nxt = text[k + 1]
            simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
            if nxt in simple:
                v.put(simple[nxt], None)
                k += 2
                continue
            if nxt == "u" and k + 6 <= end:
                try:
                    code = int(text[k + 2 : k + 6], 16)
                except ValueError:
                    v.put(ch, k)
                    k += 1
                    continue
                k += 6
                if 0xD800 <= code < 0xDC00 and text[k : k + 2] == "\\u" and k + 6 <= end:
                    try:
                        low = int(text[k + 2 : k + 6], 16)
                    except ValueError:
                        low = 0
                    if 0xDC00 <= low < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        k += 6
                v.put(chr(code), None)
                continue
            v.put(ch, k)
            k += 1
        return v

    def plain(self, node: _ts.Node, *, unquote: bool = True) -> _Val:
        """An ENV/ARG value or a name: quotes removed, backslash escapes undone, ``$VAR`` opaque."""
        sp = self.span(node)
        return self.plain_range(sp.start, sp.end, unquote=unquote)

    def blank_separated(self, start: int, end: int) -> list[tuple[int, int]]:
        """The words of ``text[start:end]`` split at blanks outside quotes (escapes and line continuations kept in)."""
        text = self.src.text
        out: list[tuple[int, int]] = []
        k, a, quote = start, None, None
        while k < end:
            ch = text[k]
            if quote is None and ch in " \t\r\n":
                if a is not None:
                    out.append((a, k))
                    a = None
                k += 1
                continue
            if a is None:
                a = k
            if ch == self.escape and quote != "'" and k + 1 < end:
                k += 2
                continue
            if quote is None and ch in "\"'":
                quote = ch
            elif ch == quote:
                quote = None
            k += 1
        if a is not None:
            out.append((a, end))
        return out

    def plain_range(self, start: int, end: int, *, unquote: bool = True) -> _Val:
        text = self.src.text
        v = _Val(start=start, end=end)
        k = start
        quote: str | None = None
        esc = self.escape
        while k < end:
            ch = text[k]
            if unquote and quote is None and ch in "\"'":
                quote = ch
                if v.anchor is None and not len(v):
                    v.anchor = k + 1
                k += 1
                continue
            if quote is not None and ch == quote:
                quote = None
                k += 1
                continue
            if ch == esc and quote != "'" and k + 1 < end:
                nxt = text[k + 1]
                if nxt == "\n" or (nxt == "\r" and text[k + 2 : k + 3] == "\n"):
                    k += 2 if nxt == "\n" else 3
                    while k < end and text[k] in " \t":
                        k += 1
                    continue
                v.put(nxt, k + 1)
                k += 2
                continue
            if ch == "$" and quote != "'" and k + 1 < end and (text[k + 1] == "{" or text[k + 1].isalpha() or text[k + 1] == "_"):
                j = k + 1
                if text[j] == "{":
                    close = text.find("}", j)
                    j = end if close == -1 or close >= end else close + 1
                else:
                    while j < end and (text[j].isalnum() or text[j] == "_"):
                        j += 1
                v.unknown(text[k:j], k)
                k = j
                continue
            v.put(ch, k)
            k += 1
        return v

    # -- instructions ------------------------------------------------------

    def form(self, node: _ts.Node, keyword: str) -> _Form | None:
        for c in node.named_children:
            if c.type == "json_string_array":
                words = [self.json_string(s) for s in c.named_children if s.type == "json_string"]
                return _Form(words, None, self.span(node), keyword)
            if c.type == "shell_command":
                sp = self.span(c)
                end = sp.end
                blocks = [h for h in node.named_children if h.type == "heredoc_block"]
                if blocks and _HEREDOC_ONLY.fullmatch(self.t(c).strip()):
                    # ``RUN <<EOF``: the heredoc body is the script (``RUN <<EOF python3`` or
                    # ``RUN python3 <<EOF`` is a command fed by the heredoc: read below as shell)
                    return _Form(None, self.heredoc_body(blocks[0]), self.span(node), keyword)
                if blocks:
                    end = self.span(blocks[-1]).end
                return _Form(None, self.raw(sp.start, end, drop_comments=not blocks), self.span(node), keyword)
        return None

    def heredoc_body(self, block: _ts.Node) -> _Val:
        """The text of a heredoc block between its marker's line and its end word."""
        bs = self.span(block)
        body_start = self.src.text.find("\n", bs.start, bs.end) + 1 or bs.start
        body_end = bs.end
        for h in block.named_children:
            if h.type == "heredoc_end":
                body_end = self.span(h).start
        v = _Val(start=body_start, end=body_end)
        v.lit(self.src.text[body_start:body_end], body_start)
        return v

    def copied_script(self, stage: _Stage, node: _ts.Node) -> None:
        """``COPY <<EOF /start.sh``: a shell script written into the image (its launches are read)."""
        blocks = [h for h in node.named_children if h.type == "heredoc_block"]
        paths = [self.t(c) for c in node.named_children if c.type == "path" and not any(g.type == "heredoc_marker" for g in c.named_children)]
        if len(blocks) != 1 or not paths:
            return
        body = self.heredoc_body(blocks[0])
        first = body.value.split("\n", 1)[0]
        shebang = first.startswith("#!") and any(posixpath.basename(w) in SHELLS for w in first[2:].split()[:2])
        if shebang or paths[-1].strip("\"'").endswith(shell.SCRIPT_SUFFIXES):
            self.script(stage, body, self.span(node))

    def run(self) -> Extraction:
        root = self.parse()

        self.out.comments = tree_comments(self.src.text, root, self.c)
        stage: _Stage | None = None
        items: list[tuple[int, str, object]] = []
        for node in root.named_children:
            items.append((self.c(node.start_byte), "node", node))
        for m in self.manual:
            items.append((m[1], "manual", m))
        items.sort(key=lambda x: x[0])
        for _, what, obj in items:
            if what == "manual":
                kw, line_start, rest, end = obj  # type: ignore[misc]
                stage = self.manual_instruction(stage, kw, line_start, rest, end)
                continue
            node: _ts.Node = obj  # type: ignore[assignment]
            t = node.type
            if t == "from_instruction":
                stage = self.from_(node)
            elif t == "arg_instruction":
                self.arg(node, stage)
            elif stage is None:
                continue
            elif t == "env_instruction":
                for pair in node.named_children:
                    if pair.type == "env_pair":
                        self.env_pair(stage, pair)
            elif t == "cmd_instruction":
                stage.cmd = self.form(node, "CMD")
            elif t == "entrypoint_instruction":
                stage.entrypoint = self.form(node, "ENTRYPOINT")
                stage.entrypoint_set = True
                stage.cmd = None  # an ENTRYPOINT resets the CMD inherited from the base
            elif t == "run_instruction":
                f = self.form(node, "RUN")
                if f is not None:
                    self.run_form(stage, f)
            elif t in ("copy_instruction", "add_instruction"):
                self.copied_script(stage, node)
            elif t == "shell_instruction":
                for c in node.named_children:
                    if c.type == "json_string_array":
                        stage.shell = [self.json_string(s).value for s in c.named_children if s.type == "json_string"]
        if self.stages:
            self.final(self.stages[-1])
        return self.out

    def manual_instruction(self, stage: _Stage | None, kw: str, line_start: int, rest: int, end: int) -> _Stage | None:
        if kw == "ARG":
            for a, b in self.blank_separated(rest, end):
                eq = self.src.text.find("=", a, b)
                key = self.src.text[a : b if eq == -1 else eq]
                if eq == -1:
                    if stage is not None and key in self.global_args:
                        self.stage_args[key] = self.global_args[key]
                    continue
                val = self.plain_range(eq + 1, b) if b > eq + 1 else _Val(start=b, end=b, anchor=b)
                (self.global_args if stage is None else self.stage_args)[key] = val
            return stage
        if stage is None:
            return stage
        if kw == "ENV":
            body = self.raw(rest, end)
            # legacy ``ENV name value...``: the name is the first word, the value the rest
            vals = body.value
            sp = vals.find(" ")
            if sp <= 0:
                return stage
            name = body.slice(0, sp)
            j = sp
            while j < len(vals) and vals[j] in " \t":
                j += 1
            p0 = body.omap.to_file(j) if j < len(vals) else end
            value = self.plain_range(p0 if p0 is not None else end, end, unquote=False)
            self._add_env(stage, name, value)
            return stage
        f = _Form(None, self.raw(rest, end), Span(line_start, end), kw)
        if kw == "CMD":
            stage.cmd = f
        elif kw == "ENTRYPOINT":
            stage.entrypoint = f
            stage.entrypoint_set = True
            stage.cmd = None
        else:
            self.run_form(stage, f)
        return stage

    def arg(self, node: _ts.Node, stage: _Stage | None) -> None:
        name = node.child_by_field_name("name")
        default = node.child_by_field_name("default")
        if name is None:
            return
        key = self.t(name)
        if default is None and self.t(node).rstrip(" \t\r\n").endswith("="):
            at = self.span(node).end  # ``ARG NAME=``: an empty default
            empty = _Val(start=at, end=at, anchor=at)
            if stage is None:
                self.global_args[key] = empty
            else:
                self.stage_args[key] = empty
            return
        if default is None:
            if stage is not None and key in self.global_args:
                self.stage_args[key] = self.global_args[key]
            return
        val = self.plain(default)
        if stage is None:
            self.global_args[key] = val
        else:
            self.stage_args[key] = val

    def from_(self, node: _ts.Node) -> _Stage:
        spec = None
        alias = None
        for c in node.named_children:
            if c.type == "image_spec":
                spec = c
            elif c.type == "image_alias":
                alias = self.t(c)
        image: _Val | None = None
        base = ""
        if spec is not None:
            image = self.expand(self.span(spec))
            base = image.value
        parent = None
        for st in self.stages:
            if st.alias and st.alias.lower() == base.lower():
                parent = st
        stage = _Stage(base, image if parent is None else None, alias, self.span(node), parent)
        if parent is not None:
            stage.env = list(parent.env)
            stage.cmd = parent.cmd
            stage.entrypoint = parent.entrypoint
            stage.entrypoint_set = parent.entrypoint_set
            stage.shell = parent.shell
        self.stage_args = {}
        found = commands.release_tag(base) if image is not None and not image.opaque and commands.is_vllm_image(base) else None
        if image is not None and found is not None:
            tag, off = found
            sp, ok = image.sub_span(off, off + len(tag), self.src)
            stage.pin = VersionHint(tag, sp, "dockerfile-from", ok)
            self.out.pins.append(stage.pin)
        self.stages.append(stage)
        return stage

    def expand(self, sp: Span) -> _Val:
        """A FROM reference with ``${VAR}``/``$VAR`` resolved from the global ARG defaults."""
        raw = self.plain_range(sp.start, sp.end)
        if not raw.opaque:
            return raw
        out = _Val(start=sp.start, end=sp.end)
        k = 0
        for a, b in sorted(raw.opaque):
            out.extend(raw.slice(k, a))
            ref = raw.value[a:b]
            name = ref[2:-1] if ref.startswith("${") else ref[1:]
            default = None
            for op in (":-", "-"):
                if op in name:
                    name, default = name.split(op, 1)
                    break
            val = self.global_args.get(name)
            if val is not None and not val.opaque:
                out.extend(val)
            elif default is not None and "$" not in default:
                # ``${BASE:-vllm/vllm-openai:v0.10.0}`` with BASE unset: the default, as written
                off = a + ref.index(default) if default else a
                at = raw.omap.to_file(off) if default else None
                if at is not None and self.src.text[at : at + len(default)] == default:
                    out.lit(default, at)
                else:
                    out.extend(raw.slice(off, off + len(default)))
            else:
                piece = raw.slice(a, b)
                out.unknown(piece.value, piece.omap.to_file(0))
            k = b
        out.extend(raw.slice(k, len(raw)))
        out.opaque = [o for o in out.opaque if o[1] > o[0]]
        return out

    def env_pair(self, stage: _Stage, pair: _ts.Node) -> None:
        name = pair.child_by_field_name("name")
        value = pair.child_by_field_name("value")
        if name is None:
            return
        nv = self.plain(name)
        if value is not None:
            vv = self.plain(value)
        else:
            end = self.span(pair).end
            vv = _Val(start=end, end=end, anchor=end)
        self._add_env(stage, nv, vv)

    def _add_env(self, stage: _Stage, name: _Val, value: _Val) -> None:
        if not kept_env(name.value) or (self.builds_vllm and name.value in VLLM_BUILD_ENV):
            return
        stage.env = [e for e in stage.env if e.name.value != name.value]
        stage.env.append(EnvVar(name.token(self.src), value.token(self.src)))

    # -- launches ----------------------------------------------------------

    def root_image(self, stage: _Stage) -> tuple[_Val | None, VersionHint | None]:
        s: _Stage | None = stage
        while s is not None and s.parent is not None:
            s = s.parent
        if s is None:
            return None, None
        return s.image, s.pin

    def shell_ok(self, stage: _Stage) -> bool:
        return stage.shell is None or not stage.shell or posixpath.basename(stage.shell[0]) in SHELLS

    def run_form(self, stage: _Stage, f: _Form) -> None:
        if f.script is not None:
            if self.shell_ok(stage):
                self.script(stage, f.script, f.span)
            return
        assert f.exec_words is not None
        tokens = [w.token(self.src) for w in f.exec_words]
        for tok, version, a, b in shell.pip_pins_in_words(tokens):
            w = f.exec_words[tokens.index(tok)]
            sp, ok = w.sub_span(a, b, self.src)
            self.out.pins.append(VersionHint(version, sp, "pip-pin", ok))
        self.exec_words(stage, f.exec_words, f.span)

    def script(self, stage: _Stage, body: _Val, span: Span) -> list[Launch]:
        ex = shell.extract_script(self.src, body.value, body.offset_map(), kind="dockerfile", group=self.src.path)
        self.adopt(stage, ex)
        return ex.launches

    def adopt(self, stage: _Stage, ex: Extraction) -> None:
        image, pin = self.root_image(stage)
        for launch in ex.launches:
            if launch.image is None:
                launch.env = _merge_env(stage.env, launch.env)
                if image is not None:
                    launch.image = image.token(self.src)  # the command runs inside the built image
                if launch.version_hint is None:
                    launch.version_hint = self.hint_for(stage, launch.span.start)
        self.out.extend(ex)

    def hint_for(self, stage: _Stage, at: int) -> VersionHint | None:
        """A ``pip install vllm==X`` after the base image's FROM overrides the image's tag."""
        _, pin = self.root_image(stage)
        pip = self.pip_pin_before(at)
        if pip is not None and (pin is None or pip.span.start > pin.span.start):
            return pip
        return pin

    def pip_pin_before(self, at: int) -> VersionHint | None:
        before = [p for p in self.out.pins if p.origin == "pip-pin" and p.span.start <= at]
        return before[-1] if before else None

    def exec_words(self, stage: _Stage, words: list[_Val], span: Span, *, image_entrypoint: bool = False) -> Launch | None:
        tokens = [w.token(self.src) for w in words]
        if not tokens and not image_entrypoint:
            return None
        m = commands.match_words(tokens, image_entrypoint=image_entrypoint)
        if m is None:
            # ``["sh", "-c", "script"]``
            j = shell_script_index(tokens)
            if j is not None:
                launches = self.script(stage, words[j], span)
                return launches[0] if launches else None
            return None
        image, pin = self.root_image(stage)
        env = list(stage.env) if m.image is None else []
        env = _merge_env(env, [EnvVar(n, v) for n, v in m.env if kept_env(n.value)])
        launch = Launch(
            path=self.src.path,
            kind="dockerfile",
            span=span,
            program=m.program,  # type: ignore[arg-type]
            entrypoint=m.entrypoint,
            entry=list(m.entry),
            args=list(m.args),
            env=env,
            image=m.image if m.image is not None else (image.token(self.src) if image is not None else None),
            group=self.src.path,
            evidence=m.evidence,
            strong=m.strong,
        )
        if image_entrypoint and image is not None:
            # CMD of a stage built FROM a vLLM image (``final`` checked it)
            launch.evidence, launch.strong = f"arguments for the entrypoint of vLLM base image {image.value}", True
        if m.image is not None:
            found = commands.release_tag(m.image.value)
            if found is not None and m.image.value_start is not None and not m.image.is_opaque:
                tag, off = found
                a = m.image.value_start + off
                launch.version_hint = VersionHint(tag, Span(a, a + len(tag)), "image-tag")
        else:
            launch.version_hint = self.hint_for(stage, span.start)
        self.out.launches.append(launch)
        return launch

    def final(self, stage: _Stage) -> None:
        image, pin = self.root_image(stage)
        vllm_base = image is not None and not image.opaque and commands.is_vllm_image(image.value)
        ep, cmd = stage.entrypoint, stage.cmd
        launch: Launch | None = None
        if ep is not None:
            if ep.script is not None:
                if self.shell_ok(stage):
                    self.script(stage, ep.script, ep.span)
                return
            words = list(ep.exec_words or [])
            span = ep.span
            if cmd is not None and cmd.exec_words is not None:
                words += cmd.exec_words
                span = cmd.span
            elif cmd is not None and cmd.script is not None:
                words += [_synthetic("/bin/sh", cmd.span), _synthetic("-c", cmd.span), cmd.script]
                span = cmd.span
            launch = self.exec_words(stage, words, span)
        elif cmd is not None:
            if vllm_base:
                if cmd.exec_words is not None:
                    launch = self.exec_words(stage, cmd.exec_words, cmd.span, image_entrypoint=True)
                elif cmd.script is not None:
                    msg = ("shell-form CMD on a vLLM image is passed to the image's entrypoint as "
                           "'/bin/sh -c ...'; write CMD as a JSON array of vLLM arguments")
                    self.out.problems.append(Problem(cmd.span, msg))
                    for found in self.script(stage, cmd.script, cmd.span):
                        found.notes.append(msg)
                return
            if cmd.script is not None:
                if self.shell_ok(stage):
                    self.script(stage, cmd.script, cmd.span)
                return
            launch = self.exec_words(stage, cmd.exec_words or [], cmd.span)
        elif vllm_base and not stage.entrypoint_set:
            launch = self.exec_words(stage, [], stage.span, image_entrypoint=True)
            if launch is not None:
                launch.notes.append("no CMD: the image's entrypoint runs without arguments")
        if launch is not None and launch.version_hint is None:
            launch.version_hint = self.pip_pin_before(launch.span.start)


def _synthetic(value: str, span: Span) -> _Val:
    v = _Val(start=span.start, end=span.end)
    v.lit(value, None)
    return v


def _merge_env(first: list[EnvVar], second: list[EnvVar]) -> list[EnvVar]:
    names = {e.name.value for e in second}
    return [e for e in first if e.name.value not in names] + list(second)


def _errors(root: _ts.Node) -> list[_ts.Node]:
    out: list[_ts.Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            out.append(n)
            continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return out


def _escape_char(text: str) -> str:
    """The ``# escape=`` parser directive (default backslash)."""
    for line in text.splitlines():
        s = line.strip()
        if not s.startswith("#"):
            break
        body = s[1:].strip()
        key, eq, val = body.partition("=")
        if not eq:
            break
        if key.strip().lower() == "escape" and val.strip() in ("`", "\\"):
            return val.strip()
    return "\\"


_EMPTY_ARG = re.compile(r"^[ \t]*ARG[ \t]+[A-Za-z_][A-Za-z0-9_]*=[ \t]*$", re.IGNORECASE)


def _mask_for_grammar(chars: list[str]) -> None:
    """Valid Dockerfile lines the grammar rejects, rewritten for the parser only (same length).

    A comment line (or a blank line) inside a continued instruction is dropped by Docker;
    the grammar ends the instruction there, so it becomes a line holding only a
    continuation.  ``ARG NAME=`` (an empty default) becomes ``ARG NAME `` (the value is
    read from the file text).
    """
    text = "".join(chars)
    pos = 0
    continued = False
    for line in text.split("\n"):
        end = pos + len(line)
        if continued and line.strip(" \t").startswith("#") or (continued and line and not line.strip(" \t")):
            for k in range(pos, end):
                chars[k] = " "
            chars[end - 1] = "\\"
        elif _EMPTY_ARG.match(line):
            eq = line.index("=")
            chars[pos + eq] = " "
        continued = "".join(chars[pos:end]).endswith("\\") and not "".join(chars[pos:end]).lstrip().startswith("#")
        pos = end + 1


def _normalise_continuations(chars: list[str], text: str, escape: str) -> None:
    """For the parser only, keeping every offset: ``ESC [spaces] [\\r] \\n`` becomes ``[spaces] \\ \\n``.

    Docker accepts whitespace between the escape character and the line end and
    a backtick escape (``# escape=```); the grammar wants a backslash right
    before the newline.  Under ``escape=``` a backslash at a line end is a
    literal and must not continue the line.
    """
    n = len(text)
    for i, ch in enumerate(text):
        if ch not in (escape, "\\"):
            continue
        j = i + 1
        while j < n and text[j] in " \t\r":
            j += 1
        if j >= n or text[j] != "\n":
            continue
        if ch == escape:
            for k in range(i, j):
                chars[k] = " "
            chars[j - 1] = "\\"
        else:
            chars[i] = "/"


def file_comments(text: str) -> list[Comment]:
    """The comments of a Dockerfile read on their own (a Dockerfile block in Markdown)."""
    data = text.encode("utf-8")
    tree = _ts.Parser(_LANGUAGE).parse(data)
    spans = _dockerfile_spans(tree.root_node)
    conv = char_offsets(data, [b for group in spans for span in group for b in span])
    return tree_comments(text, tree.root_node, conv.__getitem__, spans)


def _dockerfile_spans(root) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Byte spans of (comments, shell-form instruction bodies) of a tree-sitter-dockerfile tree."""
    comment_spans: list[tuple[int, int]] = []
    shell_spans: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            continue  # a broken instruction (reported as VL001): its "comments" may be strings
        if node.type == "comment":
            comment_spans.append((node.start_byte, node.end_byte))
            continue
        if node.type == "shell_command":  # RUN/CMD/ENTRYPOINT shell form: the shell reads `#` comments
            shell_spans.append((node.start_byte, node.end_byte))
            continue
        stack.extend(node.children)
    return comment_spans, shell_spans


def tree_comments(text: str, root, char: Callable[[int], int], spans=None) -> list[Comment]:
    """The comments of a Dockerfile that its reader parsed into ``root``: its own comments and the
    shell's inside shell-form instructions; ``char`` maps the tree's byte offsets to offsets of ``text``."""
    comment_spans, shell_spans = spans if spans is not None else _dockerfile_spans(root)
    out: list[Comment] = []
    for sb, eb in comment_spans:
        s, e = char(sb), char(eb)
        out.append(Comment(s, e, text[s:e].rstrip("\r")))
    if shell_spans:
        base, masked = masked_stretch(text, [(char(a), char(b)) for a, b in shell_spans])
        out.extend(shifted(shell.script_comments(masked), base))
    return out


def vllm_base(src: SourceFile) -> str | None:
    """The vLLM image the final stage runs, entrypoint kept (no ENTRYPOINT of its own), or None:
    an image built from this file runs ``vllm serve`` with its ``docker run`` arguments."""
    return read(src)[1]


def read(src: SourceFile) -> tuple[Extraction | None, str | None]:
    """What :func:`extract` returns (None when the reader failed: :func:`extract` says why), and
    :func:`vllm_base`'s answer, from one reading."""
    try:
        reader = _Dockerfile(src)
        out = reader.run()
    except Exception:  # noqa: BLE001 - the linting of the file reports what went wrong
        return None, None
    if not reader.stages:
        return out, None
    stage = reader.stages[-1]
    image, _pin = reader.root_image(stage)
    if image is None or image.opaque or stage.entrypoint is not None or not commands.is_official_vllm_image(image.value):
        return out, None
    return out, image.value


def extract(src: SourceFile) -> Extraction:
    try:
        return _Dockerfile(src).run()
    except Exception as exc:  # noqa: BLE001 - a linter must never crash on input
        out = Extraction()
        out.problems.append(Problem(Span(0, 0), f"dockerfile extraction failed: {type(exc).__name__}: {exc}"))
        return out
