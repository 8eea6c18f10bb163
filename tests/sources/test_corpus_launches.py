"""Every real YAML file of the shared corpus: no exception, launches found, exact tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.source_file import SourceFile
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "files"
FILES = sorted(p for p in CORPUS.glob("*/*") if p.is_file()) if CORPUS.exists() else []

# Files in which no launch is expected, and why.
NO_LAUNCH = {
    # PyYAML rejects these (the whole document is unreadable): reported as a YAML parse error problem.
    "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__gke-model-armor__preparing-the-model__vllm-gemma-deployment.yaml":
        "parse error: a block sequence less indented than its key (line 37)",
    "vllm-project__aibrix/test__regression__v0.4.0__templates___helpers.tpl":
        "Helm named-template definitions, not a YAML document",
    # vLLM is started by Python code (Ray Serve); the file only pins vllm== in a pip list.
    "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__gke-ray__rayserve__llm__llama-3-8b__ray-service.yaml":
        "Ray Serve application in Python; only a vllm== pip pin",
    "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__gke-ray__rayserve__llm__model-multiplexing__ray-service.yaml":
        "Ray Serve application in Python; only a vllm== pip pin",
    "substratusai__kubeai/charts__kubeai__values.yaml":
        "only lists which image each engine uses",
    "kserve__kserve/config__runtimes__kserve-huggingfaceserver-multinode.yaml":
        "runs KServe's own 'python -m huggingfaceserver' wrapper, not a vLLM entrypoint",
    "vllm-project__aibrix/brixbench__benchmark__testdata__deployments__dynamo__qwen3-8b-round-robin-1p1d-tp2-vke.yaml":
        "runs NVIDIA Dynamo's 'python3 -m dynamo.vllm' wrapper, not a vLLM entrypoint",
    "neosun100__kimi-linear-vllm-docker-serve/examples__online_serving__chart-helm__templates__deployment.yaml":
        "command and args come from values through toYaml",
    "vllm-project__production-stack/helm__templates__ray-cluster.yaml":
        "vLLM is started by vllm-entrypoint.sh, a script defined in another template",
    "muhac__llm-actions/.github__workflows__test.yml":
        "calls the repository's own composite action; the docker run is in action.yml",
    # Nothing to check: every word is a ``${VAR}``, an overlay swaps only the entrypoint,
    # KubeRay nodes (whose command KubeRay sets to ``ray start``) of a vLLM image.
    "av__harbor/services__compose.vllm.yml": "command made of ${VARS} only",
    "av__harbor/services__compose.x.vllm.rocm.yml": "an overlay that only swaps the entrypoint",
    "vllm-project__aibrix/development__tutorials__distributed__raycluster.yaml": "KubeRay head and workers of a vLLM image, no command",
    "runpod-workers__worker-vllm/.github__workflows__test.yml":
        "runs a Python script in the vLLM image (--entrypoint python3) to dump flags; no server start",
}


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_corpus_file(path: Path) -> None:
    src = SourceFile.from_bytes(str(path), path.read_bytes())
    out = yaml_source.extract(src)
    for launch in out.launches:
        check_launch(src, launch)
        assert launch.span.end <= len(src.text)
    for problem in out.problems:
        assert 0 <= problem.span.start <= problem.span.end <= len(src.text)
    name = _id(path)
    if name in NO_LAUNCH:
        assert not out.launches, f"now finds launches; remove it from NO_LAUNCH: {NO_LAUNCH[name]}"
    else:
        assert out.launches, "no launch found"


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_no_launch_list_names_real_files() -> None:
    names = {_id(p) for p in FILES}
    assert set(NO_LAUNCH) <= names


@pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")
def test_damaged_corpus_files_never_raise() -> None:
    """Truncated files, stray tabs and unclosed quotes/templates: problems, never exceptions."""
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        half = len(text) // 2
        for damaged in (text[:half], text[:half] + "\t" + text[half:], text[:half] + "'" + text[half:], text[:half] + "{{" + text[half:]):
            src = SourceFile.from_text(str(path), damaged)
            out = yaml_source.extract(src)
            for launch in out.launches:
                check_launch(src, launch)
