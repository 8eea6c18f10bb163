"""## input-problem (VL001, VL002, VL003)

What it does: reports files, or parts of files, that vllm-lint could not read:
VL001 a parse error (malformed YAML, unterminated shell quotes, a Python syntax
error, a Helm template that hides the structure), VL002 a file that is not text
vllm-lint can round-trip (binary, NUL bytes, neither UTF-8 nor BOM-marked
UTF-16/32), VL003 a file that could not be read at all or is larger than the
size limit.

Why is this bad? A launch in a file that cannot be read is not checked; a
silent "clean" would be a false promise.

Example (VL001, an unclosed quote):
    services:
      vllm:
        image: vllm/vllm-openai:v0.32.0
        command: [--model, "Qwen/Qwen3-8B]

Use instead: fix the file, or exclude it in the configuration:
    services:
      vllm:
        image: vllm/vllm-openai:v0.32.0
        command: [--model, "Qwen/Qwen3-8B"]

Fix safety: no fix.

Versions: all.  Exit code 1, like any other diagnostic.
"""

from linter.diagnostic import Severity
from rules._lib.base import Rule, register

parse_error = register(Rule("VL001", "parse-error", "File or embedded script could not be parsed", Severity.ERROR))
not_text = register(Rule("VL002", "not-text", "File is not text vllm-lint can read", Severity.WARNING))
unreadable = register(Rule("VL003", "unreadable-file", "File could not be read or is too large", Severity.ERROR))

RULES = {r.code: r for r in (parse_error, not_text, unreadable)}
