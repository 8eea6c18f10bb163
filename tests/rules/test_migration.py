"""A migration that starts: after `--fix --unsafe-fixes --target-version X`, every launch of every
form is read by X's parser model with nothing left that stops the start, and the file still
parses as it did (the fixer's fix_check runs on every pass; an error would be in ``outcome.error``).

For each pair of releases with removals (the inventories' own, and the options the history saw
go before 0.28), every form gets a launch that uses the removed options beside options that
stay, and the fix must delete or replace exactly the removed ones.
"""

from __future__ import annotations

import pytest
from packaging.version import Version

from linter import argmodel, knowledge
from linter.diagnostic import Severity
from linter.discovery import classify
from linter.engine import Settings, extract, lint_source
from linter.fixer import fix_source
from linter.source_file import SourceFile
from rules._lib.base import all_rules

pytestmark = pytest.mark.skipif(len(knowledge.known_versions()) < 6, reason="inventories not generated")

# Options that releases before 0.28 accepted and nothing replaces (rules/data/history.json), and
# `--task`, whose values 0.11's model.py maps onto `--runner`.
HISTORY = [("--swap-space", "4"), ("--num-scheduler-steps", "8"), ("--max-seq-len-to-capture", "8192"),
           ("--use-v2-block-manager", None), ("--task", "generate"), ("--device", "cuda"),
           ("--disable-log-requests", None)]  # its successor is its negation: --no-enable-log-requests, enable_log_requests=False
KEPT = [("--max-model-len", "8192"), ("--port", "8000")]


def _pairs():
    out = []
    versions = knowledge.known_versions()
    for old, new in zip(versions, versions[1:]):
        a, b = knowledge.release(old), knowledge.release(new)
        gone = [(s.primary, "1" if s.takes_value else None) for s in a.options if not any(n in b.by_name for n in s.names)]
        if gone:
            out.append((str(old), str(new), gone))
    for new in versions:
        out.append(("0.10.0", str(new), HISTORY))
    return out


PAIRS = _pairs() if len(knowledge.known_versions()) >= 6 else []


def _argv(opts):
    out = []
    for name, value in opts:
        out.append(name)
        if value is not None:
            out.append(value)
    return out


def _interleave(removed):
    """The options as a launch mixes them: one kept option first, the removed ones, the other kept last."""
    return [KEPT[0], *removed, KEPT[1]]


def shell(opts, pin):
    lines = " \\\n  ".join(" ".join(x for x in (n, v) if x) for n, v in opts)
    return f"#!/bin/sh\n# pinned: vllm=={pin}\nvllm serve Qwen/Qwen3-8B \\\n  {lines}\n"


def shell_last(opts, pin):
    # the removed options end the command: the `\` before them must go too
    opts = [KEPT[0], KEPT[1], *opts[1:-1]]
    lines = " \\\n  ".join(" ".join(x for x in (n, v) if x) for n, v in opts)
    return f"#!/bin/sh\nvllm serve Qwen/Qwen3-8B \\\n  {lines}\necho started\n"


def k8s_block(opts, pin):
    items = "\n".join(f"            - {_yaml(a)}" for a in _argv(opts))
    return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n    spec:\n      containers:\n"
            f"        - name: vllm\n          image: vllm/vllm-openai:v{pin}\n          args:\n            - Qwen/Qwen3-8B\n{items}\n")


def k8s_flow(opts, pin):
    items = ", ".join(f'"{a}"' for a in _argv(opts))
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n"
            f"      image: vllm/vllm-openai:v{pin}\n      args: [\"Qwen/Qwen3-8B\", {items}]\n")


def k8s_sh_c(opts, pin):
    words = " ".join(_argv(opts))
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n"
            f"      image: vllm/vllm-openai:v{pin}\n      command: [\"/bin/sh\", \"-c\"]\n      args:\n"
            f"        - |\n          vllm serve Qwen/Qwen3-8B {words}\n")


