"""Python extraction: LLM/EngineArgs settings, subprocess argv, shell strings, exact places."""

from __future__ import annotations

import ast
import importlib.util
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linter.launch import Launch
from linter.source_file import SourceFile
from linter.sources import python as pysrc
from tests.sources.token_checks import check_launch, check_token

HAS_SHELL = importlib.util.find_spec("linter.sources.shell") is not None


def run(text: str, path: str = "script.py") -> tuple[SourceFile, pysrc.Extraction]:
    src = SourceFile.from_text(path, text)
    ex = pysrc.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
        assert launch.kind == "python"
    return src, ex


def settings_of(launch: Launch) -> dict[str, tuple[str, str]]:
    return {s.name.value: (s.kind, s.value.value if s.value else None) for s in launch.settings}


OFFLINE = '''\
"""Offline batch inference with a hybrid (Mamba) model."""
import argparse

from vllm import LLM, SamplingParams

prompts = [
    "Hello, my name is",
    "The capital of France is",
]


def main(args: argparse.Namespace) -> None:
    sampling_params = SamplingParams(temperature=0.8, top_p=0.95)
    llm = LLM(
        model="ibm-ai-platform/Bamba-9B",
        mamba_cache_mode="all",
        max_model_len=8192,
        gpu_memory_utilization=0.90,
        enforce_eager=True,
        quantization=None,
        tensor_parallel_size=args.tp,
        hf_overrides={"architectures": ["BambaForCausalLM"], "max_position_embeddings": 8192},
        compilation_config={"level": 3, "cudagraph_capture_sizes": [1, 2, 4]},
        seed=-1,
        tokenizer_mode='auto',
        revision="a\\tb",
        download_dir="/models" "/cache",
    )
    outputs = llm.generate(prompts, sampling_params)
    for output in outputs:
        print(output.outputs[0].text)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp", type=int, default=1)
    main(parser.parse_args())
'''


def test_offline_llm_script() -> None:
    src, ex = run(OFFLINE, "examples/offline_inference/mamba.py")
    assert ex.problems == []
    [launch] = ex.launches
    assert launch.style == "settings"
    assert launch.entrypoint == "LLM"
    assert launch.group == "examples/offline_inference/mamba.py"
    assert src.text[launch.span.start : launch.span.end].startswith("LLM(")
    got = settings_of(launch)
    assert got["model"] == ("str", "ibm-ai-platform/Bamba-9B")
    assert got["mamba_cache_mode"] == ("str", "all")
    assert got["max_model_len"] == ("int", "8192")
    assert got["gpu_memory_utilization"] == ("float", "0.90")
    assert got["enforce_eager"] == ("bool", "True")
    assert got["quantization"] == ("null", "None")
    assert got["tensor_parallel_size"] == ("opaque", "args.tp")
    assert got["seed"] == ("int", "-1")
    assert got["tokenizer_mode"] == ("str", "auto")
    assert json.loads(got["hf_overrides"][1]) == {"architectures": ["BambaForCausalLM"], "max_position_embeddings": 8192}
    assert got["compilation_config"] == ("json", '{"level":3,"cudagraph_capture_sizes":[1,2,4]}')
    assert got["revision"] == ("str", "a\tb")
    assert got["download_dir"] == ("str", "/models/cache")

    by_name = {s.name.value: s for s in launch.settings}
    mode = by_name["mamba_cache_mode"]
    check_token(src, mode.name, "mamba_cache_mode")
    check_token(src, mode.value, '"all"')
    assert mode.name.editable and mode.value.editable
    # a fix can rewrite the value in place
    assert src.text[mode.value.value_start : mode.value.value_start + 3] == "all"
    check_token(src, by_name["tokenizer_mode"].value, "'auto'")
    # escapes and implicit concatenation: the value is known but not editable
    assert not by_name["revision"].value.editable
    assert not by_name["download_dir"].value.editable
    check_token(src, by_name["download_dir"].value, '"/models" "/cache"')
    # json and opaque values are never editable
    assert not by_name["hf_overrides"].value.editable
    tp = by_name["tensor_parallel_size"].value
    assert not tp.editable and tp.opaque == ((0, len("args.tp")),)
    check_token(src, tp, "args.tp")
    assert by_name["max_model_len"].value.editable
    check_token(src, by_name["seed"].value, "-1")
    assert launch.notes == []


ALIASES = """\
import vllm as v
from vllm import LLM as L
from vllm.engine.arg_utils import AsyncEngineArgs, EngineArgs as EA
from vllm.engine.async_llm_engine import AsyncLLMEngine

llm = L("facebook/opt-125m", max_num_seqs=16)
other = v.LLM(model='Qwen/Qwen3-0.6B', **extra_kwargs)
engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model="m", max_model_len=1024, disable_log_requests=True))
kwargs = dict(model="x", enable_prefix_caching=True)
ea = EA(**kwargs)
opts = {"model": "y", "kv_cache_dtype": "fp8"}
EA(**opts)


class LLM:  # not vLLM's: a local class with the same name is not a launch
    pass
"""


def test_aliased_imports() -> None:
    src, ex = run(ALIASES)
    kinds = [(l.entrypoint, settings_of(l).get("model")) for l in ex.launches]
    assert kinds == [
        ("LLM", ("str", "facebook/opt-125m")),
        ("LLM", ("str", "Qwen/Qwen3-0.6B")),
        ("AsyncEngineArgs", ("str", "m")),
        ("EngineArgs", ("str", "x")),
        ("EngineArgs", ("str", "y")),
    ]
    first, second, third, fourth, fifth = ex.launches
    # the positional model: the value is editable, the (absent) keyword is not
    model = first.settings[0]
    assert model.name.value == "model" and not model.name.editable
    check_token(src, model.value, '"facebook/opt-125m"')
    assert first.entry[0].value == "L"
    assert second.entry[0].value == "v.LLM"
    assert second.notes and "extra_kwargs" in second.notes[0]
    assert settings_of(third)["disable_log_requests"] == ("bool", "True")
    assert settings_of(fourth)["enable_prefix_caching"] == ("bool", "True")
    # keys of a dict splat are the setting names, placed inside their quotes
    kv = {s.name.value: s for s in fifth.settings}["kv_cache_dtype"]
    check_token(src, kv.name, '"kv_cache_dtype"')
    assert kv.name.editable


def test_names_not_from_vllm_are_ignored() -> None:
    _, ex = run("from langchain_community.llms import VLLM\nfrom mylib import LLM\nLLM(model='vllm')\nVLLM(model='x')\n")
    # mylib's LLM is not vLLM's; LangChain's VLLM is the wrapper that builds vllm.LLM (its own launch)
    assert [(l.entrypoint, l.evidence.split(",")[0]) for l in ex.launches] == [("VLLM", "VLLM imported from langchain_community.llms")]


def test_star_import() -> None:
    _, ex = run("from vllm import *\nLLM('m', max_model_len=100)\n")
    assert [l.entrypoint for l in ex.launches] == ["LLM"]


SERVER = '''\
import os
import subprocess
import sys
import time

import requests

MODEL = "meta-llama/Llama-3.1-8B-Instruct"


def start_server(port: int, extra_args: list[str]) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        MODEL,
        "--port",
        str(port),
        "--gpu-memory-utilization",
        "0.85",
    ]
    cmd += ["--max-model-len", "16384"]
    cmd.append("--enable-chunked-prefill")
    cmd.extend(extra_args)
    env = {**os.environ, "VLLM_USE_V1": "1", "CUDA_VISIBLE_DEVICES": "0"}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE)
    for _ in range(60):
        try:
            requests.get(f"http://localhost:{port}/health")
            break
        except requests.ConnectionError:
            time.sleep(1)
    return proc
'''


def test_popen_api_server_argv() -> None:
    src, ex = run(SERVER)
    assert ex.problems == []
    [launch] = ex.launches
    assert launch.style == "argv"
    assert launch.entrypoint == "api_server"
    assert [t.value for t in launch.entry] == ["python", "-m", "vllm.entrypoints.openai.api_server"]
    assert src.text[launch.entry[0].span.start : launch.entry[0].span.end] == "sys.executable"
    values = [t.value for t in launch.args]
    assert values == [
        "--model", "MODEL", "--port", "str(port)", "--gpu-memory-utilization", "0.85",
        "--max-model-len", "16384", "--enable-chunked-prefill", "extra_args",
    ]
    model = launch.args[1]
    assert model.is_opaque and not model.editable
    util = launch.args[5]
    check_token(src, util, '"0.85"')
    assert util.editable
    appended = launch.args[8]
    check_token(src, appended, '"--enable-chunked-prefill"')
    assert launch.args[-1].splat
    # env given as a dict literal (via a name): only VLLM_ variables are kept
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_USE_V1", "1")]
    check_token(src, launch.env[0].name, '"VLLM_USE_V1"')


