"""Data files a script writes from a heredoc, read as their format where they stand in the script.

``cat > cfg.yaml <<'EOF'`` ... ``EOF`` followed by ``vllm serve M --config cfg.yaml``: the
body is the config file of that launch.  ``kubectl apply -f - <<EOF``: the body is a
manifest.  The shell reader records each such body (:class:`~linter.sources.WrittenFile`:
where its text stands, which parts an unquoted heredoc expands); :func:`read` parses them
with the YAML readers, which cannot be called from the shell reader (they call it for their
own scripts).

Positions: the body is parsed in a copy of the file's text with every other character
blanked (line ends kept), so every offset a YAML reader gives is an offset in the file and
each token stands at its own characters in the script (a ``<<-`` body too: the tabs bash
strips are blanked, and YAML cannot indent with tabs anyway).  An expansion in an unquoted
body (``max-model-len: $LEN``) is an unknown part of the token it falls in.

A body named by a launch's ``--config`` (the same path, after quotes and variables) is
that launch's config file: it is read as :func:`linter.engine.config_path` files are
(:mod:`linter.sources.vllm_config`), linked as :attr:`Launch.config`, and linted once as
its own launch, strong when the launches naming it are.  Another body is read as any YAML
file is (a Kubernetes manifest, a compose file, a config candidate); its parse errors are
not reported (a heredoc is not this linter's to judge unless vLLM reads it).
"""

from __future__ import annotations

import posixpath

from linter.launch import EnvVar, Launch, Setting, Span, Token
from linter.records import replace
from linter.source_file import SourceFile
from linter.sources import Extraction, Problem, WrittenFile, blanked, indented_documents, masked_stretch, vllm_config, yaml

__all__ = ["read"]

def _work_source(src: SourceFile, wf: WrittenFile) -> SourceFile:
    """The file's text with only the body left (offsets unchanged)."""
    base, stretch = masked_stretch(src.text, list(wf.ranges))
    end = base + len(stretch)
    return SourceFile.from_text(src.path, blanked(src.text[:base]) + stretch + blanked(src.text[end:]))


def _config_target(launch: Launch) -> Token | None:
    """The token after ``--config`` (vLLM ignores ``--config=FILE``, see :mod:`linter.argmodel`)."""
    for i, tok in enumerate(launch.args[:-1]):
        if tok.value == "--config" and not tok.is_opaque:
            return launch.args[i + 1]
    return None


def _same_path(a: str, b: str) -> bool:
    return bool(a) and bool(b) and posixpath.normpath(a) == posixpath.normpath(b)


def _unknown(tok: Token | None, ranges: tuple[tuple[int, int], ...]) -> Token | None:
    """``tok`` with the parts that fall in an expanded range marked unknown."""
    if tok is None:
        return None
    hits = [(a, b) for a, b in ranges if a < max(tok.span.end, tok.span.start + 1) and tok.span.start < b]
    if not hits:
        return tok
    n = len(tok.value)
    if tok.value_start is None:
        return replace(tok, opaque=((0, n),) if n else ())
    vs = tok.value_start
    extra = [(max(a - vs, 0), min(b - vs, n)) for a, b in hits if a - vs < n and b - vs > 0]
    if not extra:
        return tok
    return replace(tok, opaque=tuple(sorted({*tok.opaque, *extra})))


def _mark_unknown(launch: Launch, ranges: tuple[tuple[int, int], ...]) -> None:
    if not ranges:
        return
    launch.entry = [_unknown(t, ranges) for t in launch.entry]
    launch.args = [_unknown(t, ranges) for t in launch.args]
    launch.image = _unknown(launch.image, ranges)
    launch.env = [EnvVar(_unknown(e.name, ranges), _unknown(e.value, ranges)) for e in launch.env]
    settings = []
    for s in launch.settings:
        value = _unknown(s.value, ranges)
        kind = "opaque" if value is not None and value is not s.value and value.is_opaque and s.kind != "str" else s.kind
        settings.append(Setting(_unknown(s.name, ranges), value, kind))
    launch.settings = settings


def read(src: SourceFile, ex: Extraction) -> None:
    """Add the launches of the files ``ex``'s scripts write, and link each ``--config`` to its body."""
    for wf in ex.written:
        naming = [l for l in ex.launches if l.style == "argv" and (t := _config_target(l)) is not None and _same_path(t.value, wf.target)]
        work = _work_source(src, wf)
        if naming:
            got = vllm_config.extract(work)
            line = src.line_col(naming[0].span.start)[0]
            for p in got.problems:
                ex.problems.append(Problem(p.span, f"{p.message} (in the heredoc written to {wf.target}, the --config file of the launch at line {line})"))
            for launch in got.launches:
                launch.evidence = f"--config file of the launch at line {line}, written by a heredoc"
                launch.strong = all(l.strong for l in naming)
                launch.version_hint = naming[0].version_hint
                launch.group = naming[0].group
        else:
            got = Extraction()
            for doc in indented_documents(work):
                got.extend(yaml.extract_text(doc, kind="yaml"))
            name = posixpath.basename(wf.target)
            if "." in name and "$" not in name and name.rsplit(".", 1)[1].lower() not in ("yaml", "yml"):
                # option-like keys in a file vLLM cannot take as its --config: it reads YAML files
                # only (0.33.0 vllm/utils/argparse_utils.py L633-637: "Config file must be of a
                # yaml/yml type"), so a JSON or TOML body is another program's settings
                got.launches = [x for x in got.launches if x.entrypoint != "config"]
        for launch in got.launches:
            if launch.span.end > wf.span.end:  # a YAML node's end mark runs on over the blanked text after the body
                launch.span = Span(launch.span.start, max(launch.span.start, wf.span.end))
            _mark_unknown(launch, wf.unknown)
            if not wf.editable:
                launch.editable = False
            launch.notes.append(f"in a heredoc written to {wf.target}" if wf.target != "-" else "in a heredoc read from standard input")
        if naming and got.launches:
            for l in naming:
                l.config = got.launches[0]
        ex.launches.extend(got.launches)
        ex.pins.extend(got.pins)
