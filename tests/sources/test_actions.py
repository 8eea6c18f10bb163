"""GitHub Actions run steps and SkyPilot run/setup blocks, positions mapped back exactly."""

from __future__ import annotations

from linter.source_file import SourceFile
from linter.sources import actions
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch, check_token, values

WORKFLOW = """\
name: e2e
on:
  push:
env:
  VLLM_LOGGING_LEVEL: DEBUG
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: plain
        run: vllm serve facebook/opt-125m --max-model-len=2048 &
      - name: quoted
        run: "vllm serve m --port 8001 --dtype half"
      - name: block
        env:
          VLLM_USE_V1: "1"
        run: |
          pip install vllm==0.9.2
          python -m vllm.entrypoints.openai.api_server \\
            --model ${{ inputs.model }} \\
            --max-num-seqs 8 &
      - name: folded
        run: >
          vllm serve m
          --enforce-eager
"""


def _extract(text: str, path: str = ".github/workflows/e2e.yml"):
    src = SourceFile.from_text(path, text)
    out = yaml_source.extract(src)
    for launch in out.launches:
        check_launch(src, launch)
    return src, out


def test_run_steps_of_every_style():
    src, out = _extract(WORKFLOW)
    plain, quoted, block, folded = out.launches
    assert all(l.kind == "actions" for l in out.launches)
    check_token(src, plain.args[1], "--max-model-len=2048")
    assert plain.args[1].editable
    check_token(src, quoted.args[2], "8001")
    assert quoted.args[2].editable
    assert block.entrypoint == "api_server"
    assert values(block.args) == ["--model", "${{ inputs.model }}", "--max-num-seqs", "8"]
    expr = block.args[1]
    assert expr.is_opaque
    check_token(src, block.args[2], "--max-num-seqs")
    assert block.args[2].editable
    assert sorted(e.name.value for e in block.env) == ["VLLM_LOGGING_LEVEL", "VLLM_USE_V1"]
    # a folded block's lines are placed exactly: its words are editable, and it folds
    assert folded.editable and folded.folds
    check_token(src, folded.args[1], "--enforce-eager")
    assert folded.args[1].editable
    assert values(folded.args) == ["m", "--enforce-eager"]
    assert any(p.version == "0.9.2" for p in out.pins)


def test_composite_action():
    text = """\
name: llm
runs:
  using: composite
  steps:
    - shell: bash
      run: |
        nohup vllm serve "${{ inputs.model }}" --port 8000 > log 2>&1 &
"""
    _src, out = _extract(text, "action.yml")
    (launch,) = out.launches
    assert launch.args[0].is_opaque and values(launch.args)[1:] == ["--port", "8000"]


def test_skypilot_task():
    text = """\
resources:
  accelerators: A100:8
envs:
  MODEL_NAME: meta-llama/Llama-3.1-70B
  VLLM_ATTENTION_BACKEND: FLASHINFER
setup: |
  pip install vllm==0.6.3
run: |
  vllm serve $MODEL_NAME \\
    --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE \\
    --max-model-len 8192
"""
    src, out = _extract(text, "serve.sky.yaml")
    (launch,) = out.launches
    assert launch.kind == "skypilot"
    check_token(src, launch.args[-1], "8192")
    assert launch.args[-1].editable
    assert [e.name.value for e in launch.env] == ["VLLM_ATTENTION_BACKEND"]
    assert out.pins and out.pins[0].version == "0.6.3"


def test_skypilot_task_starting_the_python_of_an_environment_it_built():
    text = """\
resources:
  accelerators: L4:1
  ports: 8080
envs:
  LLM_MODEL: Qwen/Qwen2.5-0.5B-Instruct
setup: |
  pixi install -e vllm
run: |
  ENV_DIR="$HOME/sky_workdir/.pixi/envs/vllm"
  LD_PRELOAD="$ENV_DIR/lib/libstdc++.so.6" nohup "$ENV_DIR/bin/python" \\
    -m vllm.entrypoints.openai.api_server \\
    --model "${LLM_MODEL}" \\
    --host 0.0.0.0 --port 8080 \\
    > ~/vllm.log 2>&1 &
"""
    src, out = _extract(text, "sky.yaml")
    (launch,) = out.launches
    assert launch.kind == "skypilot" and launch.entrypoint == "api_server"
    assert values(launch.args) == ["--model", "${LLM_MODEL}", "--host", "0.0.0.0", "--port", "8080"]
    check_token(src, launch.args[-1], "8080")


def test_skypilot_task_in_a_vllm_image_is_pinned_by_its_tag():
    text = """\
name: qwen-serve
resources:
  cloud: kubernetes
  image_id: docker:vllm/vllm-openai:v0.11.0
  accelerators: H100:8
envs:
  MODEL_ID: Qwen/Qwen2.5-72B-Instruct
  ATTN: FLASHINFER
run: |
  vllm serve "${MODEL_ID}" \\
    --tensor-parallel-size 8 \\
    -O.attention_backend="${ATTN}" \\
    -O.cudagraph_mode=NONE
"""
    src, out = _extract(text, "serve.yaml")
    (launch,) = out.launches
    assert launch.version_hint is not None and launch.version_hint.version == "v0.11.0"
    assert src.text[launch.version_hint.span.start : launch.version_hint.span.end] == "v0.11.0"
    assert launch.image is not None and launch.image.value == "docker:vllm/vllm-openai:v0.11.0"
    # a VM image, or a container that is not vLLM's, pins nothing
    for image_id in ("projects/deeplearning-platform-release/global/images/common-cu124", "docker:lmcache/vllm-openai:v0.3.9"):
        _src, out2 = _extract(text.replace("docker:vllm/vllm-openai:v0.11.0", image_id), "serve.yaml")
        assert out2.launches[0].version_hint is None


def test_dotted_o_keys_of_the_pinned_release_are_one_compilation_config(tmp_path):
    """vLLM 0.11 reads ``-O.key=value`` as keys of ``-O`` (``--compilation-config``) and merges
    them (vllm/utils/__init__.py FlexibleArgumentParser.parse_args); an unknown value leaves the key known."""
    from tests.rules.lint_helpers import codes, lint

    text = """\
resources:
  image_id: docker:vllm/vllm-openai:v0.11.0
envs:
  ATTN: FLASHINFER
run: |
  vllm serve Qwen/Qwen2.5-7B-Instruct \\
    -O.attention_backend="${ATTN}" \\
    -O.cudagraph_mode=NONE \\
    --swap-space 4 \\
    --max-model-len 8192 --max-model-len 4096
"""
    result = lint(tmp_path, "serve.yaml", text, "yaml")
    assert codes(result) == ["VL205"]  # only the real repetition
    assert result.src.text[result.diagnostics[0].span.start : result.diagnostics[0].span.end] == "--max-model-len"


def test_mask_expressions_same_length():
    script = "echo ${{ a.b }} x"
    masked, ranges = actions.mask_expressions(script)
    assert len(masked) == len(script) and ranges == [(5, 15)] and "{{" not in masked
