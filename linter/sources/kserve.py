"""KServe's Hugging Face runtime (``python -m huggingfaceserver``): its own flags, read before vLLM's.

The runtime builds one parser from KServe's model-server parser and its own
arguments, then, when the vLLM backend is used, adds vLLM's engine and server
arguments to it (``maybe_add_vllm_cli_parser``) and hands the parsed namespace
to vLLM.  Its own flags are therefore never "unrecognized" there; they are
stripped from the launch so that only what vLLM reads is checked.  The model
is ``--model_id`` (else ``--model_dir``, ``/mnt/models`` by default).

Sources: the kserve 0.21.0 wheel on PyPI, ``kserve/model_server.py`` (every
``parser.add_argument``: names, and whether each takes a value), and
kserve/kserve ``python/huggingfaceserver/huggingfaceserver/__main__.py``
(commit f205bbf).  Flags that vLLM's parser also defines (``--ssl_certfile``,
``--ssl_keyfile``, ``--max_model_len``, ``--trust_remote_code``) stay: vLLM reads
them too.
"""

from __future__ import annotations

from linter.launch import Token

# option (with dashes) -> takes a value
RUNTIME_FLAGS: dict[str, bool] = {
    # kserve/model_server.py (kserve 0.21.0)
    "--http-port": True, "--grpc-port": True, "--workers": True, "--max-threads": True,
    "--max-asyncio-workers": True, "--enable-grpc": True, "--enable-docs-url": True,
    "--enable-latency-logging": True, "--configure-logging": True, "--log-config-file": True,
    "--access-log-format": True, "--event-loop": True, "--timeout-keep-alive": True,
    "--model-name": True, "--predictor-host": True, "--protocol": True, "--predictor-protocol": True,
    "--predictor-use-ssl": True, "--predictor-request-timeout-seconds": True,
    "--grpc-max-send-message-length": True, "--grpc-max-receive-message-length": True,
    "--predictor-request-retries": True, "--enable-predictor-health-check": False,
    # huggingfaceserver/__main__.py
    "--model-dir": True, "--model-id": True, "--model-revision": True, "--tokenizer-revision": True,
    "--max-length": True, "--disable-lower-case": False, "--disable-special-tokens": False,
    "--tensor-input-names": True, "--backend": True, "--return-token-type-ids": False,
    "--return-probabilities": False, "--disable-log-requests": False,
}
MODULE = "huggingfaceserver"


def _flag(tok: Token) -> tuple[str, bool] | None:
    """(option, value given with ``=``) when ``tok`` is one of the runtime's own flags."""
    if tok.is_opaque and tok.opaque_in(0, 2) or not tok.value.startswith("--"):
        return None
    name, eq, _ = tok.value.partition("=")
    name = "--" + name[2:].replace("_", "-")
    return (name, bool(eq)) if name in RUNTIME_FLAGS else None


def strip_runtime_flags(args: list[Token]) -> tuple[list[Token], list[str]]:
    """``args`` without the runtime's own flags (and their values); the flags removed, as written."""
    kept: list[Token] = []
    removed: list[str] = []
    i = 0
    while i < len(args):
        found = _flag(args[i])
        if found is None:
            kept.append(args[i])
            i += 1
            continue
        name, inline = found
        removed.append(args[i].value.split("=", 1)[0])
        i += 1
        if RUNTIME_FLAGS[name] and not inline and i < len(args) and not args[i].value.startswith("--"):
            i += 1  # its value
    return kept, removed


def runtime_index(words: list[Token]) -> int | None:
    """Index after ``python[3] -m huggingfaceserver`` at the start of ``words``, else None."""
    for i in range(min(len(words) - 1, 3)):
        if words[i].value == "-m" and i + 1 < len(words) and words[i + 1].value == MODULE:
            head = words[0].value.rsplit("/", 1)[-1]
            if head.startswith("python"):
                return i + 2
    return None
