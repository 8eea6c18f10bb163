"""``vllm-lint server`` end to end: pytest-lsp starts the server as an editor would (a child
process speaking LSP over its standard input and output) and drives it with a real client.

The machine running the suite may be loaded: every wait is generous.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

WAIT = 120.0  # seconds for one answer of the server, on a loaded machine

SCRIPT = """#!/bin/bash
# start the server
vllm serve Qwen/Qwen2.5-7B-Instruct --swap-space 4 --max-num-seq 8 --max-model-len 8192
"""


def _editor() -> LanguageClient:
    """pytest-lsp's client, answering ``client/registerCapability`` as an editor does (the
    server registers its watch of configuration files)."""
    from pytest_lsp import make_test_lsp_client

    client = make_test_lsp_client()
    client.registrations = []

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    return client


def _config(*extra: str) -> ClientServerConfig:
    """The server as an editor starts it; its cache is the workspace's own (``$VLLM_LINT_CACHE_DIR``
    unset), in the test's folder."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "VLLM_LINT_CACHE_DIR"}
    return ClientServerConfig(server_command=[sys.executable, "-m", "linter.cli", "server", *extra], client_factory=_editor, server_env=env)


async def _start(client: LanguageClient, root, options: dict | None = None) -> lsp.InitializeResult:
    return await asyncio.wait_for(
        client.initialize_session(
            lsp.InitializeParams(
                capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
                root_uri=root.as_uri(),
                workspace_folders=[lsp.WorkspaceFolder(root.as_uri(), "work")],
                initialization_options=options,
            )
        ),
        WAIT,
    )


async def _open(client: LanguageClient, path, text: str, language: str = "shellscript", version: int = 1) -> list[lsp.Diagnostic]:
    uri = path.as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, language, version, text)))
    return await _diagnostics(client, uri, version)


async def _diagnostics(client: LanguageClient, uri: str, version: int) -> list[lsp.Diagnostic]:
    """The diagnostics the server publishes for ``version`` of the document (earlier ones skipped)."""

    async def wait():
        while True:
            params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version == version:
                return params.diagnostics

    return await asyncio.wait_for(wait(), WAIT)


def _at(text: str, needle: str, line: int) -> lsp.Range:
    """The LSP range (UTF-16 columns) of ``needle`` on 0-based ``line`` of ``text``."""
    row = text.split("\n")[line]
    col = row.index(needle)
    units = len(row[:col].encode("utf-16-le")) // 2
    return lsp.Range(lsp.Position(line, units), lsp.Position(line, units + len(needle.encode("utf-16-le")) // 2))


def _by_code(diagnostics) -> dict[str, lsp.Diagnostic]:
    return {d.code: d for d in diagnostics}


@pytest_lsp.fixture(config=_config())
async def client(lsp_client: LanguageClient, tmp_path):
    await _start(lsp_client, tmp_path)
    yield
    await asyncio.wait_for(lsp_client.shutdown_session(), WAIT)


@pytest.mark.asyncio
async def test_a_script_gets_its_diagnostics_at_the_exact_ranges(client: LanguageClient, tmp_path):
    found = _by_code(await _open(client, tmp_path / "serve.sh", SCRIPT))
    assert {"VL101", "VL201"} <= set(found)
    assert found["VL101"].range == _at(SCRIPT, "--swap-space", 2)
    assert found["VL201"].range == _at(SCRIPT, "--max-num-seq", 2)
    assert found["VL101"].severity == lsp.DiagnosticSeverity.Error
    assert found["VL201"].source == "vllm-lint"
    assert "max-num-seqs" in found["VL201"].message
    assert found["VL101"].code_description is not None and found["VL101"].code_description.href.endswith("rules.md#vl101")


@pytest.mark.asyncio
async def test_a_quick_fix_writes_the_full_option_name(client: LanguageClient, tmp_path):
    path = tmp_path / "serve.sh"
    found = _by_code(await _open(client, path, SCRIPT))
    where = found["VL201"].range
    actions = await asyncio.wait_for(
        client.text_document_code_action_async(
            lsp.CodeActionParams(lsp.TextDocumentIdentifier(path.as_uri()), where, lsp.CodeActionContext([found["VL201"]]))
        ),
        WAIT,
    )
    quick = [a for a in actions if a.kind == lsp.CodeActionKind.QuickFix and a.diagnostics and a.diagnostics[0].code == "VL201"]
    assert len(quick) == 1 and quick[0].is_preferred
    (doc_edit,) = quick[0].edit.document_changes
    assert doc_edit.text_document.uri == path.as_uri() and doc_edit.text_document.version == 1
    (edit,) = doc_edit.edits
    assert edit.range == where and edit.new_text == "--max-num-seqs"
    fix_all = [a for a in actions if a.kind == "source.fixAll.vllm-lint"]
    assert len(fix_all) == 1
    texts = [e.new_text for e in fix_all[0].edit.document_changes[0].edits]
    assert "--max-num-seqs" in texts


@pytest.mark.asyncio
async def test_hover_on_an_option_shows_its_release_facts_and_history(client: LanguageClient, tmp_path):
    path = tmp_path / "serve.sh"
    await _open(client, path, SCRIPT)
    where = _at(SCRIPT, "--max-model-len", 2)
    inside = lsp.Position(2, where.start.character + 4)
    got = await asyncio.wait_for(client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), inside)), WAIT)
    assert got is not None and got.range == where
    text = got.contents.value
    assert "`--max-model-len`" in text and "vLLM 0." in text
    assert "type: `human_readable_int_or_auto`" in text
    assert "History of `--max-model-len`: accepted by" in text
    # vLLM's own help text of the launch's release (the newest: no pin), as the inventory has it
    import json
    from pathlib import Path

    inventory = json.loads((Path(__file__).resolve().parents[1] / "rules/data/releases/0.33.0.json").read_text())
    (spec,) = [o for o in inventory["options"] if "--max-model-len" in o["names"]]
    assert "vLLM 0.33.0" in text and "context length" in spec["help"].lower() and spec["help"] in text
    swap = _at(SCRIPT, "--swap-space", 2)
    got = await asyncio.wait_for(client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), swap.start)), WAIT)
    assert "not an option of this release" in got.contents.value and "removed in 0.18.0" in got.contents.value


