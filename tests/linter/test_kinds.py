"""The file-kind table (linter/kinds.py) is the one place that knows kinds of files.

Every kind that discovery gives, that a reader puts on a launch or that the code compares
with is a row; no other module holds a list of kinds; and a kind added as one reader module
plus one row is found, linted, suppressed and fixed like the built-in ones.
"""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest
from packaging.version import Version

from linter import kinds
from linter.discovery import discover
from linter.engine import Settings, extract, lint_file
from linter.fixer import fix_source
from linter.kinds import KINDS, Kind
from linter.source_file import SourceFile
from rules._lib.base import all_rules
from tests.rules.lint_helpers import have, k8s

ROOT = Path(__file__).resolve().parents[2]
FILE_KINDS = {name for name, row in KINDS.items() if row.reader is not None}

# one realistic file per form, named as such files are named
FILES = {
    "serve.sh": "#!/bin/bash\nexec vllm serve Qwen/Qwen3-8B --max-model-len 8192\n",
    "start": "#!/usr/bin/env bash\nvllm serve m --port 8000\n",
    "Dockerfile.gpu": "FROM vllm/vllm-openai:v0.30.0\nCMD [\"--model\", \"Qwen/Qwen3-8B\", \"--max-model-len\", \"8192\"]\n",
    "deploy.yaml": k8s("--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"),
    "compose.yaml": textwrap.dedent("""\
        services:
          vllm:
            image: vllm/vllm-openai:v0.30.0
            command: ["--model", "Qwen/Qwen3-8B"]
        """),
    "ci.yml": textwrap.dedent("""\
        name: smoke
        on: [push]
        jobs:
          serve:
            runs-on: gpu
            steps:
              - run: vllm serve Qwen/Qwen3-8B --max-model-len 8192
        """),
    "task.yaml": "resources: {accelerators: A100}\nrun: |\n  vllm serve Qwen/Qwen3-8B --max-model-len 8192\n",
    "chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
    "chart/values.yaml": "vllm:\n  args: [\"--model\", \"Qwen/Qwen3-8B\", \"--max-model-len\", \"8192\"]\n",
    "chart/templates/deploy.yaml": textwrap.dedent("""\
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: {{ .Release.Name }}}
        spec:
          template:
            spec:
              containers:
                - name: vllm
                  image: "vllm/vllm-openai:{{ .Values.tag }}"
                  args: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
        """),
    "serve_config.yaml": "model: Qwen/Qwen3-8B\nmax-model-len: 8192\ngpu-memory-utilization: 0.9\n",
    "offline.py": "from vllm import LLM\nllm = LLM(model=\"Qwen/Qwen3-8B\", max_model_len=8192)\n",
    "README.md": "Start it:\n\n```bash\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n```\n",
    "requirements.txt": "vllm==0.30.0\n",
}


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    for rel, text in FILES.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def test_every_kind_discovery_gives_and_every_launch_kind_is_a_row(tree: Path) -> None:
    found = {str(Path(c.path).relative_to(tree)): c for c in discover([str(tree)])}
    assert {c.status for c in found.values()} == {"ok"}
    assert {c.kind for c in found.values()} <= FILE_KINDS
    assert found["Dockerfile.gpu"].kind == "dockerfile" and found["start"].kind == "shell"
    assert found["chart/templates/deploy.yaml"].kind == "helm-template" and found["requirements.txt"].kind == "requirements"
    launch_kinds = set()
    for c in found.values():
        src = SourceFile.from_bytes(c.path, Path(c.path).read_bytes())
        launch_kinds |= {launch.kind for launch in extract(src, c.kind).launches}
    assert launch_kinds <= set(KINDS), launch_kinds - set(KINDS)
    # the forms of YAML launches all appear, and each is a row
    assert {"k8s", "compose", "actions", "skypilot", "helm-values", "helm-template", "vllm-config", "python", "markdown"} <= launch_kinds


def test_each_row_is_whole() -> None:
    for name, row in KINDS.items():
        assert row.name == name
        for ref in (row.comments, row.fix_check):
            if ref is not None:
                assert callable(kinds._resolve(ref)), ref
        if row.reader is not None:
            assert callable(kinds.reader(name).extract), name
        else:  # a form: only how its elements are edited
            assert row.edit is not None and not row.extensions and row.claims is None and row.interpreter is None


