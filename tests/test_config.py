"""Configuration files: discovery, validation, and how the command line overrides them.

The end-to-end checks use a file whose only finding is an unused suppression
(VL901), which needs no release inventory.
"""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from linter.cli import main
from linter.config import Config, ConfigError, find, load, resolve

UNUSED = "echo hi  # vllm-lint: ignore[VL102]\n"


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- discovery ------------------------------------------------------------------


def test_nearest_folder_wins_and_vllm_lint_toml_beats_pyproject(tmp_path):
    _write(tmp_path / "pyproject.toml", '[tool.vllm-lint]\nselect = ["VL1"]\n')
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    assert find(str(sub)) == str(tmp_path / "pyproject.toml")
    _write(tmp_path / "vllm-lint.toml", 'select = ["VL2"]\n')
    assert find(str(sub)) == str(tmp_path / "vllm-lint.toml")
    _write(tmp_path / ".vllm-lint.toml", 'select = ["VL3"]\n')
    assert find(str(sub)) == str(tmp_path / ".vllm-lint.toml")
    _write(tmp_path / "a" / "pyproject.toml", '[tool.vllm-lint]\nignore = ["VL205"]\n')
    assert find(str(sub)) == str(tmp_path / "a" / "pyproject.toml")


def test_pyproject_without_the_section_does_not_count(tmp_path):
    _write(tmp_path / "vllm-lint.toml", 'ignore = ["VL205"]\n')
    _write(tmp_path / "a" / "pyproject.toml", '[tool.ruff]\nline-length = 100\n')
    assert find(str(tmp_path / "a")) == str(tmp_path / "vllm-lint.toml")


def test_no_file_gives_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = resolve(start=str(tmp_path))
    assert cfg.path is None and cfg.select is None and cfg.respect_gitignore is True


def test_every_key_is_read(tmp_path):
    path = _write(
        tmp_path / "vllm-lint.toml",
        'target-version = "0.32"\nselect = ["vl1", "VL2"]\nextend-select = ["VL302"]\nignore = ["VL205"]\n'
        'per-file-ignores = { "legacy/*.sh" = ["VL102"] }\nexclude = ["vendor"]\nextend-exclude = ["old"]\n'
        'include = ["deploy/**"]\nrespect-gitignore = false\n',
    )
    cfg = load(str(path))
    assert cfg.target_version == "0.32"
    assert cfg.select == ["VL1", "VL2"] and cfg.extend_select == ["VL302"] and cfg.ignore == ["VL205"]
    assert cfg.per_file_ignores == {"legacy/*.sh": ["VL102"]}
    assert cfg.exclude == ["vendor"] and cfg.extend_exclude == ["old"] and cfg.include == ["deploy/**"]
    assert cfg.respect_gitignore is False
    match = cfg.per_file_matcher()
    assert match(str(tmp_path / "legacy" / "a.sh")) == {"VL102"}
    assert match(str(tmp_path / "other" / "a.sh")) == frozenset()


# -- validation -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, words",
    [
        ('selct = ["VL1"]\n', ["unknown key `selct`", "vllm-lint.toml"]),
        ('extend_select = ["VL1"]\n', ["unknown key `extend_select`", "did you mean `extend-select`"]),
        ('select = "VL1"\n', ["`select` must be a list of strings", "str"]),
        ("respect-gitignore = 1\n", ["`respect-gitignore` must be true or false"]),
        ('per-file-ignores = { "*.md" = "VL1" }\n', ['`per-file-ignores."*.md"` must be a list of strings']),
        ('ignore = ["VL99X"]\n', ["`ignore` names `VL99X`"]),
        ("select = [\n", ["not valid TOML"]),
    ],
)
def test_bad_configuration_names_the_key_and_the_file(tmp_path, text, words):
    path = _write(tmp_path / "vllm-lint.toml", text)
    with pytest.raises(ConfigError) as err:
        load(str(path))
    for w in words:
        assert w in str(err.value)
    assert str(path) in str(err.value)


def test_bad_configuration_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "pyproject.toml", '[tool.vllm-lint]\nunknown-thing = 1\n')
    _write(tmp_path / "a.sh", UNUSED)
    result = CliRunner().invoke(main, ["a.sh"])
    assert result.exit_code == 2
    assert "unknown key `unknown-thing`" in result.output and "pyproject.toml [tool.vllm-lint]" in result.output


