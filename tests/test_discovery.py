"""Discovery: which files are linted, with which kind, without ever blocking or raising."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from linter.discovery import Candidate, classify, discover, might_launch

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def write(root: Path, rel: str, text: str = "vllm serve m\n") -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p


def found(root: Path, **kwargs) -> dict[str, str]:
    out = {}
    for c in discover([str(root)], **kwargs):
        out[os.path.relpath(c.path, root)] = c.kind if c.status == "ok" else c.status
    return out


# ---------------------------------------------------------------------------
# classify


@pytest.mark.parametrize(
    "path,head,kind",
    [
        ("run.sh", b"", "shell"),
        ("x/serve.BASH", b"", "shell"),
        ("a.zsh", b"", "shell"),
        ("entrypoint", b"#!/bin/bash\nset -e\n", "shell"),
        ("start", b"#!/usr/bin/env bash\n", "shell"),
        ("start", b"#!/usr/bin/env -S bash -e\n", "shell"),
        ("start", b"#! /bin/sh -eu\n", "shell"),
        ("start", b"#!/bin/dash\n", "shell"),
        ("start", b"#!/bin/ksh\n", "shell"),
        ("serve", b"#!/usr/bin/env python3\nimport vllm\n", "python"),
        ("serve", b"#!/usr/bin/python3.11 -u\n", "python"),
        ("serve", b"#!/usr/bin/perl\n", None),
        ("notes", b"vllm serve m\n", None),
        ("Dockerfile", b"", "dockerfile"),
        ("docker/Dockerfile.rocm", b"", "dockerfile"),
        ("Dockerfile-cuda", b"", "dockerfile"),
        ("cpu.dockerfile", b"", "dockerfile"),
        ("Containerfile", b"", "dockerfile"),
        ("Dockerfile.dockerignore", b"", None),
        ("Dockerfile.md", b"", "markdown"),
        ("compose.yaml", b"", "yaml"),
        ("k8s/deploy.YML", b"", "yaml"),
        ("app.py", b"", "python"),
        ("README.md", b"", "markdown"),
        ("docs/x.mdx", b"", "markdown"),
        ("a.markdown", b"", "markdown"),
        ("requirements.txt", b"", "requirements"),
        ("requirements-cuda.txt", b"", "requirements"),
        ("constraints.txt", b"", "requirements"),
        ("requirements/common.txt", b"", "requirements"),
        ("notes.txt", b"", None),
        ("config.json", b"", "yaml"),  # JSON is read as YAML, for its launches only
        ("image.png", b"", None),
    ],
)
def test_classify(path: str, head: bytes, kind: str | None) -> None:
    assert classify(path, head) == kind


def test_classify_helm(tmp_path: Path) -> None:
    write(tmp_path, "chart/Chart.yaml", "apiVersion: v2\nname: x\n")
    assert classify(str(tmp_path / "chart/templates/deployment.yaml")) == "helm-template"
    assert classify(str(tmp_path / "chart/templates/sub/deployment.yml")) == "helm-template"
    assert classify(str(tmp_path / "chart/values.yaml")) == "yaml"
    assert classify(str(tmp_path / "chart/values-prod.yaml")) == "yaml"
    # a templates folder outside a chart is plain YAML unless it holds template syntax
    assert classify(str(tmp_path / "other/templates/x.yaml")) == "yaml"
    assert classify(str(tmp_path / "other/templates/x.yaml"), b"image: {{ .Values.image }}") == "helm-template"


# ---------------------------------------------------------------------------
# might_launch


def test_might_launch() -> None:
    assert might_launch(b"exec vllm serve m")
    assert might_launch(b"FROM vllm/vllm-openai:v0.9.0")
    assert might_launch(b"VLLM_USE_V1=1")
    assert might_launch(b"from lmcache.v1 import x")
    assert might_launch(b"LMCache server")
    assert might_launch(bytearray(b"vLLM"))
    assert might_launch(memoryview(b"xx vllm"))
    assert not might_launch(b"")
    assert not might_launch(b"nginx -g 'daemon off;'")
    assert not might_launch(b"vll m")
    assert might_launch(b"from ray.serve.llm import LLMConfig")
    # `lm` without a launch word: helm charts, films, realms
    assert not might_launch(b"helm install film realm --set llm=false lmcach")


def test_screening_says_whether_a_vllm_word_or_only_a_needle_kept_the_file() -> None:
    """The answer the stat index records: a vLLM word (which no settings change), or only a
    needle the settings gave (a ``vllm-images`` name, a build word), or neither."""
    from linter.discovery import VLLM_WORD_FOUND, image_needles, screening

    needles = image_needles(("registry.example.com/ml/serve*",), True)
    assert screening(b"image: vllm/vllm-openai:v0.30.0\n", needles) == VLLM_WORD_FOUND == "vllm"
    assert screening("VLLM_USE_V1=1".encode("utf-16"), needles) == VLLM_WORD_FOUND  # (BOM-marked UTF-16)
    assert screening(b"image: registry.example.com/ml/serve:2.1\n", needles) is True
    assert screening(b"docker build -t acme/chat .\n", needles) is True
    assert screening(b"docker build -t acme/chat .\n") is False  # no tree image: no build needle
    assert screening(b"image: nginx\n", needles) is False
    # a needle in the first MiB and a vLLM word further on: True, the answer that is asked again
    assert screening(b"docker build -t x .\n" + b"#" * (2 << 20) + b"\nvllm serve m\n", needles) is True
    assert screening(b"#" * (2 << 20) + b"\nvllm serve m\n") == VLLM_WORD_FOUND


def test_might_launch_agrees_with_the_words() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from linter.discovery import VLLM_WORDS

    @settings(max_examples=3000, deadline=None)
    @given(st.text("vlmVLMcahersy. ", max_size=40))
    def check(text: str) -> None:
        lower = text.lower()
        assert might_launch(text.encode()) == any(w in lower for w in VLLM_WORDS)

    check()


def test_words_in_answers_the_same_however_the_bytes_are_cut() -> None:
    """A file screened a piece at a time (the screener's reading) gets the answer of its bytes
    whole, wherever the cuts fall: through a word, a UTF-16 word, a build word's context."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from linter.discovery import words_in

    @settings(max_examples=2000, deadline=None)
    @given(st.text("vlmVLMcahersy.dkrbuiBUILD :\n\t'\"{,", max_size=80), st.lists(st.integers(0, 160), max_size=8), st.booleans())
    def check(text: str, cuts: list[int], wide: bool) -> None:
        data = text.encode("utf-16" if wide else "utf-8")
        at = sorted({min(c, len(data)) for c in cuts} | {0, len(data)})
        pieces = [data[a:b] for a, b in zip(at, at[1:])] or [data]
        want, got = words_in([data]), words_in(pieces)
        assert got[0] == want[0]
        if not want[0]:
            assert got[1] == want[1]

    check()
    # a compose `build:` key is one only when a blank follows: a cut after the colon waits for the next piece
    assert words_in([b"note: see build:", b"v2 notes\n"]) == words_in([b"note: see build:v2 notes\n"]) == (False, False)
    assert words_in([b"services:\n  web:\n    build:", b" .\n"]) == (False, True)
    assert words_in([b"docker build", b" -t web ."]) == (False, True)


def test_a_wide_word_across_two_chunks_is_seen() -> None:
    """``ray.serve.llm`` in UTF-32 is 52 bytes: the chunks screened overlap by more."""
    from linter import discovery
    from linter.discovery import words_in

    size = discovery._CHUNK
    word = "ray.serve.llm".encode("utf-32-le")
    for cut in (4, 24, 48):
        data = b"\x00" * (size - cut) + word + b"\x00" * 64
        assert might_launch(data) and words_in([data[:size], data[size:]])[0]


def test_might_launch_across_chunks() -> None:
    from linter import discovery

    size = discovery._CHUNK
    for cut in range(1, 7):
        data = b"x" * (size - cut) + b"LMCACHE" + b"y" * 10
        assert might_launch(data)
    assert not might_launch(b"z" * (3 * size))


def test_words_in_answers_both_screenings_in_one_pass() -> None:
    """``words_in`` (the screener's one pass) says what ``might_launch`` says without build
    words and with them, for any bytes: words in any case, across chunks, in UTF-16."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from linter import discovery
    from linter.discovery import image_needles, words_in

    def agrees(data: bytes) -> None:
        vllm, build = words_in([data])
        assert vllm == might_launch(data)
        assert (vllm or build) == might_launch(data, image_needles((), True))

    @settings(max_examples=3000, deadline=None)
    @given(st.text("vlmVLMcahersy.dkrbuiBUILD :\n\t'\"{,", max_size=60))
    def check(text: str) -> None:
        agrees(text.encode())
        agrees(text.encode("utf-16"))

    check()
    assert words_in([b"docker build -t me .\ndocker run me"]) == (False, True)
    assert words_in([b"services:\n  app:\n    build: .\n"]) == (False, True)
    assert words_in([b"image: org/build:1.2\n"]) == (False, False)
    assert words_in([b"docker build -t me . && vllm serve m"])[0]  # (the build word is not needed then)
    assert words_in([b"VLLM_PORT=8000"]) == (True, False)
    size = discovery._CHUNK
    late = b"x" * (size - 3) + b"docker build ." + b"y" * size + b"vLLM"
    assert words_in([late[:size], late[size:size * 2], late[size * 2:]])[0]  # a vLLM word after a build word, two pieces on
    assert words_in(["vllm serve".encode("utf-16-le")]) == (True, False)


# ---------------------------------------------------------------------------
# walking


def test_walk_kinds_and_default_excludes(tmp_path: Path) -> None:
    write(tmp_path, "serve.sh")
    write(tmp_path, "Dockerfile")
    write(tmp_path, "deploy/k8s.yaml")
    write(tmp_path, "app/main.py")
    write(tmp_path, "README.md")
    write(tmp_path, "requirements.txt", "vllm==0.9.0\n")
    write(tmp_path, "notes.txt")
    write(tmp_path, "bin/start", "#!/usr/bin/env bash\nvllm serve m\n")
    write(tmp_path, "bin/data", "\x00\x01binary")
    for excluded in (".git/hooks/pre-commit.sh", ".venv/bin/activate.sh", "venv/x.py", "node_modules/a/run.sh",
                     "__pycache__/x.py", ".tox/y.sh", "build/z.sh", "dist/d.py", ".vllm-lint-cache/c.yaml",
                     "sub/.mypy_cache/m.py", "sub/build/deep/run.sh"):
        write(tmp_path, excluded)
    assert found(tmp_path) == {
        "serve.sh": "shell",
        "Dockerfile": "dockerfile",
        "deploy/k8s.yaml": "yaml",
        "app/main.py": "python",
        "README.md": "markdown",
        "requirements.txt": "requirements",
        "bin/start": "shell",
    }


def test_exclude_options(tmp_path: Path) -> None:
    write(tmp_path, "a.sh")
    write(tmp_path, "build/b.sh")
    write(tmp_path, "gen/c.sh")
    write(tmp_path, "x/d.py")
    assert set(found(tmp_path)) == {"a.sh", "gen/c.sh", "x/d.py"}
    assert set(found(tmp_path, extend_exclude=["gen", "*.py"])) == {"a.sh"}
    # exclude replaces the defaults
    assert set(found(tmp_path, exclude=["gen/"])) == {"a.sh", "build/b.sh", "x/d.py"}
    assert set(found(tmp_path, include=["*.sh"])) == {"a.sh", "gen/c.sh"}


def test_gitignore_negation_and_nesting(tmp_path: Path) -> None:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("secret/\n")
    write(tmp_path, ".gitignore", "# comment\n*.sh\n!keep.sh\nlogs/\n/top.yaml\n")
    write(tmp_path, "a.sh")
    write(tmp_path, "keep.sh")
    write(tmp_path, "top.yaml")
    write(tmp_path, "sub/top.yaml")
    write(tmp_path, "logs/run.py")
    write(tmp_path, "sub/logs/run.py")
    write(tmp_path, "secret/x.py")
    write(tmp_path, "sub/b.sh")
    write(tmp_path, "sub/deep/keep.sh")
    # a nested .gitignore overrides the outer one for its folder
    write(tmp_path, "svc/.gitignore", "!*.sh\nlocal.py\n")
    write(tmp_path, "svc/run.sh")
    write(tmp_path, "svc/local.py")
    write(tmp_path, "svc/other.py")
    write(tmp_path, "svc/inner/local.py")
    assert set(found(tmp_path)) == {"keep.sh", "sub/top.yaml", "sub/deep/keep.sh", "svc/run.sh", "svc/other.py"}
    # without gitignore everything but the default excludes
    assert "a.sh" in found(tmp_path, respect_gitignore=False)
    assert "secret/x.py" in found(tmp_path, respect_gitignore=False)


# the text a gitignore pattern needs (the walk's screen before pathspec): every path a pattern
# matches holds it, so a path without it is decided by no pattern, and a tree whose paths hold
# none never imports pathspec

_PATTERN_CHARS = "ab.*?[]!\\/ -"
_PATH_CHARS = "ab.-/ "


def _matches_one(pattern: str, path: str) -> bool:
    from linter.discovery import gitignore_spec  # (as the walk compiles them)

    try:
        spec = gitignore_spec([pattern])
    except Exception:
        return False
    return spec.check_file(path).include is not None


@pytest.mark.parametrize(
    "pattern,path",
    [("*.pyc", "src/x.pyc"), ("/build/", "build/"), ("/build/", "build/x.sh"), ("a/**/b", "a/b"), ("**/b/", "b/"), ("logs/", "a/logs/"), ("!keep.sh", "keep.sh"), ("a\\*b", "a*b"),
     ("trail  ", "trail"), ("foo\\ ", "foo "), ("**/gen/**", "x/gen/y.py"), ("[ab]c.yaml", "bc.yaml"), ("[]a]x", "]x"), ("Build", "a/Build/x")],
)
def test_a_matching_path_holds_the_needed_text(pattern: str, path: str) -> None:
    from linter.discovery import needed_text

    assert _matches_one(pattern, path)
    assert needed_text(pattern) in path


def test_the_needed_text_holds_for_any_pattern_and_path() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from linter.discovery import needed_text

    @settings(max_examples=3000, deadline=None)
    @given(st.text(_PATTERN_CHARS, min_size=1, max_size=8), st.text(_PATH_CHARS, min_size=1, max_size=8))
    def check(pattern: str, path: str) -> None:
        if _matches_one(pattern, path):  # a file
            assert needed_text(pattern) in path
        if _matches_one(pattern, path + "/"):  # a folder, as the walk gives it
            assert needed_text(pattern) in path + "/"

    check()


def test_patterns_without_text_always_reach_pathspec(tmp_path: Path) -> None:
    # `*` needs no text: every path is checked (and ignored); a `!` pattern re-includes
    write(tmp_path, ".gitignore", "*\n!*.sh\n")
    write(tmp_path, "run.sh")
    write(tmp_path, "x.py")
    write(tmp_path, "a/deep.sh")  # the folder `a/` is ignored (pathspec: `!*.sh` does not re-include it)
    assert found(tmp_path) == {"run.sh": "shell"}


def test_a_walk_whose_paths_hold_no_needed_text_does_not_import_pathspec(tmp_path: Path) -> None:
    import subprocess
    import sys

    write(tmp_path, ".gitignore", "*.pyc\n/generated/\n")
    write(tmp_path, "svc/serve.sh")
    write(tmp_path, "generated/old.sh")
    code = (
        "import sys; from linter.discovery import discover\n"
        f"got = sorted(c.path for c in discover([{str(tmp_path)!r}]))\n"
        "print(got, 'pathspec' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # `generated/` holds `generated`: pathspec decides it (ignored), and is imported for it
    assert out.strip() == f"{[str(tmp_path / 'svc' / 'serve.sh')]} True"
    (tmp_path / "generated" / "old.sh").unlink()
    (tmp_path / "generated").rmdir()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"{[str(tmp_path / 'svc' / 'serve.sh')]} False"


def test_a_gitignore_pattern_python_warns_about_is_read_without_a_warning(tmp_path: Path) -> None:
    """``[[a]x.sh`` (and ``*.log[[]``) compile to regexes that ``re`` flags with a FutureWarning
    (\"Possible nested set\"); Python shows that on standard error by default, a line no
    owner of the ``.gitignore`` can act on.  The patterns still ignore what git ignores
    (``git check-ignore``: ``ax.sh`` and ``[x.sh``, not ``serve.sh``)."""
    import subprocess
    import sys
    import warnings

    (tmp_path / ".git").mkdir()
    write(tmp_path, ".gitignore", "[[a]x.sh\n*.log[[]\n")
    for name in ("ax.sh", "[x.sh", "bx.sh", "serve.sh"):
        write(tmp_path, name)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = found(tmp_path)
    assert [w.message for w in seen if issubclass(w.category, FutureWarning)] == []
    assert sorted(got) == ["bx.sh", "serve.sh"]
    run = subprocess.run([sys.executable, "-m", "linter.cli", "--no-cache", "--output-format", "concise", "."], cwd=tmp_path, capture_output=True, text=True)
    assert "Warning" not in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_gitignore_above_the_walked_folder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".gitignore", "generated/\n*.tmp.sh\n")
    write(tmp_path, "proj/generated/x.sh")
    write(tmp_path, "proj/a.tmp.sh")
    write(tmp_path, "proj/b.sh")
    assert set(found(tmp_path / "proj")) == {"b.sh"}


def test_explicit_files_are_linted_unless_force_exclude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, ".gitignore", "ignored.sh\n")
    write(tmp_path, "ignored.sh")
    write(tmp_path, "build/gen.sh")
    write(tmp_path, "odd.conf")
    got = list(discover(["ignored.sh", "build/gen.sh", "odd.conf"]))
    assert [(c.path, c.kind, c.status, c.explicit) for c in got] == [
        ("ignored.sh", "shell", "ok", True),
        ("build/gen.sh", "shell", "ok", True),
        ("odd.conf", None, "unknown", True),
    ]
    got = list(discover(["ignored.sh", "build/gen.sh", "odd.conf", "build"], force_exclude=True))
    assert [c.path for c in got] == ["odd.conf"]


def test_missing_path_is_reported(tmp_path: Path) -> None:
    [c] = list(discover([str(tmp_path / "nope.sh")]))
    assert c.status == "error" and c.kind is None and c.reason


def test_symlink_loops_and_links_out_of_tree(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, "elsewhere.sh")
    root = tmp_path / "root"
    write(root, "real/a.sh")
    (root / "loop").symlink_to(root, target_is_directory=True)
    (root / "real" / "up").symlink_to(root / "real", target_is_directory=True)
    (root / "out").symlink_to(outside, target_is_directory=True)
    (root / "out.sh").symlink_to(outside / "elsewhere.sh")
    (root / "alias.sh").symlink_to(root / "real" / "a.sh")
    (root / "dangling.sh").symlink_to(root / "missing.sh")
    (root / "self1.sh").symlink_to(root / "self2.sh")
    (root / "self2.sh").symlink_to(root / "self1.sh")
    got = found(root)
    # the in-tree link names the same file as real/a.sh: it is linted once, by its real name;
    # links that are never followed (out of the tree, dangling, looping) are reported, not read
    assert got == {"real/a.sh": "shell", "out.sh": "error", "dangling.sh": "error", "self1.sh": "error", "self2.sh": "error"}
    # a link to a file in the tree that the walk does not reach otherwise is linted
    write(root, "excluded/build.sh")
    (root / "linked.sh").symlink_to(root / "excluded" / "build.sh")
    got = {p: k for p, k in found(root, extend_exclude=["excluded"]).items() if k != "error"}
    assert got == {"real/a.sh": "shell", "linked.sh": "shell"}


def test_fifo_socket_are_never_opened(tmp_path: Path) -> None:
    write(tmp_path, "ok.sh")
    os.mkfifo(tmp_path / "pipe.sh")
    os.mkfifo(tmp_path / "entrypoint")  # extension-less: would be sniffed for a shebang if it were a file
    result: list[Candidate] = []

    def walk() -> None:
        result.extend(discover([str(tmp_path)]))

    t = threading.Thread(target=walk, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "discovery blocked on a named pipe"
    kinds = {os.path.basename(c.path): (c.kind or c.status, c.reason) for c in result}
    assert kinds["ok.sh"] == ("shell", "")
    assert kinds["pipe.sh"] == ("error", "not a regular file")
    assert "entrypoint" not in kinds
    # given by name: reported, not opened
    t2_result: list[Candidate] = []
    t2 = threading.Thread(target=lambda: t2_result.extend(discover([str(tmp_path / "entrypoint")])), daemon=True)
    t2.start()
    t2.join(10)
    assert not t2.is_alive()
    assert [c.status for c in t2_result] == ["error"]


def test_unreadable_entries_are_reported(tmp_path: Path) -> None:
    write(tmp_path, "ok.sh")
    secret = write(tmp_path, "secret.sh")
    sniffed = write(tmp_path, "start", "#!/bin/sh\nvllm serve m\n")
    locked = tmp_path / "locked"
    write(locked, "inner.sh")
    secret.chmod(0)
    sniffed.chmod(0)
    locked.chmod(0)
    try:
        got = {os.path.relpath(c.path, tmp_path): c for c in discover([str(tmp_path)])}
    finally:
        locked.chmod(0o755)
        secret.chmod(0o644)
        sniffed.chmod(0o644)
    assert got["ok.sh"].kind == "shell"
    if IS_ROOT:
        # root reads everything: the files are simply linted
        assert got["secret.sh"].kind == "shell"
        assert got["locked/inner.sh"].kind == "shell"
    else:
        assert got["secret.sh"].status == "error"
        assert got["start"].status == "error"
        assert got["locked"].status == "error" and got["locked"].reason


def test_unlistable_folder_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error while listing a folder (as a non-root user would get) becomes a candidate."""
    write(tmp_path, "ok.sh")
    write(tmp_path, "bad/inner.sh")
    real_scandir = os.scandir

    def scandir(path):
        if os.path.basename(str(path)) == "bad":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr("linter.discovery.os.scandir", scandir)
    got = {os.path.relpath(c.path, tmp_path): c for c in discover([str(tmp_path)])}
    assert got["ok.sh"].kind == "shell"
    assert got["bad"].status == "error" and "denied" in got["bad"].reason.lower()


def test_helm_chart_walk(tmp_path: Path) -> None:
    write(tmp_path, "charts/vllm/Chart.yaml", "apiVersion: v2\nname: vllm\n")
    write(tmp_path, "charts/vllm/values.yaml")
    write(tmp_path, "charts/vllm/templates/deployment.yaml", "args: [{{ .Values.model }}]\n")
    write(tmp_path, "charts/vllm/templates/_helpers.tpl")
    write(tmp_path, "charts/vllm/templates/NOTES.txt")
    assert found(tmp_path) == {
        "charts/vllm/Chart.yaml": "yaml",
        "charts/vllm/values.yaml": "yaml",
        "charts/vllm/templates/deployment.yaml": "helm-template",
    }


def test_deterministic_order(tmp_path: Path) -> None:
    for name in ("b.sh", "a.sh", "z/c.sh", "c/d.sh"):
        write(tmp_path, name)
    paths = [os.path.relpath(c.path, tmp_path) for c in discover([str(tmp_path)])]
    assert paths == ["a.sh", "b.sh", "c/d.sh", "z/c.sh"]
