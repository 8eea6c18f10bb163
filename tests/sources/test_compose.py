"""docker-compose: string and list commands, entrypoints, environment, image entrypoints."""

from __future__ import annotations

from linter.launch import Span
from linter.source_file import SourceFile
from linter.sources.words import split_words
from linter.sources import compose
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch, check_token, values


def _extract(text: str):
    src = SourceFile.from_text("docker-compose.yml", text)
    out = yaml_source.extract(src)
    for launch in out.launches:
        check_launch(src, launch)
    return src, out


def test_string_command_is_split_like_shlex_with_places():
    text = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.9.1
    command: --model ${MODEL} --gpu-memory-utilization 0.6 --chat-template "a b" --x='{"k":1}'
    environment:
      VLLM_LOGGING_LEVEL: DEBUG
      HF_TOKEN: ${HF_TOKEN}
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.kind == "compose" and launch.entrypoint == "image"
    assert values(launch.args) == ["--model", "${MODEL}", "--gpu-memory-utilization", "0.6", "--chat-template", "a b", '--x={"k":1}']
    model = launch.args[1]
    assert model.opaque == ((0, 8),) and model.splat  # an unquoted variable may split into words
    check_token(src, launch.args[3], "0.6")
    assert launch.args[3].editable
    check_token(src, launch.args[5], '"a b"')
    assert launch.args[5].value_start == launch.args[5].span.start + 1  # inside the quotes
    assert [e.name.value for e in launch.env] == ["VLLM_LOGGING_LEVEL"]
    assert launch.version_hint.version == "v0.9.1"


def test_list_command_and_entrypoint_join():
    text = """\
services:
  api:
    image: python:3.12
    entrypoint: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    command: ["--model", "m", "--max-model-len 4096"]
    environment:
      - VLLM_USE_V1=0
      - OTHER=1
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.entrypoint == "api_server"
    assert values(launch.args) == ["--model", "m", "--max-model-len 4096"]
    (env,) = launch.env
    check_token(src, env.name, "VLLM_USE_V1")
    check_token(src, env.value, "0")


def test_entrypoint_string_with_bash_c():
    text = """\
services:
  cpu:
    image: opea/vllm-cpu:latest
    entrypoint: /bin/bash -c "export VLLM_CPU_KVCACHE_SPACE=50 && python3 -m vllm.entrypoints.openai.api_server --model m --port 80"
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.entrypoint == "api_server"
    assert values(launch.args) == ["--model", "m", "--port", "80"]
    check_token(src, launch.args[2], "--port")
    assert launch.args[2].editable


def test_folded_command_is_placed_exactly_and_editable():
    text = """\
services:
  qwen:
    image: vllm/vllm-openai:v0.10.1
    command: >
      --model Qwen/Qwen3-30B
      --max-model-len 262144
"""
    src, out = _extract(text)
    (launch,) = out.launches
    assert launch.editable and launch.folds == [Span(text.index(">"), len(text))]
    assert values(launch.args) == ["--model", "Qwen/Qwen3-30B", "--max-model-len", "262144"]
    assert src.text[launch.args[2].span.start : launch.args[2].span.end] == "--max-model-len"
    for tok in launch.args:
        assert tok.editable and src.text[tok.value_start : tok.value_start + len(tok.value)] == tok.value


def test_folded_command_whose_lines_cannot_be_placed_is_not_editable():
    from linter.sources.yaml_nodes import compose_documents
    from linter.sources.yaml_scalars import approximate

    text = "command: >\n  --model m\n  --max-model-len 8\n"
    (doc,), _ = compose_documents(text)
    node = doc.value[0][1]
    assert not approximate(text, node)
    node.value = "--model m --max-model-len 9\n"  # a value the lines do not spell
    assert approximate(text, node)


def test_split_words_rules():
    text = "x"
    from linter.offset_map import OffsetMap

    value = "a 'b c' \"d\\\"e\" f\\ g $$h"
    words = split_words(value, value, OffsetMap.identity(0, len(value)))
    assert [w.value for w in words] == ["a", "b c", 'd"e', "f g", "$$h"]
    assert words[0].editable and not words[2].editable
    del text


