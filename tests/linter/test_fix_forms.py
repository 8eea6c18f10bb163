"""Each source form gets exact edits, and no edit where the token is not safely editable.

Every case runs the real pipeline (extractor, argument model, rules, fixer)
on a small realistic file and checks the whole fixed text, that only the
recorded edits changed it (pass by pass), and that a second --fix changes
nothing.  The refusals cover each way a token can be unsafe to edit: folded
YAML scalars, escapes in quoted scalars and strings, shell quoting inside a
word, templates and variables, and string concatenation.
"""

from __future__ import annotations

import pytest
from packaging.version import Version

from linter import knowledge
from linter.engine import Settings, lint_source
from linter.fixer import fix_source
from linter.source_file import SourceFile
from rules._lib.base import all_rules
from tests.linter.fix_helpers import assert_outside_edits_unchanged

pytestmark = pytest.mark.skipif("0.32.0" not in {str(v) for v in knowledge.known_versions()}, reason="no 0.32 inventory")

K8S_HEAD = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: v\nspec:\n  containers:\n  - name: v\n    image: vllm/vllm-openai:v0.32.0\n"


def fix(name: str, kind: str, text: str, unsafe: bool = True, target: str = "0.32"):
    settings = Settings(target=Version(target))
    src = SourceFile(name, text)
    outcome = fix_source(src, kind, settings, all_rules(), unsafe)
    assert outcome.error is None, outcome.error
    assert_outside_edits_unchanged(outcome)
    again = fix_source(SourceFile(name, outcome.fixed), kind, settings, all_rules(), unsafe)
    assert again.fixed == outcome.fixed and not again.passes, "a second --fix changed something"
    return outcome


