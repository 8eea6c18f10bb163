"""The result cache and the process pool never change what vllm-lint prints."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from linter import batch, project
from linter.cache import DIRNAME, Cache
from linter.cli import main
from linter.engine import Settings
from linter.reporters import reporter

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CORPUS = ROOT.parent / "shared" / "corpus" / "tree"
FORMATS = ["full", "concise", "json", "json-lines", "sarif", "github", "rdjson", "gitlab", "junit"]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    if CORPUS.exists():  # a quarter of the real files keeps the runs short
        for i, src in enumerate(sorted(p for p in CORPUS.rglob("*") if p.is_file())):
            if i % 4 == 0:
                dest = tmp_path / "corpus" / src.relative_to(CORPUS)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def entries(root: Path) -> list[Path]:
    return [p for p in (root / DIRNAME).rglob("*.json")] if (root / DIRNAME).exists() else []


@pytest.mark.parametrize("fmt", FORMATS)
def test_cached_and_uncached_runs_print_the_same(tree, fmt):
    uncached = run("--no-cache", "--output-format", fmt, ".")
    assert not (tree / DIRNAME).exists()  # --no-cache writes nothing
    cold = run("--output-format", fmt, ".")
    assert entries(tree), "the first run stores its results"
    warm = run("--output-format", fmt, ".")
    assert uncached == cold == warm
    assert uncached[0] == 1


def test_statistics_and_target_version_are_part_of_the_key(tree):
    run(".")
    for args in (["--statistics"], ["--target-version", "0.30"], ["--select", "VL1"], ["--ignore", "VL601"]):
        assert run(*args, ".") == run("--no-cache", *args, ".")


def test_cache_folder_is_ignored_by_git_and_by_the_walk(tree):
    run(".")
    assert (tree / DIRNAME / ".gitignore").read_text().strip().endswith("*")
    assert ".vllm-lint-cache/" in (ROOT / ".gitignore").read_text().split()
    assert DIRNAME not in run("--output-format", "concise", ".")[1]


def test_unreadable_or_corrupt_entries_are_ignored(tree):
    expected = run("--no-cache", "--output-format", "json", ".")
    run(".")
    found = entries(tree)
    assert found
    bad = [b"", b"{not json", b"\xff\xfe\x00garbage", json.dumps({"v": 1, "r": {"d": [[1, 2]]}}).encode(), json.dumps({"v": 999, "r": {}}).encode(), b"[]"]
    for i, p in enumerate(found):
        p.write_bytes(bad[i % len(bad)])
    assert run("--output-format", "json", ".") == expected
    # and a run over the damaged cache repaired it: the next run is served from it, still the same
    assert run("--output-format", "json", ".") == expected


def test_edited_file_is_linted_again(tree):
    run(".")
    serve = tree / "examples" / "deploy" / "serve.sh"
    serve.write_text(serve.read_text().replace("--swap-space 16", "--max-num-seqs 4"))
    assert run("--output-format", "concise", ".") == run("--no-cache", "--output-format", "concise", ".")


def test_a_file_name_that_is_not_utf8_keeps_the_cache_readable(tmp_path, monkeypatch):
    """A name that is not UTF-8 (a lone surrogate in Python) is stored escaped: the packs stay
    JSON that the next run reads, so it is served from them (they were unreadable, every run cold)."""
    from linter import engine

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    Path(os.fsdecode(b"serve-\xff.sh")).write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-num-seq 8\n")
    Path("other.sh").write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --swap-space 4\n")
    for name in (os.fsdecode(b"serve-\xff.sh"), "other.sh"):
        os.utime(name, (1e9, 1e9))  # long unchanged: the stat index records them
    first = run("--output-format", "concise", ".")
    assert "serve-\\udcff.sh:2:" in first[1] and "VL201" in first[1]  # (the name as ruff prints it)
    assert all(p.read_bytes().isascii() for p in entries(tmp_path))
    cache = Cache(str(tmp_path / DIRNAME))
    assert sorted(cache.load()) == ["other.sh", os.fsdecode(b"serve-\xff.sh")]
    linted: list[str] = []
    real = engine.lint_source
    monkeypatch.setattr(engine, "lint_source", lambda src, *a, **k: linted.append(src.path) or real(src, *a, **k))
    assert run("--output-format", "concise", ".") == first and linted == []


@pytest.mark.parametrize("old_files", [False, True])
def test_results_that_read_another_file_follow_it(tree, old_files):
    """serve.sh names serve-config.yaml: its stored result holds while that file is unchanged."""
    if old_files:  # outside the racy window: results, with the config's signature, are stored
        for p in tree.rglob("*"):
            if p.is_file():
                os.utime(p, (1_600_000_000, 1_600_000_000))
    first = run("--output-format", "concise", ".")
    assert run("--output-format", "concise", ".") == first
    cfg = tree / "examples" / "deploy" / "serve-config.yaml"
    cfg.write_text(cfg.read_text().replace("max-num-seqs: 64", "max-num-seq: 64"))
    edited = run("--output-format", "concise", ".")
    assert edited == run("--no-cache", "--output-format", "concise", ".")
    assert edited != first
    cfg.unlink()  # a named config that disappears changes serve.sh's result too
    assert run("--output-format", "concise", ".") == run("--no-cache", "--output-format", "concise", ".")


def _report(results, fmt):
    return reporter(fmt)(results)


@pytest.mark.parametrize("processes", [1, 2])
def test_compact_results_report_like_full_results(tree, monkeypatch, processes):
    """The compact form (from a worker or the cache) gives every reporter what the full objects give."""
    monkeypatch.setattr(batch, "SPLIT_BYTES", 0)  # shares on `processes` cores, however few the files
    monkeypatch.setattr(batch, "_workers", lambda: processes)
    cands = project.candidates(["."], respect_gitignore=True, force_exclude=False)
    settings = Settings()
    full = project.lint(cands, settings)
    compact = project.lint(cands, settings, compact=True)
    cached_cold = project.lint(cands, settings, compact=True, cache=Cache(str(tree / "c")))
    cached_warm = project.lint(cands, settings, compact=True, cache=Cache(str(tree / "c")))
    assert [r.path for r in full] == [r.path for r in compact] == [r.path for r in cached_warm]
    for fmt in FORMATS:
        want = _report(full, fmt)
        assert _report(compact, fmt) == want
        assert _report(cached_cold, fmt) == want
        assert _report(cached_warm, fmt) == want


def test_concurrent_writers_leave_whole_entries(tree):
    """Two runs saving at once (as two pre-commit hooks would): each write is atomic and
    merges what the other saved, so the pack stays readable and keeps both runs' entries."""
    a, b = Cache(str(tree / "c"), tool="t"), Cache(str(tree / "c"), tool="t")
    a.load(), b.load()
    a.put("a" * 40, "x.sh", {"l": [["0.33.0", None, "newest"]]})
    b.put("b" * 40, "y.sh", {})
    a.save()
    b.save()
    c = Cache(str(tree / "c"), tool="t")
    c.load()
    assert c.get("a" * 40) == {"l": [["0.33.0", None, "newest"]]} and c.get("b" * 40) == {}
    assert not [p for p in (tree / "c").rglob(".tmp-*")]
    c.put("c" * 40, "x.sh", {})  # a new entry for x.sh replaces its old one
    c.save()
    d = Cache(str(tree / "c"), tool="t")
    d.load()
    assert d.get("a" * 40) is None and d.get("c" * 40) == {} and d.get("b" * 40) == {}
    os.chmod(tree / "c", 0o500)
    try:
        e = Cache(str(tree / "c"), tool="u")
        e.put("ab" * 20, "z.sh", {})
        e.save()  # an unwritable cache is only slower
    finally:
        os.chmod(tree / "c", 0o700)


