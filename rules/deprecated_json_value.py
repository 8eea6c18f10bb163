"""## deprecated-json-value (VL110)

What it does: finds values inside JSON options that vLLM deprecates, as read from each
release's code into `rules/data/value_renames.json` (`python -m tools.extract_value_renames
--all`): an `if` in `vllm/config/*.py` or `vllm/distributed/kv_transfer/` that compares a
config field with these values and logs a "deprecated" warning.  In 0.28-0.33:

- `method` of `--speculative-config`: every per-model MTP method (`deepseek_mtp`,
  `qwen3_next_mtp`, `ernie_mtp`, ... the `MTPModelTypes` Literal but `mtp`) is rewritten to
  `mtp` with a warning (vllm/config/speculative.py);
- `kv_role: kv_both` of `--kv-transfer-config` with `NixlConnector` (and the Nixl connectors
  derived from the same class): deprecated, to be removed; prefill instances take
  `kv_producer`, decode instances `kv_consumer`.

A value that rules/data/migrations.yaml also describes (`backend: lm-format-enforcer` of
`--structured-outputs-config`) is VL107's.

Why is this bad? The server logs a deprecation warning at every start, and the value will
stop working in a later release.

Example:
    vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": 1}'

Use instead:
    vllm serve deepseek-ai/DeepSeek-V3 --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'

Fix safety: safe where vLLM's code assigns the one replacement itself (the MTP methods become
`mtp`: the same run, without the warning).  The value is edited where it is written: a dotted
`--speculative-config.method deepseek_mtp`, JSON text in any quoting the edit can read back
(shell word, YAML string, Python string), a Python dict keyword or a `--config` YAML mapping.
No fix when there is no single replacement (`kv_both`: the role depends on the instance) or
the key is written more than once.

Versions: per release, from the release's own code (the file:line is in the message).
"""

from __future__ import annotations

from linter import knowledge
from linter.diagnostic import Edit, Finding, Fix, Severity
from rules._lib import facts, json_text
from rules._lib.base import Rule, register

rule = register(Rule("VL110", "deprecated-json-value", "Value inside a JSON option deprecated or rewritten by vLLM", Severity.WARNING, fixable=True))


@rule.check
def check(ctx):
    renames = ctx.release.value_renames
    if not renames:
        return
    for opt in ctx.parsed.options:
        if opt.spec is None or opt.value_opaque or opt.spec.primary not in renames:
            continue
        option = opt.spec.primary
        if opt.dotted:
            given = {d.path[0]: d.value for d in opt.dotted if len(d.path) == 1 and d.value is not None and d.value_item is not None and not d.value_item.opaque}
        else:
            data = opt.json_object
            given = {k: v for k, v in data.items() if isinstance(v, str)} if data is not None else {}
        for entry in renames[option]:
            key = entry["key"]
            value = given.get(key)
            if value is None or value not in entry["values"] or facts.value_fact(option, value, key) is not None:
                continue
            connectors = (entry.get("when") or {}).get("kv_connector")
            if connectors is not None and given.get("kv_connector") not in connectors:
                continue
            yield _finding(ctx, opt, entry, key, value, option)


def _finding(ctx, opt, entry, key, value, option):
    replacement = entry.get("replacement")
    since = knowledge.value_rename_since(option, key, value)
    said = entry["message"].replace("%s", value).strip()
    head = f"`{key}: {value}` of `{opt.written}` is deprecated"
    if replacement is not None:
        head += f": write `{replacement}`, which vLLM rewrites it to"
    notes = [f"vLLM {ctx.version} logs: \"{said}\" ({entry['source']})"]
    if since is not None and since < ctx.version:
        oldest = min(knowledge.known_versions())
        notes.append(f"deprecated since vLLM {since}" + (" or earlier (the first release read)" if since == oldest else ""))
    notes = tuple(notes)
    if opt.dotted:
        d = next(d for d in opt.dotted if d.path == [key])
        fix = None
        if replacement is not None:
            fix = ctx.replace_item_fix(d.value_item, replacement, f"Change `{key}` to `{replacement}`", "safe")
        return Finding(ctx.item_span(d.value_item), head, fix=fix, notes=notes)
    fix = None
    tok = json_text.written_object(ctx, opt)
    span = json_text.value_span(ctx, tok, key, value) if tok is not None else None
    if span is not None and replacement is not None:
        fix = Fix(f"Change `{key}` to `{replacement}`", (Edit(span, replacement),), "safe")
    where = span or (ctx.item_span(opt.values[-1]) if opt.setting is None else ctx.name_span(opt))
    return Finding(where, head, fix=fix, notes=notes)
