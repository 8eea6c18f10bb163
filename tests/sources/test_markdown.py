"""Markdown: fenced blocks found by CommonMark rules, each block extracted in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.source_file import SourceFile
from linter.sources import markdown
from tests.sources.token_checks import check_launch

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "tree"

README = """\
# Serving

Install and run:

```bash
pip install vllm==0.30.0
vllm serve Qwen/Qwen3-8B \\
  --max-model-len 32768
```

```console
$ vllm serve meta-llama/Llama-3.1-8B --tp 2
INFO: started
$ docker run --gpus all vllm/vllm-openai:v0.30.1 \\
>   --model m
# VLLM_USE_V1=1 vllm serve root-prompt
```

1. In a list:
   ```sh
   vllm serve listed --port 1
   ```

> quoted
> ```bash
> vllm serve quoted
> ```

~~~dockerfile
FROM vllm/vllm-openai:v0.29.0
CMD ["--model", "df"]
~~~

````
```bash
vllm serve inside-a-longer-fence
```
````

```text
vllm serve not-code-we-read
```
"""


def test_fence_scanner() -> None:
    blocks = markdown.fenced_blocks(README)
    langs = [(b.lang, b.fence_line, b.closed) for b in blocks]
    assert langs == [
        ("bash", 5, True), ("console", 11, True), ("sh", 20, True), ("bash", 25, True),
        ("dockerfile", 29, True), ("", 34, True), ("text", 40, True),
    ]
    longer = blocks[5]
    assert [README[a:b] for a, b in longer.lines] == ["```bash", "vllm serve inside-a-longer-fence", "```"]
    listed = blocks[2]
    assert [README[a:b] for a, b in listed.lines] == ["vllm serve listed --port 1"]
    quoted = blocks[3]
    assert [README[a:b] for a, b in quoted.lines] == ["vllm serve quoted"]


def test_unclosed_fence_runs_to_the_end() -> None:
    (block,) = markdown.fenced_blocks("text\n```bash\nvllm serve m\n")
    assert not block.closed and len(block.lines) == 1


def test_launches_in_blocks() -> None:
    src = SourceFile.from_text("README.md", README)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
        assert launch.kind == "markdown"
    firsts = [(launch.entrypoint, launch.args[0].value if launch.args else None) for launch in ex.launches]
    assert firsts == [
        ("vllm serve", "Qwen/Qwen3-8B"),
        ("vllm serve", "meta-llama/Llama-3.1-8B"),
        ("image", "--model"),
        ("vllm serve", "root-prompt"),
        ("vllm serve", "listed"),
        ("vllm serve", "quoted"),
        ("image", "--model"),
    ]
    # the untagged block shows Markdown source: sniffed as shell, it does not parse, and no
    # parse complaint is made about an untagged block
    first = ex.launches[0]
    assert first.group == "README.md#L5"
    assert first.args[2].value == "32768" and first.args[2].value_start == README.index("32768")
    assert first.version_hint is not None and first.version_hint.version == "0.30.0"
    # console: prompt stripped, continuation line with its "> " prompt kept out of the words
    docker = ex.launches[2]
    assert [t.value for t in docker.args] == ["--model", "m"]
    assert docker.args[1].value_start == README.index("m\n# VLLM")
    assert docker.version_hint is not None and docker.version_hint.version == "v0.30.1"
    root = ex.launches[3]
    assert [(e.name.value, e.value.value) for e in root.env] == [("VLLM_USE_V1", "1")]
    listed = ex.launches[4]
    assert listed.args[2].value_start == README.index("1\n   ```")
    df = ex.launches[6]
    assert df.group == "README.md#L29"
    assert df.args[1].value == "df" and df.args[1].value_start == README.index("df")
    assert {p.version for p in ex.pins} == {"0.30.0", "v0.29.0"}
    assert not ex.problems
    for launch in ex.launches:
        assert README[launch.span.start : launch.span.end].strip()


def test_crlf_markdown() -> None:
    text = "Run:\r\n\r\n```bash\r\nvllm serve m \\\r\n  --port 8000\r\n```\r\n"
    src = SourceFile.from_text("README.md", text)
    (launch,) = markdown.extract(src).launches
    assert [t.value for t in launch.args] == ["m", "--port", "8000"]
    assert launch.args[2].value_start == text.index("8000")


def test_broken_block_does_not_stop_others() -> None:
    text = "```bash\nvllm serve \"unterminated\n```\n\n```bash\nvllm serve ok\n```\n"
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    # the broken launch is still read (its unreadable part one unknown word), and the
    # unclosed quote is reported where it stands
    assert [launch.args[0].value for launch in ex.launches] == ['"unterminated', "ok"]
    assert ex.launches[0].args[0].is_opaque
    (problem,) = ex.problems
    assert "shell parse error" in problem.message and src.text[problem.span.start : problem.span.end] == '"'



@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_corpus_markdown_never_raises() -> None:
    n = 0
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in (".md", ".markdown"):
            continue
        try:
            src = SourceFile.from_bytes(str(path), path.read_bytes())
        except ValueError:
            continue
        ex = markdown.extract(src)
        for launch in ex.launches:
            check_launch(src, launch)
        n += 1
    if n == 0:
        pytest.skip("no Markdown files in the corpus")


def test_prompts_in_console_and_bash_blocks() -> None:
    text = (
        "```bash\n$ pip install vllm==0.30.0\n$ vllm serve m \\\n    --port 1\n```\n\n"
        "```console\n(venv) user@gpu:~/x$ vllm serve a\nroot@c1:/# vllm serve b\nINFO output line\n```\n"
    )
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert [[t.value for t in launch.args] for launch in ex.launches] == [["m", "--port", "1"], ["a"], ["b"]]
    assert ex.launches[0].version_hint is not None and ex.launches[0].version_hint.version == "0.30.0"
    assert ex.launches[1].args[0].value_start == text.index("a\nroot")


@pytest.mark.parametrize("prompt", [
    "[user@gpu01 ~]$ ",  # Fedora, RHEL
    "[root@gpu01 vllm]# ",
    "(base) user@host:~$ ",
    "user@host ~ % ",  # zsh on macOS
    "bash-5.1$ ",  # bash's own default
    "sh-4.4# ",  # a container's shell
    "❯ ",  # starship
])
def test_the_default_prompts_of_common_shells_start_a_command(prompt: str) -> None:
    """A console session copied from a terminal keeps its prompt; each of these shells'
    default ones starts a command, and the output after it stays output."""
    text = f"# Serving\n\n```console\n{prompt}vllm serve Qwen/Qwen3-8B --max-num-seqs 8\nINFO: Started server process [12]\n```\n"
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    [launch] = ex.launches
    check_launch(src, launch)
    assert [t.value for t in launch.args] == ["Qwen/Qwen3-8B", "--max-num-seqs", "8"]
    assert launch.args[0].value_start == text.index("Qwen/")
    assert not ex.problems


NOTES = """\
# vLLM notes