def test_a_save_reads_the_pack_again_only_when_another_run_replaced_it(tree, monkeypatch):
    """Runs that load existing packs and save after one another keep each other's entries and
    index rows (the second sees the first replaced the packs and merges them); a run whose
    packs nobody replaced writes what it read without reading them again, and a run that
    changes no index row leaves the index file as it is (a new --target-version)."""
    def row(n):
        return [n, 1, 1, n, 1, "d" * 40, True]

    first = Cache(str(tree / "c"), tool="t")
    first.put("0" * 40, "w.sh", {})
    first.put_extraction("e0" * 20, "w.sh", {})
    first.note_file("w.sh", row(0))
    first.save()
    a, b = Cache(str(tree / "c"), tool="t"), Cache(str(tree / "c"), tool="t")
    for run_ in (a, b):
        run_.load(), run_.load_extractions()
    for run_, k, path in ((a, "a", "x.sh"), (b, "b", "y.sh")):
        run_.put(k * 40, path, {})
        run_.put_extraction("e" + k * 39, path, {})
        run_.note_file(path, row(len(path) + ord(k)))
    a.save()
    b.save()  # a replaced the packs since b read them: b reads them again
    c = Cache(str(tree / "c"), tool="t")
    c.load()
    assert all(c.get(k * 40) == {} for k in "0ab")
    assert all(c.get_extraction(k) == {} for k in ("e0" * 20, "e" + "a" * 39, "e" + "b" * 39))
    assert sorted(c.files) == ["w.sh", "x.sh", "y.sh"]
    reads = []
    original = Cache._read_json
    monkeypatch.setattr(Cache, "_read_json", lambda self, *a, **k: reads.append(a or k) or original(self, *a, **k))
    index = next((tree / "c").glob("v*/index.json"))
    before = index.stat()
    c.put("c" * 40, "z.sh", {})
    c.put_extraction("ec" * 20, "z.sh", {})
    c.note_file("w.sh", row(0))  # as it is: no update
    c.save()
    assert reads == [], "nobody replaced the packs c read: they are not read again"
    after = index.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns), "no index row changed: not rewritten"
    d = Cache(str(tree / "c"), tool="t")
    d.load()
    assert all(d.get(k * 40) == {} for k in "0abc")
    assert all(d.get_extraction(k) == {} for k in ("e0" * 20, "e" + "a" * 39, "e" + "b" * 39, "ec" * 20))
    assert d.files == c.files