def compose_string(opts, pin):
    return f"services:\n  vllm:\n    image: vllm/vllm-openai:v{pin}\n    command: Qwen/Qwen3-8B {' '.join(_argv(opts))}\n"


def compose_list(opts, pin):
    items = "\n".join(f"      - {_yaml(a)}" for a in _argv(opts))
    return f"services:\n  vllm:\n    image: vllm/vllm-openai:v{pin}\n    command:\n      - Qwen/Qwen3-8B\n{items}\n"


def dockerfile_exec(opts, pin):
    items = ", ".join(f'"{a}"' for a in _argv(opts))
    return f'FROM vllm/vllm-openai:v{pin}\nCMD ["Qwen/Qwen3-8B", {items}]\n'


def python_argv(opts, pin):
    items = ", ".join(f'"{a}"' for a in _argv(opts))
    return f'import subprocess\n\nsubprocess.run(["vllm", "serve", "Qwen/Qwen3-8B", {items}], check=True)\n'


def python_keywords(opts, pin):
    lines = []
    for name, value in opts:
        key = name.lstrip("-").replace("-", "_")
        if value is None:
            lines.append(f"    {key}=True,")
        elif value.isdigit():
            lines.append(f"    {key}={value},")
        else:
            lines.append(f'    {key}="{value}",')
    return "from vllm import LLM\n\nllm = LLM(\n    model=\"Qwen/Qwen3-8B\",\n" + "\n".join(lines) + "\n)\n"


def async_keywords(opts, pin):
    return python_keywords(opts, pin).replace("from vllm import LLM", "from vllm import AsyncEngineArgs").replace("llm = LLM(", "args = AsyncEngineArgs(")


def config_yaml(opts, pin):
    lines = [f"{n.lstrip('-')}: {_yaml(v) if v is not None else 'true'}" for n, v in opts]
    return "model: Qwen/Qwen3-8B\n" + "\n".join(lines) + "\n"


def config_json(opts, pin):
    items = [f'  "{n.lstrip("-")}": {v if v is not None and v.isdigit() else (chr(34) + v + chr(34) if v is not None else "true")}' for n, v in opts]
    return '{\n  "model": "Qwen/Qwen3-8B",\n' + ",\n".join(items) + "\n}\n"


def compose_folded(opts, pin):
    lines = "\n".join("      " + " ".join(x for x in (n, v) if x) for n, v in opts)
    return f"services:\n  vllm:\n    image: vllm/vllm-openai:v{pin}\n    command: >\n      Qwen/Qwen3-8B\n{lines}\n"


def k8s_folded_sh_c(opts, pin):
    lines = "\n".join("            " + " ".join(x for x in (n, v) if x) for n, v in opts)
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n"
            f"      image: vllm/vllm-openai:v{pin}\n      command: [\"/bin/sh\", \"-c\"]\n      args:\n"
            f"        - >-\n            vllm serve Qwen/Qwen3-8B\n{lines}\n")


def k8s_plain_lines(opts, pin):
    lines = "\n".join("            " + " ".join(x for x in (n, v) if x) for n, v in opts)
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n"
            f"      image: vllm/vllm-openai:v{pin}\n      command: [\"/bin/sh\", \"-c\"]\n      args:\n"
            f"        - vllm serve Qwen/Qwen3-8B\n{lines}\n")


def dockerfile_shell(opts, pin):
    lines = " \\\n    ".join(" ".join(x for x in (n, v) if x) for n, v in opts)
    return f"FROM vllm/vllm-openai:v{pin}\nENTRYPOINT vllm serve Qwen/Qwen3-8B \\\n    {lines}\n"


def dockerfile_entrypoint(opts, pin):
    items = ", ".join(f'"{a}"' for a in _argv(opts))
    return f'FROM vllm/vllm-openai:v{pin}\nENTRYPOINT ["vllm", "serve", "Qwen/Qwen3-8B", {items}]\n'


