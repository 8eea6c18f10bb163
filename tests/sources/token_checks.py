"""Shared checks for the extractor tests: every token stands where it says it does."""

from __future__ import annotations

from linter.launch import Launch, Token
from linter.source_file import SourceFile


def check_token(src: SourceFile, tok: Token, raw: str | None = None) -> None:
    assert 0 <= tok.span.start <= tok.span.end <= len(src.text)
    if raw is not None:
        assert src.text[tok.span.start : tok.span.end] == raw
    if tok.value_start is not None:
        assert src.text[tok.value_start : tok.value_start + len(tok.value)] == tok.value


def check_launch(src: SourceFile, launch: Launch) -> None:
    assert 0 <= launch.span.start <= launch.span.end <= len(src.text)
    toks = [*launch.entry, *launch.args]
    for s in launch.settings:
        toks.append(s.name)
        if s.value is not None:
            toks.append(s.value)
    for e in launch.env:
        toks.append(e.name)
        if e.value is not None:
            toks.append(e.value)
    if launch.image is not None:
        toks.append(launch.image)
    for tok in toks:
        check_token(src, tok)
    hint = launch.version_hint
    if hint is not None and hint.editable:
        assert src.text[hint.span.start : hint.span.end] == hint.version


def values(tokens: list[Token]) -> list[str]:
    return [t.value for t in tokens]


def lint_codes(path: str, text: str, target: str | None = None) -> list[str]:
    """Every diagnostic the whole pipeline gives for one file, as ``code message`` lines."""
    from packaging.version import Version

    from linter.discovery import classify
    from linter.engine import Settings, lint_source
    from rules._lib.base import all_rules

    src = SourceFile(path, text)
    kind = classify(path, text.encode("utf-8"))
    assert kind is not None, path
    settings = Settings(target=Version(target)) if target else Settings()
    result = lint_source(src, kind, settings, all_rules())
    return [f"{d.code} {d.message}" for d in result.diagnostics]


def assert_read_cleanly(path: str, text: str, extract, argv: list[str]):
    """``extract`` reads ``text`` with no problem, every token where it says, and a launch whose
    arguments start with ``argv`` (or, for settings, whose ``max_model_len`` is ``argv``'s value
    after ``--max-model-len``); the whole pipeline then reports nothing.  Returns that launch."""
    src = SourceFile.from_text(path, text)
    ex = extract(src)
    assert [p.message for p in ex.problems] == []
    for launch in ex.launches:
        check_launch(src, launch)
    length = argv[argv.index("--max-model-len") + 1]
    found = [
        l for l in ex.launches
        if values(l.args[: len(argv)]) == argv
        or any(s.name.value == "max_model_len" and s.value is not None and s.value.value == length for s in l.settings)
    ]
    assert found, [values(l.args) for l in ex.launches]
    assert lint_codes(path, text) == []
    return found[0]