def test_stat_index_serves_unchanged_files_and_notices_edits(tree):
    """Files older than the racy window are recorded by size, mtime and inode; an edit changes the mtime."""
    old = 1_600_000_000
    for p in tree.rglob("*"):
        if p.is_file():
            os.utime(p, (old, old))
    expected = run("--no-cache", "--output-format", "concise", ".")
    assert run("--output-format", "concise", ".") == expected
    index = json.loads(next((tree / DIRNAME).glob("v*/index.json")).read_text())
    assert index["files"], "unchanged old files are recorded"
    assert run("--output-format", "concise", ".") == expected  # served from the index and the entries
    serve = tree / "examples" / "deploy" / "serve.sh"
    serve.write_text(serve.read_text().replace("--swap-space 16", "--max-num-seqs 4"))
    edited = run("--output-format", "concise", ".")
    assert edited == run("--no-cache", "--output-format", "concise", ".")
    assert edited != expected


def test_a_stat_index_row_says_a_vllm_word_only_as_the_screening_writes_it(tree):
    """A row's screening is ``"vllm"`` (a vLLM word), True, False or None; a row with any other
    value is not read (that file is read and screened again), and the output stays an uncached run's."""
    from linter.cache import VLLM_WORD_FOUND

    for p in tree.rglob("*"):
        if p.is_file():
            os.utime(p, (1_600_000_000, 1_600_000_000))
    expected = run("--no-cache", "--output-format", "concise", ".")
    assert run("--output-format", "concise", ".") == expected
    index_file = next((tree / DIRNAME).glob("v*/index.json"))
    rows = json.loads(index_file.read_text())["files"]
    serve = os.path.join("examples", "deploy", "serve.sh")
    assert rows[serve][6] == VLLM_WORD_FOUND
    pack = json.loads(index_file.read_text())
    pack["files"][serve] = [*rows[serve][:6], "maybe"]
    index_file.write_text(json.dumps(pack))
    cache = Cache(str(tree / DIRNAME))
    assert serve not in cache.load() and len(cache.load()) == len(rows) - 1
    assert run("--target-version", "0.30", "--output-format", "concise", ".") == run("--no-cache", "--target-version", "0.30", "--output-format", "concise", ".")
    assert run("--output-format", "concise", ".") == expected


def test_a_model_added_to_the_hugging_face_cache_changes_the_key(tree, monkeypatch):
    """VL802/VL803 read config.json from the local HF cache: entries stored before a download are not used after it."""
    hub = tree / "hf-hub"
    hub.mkdir()
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    before = Cache(str(tree / "c"), tool="t").environment
    snap = hub / "models--Qwen--Qwen3-8B" / "snapshots" / "abc"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text("{}")
    (hub / "models--Qwen--Qwen3-8B" / "refs").mkdir()
    (hub / "models--Qwen--Qwen3-8B" / "refs" / "main").write_text("abc")
    assert Cache(str(tree / "c"), tool="t").environment != before
    assert run("--output-format", "concise", ".") == run("--no-cache", "--output-format", "concise", ".")


# ---------------------------------------------------------------------------
# the extraction cache: what the readers found, kept apart from the rules


def test_stored_extractions_decode_equal_to_what_the_readers_found(tree):
    """Every kind's extraction (launches with tokens, settings, env, pins, problems, comments)
    comes back from its JSON form equal, through a real JSON round trip."""
    from linter import stored_extraction
    from linter.engine import extract
    from linter.source_file import SourceFile

    (tree / "SERVING.md").write_text(
        "# Serving\n\nStart the server:\n\n```bash\nexport VLLM_LOGGING_LEVEL=DEBUG\n"
        "vllm serve Qwen/Qwen3-8B --max-model-len 16384 \\\n  --served-model-name \"$NAME\" ${EXTRA_ARGS}  # the model\n```\n"
    )
    seen_kinds, seen_launches = set(), 0
    for c in project.candidates(["."]):
        if c.status != "ok":
            continue
        src = SourceFile.from_bytes(c.path, Path(c.path).read_bytes())
        found = extract(src, c.kind)
        back = stored_extraction.decode(json.loads(json.dumps(stored_extraction.encode(found))), len(src.text))
        assert back == found, c.path
        assert all(isinstance(t.opaque, tuple) for launch in back.launches for t in launch.args)
        seen_kinds.add(c.kind)
        seen_launches += len(found.launches)
    assert seen_launches >= 6 and len(seen_kinds) >= 5, seen_kinds


