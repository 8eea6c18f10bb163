"""The promises of the README's guarantees section under attack (issue 19).

Each test builds the attacker's setup on disk and runs the real command line
(or the module that owns the concept) on it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.robustness.conftest import _command, by_file, run_cli

FORMATS = ("full", "concise", "json", "json-lines", "sarif", "github", "rdjson", "gitlab", "junit")
SECRET = "SECRETVALUE"
# a config file whose keys and values vllm-lint would echo if it read it
SECRET_CONFIG = f"max-num-seq: 8\ntensor-parallel-size: {SECRET}\napi-key: {SECRET}\n"


def raw(args: list[str], cwd: Path, *, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the real command line; bytes out, no assumption about the format."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("VLLM_LINT_CACHE_DIR", None)
    full_env.update(env or {})
    return subprocess.run([*_command(), *args], cwd=cwd, capture_output=True, timeout=timeout, env=full_env)


# ---------------------------------------------------------------------------
# 1. A launch cannot make vllm-lint read (and print) a file outside the paths given


@pytest.fixture
def leaky_tree(tmp_path: Path) -> Path:
    repo, secret = tmp_path / "repo", tmp_path / "secret"
    repo.mkdir()
    secret.mkdir()
    (secret / "hosts.yml").write_text(SECRET_CONFIG)
    (repo / "inside.yaml").symlink_to(secret / "hosts.yml")  # an in-tree link to any file
    (repo / "serve.sh").write_text(
        "vllm serve m --config ../secret/hosts.yml\n"
        f"vllm serve m --config {secret / 'hosts.yml'}\n"
        "vllm serve m --config inside.yaml\n"
    )
    return repo


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("cache", [False, True])
def test_config_outside_the_tree_is_never_read_or_printed(leaky_tree: Path, fmt: str, cache: bool) -> None:
    args = ["--output-format", fmt, "."] if cache else ["--no-cache", "--output-format", fmt, "."]
    for _ in range(2 if cache else 1):  # cold, then served from the cache
        proc = raw(args, leaky_tree, env={"VLLM_LINT_CACHE_DIR": str(leaky_tree.parent / "cache")})
        out = proc.stdout.decode() + proc.stderr.decode()
        assert SECRET not in out and "api-key" not in out and "tensor-parallel-size" not in out
        assert "Traceback" not in out
        assert proc.returncode == 1
        assert out.count("outside the linted folder; not read") >= (3 if fmt not in ("gitlab",) else 3), out


def test_config_outside_the_tree_json_points_at_the_launch(leaky_tree: Path) -> None:
    code, diags, err = run_cli(["."], leaky_tree)
    vl003 = by_file(diags)["serve.sh"]
    assert [d["code"] for d in vl003] == ["VL003"] * 3
    assert [d["location"]["row"] for d in vl003] == [1, 2, 3]
    assert all("outside the linted folder; not read" in d["message"] for d in vl003)
    # --fix, --diff and --show-launches read it no more than the check does
    for extra in (["--fix"], ["--diff"], ["--show-launches"]):
        proc = raw(["--no-cache", *extra, "."], leaky_tree)
        assert SECRET not in (proc.stdout + proc.stderr).decode()
    assert (leaky_tree.parent / "secret" / "hosts.yml").read_text() == SECRET_CONFIG


def test_config_inside_the_tree_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "c.yaml").write_text("max-num-seq: 8\n")
    (tmp_path / "serve.sh").write_text("vllm serve m --config conf/c.yaml\n")
    code, diags, _ = run_cli(["."], tmp_path)
    assert [(os.path.basename(d["filename"]), d["code"]) for d in diags] == [("c.yaml", "VL201")]
    # a config named on the command line beside the script counts as given
    code, diags, _ = run_cli(["serve.sh", "conf/c.yaml"], tmp_path)
    assert [(os.path.basename(d["filename"]), d["code"]) for d in diags] == [("c.yaml", "VL201")]
    # the script alone, as a pre-commit hook passes it: a file given inside the working
    # folder stands for the working folder, so the config beside it is read
    code, diags, _ = run_cli(["serve.sh"], tmp_path)
    assert [(os.path.basename(d["filename"]), d["code"]) for d in diags] == [("c.yaml", "VL201")]


def test_a_file_given_outside_the_working_folder_reads_only_its_own_folder(tmp_path: Path) -> None:
    work, repo = tmp_path / "work", tmp_path / "repo"
    (repo / "deploy").mkdir(parents=True)
    work.mkdir()
    (repo / "secret.yml").write_text(SECRET_CONFIG)
    (repo / "deploy" / "serve.sh").write_text("vllm serve m --config ../secret.yml --max-num-seq 4\n")
    code, diags, _ = run_cli([str(repo / "deploy" / "serve.sh")], work)
    assert sorted((d["code"], "not read" in d["message"]) for d in diags) == [("VL003", True), ("VL201", False)]
    assert SECRET not in json.dumps(diags)


# ---------------------------------------------------------------------------
# 4. Escape sequences in names, values and lines never reach a terminal or a log raw

HOSTILE = "\x1b[2J\x1b]0;owned\x07\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\\x1b]52;c;cm0gLXJm\x07\x9b31m\u202egnp.sh\u200b\u2066\ufeff\u2028"


def _raw_controls(text: str) -> list[str]:
    import unicodedata

    return sorted({repr(c) for c in text if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs")})


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [s for v in value for s in _strings(v)] if isinstance(value, list) else []


@pytest.fixture
def hostile_tree(tmp_path: Path) -> Path:
    name = "run" + HOSTILE.replace("/", "") + ".sh"
    (tmp_path / name).write_text(f"vllm serve m --swap-space 16 --dtype '{HOSTILE}' --max-num-seq 8  # {HOSTILE}\n")
    (tmp_path / "values.yaml").write_text(f"command: [vllm, serve, m, '--kv-cache-dtype', \"{HOSTILE.encode('unicode_escape').decode()}\"]\n")
    return tmp_path


@pytest.mark.parametrize("fmt", FORMATS)
def test_control_and_format_characters_are_escaped_in_every_format(hostile_tree: Path, fmt: str) -> None:
    proc = raw(["--no-cache", "--output-format", fmt, "."], hostile_tree)
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    assert proc.returncode == 1, err
    assert _raw_controls(out) == [] and _raw_controls(err) == []
    if fmt in ("json", "sarif", "rdjson", "gitlab"):  # machines still get the exact text
        from urllib.parse import unquote

        assert any(HOSTILE.replace("/", "") in unquote(s) for s in _strings(json.loads(out)))
    if fmt in ("full", "concise"):
        assert "\\x1b[2J" in out  # shown, not obeyed


def test_escapes_in_fix_messages_diff_and_show_launches(hostile_tree: Path) -> None:
    for args in (["--show-launches", "--output-format", "full"], ["--show-launches"], ["--statistics"], ["--fix", "--show-fixes"],
                 ["--changes", "0.8", "0.32"]):
        proc = raw(["--no-cache", *args, "."], hostile_tree)
        for stream in (proc.stdout, proc.stderr):
            assert _raw_controls(stream.decode("utf-8")) == [], args
    # a diff stays a patch: the lines as they are, the names quoted as git quotes them
    (hostile_tree / "values.yaml").unlink()
    name = next(p.name for p in hostile_tree.iterdir())
    (hostile_tree / name).write_text("vllm serve m --max-num-seq 8\n")
    proc = raw(["--no-cache", "--diff", "--show-fixes", "."], hostile_tree)
    assert _raw_controls(proc.stderr.decode()) == []
    head = [line for line in proc.stdout.decode().splitlines() if line.startswith(("---", "+++"))]
    assert len(head) == 2 and _raw_controls("".join(head)) == []
    applied = subprocess.run(["patch", "-p1"], cwd=hostile_tree, input=proc.stdout, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    assert (hostile_tree / name).read_text() == "vllm serve m --max-num-seqs 8\n"


# ---------------------------------------------------------------------------
# 10, 13. JSON values and config.json files are read within bounds

DEEP = "[" * 1000 + "]" * 1000  # 2 KB


def test_deep_json_option_value_gets_a_diagnostic_and_the_tree_is_linted(tmp_path: Path, good: str) -> None:
    (tmp_path / "serve.sh").write_text(f"vllm serve m --kv-transfer-config '{DEEP}'\n")
    (tmp_path / "deep.py").write_text(f"from vllm import LLM\nllm = LLM(model='m', kv_transfer_config='{{\"a\": {DEEP}}}')\n")
    (tmp_path / "conf.yaml").write_text(f"compilation-config: '{DEEP}'\nmax-num-seqs: 8\n")
    (tmp_path / "cfg.sh").write_text("vllm serve m --config conf.yaml\n")
    (tmp_path / "dotted.sh").write_text(f"vllm serve m --compilation-config.level '{DEEP}'\n")
    (tmp_path / "good.sh").write_text(good)
    code, diags, err = run_cli(["."], tmp_path)
    got = by_file(diags)
    assert code == 1
    assert [d["code"] for d in got["good.sh"]] == ["VL101"]
    (deep,) = [d for d in got["serve.sh"] if d["code"] == "VL204"]
    assert "nested deeper than" in deep["message"]


DEEP_CONFIGS = {
    "deep": DEEP,
    "deep-object": '{"num_hidden_layers": 32, "num_attention_heads": 32, "x": ' + DEEP + "}",
    "list": "[1, 2, 3]",
    "string-rope": json.dumps({"num_hidden_layers": 32, "num_attention_heads": 32, "kv_lora_rank": 512, "qk_rope_head_dim": "64"}),
    "list-rope": json.dumps({"num_hidden_layers": 32, "num_attention_heads": 32, "kv_lora_rank": 512, "qk_rope_head_dim": [64]}),
    "negative-pattern": json.dumps({"num_hidden_layers": 32, "num_attention_heads": 32, "sliding_window": 128, "sliding_window_pattern": -6}),
    "huge-layers": json.dumps({"num_hidden_layers": 1e300, "num_attention_heads": 32, "head_dim": 128}),
    "negative-heads": json.dumps({"num_hidden_layers": 32, "num_attention_heads": -8, "hidden_size": 4096}),
    "text-config-list": json.dumps({"text_config": [1], "num_hidden_layers": 32, "num_attention_heads": 32}),
    "not-utf8": b"\xff\xfe{}",
}
KV_SERVE = "vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.9\n"


@pytest.mark.parametrize("name", DEEP_CONFIGS)
def test_model_config_of_any_shape_never_crashes(tmp_path: Path, name: str, good: str) -> None:
    body = DEEP_CONFIGS[name]
    (tmp_path / "config.json").write_bytes(body if isinstance(body, bytes) else body.encode())
    if name == "deep-object":  # the weights index beside it, deep too
        (tmp_path / "model.safetensors.index.json").write_text('{"metadata": ' + DEEP + "}")
    (tmp_path / "serve.sh").write_text(KV_SERVE)
    (tmp_path / "good.sh").write_text(good)
    (tmp_path / "vllm-lint.toml").write_text("gpu-memory-gib = 24\n")
    code, diags, err = run_cli(["--model-config", "config.json", "serve.sh", "good.sh"], tmp_path)
    assert [d["code"] for d in by_file(diags)["good.sh"]] == ["VL101"]


@pytest.mark.parametrize("name", ["deep", "deep-object", "string-rope", "fifo"])
def test_hugging_face_cache_config_of_any_shape_never_crashes_or_blocks(tmp_path: Path, name: str, good: str) -> None:
    snap = tmp_path / "hub" / "models--Qwen--Qwen3-8B" / "snapshots" / "abc"
    snap.mkdir(parents=True)
    if name == "fifo":
        os.mkfifo(snap / "config.json")
    else:
        (snap / "config.json").write_text(DEEP_CONFIGS[name])
        os.mkfifo(snap / "model.safetensors.index.json")
    (tmp_path / "serve.sh").write_text(KV_SERVE)
    (tmp_path / "good.sh").write_text(good)
    (tmp_path / "vllm-lint.toml").write_text("gpu-memory-gib = 24\n")
    code, diags, err = run_cli(["serve.sh", "good.sh"], tmp_path, env={"HF_HUB_CACHE": str(tmp_path / "hub")}, timeout=60)
    assert [d["code"] for d in by_file(diags)["good.sh"]] == ["VL101"]


# ---------------------------------------------------------------------------
# 11, 3, 5. The cache: a hostile pack is a miss, a linked folder is refused, a rewrite is seen


OLD = 1_600_000_000  # outside the racy window: the stat index records the files


@pytest.fixture
def cached_tree(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "deploy").mkdir(parents=True)
    (repo / "deploy" / "serve.sh").write_text("#!/bin/sh\nvllm serve m --swap-space 16 --max-num-seq 8\n")
    (repo / "deploy" / "conf.yaml").write_text("max-num-seq: 8\n")
    (repo / "deploy" / "cfg.sh").write_text("vllm serve m --config conf.yaml\n")
    (repo / "clean.sh").write_text("vllm serve m --max-num-seqs 8\n")
    for p in repo.rglob("*"):
        os.utime(p, (OLD, OLD))
    return repo


def _run_cached(repo: Path, *args: str) -> tuple[int, str]:
    proc = raw(["--output-format", "json", *args, "."], repo, env={"VLLM_LINT_CACHE_DIR": str(repo.parent / "cache")}, timeout=60)
    err = proc.stderr.decode()
    assert "Traceback" not in err and "internal error" not in err, err
    return proc.returncode, proc.stdout.decode()


def _pack(repo: Path, file: str = "cache.json") -> Path:
    """The results' pack (``cache.json``: the entries; ``index.json``: the stat index)."""
    (pack,) = (repo.parent / "cache").glob(f"v*/{file}")
    return pack


