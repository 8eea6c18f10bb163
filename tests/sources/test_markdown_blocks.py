"""Markdown code blocks as documents hold them: transcripts, prompts, pseudo-code, placeholders.

Each case is a small document written for this test with the launch
``vllm serve Qwen/Qwen3-8B --max-model-len 8192`` (or ``LLM(model="Qwen/Qwen3-8B", max_model_len=8192)``)
in one block among output lines, prompts, REPL sessions, ``<MODEL>``/``...``/``[--port PORT]``
placeholders.  The launch is read, no block gives a parse error, and no rule finds anything.
"""

# ruff: noqa: E501

from __future__ import annotations

import pytest

from linter.source_file import SourceFile
from linter.sources import markdown
from tests.sources.token_checks import assert_read_cleanly, check_launch, lint_codes, values

S = 'vllm serve Qwen/Qwen3-8B --max-model-len 8192'

DOCS: dict[str, str] = {
    'py-repl': '# Use\n\n```python\n>>> from vllm import LLM\n>>> llm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n>>> outputs = llm.generate(["Hello"])\nINFO 01-01 loading weights...\n>>> for o in outputs:\n...     print(o.outputs[0].text)\n...\nHello! How can I help?\n```\n',
    'pycon': '```pycon\n>>> from vllm import LLM\n>>> llm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n```\n\n```bash\n' + S + '\n```\n',
    'py-ellipsis-lines': '```python\nfrom vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n...\n# more code\n...\n```\n',
    'py-ellipsis-arg': '```python\nfrom vllm import LLM\nllm = LLM(\n    model="Qwen/Qwen3-8B",\n    max_model_len=8192,\n    ...\n)\n```\n',
    'py-placeholder-angle': '```python\nfrom vllm import LLM\nllm = LLM(model=<your-model>, max_model_len=8192)\n```\n',
    'py-placeholder-angle-str': '```python\nfrom vllm import LLM\nllm = LLM(model="<MODEL>", max_model_len=8192)\n```\n',
    'py-output-after': '```python\nfrom vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\nprint(llm.generate("hi"))\n# Output:\n# [RequestOutput(...)]\n```\n',
    'py-await-top': '```python\nfrom vllm import AsyncLLMEngine, AsyncEngineArgs\nengine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model="Qwen/Qwen3-8B", max_model_len=8192))\nasync for out in engine.generate("hi", params, "id"):\n    print(out)\n```\n',
    'py-await-expr': '```python\nfrom vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\nresult = await client.completions.create(model="m", prompt="x")\n```\n',
    'py-312': '```python\nfrom vllm import LLM\ncfg = {"m": "x"}\nprint(f"{cfg["m"]}")\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n```\n',
    'py-in-list': '1. Run:\n\n   ```python\n   from vllm import LLM\n   llm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n   ```\n',
    'py-in-quote': '> ```python\n> from vllm import LLM\n> llm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n> ```\n',
    'py-crlf': '```python\r\nfrom vllm import LLM\r\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\r\n```\r\n',
    'py-magic': '```python\n!pip install vllm\n%env VLLM_LOGGING_LEVEL=DEBUG\nfrom vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n```\n',
    'py-two-statements-one-bad': '```python\nfrom vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\noutputs = llm.generate(prompts, sampling_params)  # -> list[RequestOutput]\n```\n',
    'sh-transcript': '```bash\n$ ' + S + '\nINFO 05-01 12:00:00 api_server.py:123] vLLM API server version 0.8.0\nINFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n```\n',
    'console-block': '```console\n$ pip install vllm\n$ vllm serve Qwen/Qwen3-8B \\\n>   --max-model-len 8192\nINFO: started (don\'t worry about "warnings")\n```\n',
    'venv-prompt': '```console\n(venv) user@gpu-host:~/work$ ' + S + '\nWARNING: it\'s "fine"\n```\n',
    'root-prompt': '```shell\nroot@abc123:/workspace# ' + S + '\n```\n',
    'pseudo-angle': '```bash\nvllm serve <MODEL> --max-model-len <MAX_LEN>\n' + S + '\n```\n',
    'pseudo-ellipsis': '```bash\n' + S + ' ...\n```\n',
    'pseudo-ellipsis-line': '```bash\n' + S + ' \\\n  ...\n```\n',
    'pseudo-brackets': '```bash\n' + S + ' [--port PORT] [--host HOST]\n```\n',
    'pseudo-pipe-choice': '```bash\n' + S + ' --dtype {auto,half,bfloat16}\n```\n',
    'sh-output-with-parens': '```bash\n' + S + '\n# (APIServer pid=123) INFO: Started\n```\n',
    'sh-log-no-prompt': '```bash\n' + S + '\nINFO 05-01 12:00:00 [api_server.py:1] Started server process (pid=1)\nINFO: Application startup complete.\n```\n',
    'sh-curl-json': '```bash\n' + S + ' &\ncurl http://localhost:8000/v1/completions -H "Content-Type: application/json" -d \'{\n  "model": "Qwen/Qwen3-8B",\n  "prompt": "San Francisco is a"\n}\'\n```\n',
    'sh-unclosed-in-other-line': '```bash\n' + S + '\necho "don\'t\n```\n',
    'sh-windows-prompt': '```powershell\nPS C:\\> ' + S + '\n```\n\n```bash\n' + S + '\n```\n',
    'sh-env-placeholder': '```bash\nexport HF_TOKEN=<your token>\n' + S + '\n```\n',
    'sh-heredoc': '```bash\ncat > config.yaml <<EOF\nmax-num-seqs: 8\nEOF\n' + S + ' --config config.yaml\n```\n',
    'sh-tabs-list': '- Start:\n  ```bash\n  ' + S + '\n  ```\n',
    'sh-two-prompts-output': '```bash\n$ ' + S + '\n(APIServer pid=1) INFO: ok\n$ curl localhost:8000/v1/models\n{"object":"list","data":[{"id":"Qwen/Qwen3-8B"}]}\n```\n',
    'sh-comment-ellipsis': '```bash\n# ... download the model first ...\n' + S + '\n```\n',
    'sh-continuation-output': '```sh\n$ ' + S + ' \\\n    --port 8000\nINFO ... (it\'s up)\n```\n',
    'bash-transcript-output-quotes': '```bash\n$ ' + S + '\nINFO:     Started server process [123]\nWARNING 05-01 It\'s "recommended" to set (x\n$ curl -s localhost:8000/v1/models | jq .\n{\n  "data": [ { "id": "Qwen/Qwen3-8B" } ]\n}\n```\n',
    'bash-no-prompt-output': "```bash\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n```\n\nOutput:\n\n```bash\nINFO 05-01 [api_server.py:1] vLLM API server version 0.8.0 (model='Qwen')\nINFO: Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n```\n",
    'text-block-mentions': '```text\nvllm serve Qwen/Qwen3-8B --bad-flag\n```\n\n```bash\n' + S + '\n```\n',
    'bash-heredoc-prompt': '```console\n$ cat > cfg.yaml <<EOF\n> max-num-seqs: 8\n> EOF\n$ ' + S + ' --config cfg.yaml\n```\n',
    'bash-pip-and-python-repl': '```console\n$ pip install vllm\n$ python\n>>> from vllm import LLM\n>>> LLM(model="x")\n$ ' + S + '\n```\n',
    'sh-block-with-prose': "```bash\n# Start the server (it'll take a minute)\nvllm serve Qwen/Qwen3-8B --max-model-len 8192\n# Then query it: curl ... (see below)\n```\n",
    'bash-angle-in-quotes': '```bash\n' + S + ' --served-model-name "<name>" --chat-template \'<template.jinja>\'\n```\n',
    'bash-dollar-var-placeholder': '```bash\nexport MODEL=<your-model>\nvllm serve $MODEL --max-model-len 8192\n' + S + '\n```\n',
    'bash-json-placeholder': '```bash\n' + S + ' --hf-overrides \'{"rope_scaling": <rope>}\'\n```\n',
    'console-ps2-continuation': '```console\n$ vllm serve Qwen/Qwen3-8B \\\n>     --max-model-len 8192 \\\n>     --port 8000\nINFO ready\n```\n',
    'bash-tilde-fence': '~~~bash\n' + S + '\n~~~\n',
    'bash-nested-in-list-quote': '1. Step\n\n   > ```bash\n   > ' + S + '\n   > ```\n',
    'zsh-prompt': '```zsh\n% ' + S + '\n```\n',
    'sh-session-prompt': '```sh-session\n$ pip install vllm\n$ ' + S + '\nINFO: started\n```\n',
    'sh-with-windows-cmd': '```bash\n' + S + '\n```\n\n```cmd\nset VLLM_X=1 && vllm serve m --foo\n```\n',
    'yaml-colon-in-bash': '```bash\n' + S + ' --override-generation-config \'{"temperature": 0.5}\'\n```\n',
    'sh-log-lines-with-quotes': '```bash\nINFO 05-01 12:00:00 [api_server.py:1] it\'s starting\n(APIServer pid=12) WARNING 05-01 don\'t set "x\n2025-05-01 12:00:01,123 - it\'s up\n' + S + '\n```\n',
    'pycon-only': '```pycon\n>>> from vllm import LLM\n>>> llm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\nINFO 01-01 loading\n>>> print(llm)\n<vllm.entrypoints.llm.LLM object at 0x7f>\n```\n',
}