@pytest.mark.asyncio
async def test_an_edit_gets_fresh_diagnostics(client: LanguageClient, tmp_path):
    path = tmp_path / "serve.sh"
    uri = path.as_uri()
    await _open(client, path, SCRIPT)
    where = _at(SCRIPT, "--max-num-seq", 2)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangePartial(range=where, text="--max-num-seqs")],
        )
    )
    found = _by_code(await _diagnostics(client, uri, 2))
    assert "VL201" not in found and "VL101" in found


@pytest.mark.asyncio
async def test_columns_count_utf16_code_units_after_non_ascii_and_astral_characters(client: LanguageClient, tmp_path):
    text = '#!/bin/sh\n# é ✓ 🚀\nMSG="déjà vu 🚀🚀" vllm serve m --max-num-seq 8 --swap-space 4\n'
    found = _by_code(await _open(client, tmp_path / "ünï.sh", text))
    assert found["VL201"].range == _at(text, "--max-num-seq", 2)
    assert found["VL101"].range == _at(text, "--swap-space", 2)
    # the astral characters count two units each: the column is past the code-point column
    row = text.split("\n")[2]
    assert found["VL201"].range.start.character == row.index("--max-num-seq") + 2


@pytest.mark.asyncio
async def test_completion_offers_the_options_of_the_launchs_release(client: LanguageClient, tmp_path):
    path = tmp_path / "serve.sh"
    text = "vllm serve m --max-num-b\n"
    await _open(client, path, text)
    got = await asyncio.wait_for(
        client.text_document_completion_async(lsp.CompletionParams(lsp.TextDocumentIdentifier(path.as_uri()), lsp.Position(0, len(text) - 1))),
        WAIT,
    )
    labels = [i.label for i in got.items]
    assert "--max-num-batched-tokens" in labels and all(label.startswith("--max-num-b") for label in labels)
    item = next(i for i in got.items if i.label == "--max-num-batched-tokens")
    assert item.text_edit.range == lsp.Range(lsp.Position(0, 13), lsp.Position(0, 24))
    # continued on the next line of the command, and outside any launch
    text = "vllm serve m \\\n  --enforce-e\necho --max-num\n"
    other = tmp_path / "continued.sh"
    await _open(client, other, text)
    uri = other.as_uri()

    async def complete(line: int, character: int):
        params = lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, character))
        return await asyncio.wait_for(client.text_document_completion_async(params), WAIT)

    got = await complete(1, len("  --enforce-e"))
    assert [i.label for i in got.items] == ["--enforce-eager"]
    assert await complete(2, len("echo --max-num")) is None