def test_missing_explicit_config_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--config", "nope.toml", "."])
    assert result.exit_code == 2 and "nope.toml: no such configuration file" in result.output


# -- the command line over the file ----------------------------------------------


def _codes(args, cwd):
    result = CliRunner().invoke(main, [*args, "--output-format", "json"])
    assert result.exit_code in (0, 1), result.output
    return [d["code"] for d in json.loads(result.stdout)]


def test_config_ignore_and_cli_select(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "deploy" / "a.sh", UNUSED)
    assert _codes(["deploy"], tmp_path) == ["VL901"]
    _write(tmp_path / "vllm-lint.toml", 'ignore = ["VL901"]\n')
    assert _codes(["deploy"], tmp_path) == []
    assert _codes(["--select", "VL1,VL9", "deploy"], tmp_path) == ["VL901"]  # a CLI selection starts afresh
    assert _codes(["--select", "VL9", "deploy"], tmp_path) == []  # VL102 is not enabled: its suppression is not judged
    _write(tmp_path / "vllm-lint.toml", 'select = ["VL2"]\nextend-select = ["VL1", "VL9"]\n')
    assert _codes(["deploy"], tmp_path) == ["VL901"]
    assert _codes(["--select", "VL2", "deploy"], tmp_path) == []  # the file's extend-select is dropped too
    assert _codes(["--extend-select", "VL901", "--select", "VL1", "deploy"], tmp_path) == ["VL901"]


def test_per_file_ignores_exclude_and_explicit_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "deploy" / "a.sh", UNUSED)
    _write(tmp_path / "deploy" / "legacy" / "b.sh", UNUSED)
    _write(tmp_path / "pyproject.toml", '[tool.vllm-lint]\nper-file-ignores = { "deploy/legacy/*" = ["VL901"] }\n')
    result = CliRunner().invoke(main, ["deploy", "--output-format", "json"])
    assert [d["filename"] for d in json.loads(result.stdout)] == [os.path.join("deploy", "a.sh")]
    _write(tmp_path / "other.toml", 'extend-exclude = ["legacy"]\n')
    result = CliRunner().invoke(main, ["--config", "other.toml", "deploy", "--output-format", "json"])
    assert [d["filename"] for d in json.loads(result.stdout)] == [os.path.join("deploy", "a.sh")]
    result = CliRunner().invoke(main, ["--config", "other.toml", "deploy/legacy/b.sh", "--force-exclude", "--output-format", "json"])
    assert json.loads(result.stdout) == []


def test_include_limits_walked_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "deploy" / "a.sh", UNUSED)
    _write(tmp_path / "deploy" / "b.sh", UNUSED)
    _write(tmp_path / "vllm-lint.toml", 'include = ["b.sh"]\n')
    result = CliRunner().invoke(main, ["deploy", "--output-format", "json"])
    assert [d["filename"] for d in json.loads(result.stdout)] == [os.path.join("deploy", "b.sh")]


# -- standard input -----------------------------------------------------------------


def test_stdin_uses_the_filename_for_kind_and_per_file_ignores(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["-", "--stdin-filename", "deploy/x.sh", "--output-format", "json"], input=UNUSED)
    assert result.exit_code == 1
    (d,) = json.loads(result.stdout)
    assert d["code"] == "VL901" and d["filename"] == "deploy/x.sh"
    # Python: the `#` inside the string is not a comment
    result = runner.invoke(main, ["-", "--stdin-filename", "x.py", "--output-format", "json"], input='s = "# vllm-lint: ignore[VL102]"\n')
    assert result.exit_code == 0 and json.loads(result.stdout) == []
    result = runner.invoke(main, ["-"], input=UNUSED)
    assert result.exit_code == 2 and "--stdin-filename" in result.output


def test_stdin_fix_prints_the_fixed_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--fix", "-", "--stdin-filename", "x.sh"], input="echo hi\n" + UNUSED)
    assert result.exit_code == 0
    assert result.stdout == "echo hi\necho hi\n"