DEPLOY_SH = """#!/usr/bin/env bash
set -euo pipefail
if [ "${GPU:-a100}" = "h100" ]; then
  IMG=vllm/vllm-openai:v0.30.1
else
  IMG=vllm/vllm-openai:v0.29.0
fi
cat > serve.yaml <<'YAML'
max-model-len: 16384
gpu-memory-utilization: 0.9
swap-space: 4
YAML
vllm serve Qwen/Qwen3-8B --config serve.yaml --port 8000 &
docker run --gpus all "$IMG" --model Qwen/Qwen3-8B --max-model-len 8192
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen
spec:
  template:
    spec:
      containers:
      - name: server
        image: vllm/vllm-openai:v0.30.1
        command: ["vllm", "serve"]
        args: ["Qwen/Qwen3-8B", "--max-model-len", "${LEN}", "--swap-space", "8"]
EOF
"""


def test_a_script_that_writes_data_files_is_stored_with_its_links(tmp_path, monkeypatch):
    """A script whose heredocs write a --config file and a manifest, with an image chosen per
    branch: its extraction is stored (the config link as a place in the launch list, the word's
    values with the token) and comes back equal, and a new target reads it from the cache."""
    from linter import engine, stored_extraction
    from linter.source_file import SourceFile

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    (tmp_path / "deploy.sh").write_text(DEPLOY_SH)
    src = SourceFile.from_bytes("deploy.sh", DEPLOY_SH.encode())
    found = engine.extract(src, "shell")
    assert found.written and stored_extraction.storable(found)
    assert any(launch.config is not None for launch in found.launches)
    assert any(launch.image is not None and launch.image.alternatives for launch in found.launches)
    back = stored_extraction.decode(json.loads(json.dumps(stored_extraction.encode(found))), len(src.text))
    assert back == engine.Extraction(found.launches, found.problems, found.pins, found.comments)
    for launch in back.launches:  # the link is to the launch of the list itself, not a copy
        assert launch.config is None or any(launch.config is other for other in back.launches)
    bad = stored_extraction.encode(found)
    at = stored_extraction._LAUNCH_FIELDS.index("config")
    linked = next(i for i, row in enumerate(bad["L"]) if row[at] is not None)
    for wrong in (linked, len(bad["L"]), -1, True, "1"):
        rows = [list(r) for r in bad["L"]]
        rows[linked][at] = wrong
        with pytest.raises(ValueError):
            stored_extraction.decode({**bad, "L": rows}, len(src.text))

    run("deploy.sh")
    calls = []
    real = engine.extract
    monkeypatch.setattr(engine, "extract", lambda src, kind: calls.append(src.path) or real(src, kind))
    for target in ("0.29", "0.31"):
        assert run("--target-version", target, "--output-format", "json", "deploy.sh") == run(
            "--no-cache", "--target-version", target, "--output-format", "json", "deploy.sh")
    assert calls == ["deploy.sh", "deploy.sh"]  # the --no-cache runs only


def test_stored_extraction_that_is_not_one_is_a_miss():
    from linter import stored_extraction

    from linter.engine import extract
    from linter.source_file import SourceFile

    text = "FROM vllm/vllm-openai:v0.30.0\nCMD vllm serve Qwen/Qwen3-8B --max-model-len 8192  # long\n"
    good = stored_extraction.encode(extract(SourceFile.from_bytes("Dockerfile", text.encode()), "dockerfile"))
    assert good.get("L") and good.get("V")
    assert stored_extraction.decode(json.loads(json.dumps(good)), len(text)).launches
    row = good["L"][0]
    fields = stored_extraction._LAUNCH_FIELDS

    def with_field(name, value):
        return {**good, "L": [[value if n == name else v for n, v in zip(fields, row)]]}

    bad_ones = [
        {"L": [[1, 2]]}, {"P": [["a"]]}, {"C": 3}, {"V": [[None]]}, {"X": []}, [],
        {"P": [[0, len(text) + 1, "past the end"]]},  # a span outside the text
        {"P": [[5, 2, "reversed"]]}, {"C": [[True, 3, "#"]]},
        with_field("span", [0, len(text) + 40]),
        with_field("strong", 1),  # a flag where a boolean is written
        with_field("program", "bash"),
        with_field("args", [None]),
        with_field("args", [["--x", 0, 3, 0, 0, 0]]),  # a token of the old layout
        with_field("resources", {"gpu-count": 1}),
        with_field("loose_from", -1),
        {**good, "V": [[*good["V"][0][:3], "guess", True]]},
    ]
    for bad in bad_ones:
        with pytest.raises(ValueError):
            stored_extraction.decode(bad, len(text))