def test_non_vllm_service_is_ignored():
    _src, out = _extract("services:\n  redis:\n    image: redis:7\n    command: redis-server --save 60 1\n")
    assert out.launches == []


def test_compose_extract_directly():
    out = compose.extract(SourceFile.from_text("c.yml", "services:\n  v:\n    image: vllm/vllm-openai\n    command: [--model, m]\n"))
    assert values(out.launches[0].args) == ["--model", "m"]


MERGED = """\
x-vllm: &vllm
  image: vllm/vllm-openai:v0.30.0
  ipc: host
  environment:
    VLLM_LOGGING_LEVEL: DEBUG
services:
  chat:
    <<: *vllm
    command: >
      --model ${MODEL:-Qwen/Qwen3-8B}
      --max-model-len ${MAX_LEN:-8192}
      --swap-space 4
  embed:
    <<: *vllm
    entrypoint: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    command: ["--model", "${EMBED_MODEL}", "--port", "8001", "--max-num-seq", "8"]
  proxy:
    image: nginx:1.27
    command: ["nginx", "-g", "daemon off;"]
"""


def test_services_merging_an_anchor_get_its_image_and_environment(tmp_path):
    """``<<: *vllm`` (a YAML merge key, as compose reads it) gives each service the anchor's
    image, so its command is the vLLM image's arguments, pinned by its tag."""
    src, out = _extract(MERGED)
    chat, embed = out.launches
    assert chat.entrypoint == "image" and chat.version_hint.version == "v0.30.0"
    assert values(chat.args)[-2:] == ["--swap-space", "4"]
    assert embed.entrypoint == "api_server" and embed.version_hint.version == "v0.30.0"
    assert [e.name.value for e in chat.env] == ["VLLM_LOGGING_LEVEL"]


def test_a_finding_in_shared_anchor_text_is_reported_once(tmp_path):
    from tests.rules.lint_helpers import codes, fixed, lint

    text = "x-vllm: &vllm\n  image: vllm/vllm-openai:v0.33.0\n  command: [\"Qwen/Qwen3-8B\", \"--max-num-seq\", \"8\"]\nservices:\n  a:\n    <<: *vllm\n  b:\n    <<: *vllm\n    ports: [\"8001:8000\"]\n"
    assert codes(lint(tmp_path, "compose.yaml", text, "yaml")) == ["VL201"]
    assert fixed(tmp_path, "compose.yaml", text, "yaml", "0.33") == text.replace('"--max-num-seq"', '"--max-num-seqs"')


def test_image_named_like_vllm_running_a_program_of_its_own_is_not_vllm():
    # an image whose name merely says vLLM runs its own entrypoint: its command is vLLM's
    # arguments only when it reads as them, not when it names a program of its own
    text = """\
services:
  ray-worker:
    image: example/ray-worker-vllm:latest
    command: >
      ray start
      --address=ray-head:6379
      --block
  omni:
    image: local/vllm-omni:dev
    build:
      context: ./vllm-omni
    command: [vllm-omni, serve, Qwen/Qwen3-Omni, --host, 0.0.0.0, --port, "8000"]
  cpu:
    image: vllm-cpu-env:latest
    command: Qwen/Qwen3-1.7B --dtype float16 --max-model-len 16384
  cpu-variable-model:
    image: vllm-cpu-env:latest
    command: ${MODEL:-Qwen/Qwen3-1.7B} --dtype float16
  built:
    build:
      context: ../vllm
      dockerfile: docker/Dockerfile.cpu
    command: ["--model", "m", "--port", "8001"]
"""
    src, out = _extract(text)
    assert [(l.entrypoint, values(l.args)) for l in out.launches] == [
        ("image", ["Qwen/Qwen3-1.7B", "--dtype", "float16", "--max-model-len", "16384"]),
        ("image", ["${MODEL:-Qwen/Qwen3-1.7B}", "--dtype", "float16"]),
        ("image", ["--model", "m", "--port", "8001"]),
    ]