def test_stdin_force_exclude(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "vllm-lint.toml", 'extend-exclude = ["vendor"]\n')
    result = CliRunner().invoke(main, ["--force-exclude", "-", "--stdin-filename", "vendor/x.sh", "--output-format", "json"], input=UNUSED)
    assert result.exit_code == 0 and result.stdout == ""


def test_per_file_ignores_cover_unreadable_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "blob.sh").write_bytes(b"vllm\x00\xff\xfe binary")
    result = CliRunner().invoke(main, ["deploy", "--output-format", "json"])
    assert [d["code"] for d in json.loads(result.stdout)] == ["VL002"]
    _write(tmp_path / "vllm-lint.toml", 'per-file-ignores = { "*.sh" = ["VL002"] }\n')
    result = CliRunner().invoke(main, ["deploy", "--output-format", "json"])
    assert json.loads(result.stdout) == [] and result.exit_code == 0


def _in_thread(fn):
    import threading

    out: list = []
    t = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "blocked on a named pipe"
    return out


def test_configuration_that_is_a_pipe_or_not_utf8_is_an_error_not_a_hang(tmp_path):
    os.mkfifo(tmp_path / "vllm-lint.toml")

    def load_it():
        with pytest.raises(ConfigError, match="not a regular file"):
            load(str(tmp_path / "vllm-lint.toml"))
        return True

    assert _in_thread(load_it) == [True]
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.vllm-lint]\nselect = ["\xff"]\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        load(str(tmp_path / "pyproject.toml"))


# -- one builder: the command line's options and the language server's client options ---------


def _release_of(settings, text: str, path) -> str:
    from linter import project

    result = project.lint_document(str(path), text.encode(), settings, "shell")
    (rep,) = result.launches
    return f"{rep.version} {rep.reason}"


PINNED = "pip install vllm==0.30.0\nvllm serve m --max-num-seqs 8\n"
PLAIN = "vllm serve m --max-num-seqs 8\n"


def test_command_line_configured_target_beats_the_pin(tmp_path):
    from linter import knowledge
    from linter.config import Overrides, settings

    cfg = load(str(_write(tmp_path / "vllm-lint.toml", 'target-version = "0.28"\n')))
    assert _release_of(settings(cfg), PINNED, tmp_path / "a.sh") == "0.28.0 target"
    over = settings(cfg, Overrides(target=knowledge.resolve_target("0.31")))
    assert _release_of(over, PINNED, tmp_path / "a.sh") == "0.31.0 target"


def test_client_options_precedence_target_then_pin_then_configuration(tmp_path):
    from linter.config import client_overrides, settings

    cfg = load(str(_write(tmp_path / "vllm-lint.toml", 'target-version = "0.28"\nignore = ["VL205"]\n')))
    plain, problems = client_overrides({})
    assert problems == [] and plain.pins_beat_configured
    assert _release_of(settings(cfg, plain), PINNED, tmp_path / "a.sh") == "0.30.0 pin"
    assert _release_of(settings(cfg, plain), PLAIN, tmp_path / "a.sh") == "0.28.0 configured"
    target, _ = client_overrides({"targetVersion": "0.31"})
    assert _release_of(settings(cfg, target), PINNED, tmp_path / "a.sh") == "0.31.0 target"
    # the configuration's other keys stay under the client's, as under the command line's
    built = settings(cfg, client_overrides({"ignore": ["VL201"], "extendSelect": "VL302,VL8"})[0])
    assert built.ignore == {"VL201", "VL205"} and built.extend_select == {"VL302", "VL8"}
    fresh = settings(cfg, client_overrides({"select": ["vl1"]})[0])
    assert fresh.select == {"VL1"} and fresh.ignore == frozenset()  # a selection starts afresh


def test_client_options_that_cannot_be_used_are_problems_not_failures(tmp_path):
    from linter.config import client_overrides

    overrides, problems = client_overrides({"targetVersion": "9.9", "ignore": ["VL201", "NOPE"]})
    assert overrides.target is None and overrides.ignore == {"VL201"}
    assert len(problems) == 2 and "targetVersion" in problems[0] and "NOPE" in problems[1]