def test_a_new_target_reads_the_stored_extractions_and_prints_what_an_uncached_run_prints(tree, monkeypatch):
    from linter import engine

    run(".")
    calls = []
    real = engine.extract
    monkeypatch.setattr(engine, "extract", lambda src, kind: calls.append(src.path) or real(src, kind))
    for args in (["--target-version", "0.30"], ["--select", "ALL"], ["--target-version", "0.31", "--ignore", "VL601"]):
        assert run("--output-format", "json", *args, ".") == run("--no-cache", "--output-format", "json", *args, ".")
    cached_calls = len(calls)
    calls.clear()
    run("--no-cache", "--target-version", "0.29", ".")
    assert calls, "an uncached run reads every file"
    assert cached_calls == len(calls) * 3  # only the --no-cache runs read files again


MANIFEST_WITH_DIRECTIVES = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: qwen  # vllm-lint: ignore-file[VL999] a code no rule has
  annotations:
    note: "# vllm-lint: ignore[VL103] quoted, so no comment"
spec:
  template:
    spec:
      containers:
      - name: server
        image: vllm/vllm-openai:v0.30.1
        command: ["vllm", "serve"]
        # VLLM-LINT: ignore[VL101] the launcher strips it
        args: ["Qwen/Qwen3-8B", "--swap-space", "8", "--max-num-seqs", "4"]
"""


def test_a_new_target_reads_the_directives_kept_with_the_extraction(tmp_path, monkeypatch):
    """The comments of a manifest that hold a directive (found by its kind's finder, which a
    quoted `#` never fools) are kept with its stored extraction: a new target applies the same
    suppressions without searching the text or running the finder again."""
    from linter import kinds, stored_extraction, suppression
    from linter.source_file import SourceFile

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    (tmp_path / "deploy.yaml").write_text(MANIFEST_WITH_DIRECTIVES)
    kind = kinds.classify("deploy.yaml")
    src = SourceFile.from_bytes("deploy.yaml", MANIFEST_WITH_DIRECTIVES.encode())
    directives = suppression.directive_comments(src, kind)
    assert [c.text for c in directives] == ["# vllm-lint: ignore-file[VL999] a code no rule has", "# VLLM-LINT: ignore[VL101] the launcher strips it"]
    assert suppression.directive_comments(src, "shell") is None  # the shell reader reports its comments itself
    assert suppression.directive_comments(SourceFile.from_text("x.yaml", "a: 1  # vllm serve\n"), kind) == []
    assert suppression.suppressions(src, kind, None, directives) == suppression.suppressions(src, kind)
    args = ["--output-format", "json", "."]
    uncached = {target: run("--no-cache", "--target-version", target, *args) for target in ("0.30", "0.31")}
    assert "VL999" in uncached["0.30"][1], "the unknown code is reported (VL901)"
    run(*args)  # stores the extraction
    searched = []
    real = suppression.comments
    monkeypatch.setattr(suppression, "comments", lambda *a: searched.append(a) or real(*a))
    for target, expected in uncached.items():
        assert run("--target-version", target, *args) == expected
    assert searched == [], "a new target finds the directives in the stored extraction"
    stored = next(iter(json.loads(next(tmp_path.glob(f"{DIRNAME}/x*/cache.json")).read_text())["entries"].values()))[1]
    assert stored_extraction.decode(stored, len(src.text)).directives == directives


def test_an_edited_file_is_read_again_for_a_new_target(tree):
    run(".")
    serve = tree / "examples" / "deploy" / "serve.sh"
    serve.write_text(serve.read_text().replace("--swap-space 16", "--max-num-seq 4"))
    args = ["--output-format", "concise", "--target-version", "0.30", "."]
    assert run(*args) == run("--no-cache", *args)


def test_corrupt_extraction_pack_is_ignored(tree):
    run(".")
    packs = list((tree / DIRNAME).glob("x*/cache.json"))
    assert packs
    expected = run("--no-cache", "--target-version", "0.30", "--output-format", "json", ".")
    for body in (b"{not json", json.dumps({"v": 1, "entries": {k: [k, {"L": [[0]]}] for k in json.loads(packs[0].read_text())["entries"]}}).encode()):
        packs[0].write_bytes(body)
        assert run("--target-version", "0.30", "--output-format", "json", ".") == expected
        shutil.rmtree(next((tree / DIRNAME).glob("v*")))  # the results too: the extractions must be read


def test_chunks_put_each_big_file_alone_first_and_every_job_once(tmp_path):
    """Three 3 MB manifests among a thousand small files: each manifest is a chunk of its own,
    taken first; every job is in exactly one chunk, in the jobs' order there; no chunk of small
    files weighs much over CHUNK_WEIGHT."""
    jobs = []
    for k in range(1000):
        size = 3_000_000 if k in (10, 500, 990) else 2_000 + k
        jobs.append((k, f"f{k}.yaml", "yaml", True, (size, 0, k)))
    weights = [j[4][0] + batch.PER_FILE for j in jobs]
    chunks = batch._chunks(jobs, weights)
    assert sorted(j for c in chunks for j in c) == jobs
    assert all(c == sorted(c) for c in chunks)
    assert [len(c) for c in chunks[:3]] == [1, 1, 1] and {c[0][0] for c in chunks[:3]} == {10, 500, 990}
    assert all(sum(j[4][0] + batch.PER_FILE for j in c) <= batch.CHUNK_WEIGHT + 3_000 + batch.PER_FILE for c in chunks[3:])
    many = [(k, f"f{k}", "yaml", True, (1_000, 0, k)) for k in range(100_000)]  # never more numbers than the queue holds
    assert len(batch._chunks(many, [1_000 + batch.PER_FILE] * len(many))) <= 800


def test_a_share_whose_process_fails_is_linted_here(tree, monkeypatch):
    """A share's process that dies (killed, out of memory) costs its speed, not its results."""
    monkeypatch.setattr(batch, "SPLIT_BYTES", 0)
    monkeypatch.setattr(batch, "_workers", lambda: 3)
    cands = project.candidates(["."], respect_gitignore=True, force_exclude=False)
    settings = Settings()
    want = _report(project.lint(cands, settings), "concise")
    real_run = batch._run

    def dying(jobs, progress, done=0):
        if progress.total == 0:  # a forked share (its progress is not shown)
            os._exit(3)
        return real_run(jobs, progress, done)

    monkeypatch.setattr(batch, "_run", dying)
    assert _report(project.lint(cands, settings, compact=True), "concise") == want


