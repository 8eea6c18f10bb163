"""## config-false-dropped (VL210)

What it does: finds `key: false` in a vLLM `--config` file.

Why is this bad? vLLM's config loader turns `key: false` into `--no-key` only
when that string is an option of the parser it runs on.  Under `vllm serve` it
runs on the top-level `vllm` parser, which has none of the serve options, so
every `false` is dropped without a word (vllm/utils/argparse_utils.py
`load_config_file`, 0.28 to 0.33; the inventories' probes confirm it on each
release's real parser).  For three-state options such as
`enable-prefix-caching` (unset means "decide per model") a dropped `false`
means "auto", not "off"; for options that default to on it means "on".

Example (config.yaml, used as `vllm serve MODEL --config config.yaml`):
    enable-prefix-caching: false

Use instead (config.yaml):
    no-enable-prefix-caching: true

Fix safety: unsafe: the fix makes the setting take effect, which changes what
the server does today.  No fix when the option has no `--no-` form.

Versions: 0.28 and later.  Options whose default is already off are not
reported (dropping `false` changes nothing).
"""

from linter.diagnostic import Edit, Finding, Fix, Severity
from rules._lib.base import Rule, register

rule = register(Rule("VL210", "config-false-dropped", "`key: false` in a config file is silently dropped", Severity.WARNING, fixable=True))

FALSE = ("false", "no", "off", "n")


@rule.check
def check(ctx):
    if ctx.launch.entrypoint != "config":
        return
    release = ctx.release
    for opt in ctx.parsed.options:
        setting = opt.setting
        spec = opt.spec
        if setting is None or setting.kind != "bool" or spec is None or spec.takes_value:
            continue
        if setting.value is None or setting.value.value.lower() not in FALSE:
            continue
        if opt.negative:
            continue  # `no-x: false` is dropped too, and leaves x at its default: nothing was turned on
        if spec.default is False:
            continue  # dropping `false` leaves the default, which is already off
        key = opt.written
        sep = "_" if "_" in key and "-" not in key else "-"
        negative = "no" + sep + key
        fix = None
        value_tok = setting.value
        if (
            "--no-" + key.replace("_", "-") in release.by_name
            and ctx.name_editable(opt)
            and value_tok is not None
            and value_tok.value_start is not None
        ):
            fix = Fix(
                f"Write `{negative}: true`",
                (Edit(ctx.name_span(opt), negative), Edit(value_tok.value_span(), "true")),  # type: ignore[arg-type]
                "unsafe",
            )
        meaning = "auto (decided per model)" if spec.default is None else f"at its default ({spec.default!r})"
        yield Finding(
            ctx.name_span(opt),
            f"`{key}: false` is dropped by `vllm serve`'s config loader (vLLM {ctx.version}), so the option stays {meaning}; "
            f"write `{negative}: true`",
            fix=fix,
        )
