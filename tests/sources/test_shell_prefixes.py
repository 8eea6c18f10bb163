"""Shell: commands that run a command (srun, mpirun, systemd-run, ray job submit, kubectl run, docker exec)."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import shell
from tests.sources.token_checks import check_launch, values

SCRIPT = (
    "srun -N 2 --ntasks-per-node=1 --gres=gpu:8 vllm serve m1 --tensor-parallel-size 8\n"
    "mpirun -np 2 -x VLLM_LOGGING_LEVEL=DEBUG --mca btl tcp python3 -m vllm.entrypoints.openai.api_server --model m2\n"
    "ray job submit --address http://head:8265 --working-dir . -- vllm serve m3 --pipeline-parallel-size 2\n"
    "kubectl run vllm --image=vllm/vllm-openai:v0.30.0 --env=VLLM_USE_V1=1 --port=8000 -- --model m4 --max-model-len 4096\n"
    "kubectl run vllm --image=vllm/vllm-openai:v0.30.0 --command -- vllm serve m5\n"
    "docker exec -e VLLM_LOGGING_LEVEL=INFO -it vllm-container vllm serve m6 --port 8001\n"
    "systemd-run --user --property=Type=notify -p NotifyAccess=all --unit vllm -E VLLM_LOGGING_LEVEL=INFO vllm serve m7 --port 8002\n"
    "srun --pty bash\n"
    "kubectl run web --image=nginx -- --port 80\n"
    "ray job submit -- python train.py --max-model-len 3\n"
)


def test_prefixes_that_run_vllm() -> None:
    src = SourceFile.from_text("run.sh", SCRIPT)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    got = [(l.entrypoint, values(l.args)) for l in ex.launches]
    assert got == [
        ("vllm serve", ["m1", "--tensor-parallel-size", "8"]),
        ("api_server", ["--model", "m2"]),
        ("vllm serve", ["m3", "--pipeline-parallel-size", "2"]),
        ("image", ["--model", "m4", "--max-model-len", "4096"]),
        ("vllm serve", ["m5"]),
        ("vllm serve", ["m6", "--port", "8001"]),
        ("vllm serve", ["m7", "--port", "8002"]),
    ]
    mpi, kube, kube_cmd, exec_ = ex.launches[1], ex.launches[3], ex.launches[4], ex.launches[5]
    assert [(e.name.value, e.value.value) for e in mpi.env] == [("VLLM_LOGGING_LEVEL", "DEBUG")]
    assert kube.image.value == "vllm/vllm-openai:v0.30.0" and kube.strong
    assert kube.version_hint.version == "v0.30.0" and SCRIPT[kube.version_hint.span.start : kube.version_hint.span.end] == "v0.30.0"
    assert [(e.name.value, e.value.value) for e in kube.env] == [("VLLM_USE_V1", "1")]
    assert kube_cmd.image.value == "vllm/vllm-openai:v0.30.0"
    assert [(e.name.value, e.value.value) for e in exec_.env] == [("VLLM_LOGGING_LEVEL", "INFO")]
    assert kube.args[3].value_start == SCRIPT.index("4096")
    unit = ex.launches[6]  # systemd-run: a transient unit, its -p/--unit/-E values are not the command
    assert [(e.name.value, e.value.value) for e in unit.env] == [("VLLM_LOGGING_LEVEL", "INFO")]


HEREDOCS = (
    'F=$(mktemp)\n'
    'cat > "$F" <<EOF\n'
    "#!/bin/bash\n"
    "vllm serve m1 --max-model-len 4096\n"
    "EOF\n"
    "cat > config.yaml <<EOF\n"
    "command: vllm serve not-a-script\n"
    "EOF\n"
    "python3 - <<'PY'\n"
    'import os; os.system("vllm serve not-shell --port 1")\n'
    "PY\n"
    "kubectl apply -f - <<EOF\n"
    'args: ["vllm serve not-a-command"]\n'
    "EOF\n"
    'tee "$(mktemp)" <<-EOF\r\n'
    "\tvllm serve m2 --port 2\r\n"
    "\tEOF\r\n"
)


def test_heredoc_bodies_that_start_vllm_are_scripts_whatever_their_target() -> None:
    src = SourceFile.from_text("gen.sh", HEREDOCS)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert [values(l.args) for l in ex.launches] == [["m1", "--max-model-len", "4096"], ["m2", "--port", "2"]]
    first, second = ex.launches
    assert first.args[2].value_start == HEREDOCS.index("4096")
    assert second.args[2].value_start == HEREDOCS.index("2\r\n\tEOF")
    assert ex.problems == []


def test_module_entrypoints_the_releases_ship() -> None:
    text = (
        "python3 -m vllm.entrypoints.launchers.api_server.entry --model m1 --port 8000\n"
        "python -m vllm.entrypoints.launchers.render.entry --model m2\n"
        "python -m vllm.entrypoints.cli.main serve m3 --port 1\n"
        "python -m vllm.entrypoints.launchers.grpc_server --model m4\n"  # its own parser: not claimed
    )
    src = SourceFile.from_text("run.sh", text)
    ex = shell.extract(src)
    assert [(l.entrypoint, values(l.args)[:2]) for l in ex.launches] == [
        ("api_server", ["--model", "m1"]),
        ("api_server", ["--model", "m2"]),
        ("vllm serve", ["m3", "--port"]),
    ]


def test_programs_of_a_venv_whose_folder_is_a_variable() -> None:
    # the folder is unknown, the program named after it is not: a venv's python, its vllm;
    # an assignment before the command may hold a variable in its value
    text = (
        'VENV="$HOME/envs/vllm"\n'
        'LD_PRELOAD="$VENV/lib/libstdc++.so.6" nohup "$VENV/bin/python" -m vllm.entrypoints.openai.api_server \\\n'
        '  --model m1 --port 8080 > vllm.log 2>&1 &\n'
        '${CONDA_PREFIX}/bin/vllm serve m2 --max-model-len 4096\n'
        'VLLM_LOGGING_LEVEL=$LEVEL $VENV/bin/vllm serve m3 --port 1\n'
        '$VENV/bin/train.sh --max-model-len 3\n'  # a script of its own: not vLLM's
        '"$RUNNER" serve m4 --port 2\n'  # the program itself is unknown
    )
    src = SourceFile.from_text("run.sh", text)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert [(l.entrypoint, values(l.args)) for l in ex.launches] == [
        ("api_server", ["--model", "m1", "--port", "8080"]),
        ("vllm serve", ["m2", "--max-model-len", "4096"]),
        ("vllm serve", ["m3", "--port", "1"]),
    ]
    assert [e.name.value for e in ex.launches[2].env] == ["VLLM_LOGGING_LEVEL"]
    assert ex.launches[2].env[0].value.is_opaque


def test_docker_exec_runs_with_the_env_of_its_docker_run() -> None:
    text = (
        "docker run -d --gpus all --name \"vllm-box\" \\\r\n"
        "  -e VLLM_LOGGING_LEVEL=DEBUG --env=VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 -e HF_TOKEN \\\r\n"
        "  --entrypoint sleep vllm/vllm-openai:v0.30.0 infinity\r\n"
        "docker run -d --name=cache -e VLLM_RPC_TIMEOUT=5 redis:7\r\n"
        "ssh gpu01 \"docker exec -e VLLM_LOGGING_LEVEL=INFO vllm-box vllm serve Qwen/Qwen3-8B --port 8000\"\r\n"
        "docker exec -it vllm-box vllm serve Qwen/Qwen3-0.6B\r\n"
        "docker exec elsewhere vllm serve Qwen/Qwen3-1.7B\r\n"
    )
    src = SourceFile.from_text("box.sh", text)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert [l.args[0].value for l in ex.launches] == ["Qwen/Qwen3-8B", "Qwen/Qwen3-0.6B", "Qwen/Qwen3-1.7B"]
    env = [[(e.name.value, e.value.value) for e in l.env] for l in ex.launches]
    # the exec's own -e wins over the run's; a container run by no ``docker run`` here has none
    assert env == [
        [("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1"), ("VLLM_LOGGING_LEVEL", "INFO")],
        [("VLLM_LOGGING_LEVEL", "DEBUG"), ("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")],
        [],
    ]
    inherited = ex.launches[1].env[0].value
    assert text[inherited.span.start : inherited.span.end] == "DEBUG"  # placed at the docker run's -e
    # the release pin is the image the container runs
    assert [l.version_hint.version if l.version_hint else None for l in ex.launches] == ["v0.30.0", "v0.30.0", None]
    assert text[ex.launches[1].version_hint.span.start : ex.launches[1].version_hint.span.end] == "v0.30.0"


FORWARDED = """\
./launch-cluster.sh exec vllm serve \\
  QuantTrio/MiniMax-M2-AWQ \\
  --port 8000 --max-num-seq 8