def test_other_argv_calls() -> None:
    text = """\
import asyncio, os, shutil, subprocess
from subprocess import check_call as cc

async def main(model):
    args = ["serve", model, "--port", "8001"]
    p = await asyncio.create_subprocess_exec("vllm", *args, "--tensor-parallel-size", "2")
    cc(["uv", "run", "vllm", "serve", "m", "--dtype", "half"])
    os.execvp("vllm", ["vllm", "serve", f"{model}-awq", "--quantization", 'awq'])
    subprocess.run([shutil.which("vllm"), "serve", "x", "--swap-space", "4"], check=True)
    subprocess.run("vllm serve y --enforce-eager".split())
    subprocess.run(["ls", "-l"])
    subprocess.run(["python", "train.py", "--vllm"])
"""
    src, ex = run(text)
    got = [(l.entrypoint, [t.value for t in l.args]) for l in ex.launches]
    assert got == [
        ("vllm serve", ["model", "--port", "8001", "--tensor-parallel-size", "2"]),
        ("vllm serve", ["m", "--dtype", "half"]),
        ("vllm serve", ["{model}-awq", "--quantization", "awq"]),
        ("vllm serve", ["x", "--swap-space", "4"]),
        ("vllm serve", ["y", "--enforce-eager"]),
    ]
    assert ex.launches[0].args[0].is_opaque  # the name `model`
    fmodel = ex.launches[2].args[0]
    assert fmodel.opaque == ((0, 7),) and fmodel.editable
    check_token(src, fmodel, 'f"{model}-awq"')
    eager = ex.launches[4].args[1]
    check_token(src, eager, "--enforce-eager")
    assert eager.editable


@pytest.mark.skipif(not HAS_SHELL, reason="shell extractor not present")
def test_shell_strings() -> None:
    text = '''\
import os
import shlex
import subprocess

port = 8000
os.system("vllm serve facebook/opt-125m --port 8000 --max-num-seqs 4 &")
os.system(f"VLLM_LOGGING_LEVEL=DEBUG vllm serve {model} --port {port} --dtype 'half'")
subprocess.run("nohup vllm serve m --swap-space 2 > log.txt 2>&1", shell=True, check=True)
cmd = shlex.split("""vllm serve \\\\
    mistralai/Mistral-7B-v0.1 \\\\
    --max-model-len 4096""")
subprocess.check_output(["bash", "-c", "exec vllm serve z --seed 1"])
os.system("echo vllm is great")
'''
    src, ex = run(text)
    got = [[t.value for t in l.args] for l in ex.launches]
    assert got[0] == ["facebook/opt-125m", "--port", "8000", "--max-num-seqs", "4"]
    assert got[1][1:3] == ["--port", got[1][2]] and got[1][3:] == ["--dtype", "half"]
    assert ex.launches[1].args[0].is_opaque and ex.launches[1].args[2].is_opaque
    assert [e.name.value for e in ex.launches[1].env] == ["VLLM_LOGGING_LEVEL"]
    assert got[2] == ["m", "--swap-space", "2"]
    assert got[3] == ["mistralai/Mistral-7B-v0.1", "--max-model-len", "4096"]
    assert got[4] == ["z", "--seed", "1"]
    assert len(ex.launches) == 5
    # tokens inside the Python literal point at the file exactly
    check_token(src, ex.launches[0].args[3], "--max-num-seqs")
    assert ex.launches[0].args[3].editable
    check_token(src, ex.launches[1].args[4], "'half'")
    check_token(src, ex.launches[3].args[2], "4096")
    assert ex.launches[3].args[2].editable


def test_syntax_error_is_a_problem() -> None:
    text = "from vllm import LLM\nllm = LLM(model='m',\nprint('unterminated'\n"
    src, ex = run(text)
    assert ex.launches == []
    [problem] = ex.problems
    assert problem.message.startswith("Python syntax error:")
    assert 0 <= problem.span.start <= len(text)


def test_files_without_vllm_are_not_parsed() -> None:
    _, ex = run("this is not python ((((\n")
    assert ex.problems == [] and ex.launches == []


def test_crlf_and_unicode_positions() -> None:
    text = "# é€😀\r\nfrom vllm import LLM\r\nx = '😀'; llm = LLM(model='m', max_model_len=512,\r\n\tdtype='half')\r\n"
    src, ex = run(text)
    [launch] = ex.launches
    by_name = {s.name.value: s for s in launch.settings}
    check_token(src, by_name["dtype"].name, "dtype")
    check_token(src, by_name["dtype"].value, "'half'")
    check_token(src, by_name["max_model_len"].value, "512")


@pytest.mark.parametrize(
    "literal",
    [
        r'"plain"', r"'single'", r'"esc\"aped\n"', r"r'raw\d+'", r'"""triple\nline"""',
        "'''multi\nline'''", r'"\x41\u00e9\N{BULLET}\101"', r'"tab\tand\\"', r'"cont\
inued"', r"'unknown\q'", "''", r'rb"x"',
    ],
)
def test_decode_matches_python(literal: str) -> None:
    import ast
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ast.literal_eval(literal)
    if isinstance(expected, bytes):
        expected = expected.decode("latin-1")
    [piece] = pysrc._literal_pieces(literal)
    prefix, body_off = piece.prefix, piece.body_start
    body = literal[body_off : piece.body_end]
    value, omap = pysrc.decode_body(body, body_off, raw="r" in prefix, is_bytes="b" in prefix)
    assert value == expected
    for s, f, n in omap.segments:
        assert value[s : s + n] == literal[f : f + n]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab {}\\'\"\n\tx0N")), max_size=30))
def test_decode_property(text: str) -> None:
    """For any string Python can write as a literal, decoding the literal gives it back."""
    literal = repr(text)
    value, omap = pysrc.decode_body(literal[1:-1], 1, raw=False)
    assert value == text
    for s, f, n in omap.segments:
        assert value[s : s + n] == literal[f : f + n]


def test_argv_token_places_in_concatenation() -> None:
    src, ex = run('import subprocess\nsubprocess.run(["vllm", "serve", "m", "--max-model-len" "=2048"])\n')
    [launch] = ex.launches
    tok = launch.args[1]
    assert tok.value == "--max-model-len=2048" and not tok.editable
    check_token(src, tok, '"--max-model-len" "=2048"')


def test_parameters_and_loop_targets_shadow_outer_lists() -> None:
    text = """\
import subprocess
cmd = ["vllm", "serve", "outer"]

def run(cmd):
    subprocess.run(cmd)

for cmd in variants:
    subprocess.run(cmd)

def main():
    cmd = ["vllm", "serve", "inner", "--port", "1"]
    if fast:
        cmd += ["--enforce-eager"]
    subprocess.run(cmd)

subprocess.run(cmd)
"""
    _, ex = run(text)
    assert [[t.value for t in l.args] for l in ex.launches] == [["inner", "--port", "1", "--enforce-eager"]]


@pytest.mark.skipif(not HAS_SHELL, reason="shell extractor not present")
def test_built_shell_strings() -> None:
    text = """\
import os, subprocess
model = get_model()
cmd = "vllm serve " + model + " --port 8000 --max-model-len 2048"
os.system(cmd)
os.system("vllm serve {} --port {} --dtype {{half}}".format(model, port))
subprocess.Popen("vllm serve %s --tensor-parallel-size %d --kv-cache-dtype fp8" % (model, tp), shell=True,
                 env=dict(os.environ, VLLM_ATTENTION_BACKEND="FLASHINFER", OTHER="x"))
"""
    src, ex = run(text)
    got = [[t.value for t in l.args] for l in ex.launches]
    assert len(got) == 3
    assert got[0][1:] == ["--port", "8000", "--max-model-len", "2048"] and ex.launches[0].args[0].is_opaque
    assert got[1][1:3] == ["--port", got[1][2]] and got[1][3:] == ["--dtype", "{half}"]
    assert ex.launches[1].args[0].is_opaque and ex.launches[1].args[2].is_opaque
    assert got[2][1] == "--tensor-parallel-size" and got[2][3:] == ["--kv-cache-dtype", "fp8"]
    check_token(src, ex.launches[0].args[3], "--max-model-len")
    assert ex.launches[0].args[3].editable
    check_token(src, ex.launches[2].args[4], "fp8")
    assert ex.launches[2].args[4].editable
    assert [(e.name.value, e.value.value) for e in ex.launches[2].env] == [("VLLM_ATTENTION_BACKEND", "FLASHINFER")]
    check_token(src, ex.launches[2].env[0].name, "VLLM_ATTENTION_BACKEND")


