"""Python that CPython parses is never a parse error, whatever the running release reads.

Each case is a module written for this test with a launch in it (``LLM(...)`` imported from vLLM,
an argv list, ``sys.argv`` before vLLM's ``main()``); syntax newer than the running Python
(3.12 ``type`` statements, type parameters, PEP 701 f-strings) is read around, and no rule finds
anything in these launches (all valid for the newest release).
"""

# ruff: noqa: E501

from __future__ import annotations

import ast

import pytest

from linter.source_file import SourceFile
from linter.sources import python as pysrc
from tests.sources.token_checks import assert_read_cleanly, lint_codes

LLMCALL = 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n'
ARGV = 'import subprocess\nsubprocess.run(["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"])\n'

VALID: dict[str, str] = {
    'type-stmt': 'type Vec = list[float]\n' + LLMCALL,
    'type-stmt-in-block': 'if True:\n    type Vec = list[float]\n' + LLMCALL,
    'generic-def': 'def first[T](xs: list[T]) -> T:\n    return xs[0]\n' + LLMCALL,
    'generic-class': 'class Box[T: (int, str)]:\n    pass\n' + ARGV,
    'fstring-nested-quotes': 'cfg = {"model": "m"}\nprint(f"{cfg["model"]}")\n' + ARGV,
    'fstring-backslash': 'lines = ["a"]\nprint(f"{"\\n".join(lines)}")\n' + LLMCALL,
    'fstring-nested-same': 'x = 1\nprint(f"{f"{x}"}")\n' + LLMCALL,
    'fstring-in-launch': 'import subprocess\ncfg = {"m": "Qwen/Qwen3-8B"}\nsubprocess.run(["vllm", "serve", f"{cfg["m"]}", "--max-model-len", "8192", "--port", "8000"])\n' + ARGV,
    'fstring-in-llm': 'from vllm import LLM\ncfg = {"m": "x"}\nllm = LLM(model=f"{cfg["m"]}", max_model_len=8192)\n',
    'fstring-multiline-triple': 'd = {"a": 1}\ns = f"""\n{d["a"]}\n"""\n' + LLMCALL,
    'fstring-concat': 'd = {"a": 1}\ns = ("x"\n     f"{d["a"]}")\n' + LLMCALL,
    'match': 'import sys\nmatch sys.argv[1:]:\n    case ["serve", *rest]:\n        pass\n    case {"k": v} if v > 1:\n        pass\n    case _:\n        pass\n' + ARGV,
    'walrus': 'import os\nif (n := len(os.environ)) > 0:\n    pass\n' + LLMCALL,
    'decorators': 'import functools\n@functools.cache\n@(lambda f: f)\ndef g(): pass\n' + LLMCALL,
    'async': 'import asyncio\nasync def main():\n    async with asyncio.timeout(1):\n        async for x in agen():\n            await x\n    proc = await asyncio.create_subprocess_exec("vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000")\n',
    'except-star': 'try:\n    pass\nexcept* ValueError:\n    pass\n' + LLMCALL,
    'pos-only': 'def f(a, /, b, *, c): pass\n' + LLMCALL,
    'sys-argv-assign': 'import sys\nfrom vllm.entrypoints.cli.main import main\nsys.argv = ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]\nmain()\n',
    'llm-kwargs-dict': 'from vllm import LLM\nimport os\nkw = {"model": os.environ["M"], "tensor_parallel_size": int(os.environ.get("TP", 1)), "max_model_len": 8192}\nllm = LLM(**kw)\n',
    'llm-kwargs-unknown': 'from vllm import LLM\ndef build(cfg):\n    return LLM(**cfg.engine_kwargs, max_model_len=8192)\n',
    'crlf': 'from vllm import LLM\r\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\r\n',
    'no-final-newline': 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)',
    'tabs': 'if True:\n\tx = 1\n' + LLMCALL,
    'unicode-ident': 'modèle = "Qwen/Qwen3-8B"\n' + LLMCALL,
    'lambda-default': 'f = lambda x=[]: x\n' + LLMCALL,
    'global-nonlocal': 'def f():\n    x = 1\n    def g():\n        nonlocal x\n        x += 1\n' + LLMCALL,
    'star-expr': 'a, *b = [1, 2]\nprint(*b, **{})\n' + LLMCALL,
    'shell-true': 'import subprocess\nsubprocess.run("vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000", shell=True)\n',
    'shlex-split': 'import shlex, subprocess\nsubprocess.Popen(shlex.split("vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port 8000"))\n',
    'list-append': 'import subprocess\ncmd = ["vllm", "serve", "Qwen/Qwen3-8B"]\ncmd += ["--max-model-len", "8192"]\ncmd.extend(["--port", "8000"])\nsubprocess.run(cmd, check=True)\n',
    'fstring-cmd-str': 'import os\nport = 8000\nos.system(f"vllm serve Qwen/Qwen3-8B --max-model-len 8192 --port {port}")\n' + ARGV,
    'type-hint-generic-alias': 'from typing import TypeAlias\nV: TypeAlias = "list[int]"\n' + LLMCALL,
    'global-type-soft-kw-as-name': 'type = "x"\nprint(type)\nmatch = 1\ncase = 2\n' + LLMCALL,
    'continuation-backslash': 'x = 1 + \\\n    2\n' + LLMCALL,
    'comment-unbalanced-quote': '# don\'t "\n' + LLMCALL,
    'docstring-with-launch-text': '"""Start with: vllm serve x --port 1 (not a launch)."""\n' + LLMCALL,
}