ARGV = ["Qwen/Qwen3-8B", "--max-model-len", "8192"]


def _found(ex) -> bool:
    return any(values(l.args[:3]) == ARGV or any(s.name.value == "max_model_len" and s.value is not None and s.value.value == "8192" for s in l.settings) for l in ex.launches)


@pytest.mark.parametrize("name", sorted(DOCS))
def test_documentation_blocks_are_read_without_false_reports(name: str) -> None:
    assert_read_cleanly("README.md", DOCS[name], markdown.extract, ARGV)


DIFF = '```python\nfrom vllm import LLM\n- llm = LLM(model="old")\n+ llm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n```\n'


def test_a_python_block_that_loses_a_launch_is_reported_where_it_breaks() -> None:
    src = SourceFile.from_text("README.md", DIFF)
    (problem,) = markdown.extract(src).problems
    assert "Python syntax error" in problem.message
    assert DIFF[problem.span.start :].startswith("- llm = LLM")  # the line CPython stops at


def test_a_python_snippet_that_starts_nothing_says_nothing() -> None:
    text = '```python\nfrom vllm import SamplingParams\nparams = SamplingParams(temperature=0.8,\n```\n\n```bash\n' + S + '\n```\n'
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    assert ex.problems == [] and _found(ex)


def test_a_repl_prompt_is_content_not_a_block_quote() -> None:
    text = DOCS["py-repl"]
    (block,) = markdown.fenced_blocks(text)
    assert text[block.lines[0][0] :].startswith(">>> from vllm import LLM")
    # inside a block quote, the quote's own marker is dropped and the prompt kept
    quoted = "> ```python\n> >>> x = 1\n> ```\n"
    (block,) = markdown.fenced_blocks(quoted)
    assert quoted[block.lines[0][0] : block.lines[0][1]] == ">>> x = 1"


