"""Jupyter notebooks: launches in code cells (Python, ``!`` lines, ``%%bash``), Markdown cells
and bash-kernel notebooks, placed in the JSON file and never edited."""

from __future__ import annotations

import json

from linter.source_file import SourceFile
from linter.sources import notebook
from tests.sources.token_checks import check_launch, values


def _notebook(cells: list[dict], kernel: str = "python") -> str:
    """A notebook as Jupyter writes it (``indent=1``, non-ASCII kept, a final newline)."""
    spec = {"display_name": "Python 3", "language": "python", "name": "python3"} if kernel == "python" else \
        {"display_name": "Bash", "language": "bash", "name": "bash"}
    nb = {"cells": cells, "metadata": {"kernelspec": spec, "language_info": {"name": kernel}}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _code(*lines: str, outputs: list | None = None) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": outputs or [], "source": list(lines)}


def _markdown(*lines: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": list(lines)}


SERVE = _notebook([
    _markdown("# Serving Qwen3 with vLLM\n", "\n", "Start the server in the background:\n", "\n",
              "```bash\n", "vllm serve Qwen/Qwen3-8B --max-num-seq 8 --port 8000\n", "```\n"),
    _code("!pip install -q vllm==0.30.0\n", "!vllm serve Qwen/Qwen3-8B --gpu-memory-utilisation 0.8 &"),
    _code("from vllm import LLM, SamplingParams\n", "\n",
          "llm = LLM(model=\"Qwen/Qwen3-Next-80B-A3B-Instruct\", mamba_cache_mode=\"all\",\n",
          "          enable_prefix_caching=True)  # modèle hybride\n",
          "print(llm.generate([\"Bonjour\"], SamplingParams(max_tokens=8)))",
          outputs=[{"name": "stdout", "output_type": "stream", "text": ["INFO vllm serve --port 1 started\n"]}]),
    _code("%%bash\n", "vllm serve Qwen/Qwen3-0.6B \\\n", "  --swap-space 4 \\\n", "  --port 8001\n"),
    _code("import requests\n", "requests.get(\"http://localhost:8000/v1/models\").json()"),
])


def _extract(text: str, path: str = "notebooks/serve.ipynb"):
    src = SourceFile.from_text(path, text)
    ex = notebook.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    return src, ex


def test_cells_are_read_by_their_own_readers_and_placed_in_the_json() -> None:
    """A Markdown cell's fenced block, IPython ``!`` lines, ``LLM(...)`` in a code cell and a
    ``%%bash`` cell are each a launch, placed at their words inside the JSON strings (escaped
    quotes, non-ASCII characters and each line's ``\\n`` accounted for); the outputs (a log
    line naming ``vllm serve``) are not read; the ``!pip install vllm==`` pin is the file's."""
    src, ex = _extract(SERVE)
    assert ex.problems == []
    got = [(launch.kind, launch.entrypoint, values(launch.args)) for launch in ex.launches]
    assert got == [
        ("markdown", "vllm serve", ["Qwen/Qwen3-8B", "--max-num-seq", "8", "--port", "8000"]),
        ("python", "vllm serve", ["Qwen/Qwen3-8B", "--gpu-memory-utilisation", "0.8"]),
        ("python", "LLM", []),
        ("shell", "vllm serve", ["Qwen/Qwen3-0.6B", "--swap-space", "4", "--port", "8001"]),
    ]
    for launch in ex.launches:
        assert not launch.editable and any("notebook cell" in n for n in launch.notes)
        for tok in [*launch.entry, *launch.args]:
            assert tok.value_start is None  # never edited
    md, bang, llm, bash = ex.launches
    assert src.text[md.args[1].span.start : md.args[1].span.end] == "--max-num-seq"
    assert src.text[bang.args[1].span.start : bang.args[1].span.end] == "--gpu-memory-utilisation"
    settings = {s.name.value: s for s in llm.settings}
    assert settings["mamba_cache_mode"].value.value == "all"
    assert src.text[settings["mamba_cache_mode"].value.span.start : settings["mamba_cache_mode"].value.span.end] == '\\"all\\"'
    assert src.text[bash.args[2].span.start : bash.args[2].span.end] == "4"
    assert src.text.count("\n", 0, bash.args[1].span.start) == src.text.count("\n", 0, src.text.index('"  --swap-space'))
    [pin] = ex.pins
    assert pin.version == "0.30.0" and src.text[pin.span.start : pin.span.end] == "0.30.0"


def test_a_notebook_is_linted_against_its_pin_and_never_fixed(tmp_path) -> None:
    from tests.rules.lint_helpers import lint

    result = lint(tmp_path, "serve.ipynb", SERVE, "notebook")
    found = sorted((d.code, SERVE.count("\n", 0, d.span.start) + 1, SERVE[d.span.start : d.span.end]) for d in result.diagnostics)
    lines = {needle: SERVE.count("\n", 0, SERVE.index(needle)) + 1
             for needle in ("--max-num-seq 8", "--gpu-memory-utilisation", 'mamba_cache_mode=\\"all', "--swap-space 4")}
    assert found == sorted([
        ("VL201", lines["--max-num-seq 8"], "--max-num-seq"),
        ("VL104", lines["--gpu-memory-utilisation"], "--gpu-memory-utilisation"),
        ("VL301", lines['mamba_cache_mode=\\"all'], '\\"all\\"'),
        ("VL101", lines["--swap-space 4"], "--swap-space"),
    ])
    assert all(d.fix is None or not d.fix.edits or d.fix.applicability == "display-only" for d in result.diagnostics)

    from click.testing import CliRunner

    from linter.cli import main

    path = tmp_path / "serve.ipynb"
    before = path.read_bytes()
    run = CliRunner().invoke(main, ["--no-cache", "--fix", "--unsafe-fixes", "--target-version", "0.33", str(path)])
    assert run.exit_code == 1 and "VL104" in run.output
    assert path.read_bytes() == before


def test_a_bash_kernel_reads_code_cells_as_shell_and_a_single_string_source() -> None:
    text = _notebook([
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
         "source": "export VLLM_USE_V1=1\nvllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192\n"},
    ], kernel="bash")
    src, ex = _extract(text)
    [launch] = ex.launches
    assert launch.kind == "shell" and values(launch.args) == ["meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "8192"]
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_USE_V1", "1")]
    assert src.text[launch.args[2].span.start : launch.args[2].span.end] == "8192"


def test_what_is_not_a_launch_in_a_notebook() -> None:
    """Outputs and prose naming vLLM, a notebook that never names it, and a Python cell that
    only queries a running server are no launch; JSON that does not parse is one problem, at
    the place that broke."""
    prose = _notebook([
        _markdown("We compare vLLM with TGI.\n"),
        _code("import requests\n", "r = requests.post(URL, json={\"prompt\": \"hi\"})",
              outputs=[{"name": "stdout", "output_type": "stream", "text": ["vllm serve Qwen/Qwen3-8B --port 1\n"]}]),
    ])
    assert _extract(prose)[1].launches == [] and _extract(prose)[1].problems == []
    assert notebook.extract(SourceFile.from_text("a.ipynb", _notebook([_code("print(1)")]))).launches == []
    broken = SERVE[: SERVE.index('"cell_type": "code"')] + "{" + SERVE[SERVE.index('"cell_type": "code"'):]
    src, ex = _extract(broken)
    [problem] = ex.problems
    assert ex.launches == [] and problem.message.startswith("notebook JSON:")
    assert problem.span.start >= broken.index('{"cell_type": "code"') - 2


def test_a_suppression_comment_in_a_cell_silences_its_line(tmp_path) -> None:
    """``# vllm-lint: ignore[CODE]`` works in a notebook's code cells as in a Python file, and
    in a ``%%bash`` cell as in a shell script."""
    from tests.rules.lint_helpers import lint

    text = _notebook([
        _code("!vllm serve Qwen/Qwen3-8B --swap-space 4  # vllm-lint: ignore[VL101] the old fleet still runs 0.17\n",
              "!vllm serve Qwen/Qwen3-8B --max-num-seq 8\n"),
        _code("%%bash\n", "# vllm-lint: ignore[VL104] a plugin adds it\n", "vllm serve Qwen/Qwen3-8B --enable-turbo-mode\n"),
    ])
    result = lint(tmp_path, "ops.ipynb", text, "notebook", target="0.33")
    assert [(d.code, text[d.span.start : d.span.end]) for d in result.diagnostics] == [("VL201", "--max-num-seq")]


def test_an_unused_suppression_in_a_cell_is_removed_only_where_it_stands_verbatim(tmp_path) -> None:
    """VL901's fix deletes a suppression that silences nothing; inside a notebook it does so
    only when the comment's text stands as it is in the JSON string (no escapes), so the file
    stays the same JSON with one line of one cell shorter."""
    from click.testing import CliRunner

    from linter.cli import main

    text = _notebook([
        _code("!vllm serve Qwen/Qwen3-8B --max-num-seqs 8  # vllm-lint: ignore[VL101] was --swap-space\n",
              "!vllm serve Qwen/Qwen3-8B --port 8001  # vllm-lint: ignore[VL104] \"--turbo\" is gone\n"),
    ])
    path = tmp_path / "ops.ipynb"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(main, ["--no-cache", "--output-format", "concise", "--target-version", "0.33", str(path)])
    assert run.output.count("VL901") == 2 and run.output.count("VL901 [*]") == 1
    run = CliRunner().invoke(main, ["--no-cache", "--fix", "--target-version", "0.33", str(path)])
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after["cells"][0]["source"] == [
        "!vllm serve Qwen/Qwen3-8B --max-num-seqs 8\n",
        "!vllm serve Qwen/Qwen3-8B --port 8001  # vllm-lint: ignore[VL104] \"--turbo\" is gone\n",
    ]


def test_escapes_that_are_no_text_do_not_lose_the_cell() -> None:
    """A lone surrogate or a NUL escaped in a cell's JSON string (``"\\ud800"``) cannot be handed
    to the Python reader as it is: each stands as one replacement character, so the rest of the
    cell is read where it stands."""
    text = '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ["print(\\"\\ud800 \\u0000\\")\\n", "!vllm serve Qwen/Qwen3-8B --swap-space 4\\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n'
    src, ex = _extract(text)
    assert ex.problems == []
    [launch] = ex.launches
    assert values(launch.args) == ["Qwen/Qwen3-8B", "--swap-space", "4"]
    assert text[launch.args[1].span.start : launch.args[1].span.end] == "--swap-space"


def test_a_cell_uses_what_an_earlier_cell_imported() -> None:
    """A notebook is one kernel: ``from vllm import LLM`` in the first cell binds ``LLM`` in the
    cells that follow, which name vLLM nowhere else; ``import subprocess as sp`` likewise reads a
    later ``sp.Popen([...])``.  A name imported from elsewhere (``from mylib import LLM``) is not
    vLLM's, nor is a cell read before the one that imports."""
    text = _notebook([
        _code("llm0 = LLM(model=\"early/too-soon\")"),
        _code("import subprocess as sp\n", "from vllm import LLM, SamplingParams\n"),
        _markdown("Load the model (about a minute on a T4):\n"),
        _code("llm = LLM(\n", "    model=\"Qwen/Qwen2.5-1.5B-Instruct\",\n", "    max_model_len=4096,\n",
              "    gpu_memory_utilization=0.85,\n", ")"),
        _code("server = sp.Popen([\"vllm\", \"serve\", \"Qwen/Qwen2.5-1.5B-Instruct\", \"--port\", \"8001\"])"),
        _code("params = SamplingParams(temperature=0.2)\n", "out = llm.generate([\"Hi\"], params)"),
    ])
    src, ex = _extract(text)
    assert ex.problems == []
    got = [(launch.entrypoint, values(launch.args), sorted(s.name.value for s in launch.settings)) for launch in ex.launches]
    assert got == [
        ("LLM", [], ["gpu_memory_utilization", "max_model_len", "model"]),
        ("vllm serve", ["Qwen/Qwen2.5-1.5B-Instruct", "--port", "8001"], []),
    ]
    llm = ex.launches[0]
    setting = next(s for s in llm.settings if s.name.value == "max_model_len")
    assert src.text[setting.value.span.start : setting.value.span.end] == "4096"

    other = _notebook([_code("from mylib import LLM\n"), _code("llm = LLM(model=\"x/y\", max_model_len=4096)  # not vllm's\n")])
    assert _extract(other)[1].launches == []

    # a library's wrapper of vLLM imported in one cell is vLLM's in the next, as in Markdown blocks
    wrapped = _notebook([_code("from langchain_community.llms import VLLM as Engine\n"),
                         _code("llm = Engine(model=\"Qwen/Qwen2.5-1.5B-Instruct\", tensor_parallel_size=1, temperature=0.2)\n")])
    (launch,) = _extract(wrapped)[1].launches
    assert launch.entrypoint == "VLLM" and sorted(s.name.value for s in launch.settings) == ["model", "tensor_parallel_size"]
