"""Every real YAML file of the shared corpus: no exception, launches found, exact tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from linter.source_file import SourceFile
from linter.sources import yaml as yaml_source

from tests.sources.token_checks import check_launch

CORPUS_DIR = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"
CORPUS = CORPUS_DIR / "tree"


def _annotated() -> dict[str, bool]:
    """tree path (relative to the corpus folder) -> whether its hand annotation lists options its
    launches pass (``notable_flags`` is empty for a file with no launch): the oracle."""
    table = CORPUS_DIR / "CORPUS.tsv"
    if not table.exists():
        return {}
    rows = [line.split("\t") for line in table.read_text(encoding="utf-8").splitlines()]
    head = rows[0]
    at, flags = head.index("tree_file"), head.index("notable_flags")
    return {r[at]: bool(r[flags].strip()) for r in rows[1:] if len(r) > flags}


ANNOTATED = _annotated()
FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix.lower() in (".yaml", ".yml")) if CORPUS.exists() else []

# Files whose annotation lists a launch that the file reader alone does not find, and why (the
# annotation is right; these need more than one file, or are lost to invalid input).
NOT_FROM_THE_FILE_ALONE = {
    # kubectl rejects it too: a block sequence less indented than its key (line 37); reported as VL001
    "tree/GoogleCloudPlatform__kubernetes-engine-samples/ai-ml/gke-model-armor/preparing-the-model/vllm-gemma-deployment.yaml",
    # runs KServe's own 'python -m huggingfaceserver' wrapper, which starts vLLM with these flags
    "tree/kserve__kserve/config/runtimes/kserve-huggingfaceserver-multinode.yaml",
    # runs NVIDIA Dynamo's 'python3 -m dynamo.vllm' wrapper, which passes its flags to vLLM
    "tree/vllm-project__aibrix/brixbench/benchmark/testdata/deployments/dynamo/qwen3-8b-round-robin-1p1d-tp2-vke.yaml",
    # vLLM is started by vllm-entrypoint.sh, a script defined in another template of the chart
    "tree/vllm-project__production-stack/helm/templates/ray-cluster.yaml",
    # an InferenceService whose runtime (another template) runs vLLM; only `--served-model-name` is here
    "tree/redhat-ai-services__helm-charts/charts/vllm-kserve/templates/inferenceservice.yaml",
}


def _id(p: Path) -> str:
    return p.relative_to(CORPUS).as_posix()


def _rel(p: Path) -> str:
    return "tree/" + _id(p)


@pytest.mark.skipif(not FILES, reason="shared corpus not present")
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_corpus_file(path: Path) -> None:
    from linter import engine, kinds

    src = SourceFile.from_bytes(str(path), path.read_bytes())
    kind = kinds.classify(str(path), path.read_bytes()[:512]) or "yaml"
    out = engine.extract(src, kind)
    for launch in out.launches:
        check_launch(src, launch)
        assert launch.span.end <= len(src.text)
    for problem in out.problems:
        assert 0 <= problem.span.start <= problem.span.end <= len(src.text)
    rel = _rel(path)
    if rel not in ANNOTATED:
        return  # a file the annotation does not cover (a config a launch names, a values file)
    if not ANNOTATED[rel]:
        assert not [l for l in out.launches if l.strong], "a strong launch in a file annotated as holding none"
    elif rel not in NOT_FROM_THE_FILE_ALONE:
        assert out.launches, "no launch found"


@pytest.mark.skipif(not FILES, reason="shared corpus not present")
def test_exception_list_names_real_files() -> None:
    assert NOT_FROM_THE_FILE_ALONE <= {_rel(p) for p in FILES}


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