def docker_run(opts, pin):
    lines = " \\\n  ".join(" ".join(x for x in (n, v) if x) for n, v in opts)
    return f"#!/bin/sh\ndocker run --gpus all -p 8000:8000 vllm/vllm-openai:v{pin} Qwen/Qwen3-8B \\\n  {lines}\n"


def markdown(opts, pin):
    return "# Serving\n\n```bash\n" + shell(opts, pin).split("\n", 2)[2] + "```\n"


def _yaml(arg: str) -> str:
    return f'"{arg}"' if arg[:1].isdigit() or arg in ("true", "false") else arg


FORMS = {
    "serve.sh": ("shell", shell),
    "last.sh": ("shell", shell_last),
    "docker.sh": ("shell", docker_run),
    "deploy.yaml": ("k8s", k8s_block),
    "pod.yaml": ("k8s", k8s_flow),
    "shc.yaml": ("k8s", k8s_sh_c),
    "compose.yaml": ("compose", compose_string),
    "compose-list.yaml": ("compose", compose_list),
    "Dockerfile": ("dockerfile", dockerfile_exec),
    "shell.Dockerfile": ("dockerfile", dockerfile_shell),
    "entry.Dockerfile": ("dockerfile", dockerfile_entrypoint),
    "folded-compose.yaml": ("compose", compose_folded),
    "folded-shc.yaml": ("k8s", k8s_folded_sh_c),
    "lines-shc.yaml": ("k8s", k8s_plain_lines),
    "engine.py": ("python", async_keywords),
    "serve-config.yaml": ("vllm-config", config_yaml),
    "serve-config.json": ("vllm-config", config_json),
    "run.py": ("python", python_argv),
    "offline.py": ("python", python_keywords),
    "README.md": ("markdown", markdown),
}


def _fix(name: str, kind: str, text: str, target: str):
    if kind != "vllm-config":  # a --config file is that kind because a launch names it
        kind = classify(name, text.encode()[:512]) or kind  # the kind the CLI would read it as
    settings = Settings(target=Version(target))
    src = SourceFile(name, text)
    return fix_source(src, kind, settings, all_rules(), unsafe=True), settings


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("old,new,removed", PAIRS, ids=[f"{o}->{n}" for o, n, _ in PAIRS])
def test_fixed_launch_starts_on_the_target(form, old, new, removed):
    kind, make = FORMS[form]
    text = make(_interleave(removed), old)
    if kind != "vllm-config":
        kind = classify(form, text.encode()[:512]) or kind
    outcome, settings = _fix(form, kind, text, new)
    assert outcome.error is None, outcome.error
    fixed = outcome.fixed
    assert fixed != text
    # re-read with the target's parser model: every option is one the target knows
    release = knowledge.release(new)
    launches = [la for la in extract(SourceFile(form, fixed), kind).launches if la.program == "vllm"]
    assert launches, fixed
    for launch in launches:
        parsed = argmodel.parse(launch, release)
        unknown = [o.written for o in parsed.options if o.spec is None]
        assert not unknown, (unknown, fixed)
        kept = {o.spec.dest for o in parsed.options}
        assert {"max_model_len", "port"} <= kept, fixed
    # and nothing that stops the start is left
    result = lint_source(SourceFile(form, fixed), kind, settings, all_rules())
    errors = [(d.code, d.message) for d in result.diagnostics if d.severity == Severity.ERROR]
    assert not errors, (errors, fixed)
    # a second run changes nothing
    again, _ = _fix(form, kind, fixed, new)
    assert again.fixed == fixed


def test_shell_continuation_is_not_left_dangling():
    text = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B \\\n  --max-model-len 8192 \\\n  --swap-space 4 \\\n  --num-scheduler-steps 8\necho done\n"
    outcome, _ = _fix("serve.sh", "shell", text, "0.33.0")
    assert outcome.fixed == "#!/bin/sh\nvllm serve Qwen/Qwen3-8B \\\n  --max-model-len 8192\necho done\n"


