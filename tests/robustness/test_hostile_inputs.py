"""Inputs vllm-lint must survive, through the real command line on a temporary tree.

Each bad file sits in its own folder next to ``good.sh``, a real launch with a
known diagnostic (VL101 for ``--swap-space``).  For each: no traceback, a
diagnostic that names the file and the reason (or, for hostile but valid
input, the launch inside it is still checked), never a silent "clean", and
the good launch beside it is still reported.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from tests.robustness.conftest import GOOD, by_file, run_cli

K8S = """apiVersion: v1
kind: Pod
metadata: {name: x}
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.30.0
      args: [serve, m, --swap-space, "16"]
"""

ALIAS_BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(20)
) + "---\n" + K8S  # 9**21 strings if expanded

SENTINEL = "vllm-lint-pwned"

# folder -> (file name, bytes, expected code or None for "the launch inside is checked", reason substring)
CASES: dict[str, tuple[str, bytes, str | None, str]] = {
    "bad-indent": ("pod.yaml", b"apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: x\n     args: [vllm, serve]\n", "VL001", "YAML parse error"),
    "unclosed-quote": ("pod.yaml", b'command: [vllm, serve, "Qwen/Qwen3-8B]\n', "VL001", "quoted scalar"),
    "tabs": ("pod.yaml", b"spec:\n\tcontainers:\n\t- args: [vllm, serve]\n", "VL001", "cannot start any token"),
    "helm": ("chart/templates/dep.yaml", b"spec:\n  containers:\n  - args:\n    {{- range .Values.args }}\n    - {{ . }}\n    {{- end }}\n    - vllm\n    - {{ .Values.model \n", "VL001", "without a closing '}}'"),
    "alias-bomb": ("bomb.yaml", ALIAS_BOMB.encode(), None, ""),
    "recursive": ("rec.yaml", b"a: &a\n  b: *a\n  c: [*a, vllm]\n---\n" + K8S.encode(), None, ""),
    "python-tag": ("tag.yaml", f"x: !!python/object/apply:os.system ['touch {SENTINEL}']\n---\n{K8S}".encode(), None, ""),
    "deep-flow": ("deep.yaml", b"vllm: " + b"[" * 50_000 + b"]" * 50_000 + b"\n", "VL001", "nesting too deep"),
    "deep-block": ("deep.yaml", b"".join(b"  " * i + b"k%d:\n" % i for i in range(3000)) + b"  " * 3000 + b"vllm serve\n", "VL001", "nesting too deep"),
    "binary": ("bin.yaml", b"vllm\x00\x01\x02\xff" * 64, "VL002", "binary"),
    "nul": ("nul.sh", b"vllm serve m\x00 --swap-space 16\n", "VL002", "NUL"),
    "latin1": ("l1.yaml", "command: vllm serve caf\xe9\n".encode("latin-1"), "VL002", "not UTF-8"),
    "utf16-bom": ("pod.yaml", "\ufeff".encode("utf-16-le") + K8S.encode("utf-16-le"), None, ""),
    "utf16-bom-be": ("serve.sh", "\ufeff".encode("utf-16-be") + GOOD.encode("utf-16-be"), None, ""),
    "utf16-no-bom": ("serve.sh", GOOD.encode("utf-16-le"), "VL002", "UTF-16"),
    "crlf": ("serve.sh", b"vllm serve m \\\r\n  --swap-space 16\r\n", None, ""),
    "mixed-eol": ("pod.yaml", K8S.replace("\n", "\r\n", 3).replace("kind: Pod\r\n", "kind: Pod\r").encode(), None, ""),
    "sh-quote": ("serve.sh", b'vllm serve m --swap-space 16 "unclosed\n', "VL001", "shell parse error"),
    "sh-heredoc": ("serve.sh", b"cat <<EOF\nvllm serve m --swap-space 16\n", "VL001", "heredoc"),
    "sh-nested": ("serve.sh", b"vllm serve " + b"$(" * 10_000 + b"x" + b")" * 10_000 + b"\n", "VL001", "nested too deeply to analyse"),
    "py-syntax": ("run.py", b"from vllm import LLM\nLLM(model='x'\n", "VL001", "syntax error"),
    "py-deep": ("run.py", b"from vllm import LLM\nx = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\nLLM(model='m')\n", "VL001", "nested too deeply"),
    "py-chain": ("run.py", b"from vllm import LLM\nx = " + b"not " * 20_000 + b"1\nLLM(model='m')\n", "VL001", "nested too deeply"),
    "dockerfile": ("Dockerfile", b"FROM vllm/vllm-openai:v0.30.0\nFROBNICATE foo\nCMD [\"m\", \"--swap-space\", \"16\"]\n", "VL001", "unknown Dockerfile instruction"),
    "spaces": ("a folder/a file.sh", GOOD.encode(), None, ""),
    "non-ascii": ("n\u00e4me/\u00fcml\u00e4ut \u6a21\u578b.sh", GOOD.encode(), None, ""),
    "empty": ("empty.yaml", b"", "none", ""),
}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict]]:
    root = tmp_path_factory.mktemp("hostile")
    for folder, (name, data, _code, _why) in CASES.items():
        path = root / folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        (root / folder / "good.sh").write_text(GOOD)
    (root / "helm" / "chart" / "Chart.yaml").write_text("name: chart\n")
    # special files: a named pipe, a device linked in, link loops, a link out of the tree
    special = root / "special"
    special.mkdir()
    (special / "good.sh").write_text(GOOD)
    os.mkfifo(special / "x.yaml")
    os.mkfifo(special / ".gitignore")  # read by the walk itself: must not block it
    (special / "null.yaml").symlink_to(os.devnull)
    (special / "loop1.yaml").symlink_to("loop2.yaml")
    (special / "loop2.yaml").symlink_to("loop1.yaml")
    outside = tmp_path_factory.mktemp("outside") / "elsewhere.sh"
    outside.write_text(GOOD)
    (special / "out.sh").symlink_to(outside)
    (special / "dangling.sh").symlink_to(special / "missing.sh")
    (special / "up").symlink_to("..", target_is_directory=True)  # a folder loop
    start = time.monotonic()
    code, diags, _err = run_cli(["."], root, timeout=300)
    report = by_file(diags)
    report["__elapsed__"] = [{"seconds": time.monotonic() - start}]
    assert code == 1  # diagnostics remain: the documented exit code
    assert not (root / SENTINEL).exists() and not Path(SENTINEL).exists(), "a YAML Python tag was executed"
    return report


@pytest.mark.parametrize("folder", sorted(CASES))
def test_hostile_file(report: dict[str, list[dict]], folder: str) -> None:
    name, _data, code, why = CASES[folder]
    here = report.get(os.path.join(folder, name), [])
    if code is None:
        # valid but hostile (alias bombs, encodings, line ends, odd names): the launch inside is still checked
        assert [d["code"] for d in here if d["code"] == "VL101"], here
    elif code == "none":
        assert here == []
    else:
        assert any(d["code"] == code and why.lower() in d["message"].lower() for d in here), here
    # the rest of the tree is still linted
    assert [d["code"] for d in report.get(os.path.join(folder, "good.sh"), [])] == ["VL101"]


@pytest.mark.parametrize(
    "name, why",
    [("x.yaml", "not a regular file"), ("null.yaml", "not a regular file"), ("loop1.yaml", "symbolic link loop"),
     ("loop2.yaml", "symbolic link loop"), ("out.sh", "outside the linted folder"), ("dangling.sh", "broken symbolic link")],
)
def test_special_file(report: dict[str, list[dict]], name: str, why: str) -> None:
    here = report.get(os.path.join("special", name), [])
    assert [d["code"] for d in here] == ["VL003"] and why in here[0]["message"], here
    assert [d["code"] for d in report.get(os.path.join("special", "good.sh"), [])] == ["VL101"]


def test_whole_hostile_tree_is_quick(report: dict[str, list[dict]]) -> None:
    # every case above together (10k nested $( ), 5000 nested brackets, 50k nested flow
    # collections, an alias bomb): bounded well below a minute on a slow CI machine
    assert report["__elapsed__"][0]["seconds"] < 120


def test_size_limit_is_reported_and_configurable(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_bytes(b"# vllm\n" + b"a: 1\n" * 40_000)
    (tmp_path / "good.sh").write_text(GOOD)
    code, diags, _ = run_cli(["."], tmp_path, env={"VLLM_LINT_MAX_FILE_BYTES": "100000"})
    got = by_file(diags)
    assert code == 1
    assert [d["code"] for d in got["big.yaml"]] == ["VL003"] and "100000-byte limit" in got["big.yaml"][0]["message"]
    assert [d["code"] for d in got["good.sh"]] == ["VL101"]


def test_five_megabyte_line(tmp_path: Path) -> None:
    (tmp_path / "long.yaml").write_bytes(K8S.replace('"16"]', '"16", ' + "a" * 5_000_000 + "]").encode())
    (tmp_path / "long.sh").write_bytes(b"vllm serve m --swap-space 16 " + b"b" * 5_000_000 + b"\n")
    start = time.monotonic()
    code, diags, _ = run_cli(["."], tmp_path)
    assert time.monotonic() - start < 90
    got = by_file(diags)
    assert "VL101" in [d["code"] for d in got["long.yaml"]]
    assert "VL101" in [d["code"] for d in got["long.sh"]]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads every file whatever its mode")
def test_unreadable_file_by_mode(tmp_path: Path) -> None:
    secret = tmp_path / "secret.sh"
    secret.write_text(GOOD)
    secret.chmod(0)
    (tmp_path / "good.sh").write_text(GOOD)
    try:
        code, diags, _ = run_cli(["."], tmp_path)
    finally:
        secret.chmod(0o644)
    got = by_file(diags)
    assert [d["code"] for d in got["secret.sh"]] == ["VL003"]
    assert [d["code"] for d in got["good.sh"]] == ["VL101"]


def test_standard_input_is_bounded(tmp_path: Path) -> None:
    import subprocess

    from tests.robustness.conftest import _command

    env = {**os.environ, "VLLM_LINT_MAX_FILE_BYTES": "1000"}
    data = b"\x00" * 200_000
    proc = subprocess.run([*_command(), "--no-cache", "--output-format", "concise", "-", "--stdin-filename", "x.sh"],
                          input=data, capture_output=True, timeout=60, cwd=tmp_path, env=env)
    assert proc.returncode == 1 and b"VL003" in proc.stdout and b"1000-byte limit" in proc.stdout
    # --fix passes the input through unchanged, byte for byte
    proc = subprocess.run([*_command(), "--no-cache", "--fix", "-", "--stdin-filename", "x.sh"],
                          input=data, capture_output=True, timeout=60, cwd=tmp_path, env=env)
    assert proc.stdout == data and b"VL003" in proc.stderr and proc.returncode == 1