def test_environment_merging_an_anchor_gets_its_variables_never_edited_for_one_service(tmp_path):
    # `environment: {<<: *env, ...}`: the anchor's variables are each service's; written once
    # for all of them, they are reported there but not moved into one service's command
    from tests.rules.lint_helpers import codes, fixed, lint

    text = """\
x-env: &env
  VLLM_ATTENTION_BACKEND: FLASH_ATTN
  VLLM_LOGGING_LEVEL: INFO
services:
  a:
    image: vllm/vllm-openai:v0.33.0
    environment:
      <<: *env
      VLLM_USE_V1: "1"
    command: ["Qwen/Qwen3-8B", "--port", "8000"]
  b:
    image: vllm/vllm-openai:v0.33.0
    environment:
      <<: *env
    command: ["Qwen/Qwen3-8B", "--port", "8001"]
"""
    src, out = _extract(text)
    a, b = out.launches
    assert [e.name.value for e in a.env] == ["VLLM_USE_V1", "VLLM_ATTENTION_BACKEND", "VLLM_LOGGING_LEVEL"]
    assert [e.name.value for e in b.env] == ["VLLM_ATTENTION_BACKEND", "VLLM_LOGGING_LEVEL"]
    merged = b.env[0]
    check_token(src, merged.name, "VLLM_ATTENTION_BACKEND")
    assert not merged.name.editable and a.env[0].name.editable
    assert "VL701" in codes(lint(tmp_path, "compose.yaml", text, "yaml"))
    assert "VLLM_ATTENTION_BACKEND: FLASH_ATTN" in fixed(tmp_path, "compose.yaml", text, "yaml", "0.33")


def test_bind_mounts_of_the_tree_are_kept_for_a_config_named_in_the_container():
    text = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.33.0
    volumes:
      - ./configs/vllm.yaml:/etc/vllm/config.yaml:ro
      - hf-cache:/root/.cache/huggingface
      - ~/.cache/vllm:/root/.cache/vllm
      - ${MODELS}:/models
      - type: bind
        source: ./templates
        target: /templates
    command: [Qwen/Qwen3-8B, --config, /etc/vllm/config.yaml]
"""
    _src, out = _extract(text)
    (launch,) = out.launches
    assert launch.mounts == [("/etc/vllm/config.yaml", "./configs/vllm.yaml"), ("/templates", "./templates")]
def test_services_shown_without_their_services_key_are_read_as_services():
    """A guide shows the service to add under ``services:`` without that key: the entry's
    entrypoint and command are one launch (the entrypoint alone was read as a bare
    ``vllm serve``, its command lost).  A chart's values (scalars beside the mappings, images
    as mappings) are not services."""
    fragment = """\
  vllm-embedding:
    image: vllm/vllm-openai:v0.31.0
    entrypoint: ["vllm", "serve"]
    command: >
      BAAI/bge-m3
      --runner pooling
      --max-model-len 2000
    environment:
      VLLM_LOGGING_LEVEL: INFO
  qdrant:
    image: qdrant/qdrant:v1.12.4
"""
    _src, out = _extract(fragment)
    (launch,) = out.launches
    assert launch.entrypoint == "vllm serve"
    assert values(launch.args) == ["BAAI/bge-m3", "--runner", "pooling", "--max-model-len", "2000"]
    assert [(e.name.value, e.value.value) for e in launch.env] == [("VLLM_LOGGING_LEVEL", "INFO")]
    assert launch.version_hint is not None and launch.version_hint.version == "v0.31.0"
    values_file = "replicaCount: 1\nserver:\n  image:\n    repository: vllm/vllm-openai\n  command: [vllm, serve]\n"
    assert not any(l.entrypoint == "vllm serve" and l.args for l in _extract(values_file)[1].launches)
