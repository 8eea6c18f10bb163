"""Benchmark vllm-lint, side by side for one or more commits (run by hand, not a test).

    python bench/run.py                          # HEAD
    python bench/run.py --ref main --ref HEAD    # before and after, in the same run
    python bench/run.py --repeat 3 --repeat-big 1 --no-shell

Builds (once per generator version, under ``$TMPDIR/vllm-lint-bench``) the
deterministic trees of :mod:`bench.make_tree` and times each commit as a
byte-compiled snapshot (``git archive``), the median of ``--repeat`` runs:

* the monorepo (``--mono`` files): ``vllm-lint`` cold (no cache), warm (the
  cache of the run before, nothing changed), ``--no-cache`` and ``--diff`` (what
  ``--fix`` computes, nothing written), against
  ``grep -rlE 'vllm|VLLM_'`` (the floor: reading every byte once) and a bare
  Python walk + read + substring test of the same tree;
* one small file (shell, Kubernetes YAML, Python; the pre-commit case) against
  ``python -c pass``;
* the platform tree (:func:`bench.make_tree.build_platform`: multi-megabyte
  install manifests of CRD schemas with one launch each, install scripts that
  embed them, 100+ KB Python modules, thousands of small files): cold, warm,
  a new ``--target-version`` on the cache of a run without one, and ``--diff``;
* one 4 MB shell command (one run, ``--shell-timeout``);

the peak resident memory of each command (``getrusage(RUSAGE_CHILDREN)``
``ru_maxrss`` in a wrapper process: the largest single process of the command,
its worker processes included), and byte-identical output checks (digests of
standard output): cold, warm and uncached runs of one commit print the same,
a new target served from the cache prints what it prints uncached, and every
commit prints the same.  The files are in the page cache for every command
(each tree is read once before timing), so "cold" means "no vllm-lint
cache", not "cold disk".  The commits' runs are interleaved, and so are the
commands they are compared with: each round runs grep and the walk (or
``python -c pass``) and then every commit, and a ratio is the median of the
rounds' ratios (on a shared machine whose speed drifts by 20-50% within a
run, baselines timed apart from the runs they divide moved the monorepo's
cold ratio from 4.9x to 5.6x grep between two runs of one commit).  The
platform tree's new-target runs alternate with warm runs of the same commit,
each from the warm-up's cache.  The rows without a target (``--diff`` against
the uncached or cold run, the platform's warm run against grep) divide medians
timed in different rounds.  A row with a target also says in how many rounds each
commit's ratio was within it: a median just under a target that a third of the rounds miss
is not a target met.  The exit code is 1 when a check fails.
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
import hashlib
cwd, timeout, cmd = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
t = time.perf_counter()
try:
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout or None)
    rc, out = p.returncode, p.stdout
except subprocess.TimeoutExpired:
    rc, out = "timeout", b""
wall = time.perf_counter() - t
print(json.dumps({"wall": wall, "rc": rc, "out": hashlib.sha256(out).hexdigest()[:16], "maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


ENV: dict = {}


def measure(cmd: list[str], cwd: Path, repeat: int, before=None, env=None, timeout: float = 0) -> dict:
    """Median wall time, peak memory, exit codes and output digests of ``repeat`` runs."""
    walls, rss, rcs, outs = [], [], set(), set()
    env = {**os.environ, **(ENV if env is None else env)}
    for _ in range(repeat):
        if before is not None:
            before()
        out = subprocess.run([sys.executable, "-c", WRAPPER, str(cwd), str(timeout), *cmd], capture_output=True, text=True, check=True, env=env)
        r = json.loads(out.stdout)
        walls.append(r["wall"])
        rss.append(r["maxrss_kb"])
        rcs.add(str(r["rc"]))
        outs.add(r["out"])
    return {"median": statistics.median(walls), "min": min(walls), "max": max(walls), "maxrss_mb": max(rss) / 1024, "rc": sorted(rcs), "out": sorted(outs)}


def merged(results: list[dict]) -> dict:
    """Single runs of :func:`measure` as one figure."""
    walls = [r["median"] for r in results]
    return {"median": statistics.median(walls), "min": min(walls), "max": max(walls), "maxrss_mb": max(r["maxrss_mb"] for r in results),
            "rc": sorted({c for r in results for c in r["rc"]}), "out": sorted({o for r in results for o in r["out"]})}


def round_ratios(tops: list[dict], bottoms: list[dict]) -> list[float]:
    """The ratio of each round's runs (``tops[k]`` over ``bottoms[k]``), timed in the same round:
    a machine whose speed drifts during the run weighs on both sides of each ratio alike.
    :func:`row` shows their median and how many rounds a target held in (a median can sit
    just under a target that a third of the rounds miss)."""
    return [t["median"] / b["median"] for t, b in zip(tops, bottoms)]


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


def built(base: Path, name: str, want: dict, build) -> Path:
    """``base/name``, built by ``build(root)`` (its counts kept in ``base/name.json``) unless a
    tree built with the same ``want`` (generator version, size) is there."""
    root = base / name
    marker = base / f"{name}.json"
    if marker.exists() and root.is_dir():
        try:
            if {k: v for k, v in json.loads(marker.read_text()).items() if k in want} == want:
                return root
        except ValueError:
            pass
    print(f"building {root} ...", file=sys.stderr, flush=True)
    counts = build(root)
    marker.write_text(json.dumps({**want, "counts": counts}))
    return root


def tree(base: Path, n: int) -> Path:
    want = {"generator": make_tree.GENERATOR_VERSION, "files": n, "corpus": make_tree.CORPUS.is_dir()}
    return built(base, f"tree-{n}", want, lambda root: make_tree.build(root, n))


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


WALK = r"""
import os
hits = 0
for top, dirs, files in os.walk("."):
    dirs[:] = [d for d in dirs if d not in (".git", ".vllm-lint-cache")]
    for name in files:
        with open(os.path.join(top, name), "rb") as f:
            data = f.read()
        hits += b"vllm" in data or b"VLLM_" in data