```
$ vllm serve Qwen/Qwen3-8B --max-num-seq 8
INFO: Uvicorn running on http://0.0.0.0:8000
```

```
Tip: run vllm serve with --max-num-seq 8 (it's smaller) to limit memory.
```

```
vllm serve
  -> openai.api_server.run_server
  -> setup_server
```

```
vllm serve Qwen/Qwen3-8B --max-model-len 4096 --enforce-eager (then wait
```
"""


def test_an_untagged_block_holds_no_launch_made_of_prose(tmp_path) -> None:
    """An untagged block may be prose or pseudo code: it is sniffed (a session, here) and read
    without parse complaints.  A "launch" the shell reader found there only by reading past a
    parse error from the middle of a line is prose naming a command, and a bare ``vllm serve``
    (a call graph's root) has nothing to check: neither is a launch.  A command line that
    breaks after its start is still read."""
    from tests.rules.lint_helpers import codes, lint

    src = SourceFile.from_text("NOTES.md", NOTES)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [[t.value for t in launch.args][:3] for launch in ex.launches] == [
        ["Qwen/Qwen3-8B", "--max-num-seq", "8"],
        ["Qwen/Qwen3-8B", "--max-model-len", "4096"],
    ]
    result = lint(tmp_path, "NOTES.md", NOTES, "markdown", target="0.33")
    assert [(d.code, NOTES.count("\n", 0, d.span.start) + 1) for d in result.diagnostics] == [("VL201", 4)]


GUIDE = """\
# Deploying with vLLM

Start the server:

```bash
export VLLM_USE_V1=0
python3 -m vllm.entrypoints.openai.api_server \\
--model <model storage path> \\
--tensor-parallel-size 8 \\
--hf-overrides '{"architectures": [<arch>]}' \\
--swap-space 4
```

```bash
vllm serve <MODEL> --port 8000 > vllm.log 2>&1 &
vllm serve Qwen/Qwen3-8B --chat-template <path/to/template.jinja> --max-model-len <MAX_LEN> ... --num-scheduler-steps 8
vllm serve Qwen/Qwen3-8B --max-num-seqs 8 < /dev/null
```

The server prints:

```bash
INFO 01-02 10:00:00 api_server.py:123] vLLM API server version 0.6.3
(VllmWorker rank=0 pid=12) INFO 01-02 gpu_model_runner.py:1234] Loading weights took 3.2s
ERROR: vllm serve failed: CUDA out of memory (tried to allocate 2.00 GiB; 'x')
```
"""


def test_documentation_placeholders_are_unknown_words(tmp_path) -> None:
    """``<model storage path>`` is a placeholder, not two redirections that eat the command:
    the flags after it are read and checked, and no placeholder is "expects a value",
    "unrecognized argument" or invalid JSON."""
    from tests.rules.lint_helpers import codes, flagged, lint

    src = SourceFile.from_text("docs/deploy.md", GUIDE)
    out = markdown.extract(src)
    for launch in out.launches:
        check_launch(src, launch)
    first, mod, tpl, redirected = out.launches
    words = [t.value for t in first.args]
    assert words == ["--model", "<model storage path>", "--tensor-parallel-size", "8", "--hf-overrides",
                     '{"architectures": [<arch>]}', "--swap-space", "4"]
    assert first.args[1].is_opaque and first.args[5].is_opaque
    assert mod.args[0].value == "<MODEL>" and mod.args[0].is_opaque
    assert [t.value for t in mod.args[1:]] == ["--port", "8000"]  # `> vllm.log 2>&1` stays a redirection
    assert [t.value for t in redirected.args] == ["Qwen/Qwen3-8B", "--max-num-seqs", "8"]
    assert any(t.value == "..." and t.splat for t in tpl.args)
    result = lint(tmp_path, "deploy.md", GUIDE, "markdown", target="0.33")
    assert sorted(set(codes(result))) == ["VL101", "VL701"]
    assert sorted(flagged(result, "VL101")) == ["--num-scheduler-steps", "--swap-space"]


def test_log_lines_naming_vllm_serve_are_no_parse_error(tmp_path) -> None:
    from tests.rules.lint_helpers import codes, lint

    result = lint(tmp_path, "deploy.md", GUIDE, "markdown", target="0.33")
    assert "VL001" not in codes(result)
    # a command that really cannot be read is still reported, once
    broken = GUIDE.replace("vllm serve Qwen/Qwen3-8B --max-num-seqs 8 < /dev/null", "vllm serve Qwen/Qwen3-8B --chat-template 'unclosed")
    assert codes(lint(tmp_path, "deploy.md", broken, "markdown", target="0.33")).count("VL001") == 1


SESSION = """\
# Serving Qwen3

```console
# Don't forget the token: the gated weights need it
$ export HF_TOKEN=hf_xxx VLLM_LOGGING_LEVEL=INFO
$ vllm serve Qwen/Qwen3-8B --max-num-seq 8 --port 8000
```

What `--diff` prints for the config file:

```console
$ vllm-lint --diff deploy/
--- a/deploy/serve-config.yaml
+++ b/deploy/serve-config.yaml
@@ -1,3 +1,3 @@
 # Options for serve.sh (vllm serve --config serve-config.yaml)
-max-num-seqs: 64
+max-num-seqs: 32
```

As root in the container:

```console
# then restart the server
# VLLM_LOGGING_LEVEL=DEBUG vllm serve Qwen/Qwen3-8B \\
    --max-model-len 8192
```
"""


def test_a_bare_hash_line_that_does_not_parse_is_a_comment_not_a_broken_command(tmp_path) -> None:
    """A bare ``# `` in a session is a root prompt or a comment.  A comment (a quote never
    closed, prose in parentheses, a diff's context line) is no command: it neither hides the
    commands after it nor is a parse error, and the prose naming ``vllm serve`` is no launch.
    A root command that parses is still read, with the line it continues onto."""
    from tests.rules.lint_helpers import codes, lint

    src = SourceFile.from_text("README.md", SESSION)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [[t.value for t in launch.args] for launch in ex.launches] == [
        ["Qwen/Qwen3-8B", "--max-num-seq", "8", "--port", "8000"],
        ["Qwen/Qwen3-8B", "--max-model-len", "8192"],
    ]
    assert [(e.name.value, e.value.value) for e in ex.launches[0].env] == [("VLLM_LOGGING_LEVEL", "INFO")]  # the export after the comment
    assert [(e.name.value, e.value.value) for e in ex.launches[1].env] == [("VLLM_LOGGING_LEVEL", "DEBUG")]
    result = lint(tmp_path, "README.md", SESSION, "markdown", target="0.33")
    assert "VL001" not in codes(result) and "VL201" in codes(result)  # the command after the comment is checked
    # a command after a ``$ `` prompt that does not parse is still a lost launch, reported once
    broken = SESSION.replace("--max-num-seq 8 --port 8000", "--chat-template 'unclosed")
    assert codes(lint(tmp_path, "README.md", broken, "markdown", target="0.33")).count("VL001") == 1


PY_GUIDE = """\
# Offline inference with vLLM

```python
from vllm import LLM, SamplingParams

llm = LLM(model="<MODEL>", max_model_len=<MAX_LEN>, tensor_parallel_size=<TP>, swap_space=4)
print(llm.generate(["Hello"], SamplingParams(max_tokens=<N>)))
```

Our k6 load test (not vLLM's config):

```yaml
load:
  vus: 10
  duration: 5m
run:
  script: chat.js
model: Qwen/Qwen3-8B
max-num-seqs: 8
```

```console
$ vllm serve Qwen/Qwen3-8B --max-num-seq 8
INFO 05-01 12:00:00 [api_server.py:1] vLLM API server version 0.30.0
$ curl localhost:8000/v1/models
{"object":"list","data":[{"id":"Qwen/Qwen3-8B"}]}
```
"""


def test_python_placeholders_are_unknown_and_the_call_is_read(tmp_path) -> None:
    """``max_model_len=<MAX_LEN>`` is documentation, not a syntax error: the call is read with
    the placeholder as an unknown value, so ``swap_space`` beside it is still reported; a
    load tester's YAML block is not vLLM's and a console session's output is not a command."""
    from tests.rules.lint_helpers import codes, flagged, fixed, lint

    src = SourceFile.from_text("docs/offline.md", PY_GUIDE)
    out = markdown.extract(src)
    assert out.problems == []
    llm = next(launch for launch in out.launches if launch.entrypoint == "LLM")
    by_name = {s.name.value: s for s in llm.settings}
    assert by_name["max_model_len"].value.value == "<MAX_LEN>" and by_name["max_model_len"].value.is_opaque
    assert by_name["max_model_len"].kind == "opaque"
    result = lint(tmp_path, "offline.md", PY_GUIDE, "markdown", target="0.33")
    assert sorted(codes(result)) == ["VL101", "VL201"]
    assert flagged(result, "VL101") == ["swap_space"] and flagged(result, "VL201") == ["--max-num-seq"]
    assert len(result.launches) == 2  # the k6 block is nobody's launch
    # the placeholders stay as written when the file is fixed
    assert "<MAX_LEN>" in fixed(tmp_path, "offline.md", PY_GUIDE, "markdown", "0.33", unsafe=True)


def test_usage_synopsis_and_metavars_are_documentation(tmp_path) -> None:
    from tests.rules.lint_helpers import codes, flagged, lint

    text = """\
# CLI

```bash
vllm serve <model_tag> [options]
vllm serve [-h] [--port PORT] [--max-model-len MAX_MODEL_LEN] model
vllm serve MODEL_NAME --tensor-parallel-size N --swap-space 4
```
"""
    result = lint(tmp_path, "cli.md", text, "markdown", target="0.33")
    # the synopsis lines are no launches; `N` names a value; the removed flag is still reported
    assert codes(result) == ["VL101"] and flagged(result, "VL101") == ["--swap-space"]
    assert len(result.launches) == 1


def test_blanking_keeps_offsets_and_line_ends() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from linter.sources.markdown import _blank

    def one_by_one(text: str) -> str:
        out = ["\n" if c == "\r" and text[i + 1 : i + 2] != "\n" else c if c in "\r\n" else " " for i, c in enumerate(text)]
        return "".join(out)

    @settings(max_examples=500, deadline=None)
    @given(st.text("ab \t\r\né😀", max_size=30))
    def check(text: str) -> None:
        assert _blank(text) == one_by_one(text)

    check()


MKDOCS = """\
# Serving

=== "CUDA"

    Start the server:

    ```bash
    vllm serve Qwen/Qwen3-8B --max-model-len 8192
    ```

=== "ROCm"

    !!! note
        The ROCm image is larger.

    ```bash
    vllm serve Qwen/Qwen3-8B --enforce-eager
    ```

??? code "Offline"

      ```python
      from vllm import LLM
      llm = LLM(model="Qwen/Qwen3-8B", max_num_seqs=8)
      ```

1. Start with a LoRA adapter:

    ??? console "Command"

        ```bash
        vllm serve Qwen/Qwen3-8B --enable-lora
        ```

    ```bash
    vllm serve Qwen/Qwen3-8B --port 8001
    ```

A paragraph, then text indented four columns is no fence:

    ```bash
    vllm serve indented-code --port 1
    ```
"""


def test_the_bodies_of_mkdocs_admonitions_and_tabs_hold_fences() -> None:
    """An MkDocs container (``=== "Tab"``, ``!!! note``, ``??? code``, pymdownx) indents its
    body four columns under its marker, fences included; the fences are read as a list
    item's are, nested in a list item too, and the item's own fences after it still are.
    Outside a container, four columns of indentation is CommonMark's indented code."""
    src = SourceFile.from_text("docs/serving.md", MKDOCS)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [(launch.entrypoint, [t.value for t in launch.args]) for launch in ex.launches if launch.entrypoint != "LLM"] == [
        ("vllm serve", ["Qwen/Qwen3-8B", "--max-model-len", "8192"]),
        ("vllm serve", ["Qwen/Qwen3-8B", "--enforce-eager"]),
        ("vllm serve", ["Qwen/Qwen3-8B", "--enable-lora"]),
        ("vllm serve", ["Qwen/Qwen3-8B", "--port", "8001"]),
    ]
    (offline,) = [launch for launch in ex.launches if launch.entrypoint == "LLM"]
    assert [(s.name.value, s.value.value) for s in offline.settings if s.name is not None] == [("model", "Qwen/Qwen3-8B"), ("max_num_seqs", "8")]
    first = ex.launches[0]
    assert first.args[2].value_start == MKDOCS.index("8192")


INDENTED_HEREDOC = """\
# Deploy

1. Apply the Deployment and its Service:

    ```bash
    cat <<EOF | kubectl apply -f -
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: vllm
    spec:
      template:
        spec:
          containers:
          - name: vllm
            image: vllm/vllm-openai:v0.30.1
            args: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
    ---
    apiVersion: v1
    kind: Service
    metadata:
      name: vllm
    EOF
    ```

2. Or, on a host, write the options file in the session:

    ```console
    $ cat > serve.yaml <<EOF
    > max-num-seqs: 8
    > EOF
    $ vllm serve Qwen/Qwen3-8B --config serve.yaml
    ```
"""


def test_a_heredoc_in_an_indented_block_is_read_without_the_documents_indentation() -> None:
    """The shell text of a block in a list item is its lines without the item's indentation:
    a heredoc's manifest keeps its ``---`` document separator at the start of a line (indented,
    it is no separator and the manifest does not parse).  In a session, the ``> `` lines after a
    command are its heredoc, typed at bash's second prompt."""
    from linter.sources import written_files

    src = SourceFile.from_text("docs/deploy.md", INDENTED_HEREDOC)
    ex = markdown.extract(src)
    written_files.read(src, ex)  # as the engine does: the heredocs' files read as their formats
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    kinds = {launch.kind: launch for launch in ex.launches}
    assert sorted(kinds) == ["k8s", "markdown", "vllm-config"]
    k8s, serve, config = kinds["k8s"], kinds["markdown"], kinds["vllm-config"]
    assert serve.config is config and [(s.name.value, s.value.value) for s in config.settings] == [("max-num-seqs", "8")]
    assert [t.value for t in k8s.args] == ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
    assert k8s.args[3].value_start == INDENTED_HEREDOC.index("8192")
    # launches read from a heredoc end with its body (not at the end of the blanked document)
    assert INDENTED_HEREDOC[k8s.span.end - 12 : k8s.span.end].strip().endswith("vllm")
    assert config.span.end <= INDENTED_HEREDOC.index("\n    > EOF") + 1
    assert k8s.version_hint is not None and k8s.version_hint.version == "v0.30.1"
    assert [t.value for t in serve.args] == ["Qwen/Qwen3-8B", "--config", "serve.yaml"]
    assert serve.args[2].value_start == INDENTED_HEREDOC.index("serve.yaml\n    ```")


SESSIONS = """\
```bash
# pull and start the server
$ docker run --gpus all \\
    vllm/vllm-openai:v0.31.0 \\
    --model Qwen/Qwen3-8B --max-model-len 8192
Unable to find image 'vllm/vllm-openai:v0.31.0' locally
```

```bash
$ pip freeze | grep vllm
vllm==0.31.0
$ vllm serve Qwen/Qwen3-8B --max-num-seqs 8
```

```console
vllm serve Qwen/Qwen3-8B --enforce-eager
```

```bash
$ pip install vllm
vllm serve Qwen/Qwen3-8B --port 8001
```

```bash
$ uv venv
uv run vllm serve Qwen/Qwen3-8B --port 8002
```

```console
INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)
```
"""


def test_sessions_whose_output_or_continuations_name_vllm_and_console_blocks_without_prompts() -> None:
    """A script block is a session when its first command line is prompted: the lines a prompted
    command continues onto (an image ``vllm/vllm-openai:... \\\\``) and output naming vLLM
    (``vllm==0.31.0``, a pull message) do not make it a script, whose ``$`` words would hide
    the launches.  An unprompted ``vllm serve`` (``uv run vllm serve`` too) still does: both
    lines are commands.  A
    ``console`` block without any prompt (as vLLM's docs write commands) is read as an untagged
    block is: its commands are launches, output is not."""
    src = SourceFile.from_text("README.md", SESSIONS)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [(launch.entrypoint, [t.value for t in launch.args]) for launch in ex.launches] == [
        ("image", ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]),
        ("vllm serve", ["Qwen/Qwen3-8B", "--max-num-seqs", "8"]),
        ("vllm serve", ["Qwen/Qwen3-8B", "--enforce-eager"]),
        ("vllm serve", ["Qwen/Qwen3-8B", "--port", "8001"]),
        ("vllm serve", ["Qwen/Qwen3-8B", "--port", "8002"]),
    ]
    assert ex.launches[0].args[3].value_start == SESSIONS.index("8192")


MYST = """\
# Serving on the cluster

```{code-block} bash
   :substitutions:

docker run --rm -p 8000:8000 \\
  -e VLLM_USE_MODELSCOPE=True \\
  -it quay.io/example/vllm-openai:|release| \\
  vllm serve Qwen/Qwen3-8B --max-model-len 8192
```

```{code-block} yaml
:caption: serve.yaml
max-num-seqs: 8
```

```{code} console
$ vllm serve Qwen/Qwen3-8B --config serve.yaml
```
"""


def test_myst_code_directives_name_their_language_after_the_directive() -> None:
    """A MyST (Sphinx) ``{code-block} bash`` / ``{code} console`` fence is a block of its
    argument's language; the directive's option lines (``:substitutions:``, ``:caption: x``) are
    not code.  With ``:substitutions:``, ``|release|`` is filled in when the docs are built: an
    unknown word, not two shell pipes that would cut the container's command off its image."""
    src = SourceFile.from_text("docs/serving.md", MYST)
    assert [(b.lang, b.options) for b in markdown.fenced_blocks(MYST)] == [
        ("bash", ["substitutions"]), ("yaml", ["caption"]), ("console", [])]
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    docker, serve = [launch for launch in ex.launches if launch.entrypoint != "config"]
    assert docker.entrypoint == "vllm serve" and [t.value for t in docker.args] == ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
    assert [(e.name.value, e.value.value) for e in docker.env] == [("VLLM_USE_MODELSCOPE", "True")]
    assert docker.image is not None and docker.image.is_opaque and docker.image.value_start is None
    assert docker.version_hint is None
    assert [t.value for t in serve.args] == ["Qwen/Qwen3-8B", "--config", "serve.yaml"]


CONFIG_COMMENT = """\
The server also reads its options from a YAML file:

```yaml
# serve-config.yaml
max-num-seqs: 8
enforce-eager: true
```

```bash
vllm serve Qwen/Qwen3-8B --config serve-config.yaml
```

A block that only resembles one is not read as vLLM's:

```yaml
# values.yaml
max-num-seqs: 8
```
"""


def test_a_yaml_block_named_by_its_opening_comment_is_the_config_file_a_launch_names() -> None:
    """``# serve-config.yaml`` at the top of a YAML block names the file it shows: when a
    ``--config`` in the document names that file, the block is vLLM's config and its options are
    read.  A block whose opening comment names no such file stays a look-alike (not read)."""
    src = SourceFile.from_text("docs/serving.md", CONFIG_COMMENT)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    configs = [launch for launch in ex.launches if launch.entrypoint == "config"]
    assert len(configs) == 1
    assert [(s.name.value, s.value.value) for s in configs[0].settings] == [("max-num-seqs", "8"), ("enforce-eager", "true")]
    assert configs[0].span.start > CONFIG_COMMENT.index("# serve-config.yaml")
    assert configs[0].span.start < CONFIG_COMMENT.index("```bash")


TEXT_SESSION = """\
Serve it:

```text
$ vllm serve Qwen/Qwen3-8B \\
    --max-model-len 8192
INFO:     Uvicorn running on http://0.0.0.0:8000
```

The log says:

```text
vllm serve Qwen/Qwen3-8B --bad-flag failed: unrecognized arguments
```
"""


def test_a_text_block_pasted_with_its_prompts_is_a_session() -> None:
    """A ``text`` block is plain text (output, a message naming a command: not read), unless it
    is a session pasted with its prompts: then its prompted lines are commands, as a
    ``console`` block's are, and its other lines output."""
    src = SourceFile.from_text("README.md", TEXT_SESSION)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    (launch,) = ex.launches
    assert [t.value for t in launch.args] == ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
    assert launch.args[2].value_start == TEXT_SESSION.index("8192")


UNIT = """\
Install the unit:

```ini
[Unit]
Description=vLLM server

[Service]
Environment=HF_HOME=/srv/hf
ExecStartPre=/usr/bin/vllm --version
ExecStart=/opt/venv/bin/vllm serve Qwen/Qwen3-8B \\
    --max-model-len 8192 --port 8000
Restart=on-failure
```

A settings file of another program:

```ini
[vllm]
endpoint = http://localhost:8000/v1
model = Qwen/Qwen3-8B
```
"""


def test_the_exec_start_of_a_systemd_unit_in_an_ini_block_is_a_launch() -> None:
    """A systemd unit shown in an ``ini`` block runs its ``ExecStart=`` command (continued
    onto the next line by a trailing backslash, as systemd joins it); ``ExecStartPre=`` and an
    ini file of another program that names vLLM start nothing."""
    src = SourceFile.from_text("docs/systemd.md", UNIT)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    (launch,) = ex.launches
    assert launch.entrypoint == "vllm serve"
    assert [t.value for t in launch.args] == ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--port", "8000"]
    assert launch.args[2].value_start == UNIT.index("8192")


COLON_FENCES = """\
:::{note}
Start the server first.
:::

:::{code-block} bash
:caption: Start

vllm serve Qwen/Qwen3-8B --max-model-len 8192
:::

::::{tab-set}
:::{tab-item} Docker
```bash
docker run vllm/vllm-openai:v0.31.0 --model Qwen/Qwen3-8B --enforce-eager
```
:::
::::
"""


def test_a_myst_colon_fence_of_a_code_directive_is_a_block() -> None:
    """MyST's colon fence (``:::{code-block} bash`` ... ``:::``) is a code block when it opens a
    code directive; ``:::{note}`` and the tab containers around backtick fences are prose."""
    src = SourceFile.from_text("docs/serving.md", COLON_FENCES)
    assert [(b.lang, b.options, b.closed) for b in markdown.fenced_blocks(COLON_FENCES)] == [
        ("bash", ["caption"], True), ("bash", [], True)]
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [[t.value for t in launch.args] for launch in ex.launches] == [
        ["Qwen/Qwen3-8B", "--max-model-len", "8192"], ["--model", "Qwen/Qwen3-8B", "--enforce-eager"]]


LISTED_MANIFESTS = """\
1. Apply the Service and the Deployment:

   ```yaml
   apiVersion: v1
   kind: Service
   metadata:
     name: vllm
   ---
   apiVersion: apps/v1
   kind: Deployment
   metadata:
     name: vllm
   spec:
     template:
       spec:
         containers:
         - name: vllm
           image: vllm/vllm-openai:v0.31.0
           args: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
   ```
"""


def test_the_documents_of_a_yaml_block_in_a_list_item_are_read_without_a_parse_error() -> None:
    """A YAML block in a list item keeps the item's indentation (blanked, so every offset stays
    the file's); its ``---`` lines, indented with it, still separate its documents: no "YAML
    parse error" for a valid manifest, and each document is read."""
    src = SourceFile.from_text("docs/deploy.md", LISTED_MANIFESTS)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    (launch,) = ex.launches
    assert [t.value for t in launch.args] == ["Qwen/Qwen3-8B", "--max-model-len", "8192"]
    assert launch.args[2].value_start == LISTED_MANIFESTS.index("8192")


WINDOWS = """\
On Windows, start the server from PowerShell:

```powershell
$env:HF_TOKEN = "<your token>"
docker run --gpus all `
  -v $env:USERPROFILE\\.cache\\huggingface:/root/.cache/huggingface `
  -p 8000:8000 `
  vllm/vllm-openai:v0.11.0 `
  Qwen/Qwen3-8B `
  --max-model-len 8192 `
  --max-num-seq 16
```

or, in a session:

```pwsh
PS C:\\work> vllm serve Qwen/Qwen3-0.6B `
>>   --port 8001
INFO:     Uvicorn running on http://0.0.0.0:8001
PS C:\\work> Invoke-RestMethod http://localhost:8001/v1/models
```
"""


def test_a_powershell_block_continued_by_backticks_is_a_command() -> None:
    """A ``powershell`` block (``pwsh``, ``ps1``) continues a line with a backtick at its end, as
    bash does with a backslash: its ``docker run`` is one command, its words where the document
    writes them; a session's ``PS C:\\>`` prompts are dropped and its output is no command."""
    src = SourceFile.from_text("docs/windows.md", WINDOWS)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [(l.entrypoint, [t.value for t in l.args]) for l in ex.launches] == [
        ("image", ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--max-num-seq", "16"]),
        ("vllm serve", ["Qwen/Qwen3-0.6B", "--port", "8001"]),
    ]
    assert ex.launches[0].args[4].value_start == WINDOWS.index("16\n")
    assert ex.launches[0].image is not None and ex.launches[0].image.value == "vllm/vllm-openai:v0.11.0"


def test_a_fix_in_a_powershell_block_keeps_its_backticks(tmp_path) -> None:
    from click.testing import CliRunner

    from linter.cli import main

    path = tmp_path / "windows.md"
    path.write_text(WINDOWS)
    CliRunner().invoke(main, [str(path), "--no-cache", "--fix", "--select", "VL201"])
    fixed = path.read_text()
    assert "  --max-num-seqs 16\n```" in fixed
    assert fixed.replace("--max-num-seqs", "--max-num-seq") == WINDOWS


NOTEBOOK_CELLS = """\
In a Kaggle notebook (T4 x2):

```bash
!pip install -q "vllm==0.30.0"
!vllm serve Qwen/Qwen3-4B-Instruct-2507 \\
  --port 8000 --dtype half \\
  --max-model-len 4096
! grep -q ready server.log
```

Then, in the next cell:

```
!vllm serve Qwen/Qwen3-0.6B --port 8001 --max-num-seqs 8 &
from openai import OpenAI
client = OpenAI(base_url="http://localhost:8001/v1", api_key="x")
```
"""


def test_notebook_shell_escapes_in_a_shell_block_or_an_untagged_cell_are_commands() -> None:
    """A Colab or Kaggle cell copied into a ``bash`` block keeps IPython's ``!`` before each
    command (``! cmd`` with its space is bash's negation); an untagged block that mixes ``!``
    lines with imports is a notebook cell, read as Python whose ``!`` lines are commands."""
    src = SourceFile.from_text("docs/kaggle.md", NOTEBOOK_CELLS)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [[t.value for t in l.args] for l in ex.launches] == [
        ["Qwen/Qwen3-4B-Instruct-2507", "--port", "8000", "--dtype", "half", "--max-model-len", "4096"],
        ["Qwen/Qwen3-0.6B", "--port", "8001", "--max-num-seqs", "8"],
    ]
    assert [src.text[p.span.start : p.span.end] for p in ex.pins] == ["0.30.0"]


def test_an_untagged_python_block_keeps_its_llm_call() -> None:
    """An untagged block sniffed as Python (it imports vLLM) keeps the ``LLM(...)`` it calls:
    settings are something to check, as a command's words are."""
    text = "Offline inference:\n\n```\nfrom vllm import LLM\nllm = LLM(model=\"Qwen/Qwen3-8B\", max_model_len=8192)\n```\n"
    src = SourceFile.from_text("README.md", text)
    ex = markdown.extract(src)
    assert not ex.problems
    (launch,) = ex.launches
    assert launch.entrypoint == "LLM"
    assert [(s.name.value, s.value.value) for s in launch.settings] == [("model", "Qwen/Qwen3-8B"), ("max_model_len", "8192")]
    assert launch.settings[1].value.value_start == text.index("8192")


CELLS = """\
# Offline inference, step by step

```python
from vllm import LLM, SamplingParams
```

Load the model:

```python
llm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)
```

With LangChain instead:

```
from langchain_community.llms import VLLM
```

```
chat = VLLM(model="Qwen/Qwen3-0.6B", max_new_tokens=64, vllm_kwargs={"max_num_seqs": 8})
```

A client of another library, called the same:

```python
client = Client("http://localhost:8000")
```
"""


def test_a_python_block_is_read_with_the_vllm_imports_of_the_blocks_before_it() -> None:
    """Tutorials and notebooks split a program into cells: one imports ``LLM``, the next calls
    it.  A Python block (or an untagged one) that calls a name a block before it imported from
    vLLM (or from a wrapper of it) is read with those imports; a call of another name is not."""
    src = SourceFile.from_text("docs/offline.md", CELLS)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    assert [(l.entrypoint, [(s.name.value, s.value.value) for s in l.settings]) for l in ex.launches] == [
        ("LLM", [("model", "Qwen/Qwen3-8B"), ("max_model_len", "8192")]),
        ("VLLM", [("model", "Qwen/Qwen3-0.6B"), ("max_num_seqs", "8")]),
    ]
    assert ex.launches[0].settings[1].value.value_start == CELLS.index("8192")


EXCERPT = """\
Add the model server to `services:` (the `x-gpu` and `x-env` anchors are at the top of the file):

```yaml
  vllm:
    <<: *gpu
    env_file: *env
    image: vllm/vllm-openai:v0.11.0
    command: ["--model", "Qwen/Qwen3-8B", "--max-model-len", *context, "--max-num-seq", "16"]
```
"""


def test_a_yaml_excerpt_whose_aliases_name_anchors_left_out_is_read() -> None:
    """A compose service shown alone uses the anchors of the file it was cut from
    (``<<: *gpu``, ``*env``): its aliases are unknown values, not a parse error that loses
    the launch."""
    src = SourceFile.from_text("docs/compose.md", EXCERPT)
    ex = markdown.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert not ex.problems
    (launch,) = ex.launches
    assert [t.value for t in launch.args] == ["--model", "Qwen/Qwen3-8B", "--max-model-len", "$context", "--max-num-seq", "16"]
    assert launch.args[3].is_opaque
    assert launch.args[5].value_start == EXCERPT.index('16"')