# ---------------------------------------------------------------------------
# Places from CPython's tree: UTF-8 byte columns, every line end, every literal form


PLACES = (
    '# -*- coding: utf-8 -*-\r\n'
    '"""Démarrage du modèle — 😀 (CRLF file)."""\r\n'
    'import subprocess\r\n'
    'from vllm import LLM\r\n'
    'name = "Qwen/Qwen3-8B"\r\n'
    'cmd = ["vllm", "serve", f"{name}", "--served-model-name", "モデル", f"--port={8000 + 1}",\r\n'
    '       "--max-model-len" "=4096", r"--chat-template=C:\\tpl", f\'--api-key={key!r:>10}\',\r\n'
    '       f"--hf-overrides={{\\"rope\\": {cfg[\'r\']}}}", "--seed" "", f"\\N{BULLET}{n}"]\r\n'
    'subprocess.run(cmd)\r\n'
    'llm = LLM(model="é😀", max_model_len=1_024,\r\n'
    "  dtype='half')\r"  # a lone CR ends this line: CPython reads it as a line end
    'LLM(model="m",   swap_space=4)\n'
)


def test_positions_from_byte_columns_crlf_and_lone_cr() -> None:
    src, ex = run(PLACES)
    assert ex.problems == []
    argv, first, second = ex.launches
    assert argv.evidence == "`vllm serve` command in a Python argv" and argv.strong
    got = [(t.value, src.text[t.span.start : t.span.end], t.editable, t.opaque) for t in argv.args]
    assert got == [
        ("{name}", 'f"{name}"', True, ((0, 6),)),
        ("--served-model-name", '"--served-model-name"', True, ()),
        ("モデル", '"モデル"', True, ()),
        ("--port={8000 + 1}", 'f"--port={8000 + 1}"', True, ((7, 17),)),
        ("--max-model-len=4096", '"--max-model-len" "=4096"', False, ()),  # two places: not one edit
        ("--chat-template=C:\\tpl", 'r"--chat-template=C:\\tpl"', True, ()),
        ("--api-key={key!r:>10}", "f'--api-key={key!r:>10}'", True, ((10, 21),)),
        ('--hf-overrides={"rope": {cfg[\'r\']}}', 'f"--hf-overrides={{\\"rope\\": {cfg[\'r\']}}}"', False, ((24, 34),)),
        ("--seed", '"--seed" ""', True, ()),  # the empty half adds nothing: "--seed" stands verbatim
        ("\u2022{n}", 'f"\\N{BULLET}{n}"', False, ((1, 4),)),
    ]
    fields = {s.name.value: s for s in first.settings}
    check_token(src, fields["model"].value, '"é😀"')
    assert fields["model"].value.value == "é😀" and fields["model"].value.editable
    check_token(src, fields["max_model_len"].value, "1_024")
    assert fields["max_model_len"].value.value == "1024" and not fields["max_model_len"].value.editable
    check_token(src, fields["dtype"].name, "dtype")
    check_token(src, fields["dtype"].value, "'half'")
    # the line after the lone CR: columns count from it
    swap = {s.name.value: s for s in second.settings}["swap_space"]
    check_token(src, swap.name, "swap_space")
    check_token(src, swap.value, "4")
    assert first.evidence == "LLM imported from vllm" and first.strong


def test_multiline_and_escaped_literals_keep_exact_runs() -> None:
    text = (
        "import subprocess\n"
        "subprocess.run(\n"
        "    [\n"
        "        'vllm',  # the CLI\n"
        "        'serve',\n"
        "        ('meta-llama/'\n"
        "         # a comment between the halves\n"
        "         'Llama-3.1-8B'),\n"
        "        '--download-dir', '/data/caf\\u00e9',\n"
        "        b'--trust-remote-code',\n"
        "        '''--max-num-seqs''', \"\"\"8\"\"\",\n"
        "    ]\n"
        ")\n"
    )
    src, ex = run(text)
    [launch] = ex.launches
    got = [(t.value, src.text[t.span.start : t.span.end], t.editable) for t in launch.args]
    assert got == [
        ("meta-llama/Llama-3.1-8B", "'meta-llama/'\n         # a comment between the halves\n         'Llama-3.1-8B'", False),
        ("--download-dir", "'--download-dir'", True),
        ("/data/café", "'/data/caf\\u00e9'", False),  # an escape: the value is known, not editable
        ("--trust-remote-code", "b'--trust-remote-code'", True),
        ("--max-num-seqs", "'''--max-num-seqs'''", True),
        ("8", '"""8"""', True),
    ]


def test_reading_does_not_import_libcst() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from linter.source_file import SourceFile\n"
        "from linter.sources import python\n"
        "ex = python.extract(SourceFile.from_text('a.py', 'from vllm import LLM\\nLLM(model=\"m\")\\n'))\n"
        "assert len(ex.launches) == 1\n"
        "assert 'libcst' not in sys.modules, 'libcst imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_syntax_error_points_at_the_broken_place_in_characters() -> None:
    text = "from vllm import LLM\nmodèle = 'é'; llm = LLM(model=modèle,, seed=1)\n"
    src, ex = run(text)
    [problem] = ex.problems
    assert problem.message.startswith("Python syntax error:")
    assert src.text[problem.span.start :].startswith(", seed")


MD_PYTHON = (
    "# Offline inference\r\n"
    "\r\n"
    "> In a block quote:\r\n"
    "> ```python\r\n"
    "> from vllm import LLM\r\n"
    "> llm = LLM(model='quoted/model', swap_space=4)\r\n"
    "> ```\r\n"
    "\r\n"
    "-\r\n"
    "  ```py\r\n"
    "  from vllm import LLM\r\n"
    "  prompt = '''Réponds\r\n"
    "  en français'''\r\n"
    "  LLM(model='listed/model', enforce_eager=True)\r\n"
    "  ```\r\n"
    "\r\n"
    "```python\r\n"
    "print('vllm is mentioned, nothing is launched')\r\n"
    "```\r\n"
    "Text after the last block, no final line end"
)


def test_python_blocks_in_markdown_that_cpython_reads_raise_nothing() -> None:
    from linter.sources import markdown

    src = SourceFile.from_text("README.md", MD_PYTHON)
    ex = markdown.extract(src)
    assert ex.problems == []  # no "unusual line ends", no syntax error for valid Python
    assert [settings_of(l)["model"] for l in ex.launches] == [("str", "quoted/model"), ("str", "listed/model")]
    for launch in ex.launches:
        check_launch(src, launch)
    swap = {s.name.value: s for s in ex.launches[0].settings}["swap_space"]
    check_token(src, swap.value, "4")
    assert swap.value.editable
    eager = {s.name.value: s for s in ex.launches[1].settings}["enforce_eager"]
    check_token(src, eager.name, "enforce_eager")


def test_python_block_that_is_not_python_is_still_reported() -> None:
    from linter.sources import markdown

    text = "```python\nfrom vllm import LLM\nllm = LLM(model='m'\n```\n\n```python\nfrom vllm import LLM\nLLM(model='ok')\n```\n"
    ex = markdown.extract(SourceFile.from_text("README.md", text))
    [problem] = ex.problems
    assert problem.message.startswith("Python syntax error:")
    assert [settings_of(l)["model"] for l in ex.launches] == [("str", "ok")]


# ---------------------------------------------------------------------------
# Commands wherever they are built (issue 12, item 4)


def args_of(launch: Launch) -> list[str]:
    return [t.value for t in launch.args]


BUILT = '''\
"""Helpers that start the server on a remote host."""
import logging
import subprocess

from fabric import Connection

log = logging.getLogger(__name__)


def build_cmd(model: str, port: int) -> list[str]:
    """Return the argv; callers run it with vllm serve semantics (not a launch: a docstring)."""
    cmd = ["vllm", "serve", model, "--port", str(port)]
    cmd += ["--max-num-seqs", "64"]
    return cmd


def start_remote(host: str) -> None:
    conn = Connection(host)
    cmd = ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m", "--swap-space", "4"]
    conn.run(" ".join(cmd), hide=True)
    conn.run("vllm serve remote/model --gpu-memory-utilization 0.8", pty=True)
    print("vllm serve is-a-message --port 1")
    log.info("restart with: vllm serve also-a-message")


def start_local() -> subprocess.Popen:
    cmd = ["vllm", "serve", "local/model", "--seed", "7"]
    log.info("running %s", " ".join(cmd))
    print(cmd)
    return subprocess.Popen(cmd)


DEFAULT_ARGV = ["vllm", "serve", "unused/model", "--port", "9000"]
NOT_VLLM = ["uvicorn", "app:main", "--port", "8000"]
'''


