"""## unused-suppression (VL901)

What it does: reports `# vllm-lint: ignore[CODE]` and
`# vllm-lint: ignore-file[CODE]` comments that silence nothing: the code no
longer fires where the comment stands, the code is not a vllm-lint rule, or
the comment cannot be read (`ignore` without codes, a misspelt directive).

Why is this bad? A suppression outlives the problem it hid.  When the launch
is migrated, or the option comes back in a later release, a stale
`ignore[VL102]` would silently hide the next, different problem on that
line; a misspelt one never worked at all.

Example:
    # vllm-lint: ignore[VL102] kept for the 0.29 fleet
    vllm serve Qwen/Qwen3-8B --max-num-seqs 8

Use instead:
    vllm serve Qwen/Qwen3-8B --max-num-seqs 8

Fix safety: safe: the fix removes the unused codes from the list, or the
whole comment (and its line, when it stood alone) when none is used.
Unreadable suppressions have no fix.  Codes that are not enabled in the run
(`--select`, `--ignore`) are not judged, and in a file with a parse error
(VL001) no suppression is judged unused: its findings may be incomplete.  Silence this rule itself with
`ignore[VL901]` or `ignore-file[VL901]`.

Versions: all releases; a suppression used for one target release may be
unused for another.
"""

from linter.diagnostic import Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL901", "unused-suppression", "Suppression comment that silences nothing", Severity.WARNING, fixable=True))