def test_files_without_a_launch_are_not_linted_again_for_a_new_target(tmp_path, monkeypatch):
    """A file that mentions vLLM but starts nothing (a module naming its backend, a Service) reads
    the same for every release: a new --target-version serves it from the cache and lints
    only the files with launches; a new selection lints it again."""
    from linter import engine

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    (tmp_path / "serve.sh").write_text("#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-num-seq 8 --swap-space 4\n")
    (tmp_path / "backends.py").write_text('"""Backends."""\n\nNAMES = {"vllm": "vLLM server", "tgi": "TGI"}  # vllm-lint: ignore[VL101]\n')
    (tmp_path / "notes.yaml").write_text("apiVersion: v1\nkind: Service\nmetadata:\n  name: vllm-router\nspec:\n  selector: {app: vllm}\n  ports: [{port: 80, targetPort: 8000}]\n")
    run(".")
    linted: list[str] = []
    real = engine.lint_source
    monkeypatch.setattr(engine, "lint_source", lambda src, *a, **k: linted.append(src.path) or real(src, *a, **k))
    for args in (["--target-version", "0.30"], ["--target-version", "0.31", "--select", "ALL"]):
        linted.clear()
        assert run("--output-format", "json", *args, ".") == run("--no-cache", "--output-format", "json", *args, ".")
        cached = linted[: len(linted) - 3]  # the --no-cache run lints the three
        if "--select" in args:
            assert sorted(cached) == ["backends.py", "notes.yaml", "serve.sh"]
        else:
            assert cached == ["serve.sh"]