def test_commands_returned_handed_on_or_only_built() -> None:
    src, ex = run(BUILT)
    assert ex.problems == []
    got = [(l.entrypoint, args_of(l)) for l in ex.launches]
    assert got == [
        ("vllm serve", ["model", "--port", "str(port)", "--max-num-seqs", "64"]),
        ("api_server", ["--model", "m", "--swap-space", "4"]),
        ("vllm serve", ["remote/model", "--gpu-memory-utilization", "0.8"]),
        ("vllm serve", ["local/model", "--seed", "7"]),
        ("vllm serve", ["unused/model", "--port", "9000"]),
    ]
    returned, joined, remote, local, unused = ex.launches
    check_token(src, returned.args[4], '"64"')
    assert returned.args[4].editable and returned.strong
    # joined for a shell: the words are shell words, placed inside their Python literals
    check_token(src, joined.args[3], "4")
    assert joined.args[3].editable and joined.evidence.startswith("`python3 -m vllm.entrypoints.openai.api_server`")
    check_token(src, remote.args[2], "0.8")
    # the list that is logged, printed and then run is one launch, at the call that runs it
    assert src.text[local.span.start : local.span.end] == "subprocess.Popen(cmd)"
    check_token(src, unused.args[2], '"9000"')


def test_joined_elements_are_shell_words_and_quoted_joins_are_argv() -> None:
    text = '''\
import shlex
import subprocess

args = ["vllm", "serve", "j/model", "--max-model-len 2048", "--dtype 'half'", *extra]
subprocess.run(" ".join(args), shell=True, check=True)
subprocess.run(shlex.join(["vllm", "serve", "q/model", "--served-model-name", "a b"]), shell=True)
subprocess.run(" ".join(shlex.quote(a) for a in ["vllm", "serve", "g/model", "--chat-template", "{{ x }}"]), shell=True)
'''
    src, ex = run(text)
    first, second, third = ex.launches
    assert args_of(first)[:5] == ["j/model", "--max-model-len", "2048", "--dtype", "half"]
    assert first.args[-1].is_opaque  # *extra: unknown words
    check_token(src, first.args[2], "2048")
    assert first.args[2].editable
    check_token(src, first.args[1], "--max-model-len")
    assert args_of(second) == ["q/model", "--served-model-name", "a b"]  # one argv item, quoted by shlex
    check_token(src, second.args[2], '"a b"')
    assert args_of(third) == ["g/model", "--chat-template", "{{ x }}"]


def test_conditional_elements_are_conditional_options() -> None:
    text = '''\
import subprocess

def serve(model, eager, cache, big):
    cmd = ["vllm", "serve", model]
    cmd += ["--enforce-eager"] if eager else []
    cmd.append("--enable-prefix-caching" if cache else "--no-enable-prefix-caching")
    cmd.extend(["--max-model-len", "32768" if big else "8192"])
    cmd += ["--port", "8001"] if big else ["--port", "8002"]
    cmd.append("--seed=1" if big else "--seed=2")
    subprocess.run(cmd, check=True)
'''
    src, ex = run(text)
    [launch] = ex.launches
    assert args_of(launch) == [
        "model", "--enforce-eager", "--enable-prefix-caching", "--no-enable-prefix-caching",
        "--max-model-len", '"32768" if big else "8192"', "--port", "8001", "--seed=1",
    ]
    value = launch.args[5]
    assert value.is_opaque and not value.editable  # a conditional value is one unknown word
    check_token(src, launch.args[3], '"--no-enable-prefix-caching"')
    assert launch.args[3].editable
    assert any("both branches" in n and "--no-enable-prefix-caching" in n for n in launch.notes)
    assert sum("only the first branch" in n for n in launch.notes) == 2  # --port and --seed: one of each


def test_what_a_branch_or_loop_appends_is_conditional(tmp_path) -> None:
    """A list made at one level and appended to in an ``if``, ``for``, ``while``, ``except``
    or ``case`` body: those elements may not be given at all, so an override there
    (``--max-model-len`` again when ``big``) is no duplicate, and they are never the model.
    What is appended at the list's own level is given every time."""
    from tests.rules.lint_helpers import codes, lint

    text = '''\
import os
import subprocess

def serve(model, adapters):
    cmd = ["vllm", "serve", model, "--max-model-len", "4096", "--enable-prefix-caching"]
    cmd += ["--port", "8000"]
    if os.environ.get("BIG"):
        cmd += ["--max-model-len", "32768"]
    for name in adapters:
        cmd.extend(["--lora-modules", name])
    try:
        import flash_attn
    except ImportError:
        cmd.append("--enforce-eager")
    match os.environ.get("CACHE"):
        case "off":
            cmd.append("--no-enable-prefix-caching")
    subprocess.run(cmd, check=True)
'''
    _, ex = run(text)
    [launch] = ex.launches
    got = [(t.value, t.conditional) for t in launch.args]
    assert got == [
        ("model", False), ("--max-model-len", False), ("4096", False), ("--enable-prefix-caching", False),
        ("--port", False), ("8000", False),
        ("--max-model-len", True), ("32768", True), ("--lora-modules", True), ("name", True),
        ("--enforce-eager", True), ("--no-enable-prefix-caching", True),
    ]
    assert "VL205" not in codes(lint(tmp_path, "serve.py", text, "python", target="0.33"))
    # the same override at the list's own level is given every time: the last one wins
    plain = text.replace('    if os.environ.get("BIG"):\n        cmd += ["--max-model-len", "32768"]\n', '    cmd += ["--max-model-len", "32768"]\n')
    assert codes(lint(tmp_path, "serve.py", plain, "python", target="0.33")).count("VL205") == 1


def test_vllms_test_server_runs_vllm_serve_with_its_argument_list(tmp_path) -> None:
    """``RemoteOpenAIServer(MODEL, ARGS)`` of vLLM's ``tests/utils.py`` (copied by plugins)
    runs ``vllm serve MODEL *ARGS``: its argument list is a launch's options, checked and
    reported as weak evidence (the helper is the repository's own), never edited."""
    from tests.rules.lint_helpers import codes, lint

    text = '''\
import pytest

from tests.utils import RemoteOpenAIServer
from vllm.platforms import current_platform

MODEL = "Qwen/Qwen3-0.6B"


@pytest.fixture(scope="module")
def server():
    args = ["--max-model-len", "8192", "--enforce-eager", "--max-num-seq", "16"]
    with RemoteOpenAIServer(MODEL, args) as remote_server:
        yield remote_server


def test_half():
    with RemoteOpenAIServer(MODEL, vllm_serve_args=["--swap-space", "4", "--dtype", "half"]):
        pass
'''
    src, ex = run(text, "tests/test_server.py")
    assert [(args_of(launch), launch.strong, launch.entrypoint) for launch in ex.launches] == [
        (["MODEL", "--max-model-len", "8192", "--enforce-eager", "--max-num-seq", "16"], False, "vllm serve"),
        (["MODEL", "--swap-space", "4", "--dtype", "half"], False, "vllm serve"),
    ]
    result = lint(tmp_path, "test_server.py", text, "python", target="0.33")
    assert sorted(codes(result)) == ["VL101", "VL201"] and all(d.fix is None for d in result.diagnostics)


def test_os_environ_before_a_launch_is_its_environment() -> None:
    text = '''\
import os
import subprocess

import docker
from vllm import LLM

os.environ["VLLM_USE_V1"] = "1"
os.environ.setdefault("VLLM_LOGGING_LEVEL", "DEBUG")
os.environ["HF_TOKEN"] = token
llm = LLM(model="m")
os.environ.update(VLLM_ALLOW_LONG_MAX_MODEL_LEN="1")
subprocess.run(["vllm", "serve", "n"], env={**os.environ, "VLLM_SERVER_DEV_MODE": "1"})
docker.from_env().containers.run("vllm/vllm-openai:v0.30.0", ["--model", "c"])
'''
    src, ex = run(text)
    llm, sub, container = ex.launches
    assert [e.name.value for e in llm.env] == ["VLLM_USE_V1", "VLLM_LOGGING_LEVEL"]
    check_token(src, llm.env[0].name, '"VLLM_USE_V1"')
    check_token(src, llm.env[1].value, '"DEBUG"')
    assert [e.name.value for e in sub.env] == ["VLLM_USE_V1", "VLLM_LOGGING_LEVEL", "VLLM_ALLOW_LONG_MAX_MODEL_LEN", "VLLM_SERVER_DEV_MODE"]
    check_token(src, sub.env[2].name, "VLLM_ALLOW_LONG_MAX_MODEL_LEN")
    assert container.env == []  # a container does not inherit this process's environment