FORMS = [
    # shell: a rename keeps `--opt=value` and `--opt value`
    ("shell-rename-shapes", "serve.sh", "shell",
     "#!/bin/sh\nvllm serve m --enable-mamba-fine-grained-prefix-cache --max-num-seq=8 \\\n  --enable-chunked  # note\n",
     "#!/bin/sh\nvllm serve m --enable-mamba-shared-prefix-checkpoint --max-num-seqs=8 \\\n  --enable-chunked-prefill  # note\n"),
    ("shell-rename-negative-form", "serve.sh", "shell",
     "vllm serve m --no-enable-mamba-fine-grained-prefix-cache\n",
     "vllm serve m --no-enable-mamba-shared-prefix-checkpoint\n"),
    ("shell-quoted-value", "serve.sh", "shell",
     "vllm serve m --mamba-cache-mode \"all\" --max-num-seq '8'\n",
     "vllm serve m --mamba-cache-mode \"align\" --max-num-seqs '8'\n"),
    ("shell-crlf", "serve.sh", "shell",
     "vllm serve m \\\r\n  --max-num-seq 8 \\\r\n  --enable-chunked\r\n",
     "vllm serve m \\\r\n  --max-num-seqs 8 \\\r\n  --enable-chunked-prefill\r\n"),
    ("shell-bash-c", "serve.sh", "shell",
     "bash -c 'vllm serve m --max-num-seq 8'\n",
     "bash -c 'vllm serve m --max-num-seqs 8'\n"),
    ("shell-no-final-newline", "serve.sh", "shell",
     "vllm serve m --max-num-seq 8",
     "vllm serve m --max-num-seqs 8"),
    # YAML block sequence: a split keeps indentation and quoting; renames keep `=`
    ("k8s-block-split", "pod.yaml", "yaml",
     K8S_HEAD + "    args:\n      - m\n      - '--max-model-len 100'\n      - --max-num-seq=4   # keep\n",
     K8S_HEAD + "    args:\n      - m\n      - '--max-model-len'\n      - '100'\n      - --max-num-seqs=4   # keep\n"),
    ("k8s-flow-split", "pod.yaml", "yaml",
     K8S_HEAD + "    args: [\"m\", \"--max-model-len 100\"]\n    command:\n    - vllm\n    - serve\n",
     K8S_HEAD + "    args: [\"m\", \"--max-model-len\", \"100\"]\n    command:\n    - vllm\n    - serve\n"),
    ("k8s-plain-split-quotes-number", "pod.yaml", "yaml",
     K8S_HEAD + "    args:\n    - m\n    - --max-model-len 100\n",
     K8S_HEAD + "    args:\n    - m\n    - --max-model-len\n    - \"100\"\n"),
    ("k8s-crlf-split", "pod.yaml", "yaml",
     (K8S_HEAD + "    args:\n    - m\n    - \"--max-model-len 100\"\n").replace("\n", "\r\n"),
     (K8S_HEAD + "    args:\n    - m\n    - \"--max-model-len\"\n    - \"100\"\n").replace("\n", "\r\n")),
    # YAML `sh -c` string and literal block: the edit lands at the mapped position
    ("k8s-sh-c-escaped-elsewhere", "pod.yaml", "yaml",
     K8S_HEAD + "    command: [sh, -c, \"vllm serve m --max-num-seq 8 --chat-template \\\"x\\\"\"]\n",
     K8S_HEAD + "    command: [sh, -c, \"vllm serve m --max-num-seqs 8 --chat-template \\\"x\\\"\"]\n"),
    ("k8s-literal-block", "pod.yaml", "yaml",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - |\n      # start\n      vllm serve m \\\n        --max-num-seq 8 --enable-chunked\n",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - |\n      # start\n      vllm serve m \\\n        --max-num-seqs 8 --enable-chunked-prefill\n"),
    ("actions-run-block-crlf", "ci.yml", "yaml",
     "on: push\r\njobs:\r\n  a:\r\n    runs-on: x\r\n    steps:\r\n      - run: |\r\n          vllm serve m \\\r\n            --enable-chunked --max-num-seq=4\r\n",
     "on: push\r\njobs:\r\n  a:\r\n    runs-on: x\r\n    steps:\r\n      - run: |\r\n          vllm serve m \\\r\n            --enable-chunked-prefill --max-num-seqs=4\r\n"),
    # one shell word holding option and value, in a script embedded elsewhere: two shell words, same quoting
    ("k8s-literal-block-split-shell-word", "pod.yaml", "yaml",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - |\n      vllm serve m '--max-model-len 8' \\\n        \"--max-num-seqs 4\"\n",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - |\n      vllm serve m '--max-model-len' '8' \\\n        \"--max-num-seqs\" \"4\"\n"),
    ("k8s-sh-c-string-split-shell-word", "pod.yaml", "yaml",
     K8S_HEAD + "    command: [sh, -c, \"vllm serve m '--max-model-len 8'\"]\n",
     K8S_HEAD + "    command: [sh, -c, \"vllm serve m '--max-model-len' '8'\"]\n"),
    ("actions-run-split-shell-word", "ci.yml", "yaml",
     "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: vllm serve m \"--max-num-seqs 8\"\n",
     "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: vllm serve m \"--max-num-seqs\" \"8\"\n"),
    ("python-shell-string-split", "run.py", "python",
     "import subprocess\nsubprocess.run(\"vllm serve m '--max-model-len 8'\", shell=True)\n",
     "import subprocess\nsubprocess.run(\"vllm serve m '--max-model-len' '8'\", shell=True)\n"),
    ("dockerfile-shell-form-split", "Dockerfile", "dockerfile",
     "FROM vllm/vllm-openai:v0.32.0\nENTRYPOINT vllm serve m '--max-model-len 8'\n",
     "FROM vllm/vllm-openai:v0.32.0\nENTRYPOINT vllm serve m '--max-model-len' '8'\n"),
    ("k8s-multiline-flow-split", "pod.yaml", "yaml",
     K8S_HEAD + "    args: [\n      m,\n      --max-model-len 8,\n      '--max-num-seqs 4'\n    ]\n",
     K8S_HEAD + "    args: [\n      m,\n      --max-model-len, \"8\",\n      '--max-num-seqs', '4'\n    ]\n"),
    ("k8s-block-split-wide-dash-and-comment", "pod.yaml", "yaml",
     K8S_HEAD + "    args:\n    - m\n    - --max-model-len 8 # c\n    -   '--max-num-seqs 4'\n",
     K8S_HEAD + "    args:\n    - m\n    - --max-model-len\n    - \"8\" # c\n    -   '--max-num-seqs'\n    -   '4'\n"),
    ("python-multiline-list-split", "run.py", "python",
     "import subprocess\nsubprocess.run(['vllm', 'serve', 'm',\n    '--max-model-len 8',  # c\n])\n",
     "import subprocess\nsubprocess.run(['vllm', 'serve', 'm',\n    '--max-model-len', '8',  # c\n])\n"),
    ("compose-flow-and-pin", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.30.0\n    command: ['m', '--max-model-len 100', \"--enable-chunked\"]\n",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: ['m', '--max-model-len', '100', \"--enable-chunked-prefill\"]\n"),
    ("compose-plain-string", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: m --max-num-seq 8 --enable-chunked\n",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: m --max-num-seqs 8 --enable-chunked-prefill\n"),
    ("compose-sh-c", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    entrypoint: [\"sh\", \"-c\", \"vllm serve m --max-num-seq 8 && echo\"]\n",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    entrypoint: [\"sh\", \"-c\", \"vllm serve m --max-num-seqs 8 && echo\"]\n"),
    # --config file: keys renamed in place, the writer's dashes/underscores, quotes and comments kept
    ("config-keys", "cfg.yaml", "vllm-config",
     "# c\nenable_mamba_fine_grained_prefix_cache: true\nmax-num-seq: 8   # x\n\nmamba_cache_mode: 'all'\n",
     "# c\nenable_mamba_shared_prefix_checkpoint: true\nmax-num-seqs: 8   # x\n\nmamba_cache_mode: 'align'\n"),
    ("config-false", "cfg.yaml", "vllm-config",
     "max-num-seqs: 8\nenable_prefix_caching: false\n",
     "max-num-seqs: 8\nno_enable_prefix_caching: true\n"),
    # Python: keyword renames and value changes, argv lists
    ("python-keywords", "run.py", "python",
     "from vllm import LLM\nLLM(model='m', enable_mamba_fine_grained_prefix_cache=True)\nfrom vllm.engine.arg_utils import EngineArgs\nEngineArgs(model='m', mamba_cache_mode=\"all\")\n",
     "from vllm import LLM\nLLM(model='m', enable_mamba_shared_prefix_checkpoint=True)\nfrom vllm.engine.arg_utils import EngineArgs\nEngineArgs(model='m', mamba_cache_mode=\"align\")\n"),
    ("python-argv-list", "run.py", "python",
     "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', r'--enable-chunked', \"--max-model-len 10\"])\n",
     "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', r'--enable-chunked-prefill', \"--max-model-len\", \"10\"])\n"),
    ("python-returned-argv-crlf", "cmd.py", "python",
     "def build(model):\r\n    cmd = ['vllm', 'serve', model]\r\n    cmd += [\"--max-num-seq\", '8']  # é\r\n    return cmd\r\n",
     "def build(model):\r\n    cmd = ['vllm', 'serve', model]\r\n    cmd += [\"--max-num-seqs\", '8']  # é\r\n    return cmd\r\n"),
    ("python-joined-shell-words", "run.py", "python",
     "import subprocess\nargs = ['vllm', 'serve', 'm', '--max-num-seq 8 --enable-chunked']\nsubprocess.run(' '.join(args), shell=True)\n",
     "import subprocess\nargs = ['vllm', 'serve', 'm', '--max-num-seqs 8 --enable-chunked-prefill']\nsubprocess.run(' '.join(args), shell=True)\n"),
    ("python-ray-llm-config", "app.py", "python",
     "from ray.serve.llm import LLMConfig\ncfg = LLMConfig(model_loading_config=dict(model_id='m'), engine_kwargs=dict(max_num_seqs=8, mamba_cache_mode='all'))\n",
     "from ray.serve.llm import LLMConfig\ncfg = LLMConfig(model_loading_config=dict(model_id='m'), engine_kwargs=dict(max_num_seqs=8, mamba_cache_mode='align'))\n"),
    # Dockerfile exec and shell forms, Markdown blocks
    ("dockerfile-exec", "Dockerfile", "dockerfile",
     "FROM vllm/vllm-openai:v0.30.0\nCMD [\"m\", \"--max-model-len 100\", \"--enable-chunked\"]\n",
     "FROM vllm/vllm-openai:v0.32.0\nCMD [\"m\", \"--max-model-len\", \"100\", \"--enable-chunked-prefill\"]\n"),
    ("dockerfile-shell-form", "Dockerfile", "dockerfile",
     "FROM vllm/vllm-openai:v0.32.0\nENTRYPOINT vllm serve m --max-num-seq 4 \\\n   --enable-chunked\n",
     "FROM vllm/vllm-openai:v0.32.0\nENTRYPOINT vllm serve m --max-num-seqs 4 \\\n   --enable-chunked-prefill\n"),
    # folded (`>`) blocks and plain scalars over several lines: each line is placed exactly, a
    # word is edited in place, and a line of nothing but a removed option goes whole
    ("folded-compose-command", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >-\n      m --max-num-seq 8\n      --mamba-cache-mode all\n",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >-\n      m --max-num-seqs 8\n      --mamba-cache-mode align\n"),
    ("folded-k8s-sh-c", "pod.yaml", "yaml",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - >\n      vllm serve m\n      --max-num-seq 8\n",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - >\n      vllm serve m\n      --max-num-seqs 8\n"),
    ("folded-actions-run", "ci.yml", "yaml",
     "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n    - run: >\n        vllm serve m --max-num-seq 8\n",
     "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n    - run: >\n        vllm serve m --max-num-seqs 8\n"),
    ("folded-compose-delete-lines", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.10.1\n    command: >\n      m\n      --swap-space 4\n      --max-model-len 8192\n"
     "  w:\n    image: vllm/vllm-openai:v0.10.1\n    command: >-\n      m --swap-space 4\n      --num-scheduler-steps 8\n      --port 8000\n",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >\n      m\n      --max-model-len 8192\n"
     "  w:\n    image: vllm/vllm-openai:v0.32.0\n    command: >-\n      m\n      --port 8000\n"),
    ("folded-k8s-sh-c-delete-line", "pod.yaml", "yaml",
     K8S_HEAD.replace("v0.32.0", "v0.9.2") + "    command: [sh, -c]\n    args:\n    - >-\n      vllm serve m\n      --swap-space 0\n\n      --max-model-len 8192\n",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - >-\n      vllm serve m\n\n      --max-model-len 8192\n"),
    ("plain-multiline-delete-line", "pod.yaml", "yaml",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - vllm serve m\n        --swap-space 16\n        --port 8000\n",
     K8S_HEAD + "    command: [sh, -c]\n    args:\n    - vllm serve m\n        --port 8000\n"),
    # a key of the edited service whose value is an alias to an anchor above it: the check of
    # the fixed file does not take that pair for one the edit deleted
    ("compose-alias-value-beside-an-edit", "compose.yaml", "yaml",
     "x-vol: &vol\n  - /mnt/a:/root/a\nservices:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >\n      m\n      --swap-space 32\n"
     "      --max-num-seqs 2\n    volumes: *vol\n",
     "x-vol: &vol\n  - /mnt/a:/root/a\nservices:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >\n      m\n"
     "      --max-num-seqs 2\n    volumes: *vol\n"),
    # removed words that start a line of a block scalar, other words after them: the line's
    # indentation stays (the block would end at a line indented less)
    ("folded-compose-delete-first-words-of-a-line", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >\n      m\n      --swap-space 4 --port 8000\n"
     "    ports:\n      - 8000:8000\n",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >\n      m\n      --port 8000\n"
     "    ports:\n      - 8000:8000\n"),
    ("actions-run-block-delete-first-words-of-a-line", "ci.yml", "yaml",
     "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: |\n          vllm serve m \\\n            --swap-space 4 --port 8000 &\n"
     "      - run: curl localhost:8000/health\n",
     "on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: |\n          vllm serve m \\\n            --port 8000 &\n"
     "      - run: curl localhost:8000/health\n"),
    ("compose-plain-multiline-delete-line", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: m\n      --use-v2-block-manager\n      --port 8000\n",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: m\n      --port 8000\n"),
    ("markdown-block", "README.md", "markdown",
     "# x\n\n```bash\nvllm serve m --max-num-seq 4\n```\n",
     "# x\n\n```bash\nvllm serve m --max-num-seqs 4\n```\n"),
]


@pytest.mark.parametrize("name,kind,text,expected", [c[1:] for c in FORMS], ids=[c[0] for c in FORMS])
def test_form_gets_exact_edits(name, kind, text, expected):
    assert fix(name, kind, text).fixed == expected


def test_safe_only_leaves_unsafe_fixes():
    text = "vllm serve m --mamba-cache-mode all --max-num-seq 8\n"
    assert fix("s.sh", "shell", text, unsafe=False).fixed == "vllm serve m --mamba-cache-mode all --max-num-seqs 8\n"


def test_display_only_is_never_applied():
    from linter.diagnostic import Diagnostic, Edit, Fix
    from linter.fixer import choose_fixes
    from linter.launch import Span

    d = Diagnostic("VL104", "m", "f", Span(0, 1), fix=Fix("f", (Edit(Span(0, 1), "x"),), "display-only"))
    assert choose_fixes([d], unsafe=True) == []


REFUSALS = [
    # (id, file name, kind, text, code that stays reported without an applied fix)
    ("yaml-escape-in-token", "pod.yaml", "yaml",
     K8S_HEAD + "    args: [\"m\", \"--max-num\\x2Dseq\", \"8\"]\n", "VL201"),
    ("yaml-escape-in-sh-c-token", "pod.yaml", "yaml",
     K8S_HEAD + "    command: [sh, -c, \"vllm serve m --max-num\\x2Dseq 8\"]\n", "VL201"),
    ("dockerfile-json-escape-in-token", "Dockerfile", "dockerfile",
     "FROM vllm/vllm-openai:v0.32.0\nCMD [\"m\", \"--max-num\\u002dseq\", \"8\"]\n", "VL201"),
    ("python-escape-in-token", "run.py", "python",
     "from vllm import LLM\nLLM(model='m', mamba_cache_mode='\\x61ll')\n", "VL301"),
    ("python-concatenation", "run.py", "python",
     "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--max-num' '-seq', '8'])\n", "VL201"),
    ("python-fstring-field-in-token", "run.py", "python",
     "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', f'--max-num-seq{n}', '8'])\n", None),
    ("python-conditional-value", "run.py", "python",
     "from vllm import LLM\nimport subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--mamba-cache-mode', 'all' if a else 'none'])\n", None),
    ("python-kserve-runtime-args-are-weak", "isvc.py", "python",
     "from kserve import V1beta1ModelFormat, V1beta1ModelSpec\n# the Hugging Face runtime serves with vLLM\n"
     "V1beta1ModelSpec(model_format=V1beta1ModelFormat(name='huggingface'), args=['--model_name=x', '--max-num-seq', '8'])\n", None),  # weak, with the runtime's own flag: not confirmed
    ("shell-quotes-inside-word", "serve.sh", "shell",
     "vllm serve m --max-num-\"seq\" 8\n", "VL201"),
    ("shell-backslash-inside-word", "serve.sh", "shell",
     "vllm serve m --mamba-cache-mode=al\\l\n", "VL301"),
    # a removed option before an unquoted variable that may be its value: deleting the option
    # alone would leave the value behind as a word of its own
    ("compose-removed-option-before-a-variable", "compose.yaml", "yaml",
     "services:\n  v:\n    image: vllm/vllm-openai:v0.32.0\n    command: >\n      m\n      --swap-space ${SWAP_GB:-4}\n      --port 8000\n", "VL101"),
    ("shell-removed-option-before-a-variable", "serve.sh", "shell",
     "vllm serve m --swap-space $SWAP_GB --port 8000\n", "VL101"),
    # a variable or template inside the token: not even reported (its value is unknown), never edited
    ("shell-variable-in-token", "serve.sh", "shell",
     "vllm serve m --max-num-seq$X 4\n", None),
    ("k8s-dependent-variable-in-token", "pod.yaml", "yaml",
     K8S_HEAD + "    args: [\"m\", \"--max-num-seq$(N)\", \"8\"]\n", None),
    ("helm-template-in-token", "templates/d.yaml", "helm-template",
     "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: v\n    image: vllm/vllm-openai:v0.32.0\n    args:\n    - --max-num-seq{{ .Values.x }}\n    - \"8\"\n", None),
]


@pytest.mark.parametrize("name,kind,text,code", [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS])
def test_no_edit_where_the_token_is_not_safely_editable(name, kind, text, code):
    settings = Settings(target=Version("0.32"))
    result = lint_source(SourceFile(name, text), kind, settings, all_rules())
    outcome = fix(name, kind, text)
    if code is None:
        assert not any(d.fix for d in result.diagnostics)
        assert outcome.fixed == text
        return
    flagged = [d for d in result.diagnostics if d.code == code]
    assert flagged, [(d.code, d.message) for d in result.diagnostics]
    assert all(d.fix is None for d in flagged), "a fix was offered on a token that is not safely editable"
    assert code not in {d.code for d in outcome.applied}
    assert code in {d.code for d in outcome.remaining.diagnostics}


def test_overlapping_fixes_wait_for_the_next_pass():
    text = K8S_HEAD + "    args:\n    - m\n    - \"--max-num-seq 8\"\n"
    outcome = fix("pod.yaml", "yaml", text)
    assert outcome.fixed == K8S_HEAD + "    args:\n    - m\n    - \"--max-num-seqs\"\n    - \"8\"\n"
    # the split (VL203) and the rename inside the same element (VL201) overlap: two passes
    assert [[d.code for d in p.applied] for p in outcome.passes] == [["VL203"], ["VL201"]]


def test_passes_are_bounded(monkeypatch):
    """A fix that never converges is reported as a bug and nothing is changed."""
    from linter import fixer
    from linter.diagnostic import Diagnostic, Edit, Fix
    from linter.engine import FileResult
    from linter.launch import Span

    def endless(src, kind, settings, rules, *, inherited=None, reader=None):
        d = Diagnostic("VL201", "m", src.path, Span(0, 1), fix=Fix("f", (Edit(Span(0, 0), "x"),), "safe"))
        return FileResult(src.path, [d], src=src)

    monkeypatch.setattr(fixer, "lint_source", endless)
    monkeypatch.setattr("linter.fix_check.check_pass", lambda *a, **k: None)
    outcome = fixer.fix_source(SourceFile("s.sh", "vllm serve m\n"), "shell", Settings(), {}, False)
    assert "did not converge" in outcome.error
    assert outcome.fixed == "vllm serve m\n" and not outcome.passes and not outcome.applied


def test_context_helpers_refuse_unknown_parts():
    """checking.LaunchContext: no edit of an item or a name that has a variable or template in it."""
    from linter.argmodel import Item
    from linter.checking import LaunchContext
    from linter.launch import Launch, Span, Token

    tok = Token("--mamba-cache-mode=${MODE}", Span(0, 26), 0, opaque=((19, 26),))
    launch = Launch("s.sh", "shell", Span(0, 26), args=[tok])
    ctx = LaunchContext.__new__(LaunchContext)
    object.__setattr__(ctx, "parsed", type("P", (), {"launch": launch})())
    assert not ctx.item_editable(Item("${MODE}", tok, 19, 26))
    assert ctx.item_editable(Item("--mamba-cache-mode", tok, 0, 18))
    splat = Token("$ARGS", Span(0, 5), 0, opaque=((0, 5),), splat=True)
    assert not ctx.item_editable(Item("$ARGS", splat, 0, 5))
