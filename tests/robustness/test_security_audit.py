"""Nothing vllm-lint reads is executed or evaluated, and it opens no connection.

A static audit of linter/ and rules/ (their syntax trees, so strings that merely
mention ``subprocess.run`` do not count) that must stay clean, a check that the
audit really catches what it looks for, and a run of the real command line with
process creation and sockets made to fail.
"""

from __future__ import annotations

import ast
import json
import socket
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
AUDITED = ("linter", "rules")

FORBIDDEN_MODULES = {
    "subprocess", "socket", "ssl", "http", "ftplib", "smtplib", "telnetlib", "xmlrpc", "requests", "httpx",
    "aiohttp", "urllib3", "pickle", "cPickle", "marshal", "shelve", "dill", "ctypes", "pty", "code", "codeop", "runpy",
}
FORBIDDEN_SUBMODULES = {"urllib.request", "urllib.urlopen", "asyncio.subprocess"}
FORBIDDEN_BUILTINS = {"eval", "exec", "compile", "__import__", "breakpoint", "input"}
FORBIDDEN_OS = {"system", "popen", "startfile", "fork", "forkpty", "kill", "killpg"}
# os.fork and os.kill only where vllm-lint runs shares of its own work on other cores (no exec, no
# shell: the forked process runs the same linting and ends; an interrupted run ends them)
OS_ALLOWED = {("linter/batch.py", "_fork", "fork"), ("linter/batch.py", "_end", "kill")}
FORBIDDEN_OS_PREFIXES = ("exec", "spawn", "posix_spawn")
UNSAFE_YAML = {"unsafe_load", "unsafe_load_all", "full_load", "full_load_all", "Loader", "UnsafeLoader", "FullLoader", "CLoader", "CUnsafeLoader", "CFullLoader"}
# importlib.import_module is allowed only where the module name comes from vllm-lint's own tables
IMPORT_MODULE_ALLOWED = {("linter/kinds.py", "reader"), ("linter/kinds.py", "_resolve"), ("linter/sources/markdown.py", "_module"), ("rules/_lib/base.py", "all_rules"),
                         # the rule index is trusted only when its modules are exactly those of the folder walk (rule_modules)
                         ("rules/_lib/base.py", "rules_for"), ("rules/_lib/base.py", "rule_for_code")}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def audit_source(text: str, rel: str) -> list[str]:
    """Every finding of the audit in one file, as ``path:line: what``."""
    tree = ast.parse(text)
    found: list[str] = []
    funcs: list[tuple[int, int, str]] = [
        (n.lineno, n.end_lineno or n.lineno, n.name) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]

    def enclosing(line: int) -> str:
        inside = [f for f in funcs if f[0] <= line <= f[1]]
        return min(inside, key=lambda f: f[1] - f[0])[2] if inside else ""

    def bad(node: ast.AST, what: str) -> None:
        found.append(f"{rel}:{getattr(node, 'lineno', 0)}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN_MODULES or alias.name in FORBIDDEN_SUBMODULES:
                    bad(node, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            mod = node.module
            names = {f"{mod}.{a.name}" for a in node.names}
            if mod.split(".")[0] in FORBIDDEN_MODULES or mod in FORBIDDEN_SUBMODULES or names & FORBIDDEN_SUBMODULES:
                bad(node, f"from {mod} import ...")
            if mod == "os" and any(a.name in FORBIDDEN_OS or a.name.startswith(FORBIDDEN_OS_PREFIXES) for a in node.names):
                bad(node, "from os import a process function")
            if mod.split(".")[0] in ("yaml", "ruamel") and any(a.name in UNSAFE_YAML for a in node.names):
                bad(node, "unsafe YAML loader imported")
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            last = name.rsplit(".", 1)[-1]
            if name in FORBIDDEN_BUILTINS:
                bad(node, f"{name}()")
            if name.startswith("os.") and (last in FORBIDDEN_OS or last.startswith(FORBIDDEN_OS_PREFIXES)) and (rel, enclosing(node.lineno), last) not in OS_ALLOWED:
                bad(node, f"{name}()")
            if name.startswith("yaml.") and last in ("load", "load_all"):
                loader = next((k.value for k in node.keywords if k.arg == "Loader"), node.args[1] if len(node.args) > 1 else None)
                if loader is None or "Safe" not in ast.unparse(loader):
                    bad(node, f"{name}() without a safe loader")
            if name.startswith("yaml.") and last in UNSAFE_YAML:
                bad(node, f"{name}()")
            if last == "YAML" and any(k.arg == "typ" and "unsafe" in ast.unparse(k.value) for k in node.keywords):
                bad(node, "ruamel YAML(typ='unsafe')")
            for k in node.keywords:
                if k.arg == "shell" and not (isinstance(k.value, ast.Constant) and k.value.value is False):
                    bad(node, "shell= keyword")
            if name in ("importlib.import_module", "import_module") and (rel, enclosing(node.lineno)) not in IMPORT_MODULE_ALLOWED:
                bad(node, f"{name}() outside the allowed places")
        elif isinstance(node, ast.Attribute) and _dotted(node) in {f"yaml.{n}" for n in UNSAFE_YAML}:
            bad(node, _dotted(node))
    return found


def audit() -> list[str]:
    out: list[str] = []
    for top in AUDITED:
        for path in sorted((REPO / top).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            out.extend(audit_source(path.read_text(encoding="utf-8"), rel))
    return out


def test_audit_is_clean() -> None:
    assert audit() == []


@pytest.mark.parametrize(
    "snippet",
    [
        "eval(x)", "exec(x)", "compile(x, 'f', 'exec')", "__import__(x)", "import subprocess", "from subprocess import run",
        "import socket", "import urllib.request", "from urllib.request import urlopen", "import pickle", "os.system(x)",
        "os.popen(x)", "os.execvp('sh', [])", "os.spawnl(0, 'sh')", "yaml.load(x)", "yaml.load(x, Loader=yaml.Loader)",
        "yaml.load(x, yaml.FullLoader)", "yaml.unsafe_load(x)", "yaml.full_load(x)", "YAML(typ='unsafe')",
        "run(x, shell=True)", "importlib.import_module(x)", "from yaml import UnsafeLoader", "import http.client",
    ],
)
def test_audit_catches(snippet: str) -> None:
    assert audit_source(snippet + "\n", "linter/x.py"), snippet


def test_fork_and_kill_are_allowed_only_for_the_shares() -> None:
    assert audit_source("def _fork():\n    os.fork()\n", "linter/batch.py") == []
    assert audit_source("def _other():\n    os.fork()\n", "linter/batch.py")
    assert audit_source("def _fork():\n    os.fork()\n", "linter/engine.py")
    assert audit_source("def _fork():\n    os.kill(1, 9)\n", "linter/batch.py")


@pytest.mark.parametrize(
    "snippet",
    ["yaml.safe_load(x)", "yaml.load(x, Loader=yaml.SafeLoader)", "yaml.load(f, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))",
     "from urllib.parse import quote", "'subprocess.run'", "ast.parse(x)", "run(x, shell=False)"],
)
def test_audit_allows(snippet: str) -> None:
    assert audit_source(snippet + "\n", "linter/x.py") == [], snippet


def test_no_process_and_no_socket_at_run_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lint and fix a tree full of shell, Python, YAML tags and Dockerfiles with processes and sockets disabled."""
    calls: list[str] = []

    def refuse(what):
        def inner(*args, **kwargs):
            calls.append(what)
            raise OSError(f"vllm-lint must not use {what}")
        return inner

    (tmp_path / "a.sh").write_text('vllm serve m --max-num-seq 8 $(touch pwned) "$(curl http://example.com)"\n')
    (tmp_path / "b.py").write_text("import os\nfrom vllm import LLM\nos.system('touch pwned')\nLLM(model='m', swap_space=4)\n")
    (tmp_path / "c.yaml").write_text("x: !!python/object/apply:os.system ['touch pwned']\n---\ncommand: vllm serve m\n")
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.30.0\nRUN touch pwned\nCMD [\"m\", \"--swap-space\", \"4\"]\n")
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse("subprocess"))
    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect"))
    monkeypatch.setattr(socket, "create_connection", refuse("socket.create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("DNS"))
    import os

    for name in ("system", "popen", "execv", "execvp", "execve", "posix_spawn", "posix_spawnp"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse(f"os.{name}"))
    monkeypatch.chdir(tmp_path)
    from linter.cli import main

    # the check finds problems (1); the unsafe fix leaves none (0: --swap-space and swap_space are deleted)
    for args, code in ((["--no-cache", "--output-format", "json", "."], 1), (["--no-cache", "--fix", "--unsafe-fixes", "--output-format", "json", "."], 0)):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == code, result.output
        json.loads(result.stdout)
    assert calls == []
    assert not (tmp_path / "pwned").exists()
