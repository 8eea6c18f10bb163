"""The import graph of ``linter`` and ``rules``: no circle, and nothing below the CLI imports it.

The graph is read from the source with :mod:`ast`, not from a running
interpreter, so imports inside functions (the lazy ones the CLI and the engine
use to start fast) count as much as those at the top of a module.  An edge goes
from a module to each module of the two packages it imports: ``from a.b import
c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``.  The
implicit import of a package's ``__init__`` by its submodules is not an edge (a
package that dispatches to its modules, as :mod:`linter.reporters` does, keeps
what they share in a module of its own).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("linter", "rules")
CLI = "linter.cli"

# Circles other work removes (issue 16: a general word splitter lives in compose.py;
# a dead helm.extract).  Tolerated while they last, exactly as they are: a circle
# that grows, or any other circle, fails.
KNOWN_CIRCLES = {
    frozenset({"linter.sources.helm", "linter.sources.yaml"}),  # gone on main since aab8f85
}


def modules(root: Path, packages=PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every module of ``packages`` under ``root``."""
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _known(name: str, mods: dict[str, Path]) -> str | None:
    """``name`` or the nearest enclosing module of it that is one of ``mods``."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """The modules of ``mods`` that module ``name`` (file ``path``) imports, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(filter(None, (_known(a.name, mods) for a in node.names)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for a in node.names:
                target = f"{module}.{a.name}"
                found = target if target in mods else _known(module, mods)
                if found:
                    out.add(found)
    out.discard(name)
    return out


def graph(root: Path, packages=PACKAGES) -> dict[str, set[str]]:
    mods = modules(root, packages)
    return {name: imports(name, path, mods) for name, path in mods.items()}


def circles(g: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    counter = 0
    for start in sorted(g):
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(g.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(frozenset(comp))
    return out


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_reader_finds_circles_through_lazy_and_relative_imports(tmp_path):
    """On a package written for it: a circle closed by an import inside a function and a
    relative one, a package that imports its submodules, and a module that does not circle."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "def later():\n    from .sub.c import thing\n    return thing\n",
        "pkg/sub/__init__.py": "from . import d\n",
        "pkg/sub/c.py": "import pkg.a\nthing = 1\n",
        "pkg/sub/d.py": "from ..a import b  # pkg.a, not a module pkg.a.b\n",
        "pkg/e.py": "import os\nfrom pkg.sub import d\n",
    })
    g = graph(tmp_path, ("pkg",))
    assert g["pkg.b"] == {"pkg.sub.c"}
    assert g["pkg.sub"] == {"pkg.sub.d"}
    assert g["pkg.sub.d"] == {"pkg.a"}
    assert g["pkg.e"] == {"pkg.sub.d"}
    assert circles(g) == [frozenset({"pkg.a", "pkg.b", "pkg.sub.c"})]


def test_no_circle_in_the_import_graph():
    found = circles(graph(ROOT))
    unexpected = [sorted(c) for c in found if c not in KNOWN_CIRCLES]
    assert not unexpected, f"import circles: {unexpected}"


def test_nothing_below_the_cli_imports_it():
    g = graph(ROOT)
    assert CLI in g
    assert sorted(name for name, targets in g.items() if CLI in targets) == []