def test_config_keys_and_python_keywords_go_with_their_lines():
    cfg = "model: Qwen/Qwen3-8B\nswap-space: 4   # GiB of CPU swap\nmax-model-len: 8192\nnum-scheduler-steps: 1\n"
    # a file named by a launch's --config is a vLLM config file (strong evidence), fixed as one
    settings = Settings(target=Version("0.33.0"))
    outcome = fix_source(SourceFile("serve-config.yaml", cfg), "vllm-config", settings, all_rules(), unsafe=True)
    assert outcome.error is None and outcome.fixed == "model: Qwen/Qwen3-8B\nmax-model-len: 8192\n", outcome.fixed
    py = 'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", swap_space=4, max_model_len=8192, task="embed")\n'
    outcome, _ = _fix("offline.py", "python", py, "0.33.0")
    assert outcome.fixed == 'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192, runner="pooling")\n'


def test_task_values_follow_the_runner_mapping():
    for task, runner in (("generate", "generate"), ("transcription", "generate"), ("embed", "pooling"), ("score", "pooling"), ("draft", "draft")):
        text = f"vllm serve Qwen/Qwen3-8B --task {task} --port 8000\n"
        outcome, _ = _fix("serve.sh", "shell", text, "0.33.0")
        assert outcome.fixed == f"vllm serve Qwen/Qwen3-8B --runner {runner} --port 8000\n", task
    outcome, _ = _fix("serve.sh", "shell", "vllm serve Qwen/Qwen3-8B --task auto --port 8000\n", "0.33.0")
    assert outcome.fixed == "vllm serve Qwen/Qwen3-8B --port 8000\n"


def test_env_variable_becomes_an_option_in_the_same_file():
    pod = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n"
           "      image: vllm/vllm-openai:v0.10.1\n      args:\n        - Qwen/Qwen3-8B\n        - --port\n        - \"8000\"\n"
           "      env:\n        - name: HF_HOME\n          value: /data\n        - name: VLLM_ATTENTION_BACKEND\n          value: FLASHINFER\n")
    outcome, _ = _fix("pod.yaml", "k8s", pod, "0.33.0")
    assert outcome.error is None
    assert "VLLM_ATTENTION_BACKEND" not in outcome.fixed and "- name: HF_HOME\n          value: /data\n" in outcome.fixed
    assert '        - "8000"\n        - "--attention-backend"\n        - "FLASHINFER"\n' in outcome.fixed
    sh = "#!/bin/sh\nexport VLLM_ATTENTION_BACKEND=FLASH_ATTN\nvllm serve Qwen/Qwen3-8B --port 8000\n"
    outcome, _ = _fix("serve.sh", "shell", sh, "0.33.0")
    assert outcome.fixed == "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --port 8000 --attention-backend FLASH_ATTN\n"


def test_the_only_env_entry_stays_and_the_message_still_names_the_option():
    compose = ("services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n    command: [\"Qwen/Qwen3-8B\"]\n"
               "    environment:\n      - VLLM_ATTENTION_BACKEND=FLASHINFER\n")
    result = lint_source(SourceFile("compose.yaml", compose), classify("compose.yaml", compose.encode()) or "compose", Settings(target=Version("0.33.0")), all_rules())
    d = next(d for d in result.diagnostics if d.code == "VL701")
    assert "pass `--attention-backend FLASHINFER` instead" in d.message and d.fix is None


def test_pin_moves_only_when_nothing_blocks():
    held = 'services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.1\n    command: ["Qwen/Qwen3-8B", "--omni", "--swap-space", "4"]\n'
    outcome, _ = _fix("compose.yaml", "compose", held, "0.33.0")
    assert "v0.10.1" in outcome.fixed and "--swap-space" not in outcome.fixed
    d = next(d for d in outcome.remaining.diagnostics if d.code == "VL601")
    assert "the pin stays until 1 finding that stops the start on 0.33.0 is fixed by hand" in d.message
    assert d.notes[0].startswith("held back by VL104 (line 4)")
    free = held.replace('"--omni", ', "")
    outcome, _ = _fix("compose.yaml", "compose", free, "0.33.0")
    assert "vllm/vllm-openai:v0.33.0" in outcome.fixed


