"""## entrypoint-repeated (VL801)

What it does: finds arguments for the `vllm/vllm-openai` image that start with
`vllm serve` again: a Kubernetes container's `args` without `command`, a compose
service's `command` without `entrypoint`, a Dockerfile `CMD` on `FROM
vllm/vllm-openai` without an `ENTRYPOINT` of its own, or the words after the image
in `docker run vllm/vllm-openai:TAG vllm serve ...`.

Why is this bad? The image's entrypoint is `vllm serve` (`ENTRYPOINT ["vllm",
"serve"]` in vLLM's docker/Dockerfile), and the container runs it followed by
the arguments: `vllm serve vllm serve Qwen/Qwen3-8B ...`.  vLLM takes `vllm` as the
model and stops with "unrecognized arguments: serve ...", so the pod restarts
forever (vllm-project/vllm issue #37133 with 0.17.1; zai-org/GLM-OCR issue #39
with a nightly image of February 2026).

Example (Compose; a Kubernetes container's `args` is the same):
    services:
      vllm:
        image: vllm/vllm-openai:v0.32.0
        command: ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-len", "8192"]

Use instead:
    services:
      vllm:
        image: vllm/vllm-openai:v0.32.0
        command: ["Qwen/Qwen3-8B", "--max-model-len", "8192"]

or keep the words and say they are the command (`entrypoint: ["vllm", "serve"]`
in Compose, `command: ["vllm", "serve"]` in Kubernetes).

Fix safety: safe: the two words are removed with the separators between them
(list items in block or flow style, words of a compose string or a shell
command), so the list keeps its style.  No fix when a comment or anything else
stands between the words, or when nothing follows them.

Versions: images whose entrypoint is `vllm serve`.  Earlier images ran
`python3 -m vllm.entrypoints.openai.api_server` (hmellor in vllm-project/vllm
issue #17172, May 2025; the api_server.py error in issues #22072, August 2025 and
#27389, October 2025); `vllm serve` is the entrypoint in a February 2026 nightly
(0.16 development), in 0.17.1 (issue #37133) and in 0.26 (NVIDIA-AI-IOT/jetson-ai-lab
PR #420: `Entrypoint=["vllm","serve"]`).  The rule therefore applies from 0.16.0,
read from the image tag of the launch (a tag such as `latest` or no tag: the
newest release); older images fail on the repeated words too, with api_server's
own message, and are not reported here.
"""

from packaging.version import Version

from linter.diagnostic import Edit, Finding, Fix, Severity
from linter.launch import Span, Token
from linter.sources.commands import ENTRYPOINT_REPEATED, is_vllm_image
from rules._lib.base import Rule, register

rule = register(Rule("VL801", "entrypoint-repeated", "Arguments for the vLLM image repeat its `vllm serve` entrypoint", Severity.ERROR, fixable=True))

ENTRYPOINT_SINCE = Version("0.16.0")
_SEPARATORS = frozenset(" \t\r\n,-\\")


def repeated_words(launch) -> list[Token] | None:
    """The repeated entrypoint words of a launch, or None."""
    if ENTRYPOINT_REPEATED in launch.notes:
        return list(launch.entry)
    if launch.entrypoint == "image" and len(launch.args) >= 2 and launch.args[0].value == "vllm" and launch.args[1].value == "serve":
        return launch.args[:2]  # docker run IMAGE vllm serve ...
    return None


def _removal(ctx, words: list[Token], following: Token | None) -> Edit | None:
    """Delete ``words`` up to the next token, when only separators stand between them."""
    if following is None or not ctx.launch.editable or any(w.value_start is None or w.is_opaque for w in words):
        return None
    text = ctx.src.text
    stops = [*words, following]
    for a, b in zip(stops, stops[1:]):
        gap = text[a.span.end : b.span.start]
        if a.span.end > b.span.start or not set(gap) <= _SEPARATORS:
            return None
    return Edit(Span(words[0].span.start, following.span.start), "")


@rule.check
def check(ctx):
    launch = ctx.launch
    if launch.image is None or launch.image.is_opaque or not is_vllm_image(launch.image.value):
        return
    version = ctx.pin or ctx.version
    if version < ENTRYPOINT_SINCE:
        return
    words = repeated_words(launch)
    if not words:
        return
    said = " ".join(w.value for w in words)
    if launch.entrypoint == "image":
        following = launch.args[2] if len(launch.args) > 2 else None
    else:
        following = launch.args[0] if launch.args else None
    fix = None
    if [w.value for w in words] == ["vllm", "serve"]:
        edit = _removal(ctx, words, following)
        if edit is not None:
            fix = Fix(f"Remove the repeated `{said}`", (edit,), "safe")
    where = {
        "k8s": "`args` without `command`",
        "compose": "`command` without `entrypoint`",
        "dockerfile": "a `CMD` under the image's own `ENTRYPOINT`",
    }.get(launch.kind, "the arguments after the image")
    yield Finding(
        Span(words[0].span.start, words[-1].span.end),
        f"{where} starting with `{said}` runs `vllm serve {said} ...` in the {launch.image.value} image, which fails: "
        f"drop `{said}` (or set the command explicitly)",
        notes=(f"the image's entrypoint is already `vllm serve` (images of vLLM {ENTRYPOINT_SINCE} and later), so vLLM "
               "reads the words as arguments and exits with \"unrecognized arguments\"",),
        fix=fix,
    )