def test_a_shares_results_cross_the_pipe_whole():
    """What a share's process sends back is what it packed: payloads, texts (a BOM, a UTF-16
    file, a lone surrogate), a cached result's bytes, stat index rows, entries, extractions;
    and the config files it linted ahead, each with its path, release and digest."""
    from linter.source_file import SourceFile

    src = SourceFile("a.sh", "vllm serve m \udcff --x\n", "utf-16-le", b"\xff\xfe")
    packed = [
        (0, ({"d": [["VL101", "m", None, 0, 4, "error", None, None, [], []]]}, src), (("a.sh", [1, 2, 3, 4, 5, "ab", True]), ("k" * 40, "a.sh", {"l": []}), None)),
        (3, ({"l": [["0.33.0", None, "newest"]]}, b"\xef\xbb\xbfvllm serve m\n"), (None, None, ("x" * 40, "b.yaml", {"L": []}))),
        (5, None, (("c.md", [9, 9, 9, 9, 9, "", None]), None, None)),
    ]
    named = SourceFile("conf/serve.yaml", "max-num-seqs: 8\nswap-space: 4\n", "utf-8", b"")
    ahead = [
        (("conf/serve.yaml", "0.31.0"), ("d" * 40, ({"d": [["VL101", "m", None, 17, 27, "error", None, "0.31.0", [], []]]}, named), (None, ("k" * 40, "conf/serve.yaml", {"d": []}), ("x" * 40, "conf/serve.yaml", {"L": []})))),
        (("conf/empty.yaml", "0.33.0"), ("e" * 40, None, (None, None, None))),
    ]
    back, back_ahead = batch._from_wire(batch._to_wire(packed, ahead), {0: "a.sh", 3: "b.yaml", 5: "c.md"})
    assert [(slot, answer[0] if answer else None) for slot, answer, _u in back] == [(slot, answer[0] if answer else None) for slot, answer, _u in packed]
    assert back[0][1][1] == src and back[1][1][1] == packed[1][1][1]
    assert [[list(x) if x is not None else None for x in u] for _s, _a, u in back] == [[list(x) if x is not None else None for x in u] for _s, _a, u in packed]
    assert [(key, digest, answer[0] if answer else None) for key, (digest, answer, _u) in back_ahead] == [(key, digest, answer[0] if answer else None) for key, (digest, answer, _u) in ahead]
    assert back_ahead[0][1][1][1] == named and back_ahead[1][1][1] is None
    assert [[list(x) if x is not None else None for x in u] for _k, (_d, _a, u) in back_ahead] == [[list(x) if x is not None else None for x in u] for _k, (_d, _a, u) in ahead]
    with pytest.raises(ValueError):  # a config file linted ahead must name itself
        batch._from_wire(b'[[],[[1,"0.31.0","dd",null,[null,null,null]]]]', {})


def test_a_new_target_weighs_only_the_files_whose_extraction_is_not_kept(tree, monkeypatch):
    """After a run, every unchanged file's extraction is in the cache: a new --target-version
    leaves only the rules, which are not work enough to fork for (as a pool would not have been)."""
    (tree / "examples" / "notes.md").write_text("# Notes\n\nNothing about serving here.\n" * 50)
    for p in tree.rglob("*"):
        if p.is_file():
            os.utime(p, (1_600_000_000, 1_600_000_000))
    cache = Cache(str(tree / "c"))
    cands = project.candidates(["."], respect_gitignore=True, force_exclude=False)
    project.lint(cands, Settings(), compact=True, cache=cache)
    cache = Cache(str(tree / "c"))
    index = cache.load()
    cache.load_extractions()
    batch._STATE.update(settings=Settings(), cache=cache, index=index)
    try:
        weights = {}
        for c in cands:
            if c.status != "ok":
                continue
            job = (0, c.path, c.kind, True, c.signature)
            fast = batch._from_index(*job[1:])  # as lint_many makes its jobs
            weights[c.path] = batch._weight((*job, fast.digest) if type(fast) is batch._Known else job, cache)
    finally:
        batch._STATE.clear()
    kept = {p for p, w in weights.items() if w == batch.PER_FILE}
    assert any(p.endswith("serve.sh") for p in kept)  # read before: only its rules are left
    notes = next(p for p in weights if p.endswith("notes.md"))  # screened out: nothing kept, read again
    assert weights[notes] == os.path.getsize(notes) + batch.PER_FILE


def test_a_new_target_does_not_digest_unchanged_files_again(tree, monkeypatch):
    """A new --target-version reads the launch files again (the rules need their text) but takes
    their digests from the stat index; the results are those of an uncached run."""
    import traceback

    for p in tree.rglob("*"):
        if p.is_file():
            os.utime(p, (1_600_000_000, 1_600_000_000))
    run("--output-format", "concise", ".")
    screened = []
    real = Cache.digest

    def digest(data):
        if any(frame.name == "_screen_one" for frame in traceback.extract_stack()):
            screened.append(len(data))
        return real(data)

    monkeypatch.setattr(Cache, "digest", staticmethod(digest))
    got = run("--target-version", "0.30", "--output-format", "concise", ".")
    assert screened == []
    monkeypatch.setattr(Cache, "digest", staticmethod(real))
    assert got == run("--no-cache", "--target-version", "0.30", "--output-format", "concise", ".")
    # a file that changed is digested anew
    (tree / "examples" / "deploy" / "serve.sh").write_text((tree / "examples" / "deploy" / "serve.sh").read_text() + "\n# edited\n")
    monkeypatch.setattr(Cache, "digest", staticmethod(digest))
    run("--target-version", "0.30", "--output-format", "concise", ".")
    assert len(screened) == 1