@pytest.mark.asyncio
async def test_the_pin_beats_the_configured_release_and_the_client_target_beats_both(client: LanguageClient, tmp_path):
    (tmp_path / "vllm-lint.toml").write_text('target-version = "0.28"\n')
    pinned = "pip install vllm==0.30.0\nvllm serve m --max-num-seq 8\n"
    (vl201,) = [d for d in await _open(client, tmp_path / "pinned.sh", pinned) if d.code == "VL201"]
    assert "in vLLM 0.30.0;" in vl201.message
    unpinned = "vllm serve m --max-num-seq 8\n"
    (vl201,) = [d for d in await _open(client, tmp_path / "plain.sh", unpinned) if d.code == "VL201"]
    assert "in vLLM 0.28.0;" in vl201.message
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams({"vllm-lint": {"targetVersion": "0.31"}}))
    (vl201,) = [d for d in await _diagnostics(client, (tmp_path / "pinned.sh").as_uri(), 1) if d.code == "VL201"]
    assert "in vLLM 0.31.0;" in vl201.message


@pytest_lsp.fixture(config=_config())
async def bare(lsp_client: LanguageClient, tmp_path):
    yield


@pytest.mark.asyncio
async def test_shutdown_and_exit_are_clean(bare: LanguageClient, tmp_path):
    await _start(bare, tmp_path, {"targetVersion": "0.30"})
    found = _by_code(await _open(bare, tmp_path / "serve.sh", SCRIPT))
    assert "in vLLM 0.30.0;" in found["VL201"].message  # initializationOptions.targetVersion
    await asyncio.wait_for(bare.shutdown_async(None), WAIT)
    bare.exit(None)
    code = await asyncio.wait_for(bare._server.wait(), WAIT)
    assert code == 0


@pytest.mark.asyncio
async def test_an_unsafe_fix_is_a_quick_fix_marked_unsafe_and_left_out_of_fix_all(client: LanguageClient, tmp_path):
    path = tmp_path / "hybrid.sh"
    text = "vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --mamba-cache-mode all --enable-prefix-caching\n"
    found = _by_code(await _open(client, path, text))
    where = found["VL301"].range
    assert where == _at(text, "all", 0)
    actions = await asyncio.wait_for(
        client.text_document_code_action_async(lsp.CodeActionParams(lsp.TextDocumentIdentifier(path.as_uri()), where, lsp.CodeActionContext([found["VL301"]]))),
        WAIT,
    )
    (quick,) = [a for a in actions if a.diagnostics and a.diagnostics[0].code == "VL301"]
    assert quick.kind == lsp.CodeActionKind.QuickFix and quick.title.endswith("(unsafe)") and not quick.is_preferred
    assert [e.new_text for e in quick.edit.document_changes[0].edits] == ["align"]
    assert not [a for a in actions if a.kind == "source.fixAll.vllm-lint"]  # nothing safe to fix


@pytest.mark.asyncio
async def test_every_kind_of_file_is_linted(client: LanguageClient, tmp_path):
    cases = {
        "Dockerfile": ("dockerfile", 'FROM vllm/vllm-openai:v0.30.0\nCMD ["--model", "m", "--max-num-seq", "8"]\n', 1),
        "deploy.yaml": (
            "yaml",
            "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
            "        - name: vllm\n          image: vllm/vllm-openai:v0.30.0\n          args: [\"--model\", \"m\", \"--max-num-seq\", \"8\"]\n",
            8,
        ),
        "serve.py": ("python", 'from vllm import LLM\n\nllm = LLM(model="m", swap_space=4)\nsubprocess = ["vllm", "serve", "m", "--max-num-seq", "8"]\n', None),
        "README.md": ("markdown", "Start it:\n\n```bash\nvllm serve m --max-num-seq 8\n```\n", 3),
    }
    for name, (language, text, line) in cases.items():
        found = _by_code(await _open(client, tmp_path / name, text, language))
        assert found, name
        if line is not None:
            assert found["VL201"].range == _at(text, "--max-num-seq", line), name
    plain = await _open(client, tmp_path / "notes.txt", "vllm serve m --max-num-seq 8\n", "plaintext")
    assert list(plain) == []  # not a kind of file vllm-lint reads
    # an unsaved buffer without a name: its language decides (the `languages` of linter/kinds.py)
    untitled = "untitled:Untitled-1"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(untitled, "shellscript", 1, SCRIPT)))
    assert "VL201" in _by_code(await _diagnostics(client, untitled, 1))