def test_the_server_builds_its_settings_with_the_same_builder(tmp_path):
    pytest.importorskip("pygls")
    from linter.server import VllmLintServer

    _write(tmp_path / "vllm-lint.toml", 'target-version = "0.28"\nignore = ["VL205"]\n')
    server = VllmLintServer()
    server.set_options({"ignore": "VL201"})
    built, cfg, problem = server.settings_for(str(tmp_path / "deploy" / "a.sh"))
    assert problem is None and cfg.path == str(tmp_path / "vllm-lint.toml")
    assert str(built.fallback) == "0.28.0" and built.target is None and built.ignore == {"VL201", "VL205"}
    _write(tmp_path / "vllm-lint.toml", 'target-version = "7.0"\n')
    server.configuration_changed()
    built, _cfg, problem = server.settings_for(str(tmp_path / "a.sh"))
    assert built.fallback is None and "target-version" in problem  # a bad release: none, said in the log
    server.set_options({"config": str(tmp_path / "missing.toml")})
    built, _cfg, problem = server.settings_for(str(tmp_path / "a.sh"))
    assert "missing.toml" in problem and built.fallback is None


# -- the checks of a document given as bytes (standard input, an editor's buffer) ----------------


def test_check_document_size_exclusion_and_kind(tmp_path, monkeypatch):
    from linter import project
    from linter.config import settings
    from linter.engine import MAX_FILE_BYTES

    monkeypatch.chdir(tmp_path)
    cfg = load(str(_write(tmp_path / "vllm-lint.toml", 'extend-exclude = ["vendor"]\n')))
    s = settings(cfg)
    big = project.check_document("x.sh", b"#" * (MAX_FILE_BYTES + 1), s, cfg, origin="the buffer")
    assert big.kind is None and [d.code for d in big.too_big.diagnostics] == ["VL003"]
    assert "the buffer is over" in big.too_big.diagnostics[0].message
    assert project.check_document("vendor/x.sh", b"vllm serve m\n", s, cfg, force_exclude=True).excluded
    assert project.check_document("vendor/x.sh", b"vllm serve m\n", s, cfg).kind == "shell"
    assert project.check_document("notes.bin", b"\x00", s, cfg).kind is None
    assert project.check_document("Untitled-1", b"vllm serve m\n", s, cfg, fallback_kind="shell").kind == "shell"


def test_a_walk_tells_the_resolver_each_folder_s_names(tmp_path, monkeypatch):
    """The walk hands each folder's entry names to the resolver: the nearest configuration is
    found as before (a nested one, a pyproject.toml with the section, one above the walked
    folder), and a walked folder without such a name costs no look-up."""
    from linter import project
    from linter.config import Resolver

    (tmp_path / "vllm-lint.toml").write_text('target-version = "0.30"\n', encoding="utf-8")
    for d in ("deploy/a", "deploy/b", "svc/x/y"):
        (tmp_path / d).mkdir(parents=True)
        (tmp_path / d / "serve.sh").write_text("vllm serve m --max-num-seq 4\n", encoding="utf-8")
    (tmp_path / "deploy" / "b" / ".vllm-lint.toml").write_text('target-version = "0.31"\n', encoding="utf-8")
    (tmp_path / "svc" / "pyproject.toml").write_text('[tool.vllm-lint]\ntarget-version = "0.32"\n', encoding="utf-8")
    (tmp_path / "svc" / "x" / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")  # no section: does not count
    monkeypatch.chdir(tmp_path / "deploy")
    looked: list[str] = []
    real = os.path.isfile
    monkeypatch.setattr(os.path, "isfile", lambda p: looked.append(p) or real(p))
    walked = Resolver()
    found = project.candidates([".", "../svc"], walked.root(), config_of=walked.config_for, listed=walked.note_listing)
    got = {c.path: walked.config_for(c.path).target_version for c in found}
    asked = list(looked)
    fresh = Resolver()
    assert got == {p: fresh.config_for(p).target_version for p in got}  # as a resolver that looks everything up
    assert [p for p in looked[len(asked):] if os.path.dirname(p) == str(tmp_path / "deploy" / "a")]
    assert got == {"a/serve.sh": "0.30", "b/serve.sh": "0.31", "../svc/x/y/serve.sh": "0.32"}
    assert not [p for p in asked if os.path.dirname(p) in (str(tmp_path / "deploy" / "a"), str(tmp_path / "svc" / "x" / "y"))]
