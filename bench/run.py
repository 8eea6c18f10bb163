"""Benchmark vllm-lint on a synthetic monorepo (run by hand, not a test).

    python bench/run.py                 # 10k / 20k / 40k files, 5 runs each, medians
    python bench/run.py --repeat 3 --scales 20000

Builds (once per generator version, under ``$TMPDIR/vllm-lint-bench``) the
deterministic trees of :mod:`bench.make_tree`, then times, the median of
``--repeat`` runs each:

* ``vllm-lint`` cold on the tree (no cache), then warm (the cache of the run
  before, nothing changed), against ``grep -rlE 'vllm|VLLM_'`` on the same tree
  (the floor: reading every byte once);
* ``yamllint`` on the tree's YAML files against ``vllm-lint`` on the same
  files (``include = ["*.yaml", "*.yml"]``);
* ``vllm-lint`` on one small file (the pre-commit case) against ``python -c pass``;
* cold and warm runs at every scale, to show how the cost grows;

and the peak resident memory of each command (``getrusage(RUSAGE_CHILDREN)``
``ru_maxrss`` in a wrapper process: the largest single process of the command,
its worker processes included).  The files are in the page cache for every
command (each tree is read once before timing), so "cold" means "no vllm-lint
cache", not "cold disk".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_tree  # noqa: E402

WRAPPER = r"""
import json, resource, subprocess, sys, time
cwd, cmd = sys.argv[1], sys.argv[2:]
t = time.perf_counter()
p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - t
print(json.dumps({"wall": wall, "rc": p.returncode, "maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


ENV: dict = {}


def measure(cmd: list[str], cwd: Path, repeat: int, before=None) -> dict:
    walls, rss, rcs = [], [], set()
    env = {**os.environ, **ENV}
    for _ in range(repeat):
        if before is not None:
            before()
        out = subprocess.run([sys.executable, "-c", WRAPPER, str(cwd), *cmd], capture_output=True, text=True, check=True, env=env)
        r = json.loads(out.stdout)
        walls.append(r["wall"])
        rss.append(r["maxrss_kb"])
        rcs.add(r["rc"])
    return {"median": statistics.median(walls), "min": min(walls), "max": max(walls), "maxrss_mb": max(rss) / 1024, "rc": sorted(rcs)}


def snapshot(base: Path, ref: str) -> tuple[list[str], dict, str]:
    """vllm-lint as committed at ``ref`` (``git archive``), byte-compiled, as a command.

    A benchmark of the live work tree would measure whatever is half-edited in it,
    and its modules are compiled on every start when bytecode is not written
    (``PYTHONDONTWRITEBYTECODE``); a pip-installed vllm-lint has its ``.pyc`` files.
    ``--ref worktree`` runs the work tree as it is.
    """
    root = HERE.parent
    if ref == "worktree":
        return [sys.executable, "-m", "linter.cli"], {"PYTHONPATH": str(root)}, "work tree"
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", ref], capture_output=True, text=True, check=True).stdout.strip()
    code = base / f"code-{commit[:12]}"
    if not (code / "linter" / "cli.py").exists():
        code.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(root), "archive", commit, "linter", "rules"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "linter"), str(code / "rules")], check=True, stdout=subprocess.DEVNULL)
    return [sys.executable, "-m", "linter.cli"], {"PYTHONPATH": str(code)}, f"commit {commit[:12]} ({code})"


def tool(name: str) -> list[str] | None:
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return [str(beside)]
    found = shutil.which(name)
    return [found] if found else None


def tree(base: Path, n: int) -> Path:
    root = base / f"tree-{n}"
    marker = base / f"tree-{n}.json"
    want = {"generator": make_tree.GENERATOR_VERSION, "files": n, "corpus": make_tree.CORPUS.is_dir()}
    if marker.exists() and root.is_dir():
        try:
            if {k: v for k, v in json.loads(marker.read_text()).items() if k in want} == want:
                return root
        except ValueError:
            pass
    print(f"building {root} ({n} files) ...", file=sys.stderr, flush=True)
    counts = make_tree.build(root, n)
    marker.write_text(json.dumps({**want, "counts": counts}))
    return root


def counts(base: Path, n: int) -> dict:
    return json.loads((base / f"tree-{n}.json").read_text())["counts"]