def test_a_tag_that_is_not_a_release_is_never_rewritten():
    text = 'services:\n  vllm:\n    image: lmcache/vllm-openai:v0.10.0-cu128-nixl-v0.4.1\n    command: ["Qwen/Qwen3-8B", "--swap-space", "4"]\n'
    outcome, _ = _fix("compose.yaml", "compose", text, "0.33.0")
    assert "v0.10.0-cu128-nixl-v0.4.1" in outcome.fixed and "--swap-space" not in outcome.fixed
    # whether such a tag counts as a pin is the readers' call; if it does, VL601 offers no rewrite
    assert all(d.fix is None and "pick the image or pin of 0.33.0 yourself" in d.message
               for d in outcome.remaining.diagnostics if d.code == "VL601")


def test_a_post_release_pin_moves_whole():
    text = 'services:\n  vllm:\n    image: vllm/vllm-openai:v0.6.3.post1\n    command: ["Qwen/Qwen3-8B", "--swap-space", "4"]\n'
    outcome, _ = _fix("compose.yaml", "compose", text, "0.33.0")
    assert "image: vllm/vllm-openai:v0.33.0\n" in outcome.fixed, outcome.fixed


def test_an_env_item_followed_by_more_keys_goes_whole():
    pod = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n    - name: vllm\n"
           "      args:\n        - --model=Qwen/Qwen3-8B\n      env:\n        - name: MODEL\n          value: /m\n"
           "        - name: VLLM_ATTENTION_BACKEND\n          value: FLASHINFER\n      image: vllm/vllm-openai:v0.10.1\n      ports:\n        - containerPort: 8000\n")
    outcome, _ = _fix("pod.yaml", "k8s", pod, "0.33.0")
    assert outcome.error is None, outcome.error
    assert "VLLM_ATTENTION_BACKEND" not in outcome.fixed
    assert "        - --model=Qwen/Qwen3-8B\n        - --attention-backend\n        - FLASHINFER\n" in outcome.fixed


@pytest.mark.parametrize("name,kind,text,want", [
    ("serve.sh", "shell", "vllm serve Qwen/Qwen3-8B --compilation-config '{\"level\": 3, \"cudagraph_mode\": \"FULL\"}'\n",
     "vllm serve Qwen/Qwen3-8B --compilation-config '{\"mode\": 3, \"cudagraph_mode\": \"FULL\"}'\n"),
    ("dotted.sh", "shell", "vllm serve Qwen/Qwen3-8B --compilation_config.level=3 --port 8000\n",
     "vllm serve Qwen/Qwen3-8B --compilation_config.mode=3 --port 8000\n"),
    ("offline.py", "python", 'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", compilation_config={"level": 3})\n',
     'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", compilation_config={"mode": 3})\n'),
    ("pod.yaml", "k8s", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: v\nspec:\n  containers:\n    - name: vllm\n      image: vllm/vllm-openai:v0.33.0\n"
     "      args: [\"Qwen/Qwen3-8B\", \"--compilation-config\", \"{\\\"level\\\": 3}\"]\n", None),
])
def test_renamed_json_key_is_renamed_where_it_is_written(name, kind, text, want):
    outcome, _ = _fix(name, kind, text, "0.33.0")
    assert outcome.error is None
    if want is None:  # JSON inside a YAML double-quoted string: escapes, not verbatim; reported, not edited
        result = lint_source(SourceFile(name, text), classify(name, text.encode()) or kind, Settings(target=Version("0.33.0")), all_rules())
        assert [d.code for d in result.diagnostics if d.code == "VL109"] == ["VL109"]
        assert outcome.fixed == text
        return
    assert outcome.fixed == want