def test_synopsis_words_are_unknown_not_unrecognized() -> None:
    src = SourceFile.from_text("README.md", DOCS["pseudo-brackets"])
    (launch,) = markdown.extract(src).launches
    assert [t.value for t in launch.args if t.is_opaque] == ["[--port", "PORT]", "[--host", "HOST]"]
    assert not any(t.is_opaque for t in launch.args[:3])


def test_unquoted_angle_placeholders_are_unknown_words_not_redirections() -> None:
    text = (
        "```bash\nvllm serve <model_name> --max-model-len 8192 --port 8000\n"
        "vllm serve --model=<MODEL> --tensor-parallel-size <TP> --max-model-len 8192\n"
        "python -m vllm.entrypoints.openai.api_server --model <your model> --max-model-len 8192\n"
        "curl localhost:8000/v1/completions -d '{\"model\": \"<MODEL>\"}' < <(echo x) > out.json\n```\n"
    )
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    assert ex.problems == []
    got = [[t.value for t in l.args] for l in ex.launches]
    assert got == [
        ["<model_name>", "--max-model-len", "8192", "--port", "8000"],
        ["--model=<MODEL>", "--tensor-parallel-size", "<TP>", "--max-model-len", "8192"],
        ["--model", "<your model>", "--max-model-len", "8192"],
    ]
    for launch in ex.launches:
        check_launch(src, launch)  # the words as the document writes them, where it writes them
        assert all(t.is_opaque for t in launch.args if "<" in t.value)
    assert lint_codes("README.md", text) == []


def test_a_python_block_copied_from_a_notebook_shell_cell_is_a_script() -> None:
    """A ``python`` block that is a notebook's ``%%bash`` cell (``%%sh``, ``%%script bash``):
    its lines are shell commands, read as a script where they stand."""
    text = (
        "Start the server from the notebook:\n\n"
        "```python\n"
        "%%bash --bg\n"
        "vllm serve Qwen/Qwen3-8B --port 8001 \\\n"
        "  --max-num-seq 8 > vllm.log 2>&1\n"
        "```\n\n"
        "```python\n"
        "%%script bash\n"
        "python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-0.6B --port 8002\n"
        "```\n\n"
        "```python\n"
        "%%time\n"
        "print('vllm serve is not run here')\n"
        "```\n"
    )
    src = SourceFile.from_text("notebook.md", text)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert [(l.entrypoint, values(l.args)) for l in ex.launches] == [
        ("vllm serve", ["Qwen/Qwen3-8B", "--port", "8001", "--max-num-seq", "8"]),
        ("api_server", ["--model", "Qwen/Qwen3-0.6B", "--port", "8002"]),
    ]
    assert ex.problems == []
    assert text[ex.launches[0].args[3].value_start :].startswith("--max-num-seq 8")