def machine() -> str:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")).split()[1]
        mem = f"{int(mem) // 1024 // 1024} GiB RAM"
    except (OSError, StopIteration):
        mem = ""
    load = " load average %.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else ""
    return f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs ({cpu}), {mem}, Python {platform.python_version()};{load}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", default="10000,20000,40000", help="tree sizes in files (comma-separated); the middle one is the main tree")
    ap.add_argument("--main", type=int, default=20000, help="the tree the ratios are quoted on")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "vllm-lint-bench"))
    ap.add_argument("--ref", default="HEAD", help="the commit to benchmark (default HEAD; 'worktree': the files as they are)")
    args = ap.parse_args(argv)
    scales = sorted({int(s) for s in args.scales.split(",") if s} | {args.main})
    base = Path(args.dir)
    base.mkdir(parents=True, exist_ok=True)
    lint, env, what = snapshot(base, args.ref)
    ENV.update(env)
    yamllint = tool("yamllint")
    grep = ["grep", "-rlE", "vllm|VLLM_", "."]
    print(f"machine: {machine()}")
    print(f"vllm-lint: {what}; repeat {args.repeat}, medians; times in seconds\n")

    rows: dict[int, dict] = {}
    for n in scales:
        root = tree(base, n)
        c = counts(base, n)
        cache = root / ".vllm-lint-cache"

        def clear(cache=cache):
            shutil.rmtree(cache, ignore_errors=True)

        subprocess.run(grep, cwd=root, stdout=subprocess.DEVNULL)  # page cache
        r = {"files": c["files"], "mb": c["bytes"] / 1e6}
        r["grep"] = measure(grep, root, args.repeat)
        r["cold"] = measure([*lint, "--output-format", "concise", "."], root, args.repeat, before=clear)
        clear()
        subprocess.run([*lint, "--output-format", "concise", "."], cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **ENV})
        r["warm"] = measure([*lint, "--output-format", "concise", "."], root, args.repeat)
        r["nocache"] = measure([*lint, "--no-cache", "--output-format", "concise", "."], root, args.repeat)
        rows[n] = r
        print(f"{n:>6} files {r['mb']:6.1f} MB: grep {r['grep']['median']:.3f}  cold {r['cold']['median']:.3f}  warm {r['warm']['median']:.3f}"
              f"  (--no-cache {r['nocache']['median']:.3f})  peak {r['cold']['maxrss_mb']:.0f} MB", flush=True)

    main_n = args.main
    root = base / f"tree-{main_n}"
    m = rows[main_n]
    # YAML: yamllint against vllm-lint on the same files
    cfg = base / "yaml-only.toml"
    cfg.write_text('include = ["*.yaml", "*.yml"]\n')
    yaml_files = sum(1 for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and ".vllm-lint-cache" not in p.parts)
    ycold = measure([*lint, "--config", str(cfg), "--output-format", "concise", "."], root, args.repeat, before=lambda: shutil.rmtree(root / ".vllm-lint-cache", ignore_errors=True))
    yl = measure([*yamllint, "-f", "parsable", "."], root, 1) if yamllint else None  # once: it takes minutes
    # one small file, start to finish
    one = next(p for p in sorted((root / "services").rglob("serve.sh")))
    one_yaml = next(p for p in sorted((root / "deploy").rglob("*.yaml")))
    pypass = measure([sys.executable, "-c", "pass"], root, max(args.repeat, 10))
    single = measure([*lint, "--no-cache", "--output-format", "concise", str(one.relative_to(root))], root, max(args.repeat, 10))
    single_yaml = measure([*lint, "--no-cache", "--output-format", "concise", str(one_yaml.relative_to(root))], root, max(args.repeat, 10))
    single_cached = measure([*lint, "--output-format", "concise", str(one.relative_to(root))], root, max(args.repeat, 10))

    g = m["grep"]["median"]
    print(f"\nmain tree: {main_n} files, {m['mb']:.1f} MB ({counts(base, main_n)['launch']} launch files)")
    print(f"  grep -rlE 'vllm|VLLM_'            {g:7.3f}")
    print(f"  vllm-lint cold (no cache)          {m['cold']['median']:7.3f}   {m['cold']['median'] / g:5.2f}x grep   (target <= 3x)")
    print(f"  vllm-lint warm (cache, unchanged)  {m['warm']['median']:7.3f}   {m['warm']['median'] / g:5.2f}x grep   (target <= 1.5x)")
    print(f"  vllm-lint --no-cache               {m['nocache']['median']:7.3f}   {m['nocache']['median'] / g:5.2f}x grep")
    if yl is not None:
        print(f"  yamllint on the {yaml_files} YAML files  {yl['median']:7.3f}")
        print(f"  vllm-lint on the same YAML (cold)  {ycold['median']:7.3f}   yamllint / vllm-lint = {yl['median'] / ycold['median']:.1f}x   (target >= 5x)")
    else:
        print("  yamllint: not installed (pip install -e '.[bench]')")
    p = pypass["median"]
    print(f"  python -c pass                     {p:7.3f}")
    print(f"  vllm-lint one shell file           {single['median']:7.3f}   {single['median'] / p:5.2f}x python -c pass   (target <= 3x)")
    print(f"  vllm-lint one YAML file            {single_yaml['median']:7.3f}   {single_yaml['median'] / p:5.2f}x python -c pass")
    print(f"  vllm-lint one shell file (cached)  {single_cached['median']:7.3f}   {single_cached['median'] / p:5.2f}x python -c pass")
    print("\nscaling (cost per 10,000 files should stay flat):")
    for n in scales:
        r = rows[n]
        print(f"  {n:>6} files: cold {r['cold']['median']:.3f} ({r['cold']['median'] / n * 1e4:.3f}/10k)  warm {r['warm']['median']:.3f} "
              f"({r['warm']['median'] / n * 1e4:.3f}/10k)  grep {r['grep']['median']:.3f}  peak memory cold {r['cold']['maxrss_mb']:.0f} MB, warm {r['warm']['maxrss_mb']:.0f} MB")
    print(f"\npeak memory (largest process) on {main_n} files: cold {m['cold']['maxrss_mb']:.0f} MB (target < 150 MB); yamllint {yl['maxrss_mb'] if yl else 0:.0f} MB; grep {m['grep']['maxrss_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
