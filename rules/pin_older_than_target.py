"""## pin-older-than-target (VL601)

What it does: with `--target-version`, finds files that pin an older vLLM
release than the target: an image tag (`vllm/vllm-openai:v0.29.0`), a
`vllm==0.29.0` pin, a Dockerfile `FROM`.

Why is this bad? Migrating the flags to the target while the image stays old
breaks the launch the other way: the new option names do not exist yet.  The
pin must move with the flags.

Example (`--target-version 0.32`):
    services:
      vllm:
        image: vllm/vllm-openai:v0.29.0
        command: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]

Use instead (`--target-version 0.32`):
    services:
      vllm:
        image: vllm/vllm-openai:v0.32.0
        command: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]

Fix safety: unsafe: a new release changes more than the flags (kernels,
defaults, memory use); bump it deliberately.  The pin moves only with the flags:
the fix is offered for a pin only when, after the other fixes of every launch it
pins, nothing that stops the start remains (no error without a fix that
`--unsafe-fixes` applies); otherwise the message counts what holds it back and a
note names each finding.  A tag that is not a plain vLLM release (`latest`,
`v0.10.0-cu128-nixl-v0.4.1`, a date) is someone's own build and is never
rewritten.

Versions: whatever the target is.
"""

from linter.diagnostic import Edit, Finding, Fix, Severity
from linter.launch import Span
from linter.lazy_re import lazy_re
from rules._lib import blocking
from rules._lib.base import Rule, register

rule = register(Rule("VL601", "pin-older-than-target", "File pins an older release than the target", Severity.WARNING, scope="file", fixable=True))

# the release in a tag or pin, with its post-release or candidate suffix (``0.5.3post1``,
# ``v0.8.5.post1``, ``0.11.0rc2``): the fix replaces all of it, never leaving a suffix that
# names no release of the new version; a platform suffix (``-x86_64``) stays
VERSION_IN_TAG = lazy_re(r"(\d+)\.(\d+)(?:\.(\d+))?(?:\.?post\d+|rc\d+)?")


# a plain release: `v0.29.0`, `0.29`, `0.6.3.post1`; anything else in a tag is someone's own build
PLAIN_RELEASE = lazy_re(r"v?\d+\.\d+(?:\.\d+)?(?:\.?post\d+)?")


@rule.check
def check(fctx):
    groups: dict[tuple[int, int], list] = {}
    for lctx in fctx.launches:
        if not lctx.target_explicit or lctx.pin is None or lctx.launch.program != "vllm":
            continue
        hint = lctx.launch.version_hint
        if hint is None or lctx.pin >= lctx.version:
            continue
        groups.setdefault((hint.span.start, hint.span.end), []).append(lctx)
    for lctxs in groups.values():
        lctx = lctxs[0]
        hint = lctx.launch.version_hint
        target = lctx.version
        head = f"this file pins vLLM {hint.version} but is checked for {target}"
        text = fctx.src.text[hint.span.start : hint.span.end]
        m = VERSION_IN_TAG.search(text)
        if not (m and PLAIN_RELEASE.fullmatch(text)):
            yield Finding(hint.span, f"{head}: pick the image or pin of {target} yourself", version=str(target),
                          notes=(f"`{text}` is not a plain vLLM release (a build of its own), so it is not rewritten",))
            continue
        held = [d for lc in lctxs for d in blocking.blockers(lc)]
        if held:
            n = len(held)
            yield Finding(hint.span, f"{head}: the pin stays until {n} finding{'s' if n != 1 else ''} that "
                          f"stop{'s' if n == 1 else ''} the start on {target} {'is' if n == 1 else 'are'} fixed by hand",
                          version=str(target),
                          notes=tuple(f"held back by {d.code} (line {fctx.src.line_col(d.span.start)[0]}): {d.message}" for d in held))
            continue
        fix = None
        if hint.editable:
            parts = len([g for g in m.groups() if g is not None])
            new = ".".join(str(x) for x in target.release[:parts]) if parts < 3 else f"{target.major}.{target.minor}.{target.micro}"
            span = Span(hint.span.start + m.start(), hint.span.end)  # a `.post1` of the old release goes too
            fix = Fix(f"Pin vLLM {new}", (Edit(span, new),), "unsafe")
        yield Finding(hint.span, f"{head}: move the pin with the flags", version=str(target), fix=fix)
