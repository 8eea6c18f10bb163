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


def test_mask_expressions_same_length():
    script = "echo ${{ a.b }} x"
    masked, ranges = actions.mask_expressions(script)
    assert len(masked) == len(script) and ranges == [(5, 15)] and "{{" not in masked