ARGV = ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]


@pytest.mark.parametrize("name", sorted(VALID))
def test_python_is_read_without_parse_error(name: str) -> None:
    assert_read_cleanly("serve.py", VALID[name], pysrc.extract, ARGV)


def test_newer_syntax_keeps_the_launch_inside_it_unknown() -> None:
    # an f-string this Python cannot read is one unknown value; the rest of the call is read
    text = VALID["fstring-in-llm"]
    src = SourceFile.from_text("serve.py", text)
    (launch,) = pysrc.extract(src).launches
    settings = {s.name.value: s for s in launch.settings}
    assert settings["max_model_len"].value.value == "8192"
    assert settings["max_model_len"].value.value_start == text.index("8192")
    assert settings["model"].kind == "opaque"


def test_a_real_syntax_error_points_at_the_break() -> None:
    text = 'from vllm import LLM\nllm = LLM(model="m", max_model_len=8192\nprint(llm)\n'
    src = SourceFile.from_text("serve.py", text)
    (problem,) = pysrc.extract(src).problems
    assert "syntax error" in problem.message
    try:
        ast.parse(text)
    except SyntaxError as exc:
        line_start = sum(len(l) + 1 for l in text.split("\n")[: exc.lineno - 1])
        assert problem.span.start == line_start + exc.offset - 1  # where CPython says, not 1:1
    assert problem.span.start > 0


def test_a_file_with_a_bom_is_read() -> None:
    data = ("\ufeff" + LLMCALL).encode("utf-8")
    src = SourceFile.from_bytes("serve.py", data)
    ex = pysrc.extract(src)
    assert ex.problems == [] and ex.launches


MESSAGES = '''\
import argparse
import logging
import warnings

logger = logging.getLogger(__name__)
USAGE = "vllm serve MODEL --port PORT [--tp N]"


def main():
    p = argparse.ArgumentParser(description="Start with: vllm serve <model> --max-model-len N")
    p.add_argument("--model", help="e.g. vllm serve Qwen/Qwen3-8B --foo")
    args = p.parse_args()
    print(f"Now run: vllm serve {args.model} --max-model-len {args.len}")
    logger.info("launching vllm serve %s --port %d", args.model, 8000)
    warnings.warn(UserWarning("vllm serve --old-flag is gone"))
    if args.model is None:
        raise SystemExit("vllm serve failed: --bad-flag unknown")
    raise RuntimeError(f"vllm serve {args.model} --gpu-util 2 exited")


def build(model: str) -> list[str]:
    return ["vllm", "serve", model, "--max-model-len", "8192", "--port", "8000"]
'''


def test_messages_that_quote_a_command_are_not_launches() -> None:
    src = SourceFile.from_text("tool.py", MESSAGES)
    ex = pysrc.extract(src)
    assert [[t.value for t in l.args] for l in ex.launches] == [["model", "--max-model-len", "8192", "--port", "8000"]]
    assert lint_codes("tool.py", MESSAGES) == []


# ---------------------------------------------------------------------------
# a module that names vLLM only in comments and docstrings is neither parsed nor walked

PROSE = '''\
"""Adapters for the serving controller (the vllm backend among them)."""

import json

# LMCache and vLLM are configured elsewhere.


class Adapter:
    """Registers under the name the vllm backend uses."""

    def name(self, request, limit=3):
        """A docstring that says: vllm serve Qwen/Qwen3-8B --max-model-len 8192."""
        result = [x for x in request.items if x > limit]
        return json.dumps({"name": "default", "result": result})
'''


def test_a_module_that_names_vllm_only_in_prose_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parse(text: str):
        raise AssertionError("parsed")

    monkeypatch.setattr(pysrc, "_parse", no_parse)
    for text in (PROSE, PROSE.replace("\n", "\r\n"), PROSE + "\ndef broken(:\n"):
        ex = pysrc.extract(SourceFile.from_text("adapter.py", text))
        assert ex.launches == [] and ex.problems == []  # broken or not: no launch was lost