./launch-cluster.sh --apply-mod ./mods/fix-glm \\
  exec vllm serve Salyut1/GLM-4.7-NVFP4 --tool-call-parser glm47
bash scripts/run_node.sh --role head -- vllm serve Qwen/Qwen3-8B -tp 2
zsh tools/serve_node.sh --gpus 2 -- vllm serve Qwen/Qwen3-32B -tp 2
echo vllm serve Qwen/Qwen3-8B --port 1
pkill -f vllm serve
helper exec vllm serve Qwen/Qwen3-8B --port 2
"""


def test_vllm_serve_handed_to_a_script_of_the_repository_is_a_weak_launch(tmp_path) -> None:
    """``./launch-cluster.sh exec vllm serve MODEL ...``: a script of the repository (a
    relative path, a ``.sh`` name, after a shell such as ``bash`` or ``zsh``) handed the words ``vllm serve`` runs them.
    Weak evidence: the launch is checked and reported, never edited.  Programs that only take
    the words (``echo``, ``pkill``) and commands that are not the repository's scripts are
    not launches."""
    from tests.rules.lint_helpers import lint

    src = SourceFile.from_text("README.sh", FORWARDED)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    assert [(values(launch.args)[0], launch.strong) for launch in ex.launches] == [
        ("QuantTrio/MiniMax-M2-AWQ", False), ("Salyut1/GLM-4.7-NVFP4", False), ("Qwen/Qwen3-8B", False),
        ("Qwen/Qwen3-32B", False),
    ]
    assert ex.launches[0].evidence == "`vllm serve` words handed to the script ./launch-cluster.sh"
    result = lint(tmp_path, "run.sh", FORWARDED, "shell", target="0.33")
    [d] = result.diagnostics
    assert d.code == "VL201" and FORWARDED[d.span.start : d.span.end] == "--max-num-seq" and d.fix is None  # never edited


CLUSTER = """\
#!/usr/bin/env bash
# Start the model server on whatever this node offers.
MODEL=Qwen/Qwen3-8B
screen -dmS vllm vllm serve "$MODEL" --port 8000
flock -w 600 /tmp/gpu0.lock vllm serve "$MODEL" --port 8001
caffeinate -i -t 3600 vllm serve "$MODEL" --port 8002
uvx --from 'vllm==0.30.0' vllm serve "$MODEL" --port 8003
uv tool run --python 3.12 vllm serve "$MODEL" --port 8004
kubectl exec -n llm -it deploy/vllm -c server -- vllm serve "$MODEL" --port 8005
docker compose -f compose.gpu.yaml run --rm -e VLLM_LOGGING_LEVEL=DEBUG -p 8006:8006 vllm vllm serve "$MODEL" --port 8006
docker-compose exec -T vllm python3 -m vllm.entrypoints.openai.api_server --model "$MODEL" --port 8007
apptainer exec --nv --bind /scratch:/scratch docker://vllm/vllm-openai:v0.30.0 vllm serve "$MODEL" --port 8008
singularity run --nv docker://vllm/vllm-openai:v0.31.0 --model "$MODEL" --port 8009
singularity exec --nv --env VLLM_USE_V1=1 vllm.sif vllm serve "$MODEL" --port 8010
sbatch -p gpu --gres=gpu:1 --wrap "vllm serve $MODEL --port 8011" -o serve.log
sbatch --wrap="vllm serve $MODEL --port 8012"
screen -ls
kubectl exec deploy/vllm -- cat /etc/vllm/config.yaml
docker compose run --entrypoint sh vllm -c 'echo vllm serve'
apptainer run my-llm.sif --model "$MODEL" --port 9000
sbatch --wrap "python train.py --port 9001"
"""


def test_cluster_and_session_programs_that_run_vllm() -> None:
    """screen, flock, caffeinate, uvx / ``uv tool run``, ``kubectl exec``, ``docker compose
    run/exec``, apptainer and singularity (``exec`` runs the command; ``run`` hands the
    arguments to a vLLM image's entrypoint) and ``sbatch --wrap`` run the vLLM command they
    are given.  The ones that run something else, or an image not known to be vLLM's, are no
    launch."""
    src = SourceFile.from_text("serve.sh", CLUSTER)
    ex = shell.extract(src)
    for launch in ex.launches:
        check_launch(src, launch)
    got = [(l.entrypoint, values(l.args)[-1]) for l in ex.launches]
    assert got == [
        ("vllm serve", "8000"), ("vllm serve", "8001"), ("vllm serve", "8002"), ("vllm serve", "8003"),
        ("vllm serve", "8004"), ("vllm serve", "8005"), ("vllm serve", "8006"), ("api_server", "8007"),
        ("vllm serve", "8008"), ("image", "8009"), ("vllm serve", "8010"), ("vllm serve", "8011"), ("vllm serve", "8012"),
    ]
    assert all(values(l.args)[0] in ("Qwen/Qwen3-8B", "--model") for l in ex.launches)
    compose, pulled, run = ex.launches[6], ex.launches[8], ex.launches[9]
    assert [(e.name.value, e.value.value) for e in compose.env] == [("VLLM_LOGGING_LEVEL", "DEBUG")]
    assert pulled.image.value == "vllm/vllm-openai:v0.30.0" and pulled.version_hint.version == "v0.30.0"
    assert CLUSTER[pulled.version_hint.span.start : pulled.version_hint.span.end] == "v0.30.0"
    assert run.image.value == "vllm/vllm-openai:v0.31.0" and values(run.args) == ["--model", "Qwen/Qwen3-8B", "--port", "8009"]
    assert [(e.name.value, e.value.value) for e in ex.launches[10].env] == [("VLLM_USE_V1", "1")]
    wrapped = ex.launches[11].args[-1]
    assert wrapped.value_start is not None and CLUSTER[wrapped.value_start : wrapped.value_start + 4] == "8011"
def test_a_command_that_asks_for_help_starts_no_server() -> None:
    """``vllm serve --help=all`` (vLLM's CLI guide: ``--help=ModelConfig``, ``--help=max``),
    ``-h``, ``--help`` print the options and exit: no launch, so no "--help takes no value".
    ``--help`` after ``--`` or as an unknown word is not asking."""
    text = (
        "vllm serve --help=all\n"
        "vllm serve Qwen/Qwen3-8B --help=max-num-seqs\n"
        "vllm serve -h\n"
        "python -m vllm.entrypoints.openai.api_server --help\n"
        "vllm serve Qwen/Qwen3-8B --max-model-len 8192\n"
    )
    src = SourceFile.from_text("run.sh", text)
    ex = shell.extract(src)
    assert [values(l.args) for l in ex.launches] == [["Qwen/Qwen3-8B", "--max-model-len", "8192"]]