def test_docker_py_containers() -> None:
    text = '''\
import docker

client = docker.from_env()
client.containers.run(
    "vllm/vllm-openai:v0.30.0",
    command=["--model", "Qwen/Qwen3-8B", "--max-num-seqs", "8"],
    environment={"VLLM_ATTENTION_BACKEND": "FLASHINFER", "HF_HOME": "/cache"},
    device_requests=[docker.types.DeviceRequest(count=-1, capabilities=[["gpu"]])],
    detach=True,
)
client.containers.run("python:3.12-slim", "vllm serve e/model --dtype half", environment=["VLLM_HOST_IP=10.0.0.2", "A=1"])
client.containers.run("redis:7", command=["redis-server", "--port", "6380"])  # not vLLM
'''
    src, ex = run(text)
    image, shell_cmd = ex.launches
    assert image.entrypoint == "image" and image.image.value == "vllm/vllm-openai:v0.30.0"
    assert args_of(image) == ["--model", "Qwen/Qwen3-8B", "--max-num-seqs", "8"]
    assert image.strong and image.evidence == "image vllm/vllm-openai:v0.30.0 whose entrypoint takes the arguments"
    assert [(e.name.value, e.value.value) for e in image.env] == [("VLLM_ATTENTION_BACKEND", "FLASHINFER")]
    check_token(src, image.args[3], '"8"')
    assert shell_cmd.entrypoint == "vllm serve" and args_of(shell_cmd) == ["e/model", "--dtype", "half"]
    check_token(src, shell_cmd.args[2], "half")
    assert shell_cmd.args[2].editable
    assert [(e.name.value, e.value.value) for e in shell_cmd.env] == [("VLLM_HOST_IP", "10.0.0.2")]
    check_token(src, shell_cmd.env[0].value, "10.0.0.2")


def test_kserve_and_kubernetes_client_specs() -> None:
    text = '''\
from kserve import V1beta1InferenceService, V1beta1ModelFormat, V1beta1ModelSpec, V1beta1PredictorSpec
from kubernetes.client import V1Container, V1EnvVar

predictor = V1beta1PredictorSpec(
    model=V1beta1ModelSpec(
        model_format=V1beta1ModelFormat(name="huggingface"),
        args=["--model_name=llama3", "--model_id=meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "4096"],
        env=[V1EnvVar(name="VLLM_WORKER_MULTIPROC_METHOD", value="spawn"), {"name": "HF_HOME", "value": "/mnt"}],
    )
)
server = V1Container(name="vllm", image="vllm/vllm-openai:v0.29.0", args=["--model", "k/model", "--tensor-parallel-size", "2"])
sidecar = V1Container(name="proxy", image="envoyproxy/envoy:v1.30", args=["--config-path", "/etc/envoy.yaml"])
'''
    src, ex = run(text)
    kserve, container = ex.launches
    assert kserve.entrypoint == "image" and not kserve.strong  # the runtime's own flags come first: weak, never fixed
    assert "KServe huggingface" in kserve.evidence
    assert [(e.name.value, e.value.value) for e in kserve.env] == [("VLLM_WORKER_MULTIPROC_METHOD", "spawn")]
    check_token(src, kserve.env[0].value, '"spawn"')
    assert container.strong and container.image.value == "vllm/vllm-openai:v0.29.0"
    assert args_of(container) == ["--model", "k/model", "--tensor-parallel-size", "2"]
    check_token(src, container.args[3], '"2"')


def test_ray_bind_forwards_keywords_into_engine_args() -> None:
    text = '''\
from ray import serve
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine


@serve.deployment(ray_actor_options={"num_gpus": 1})
class VLLMDeployment:
    def __init__(self, response_role: str, **engine_kwargs):
        args = AsyncEngineArgs(disable_log_requests=True, **engine_kwargs)
        self.engine = AsyncLLMEngine.from_engine_args(args)


deployment = VLLMDeployment.options(name="chat").bind("assistant", model="Qwen/Qwen3-8B", max_model_len=8192, **{"swap_space": 2})
'''
    src, ex = run(text)
    [launch] = ex.launches
    assert launch.entrypoint == "AsyncEngineArgs" and launch.strong
    assert "VLLMDeployment.bind" in launch.evidence
    assert settings_of(launch) == {
        "disable_log_requests": ("bool", "True"), "model": ("str", "Qwen/Qwen3-8B"),
        "max_model_len": ("int", "8192"), "swap_space": ("int", "2"),
    }
    by_name = {s.name.value: s for s in launch.settings}
    check_token(src, by_name["max_model_len"].name, "max_model_len")
    check_token(src, by_name["max_model_len"].value, "8192")
    check_token(src, by_name["swap_space"].name, '"swap_space"')
    assert launch.notes == []


def test_ray_serve_llm_config() -> None:
    text = '''\
from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(model_id="qwen-0.5b", model_source="Qwen/Qwen2.5-0.5B-Instruct"),
    deployment_config=dict(autoscaling_config=dict(min_replicas=1, max_replicas=2)),
    engine_kwargs=dict(tensor_parallel_size=2, max_model_len=8192, enable_chunked_prefill=True),
    runtime_env=dict(env_vars={"VLLM_USE_V1": "1", "HF_TOKEN": "x"}),
)
serve.run(build_openai_app({"llm_configs": [llm_config]}))


class LLMConfig:  # a local class of the same name is not Ray's
    pass


LLMConfig(engine_kwargs=dict(max_model_len=1))
'''
    src, ex = run(text)
    [launch] = ex.launches
    assert launch.entrypoint == "LLMConfig" and launch.strong and "ray.serve.llm" in launch.evidence
    assert settings_of(launch) == {
        "model": ("str", "Qwen/Qwen2.5-0.5B-Instruct"), "tensor_parallel_size": ("int", "2"),
        "max_model_len": ("int", "8192"), "enable_chunked_prefill": ("bool", "True"),
    }
    model = launch.settings[0]
    check_token(src, model.value, '"Qwen/Qwen2.5-0.5B-Instruct"')
    assert not model.name.editable
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_USE_V1", "1")]