print(hits)
"""

TARGET = "0.31"  # the "new --target-version" of a run whose cache was filled without one


class Checks:
    """Byte-identical output: what must print the same, by output digest."""

    def __init__(self):
        self.failed: list[str] = []
        self.passed = 0

    def same(self, what: str, *results: dict) -> None:
        outs = {o for r in results for o in r["out"]}
        if len(outs) == 1:
            self.passed += 1
        else:
            self.failed.append(f"{what}: {len(outs)} different outputs")


def platform_tree(base: Path) -> Path:
    want = {"generator": make_tree.GENERATOR_VERSION, "platform": make_tree.PLATFORM}
    return built(base, "platform", want, make_tree.build_platform)


def shell_command_file(base: Path) -> Path:
    folder = base / "shell-4mb"
    path = folder / "launcher.sh"
    text = make_tree.shell_command()
    if not path.exists() or path.stat().st_size != len(text.encode()):
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return path


def row(label: str, results: list[dict], note: str = "", *, ratio: int | None = None, over: list[float] | None = None,
        limit: float | None = None) -> str:
    """A table row: each figure's median and peak memory, and its ratio: the figure's own ratio
    number ``ratio`` (the median of its per-round ratios, ``rounds``, that :func:`main`'s ``each``
    computed against its baselines), or its median over ``over[i]`` (seconds, one per figure, timed apart).
    ``limit``: the row's target ratio; the note then says in how many rounds each figure's
    ratio was within it."""
    if limit is not None and ratio is not None:
        within = [f"{sum(x <= limit for x in r['rounds'][ratio])}/{len(r['rounds'][ratio])}" for r in results if r is not None]
        note += f" (rounds within: {', '.join(within)})"
    cells = []
    for i, r in enumerate(results):
        if r is None:
            cells.append(f"{'-':>22}")
            continue
        shown = f" {statistics.median(r['rounds'][ratio]):6.2f}x" if ratio is not None else f" {r['median'] / over[i]:6.2f}x" if over else ""
        cells.append(f"{r['median']:8.3f}{shown:8} {r['maxrss_mb']:5.0f}MB")
    return f"  {label:<38}" + "".join(f"{c:>24}" for c in cells) + (f"   {note}" if note else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mono", type=int, default=6000, help="files in the monorepo tree")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure on the monorepo and one file (medians)")
    ap.add_argument("--repeat-big", type=int, default=3, help="runs per figure on the platform tree")
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "vllm-lint-bench"))
    ap.add_argument("--ref", action="append", help="a commit to benchmark (repeatable: side by side; default HEAD; 'worktree': the files as they are)")
    ap.add_argument("--no-shell", action="store_true", help="skip the 4 MB shell command")
    ap.add_argument("--no-platform", action="store_true", help="skip the platform tree")
    ap.add_argument("--shell-timeout", type=float, default=600.0)
    args = ap.parse_args(argv)
    refs = args.ref or ["HEAD"]
    base = Path(args.dir)
    base.mkdir(parents=True, exist_ok=True)
    lints = [snapshot(base, ref) for ref in refs]
    grep = ["grep", "-rlE", "vllm|VLLM_", "."]
    walk = [sys.executable, "-c", WALK]
    checks = Checks()
    print(f"machine: {machine()}")
    for ref, (_cmd, _env, what) in zip(refs, lints):
        print(f"vllm-lint {ref}: {what}")
    print(f"medians of {args.repeat} runs ({args.repeat_big} on the platform tree); seconds, peak memory of the largest process\n")
    header = f"  {'':<38}" + "".join(f"{ref[:22]:>24}" for ref in refs)

    def each(cmd_tail, cwd, repeat, before=None, timeout=0, against=()):
        """One figure per ref, the refs' runs interleaved (a machine whose load changes meanwhile
        weighs on every ref alike); with ``against`` (figures of :func:`baseline`), each round
        runs those commands first and each ref's figure carries its ratio to each of them, the
        median of the rounds' ratios (a machine that slows down halfway weighs on both sides
        of a ratio alike)."""
        runs = []
        for _ in range(repeat):
            base = [measure(b["cmd"], cwd, 1) for b in against]
            mine = [measure([*lint, *cmd_tail], cwd, 1, before=before, env=env, timeout=timeout) for lint, env, _w in lints]
            for b, r in zip(against, base):
                b["runs"].append(r)
            runs.append((base, mine))
        out = [merged([r[1][i] for r in runs]) for i in range(len(lints))]
        for i, fig in enumerate(out):
            fig["rounds"] = [round_ratios([r[1][i] for r in runs], [r[0][j] for r in runs]) for j in range(len(against))]
        return out

    def baseline(cmd: list[str]) -> dict:
        """A command measured in the rounds of :func:`each` (see ``against``); :func:`settled` makes
        its figure of all the rounds it ran in."""
        return {"cmd": cmd, "runs": []}

    def settled(b: dict) -> dict:
        return merged(b["runs"])

    # -- the monorepo
    mono = tree(base, args.mono)
    c = counts(base, args.mono)
    cache = mono / ".vllm-lint-cache"

    def clear(cache=cache):
        shutil.rmtree(cache, ignore_errors=True)

    subprocess.run(grep, cwd=mono, stdout=subprocess.DEVNULL)  # page cache
    g_runs, w_runs = baseline(grep), baseline(walk)
    cold = each(["--output-format", "concise", "."], mono, args.repeat, before=clear, against=(g_runs, w_runs))
    clear()
    for lint, env, _w in lints:  # each commit's cache is a folder of its own (its code's key): all warm at once
        subprocess.run([*lint, "--output-format", "concise", "."], cwd=mono, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **env})
    warm = each(["--output-format", "concise", "."], mono, args.repeat, against=(g_runs,))
    nocache = each(["--no-cache", "--output-format", "concise", "."], mono, args.repeat, against=(g_runs,))
    g, w = settled(g_runs), settled(w_runs)
    w["rounds"] = [round_ratios(w_runs["runs"], g_runs["runs"])]  # (the walk ran in the cold rounds, first of each beside grep)
    diff = each(["--diff", "."], mono, args.repeat)  # what --fix computes, without writing
    clear()
    for i, ref in enumerate(refs):
        checks.same(f"monorepo cold/warm/--no-cache ({ref})", cold[i], warm[i], nocache[i])
    checks.same("monorepo across refs", *cold)
    checks.same("monorepo --diff across refs", *diff)
    print(f"monorepo: {c['files']} files, {c['bytes'] / 1e6:.1f} MB, {c['launch']} launch files")
    print(header)
    print(row("grep -rlE 'vllm|VLLM_'", [g]))
    print(row("walk + read + substring [x grep]", [w], ratio=0))
    print(row("cold (no cache)   [x grep]", cold, "done when <= 5x grep", ratio=0, limit=5))
    print(row("cold              [x python walk]", cold, "done when <= 2x the walk", ratio=1, limit=2))
    print(row("warm (unchanged)  [x grep]", warm, "done when <= 3x grep", ratio=0, limit=3))
    print(row("--no-cache        [x grep]", nocache, ratio=0))
    print(row("--diff            [x --no-cache]", diff, over=[r["median"] for r in nocache]))

    # -- one file, start to finish
    pypass_runs = baseline([sys.executable, "-c", "pass"])
    one_sh = next(iter(sorted((mono / "services").rglob("serve.sh"))))
    one_yaml = next(iter(sorted((mono / "deploy").rglob("*.yaml"))))
    one_py = next(iter(sorted((mono / "services").rglob("launch.py"))))
    ones = []
    for label, f in (("shell", one_sh), ("Kubernetes YAML", one_yaml), ("Python", one_py)):
        r = each(["--no-cache", "--output-format", "concise", str(f.relative_to(mono))], mono, max(args.repeat, 10), against=(pypass_runs,))
        checks.same(f"one {label} file across refs", *r)
        ones.append((label, r))
    print("\none file (--no-cache)")
    print(header)
    print(row("python -c pass", [settled(pypass_runs)]))
    for label, r in ones:
        print(row(f"{label} file [x python -c pass]", r, "done when <= 4x" if label == "shell" else "", ratio=0, limit=4 if label == "shell" else None))

    # -- the platform tree
    if not args.no_platform:
        plat = platform_tree(base)
        pc = json.loads((base / "platform.json").read_text())["counts"]
        pcache = plat / ".vllm-lint-cache"
        saved = base / "platform-cache-warm"

        def pclear():
            shutil.rmtree(pcache, ignore_errors=True)

        def restore():
            pclear()
            shutil.copytree(saved, pcache)

        subprocess.run(grep, cwd=plat, stdout=subprocess.DEVNULL)
        pg_runs, pw_runs = baseline(grep), baseline(walk)
        pcold = each(["--output-format", "concise", "."], plat, args.repeat_big, before=pclear, against=(pg_runs, pw_runs))
        pg, pw = settled(pg_runs), settled(pw_runs)
        pw["rounds"] = [round_ratios(pw_runs["runs"], pg_runs["runs"])]
        pdiff = each(["--diff", "."], plat, args.repeat_big)
        pwarm, pnew, pnew_ref = [], [], []
        for lint, env, _w in lints:
            pclear()
            subprocess.run([*lint, "--output-format", "concise", "."], cwd=plat, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **env})
            shutil.rmtree(saved, ignore_errors=True)
            shutil.copytree(pcache, saved)
            # a warm run and a new target's, in turn, each on the cache the warm-up left (the new
            # target's ratio is to the warm runs beside it)
            warm_runs, new_runs = [], []
            for _ in range(args.repeat_big):
                warm_runs.append(measure([*lint, "--output-format", "concise", "."], plat, 1, before=restore, env=env))
                new_runs.append(measure([*lint, "--target-version", TARGET, "--output-format", "concise", "."], plat, 1, before=restore, env=env))
            pwarm.append(merged(warm_runs))
            pnew.append({**merged(new_runs), "rounds": [round_ratios(new_runs, warm_runs)]})
            pnew_ref.append(measure([*lint, "--no-cache", "--target-version", TARGET, "--output-format", "concise", "."], plat, 1, env=env))
        pclear()
        for i, ref in enumerate(refs):
            checks.same(f"platform cold/warm ({ref})", pcold[i], pwarm[i])
            checks.same(f"platform new target: cached vs --no-cache ({ref})", pnew[i], pnew_ref[i])
        checks.same("platform across refs", *pcold)
        checks.same("platform --diff across refs", *pdiff)
        checks.same("platform new target across refs", *pnew)
        pgm = pg["median"]
        print(f"\nplatform tree: {pc['files']} files, {pc['bytes'] / 1e6:.1f} MB ({make_tree.PLATFORM['manifests']} install manifests of "
              f"{make_tree.PLATFORM['manifest_mb']} MB, {make_tree.PLATFORM['big_python']} Python modules of 100+ KB)")
        print(header)
        print(row("grep -rlE 'vllm|VLLM_'", [pg]))
        print(row("walk + read + substring [x grep]", [pw], ratio=0))
        print(row("cold              [x grep]", pcold, "done when <= 40x grep, < 150 MB", ratio=0, limit=40))
        print(row("warm              [x grep]", pwarm, over=[pgm] * len(refs)))
        print(row(f"--target-version {TARGET} after warm [x warm]", pnew, "done when <= 1.5x warm", ratio=0, limit=1.5))
        print(row("--diff            [x cold]", pdiff, over=[r["median"] for r in pcold]))

    # -- one 4 MB shell command
    if not args.no_shell:
        sh = shell_command_file(base)
        r = each(["--no-cache", "--output-format", "concise", sh.name], sh.parent, 1, timeout=args.shell_timeout)
        checks.same("4 MB shell command across refs", *r)
        print(f"\none shell command of {sh.stat().st_size / 1e6:.1f} MB (one run; exit codes {[x['rc'] for x in r]})")
        print(header)
        print(row("time, peak memory", r, "done when < 400 MB"))

    print(f"\nbyte-identical output: {checks.passed} checks passed" + (f", {len(checks.failed)} FAILED:" if checks.failed else ""))
    for f in checks.failed:
        print(f"  FAILED {f}")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
