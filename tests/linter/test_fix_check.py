"""The re-parse check after each pass catches edits that change what the file means."""

from __future__ import annotations

from linter.diagnostic import Edit
from linter.fix_check import check_dockerfile, check_pass, check_python, check_shell, check_yaml
from linter.fixer import apply_edits
from linter.launch import Span


def edit(text: str, old: str, new: str, nth: int = 0) -> tuple[str, list[Edit]]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(old, start + 1)
    edits = [Edit(Span(start, start + len(old)), new)]
    return apply_edits(text, edits), edits


K8S = "spec:\n  containers:\n  - name: v\n    args:\n    - m\n    - --max-num-seq\n    - \"8\"\n    env:\n    - {name: A, value: '1'}\n"


def test_yaml_rename_of_a_scalar_passes():
    after, edits = edit(K8S, "--max-num-seq", "--max-num-seqs")
    assert check_yaml(K8S, after, edits) is None


def test_yaml_split_into_two_items_passes():
    before = "args:\n  - m\n  - \"--max-model-len 8\"\n  - --port\n"
    after, edits = edit(before, '"--max-model-len 8"', '"--max-model-len"\n  - "8"')
    assert check_yaml(before, after, edits) is None


def test_yaml_new_item_where_nothing_was_edited_fails():
    before = "a:\n  - x\nb:\n  - y\n"
    after, edits = edit(before, "x", "x2")
    broken = after.replace("  - y\n", "  - y\n  - z\n")
    assert "list of 1 items now has 2" in check_yaml(before, broken, edits)


def test_yaml_quote_dropped_turns_a_string_into_a_number_fails():
    after, edits = edit(K8S, '"8"', "8")
    assert "tag" in check_yaml(K8S, after, edits)


def test_yaml_wrong_indentation_changes_the_tree_fails():
    after, edits = edit(K8S, "--max-num-seq", "--max-num-seqs\n  x: 1")
    assert check_yaml(K8S, after, edits) is not None


def test_yaml_untouched_scalar_changed_fails():
    # an edit that also swallows the next item's text: the value of an untouched scalar changes
    before = "args: [a, b, c]\n"
    edits = [Edit(Span(7, 8), "a")]
    after = "args: [a, bb, c]\n"
    assert "untouched scalar" in check_yaml(before, after, edits)


def test_yaml_comment_eating_edit_fails():
    before = "a: x\nb: y\n"
    after, edits = edit(before, "x", "x #")
    after = after.replace("#\nb: y", "# b: y")
    assert check_yaml(before, after, edits) is not None


def test_yaml_document_count_and_parse_errors():
    before = "a: 1\n---\nb: 2\n"
    after, edits = edit(before, "1", "1\n...\n---\nc: 3")
    assert "documents" in check_yaml(before, after, edits)
    after, edits = edit(before, "1", "[1")
    assert "no longer parses" in check_yaml(before, after, edits)


def test_shell_quote_left_open_fails_and_a_rename_passes():
    before = "vllm serve m --max-num-seq 8 && echo ok\n"
    after, edits = edit(before, "--max-num-seq", "--max-num-seqs")
    assert check_shell(before, after, edits) is None
    after, edits = edit(before, "--max-num-seq", "'--max-num-seqs")
    assert check_shell(before, after, edits) is not None
    after, edits = edit(before, "--max-num-seq", "--max-num-seqs;")
    assert check_shell(before, after, edits) is not None  # one more command


def test_python_syntax_error_fails():
    before = "LLM(model='m', mamba_cache_mode='all')\n"
    after, edits = edit(before, "all", "align")
    assert check_python(before, after, edits) is None
    after, edits = edit(before, "'all'", "'align")
    assert "no longer parses" in check_python(before, after, edits)


LAUNCHER = (
    '"""Serve the chat model."""\nfrom vllm import LLM\n\n\ndef main():\n'
    '    llm = LLM(model="Qwen/Qwen3-8B", mamba_cache_mode="all", max_num_seqs=8)\n    return llm\n'
)


def test_python_is_checked_by_cpythons_parser_without_libcst(monkeypatch):
    """A module the running Python parses is compared by its own parser: libcst, which takes a
    tenth of a second on a 100 KB module, is not imported (it cannot be, here)."""
    import sys

    monkeypatch.setitem(sys.modules, "libcst", None)  # an import of it fails
    after, edits = edit(LAUNCHER, '"all"', '"align"')
    assert check_python(LAUNCHER, after, edits) is None
    after, edits = edit(LAUNCHER, "max_num_seqs=8)", "max_num_seqs=8)\nx = (")
    assert "no longer parses" in check_python(LAUNCHER, after, edits)
    after, edits = edit(LAUNCHER, "    return llm\n", "    return llm\n\n\nmain()\n")
    assert "statements" in check_python(LAUNCHER, after, edits)