def test_notebook_magics_are_read_around_and_shell_magics_are_commands() -> None:
    text = (
        "!pip install -q vllm==0.30.0\n"
        "%env VLLM_LOGGING_LEVEL=DEBUG\n"
        "from vllm import LLM\n"
        "!vllm serve Qwen/Qwen3-0.6B --port 8000 --max-model-len 4096 &\n"
        "if ready:\n"
        "    llm = LLM(model='facebook/opt-125m', swap_space=2)\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    served, llm = ex.launches
    assert args_of(served) == ["Qwen/Qwen3-0.6B", "--port", "8000", "--max-model-len", "4096"]
    check_token(src, served.args[4], "4096")
    assert served.args[4].editable
    assert settings_of(llm)["swap_space"] == ("int", "2")
    [pin] = ex.pins
    assert src.text[pin.span.start : pin.span.end] == "0.30.0"


def test_a_shell_magic_field_is_a_python_value_unknown_here(tmp_path) -> None:
    """IPython fills ``{expr}`` in a ``!`` line with a Python value before the shell reads it: the
    option's value is unknown (never a wrong integer or choice), the option is still read and
    placed; JSON in quotes, brace expansion and the shell's ``${VAR}`` stay as written."""
    text = (
        "MODEL_ID = 'Qwen/Qwen2.5-1.5B-Instruct'\n"
        "!nohup vllm serve {MODEL_ID} --max-model-len {cfg.max_len} --dtype {DTYPE} --port {ports[0]} "
        "--override-generation-config '{\"temperature\": 0.2}' --download-dir /data/{a,b} --seed ${SEED} > log.txt 2>&1 &\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    [served] = ex.launches
    assert args_of(served) == [
        "${MODEL_ID}", "--max-model-len", "${cfg_max_len}", "--dtype", "${DTYPE}", "--port", "${ports_0}",
        "--override-generation-config", '{"temperature": 0.2}', "--download-dir", "/data/{a,b}", "--seed", "${SEED}",
    ]
    assert all(served.args[i].opaque for i in (0, 2, 4, 6)) and not served.args[8].opaque
    check_token(src, served.args[1], "--max-model-len")
    check_token(src, served.args[3], "--dtype")

    from tests.rules.lint_helpers import lint

    result = lint(tmp_path, "serve.py", text, "python", target="0.33")
    assert [d.code for d in result.diagnostics] == []


def test_a_command_string_split_into_an_argv() -> None:
    """``"vllm serve ...".split(" ")`` and a name bound to the command string, split at the call,
    are argvs as ``.split()`` of the literal is; a string whose blanks ``split(" ")`` would turn
    into empty words is not read as if they were not there."""
    text = (
        "import subprocess\n"
        "server = subprocess.Popen(\"vllm serve --port=9000 --model=Qwen/Qwen3-4B --max-model-len=24000\".split(' '))\n"
        "cmd = \"vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.85\"\n"
        "other = subprocess.Popen(cmd.split(), stdout=subprocess.PIPE)\n"
        "odd = subprocess.Popen(\"vllm serve m  --seed 1\".split(' '))\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    assert [args_of(launch) for launch in ex.launches] == [
        ["--port=9000", "--model=Qwen/Qwen3-4B", "--max-model-len=24000"],
        ["Qwen/Qwen3-8B", "--gpu-memory-utilization", "0.85"],
    ]
    check_token(src, ex.launches[0].args[2], "--max-model-len=24000")
    check_token(src, ex.launches[1].args[2], "0.85")


def test_a_pip_magic_pins_the_release_as_a_pip_shell_line_does() -> None:
    """``%pip install "vllm==0.11.0"`` (the magic IPython recommends over ``!pip``) runs pip with
    the rest of the line: the pin is the file's, placed at its digits; ``%pip uninstall`` and
    other ``%`` magics pin nothing."""
    text = (
        "%pip uninstall -y vllm\n"
        "%pip install -q -U \"transformers<5\" \"vllm==0.11.0\"\n"
        "%env VLLM_LOGGING_LEVEL=DEBUG\n"
        "!vllm serve Qwen/Qwen3-0.6B --max-model-len 4096 &\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    [served] = ex.launches
    assert args_of(served) == ["Qwen/Qwen3-0.6B", "--max-model-len", "4096"]
    [pin] = ex.pins
    assert pin.version == "0.11.0" and src.text[pin.span.start : pin.span.end] == "0.11.0"


def test_a_magic_that_is_a_block_s_only_statement_or_an_assigned_value() -> None:
    """A ``!`` line alone in an ``if`` body, and ``x = !cmd`` / ``t = %timeit -o ...`` (IPython
    assigns a magic's output), are statements IPython runs: the cell is read around them, with
    no syntax error reported, and the ``!`` commands are still read (the pin)."""
    text = (
        "import os\n"
        "if not os.path.exists('/content/done'):\n"
        "    !pip install -q vllm==0.9.2\n"
        "token = !gcloud auth print-access-token\n"
        "from vllm import LLM\n"
        "llm = LLM(model='Qwen/Qwen2.5-1.5B-Instruct', max_model_len=8192)\n"
        "t = %timeit -o llm.generate(['hi'])\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    [llm] = ex.launches
    assert settings_of(llm)["max_model_len"] == ("int", "8192")
    [pin] = ex.pins
    assert pin.version == "0.9.2" and src.text[pin.span.start : pin.span.end] == "0.9.2"


def test_a_notebook_exported_to_python_runs_its_shell_lines_through_get_ipython() -> None:
    """nbconvert writes ``!cmd`` as ``get_ipython().system('cmd')``: a shell command as the ``!``
    line was, its ``pip install vllm==`` pin the file's, each ``{expr}`` a Python value (unknown,
    never a wrong one); a local ``get_ipython`` of the module's own is not IPython's."""
    text = (
        "get_ipython().system('pip install -q vllm==0.10.0')\n"
        "get_ipython().system('nohup vllm serve {MODEL} --max-model-len {MAX_LEN} --dtype {DTYPE} > vllm.log 2>&1 &')\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    [served] = ex.launches
    assert args_of(served) == ["${MODEL}", "--max-model-len", "${MAX_LEN}", "--dtype", "${DTYPE}"]
    assert served.args[2].opaque and served.args[4].opaque
    check_token(src, served.args[1], "--max-model-len")
    [pin] = ex.pins
    assert pin.version == "0.10.0" and src.text[pin.span.start : pin.span.end] == "0.10.0"

    own = "def get_ipython():\n    return Shell()\n\nget_ipython().system('vllm serve m --dtype {DTYPE}')\n"
    [launch] = run(own)[1].launches  # still a command string handed to a runner, read as written
    assert args_of(launch) == ["m", "--dtype", "{DTYPE}"]


def test_the_vllm_wrappers_of_langchain_and_llama_index_are_launches() -> None:
    """LangChain's ``VLLM`` and LlamaIndex's ``Vllm`` build ``vllm.LLM`` in the process from
    their engine fields and ``vllm_kwargs``; their sampling fields are not vLLM's engine
    arguments, and their own field names are never edited."""
    text = (
        "from langchain_community.llms import VLLM\n"
        "from llama_index.llms.vllm import Vllm\n"
        "chat = VLLM(model='Qwen/Qwen3-8B', trust_remote_code=True, max_new_tokens=256,\n"
        "            temperature=0.2, tensor_parallel_size=2, vllm_kwargs={'max_model_len': 8192})\n"
        "index_llm = Vllm(model='microsoft/Orca-2-7b', dtype='float16', max_new_tokens=100,\n"
        "                 vllm_kwargs=dict(swap_space=1, gpu_memory_utilization=0.5))\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    chat, index_llm = ex.launches
    assert (chat.entrypoint, index_llm.entrypoint) == ("VLLM", "Vllm")
    assert settings_of(chat) == {
        "model": ("str", "Qwen/Qwen3-8B"), "trust_remote_code": ("bool", "True"),
        "tensor_parallel_size": ("int", "2"), "max_model_len": ("int", "8192"),
    }
    assert settings_of(index_llm) == {
        "model": ("str", "microsoft/Orca-2-7b"), "dtype": ("str", "float16"),
        "swap_space": ("int", "1"), "gpu_memory_utilization": ("float", "0.5"),
    }
    assert not chat.settings[2].name.editable  # the wrapper's own field
    assert chat.settings[3].name.editable  # a key of vllm_kwargs: vLLM's own keyword
    check_token(src, index_llm.settings[2].name, "swap_space")


def test_magics_do_not_hide_a_real_syntax_error() -> None:
    text = "!pip install vllm\nfrom vllm import LLM\nllm = LLM(model='m'\n"
    _, ex = run(text)
    [problem] = ex.problems
    assert problem.message.startswith("Python syntax error:")


def test_raw_fstring_braces_and_debug_fields() -> None:
    text = (
        "import subprocess\n"
        "subprocess.run(['vllm', 'serve', 'm', rf'--chat-template=\\{{{tpl}\\}}', f'--seed={seed=}', f\"--x=\\{{y}}\"])\n"
    )
    src, ex = run(text)
    [launch] = ex.launches
    assert [t.value for t in launch.args] == ["m", "--chat-template=\\{{tpl}\\}", "--seed={seed=}", "--x=\\{y}"]
    assert launch.args[1].opaque == ((18, 23),)  # only {tpl} is unknown
    check_token(src, launch.args[2], "f'--seed={seed=}'")


def test_every_literal_of_this_project_decodes_as_cpython_reads_it() -> None:
    """The project's own Python: each string literal's value is CPython's, each run stands verbatim."""
    import ast
    import warnings
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    checked = 0
    for path in sorted([*root.glob("linter/**/*.py"), *root.glob("tests/**/*.py"), *root.glob("rules/**/*.py")]):
        text = path.read_text(encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
        ex = pysrc._Extractor(SourceFile.from_text(str(path), text), pysrc._Places(text))
        inner = {id(v) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for v in ast.walk(j) if v is not j}
        for node in ast.walk(tree):
            if id(node) in inner or not (isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))):
                continue
            s = ex.string(node)
            for a, f, n in s.omap.segments:
                assert s.value[a : a + n] == text[f : f + n], (path, node.lineno)
            if isinstance(node, ast.Constant):
                expected = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
                assert s.value == expected, (path, node.lineno)
            else:
                parts, at = [], 0
                for a, b in s.merged_opaque():
                    parts.append(s.value[at:a])
                    at = b
                parts.append(s.value[at:])
                if not any(s.value[a:b].rstrip("}").split("!")[0].split(":")[0].rstrip().endswith("=") for a, b in s.merged_opaque()):
                    assert "".join(parts) == "".join(v.value for v in node.values if isinstance(v, ast.Constant)), (path, node.lineno)
            checked += 1
    assert checked > 5000


def test_class_attribute_command_and_messages_beside_it() -> None:
    text = '''\
import subprocess


class Server:
    """Wraps `vllm serve`; see `vllm serve --help` for the options."""

    CMD = ["vllm", "serve", "facebook/opt-125m", "--max-num-seqs", "4"]
    HELP = "vllm serve MODEL --port PORT"

    def start(self) -> None:
        self.proc = subprocess.Popen(self.CMD + ["--port", str(self.port)])
        print(self.HELP)
'''
    src, ex = run(text)
    [launch] = ex.launches  # the docstring and the help string are messages, not commands
    assert args_of(launch) == ["facebook/opt-125m", "--max-num-seqs", "4"]
    check_token(src, launch.args[2], '"4"')


def test_interpreter_session_is_read_as_its_code() -> None:
    text = (
        ">>> from vllm import LLM\n"
        ">>> llm = LLM(model='Qwen/Qwen3-0.6B',\n"
        "...           max_model_len=2048)\n"
        "INFO 05-01 12:00:00 llm_engine.py:100] Initializing an LLM engine (v0.30.0)\n"
        ">>> llm.generate('Hello')\n"
        "[RequestOutput(request_id=0, prompt='Hello', ...)]\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    [launch] = ex.launches
    assert settings_of(launch)["max_model_len"] == ("int", "2048")
    check_token(src, {s.name.value: s for s in launch.settings}["max_model_len"].value, "2048")


CLIENT = '''\
"""Benchmark client for a vLLM server: only start_server() starts one."""
import argparse
import os
import subprocess

import requests
import vllm

URL = os.environ.get("VLLM_URL", "http://vllm-server:8000")
MODELS = ["vllm-model", "Qwen/Qwen3-8B"]
STEPS = ["start the server with: vllm serve MODEL", "then run this script"]


def start_server() -> subprocess.Popen:
    return subprocess.Popen(["vllm", "serve", MODELS[1], "--port", "8000"])


def main() -> None:
    parser = argparse.ArgumentParser(description="query vllm serve")
    parser.add_argument("--vllm-url", default=URL, help="where `vllm serve` listens")
    args = parser.parse_args()
    subprocess.run(["pip", "install", "vllm==0.6.0"], check=True)
    subprocess.run(["python", "bench.py", "--backend", "vllm"], check=True)
    print(f"vLLM {vllm.__version__} at {args.vllm_url}")
    requests.post(f"{args.vllm_url}/v1/completions", json={"model": MODELS[0], "prompt": "hi"})
'''


def test_a_client_that_names_vllm_everywhere_launches_once() -> None:
    src, ex = run(CLIENT)
    [launch] = ex.launches
    assert args_of(launch) == ["MODELS[1]", "--port", "8000"]
    assert src.text[launch.span.start : launch.span.end].startswith("subprocess.Popen(")
    check_token(src, launch.args[2], '"8000"')


def test_conditional_tokens_are_marked_conditional() -> None:
    text = "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--enforce-eager' if e else '--no-enforce-eager', *(['--seed', '1'] if s else [])])\n"
    _, ex = run(text)
    [launch] = ex.launches
    assert [(t.value, t.conditional) for t in launch.args] == [
        ("m", False), ("--enforce-eager", True), ("--no-enforce-eager", True), ("--seed", True), ("1", True),
    ]


SWEEP = '''\
"""Start the server for each configuration of the sweep and time its start."""
import subprocess
import sys
import time

BASE = ["--port", "8000", "--disable-log-requests"]


def launch(model: str, tp: int = 1, extra: list[str] | None = None, *, eager: bool = False) -> subprocess.Popen:
    cmd = ["vllm", "serve", model, "--tensor-parallel-size", str(tp), *BASE]
    if eager:
        cmd.append("--enforce-eager")
    if extra:
        cmd += extra
    return subprocess.Popen(cmd, stdout=sys.stderr)


def main(argv: list[str]) -> None:
    for tp in (1, 2, 4):
        start = time.monotonic()
        launch("Qwen/Qwen3-32B", tp, ["--max-model-len", "32768"]).wait()
        print(tp, time.monotonic() - start)
    launch("Qwen/Qwen3-8B", extra=["--gpu-memory-utilisation", "0.9", "--max-num-seq", "32"], eager=True)
    seeds = ["--seed", "0"]
    launch("Qwen/Qwen3-0.6B", 1, seeds)
    launch(argv[0], 1)  # nothing known that the body's own reading lacks but the literal 1
    launch(*argv)  # the model and all else unknown: read on its own


if __name__ == "__main__":
    main(sys.argv[1:])
'''


def test_a_function_that_starts_vllm_is_read_through_each_call(tmp_path) -> None:
    """``launch(MODEL, TP, [OPTIONS])``, a function of the module that builds and runs ``vllm
    serve``: each call is read through the body with its arguments as the parameters, so the
    model and the options written at the call are checked (and fixed) there.  What the
    caller's own names hold (``tp``, ``argv[0]``) is unknown (its lists are read), and the
    body's own reading gives way to the calls'."""
    from tests.rules.lint_helpers import lint

    src, ex = run(SWEEP, "bench/sweep.py")
    assert ex.problems == []
    got = [args_of(launch) for launch in ex.launches]
    base = ["--port", "8000", "--disable-log-requests", "--enforce-eager"]
    assert got == [
        ["Qwen/Qwen3-32B", "--tensor-parallel-size", "str(tp)", *base, "--max-model-len", "32768"],
        ["Qwen/Qwen3-8B", "--tensor-parallel-size", "1", *base, "--gpu-memory-utilisation", "0.9", "--max-num-seq", "32"],
        ["Qwen/Qwen3-0.6B", "--tensor-parallel-size", "1", *base, "--seed", "0"],
        ["model", "--tensor-parallel-size", "1", *base, "extra"],
    ]
    first, second, third, fourth = ex.launches
    check_token(src, first.args[0], '"Qwen/Qwen3-32B"')  # the call's own words
    assert first.args[2].is_opaque  # the loop's tp
    check_token(src, second.args[2], "1")  # the default, where the function writes it
    assert second.args[2].value_start == SWEEP.index("tp: int = 1") + len("tp: int = ")
    check_token(src, second.args[-2], '"--max-num-seq"')
    assert second.args[-2].value_start > SWEEP.index('launch("Qwen/Qwen3-8B"')
    assert all(launch.args[6].conditional for launch in ex.launches)  # appended under `if eager:`
    assert all(any("read through the call of `launch` on line" in n for n in launch.notes) for launch in ex.launches)
    assert fourth.args[-1].is_opaque  # `launch(argv[0], 1)`: extra is None, a splat of unknown words

    result = lint(tmp_path, "sweep.py", SWEEP, "python", target="0.33")
    found = sorted((d.code, SWEEP[d.span.start : d.span.end]) for d in result.diagnostics)
    assert found == [("VL104", "--gpu-memory-utilisation"), ("VL201", "--max-num-seq")]
    abbreviation = next(d for d in result.diagnostics if d.code == "VL201")
    assert abbreviation.fix is not None and abbreviation.span.start > SWEEP.index("def main")


def test_a_call_read_through_gives_settings_their_values() -> None:
    """``build(MODEL, max_len=8192)`` around ``LLM(model=model, max_model_len=max_len, ...)``:
    the settings that name parameters take the call's literals, so the model is known to the
    rules that read its config; a parameter the call leaves to an unknown name stays unknown."""
    text = '''\
from vllm import LLM, SamplingParams


def build(model: str, max_len: int = 4096, eager: bool = False, tp=None) -> LLM:
    return LLM(model=model, max_model_len=max_len, enforce_eager=eager, tensor_parallel_size=tp,
               mamba_cache_mode="all", enable_prefix_caching=True)


def main(tp: int) -> None:
    llm = build("Qwen/Qwen3-Next-80B-A3B-Instruct", max_len=8192, eager=True, tp=tp)
    print(llm.generate(["hi"], SamplingParams(max_tokens=8)))
'''
    src, ex = run(text)
    [launch] = ex.launches
    got = settings_of(launch)
    assert got["model"] == ("str", "Qwen/Qwen3-Next-80B-A3B-Instruct")
    assert got["max_model_len"] == ("int", "8192")
    assert got["enforce_eager"] == ("bool", "True")
    assert got["tensor_parallel_size"] == ("opaque", "tp")
    assert got["mamba_cache_mode"] == ("str", "all")
    by_name = {s.name.value: s for s in launch.settings}
    check_token(src, by_name["max_model_len"].value, "8192")
    assert by_name["max_model_len"].value.value_start == text.index("max_len=8192") + len("max_len=")


def test_reading_through_calls_is_bounded_and_keeps_uncalled_functions() -> None:
    """A function calling itself is read through once; a thousand calls read the first
    :data:`linter.sources.python._MAX_CALLS_READ`, and a file's calls at most
    :data:`linter.sources.python._MAX_BODIES_READ`; a function never called is read on its own;
    a call that does not fit the parameters is not read through; a call read again the same
    (inside a function read through each of its own calls) gives one reading."""
    from linter.sources.python import _MAX_CALLS_READ

    text = '''\
import subprocess


def serve(model, port=8000):
    subprocess.run(["vllm", "serve", model, "--port", str(port)])
    serve(model, port + 1)


def unused(model):
    subprocess.run(["vllm", "serve", model, "--max-model-len", "4096"])


serve("Qwen/Qwen3-8B")
serve("a", "b", "c")
'''
    src, ex = run(text)
    assert [args_of(launch) for launch in ex.launches] == [
        ["Qwen/Qwen3-8B", "--port", "8000"],
        ["model", "--max-model-len", "4096"],
    ]
    nested = text.replace('serve("Qwen/Qwen3-8B")', 'def bench(name):\n    serve("Qwen/Qwen3-8B", 8001)\n    print(name)\n\n\nbench("a")\nbench("b")')
    src, ex = run(nested)  # each bench() reads the same call inside it: one reading
    assert [args_of(launch) for launch in ex.launches] == [["Qwen/Qwen3-8B", "--port", "8001"], ["model", "--max-model-len", "4096"]]
    many = "import subprocess\n\ndef serve(m, n):\n    subprocess.run(['vllm', 'serve', m, '--max-model-len', n])\n\n" + "".join(
        f"serve('model-{i}', '{i}')\n" for i in range(1000))
    src, ex = run(many)
    assert len(ex.launches) == _MAX_CALLS_READ
    assert args_of(ex.launches[-1]) == [f"model-{_MAX_CALLS_READ - 1}", "--max-model-len", str(_MAX_CALLS_READ - 1)]
    # a generated module: the file's calls read through are bounded too; past the bound a
    # function keeps its own reading
    from linter.sources.python import _MAX_BODIES_READ

    defs = "".join(f"def f{k}(m):\n    subprocess.run(['vllm', 'serve', m, '--port', '{k}'])\n" for k in range(300))
    calls = "".join(f"f{k}('model-{k}')\nf{k}('again-{k}')\n" for k in range(300))
    src, ex = run("import subprocess\n" + defs + calls)
    assert len(ex.launches) == _MAX_BODIES_READ + (300 - _MAX_BODIES_READ // 2)
    assert args_of(ex.launches[-1]) == ["m", "--port", "299"]


SERVER_CLASS = '''\
"""A test fixture that starts vLLM once for the session."""
import subprocess
import time


class VLLMServer:
    def start(self) -> None:  # (defined before __init__ builds the command)
        self.proc = subprocess.Popen(self.cmd)
        time.sleep(30)

    def __init__(self, model: str, port: int = 8000, extra_args: list[str] | None = None) -> None:
        self.model = model
        self.cmd = ["vllm", "serve", model, "--port", str(port), "--max-num-seq", "8"]
        if extra_args:
            self.cmd += extra_args
        self.cmd.append("--disable-log-requests")


class OpenAIServer:
    def __init__(self, model: str) -> None:
        self.cmd = ["python", "-m", "vllm.entrypoints.openai.api_server", "--model", model]
        self.cmd.extend(["--swap-space", "4"])

    def start(self) -> None:
        self.proc = subprocess.Popen(self.cmd)


class Monitor:
    def __init__(self) -> None:
        self.cmd = ["nvidia-smi", "--query-gpu=memory.used", "--format=csv"]

    def poll(self) -> str:
        return subprocess.run(self.cmd, capture_output=True, text=True).stdout
'''


def test_a_command_kept_on_the_instance_is_read_where_it_runs() -> None:
    """``self.cmd = [...]`` built in ``__init__`` (appended to and extended there) and run as
    ``Popen(self.cmd)`` in another method: one launch at the call that runs it, or at the
    list when the method that runs it comes first in the class.  Each class keeps
    its own ``self.cmd``: the monitor's ``nvidia-smi`` is no launch."""
    src, ex = run(SERVER_CLASS)
    assert ex.problems == []
    got = [(l.entrypoint, args_of(l)) for l in ex.launches]
    assert got == [
        ("vllm serve", ["model", "--port", "str(port)", "--max-num-seq", "8", "extra_args", "--disable-log-requests"]),
        ("api_server", ["--model", "model", "--swap-space", "4"]),
    ]
    early, api = ex.launches
    assert src.text[early.span.start : early.span.end].startswith('["vllm", "serve"')  # run before it was built: at the list
    assert early.args[5].splat and early.args[5].is_opaque
    assert src.text[api.span.start : api.span.end] == "subprocess.Popen(self.cmd)"
    check_token(src, api.args[3], '"4"')
    assert api.args[3].editable


def test_keys_set_on_a_settings_dict_after_it_is_built(tmp_path) -> None:
    """``engine_kwargs["k"] = v`` and ``engine_kwargs.update(...)`` after the literal, then
    ``LLM(**engine_kwargs)``: a key set again replaces its value, one set only under a
    condition is conditional (or, when the literal holds it, a note), and all are checked.  A
    fix can delete a keyword of ``update()`` but never a ``kw["k"] = v`` statement's key."""
    from tests.rules.lint_helpers import lint

    text = '''\
import argparse

from vllm import LLM

parser = argparse.ArgumentParser()
parser.add_argument("--quantization")
args = parser.parse_args()

engine_kwargs = {"model": "Qwen/Qwen3-8B", "max_model_len": 4096}
engine_kwargs["max_model_len"] = 8192
if args.quantization:
    engine_kwargs["quantization"] = args.quantization
    engine_kwargs["max_model_len"] = 2048
engine_kwargs.update(swap_space=4, enforce_eager=True)
engine_kwargs.update({"gpu_memory_utilisation": 0.8})
engine_kwargs["num_gpu_blocks_override"] = 64
llm = LLM(**engine_kwargs)
'''
    src, ex = run(text)
    [launch] = ex.launches
    got = settings_of(launch)
    assert got == {
        "model": ("str", "Qwen/Qwen3-8B"), "max_model_len": ("int", "8192"), "quantization": ("opaque", "args.quantization"),
        "swap_space": ("int", "4"), "enforce_eager": ("bool", "True"), "gpu_memory_utilisation": ("float", "0.8"),
        "num_gpu_blocks_override": ("int", "64"),
    }
    by_name = {s.name.value: s for s in launch.settings}
    check_token(src, by_name["max_model_len"].value, "8192")
    assert by_name["quantization"].name.conditional and not by_name["swap_space"].name.conditional
    assert any("engine_kwargs['max_model_len'] may be set again under a condition (2048)" == n for n in launch.notes)
    assert not any("changed after it is built" in n for n in launch.notes)
    assert by_name["num_gpu_blocks_override"].name.value_start is None and by_name["swap_space"].name.value_start is not None

    result = lint(tmp_path, "offline.py", text, "python", target="0.33")
    assert sorted((d.code, text[d.span.start : d.span.end]) for d in result.diagnostics) == [
        ("VL101", "swap_space"), ("VL104", "gpu_memory_utilisation")]
    from linter.fixer import apply_edits

    [removed] = [d for d in result.diagnostics if d.code == "VL101"]
    fixed = apply_edits(text, list(removed.fix.edits))
    assert "engine_kwargs.update(enforce_eager=True)\n" in fixed and ast.parse(fixed)


def test_a_shell_magic_continued_by_backslashes_is_one_command() -> None:
    """IPython joins a ``!`` line that ends with a backslash to the next one before it runs it
    (a Colab or Kaggle cell that starts the server on several lines): the continued lines are
    the command's words, not Python."""
    text = (
        "# start the server in the background\n"
        "!vllm serve Qwen/Qwen3-0.6B \\\n"
        "    --port 8000 \\\n"
        "    --max-model-len 4096 &\n"
        "!pip install openai\n"
        "from openai import OpenAI\n"
        "client = OpenAI(base_url='http://localhost:8000/v1', api_key='x')\n"
    )
    src, ex = run(text)
    assert ex.problems == []
    [served] = ex.launches
    assert args_of(served) == ["Qwen/Qwen3-0.6B", "--port", "8000", "--max-model-len", "4096"]
    check_token(src, served.args[4], "4096")
    assert served.args[4].editable