def test_an_interrupted_run_ends_the_other_processes(tree, monkeypatch, forked):
    """Ctrl-C in the first process while the forked ones lint: they are ended and reaped, none
    is left behind.  (It is interrupted as it takes its first chunk: on a small tree the
    forked ones may take every chunk before it lints one.)"""
    monkeypatch.setattr(batch, "SPLIT_BYTES", 0)
    monkeypatch.setattr(batch, "_workers", lambda: 3)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "_take", interrupted)
    cands = project.candidates(["."], respect_gitignore=True, force_exclude=False)
    with pytest.raises(KeyboardInterrupt):
        project.lint(cands, Settings(), compact=True)
    assert len(forked) == 2
    for pid in forked:
        with pytest.raises(ChildProcessError):  # reaped already
            os.waitpid(pid, os.WNOHANG)


def _dense_scripts(root: Path, files: int = 24) -> None:
    """Scripts that start many servers each: a few KB in all, but each launch is linted."""
    for i in range(files):
        lines = ["#!/usr/bin/env bash", "set -euo pipefail", f'MODEL="${{MODEL:-org/model-{i}}}"']
        for port in range(8000, 8012):
            lines.append(f'vllm serve "$MODEL" --port {port} --max-num-seq {i + 1} --swap-space 4 --gpu-memory-utilization 0.{port % 10 + 1} &')
        lines.append("wait")
        (root / f"serve-{i:02}.sh").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("share_after, forks", [(0.0, 1), (3600.0, 0)])
def test_work_too_small_by_its_bytes_is_shared_once_it_proves_long(tmp_path, monkeypatch, forked, share_after, forks):
    """Launch-dense files are far below the bytes that make lint_many share its work at once;
    after :data:`batch.SHARE_AFTER` seconds alone the files left go to a forked process, and
    the results are those of one process."""
    _dense_scripts(tmp_path)
    monkeypatch.chdir(tmp_path)
    cands = project.candidates(["."], respect_gitignore=True, force_exclude=False)
    assert sum(os.path.getsize(c.path) for c in cands) < batch.SPLIT_BYTES and len(cands) < batch.SPLIT_FILES
    monkeypatch.setattr(batch, "_workers", lambda: 1)
    alone = project.lint(cands, Settings(), compact=True)
    assert forked == []  # (one core)
    monkeypatch.setattr(batch, "_workers", lambda: 2)
    monkeypatch.setattr(batch, "SHARE_AFTER", share_after)
    monkeypatch.setattr(batch, "ALONE_SLICE", 2)
    shared = project.lint(cands, Settings(), compact=True, cache=Cache(str(tmp_path / "c")))
    assert len(forked) == forks
    assert sum(len(r.diagnostics) for r in alone) == 24 * 12 * 2  # each launch: an abbreviation and a removed option
    for fmt in FORMATS:
        assert _report(shared, fmt) == _report(alone, fmt)


def test_per_file_ignores_key_each_file_by_what_they_say_for_it(tmp_path, monkeypatch):
    """The settings text of a cache key is made once for the files the same per-file ignores
    apply to: a file they silence and one they do not keep their own results, cold and warm,
    and changing the ignores changes only the results of the files they name."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    script = "#!/bin/sh\nexec vllm serve Qwen/Qwen3-8B --swap-space 4 --max-model-len 8192\n"
    for name in ("deploy/a.sh", "deploy/b.sh", "jobs/c.sh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(script, encoding="utf-8")
    config = tmp_path / "vllm-lint.toml"
    config.write_text('[per-file-ignores]\n"deploy/b.sh" = ["VL101"]\n', encoding="utf-8")
    uncached = run("--no-cache", "--output-format", "concise", ".")
    cold = run("--output-format", "concise", ".")
    warm = run("--output-format", "concise", ".")
    assert uncached == cold == warm
    lines = uncached[1].splitlines()
    assert any(line.startswith("deploy/a.sh") and "VL101" in line for line in lines)
    assert any(line.startswith("jobs/c.sh") and "VL101" in line for line in lines)
    assert not any(line.startswith("deploy/b.sh") and "VL101" in line for line in lines)
    config.write_text('[per-file-ignores]\n"jobs/*" = ["VL101"]\n', encoding="utf-8")
    moved = run("--output-format", "concise", ".")
    assert moved == run("--no-cache", "--output-format", "concise", ".")
    lines = moved[1].splitlines()
    assert any(line.startswith("deploy/b.sh") and "VL101" in line for line in lines)
    assert not any(line.startswith("jobs/c.sh") and "VL101" in line for line in lines)