def _expected(repo: Path) -> tuple[int, str]:
    proc = raw(["--no-cache", "--output-format", "json", "."], repo)
    return proc.returncode, proc.stdout.decode()


@pytest.mark.parametrize(("attack", "file"), [
    *((a, f) for a in ("fifo", "dev-zero", "deep", "link") for f in ("cache.json", "index.json")),
    ("huge-spans", "cache.json"), ("wrong-types", "cache.json"), ("wrong-rows", "index.json"),
])
def test_a_hostile_cache_pack_is_a_miss(cached_tree: Path, attack: str, file: str) -> None:
    expected = _expected(cached_tree)
    assert _run_cached(cached_tree) == expected
    pack = _pack(cached_tree, file)
    data = json.loads(pack.read_text())
    pack.unlink()
    if attack == "fifo":
        os.mkfifo(pack)
    elif attack == "dev-zero":
        pack.symlink_to("/dev/zero")
    elif attack == "link":  # a pack that is a link to a file elsewhere is not read (nor written through)
        elsewhere = cached_tree.parent / "elsewhere.json"
        elsewhere.write_text(json.dumps(data))
        pack.symlink_to(elsewhere)
    elif attack == "huge-spans":  # valid JSON, spans far beyond the file: gigabytes of carets if trusted
        for _key, (_path, payload) in data["entries"].items():
            for d in payload.get("d", []):
                d[3], d[4] = 10**11, 10**12
                if d[6]:
                    d[6][2] = [[10**11, 10**12, "x" * 10]]
        pack.write_text(json.dumps(data))
    elif attack == "wrong-types":
        for n, key in enumerate(data["entries"]):
            data["entries"][key][1] = [{"d": "VL101"}, {"d": [[1, 2, 3]]}, {"d": [["VL101", 5, None, 0, 1, "nope", None, None, []]]},
                                       {"l": [["not a version", None, "pin"]]}, {"n": [[5, "0.32"]]}, {"d": [[None] * 9]}][n % 6]
        pack.write_text(json.dumps(data))
    elif attack == "wrong-rows":
        data["files"] = {p: [[], "x", None, 5, {}][i % 5] for i, p in enumerate(data["files"])}
        pack.write_text(json.dumps(data))
    elif attack == "deep":
        pack.write_text('{"v": 1, "files": {}, "entries": {"k": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    assert _run_cached(cached_tree) == expected
    assert _run_cached(cached_tree) == expected
    if attack == "link":
        assert json.loads((cached_tree.parent / "elsewhere.json").read_text()) == data


@pytest.mark.parametrize("which", ["root", "version"])
def test_a_linked_cache_folder_is_refused(cached_tree: Path, which: str) -> None:
    """A committed ``.vllm-lint-cache`` link would redirect every contributor's writes."""
    target = cached_tree.parent / "victim"
    target.mkdir()
    expected = _expected(cached_tree)
    if which == "root":
        (cached_tree / ".vllm-lint-cache").symlink_to(target)
        proc = raw(["--output-format", "json", "."], cached_tree)  # the default cache folder, in the repository
        assert (proc.returncode, proc.stdout.decode()) == expected
    else:
        assert _run_cached(cached_tree) == expected
        version = _pack(cached_tree).parent
        for p in version.iterdir():
            p.unlink()
        version.rmdir()
        version.symlink_to(target)
        assert _run_cached(cached_tree) == expected
    assert list(target.iterdir()) == []


@pytest.mark.parametrize("attack", ["fifo", "dev-zero", "huge-spans", "wrong-types", "deep", "link", "linked-folder"])
def test_a_hostile_extraction_pack_is_a_miss(cached_tree: Path, attack: str) -> None:
    """The extractions' pack is read like the results' one: non-blocking, bounded, never
    through a link, every stored extraction checked (spans against the file's text) or a miss."""
    import shutil

    expected = _expected(cached_tree)
    assert _run_cached(cached_tree) == expected
    (pack,) = (cached_tree.parent / "cache").glob("x*/cache.json")
    data = json.loads(pack.read_text())
    assert data["entries"]
    pack.unlink()
    target = cached_tree.parent / "victim"
    if attack == "fifo":
        os.mkfifo(pack)
    elif attack == "dev-zero":
        pack.symlink_to("/dev/zero")
    elif attack == "link":
        target.write_text(json.dumps(data))
        pack.symlink_to(target)
    elif attack == "linked-folder":
        folder = pack.parent
        folder.rmdir()
        target.mkdir()
        folder.symlink_to(target)
    elif attack == "huge-spans":  # valid JSON, a launch's spans far beyond its file
        for _key, (_path, payload) in data["entries"].items():
            for launch in payload.get("L", []):
                for row in launch:
                    if isinstance(row, list) and len(row) == 2 and all(isinstance(v, int) for v in row):
                        row[0], row[1] = 10**11, 10**12
        pack.write_text(json.dumps(data))
    elif attack == "wrong-types":
        for n, key in enumerate(data["entries"]):
            data["entries"][key][1] = [{"L": "x"}, {"L": [[None] * 3]}, {"P": [[0, 1, 5]]}, {"V": [["0.30", 0, 1, "guess", True]]}, {"C": [[0, "1", "#"]]}][n % 5]
        pack.write_text(json.dumps(data))
    elif attack == "deep":
        pack.write_text('{"v": 2, "entries": {"k": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    for _ in range(2):
        for version in (cached_tree.parent / "cache").glob("v*"):
            shutil.rmtree(version)  # the results too: the extractions must be read
        assert _run_cached(cached_tree) == expected
    if attack == "link":
        assert json.loads(target.read_text()) == data
    if attack == "linked-folder":
        assert list(target.iterdir()) == []


def test_an_in_place_rewrite_with_the_same_size_and_mtime_is_seen(cached_tree: Path) -> None:
    """``unzip -o``, ``touch -r``, ``rsync --inplace -t``: same size and mtime, new bytes (and ctime)."""
    assert _run_cached(cached_tree)[0] == 1
    for name in ("clean.sh", "deploy/conf.yaml"):  # the file itself, and a --config file a launch names
        path = cached_tree / name
        st = path.stat()
        text = path.read_text()
        new = text.replace("max-num-seqs 8", "max-num-seq 16") if name == "clean.sh" else text.replace("max-num-seq: 8", "max-num-seq: 9")
        assert len(new) == len(text)
        with open(path, "r+") as f:  # in place: the same inode
            f.write(new)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert (path.stat().st_size, path.stat().st_mtime_ns, path.stat().st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
        assert _run_cached(cached_tree) == _expected(cached_tree), name


# ---------------------------------------------------------------------------
# 12. Every bad configuration value is a usage error naming the key (exit 2)

BAD_CONFIGS = {
    "gpu-inf": ("gpu-memory-gib = inf\n", "gpu-memory-gib"),
    "gpu-nan": ("gpu-memory-gib = nan\n", "gpu-memory-gib"),
    "gpu-huge": ("gpu-memory-gib = 1e300\n", "gpu-memory-gib"),
    "exclude-bang": ('exclude = ["!"]\n', "exclude"),
    "extend-exclude-range": ('extend-exclude = ["[z-a]"]\n', "extend-exclude"),
    "include-backslash": ('include = ["deploy\\\\"]\n', "include"),
    "per-file-range": ('per-file-ignores = { "[z-a]" = ["VL1"] }\n', "per-file-ignores"),
    "select-empty": ('select = [""]\n', "select"),
    "ignore-blank": ('ignore = ["  "]\n', "ignore"),
    "deep": ("select = " + "[" * 900 + "]" * 900 + "\n", None),
    "utf8": (b"select = [\"VL1\"]\n# \xff\xfe\n", None),
    "big": ("# " + "x" * (2 * 1024 * 1024) + "\nselect = [\"VL1\"]\n", None),
}


@pytest.mark.parametrize("name", BAD_CONFIGS)
@pytest.mark.parametrize("how", ["found", "named"])
def test_bad_configuration_is_a_usage_error_naming_the_key(tmp_path: Path, name: str, how: str, good: str) -> None:
    body, key = BAD_CONFIGS[name]
    (tmp_path / "vllm-lint.toml").write_bytes(body if isinstance(body, bytes) else body.encode())
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "serve.sh").write_text(good)
    args = ["--no-cache", "."] if how == "found" else ["--no-cache", "--config", "vllm-lint.toml", "."]
    proc = raw(args, tmp_path, timeout=60)
    err = proc.stderr.decode()
    assert proc.returncode == 2, (proc.stdout, err)
    assert "Traceback" not in err and "internal error" not in err
    assert "vllm-lint.toml" in err
    if key is not None:
        assert f"`{key}" in err, err


def test_configuration_in_a_pipe_does_not_block(tmp_path: Path) -> None:
    from linter import config

    os.mkfifo(tmp_path / "vllm-lint.toml")
    with pytest.raises(config.ConfigError, match="not a regular file"):
        config.load(str(tmp_path / "vllm-lint.toml"))


# ---------------------------------------------------------------------------
# 14. Closed or full streams, interruptions, stale temporary files


def _shell(command: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    exe = " ".join(_command())
    return subprocess.run(["bash", "-c", command.replace("VLLM_LINT", exe)], cwd=cwd, capture_output=True, timeout=timeout)


def test_closed_or_full_standard_streams_are_not_internal_errors(tmp_path: Path, good: str) -> None:
    (tmp_path / "serve.sh").write_text(good * 200)
    closed_out = _shell("VLLM_LINT --no-cache . >&-", tmp_path)
    assert closed_out.returncode == 1 and b"internal error" not in closed_out.stderr and b"Traceback" not in closed_out.stderr
    closed_err = _shell("VLLM_LINT --no-cache --fix . 2>&-", tmp_path)
    assert closed_err.returncode == 1, closed_err.stdout
    (tmp_path / "serve.sh").write_text(good * 200)
    full = _shell("VLLM_LINT --no-cache . >/dev/full", tmp_path)
    err = full.stderr.decode()
    assert full.returncode == 2 and "internal error" not in err and "Traceback" not in err and "Exception ignored" not in err
    assert "cannot write" in err and "No space left on device" in err


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    for i in range(40):
        d = tmp_path / f"d{i}"
        d.mkdir()
        for j in range(50):
            (d / f"s{j}.sh").write_text("#!/bin/sh\nvllm serve m --max-num-seq 8 --swap-space 4\n")
    return tmp_path


@pytest.mark.parametrize("sig, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_an_interrupted_fix_exits_with_the_signal_code_and_leaves_no_temp_file(big_tree: Path, sig: str, code: int) -> None:
    import signal
    import time

    original = (big_tree / "d0" / "s0.sh").read_text()
    proc = subprocess.Popen([*_command(), "--no-cache", "--fix", "."], cwd=big_tree, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # 2,000 files of one launch each: about 5 s to fix them in memory, then about 1.5 s to write
    # them one by one (each synced), so the signal lands while files are being written
    deadline, writing = time.monotonic() + 60, False
    while not writing and time.monotonic() < deadline and proc.poll() is None:
        writing = any("max-num-seqs" in p.read_text() for p in (big_tree / "d0").glob("*.sh"))
        time.sleep(0.02)
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=60)
    assert writing, "the run wrote no file within 60 s"
    assert proc.returncode == code, err
    assert b"Traceback" not in err and b"internal error" not in err
    assert list(big_tree.rglob(".vllm-lint-*.tmp")) == []
    fixed = original.replace("--max-num-seq 8", "--max-num-seqs 8")
    for p in big_tree.rglob("*.sh"):
        assert p.read_text() in (original, fixed)


def test_stale_temp_files_are_removed(tmp_path: Path) -> None:
    (tmp_path / "serve.sh").write_text("vllm serve m --max-num-seq 8\n")
    stale = [tmp_path / ".vllm-lint-4194999-ab12cd.tmp", tmp_path / ".vllm-lint-k2j3h4.tmp"]  # a dead process's, an old run's
    live = tmp_path / f".vllm-lint-{os.getpid()}-zz99yy.tmp"  # a running process's
    fresh = tmp_path / ".vllm-lint-4194998-xx11yy.tmp"  # too young to judge
    for p in (*stale, live, fresh):
        p.write_text("half a file")
    for p in (*stale, live):
        os.utime(p, (OLD, OLD))
    code, _diags, err = run_cli(["--fix", "."], tmp_path)
    assert "--max-num-seqs 8" in (tmp_path / "serve.sh").read_text()
    assert [p.exists() for p in stale] == [False, False]
    assert live.exists() and fresh.exists()


# ---------------------------------------------------------------------------
# 8. --diff is a patch that turns the file into what --fix writes, whatever its line breaks

ODD_BREAKS = {
    "form-feed": "# part one\n\x0c\nvllm serve m --max-num-seq 8\n",
    "vertical-tab": "echo a\x0bb\nvllm serve m --max-num-seq 8\n",
    "lone-cr": "echo a\rb\nvllm serve m --max-num-seq 8\n",
    "nel": "echo 'a\x85b'\nvllm serve m --max-num-seq 8\n",
    "line-separator": "echo 'a\u2028b\u2029c'\nvllm serve m --max-num-seq 8\n",
    "no-final-newline": "echo a\x0c\nvllm serve m --max-num-seq 8",
}


@pytest.mark.parametrize("bom", [False, True])
@pytest.mark.parametrize("name", ODD_BREAKS)
def test_diff_is_a_valid_patch_for_any_line_break(tmp_path: Path, name: str, bom: bool) -> None:
    import shutil

    data = (b"\xef\xbb\xbf" if bom else b"") + ODD_BREAKS[name].encode("utf-8")
    for copy in ("fixed", "patched"):
        (tmp_path / copy).mkdir()
        (tmp_path / copy / "serve.sh").write_bytes(data)
    raw(["--no-cache", "--fix", "."], tmp_path / "fixed")
    fixed = (tmp_path / "fixed" / "serve.sh").read_bytes()
    assert fixed != data and b"--max-num-seqs 8" in fixed
    proc = raw(["--no-cache", "--diff", "."], tmp_path / "patched")
    assert proc.returncode == 1
    applied = subprocess.run(["patch", "-p1", "--quiet"], cwd=tmp_path / "patched", input=proc.stdout, capture_output=True)
    assert applied.returncode == 0, (proc.stdout, applied.stdout, applied.stderr)
    assert (tmp_path / "patched" / "serve.sh").read_bytes() == fixed
    shutil.rmtree(tmp_path / "fixed")


# ---------------------------------------------------------------------------
# 9. A refused write reports what is on disk now; CR-only Markdown is read


def test_a_refused_write_reports_the_file_as_it_is_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    import linter.fixer
    from linter.cli import main

    script = tmp_path / "serve.sh"
    script.write_text("vllm serve m --max-num-seq 8\n")
    real = linter.fixer.fix_source

    def fix_then_edit(src, *args, **kwargs):  # another process rewrites the file while it is being fixed
        outcome = real(src, *args, **kwargs)
        script.write_text("echo moved\nvllm serve m --swap-space 4\n")
        return outcome

    monkeypatch.setattr(linter.fixer, "fix_source", fix_then_edit)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--no-cache", "--fix", "--output-format", "json", "."])
    assert "changed on disk" in result.stderr
    assert script.read_text() == "echo moved\nvllm serve m --swap-space 4\n"
    diags = json.loads(result.stdout)
    assert [(d["code"], d["location"]["row"]) for d in diags] == [("VL101", 2)]
    assert result.exit_code == 1


def test_cr_only_markdown_is_read(tmp_path: Path) -> None:
    doc = "# Serving\r\rRun it:\r\r```bash\rvllm serve m --swap-space 16 \\\r  --max-num-seq 8\r```\r"
    (tmp_path / "README.md").write_bytes(doc.encode())
    code, diags, _ = run_cli(["README.md"], tmp_path)
    assert sorted(d["code"] for d in diags) == ["VL101", "VL201"]
    run_cli(["--fix", "README.md"], tmp_path)
    assert (tmp_path / "README.md").read_bytes() == doc.replace("--max-num-seq 8", "--max-num-seqs 8").encode()


# ---------------------------------------------------------------------------
# 7. A Kubernetes manifest named as --config keeps its own findings

MANIFEST = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.32.0
          args: ["--model", "m", "--swap-space", "16"]
"""


@pytest.mark.parametrize("cache", [False, True])
def test_a_manifest_named_as_config_keeps_its_own_findings(tmp_path: Path, cache: bool) -> None:
    (tmp_path / "deploy.yaml").write_text(MANIFEST)
    (tmp_path / "serve.sh").write_text("vllm serve m --config deploy.yaml\n")
    alone = by_file(run_cli(["deploy.yaml"], tmp_path)[1])["deploy.yaml"]
    assert "VL101" in [d["code"] for d in alone]
    for _ in range(2 if cache else 1):
        args = ["--output-format", "json", "."] if cache else ["--no-cache", "--output-format", "json", "."]
        proc = raw(args, tmp_path, env={"VLLM_LINT_CACHE_DIR": str(tmp_path.parent / f"cache-{tmp_path.name}")})
        got = by_file(json.loads(proc.stdout))
        # the manifest's own launch is still checked (VL101), and its reading as a config file is reported too
        assert [d for d in got["deploy.yaml"] if d["code"] == "VL101" and d["location"]["row"] == 11], got
        assert len(got["deploy.yaml"]) > 1
    # --fix fixes neither reading blindly: the manifest's own fix is kept
    (tmp_path / "deploy.yaml").write_text(MANIFEST.replace('"--swap-space", "16"', '"--max-num-seq", "8"'))
    run_cli(["--fix", "."], tmp_path)
    assert '"--max-num-seqs", "8"' in (tmp_path / "deploy.yaml").read_text()


# ---------------------------------------------------------------------------
# 6. Every name of a hard-linked file is linted; --fix never breaks the link silently


def test_hard_linked_names_are_all_reported_and_fix_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "serve.sh").write_text("vllm serve m --max-num-seq 8\n")
    os.link(tmp_path / "a" / "serve.sh", tmp_path / "start.sh")
    code, diags, _ = run_cli(["."], tmp_path)
    assert sorted(by_file(diags)) == ["a/serve.sh", "start.sh"]
    # the same name twice on the command line is still one file
    code, diags, _ = run_cli(["start.sh", "./start.sh", "."], tmp_path)
    assert sorted(os.path.normpath(d["filename"]) for d in diags) == ["a/serve.sh", "start.sh"]
    code, diags, err = run_cli(["--fix", "."], tmp_path)
    assert "hard link" in err
    assert os.stat(tmp_path / "start.sh").st_ino == os.stat(tmp_path / "a" / "serve.sh").st_ino
    assert (tmp_path / "start.sh").read_text() == "vllm serve m --max-num-seq 8\n"
    assert sorted(by_file(diags)) == ["a/serve.sh", "start.sh"] and code == 1


# ---------------------------------------------------------------------------
# 2. A folder swapped for a link during --fix cannot redirect the write


def test_a_folder_swapped_for_a_link_during_fix_is_not_written_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from click.testing import CliRunner

    from linter.cli import main

    tree, outside = tmp_path / "tree", tmp_path / "outside"
    (tree / "sub").mkdir(parents=True)
    text = "vllm serve m --max-num-seq 8\n"
    (tree / "sub" / "serve.sh").write_text(text)
    real_fsync = os.fsync

    def fsync_then_swap(fd):  # mid-write, after every check: the attacker swaps the folder (same bytes)
        real_fsync(fd)
        if not outside.exists() and (tree / "sub").is_dir():
            shutil.copytree(tree / "sub", outside)  # the temporary file too: a rename by name lands there
            os.rename(tree / "sub", tmp_path / "old-sub")
            (tree / "sub").symlink_to(outside)

    monkeypatch.setattr(os, "fsync", fsync_then_swap)
    monkeypatch.chdir(tree)
    result = CliRunner().invoke(main, ["--no-cache", "--fix", "--output-format", "json", "."])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "internal error" not in result.stderr
    assert (outside / "serve.sh").read_text() == text  # nothing written outside
    # the write went to the folder that was opened: the file that was read, moved with it
    assert (tmp_path / "old-sub" / "serve.sh").read_text() == "vllm serve m --max-num-seqs 8\n"
    assert not [p for p in (tmp_path / "old-sub").iterdir() if p.name.startswith(".vllm-lint-")]


def test_a_link_named_on_the_command_line_is_treated_like_one_in_the_walk(tmp_path: Path) -> None:
    (tmp_path / "tree").mkdir()
    (tmp_path / "secret.sh").write_text(f"vllm serve m --max-num-seq 8 --served-model-name {SECRET}\n")
    (tmp_path / "tree" / "link.sh").symlink_to(tmp_path / "secret.sh")
    code, diags, _ = run_cli(["link.sh"], tmp_path / "tree")
    assert [(d["code"], "outside" in d["message"]) for d in diags] == [("VL003", True)]
    assert SECRET not in json.dumps(diags)
    code, diags, _ = run_cli(["--fix", "link.sh"], tmp_path / "tree")
    assert (tmp_path / "secret.sh").read_text().startswith("vllm serve m --max-num-seq 8")


# ---------------------------------------------------------------------------
# 15. --fix keeps setuid/setgid, ACLs, extended attributes and the owner, or refuses


def _acl(user: int) -> bytes:
    """A POSIX access ACL granting ``user`` read access, in the kernel's xattr form."""
    import struct

    def entry(tag: int, perm: int, ident: int = 0xFFFFFFFF) -> bytes:
        return struct.pack("<HHI", tag, perm, ident)

    return struct.pack("<I", 2) + entry(0x01, 6) + entry(0x02, 4, user) + entry(0x04, 4) + entry(0x10, 4) + entry(0x20, 0)


def test_fix_keeps_setuid_setgid_acls_xattrs_and_owner(tmp_path: Path) -> None:
    script = tmp_path / "serve.sh"
    script.write_text("vllm serve m --max-num-seq 8\n")
    if os.geteuid() == 0:
        os.chown(script, 1234, 2345)
    try:
        os.setxattr(script, "user.origin", b"deploy-team")
        os.setxattr(script, "system.posix_acl_access", _acl(4321))
    except OSError as exc:
        pytest.skip(f"no extended attributes or ACLs here: {exc}")
    os.chmod(script, 0o6750)  # last: a chown clears setuid and setgid
    before = script.stat()
    assert stat_mode(before) & 0o6000 == 0o6000
    acl = os.getxattr(script, "system.posix_acl_access")
    code, _diags, err = run_cli(["--fix", "serve.sh"], tmp_path)
    assert script.read_text() == "vllm serve m --max-num-seqs 8\n", err
    after = script.stat()
    assert after.st_ino != before.st_ino  # a new file, renamed over the old one
    assert oct(stat_mode(after)) == oct(stat_mode(before))
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)
    assert os.getxattr(script, "user.origin") == b"deploy-team"
    assert os.getxattr(script, "system.posix_acl_access") == acl


def stat_mode(st: os.stat_result) -> int:
    import stat

    return stat.S_IMODE(st.st_mode)


def test_fix_refuses_what_it_cannot_keep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from linter import fixer

    script = tmp_path / "serve.sh"
    data = b"vllm serve m --max-num-seq 8\n"
    script.write_bytes(data)
    # another user's file, run as someone else: the rewritten file would change hands
    monkeypatch.setattr(fixer.os, "geteuid", lambda: script.stat().st_uid + 1)
    monkeypatch.setattr(fixer.os, "access", lambda *a, **k: True)
    with pytest.raises(fixer.FixError, match="belongs to another user"):
        fixer.write_atomic(str(script), data, b"x")
    monkeypatch.undo()
    # an attribute that cannot be copied (a security label the file system refuses to set again)
    os.setxattr(script, "user.keep", b"1")
    real_setxattr = os.setxattr

    def refuse(*a, **k):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(fixer.os, "setxattr", refuse)
    with pytest.raises(fixer.FixError, match="user.keep"):
        fixer.write_atomic(str(script), data, b"x")
    assert script.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["serve.sh"]
    del real_setxattr