# Each holds a launch the reader reads although vLLM is named only in a comment or a docstring
# (or in no string the way its text spells it): the prose test must not skip it.
READ_DESPITE_PROSE: dict[str, tuple[str, str]] = {
    "kserve-huggingface": ("image", '# the vllm runtime serves it\nfrom kserve import V1beta1ModelFormat, V1beta1ModelSpec\n'
                           'spec = V1beta1ModelSpec(model_format=V1beta1ModelFormat(name="huggingface"), args=["--model_id=m", "--max-model-len", "8192"])\n'),
    "ray-serve-llm-module": ("LLMConfig", '"""Serves with vllm."""\nfrom ray import serve\n'
                             'cfg = serve.llm.LLMConfig(model_loading_config={"model_id": "m"}, engine_kwargs={"max_model_len": 8192})\n'),
    "implicit-concatenation": ("vllm serve", '# starts vllm\ncmd = ["v" "llm", "serve", "m", "--max-model-len", "8192"]\nrun_remote(cmd)\n'),
    "concatenation-across-a-comment": ("vllm serve", '# starts vllm\ncmd = ["vl"  # split\n       "lm", "serve", "m"]\nrun_remote(cmd)\n'),
    "escape": ("vllm serve", '# starts vllm\ncmd = ["\\x76llm", "serve", "m", "--max-model-len", "8192"]\nrun_remote(cmd)\n'),
    "named-escape": ("vllm serve", '# starts vllm\ncmd = ["\\N{LATIN SMALL LETTER V}llm", "serve", "m"]\nrun_remote(cmd)\n'),
    "continued-string": ("vllm serve", '# starts vllm\ncmd = ["vl\\\nlm", "serve", "m"]\nrun_remote(cmd)\n'),
    "comment-on-the-line": ("vllm serve", 'deploy("v" + "llm serve m --max-model-len 8192")  # vllm\n'),
    "comment-inside-the-call": ("vllm serve", 'deploy("v" +\n       # vllm\n       "llm serve m --max-model-len 8192")\n'),
    "string-alone-in-brackets": ("vllm serve", 'cmd = (\n    "vllm serve m --max-model-len 8192"\n)\nrun_remote(cmd)\n'),
    "string-after-a-continuation": ("vllm serve", 'cmd = \\\n"vllm serve m --max-model-len 8192"\nrun_remote(cmd)\n'),
    "subprocess": ("vllm serve", '# vllm\nimport subprocess\nsubprocess.run(["v" "llm", "serve", "m"])\n'),
    "shell-magic": ("vllm serve", "# a notebook cell that starts vllm\n!vl''lm serve m --max-model-len 8192\nx = 1\n"),
}


@pytest.mark.parametrize("name", sorted(READ_DESPITE_PROSE))
def test_a_launch_beside_prose_is_read(name: str) -> None:
    entrypoint, text = READ_DESPITE_PROSE[name]
    assert not pysrc._starts_nothing(text)
    ex = pysrc.extract(SourceFile.from_text("serve.py", text))
    assert [launch.entrypoint for launch in ex.launches] == [entrypoint]


def test_prose_test_knows_every_call_read_whatever_its_words() -> None:
    # a call's module name and its own name are in the text wherever it is written: one of the
    # words the prose test looks for is in one of them
    for q in (*pysrc.ARGV_CALLS, *pysrc.EXECV_CALLS, *pysrc.EXECL_CALLS, *pysrc.EXEC_ARGS_CALLS, *pysrc.SHELL_CALLS):
        root, last = q.split(".", 1)[0], q.rsplit(".", 1)[1]
        assert any(w in root or w in last for w in pysrc._READ_WORDS), q


def test_a_syntax_error_without_newer_syntax_is_not_parsed_again_by_libcst() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from linter.source_file import SourceFile\n"
        "from linter.sources import python\n"
        "ex = python.extract(SourceFile.from_text('r.py', 'from vllm import LLM\\nllm = LLM(model=\"m\",\\n'))\n"
        "assert ex.problems[0].message.startswith('Python syntax error:'), ex.problems\n"
        "assert 'libcst' not in sys.modules, 'libcst imported'\n"
        "ex = python.extract(SourceFile.from_text('r.py', 'from vllm import LLM\\ntype V = list[int]\\nllm = LLM(model=\"m\")\\n'))\n"
        "assert sys.version_info >= (3, 12) or 'libcst' in sys.modules\n"
        "assert len(ex.launches) == 1 and not ex.problems, ex\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
