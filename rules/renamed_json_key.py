"""## renamed-json-key (VL109)

What it does: finds keys of JSON options that vLLM renamed, used under their old name
(`keys:` facts of rules/data/migrations.yaml): `level` of `--compilation-config`, which
became `mode`.

Why is this bad? vLLM's config classes forbid unknown fields: an old key is a validation
error at startup, after argparse accepted the JSON text.

Example:
    vllm serve Qwen/Qwen3-8B --compilation-config '{"level": 3}'

Use instead:
    vllm serve Qwen/Qwen3-8B --compilation-config '{"mode": 3}'

Fix safety: the fact says (the new key takes the same values: safe for `level`).  The key
is renamed where it is written: a dotted `--compilation-config.level 3`, the JSON text,
a Python dict or a `--config` mapping; no fix when the object already has the new key or
names the old one more than once.

Versions: from the fact's `removed-in` (the first release that rejects the key).
"""

import re

from linter import knowledge
from linter.diagnostic import Edit, Finding, Fix, Severity
from linter.launch import Span
from rules._lib import json_text
from rules._lib.base import Rule, register

rule = register(Rule("VL109", "renamed-json-key", "Key of a JSON option renamed; the old key fails startup", Severity.ERROR, fixable=True))


@rule.check
def check(ctx):
    for opt in ctx.parsed.options:
        if opt.spec is None or opt.value_opaque:
            continue
        for fact in knowledge.migrations().key_facts(opt.spec.primary):
            if not fact.gone_in(ctx.version):
                continue
            head = (f"`{fact.key}` of `{opt.written}` was renamed to `{fact.replacement}` after vLLM {fact.last_accepted} "
                    f"({ctx.version} fails at startup on it): write `{fact.replacement}`")
            notes = (fact.note.strip(),) if fact.note else ()
            for d in opt.dotted or ():
                if d.path[:1] == [fact.key]:
                    yield Finding(ctx.item_span(d.name_item), head, fix=_dotted_fix(ctx, d, fact), notes=notes)
            data = opt.json_object if not opt.dotted else None
            if data is not None and fact.key in data:
                fix = None if fact.replacement in data else _json_fix(ctx, opt, fact)
                yield Finding(ctx.item_span(opt.values[-1]) if opt.setting is None else ctx.name_span(opt), head, fix=fix, notes=notes)


def _dotted_fix(ctx, d, fact):
    tok = d.name_item.token
    if tok is None or tok.value_start is None or not ctx.item_editable(d.name_item):
        return None
    m = re.search(r"\." + re.escape(fact.key) + r"(?=$|[=.+])", tok.value)
    if m is None:
        return None
    start = tok.value_start + m.start() + 1
    return Fix(f"Rename `{fact.key}` to `{fact.replacement}`", (Edit(Span(start, start + len(fact.key)), fact.replacement),), fact.applicability)


def _json_fix(ctx, opt, fact):
    """Rename the key where the object is written: JSON text, a Python dict, a YAML mapping."""
    tok = json_text.written_object(ctx, opt)
    span = json_text.key_span(ctx, tok, fact.key) if tok is not None else None
    if span is None:
        return None
    return Fix(f"Rename `{fact.key}` to `{fact.replacement}`", (Edit(span, fact.replacement),), fact.applicability)