def _kind_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants a module uses as kinds: ``kind=...`` arguments, comparisons with a
    ``kind``, and keys of a dict looked up by a ``kind``."""

    def is_kind(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id == "kind") or (isinstance(node, ast.Attribute) and node.attr == "kind")

    def strings(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return [s for e in node.elts for s in strings(e)]
        return []

    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and (is_kind(node.left) or any(is_kind(c) for c in node.comparators)):
            for side in [node.left, *node.comparators]:
                out += [(node.lineno, s) for s in strings(side)]
        elif isinstance(node, ast.Call):
            out += [(node.lineno, s) for k in node.keywords if k.arg == "kind" for s in strings(k.value)]
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "get" and isinstance(f.value, ast.Dict) and node.args and is_kind(node.args[0]):
                out += [(node.lineno, s) for k in f.value.keys if k is not None for s in strings(k)]
    return out


# kinds of other things than files that are also called ``kind``
_OTHER_KINDS = {
    "linter/argmodel.py", "linter/changes.py", "linter/config.py", "rules/invalid_json.py", "rules/invalid_value.py",
    "rules/parser_error.py", "rules/option_value_one_element.py", "rules/ambiguous_abbreviation.py",
    "rules/hybrid_kv_cache_manager.py", "rules/config_false.py", "rules/lifecycle.py",
}
# ... and in modules that also name kinds of files: a command match's, a setting's, a rope scaling's
_OTHER_KIND_VALUES = {"cli", "str", "bool", "null", "yarn"}


def test_no_module_but_the_table_lists_kinds() -> None:
    """Kinds named in the code are rows; no module keeps its own set of them."""
    names = set(KINDS)
    unknown, tables = [], []
    for path in sorted([*(ROOT / "linter").rglob("*.py"), *(ROOT / "rules").rglob("*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "linter/kinds.py":
            continue
        tree = ast.parse(path.read_text())
        if rel not in _OTHER_KINDS:
            unknown += [f"{rel}:{line}: {s!r}" for line, s in _kind_strings(tree) if s not in names | _OTHER_KIND_VALUES]
        for node in ast.walk(tree):  # a literal collection of several file kinds is a second table
            if isinstance(node, (ast.Set, ast.Tuple, ast.List, ast.Dict)):
                elts = node.keys if isinstance(node, ast.Dict) else node.elts
                listed = {e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)} & FILE_KINDS
                if len(listed) >= 2:
                    tables.append(f"{rel}:{node.lineno}: {sorted(listed)}")
    assert unknown == [], "kinds that are not rows of linter/kinds.py"
    assert tables == [], "kinds listed outside linter/kinds.py"


def test_the_scan_sees_kinds_and_tables() -> None:
    code = 'if c.kind == "toml": pass\nf(x, kind="shell")\nSHELLISH = frozenset({"shell", "markdown"})\n'
    assert [s for _, s in _kind_strings(ast.parse(code))] == ["toml", "shell"]


# -- a kind added as one module and one row -----------------------------------

PROCFILE_READER = '''
"""Procfiles (``name: command`` per line): each command is a shell command line."""

from linter.offset_map import OffsetMap
from linter.sources import Extraction
from linter.sources.shell import extract_script


def extract(src):
    out = Extraction()
    pos = 0
    for line in src.text.splitlines(keepends=True):
        name, colon, command = line.partition(":")
        if colon and name.strip() and not name.lstrip().startswith("#"):
            start = pos + len(name) + 1
            body = command.rstrip("\\r\\n")
            out.extend(extract_script(src, body, OffsetMap.identity(start, len(body)), kind="procfile", group=name.strip()))
        pos += len(line)
    return out
'''


@pytest.fixture()
def procfile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "procfile_reader.py").write_text(PROCFILE_READER)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(
        KINDS, "procfile",
        Kind("procfile", "procfile_reader", claims=lambda path, lower, ext, head: lower == "procfile",
             comments="linter.sources.comments:requirements_comments", edit="words"),
    )
    yield
    sys.modules.pop("procfile_reader", None)


@pytest.mark.skipif(not have("0.31.0"), reason="needs the 0.31.0 inventory")
def test_a_new_kind_is_one_module_and_one_row(tmp_path: Path, procfile) -> None:
    app = tmp_path / "app"
    app.mkdir()
    text = (
        "web: vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --enable-mamba-fine-grained-prefix-cache\n"
        "worker: vllm serve m --enable-mamba-fine-grained-prefix-cache  # vllm-lint: ignore[VL102] kept on purpose\n"
        "clock: python clock.py\n"
    )
    (app / "Procfile").write_text(text)
    [c] = discover([str(app)])
    assert (c.kind, c.status) == ("procfile", "ok")
    settings = Settings(target=Version("0.31"))
    result = lint_file(c.path, c.kind, settings, all_rules())
    assert [(d.code, result.src.line_col(d.span.start)[0]) for d in result.diagnostics] == [("VL102", 1)]
    assert {r.launch.kind for r in result.launches} == {"procfile"}
    fixed = fix_source(SourceFile(c.path, text), c.kind, settings, all_rules(), False).fixed
    assert fixed == text.replace("--enable-mamba-fine-grained-prefix-cache\n", "--enable-mamba-shared-prefix-checkpoint\n", 1)


def test_comments_come_from_the_readers_parse() -> None:
    """Shell and Dockerfile readers report their comments while parsing: a `#` inside quotes is none."""
    docker = "FROM vllm/vllm-openai:v0.30.0\nENV NOTE='# not a comment'\n# real\nCMD vllm serve m  # trailing\n"
    ex = extract(SourceFile("Dockerfile", docker), "dockerfile")
    assert [c.text for c in sorted(ex.comments, key=lambda c: c.start)] == ["# real", "# trailing"]
    shell = "echo '# no' \"# no\"\r\nvllm serve m  # yes\r\n"
    ex = extract(SourceFile("a.sh", shell), "shell")
    [c] = ex.comments
    assert (c.text, shell[c.start : c.end]) == ("# yes", "# yes")  # the line end (\r\n) is not the comment's


def test_fixes_of_suppressions_keep_quotes_and_line_ends() -> None:
    """Found in the readers' own parse: a `#` in a quoted ENV value is not a suppression to remove
    (removing it cut the string), and removing a trailing one keeps the line's \\r."""
    settings = Settings(target=Version("0.32"))
    docker = "FROM vllm/vllm-openai:v0.31.0\nCMD vllm serve m\nENV NOTE='# vllm-lint: ignore[VL102]'\n"
    assert fix_source(SourceFile("Dockerfile", docker), "dockerfile", settings, all_rules(), False).fixed == docker
    crlf = "a=1\r\nvllm serve m --port 8000  # vllm-lint: ignore[VL102]\r\n"
    fixed = fix_source(SourceFile("crlf.sh", crlf), "shell", settings, all_rules(), False).fixed
    assert fixed == "a=1\r\nvllm serve m --port 8000\r\n"


