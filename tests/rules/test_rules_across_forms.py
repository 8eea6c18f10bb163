"""Each argv rule on every source form it can occur in, at both edges of its release range.

One command line is written out as a shell script, a Kubernetes pod, a compose
file (list and string command), a Dockerfile, a GitHub Actions step, a Markdown
block and a Python subprocess call, always with opaque tokens around it
(`$EXTRA`, `$(EXTRA)`, `${{ matrix.x }}`, f-strings) that must not cause reports.
The rule must report the same option, at the option's own text, in every form.
"""

from __future__ import annotations

import pytest

from tests.rules.lint_helpers import have, lint

pytestmark = pytest.mark.skipif(not have("0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0"), reason="inventories not generated")

MODEL = "Qwen/Qwen3-Next-80B-A3B-Instruct"


def _shell(args):
    return "shell", "serve.sh", "#!/bin/bash\nexec vllm serve " + MODEL + " " + " ".join(args) + " $EXTRA_ARGS\n"


def _k8s(args):
    items = "".join(f'            - "{a}"\n' for a in [MODEL, *args])
    return "yaml", "pod.yaml", (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n"
        "      image: vllm/vllm-openai:latest\n      args:\n" + items.replace("            ", "        ") + '        - "$(EXTRA)"\n'
    )


def _compose_list(args):
    quoted = ", ".join(f'"{a}"' for a in [MODEL, *args, "${EXTRA:-}"])
    return "yaml", "compose.yaml", f"services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    command: [{quoted}]\n"


def _compose_string(args):
    return "yaml", "compose.yaml", "services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    command: " + " ".join([MODEL, *args]) + "\n"


def _dockerfile(args):
    quoted = ", ".join(f'"{a}"' for a in [MODEL, *args])
    return "dockerfile", "Dockerfile", f"FROM vllm/vllm-openai:latest\nARG EXTRA\nCMD [{quoted}]\n"


def _actions(args):
    return "yaml", "ci.yaml", (
        "name: smoke\non: [push]\njobs:\n  serve:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n"
        "          vllm serve " + MODEL + " " + " ".join(args) + " ${{ matrix.extra }}\n"
    )


def _markdown(args):
    return "markdown", "README.md", "# Serving\n\n```bash\nvllm serve " + MODEL + " " + " ".join(args) + " $EXTRA\n```\n"


def _python(args):
    items = ", ".join(f'"{a}"' for a in ["vllm", "serve", MODEL, *args])
    return "python", "launch.py", f"import subprocess\nextra = []\nsubprocess.run([{items}, *extra], check=True)\n"


FORMS = [_shell, _k8s, _compose_list, _compose_string, _dockerfile, _actions, _markdown, _python]

# (rule, argv after the model, the option text the rule flags, release without report, release with report)
CASES = [
    ("VL102", ["--enable-mamba-fine-grained-prefix-cache"], "--enable-mamba-fine-grained-prefix-cache", "0.30", "0.31"),
    ("VL105", ["--enable-mamba-shared-prefix-checkpoint"], "--enable-mamba-shared-prefix-checkpoint", "0.31", "0.30"),
    ("VL101", ["--disable-log-requests"], "--disable-log-requests", "0.33", "0.32"),
    ("VL301", ["--mamba-cache-mode", "all"], "all", "0.29", "0.32"),
    ("VL108", ["--mamba-block-size", "256"], "--mamba-block-size", "0.31", "0.32"),
    ("VL201", ["--max-num-seq", "64"], "--max-num-seq", None, "0.32"),
    ("VL202", ["--enable-chunked"], "--enable-chunked", "0.32", "0.33"),
    ("VL104", ["--max-model-length", "8192"], "--max-model-length", None, "0.33"),
    ("VL106", ["--kv-cache-dtype", "fp9"], "fp9", None, "0.32"),
]


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("code,args,text,quiet,loud", CASES, ids=[c[0] for c in CASES])
def test_rule_in_every_form(tmp_path, form, code, args, text, quiet, loud):
    kind, name, content = form(args)
    r = lint(tmp_path, name, content, kind, loud)
    hits = [d for d in r.diagnostics if d.code == code]
    assert len(hits) == 1, [(d.code, d.message) for d in r.diagnostics]
    flagged = content[hits[0].span.start : hits[0].span.end]
    assert flagged.strip("\"'") == text, flagged
    # nothing else is reported: the opaque tokens around the option stay silent
    others = [(d.code, d.message) for d in r.diagnostics if d.code not in (code, "VL601")]
    allowed = {"VL301": {"VL108"}, "VL108": set(), "VL201": set()}.get(code, set())
    assert all(c in allowed for c, _ in others), others
    if quiet is not None:
        r = lint(tmp_path, name, content, kind, quiet)
        assert code not in [d.code for d in r.diagnostics], [(d.code, d.message) for d in r.diagnostics]


def _llm(settings):
    body = ", ".join(f"{k.replace('-', '_')}={v!r}" if not isinstance(v, bool) else f"{k.replace('-', '_')}={v}" for k, v in settings)
    return "python", "offline.py", f"from vllm import LLM\nimport os\nllm = LLM(model=os.environ['MODEL'], {body})\n"


def _config(settings):
    lines = "".join(f"{k}: {str(v).lower() if isinstance(v, bool) else v}\n" for k, v in settings)
    return "yaml", "serve-config.yaml", f"model: {MODEL}\nmax-num-seqs: 16\n{lines}"


KEYWORD_CASES = [
    ("VL102", [("enable-mamba-fine-grained-prefix-cache", True)], "enable", "0.30", "0.31"),
    ("VL301", [("mamba-cache-mode", "all")], "all", "0.29", "0.32"),
    ("VL108", [("mamba-block-size", 256)], "mamba", "0.31", "0.32"),
    ("VL106", [("kv-cache-dtype", "fp9")], "fp9", None, "0.32"),
]


@pytest.mark.parametrize("form", [_llm, _config], ids=["LLM", "config"])
@pytest.mark.parametrize("code,settings,starts,quiet,loud", KEYWORD_CASES, ids=[c[0] for c in KEYWORD_CASES])
def test_rule_in_keyword_forms(tmp_path, form, code, settings, starts, quiet, loud):
    kind, name, content = form(settings)
    r = lint(tmp_path, name, content, kind, loud)
    hits = [d for d in r.diagnostics if d.code == code]
    assert len(hits) == 1, [(d.code, d.message) for d in r.diagnostics]
    assert content[hits[0].span.start : hits[0].span.end].strip("'\"").startswith(starts)
    if quiet is not None:
        assert code not in [d.code for d in lint(tmp_path, name, content, kind, quiet).diagnostics]


def test_abbreviation_in_a_config_file_but_not_in_python_keywords(tmp_path):
    kind, name, content = _config([("max-num-batched", 8192)])
    r = lint(tmp_path, name, content, kind, "0.32")
    assert [content[d.span.start : d.span.end] for d in r.diagnostics if d.code == "VL201"] == ["max-num-batched"]
    # EngineArgs keywords are exact dataclass fields: a prefix is simply unknown
    kind, name, content = _llm([("max-num-batched", 8192)])
    codes = [d.code for d in lint(tmp_path, name, content, kind, "0.32").diagnostics]
    assert codes == ["VL104"]