def test_renamed_json_key_with_both_keys_is_left_to_the_author():
    text = "vllm serve Qwen/Qwen3-8B --compilation-config '{\"level\": 3, \"mode\": 3}'\n"
    result = lint_source(SourceFile("serve.sh", text), "shell", Settings(target=Version("0.33.0")), all_rules())
    d = next(d for d in result.diagnostics if d.code == "VL109")
    assert d.fix is None and d.message.endswith("write `mode`")


@pytest.mark.parametrize("target", ["0.32.0", "0.33.0"])
def test_a_negated_successor_flips_the_python_value(target):
    # 0.28-0.32: the curated replacement --no-enable-log-requests; 0.33: the parser's own
    # --disable-log-requests twin of enable_log_requests.  Either way the keyword is negated.
    text = ("from vllm import AsyncEngineArgs\n\n"
            "quiet = AsyncEngineArgs(model=\"Qwen/Qwen3-8B\", disable_log_requests=True)\n"
            "loud = AsyncEngineArgs(model=\"Qwen/Qwen3-8B\", disable_log_requests=False)\n")
    outcome, settings = _fix("engine.py", "python", text, target)
    assert outcome.error is None
    assert outcome.fixed == ("from vllm import AsyncEngineArgs\n\n"
                             "quiet = AsyncEngineArgs(model=\"Qwen/Qwen3-8B\", enable_log_requests=False)\n"
                             "loud = AsyncEngineArgs(model=\"Qwen/Qwen3-8B\", enable_log_requests=True)\n")
    result = lint_source(SourceFile("engine.py", text), "python", settings, all_rules())
    first = next(d for d in result.diagnostics if d.code == "VL101")
    assert first.message.endswith("write `enable_log_requests=False`") and first.fix.applicability == "safe"


def test_a_negated_successor_in_other_keyword_launches():
    ray = ("from ray.serve.llm import LLMConfig\n"
           "cfg = LLMConfig(model_loading_config=dict(model_id='m'), engine_kwargs=dict(max_num_seqs=8, disable_log_requests=True))\n")
    outcome, _ = _fix("app.py", "python", ray, "0.33.0")
    assert "engine_kwargs=dict(max_num_seqs=8, enable_log_requests=False)" in outcome.fixed
    # LLM(...) passes its keywords to EngineArgs, which has no enable_log_requests: delete it
    llm = 'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", disable_log_requests=True, max_model_len=8192)\n'
    outcome, settings = _fix("offline.py", "python", llm, "0.33.0")
    assert outcome.fixed == 'from vllm import LLM\n\nllm = LLM(model="Qwen/Qwen3-8B", max_model_len=8192)\n'
    # a value that is not a literal: the message says what to write, nothing is applied
    var = 'from vllm import AsyncEngineArgs\n\nargs = AsyncEngineArgs(model="Qwen/Qwen3-8B", disable_log_requests=quiet)\n'
    result = lint_source(SourceFile("engine.py", var), "python", settings, all_rules())
    d = next(d for d in result.diagnostics if d.code == "VL101")
    assert "write `enable_log_requests=` with the opposite value" in d.message and d.fix.applicability == "display-only"
    # the flag: 0.33 accepts --disable-log-requests (nothing to do), 0.32 gets its portable negative
    for target, want in (("0.33.0", "vllm serve m --disable-log-requests --port 8000\n"), ("0.32.0", "vllm serve m --no-enable-log-requests --port 8000\n")):
        outcome, _ = _fix("serve.sh", "shell", "vllm serve m --disable-log-requests --port 8000\n", target)
        assert outcome.fixed == want, target