@pytest.mark.asyncio
async def test_a_burst_of_edits_publishes_for_the_last_one_only(client: LanguageClient, tmp_path):
    path = tmp_path / "serve.sh"
    uri = path.as_uri()
    await _open(client, path, SCRIPT)
    seen: list[int] = []
    text = SCRIPT
    for version in range(2, 7):
        text = text.replace("8192", str(8192 + version))
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [lsp.TextDocumentContentChangeWholeDocument(text=text)])
        )

    async def until_last():
        while True:
            params = await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri:
                seen.append(params.version)
                if params.version == 6:
                    return params.diagnostics

    last = _by_code(await asyncio.wait_for(until_last(), WAIT))
    assert {"VL101", "VL201"} <= set(last)
    assert seen == [6]  # the runs of versions 2 to 5 were cancelled before they started


def test_the_command_line_does_not_import_pygls():
    import subprocess

    code = "import sys, linter.cli; sys.exit(1 if any(m.split('.')[0] in ('pygls', 'lsprotocol') for m in sys.modules) else 0)"
    assert subprocess.run([sys.executable, "-c", code], timeout=WAIT).returncode == 0


def test_lsp_lines_count_utf16_units_and_every_line_ending():
    from linter.server import Lines

    text = "a🚀b\r\nc\rdé\n"
    lines = Lines(text)
    assert lines.starts == [0, 5, 7, 10]
    assert lines.position(text.index("b")) == lsp.Position(0, 3)  # 🚀 is two UTF-16 units
    assert lines.position(text.index("d")) == lsp.Position(2, 0)  # a lone \r ends a line
    assert lines.offset(lsp.Position(0, 3)) == text.index("b")
    assert lines.offset(lsp.Position(0, 99)) == text.index("\r")  # past the end: the line's end
    assert lines.offset(lsp.Position(9, 0)) == len(text)
    assert Lines(text, lsp.PositionEncodingKind.Utf8).position(text.index("b")) == lsp.Position(0, 5)
    assert Lines(text, lsp.PositionEncodingKind.Utf32).position(text.index("b")) == lsp.Position(0, 2)


@pytest.mark.asyncio
async def test_a_changed_configuration_file_lints_the_open_files_again(client: LanguageClient, tmp_path):
    path = tmp_path / "serve.sh"
    assert "VL201" in _by_code(await _open(client, path, SCRIPT))
    assert any(r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)
    config = tmp_path / "vllm-lint.toml"
    config.write_text('ignore = ["VL201"]\n')
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams([lsp.FileEvent(config.as_uri(), lsp.FileChangeType.Created)]))
    found = _by_code(await _diagnostics(client, path.as_uri(), 1))
    assert "VL201" not in found and "VL101" in found


@pytest.mark.asyncio
async def test_the_cache_keeps_a_saved_files_reading_and_never_an_unsaved_buffers(client: LanguageClient, tmp_path):
    import json

    from linter.cache import DIRNAME

    path = tmp_path / "serve.sh"
    path.write_text(SCRIPT)
    assert {"VL101", "VL201"} <= set(_by_code(await _open(client, path, SCRIPT)))  # as saved: stored
    (pack,) = (tmp_path / DIRNAME).glob("x*/cache.json")
    entries = json.loads(pack.read_text())["entries"]
    assert [e[0] for e in entries.values()] == [str(path)]
    edited = SCRIPT.replace("--max-num-seq 8", "--max-num-seqs 8")
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2), [lsp.TextDocumentContentChangeWholeDocument(edited)]))
    found = _by_code(await _diagnostics(client, path.as_uri(), 2))
    assert "VL201" not in found and "VL101" in found
    assert json.loads(pack.read_text())["entries"] == entries  # the unsaved buffer's reading is not kept
    # what the command line reads from the same pack gives what the server published
    from click.testing import CliRunner

    from linter.cli import main

    out = CliRunner().invoke(main, [str(path), "--output-format", "json"], env={"VLLM_LINT_CACHE_DIR": str(tmp_path / DIRNAME)})
    assert {d["code"] for d in json.loads(out.stdout)} >= {"VL101", "VL201"}


@pytest.mark.asyncio
async def test_a_file_the_configuration_excludes_gets_no_diagnostics(client: LanguageClient, tmp_path):
    (tmp_path / "vllm-lint.toml").write_text('extend-exclude = ["/vendor"]\n')  # anchored: from the workspace's root
    assert list(await _open(client, tmp_path / "vendor" / "serve.sh", SCRIPT)) == []
    assert {"VL101", "VL201"} <= set(_by_code(await _open(client, tmp_path / "serve.sh", SCRIPT)))
