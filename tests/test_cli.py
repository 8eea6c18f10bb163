"""The command line: --list-options, --show-launches, --target-version, --explain, exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from linter.cli import main
from tests.rules.lint_helpers import have

pytestmark = pytest.mark.skipif(not have("0.31.0", "0.33.0"), reason="inventories not generated")


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("spelling", ["0.31", "0.31.0", "v0.31.0"])
def test_list_options_json_for_a_release(spelling):
    r = run("--list-options", "--target-version", spelling, "--output-format", "json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    by_dest = {row["dest"]: row for row in rows}
    for row in rows:
        assert {"names", "dest", "takes_value", "choices", "deprecated"} <= set(row)
    assert "-tp" in by_dest["tensor_parallel_size"]["names"]
    assert "all" in by_dest["mamba_cache_mode"]["choices"]
    assert "--enable-mamba-shared-prefix-checkpoint" in {n for row in rows for n in row["names"]}
    assert "--no-enable-prefix-caching" in by_dest["enable_prefix_caching"]["names"]


def test_unknown_release_is_a_usage_error_naming_the_known_ones():
    r = run("--target-version", "0.99", ".")
    assert r.exit_code == 2
    assert "0.28.0" in r.output and "0.33.0" in r.output


def test_show_launches_json(tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve Qwen/Qwen3-8B \\\n  --max_num_seqs=8 \\\n  --enforce-eager\n")
    (tmp_path / "offline.py").write_text('from vllm import LLM\nLLM("m", max_model_len=4096)\n')
    r = run("--show-launches", "--output-format", "json", str(tmp_path))
    assert r.exit_code == 0, r.output
    launches = {row["kind"]: row for row in json.loads(r.output)}
    sh = launches["shell"]
    assert (sh["line"], sh["column"], sh["vllm_version"]) == (1, 1, None)
    assert sh["options"] == [
        {"name": "--max_num_seqs", "value": "8", "line": 2, "column": 3},
        {"name": "--enforce-eager", "value": None, "line": 3, "column": 3},
    ]
    py = launches["python"]
    assert {"name": "max_model_len", "value": "4096", "line": 2, "column": 10} in py["options"]


def test_show_launches_lists_each_dotted_key_as_written(tmp_path):
    """``--attention-config.backend FLASHINFER``: vLLM gathers dotted keys into one JSON value;
    the listing keeps each key as the launch writes it, with its own value and place."""
    (tmp_path / "serve.sh").write_text(
        "vllm serve Qwen/Qwen3-8B --attention-config.backend FLASHINFER \\\n"
        "  --compilation-config.cudagraph_mode=FULL_DECODE_ONLY --compilation-config.pass_config.fuse_norm_quant true\n"
    )
    r = run("--show-launches", "--output-format", "json", str(tmp_path))
    (row,) = json.loads(r.output)
    assert row["options"] == [
        {"name": "--attention-config.backend", "value": "FLASHINFER", "line": 1, "column": 26},
        {"name": "--compilation-config.cudagraph_mode", "value": "FULL_DECODE_ONLY", "line": 2, "column": 3},
        {"name": "--compilation-config.pass_config.fuse_norm_quant", "value": "true", "line": 2, "column": 56},
    ]


def test_show_launches_names_the_model_of_an_api_server_given_with_model(tmp_path):
    (tmp_path / "serve.sh").write_text(
        "python -m vllm.entrypoints.openai.api_server --model TheBloke/Mistral-7B-v0.1-AWQ --port 8000\n"
    )
    r = run("--show-launches", "--output-format", "json", str(tmp_path))
    (row,) = json.loads(r.output)
    assert row["model"] == "TheBloke/Mistral-7B-v0.1-AWQ"
    assert {"name": "--model", "value": "TheBloke/Mistral-7B-v0.1-AWQ", "line": 1, "column": 46} in row["options"]


def test_explain_and_list_rules():
    r = run("--explain", "VL301")
    assert r.exit_code == 0 and "Fix safety" in r.output and "0.32" in r.output
    r = run("--list-rules", "--output-format", "json")
    codes = [row["code"] for row in json.loads(r.output)]
    assert codes == sorted(codes) and "VL102" in codes
    assert run("--explain", "VL999").exit_code == 2


def test_exit_codes(tmp_path):
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "serve.sh").write_text("vllm serve Qwen/Qwen3-8B --max-model-len 8192\n")
    assert run("--target-version", "0.33", str(clean)).exit_code == 0
    (clean / "serve.sh").write_text("vllm serve Qwen/Qwen3-8B --swap-space 4\n")
    r = run("--target-version", "0.33", "--output-format", "concise", str(clean))
    assert r.exit_code == 1 and "VL101" in r.output


def test_show_launches_lists_config_with_its_path(tmp_path):
    (tmp_path / "serve.yaml").write_text("max-model-len: 4096\nmax-num-seqs: 8\n")
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: v\n"
        "    image: vllm/vllm-openai:v0.33.0\n    args: [Qwen/Qwen3-8B, --config, serve.yaml]\n"
        "  - name: w\n    image: vllm/vllm-openai:v0.33.0\n    args: [Qwen/Qwen3-8B, --config, /etc/vllm/absent.yaml]\n"
    )
    (tmp_path / "pod.yaml").write_text(pod)
    r = run("--no-cache", "--show-launches", "--output-format", "json", str(tmp_path / "pod.yaml"))
    found, missing = [x for x in json.loads(r.output) if x["file"].endswith("pod.yaml")]
    assert {"name": "--config", "value": "serve.yaml", "line": 8, "column": 37} in found["options"]
    assert not any("no such YAML file" in n for n in found["notes"])
    assert any(o["name"] == "--config" and o["value"] == "/etc/vllm/absent.yaml" for o in missing["options"])
    assert any("--config /etc/vllm/absent.yaml: no such YAML file" in n for n in missing["notes"])


def test_config_named_by_its_path_in_the_container_is_read_from_the_mounted_file(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "vllm.yaml").write_text("max-model-len: 8192\nswap-space: 4\n")
    (tmp_path / "compose.yaml").write_text(
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n"
        "    volumes:\n      - ./configs/vllm.yaml:/etc/vllm/config.yaml:ro\n"
        "    command: [Qwen/Qwen3-8B, --config, /etc/vllm/config.yaml]\n"
    )
    r = run("--no-cache", "--output-format", "concise", str(tmp_path / "compose.yaml"))
    assert "configs/vllm.yaml:2:1: VL101" in r.output, r.output
    r = run("--no-cache", "--show-launches", "--output-format", "json", str(tmp_path / "compose.yaml"))
    launch = next(x for x in json.loads(r.output) if x["file"].endswith("compose.yaml"))
    assert not any("no such YAML file" in n for n in launch["notes"])


def test_a_docker_run_mount_shows_the_config_its_command_names(tmp_path):
    """``docker run -v ./configs/vllm.yaml:/etc/vllm/config.yaml:ro IMAGE --config
    /etc/vllm/config.yaml`` (or ``--mount type=bind,...``): the config is the mounted file of
    the tree; a mount from outside the folder linted is not read."""
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "vllm.yaml").write_text("max-model-len: 8192\nswap-space: 4\n")
    (tmp_path / "run.sh").write_text(
        "#!/bin/sh\n"
        "docker run --gpus all -v \"$HOME/.cache/huggingface:/root/.cache/huggingface\" \\\n"
        "  -v ./configs/vllm.yaml:/etc/vllm/config.yaml:ro vllm/vllm-openai:v0.33.0 \\\n"
        "  Qwen/Qwen3-8B --config /etc/vllm/config.yaml\n"
        "docker run --mount type=bind,source=./configs,target=/cfg,readonly vllm/vllm-openai:v0.33.0 \\\n"
        "  Qwen/Qwen3-8B --config /cfg/vllm.yaml\n"
        "docker run -v /etc:/etc/vllm vllm/vllm-openai:v0.33.0 Qwen/Qwen3-8B --config /etc/vllm/passwd.yaml\n"
    )
    r = run("--no-cache", "--output-format", "concise", str(tmp_path / "run.sh"))
    assert r.output.count("configs/vllm.yaml:2:1: VL101") == 1, r.output
    r = run("--no-cache", "--show-launches", "--output-format", "json", str(tmp_path / "run.sh"))
    launches = [x for x in json.loads(r.output) if x["file"].endswith("run.sh")]
    assert [any("no such YAML file" in n for n in launch["notes"]) for launch in launches] == [False, False, True]


def test_the_command_line_collects_garbage_less_often_and_the_server_as_python_does(monkeypatch):
    import gc

    from linter import cli

    assert gc.get_threshold() == (100_000, 50, 100)
    seen = []
    monkeypatch.setattr(gc, "set_threshold", lambda *t: seen.append(t))
    import linter.server as server

    monkeypatch.setattr(server, "serve", lambda argv: 0)
    with pytest.raises(SystemExit):
        cli.main(["server"])
    assert seen == [cli.GC_DEFAULTS]


def test_a_run_leaves_its_results_and_cache_to_the_exit_only_when_the_process_ends_after_it(tmp_path, monkeypatch):
    """Run as a program, a check leaves its results and its cache to the process's end (freed
    by nobody: os._exit); called as a function, or in --watch's rounds, it keeps nothing."""
    import subprocess
    import sys

    from click.testing import CliRunner

    from linter import cli

    (tmp_path / "serve.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "notes.md").write_text("# nothing to lint\n")
    code = (
        "import atexit, sys\n"
        "from linter import cli\n"
        "atexit.register(lambda: sys.stderr.write('left: %r\\n' % sorted(type(o).__name__ for kept in cli._LEFT for o in kept)))\n"
        "sys.argv = ['vllm-lint', '--output-format', 'concise', *sys.argv[1:]]\n"
        "cli.main()\n"
    )
    run = subprocess.run([sys.executable, "-c", code, "."], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1 and "serve.sh:1:" in run.stdout, run.stderr
    assert run.stderr.endswith("left: ['Cache', 'list', 'list']\n"), run.stderr
    watch = subprocess.run([sys.executable, "-c", code, "--watch", "--watch-interval", "0.05", "--watch-polls", "3", "."], cwd=tmp_path, capture_output=True, text=True)
    assert "serve.sh:1:" in watch.stdout and watch.stderr.endswith("left: []\n"), watch.stderr
    monkeypatch.chdir(tmp_path)  # (the cache it writes: .vllm-lint-cache here)
    result = CliRunner().invoke(cli.main, ["--output-format", "concise", "."])
    assert result.exit_code == 1 and cli._LEFT == []


def test_the_program_ends_without_tearing_down_but_as_sys_exit_would(tmp_path):
    """Run as a program, vllm-lint ends with os._exit after flushing its streams and running the
    atexit handlers (a coverage run's, a plugin's): the same output and exit code as before."""
    import subprocess
    import sys

    (tmp_path / "serve.sh").write_text("vllm serve m --swap-space 4\n")
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('atexit ran\\n'))\n"
        "sys.argv = ['vllm-lint', '--no-cache', '--output-format', 'concise', 'serve.sh']\n"
        "from linter.cli import main\n"
        "main()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    assert "serve.sh:1:" in run.stdout and "VL101" in run.stdout
    assert run.stderr.endswith("atexit ran\n")
    clean = subprocess.run([sys.executable, "-c", code.replace("'serve.sh'", "'--version'")], cwd=tmp_path, capture_output=True, text=True)
    assert clean.returncode == 0 and clean.stdout.startswith("vllm-lint")
    usage = subprocess.run([sys.executable, "-c", code.replace("'serve.sh'", "'--no-such-flag'")], cwd=tmp_path, capture_output=True, text=True)
    assert usage.returncode == 2 and "No such option" in usage.stderr