@pytest.mark.parametrize("text,want", [
    # one ENV of several variables: the entry goes, the others stay; exec-form CMD gains two items
    ('FROM vllm/vllm-openai:v0.10.1\nENV VLLM_ATTENTION_BACKEND=FLASHINFER HF_HOME=/cache\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192"]\n',
     'FROM vllm/vllm-openai:v0.33.0\nENV HF_HOME=/cache\nCMD ["Qwen/Qwen3-8B", "--max-model-len", "8192", "--attention-backend", "FLASHINFER"]\n'),
    # a continued ENV: the ` \` before the entry goes with it; shell-form ENTRYPOINT gains two words
    ("FROM vllm/vllm-openai:v0.10.1\nENV HF_HOME=/cache \\\n    VLLM_ATTENTION_BACKEND=FLASH_ATTN\nENTRYPOINT vllm serve Qwen/Qwen3-8B \\\n    --max-model-len 8192\n",
     "FROM vllm/vllm-openai:v0.33.0\nENV HF_HOME=/cache\nENTRYPOINT vllm serve Qwen/Qwen3-8B \\\n    --max-model-len 8192 --attention-backend FLASH_ATTN\n"),
    # the first entry of a continued ENV, then the rest on the next line
    ("FROM vllm/vllm-openai:v0.10.1\nENV VLLM_ATTENTION_BACKEND=FLASH_ATTN \\\n    HF_HOME=/cache\nENTRYPOINT [\"vllm\", \"serve\", \"Qwen/Qwen3-8B\"]\n",
     "FROM vllm/vllm-openai:v0.33.0\nENV HF_HOME=/cache\nENTRYPOINT [\"vllm\", \"serve\", \"Qwen/Qwen3-8B\", \"--attention-backend\", \"FLASH_ATTN\"]\n"),
    # the only entry (legacy `ENV NAME value` or `NAME=value`): the instruction goes
    ('FROM vllm/vllm-openai:v0.10.1\nENV VLLM_ATTENTION_BACKEND FLASHINFER\nENV HF_HOME=/x\nCMD ["Qwen/Qwen3-8B"]\n',
     'FROM vllm/vllm-openai:v0.33.0\nENV HF_HOME=/x\nCMD ["Qwen/Qwen3-8B", "--attention-backend", "FLASHINFER"]\n'),
    ('FROM vllm/vllm-openai:v0.10.1\nENV VLLM_ATTENTION_BACKEND="FLASHINFER"\nCMD ["Qwen/Qwen3-8B", "--port", "8000"]\n',
     'FROM vllm/vllm-openai:v0.33.0\nCMD ["Qwen/Qwen3-8B", "--port", "8000", "--attention-backend", "FLASHINFER"]\n'),
])
def test_dockerfile_env_variable_becomes_an_option_of_its_launch(text, want):
    outcome, settings = _fix("Dockerfile", "dockerfile", text, "0.33.0")
    assert outcome.error is None, outcome.error
    assert outcome.fixed == want
    result = lint_source(SourceFile("Dockerfile", outcome.fixed), "dockerfile", settings, all_rules())
    assert not [d for d in result.diagnostics if d.code == "VL701"]


def test_dockerfile_check_allows_only_env_instructions_deleted_whole():
    from linter.diagnostic import Edit
    from linter.fix_check import check_dockerfile
    from linter.launch import Span

    before = 'FROM vllm/vllm-openai:v0.33.0\nENV VLLM_X=1\nCMD ["m"]\n'
    env = before.index("ENV")
    assert check_dockerfile(before, before[:env] + before[env + 13 :], [Edit(Span(env, env + 13), "")]) is None
    cmd = before.index("CMD")
    assert check_dockerfile(before, before[:cmd], [Edit(Span(cmd, len(before)), "")]) is not None


