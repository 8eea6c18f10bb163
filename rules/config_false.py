"""## config-false-dropped (VL210)

What it does: finds `key: false` in a vLLM `--config` file where the key has no
`--no-` form that vLLM can find.

Why is this bad? vLLM turns `key: false` into `--no-key` only when exactly that
string is an option (vllm/utils/argparse_utils.py `load_config_file`, 0.28 to
0.33); otherwise the line is dropped without a word.  For three-state options
such as `enable-prefix-caching` (unset means "decide per model") a dropped
`false` means "auto", not "off"; a key written with underscores
(`enable_prefix_caching: false`) is always dropped because `--no-enable_prefix_caching`
is not an option string.

Example (config.yaml):
    enable_prefix_caching: false

Use instead:
    enable-prefix-caching: false

Fix safety: unsafe: the fix makes the setting take effect, which changes
behaviour from what the server does today.

Versions: 0.28 and later.
"""

from linter.diagnostic import Edit, Fix, Severity
from rules.base import Rule, register

rule = register(Rule("VL210", "config-false-dropped", "`key: false` in a config file is silently dropped", Severity.WARNING, fixable=True))


@rule.check
def check(ctx):
    if ctx.launch.entrypoint != "config":
        return
    release = ctx.release
    for opt in ctx.parsed.options:
        setting = opt.setting
        if setting is None or setting.kind != "bool" or opt.spec is None:
            continue
        if setting.value is None or setting.value.value.lower() not in ("false", "no", "off", "n"):
            continue
        if "--no-" + opt.written in release.by_name:
            continue
        spec = opt.spec
        if spec.default is False:
            continue  # dropping `false` leaves the default, which is already off
        dashed = opt.written.replace("_", "-")
        fix = None
        if "--no-" + dashed in release.by_name and dashed != opt.written and ctx.name_editable(opt):
            fix = Fix(f"Write the key as `{dashed}`", (Edit(ctx.name_span(opt), dashed),), "unsafe")
        meaning = "auto (decided per model)" if spec.default is None else f"the default ({spec.default!r})"
        yield ctx.diagnostic(
            ctx.name_span(opt),
            f"`{opt.written}: false` is dropped by vLLM {ctx.version}'s config loader, so the option stays {meaning}",
            fix=fix,
        )