def _classify_row_by_row(path: str, head: bytes = b"") -> str | None:
    """classify as the table reads: every reader row in order, then the shebang."""
    import os

    lower = os.path.basename(path).lower()
    ext = os.path.splitext(lower)[1]
    for k in KINDS.values():
        if k.reader is not None and k.is_name(path, lower, ext, head):
            return k.name
    if any(ext in k.extensions for k in KINDS.values()):
        return None
    prog = kinds.shebang_interpreter(head)
    for k in KINDS.values():
        if prog is not None and k.interpreter is not None and k.interpreter(prog):
            return k.name
    return None


NAMES = [
    "serve.sh", "Dockerfile", "Dockerfile.gpu", "dockerfile.md", "Containerfile-cuda", "app.dockerfile", "values.yaml",
    "charts/x/templates/deploy.yaml", "charts/x/templates/_helpers.tpl", "infra/main.tpl", "compose.yml", "model.json",
    "launch.py", "README.md", "guide.mdx", "requirements.txt", "requirements/base.in", "constraints-gpu.txt", "notes.txt",
    "main.go", "index.ts", ".bashrc", "..foo", "Makefile", "start", "x.BASH", "DOCKERFILE.PROD", "a.b.c.yaml",
]


@pytest.mark.parametrize("path", NAMES)
@pytest.mark.parametrize("head", [b"", b"#!/usr/bin/env bash\n", b"#!/usr/bin/python3\n", b"{{ .Values }}"])
def test_classify_tries_only_the_rows_that_can_claim_the_extension(path: str, head: bytes) -> None:
    rows: dict = {}
    assert kinds.classify(path, head) == _classify_row_by_row(path, head)
    assert kinds.classify(path, head, rows=rows) == kinds.classify(path, head, rows=rows) == _classify_row_by_row(path, head)


def test_classify_agrees_with_the_table_on_any_name() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    names = st.text("abdfkrcilenopqstuxy.-_/", min_size=1, max_size=24)

    @settings(max_examples=2000, deadline=None)
    @given(names, st.sampled_from([b"", b"#!/bin/sh\n", b"#!/usr/bin/env python3\n"]))
    def check(path: str, head: bytes) -> None:
        assert kinds.classify(path, head, rows={}) == _classify_row_by_row(path, head)

    check()


def test_a_row_added_at_run_time_is_tried_by_the_next_walk(procfile, tmp_path: Path) -> None:
    (tmp_path / "Procfile").write_text("web: vllm serve m\n")
    assert kinds.classify(str(tmp_path / "Procfile"), rows={}) == "procfile"


def test_the_extension_is_splitexts() -> None:
    import os

    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=3000, deadline=None)
    @given(st.text("ab.", max_size=8))
    def check(name: str) -> None:
        assert kinds.extension(name) == os.path.splitext(name)[1]

    check()


def test_rows_that_claim_only_their_extensions_say_no_to_others() -> None:
    # claims_any_name=False promises that claims says no to a name of another extension
    for path in [*NAMES, "charts/c/templates/notes.txt", "requirements/gpu.yaml", "templates/x.json", "requirements.lock"]:
        lower = path.rsplit("/", 1)[-1].lower()
        ext = kinds.extension(lower)
        for k in KINDS.values():
            if k.claims is not None and not k.claims_any_name and ext not in k.extensions:
                assert not k.claims(path, lower, ext, b"{{ x }}"), (k.name, path)
            if isinstance(k.claims_any_name, tuple) and ext not in k.extensions and not lower.startswith(k.claims_any_name):
                assert not k.claims(path, lower, ext, b"{{ x }}"), (k.name, path)  # the prefixes promise it