def test_a_removed_flag_in_a_charts_argv_and_a_config_key_keep_their_spelling():
    # a Helm values file's extraArgs are argv inside a keyword launch: the flag is named as a flag
    values = ("servingEngineSpec:\n  modelSpec:\n  - name: llama3\n    repository: vllm/vllm-openai\n    tag: v0.10.1\n"
              "    modelURL: meta-llama/Llama-3.1-8B-Instruct\n    replicaCount: 1\n    requestGPU: 1\n    vllmConfig:\n"
              "      maxModelLen: 4096\n      extraArgs: [\"--disable-log-requests\", \"--gpu-memory-utilization\", \"0.8\"]\n")
    settings = Settings(target=Version("0.30.0"))
    result = lint_source(SourceFile("values.yaml", values), classify("values.yaml", values.encode()) or "yaml", settings, all_rules())
    assert [d.message.split(": ", 1)[1] for d in result.diagnostics if d.code == "VL101"] == ["write `--no-enable-log-requests` instead"]
    # a --config key: the negative is a key of its own, in the writer's underscores
    cfg = "disable_log_requests: true\nmax-model-len: 8192\n"
    outcome = fix_source(SourceFile("serve-config.yaml", cfg), "vllm-config", settings, all_rules(), unsafe=True)
    assert outcome.fixed == "no_enable_log_requests: true\nmax-model-len: 8192\n"
    d = next(d for d in lint_source(SourceFile("serve-config.yaml", cfg), "vllm-config", settings, all_rules()).diagnostics if d.code == "VL101")
    assert d.message.endswith("write `no_enable_log_requests` instead")


# the forms whose file pins the release it runs (an image tag); a `# vllm==X` comment is not moved
PINNED_FORMS = sorted(f for f in FORMS if f not in ("serve.sh", "last.sh", "run.py", "offline.py", "engine.py", "README.md",
                                                    "serve-config.yaml", "serve-config.json"))


@pytest.mark.parametrize("form", PINNED_FORMS)
def test_the_pin_moves_with_the_flags_in_every_form(form):
    kind, make = FORMS[form]
    # every removal has a fix: after them nothing blocks, so the pin moves to the target
    outcome, _ = _fix(form, kind, make(_interleave(HISTORY), "0.10.0"), "0.33.0")
    assert "0.10.0" not in outcome.fixed and "0.33.0" in outcome.fixed, outcome.fixed
    # an option the tool cannot migrate (no release ever had it) holds the pin back, stays
    # reported, and the message names it
    held = _interleave([("--gpu-memory-utilization-gb", "20"), *HISTORY])
    outcome, _ = _fix(form, kind, make(held, "0.10.0"), "0.33.0")
    assert "0.10.0" in outcome.fixed and "--gpu-memory-utilization-gb" in outcome.fixed and "--swap-space" not in outcome.fixed
    remaining = outcome.remaining.diagnostics
    assert any(d.code == "VL104" and (d.fix is None or d.fix.applicability == "display-only") for d in remaining)
    pin = next(d for d in remaining if d.code == "VL601")
    assert "the pin stays until 1 finding that stops the start on 0.33.0 is fixed by hand" in pin.message
    assert pin.notes[0].startswith("held back by VL104") and "--gpu-memory-utilization-gb" in pin.notes[0]


def test_messages_have_a_short_first_line():
    for form, (kind, make) in FORMS.items():
        for old, new, removed in PAIRS:
            text = make(_interleave(removed), old)
            k = kind if kind == "vllm-config" else classify(form, text.encode()[:512]) or kind
            result = lint_source(SourceFile(form, text), k, Settings(target=Version(new)), all_rules())
            long = [d.message for d in result.diagnostics if len(d.message.splitlines()[0]) > 200]
            assert not long, (form, new, long)


def test_an_env_variable_message_names_the_option_in_the_launchs_spelling():
    py = 'import os\nos.environ["VLLM_ATTENTION_BACKEND"] = "FLASHINFER"\nfrom vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B")\n'
    result = lint_source(SourceFile("offline.py", py), "python", Settings(target=Version("0.33.0")), all_rules())
    d = next(d for d in result.diagnostics if d.code == "VL701")
    assert d.message.endswith('pass `attention_backend="FLASHINFER"` instead'), d.message