def test_python_newer_than_the_running_one_is_checked_by_libcst():
    """Syntax the running Python refuses but libcst reads (3.12's ``type`` statement; PEP 701
    quotes in f-strings): libcst's parser decides, as the reader reads such modules."""
    import sys

    newer = 'type Args = list[str]\nprint(f"{opts["model"]}")\n' + LAUNCHER
    after, edits = edit(newer, '"all"', '"align"')
    assert check_python(newer, after, edits) is None
    after, edits = edit(newer, '"all"', '"align')
    assert "no longer parses" in check_python(newer, after, edits)
    if sys.version_info < (3, 12):
        import ast

        try:
            ast.parse(newer)
        except SyntaxError:
            pass
        else:
            raise AssertionError("the running Python reads the newer syntax: the test shows nothing")


def test_dockerfile_broken_exec_form_fails():
    before = 'FROM x\nCMD ["m", "--max-model-len 8"]\n'
    after, edits = edit(before, '"--max-model-len 8"', '"--max-model-len", "8"')
    assert check_dockerfile(before, after, edits) is None
    after, edits = edit(before, '"--max-model-len 8"', '"--max-model-len", "8"]\nRUN x')
    assert check_dockerfile(before, after, edits) is not None


def test_check_pass_keeps_the_number_of_launches():
    before = "vllm serve m --max-num-seq 8\n"
    after, edits = edit(before, "vllm serve", "echo")
    assert "launches" in check_pass(before, after, "shell", edits)


def test_markdown_fence_broken_fails():
    from linter.fix_check import check_markdown

    before = "# x\n\n```bash\nvllm serve m --max-num-seq 8\n```\n\ntext\n"
    after, edits = edit(before, "--max-num-seq", "--max-num-seqs")
    assert check_markdown(before, after, edits) is None
    after, edits = edit(before, "--max-num-seq 8", "--max-num-seqs 8\n```")
    assert "code blocks" in check_markdown(before, after, edits)


MANIFEST = (
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {level: info}\n---\n"
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: chat}\nspec:\n  template:\n    spec:\n      containers:\n"
    "        - name: vllm\n          image: vllm/vllm-openai:v0.32.0\n"
    "          args: [\"--model\", \"Qwen/Qwen3-8B\", \"--max-num-seq\", \"16\", \"--enable-chunked\"]\n"
)


def test_a_fix_reads_each_text_once_and_a_check_keeps_none(monkeypatch):
    """The fixer's passes: each text is composed once (its lint and its check share it), and
    extracted once; a lint outside the fixer keeps nothing (it reads each text once)."""
    from linter import engine, fixer
    from linter.engine import Settings, lint_source
    from linter.source_file import SourceFile
    from linter.sources import yaml_nodes
    from rules._lib.base import all_rules

    composed: list[str] = []
    real_compose = yaml_nodes._compose_documents
    monkeypatch.setattr(yaml_nodes, "_compose_documents", lambda text: composed.append(text) or real_compose(text))
    extracted: list[str] = []
    real_extract = engine.extract
    monkeypatch.setattr(engine, "extract", lambda src, kind: extracted.append(src.text) or real_extract(src, kind))
    outcome = fixer.fix_source(SourceFile("deploy.yaml", MANIFEST), "yaml", Settings(), all_rules(), False)
    assert outcome.error is None and '"--max-num-seqs"' in outcome.fixed and len(outcome.passes) == 1
    assert sorted(composed) == sorted({MANIFEST, outcome.fixed})  # the original and the fixed text, once each
    assert sorted(extracted) == sorted({MANIFEST, outcome.fixed})
    composed.clear()
    src = SourceFile("deploy.yaml", MANIFEST)
    lint_source(src, "yaml", Settings(), all_rules())
    lint_source(src, "yaml", Settings(), all_rules())
    assert composed == [MANIFEST, MANIFEST]


def test_readings_are_kept_per_block_and_thread_and_go_with_the_block(monkeypatch):
    """Each readings_kept block has its own store (a language server fixes in several threads);
    what it kept is dropped when it ends."""
    import threading

    from linter.sources import kept_readings, readings_kept, yaml_nodes

    composed: list[str] = []
    real = yaml_nodes._compose_documents
    monkeypatch.setattr(yaml_nodes, "_compose_documents", lambda text: composed.append(text) or real(text))
    texts = [MANIFEST, MANIFEST.replace("chat", "chat-2")]
    stores: list = []
    barrier = threading.Barrier(2)

    def fix_like(text: str) -> None:
        with readings_kept():
            yaml_nodes.compose_documents(text)
            barrier.wait()  # both blocks open at once
            yaml_nodes.compose_documents(text)
            stores.append(kept_readings())

    threads = [threading.Thread(target=fix_like, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(composed) == sorted(texts)  # each composed once, in its own block
    assert len(stores) == 2 and stores[0] is not stores[1]
    assert kept_readings() is None
    yaml_nodes.compose_documents(texts[0])
    assert composed.count(texts[0]) == 2  # outside a block: composed again
