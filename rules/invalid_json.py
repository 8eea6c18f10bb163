"""## invalid-json (VL204)

What it does: checks that the values of JSON-valued options
(`--kv-transfer-config`, `--compilation-config`, `--hf-overrides`,
`--speculative-config`, ...) parse as JSON.

Why is this bad? vLLM parses the value at startup and exits on a JSON error;
a missing quote inside YAML or shell quoting is easy to miss by eye.

Example:
    vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":kv_both}'

Use instead:
    vllm serve Qwen/Qwen3-8B --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'

Fix safety: none.

Versions: every release; which options take JSON comes from each release's parser.
"""

from linter.diagnostic import Finding, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL204", "invalid-json", "JSON option value does not parse", Severity.ERROR))


@rule.check
def check(ctx):
    for err in ctx.parsed.errors:
        if err.kind == "invalid-json":
            yield Finding(ctx.item_span(err.item), err.message)
