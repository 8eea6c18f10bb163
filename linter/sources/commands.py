"""Recognise a vLLM (or LMCache server) start in a list of command words.

Shared by every extractor that ends up with an argv: shell commands, YAML
``command``/``args`` lists, compose ``command``, Dockerfile exec forms and
Python ``subprocess`` lists.  It knows which words are wrappers (``exec``,
``nohup``, ``env A=b``, ``uv run``, ``docker run [opts] IMAGE``) and which words
select vLLM's parser (``vllm serve``, ``python -m vllm.entrypoints.openai.api_server``).
"""

from __future__ import annotations

import contextvars
import fnmatch
import posixpath
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from linter.launch import Span, Token
from linter.lazy_re import lazy_re
from linter.records import Frozen, Record, _set
from linter.sources.words import is_shell

# Images whose entrypoint is vLLM's OpenAI server.  Matched on the last path
# component of the repository (so registries and mirrors count).
# A note on launches whose words are handed to a vLLM image's entrypoint (Kubernetes
# ``args`` without ``command``, compose ``command`` without ``entrypoint``) but start with
# a vLLM command of their own (``vllm serve ...``): the container runs the entrypoint
# followed by those words (``vllm serve vllm serve ...``).  Rule VL801 reports it.
ENTRYPOINT_REPEATED = "the arguments for the image's entrypoint start with a command of their own"

VLLM_IMAGE_NAMES = frozenset({"vllm-openai", "vllm-openai-rocm", "vllm-tpu", "vllm-cpu", "vllm-openai-cpu"})
_VERSION_RE = lazy_re(r"^v?(\d+)\.(\d+)(?:\.(\d+))?")


class ImageRef(Frozen):
    __slots__ = ("repository", "name", "tag", "tag_offset")

    repository: str  # e.g. "vllm/vllm-openai", "docker.io/vllm/vllm-openai"
    name: str  # last path component, e.g. "vllm-openai"
    tag: str | None
    tag_offset: int | None  # offset of the tag inside the reference string

    def __init__(self, repository, name, tag, tag_offset):
        _set(self, "repository", repository)
        _set(self, "name", name)
        _set(self, "tag", tag)
        _set(self, "tag_offset", tag_offset)


def parse_image(ref: str) -> ImageRef:
    """Split ``[registry/]path[:tag][@digest]`` (Docker's reference grammar)."""
    digestless = ref.split("@", 1)[0]
    slash = digestless.rfind("/")
    colon = digestless.rfind(":")
    if colon > slash:
        repo, tag, tag_offset = digestless[:colon], digestless[colon + 1 :], colon + 1
    else:
        repo, tag, tag_offset = digestless, None, None
    name = repo.rsplit("/", 1)[-1]
    return ImageRef(repo, name, tag or None, tag_offset if tag else None)


class _RunImages(Record):
    """What the run knows of images beyond their names, while one file is read (:func:`vllm_images`)."""

    __slots__ = ("patterns", "dockerfiles", "built", "consulted")

    patterns: tuple[str, ...]  # ``vllm-images`` of the configuration (glob patterns)
    dockerfiles: Mapping[str, str]  # real path -> the vLLM image its final stage runs
    built: dict[str, str]  # image name the file builds -> that vLLM image
    # whether the reading looked ``dockerfiles`` up (:func:`built_consulted`)
    consulted: bool

    def __init__(self, patterns=(), dockerfiles=None, built=None, consulted=False):
        self.patterns = patterns
        self.dockerfiles = ({} if dockerfiles is None else dockerfiles)
        self.built = ({} if built is None else built)
        self.consulted = consulted


# Images of the run whose entrypoint is vLLM's as well: the ``vllm-images`` glob patterns of the
# configuration (vendor builds), and images the tree builds FROM a vLLM image.
_RUN_IMAGES: contextvars.ContextVar[_RunImages] = contextvars.ContextVar("vllm_images", default=_RunImages())


@contextmanager
def vllm_images(patterns: tuple[str, ...] | list[str], dockerfiles: Mapping[str, str] | None = None) -> Iterator[None]:
    """Within this block an image whose repository (or whole reference) matches one of the glob
    ``patterns`` counts as one of vLLM's own images (entrypoint ``vllm serve``), and an image the
    file builds (:func:`note_built`) from one of ``dockerfiles`` (real path -> the vLLM image its
    final stage runs, entrypoint kept) runs that image's entrypoint."""
    token = _RUN_IMAGES.set(_RunImages(tuple(patterns), dockerfiles or {}))
    try:
        yield
    finally:
        _RUN_IMAGES.reset(token)


def note_built(names: list[str], dockerfile: list[str]) -> str | None:
    """``docker build -t NAME`` of the Dockerfile at one of the paths ``dockerfile`` (the places
    it may stand): when that file's final stage runs a vLLM image, NAME does too.  Returns that image."""
    state = _RUN_IMAGES.get()
    state.consulted = True
    base = next((state.dockerfiles[p] for p in dockerfile if p in state.dockerfiles), None)
    if base is not None:
        for name in names:
            state.built[name] = base
    return base


def dockerfile_base(path: str) -> str | None:
    """The vLLM image the Dockerfile at real path ``path`` (one of the run's) builds FROM, or None."""
    state = _RUN_IMAGES.get()
    state.consulted = True
    return state.dockerfiles.get(path)


def vllm_image_patterns() -> tuple[str, ...]:
    """The ``vllm-images`` patterns of this :func:`vllm_images` block."""
    return _RUN_IMAGES.get().patterns


def built_consulted() -> bool:
    """Whether the reading in this :func:`vllm_images` block looked up the Dockerfiles of the run
    (a ``docker build`` of a script, a compose ``build:``).  A reading that did not reads the same
    whatever they are: each lookup comes where the file's own text leads, and only a lookup's
    answer can change what follows, so the extraction cache keys the Dockerfiles into the
    readings that looked them up only."""
    return _RUN_IMAGES.get().consulted


def built_from(ref: str) -> str | None:
    """The vLLM image that image ``ref``, built in this file (:func:`note_built`), is built FROM."""
    built = _RUN_IMAGES.get().built
    if not built:
        return None
    return built.get(ref) or (built.get(ref + ":latest") if parse_image(ref).tag is None else built.get(ref.removesuffix(":latest")))


def _configured_image(ref: str) -> bool:
    patterns = _RUN_IMAGES.get().patterns
    if not patterns:
        return False
    repo = parse_image(ref).repository
    return any(fnmatch.fnmatchcase(repo, p) or fnmatch.fnmatchcase(ref, p) for p in patterns)


def is_vllm_image(ref: str) -> bool:
    image = parse_image(ref)
    return image.name in VLLM_IMAGE_NAMES or image.repository.endswith("vllm/vllm-openai") or _configured_image(ref)


# A tag that names a vLLM release as vLLM's own images are tagged (v0.30.1, 0.31.0, v0.9.0rc2).
_RELEASE_TAG_RE = lazy_re(r"^v?\d+\.\d+(\.\d+)?(rc\d+|\.post\d+)?$")
# Namespaces whose images carry their own project's release in the tag (LMCache's
# lmcache/vllm-openai:v0.3.9 is LMCache 0.3.9 on some vLLM).
_OTHER_RELEASE_NAMESPACES = frozenset({"lmcache"})


def release_tag(ref: str) -> tuple[str, int] | None:
    """``(tag, offset in ref)`` when the image's tag says which vLLM release it holds.

    vLLM's own images (namespace ``vllm``: ``vllm/vllm-openai``, on any registry) pin
    with any tag (``latest`` and ``nightly`` included, the engine reads them).  Other images
    pin only with a tag that is exactly a vLLM release number; a vendor build
    (``openeuler/vllm-cpu:0.10.1-oe2403lts``) or another project's release
    (``lmcache/vllm-openai:v0.3.9post2``) pins nothing.
    """
    image = parse_image(ref)
    if image.tag is None or image.tag_offset is None:
        return None
    parts = image.repository.lower().split("/")
    namespace = parts[-2] if len(parts) >= 2 else ""
    if namespace in _OTHER_RELEASE_NAMESPACES:
        return None
    if namespace != "vllm" and not _RELEASE_TAG_RE.match(image.tag):
        return None
    return image.tag, image.tag_offset


def is_official_vllm_image(ref: str) -> bool:
    """One of vLLM's own images (``vllm/vllm-openai``, ``vllm/vllm-tpu``, on any registry or mirror)."""
    image = parse_image(ref)
    parts = image.repository.lower().split("/")
    return (len(parts) >= 2 and parts[-2] == "vllm" and image.name in VLLM_IMAGE_NAMES) or _configured_image(ref)


def likely_vllm_image(ref: str | None) -> bool:
    """An image whose name says vLLM (not a router or an LMCache server image)."""
    if not ref:
        return False
    if is_vllm_image(ref):
        return True
    name = parse_image(ref).name.lower()
    return "vllm" in name and "router" not in name and "lmcache" not in name


def version_of_tag(tag: str) -> str | None:
    """``v0.30.1`` -> ``0.30.1``; ``0.31`` -> ``0.31``; ``latest``/``nightly`` -> None."""
    m = _VERSION_RE.match(tag)
    if not m:
        return None
    return ".".join(g for g in m.groups() if g is not None)


# ---------------------------------------------------------------------------
# Wrappers that run the next words as a command.

_WRAPPERS_NO_ARGS = frozenset({"nohup", "time", "setsid", "command", "builtin", "unbuffer"})
# wrapper -> options of that wrapper that take a separate value
_WRAPPER_OPTS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "exec": frozenset({"-a"}),  # bash's ``exec [-cl] [-a name] command``
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-t"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "taskset": frozenset(),
    "numactl": frozenset({"-C", "-N", "-m", "-i", "-p", "--cpunodebind", "--physcpubind", "--membind", "--interleave", "--preferred"}),
    "chrt": frozenset(),
    "flock": frozenset({"-w", "--wait", "--timeout", "-E", "--conflict-exit-code"}),  # flock [opts] FILE CMD
    "caffeinate": frozenset({"-t", "-w"}),  # macOS caffeinate(8)
    # screen(1) runs CMD in a new window (``screen -dmS vllm vllm serve ...``); combined short
    # options ending in a letter that takes a value (``-dmS NAME``) are read below
    "screen": frozenset({"-S", "-c", "-e", "-h", "-p", "-s", "-T", "-X", "-Logfile"}),
    # systemd-run(1): a transient unit runs the command (``--property=Type=notify`` needs no value)
    "systemd-run": frozenset(
        """-p --property -u --unit -E --setenv --uid --gid --nice --description --slice -H --host -M
        --machine --working-directory --on-active --on-boot --on-startup --on-unit-active
        --on-unit-inactive --on-calendar --timer-property --path-property --socket-property
        --service-type""".split()
    ),
    "tini": frozenset(),
    "dumb-init": frozenset(),
    # Slurm srun(1): the options that take a separate value (``--opt=value`` needs none)
    "srun": frozenset(
        """-A --account -B --extra-node-info -c --cpus-per-task -C --constraint -D --chdir -d --dependency
        -e --error -G --gpus -i --input -J --job-name -L --licenses -m --distribution -N --nodes
        -n --ntasks -o --output -p --partition -q --qos -t --time -w --nodelist -x --exclude
        -W --wait -T --threads --gres --gpus-per-node --gpus-per-task --mem --mem-per-cpu
        --mem-per-gpu --ntasks-per-node --cpus-per-gpu --mpi --export --container-image
        --container-mounts --container-name --container-workdir --reservation --comment""".split()
    ),
    # Open MPI mpirun(1) / mpiexec (``--mca`` takes two values, handled below)
    "mpirun": frozenset(
        """-n -np -c -N --n --np -H --host --hostfile -hostfile --machinefile -machinefile --map-by
        --rank-by --bind-to -x --prefix -wdir --wdir --report-bindings-file --npernode -npernode
        --output-filename --timeout""".split()
    ),
}
_WRAPPER_OPTS["mpiexec"] = _WRAPPER_OPTS["mpirun"]
_TWO_VALUE_OPTS = frozenset({"--mca", "-mca", "--gmca", "-gmca"})
# a wrapper's options whose value (the next word) is ``NAME=VALUE`` set for the command it runs:
# exported to the ranks (mpirun), the transient unit's environment (systemd-run)
_WRAPPER_ENV_OPTS = {"mpirun": ("-x",), "mpiexec": ("-x",), "systemd-run": ("-E", "--setenv")}
_WRAPPERS_WITH_POSITIONAL = {"timeout": 1, "taskset": 1, "chrt": 1, "flock": 1}
_SCREEN_VALUE_LETTERS = frozenset("Scehps")

# ``uv run``, ``poetry run``, ``pipenv run``, ``pdm run``, ``hatch run``, ``conda run``
_RUNNERS = {"uv": "run", "poetry": "run", "pipenv": "run", "pdm": "run", "hatch": "run", "conda": "run", "micromamba": "run", "mamba": "run", "rye": "run", "pixi": "run"}
_RUNNER_OPTS = frozenset({"-n", "--name", "-p", "--prefix", "--with", "--python", "--project", "--directory", "--env-file", "--extra", "--group", "--index", "--index-url", "--from", "-e", "--environment"})

_PYTHON_RE = lazy_re(r"^(python|python\d(\.\d+)?|pypy3?)$")
_PYTHON_OPTS_WITH_VALUE = frozenset({"-W", "-X", "-Q"})

# vLLM module entrypoints that take the serve options, as the releases ship them:
# - vllm/entrypoints/openai/api_server.py ``__main__``: ``make_arg_parser`` (0.11.0 L1942-1950);
#   in 0.33.0 a deprecated shim that runs launchers/api_server/entry.py ``main`` (L50-59);
# - vllm/entrypoints/launchers/api_server/entry.py ``main`` and launchers/render/entry.py
#   ``__main__`` (0.33.0 L204-222, L108-124): ``common.cli_args.make_arg_parser``;
# - vllm/entrypoints/cli/main.py with ``serve``;
# - vllm/entrypoints/api_server.py (the demo server, up to 0.11.0 L148-174): its own
#   --host/--port/--ssl-* and the engine arguments, a subset of the serve parser.
VLLM_MODULES = {
    "vllm.entrypoints.openai.api_server": "api_server",
    "vllm.entrypoints.launchers.api_server.entry": "api_server",
    "vllm.entrypoints.launchers.render.entry": "api_server",
    "vllm.entrypoints.api_server": "api_server",
    "vllm.entrypoints.cli.main": "cli",
}
LMCACHE_MODULES = {
    "lmcache.v1.multiprocess.server": "lmcache server",
    "lmcache.v1.multiprocess.http_server": "lmcache server",
    "lmcache.cli.main": "lmcache cli",
}

# docker/podman run options that take a separate value (docker run --help, 28.x)
_DOCKER_RUN_VALUE_OPTS = frozenset(
    """-a --attach --add-host --annotation --blkio-weight --blkio-weight-device --cap-add --cap-drop
    --cgroup-parent --cgroupns --cidfile --cpu-period --cpu-quota --cpu-rt-period --cpu-rt-runtime -c
    --cpu-shares --cpus --cpuset-cpus --cpuset-mems --device --device-cgroup-rule --device-read-bps
    --device-read-iops --device-write-bps --device-write-iops --dns --dns-option --dns-search
    --domainname --entrypoint -e --env --env-file --expose --gpus --group-add --health-cmd
    --health-interval --health-retries --health-start-interval --health-start-period --health-timeout
    -h --hostname --ip --ip6 --ipc --isolation --kernel-memory -l --label --label-file --link
    --link-local-ip --log-driver --log-opt --mac-address -m --memory --memory-reservation
    --memory-swap --memory-swappiness --mount --name --network --net --network-alias --net-alias
    --oom-score-adj --pid --pids-limit --platform -p --publish --pull --restart --runtime
    --security-opt --shm-size --stop-signal --stop-timeout --storage-opt --sysctl --tmpfs --ulimit
    -u --user --userns --uts -v --volume --volume-driver --volumes-from -w --workdir
    --hooks-dir --pod --replace --secret --userns --uidmap --gidmap --subuidname --subgidname""".split()
)


def basename(word: str) -> str:
    return posixpath.basename(word)


class Match(Record):
    """What the words start: the program, the entrypoint, and where its own argv begins."""

    __slots__ = ("program", "entrypoint", "entry", "args", "image", "env", "named_like", "container", "base", "via", "mounts")

    program: str  # "vllm" | "lmcache"
    entrypoint: str  # "vllm serve", "api_server", "image", "lmcache server"
    entry: list[Token]
    args: list[Token]
    image: Token | None
    env: list[tuple[Token, Token | None]]  # VAR=x words of env/docker -e
    named_like: bool  # the words run in an image merely named like vLLM's (weak)
    container: Token | None  # ``docker exec NAME ...``: the running container the words run in
    base: str | None  # the image is built in this tree FROM this vLLM image (its entrypoint kept)
    via: Token | None  # the repository's script the words are handed to (:func:`forwarded`; weak)
    mounts: list[tuple[str, str]]  # ``docker run -v``: files of the tree the container sees (:attr:`DockerRun.mounts`)

    def __init__(self, program, entrypoint, entry, args, image=None, env=None, named_like=False, container=None, base=None, via=None, mounts=None):
        self.program = program
        self.entrypoint = entrypoint
        self.entry = entry
        self.args = args
        self.image = image
        self.env = ([] if env is None else env)
        self.named_like = named_like
        self.container = container
        self.base = base
        self.via = via
        self.mounts = ([] if mounts is None else mounts)

    @property
    def strong(self) -> bool:
        """A vLLM command word or entrypoint module, or a vLLM image whose entrypoint takes the args."""
        if self.named_like or self.via is not None:
            return False
        if self.entrypoint != "image" or self.base is not None:
            return True
        if self.image is not None and self.image.alternatives:
            return all(is_official_vllm_image(a) for a in self.image.alternatives)
        return self.image is not None and not self.image.is_opaque and is_official_vllm_image(self.image.value)

    @property
    def evidence(self) -> str:
        """Why these words start vLLM (or LMCache), for ``--show-launches``."""
        if self.named_like and self.image is not None and self.entrypoint == "vllm serve":
            return f"`serve` arguments of image {self.image.value}, named like vLLM's"
        if self.via is not None:
            return f"`vllm serve` words handed to the script {self.via.value}"
        if self.entrypoint == "image":
            if self.image is None:
                return "arguments of a vLLM image's entrypoint"
            if self.base is not None:
                return f"image {self.image.value}, built here FROM vLLM image {self.base}"
            kind = "vLLM image" if self.strong else "image named like vLLM's"
            if self.image.alternatives:
                return f"{kind} {self.image.value} (one of {', '.join(self.image.alternatives)})"
            return f"{kind} {self.image.value}"
        head = [t.value for t in self.entry]
        if head and head[0].rsplit("/", 1)[-1] in ("docker", "podman", "nerdctl"):
            head = head[-1:]
        words = " ".join(head[-3:] if len(head) > 3 else head)
        where = f" in image {self.image.value}" if self.image is not None else ""
        return f"`{words}` command{where}"


_SCRIPT_SUFFIXES = (".sh", ".bash", ".py")


def forwarded(words: list[Token]) -> Match | None:
    """``./launch-cluster.sh --apply-mod X exec vllm serve MODEL --opt ...``: the words ``vllm
    serve`` handed to a script of the repository (``./x``, ``../x``, ``x.sh``; after a shell
    such as ``bash``, ``sh`` or ``zsh``), with its own options or subcommand before them.  Such a script is taken to run
    them (weak evidence: reported, never edited).  A program that is not a script of the
    repository (``echo``, ``pkill``, ``/usr/bin/...``) is not."""
    k = 1 if len(words) > 1 and is_shell(words[0].value) else 0
    if len(words) < k + 3 or words[k].is_opaque:
        return None
    script = words[k].value
    if not (script.startswith(("./", "../")) or script.endswith((".sh", ".bash"))):
        return None
    for j in range(k + 1, len(words) - 1):
        w = words[j]
        if w.is_opaque:
            return None
        if basename(w.value) == "vllm" and words[j + 1].value == "serve":
            return Match("vllm", "vllm serve", words[j : j + 2], words[j + 2 :], via=words[k])
    return None


# docker exec --help (28.x): options that take a separate value
_DOCKER_EXEC_VALUE_OPTS = frozenset({"-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir", "--detach-keys"})


class DockerRun(Record):
    """The options of ``docker run`` / ``docker create`` (podman, nerdctl) before the image."""

    __slots__ = ("image_index", "env", "entrypoint", "name", "mounts")

    image_index: int  # index of the image word (len(words) when none)
    env: list[tuple[Token, Token | None]]  # ``-e VAR=x``
    entrypoint: Token | None  # ``--entrypoint``
    name: Token | None  # ``--name``: the container ``docker exec NAME`` runs in
    mounts: list[tuple[str, str]]  # ``-v ./cfg.yaml:/etc/vllm/cfg.yaml``: (container path, host path) (:func:`bind_mount`)

    def __init__(self, image_index, env=None, entrypoint=None, name=None, mounts=None):
        self.image_index = image_index
        self.env = ([] if env is None else env)
        self.entrypoint = entrypoint
        self.name = name
        self.mounts = ([] if mounts is None else mounts)


def bind_mount(source: str, target: str) -> tuple[str, str] | None:
    """(container path, host path) of a bind mount of a file or folder of the tree (host path as
    written: relative to the file that declares it, unless absolute); None for a named volume or a
    home or interpolated path (``~/x``, ``${DIR}/x``), which is no file of the tree."""
    if source.startswith((".", "/")) and target.startswith("/") and "$" not in source + target:
        return target, source
    return None


def volume_mount(spec: str) -> tuple[str, str] | None:
    """``SOURCE:TARGET[:OPTIONS]`` (``docker run -v``, a compose ``volumes`` item): :func:`bind_mount`."""
    parts = spec.split(":")
    return bind_mount(parts[0], parts[1]) if len(parts) >= 2 else None


def mount_option(spec: str) -> tuple[str, str] | None:
    """``type=bind,source=SRC,target=DST[,readonly]`` (``docker run --mount``): :func:`bind_mount`."""
    fields = dict(part.split("=", 1) for part in spec.split(",") if "=" in part)
    if fields.get("type") != "bind":
        return None
    source = fields.get("source") or fields.get("src") or ""
    return bind_mount(source, fields.get("target") or fields.get("destination") or fields.get("dst") or "")


def docker_run(words: list[Token]) -> DockerRun | None:
    """``docker [container] run|create [options] IMAGE ...``: its options, or None for another command."""
    if len(words) < 2 or basename(words[0].value) not in ("docker", "podman", "nerdctl"):
        return None
    k = 2 if words[1].value == "container" and len(words) >= 3 else 1
    if words[k].value not in ("run", "create"):
        return None
    out = DockerRun(len(words))
    j = k + 1
    while j < len(words):
        v = words[j].value
        if v == "--":
            j += 1
            break
        if any(start == 0 for start, _ in words[j].opaque) and not (words[j].alternatives and not any(a.startswith("-") for a in words[j].alternatives)):
            j += 1  # ``${GPU:+--gpus all}``: an expansion among the options, not the image
            continue
        if v.startswith("-") and len(v) > 1:
            name = v.split("=", 1)[0]
            takes = name in _DOCKER_RUN_VALUE_OPTS and "=" not in v
            val = words[j + 1] if takes and j + 1 < len(words) else (_sub_token(words[j], len(name) + 1, len(v)) if "=" in v else None)
            if name in ("-e", "--env") and val is not None:
                a = _split_assignment(val)
                if a is not None:
                    out.env.append(a)
            elif name == "--entrypoint":
                out.entrypoint = val
            elif name == "--name":
                out.name = val
            elif name in ("-v", "--volume", "--mount") and val is not None and not val.is_opaque:
                mount = mount_option(val.value) if name == "--mount" else volume_mount(val.value)
                if mount is not None:
                    out.mounts.append(mount)
            j += 2 if takes else 1
            continue
        break
    out.image_index = j
    return out


# docker buildx build --help (0.17): options that take a separate value
_DOCKER_BUILD_VALUE_OPTS = frozenset(
    """--add-host --allow --annotation --attest --build-arg --build-context --builder --cache-from
    --cache-to --call --cgroup-parent -f --file --iidfile --label --metadata-file --network
    --no-cache-filter -o --output --platform --progress --provenance --sbom --secret --shm-size
    --ssh -t --tag --target --ulimit --memory -m --cpu-shares -c --isolation --squash-to""".split()
)


class DockerBuild(Record):
    __slots__ = ("tags", "file", "context")

    tags: list[str]
    file: str | None  # ``-f``: the Dockerfile (relative to the working folder), else CONTEXT/Dockerfile
    context: str | None

    def __init__(self, tags, file, context):
        self.tags = tags
        self.file = file
        self.context = context


def docker_build(words: list[Token]) -> DockerBuild | None:
    """``docker [buildx|image] build [options] CONTEXT`` (podman, nerdctl): its tags, file and context."""
    if len(words) < 2 or basename(words[0].value) not in ("docker", "podman", "nerdctl"):
        return None
    k = 1
    if words[1].value in ("buildx", "image", "builder") and len(words) > 2:
        k = 2
    if words[k].value != "build":
        return None
    out = DockerBuild([], None, None)
    j = k + 1
    while j < len(words):
        t = words[j]
        v = t.value
        if v.startswith("-") and len(v) > 1:
            name, eq, inline = v.partition("=")
            takes = name in _DOCKER_BUILD_VALUE_OPTS and not eq
            val = words[j + 1] if takes and j + 1 < len(words) else (_sub_token(t, len(name) + 1, len(v)) if eq else None)
            if val is not None and not val.is_opaque:
                if name in ("-t", "--tag"):
                    out.tags.append(val.value)
                elif name in ("-f", "--file"):
                    out.file = val.value
            j += 2 if takes else 1
            continue
        if not t.is_opaque:
            out.context = v
        j += 1
    return out if out.tags else None


def _env_option(rest: list[Token], j: int, takes: bool, env: list) -> None:
    """An option at ``rest[j]`` whose value is ``K=V`` (``-e K=V``, ``--env=K=V``, ``mpirun -x K=V``;
    ``takes``: its value is the next word): the assignment added to ``env``."""
    v = rest[j].value
    name = v.split("=", 1)[0]
    val = rest[j + 1] if takes and j + 1 < len(rest) else (_sub_token(rest[j], len(name) + 1, len(v)) if "=" in v else None)
    a = _split_assignment(val) if val is not None else None
    if a is not None:
        env.append(a)


def _docker_exec(rest: list[Token], env: list) -> Match | None:
    """``docker exec [options] CONTAINER COMMAND...``: the command runs in a running container."""
    j = 2
    while j < len(rest):
        v = rest[j].value
        if v.startswith("-") and len(v) > 1:
            name = v.split("=", 1)[0]
            takes = name in _DOCKER_EXEC_VALUE_OPTS and "=" not in v
            if name in ("-e", "--env"):
                _env_option(rest, j, takes, env)
            j += 2 if takes else 1
            continue
        break
    sub = match_words(rest[j + 1 :]) if j + 1 < len(rest) else None
    if sub is not None:
        sub.env = env + sub.env
        sub.container = rest[j]
    return sub


def _after_dashes(rest: list[Token], start: int, env: list) -> Match | None:
    """The command after the ``--`` of ``rest`` (from ``start``)."""
    for j in range(start, len(rest)):
        if rest[j].value == "--" and not rest[j].is_opaque:
            sub = match_words(rest[j + 1 :])
            if sub is not None:
                sub.env = env + sub.env
            return sub
    return None


# docker compose run / exec (Compose v2 reference): their options that take a value
_COMPOSE_VALUE_OPTS = frozenset("""-e --env -l --label -p --publish -u --user -v --volume -w --workdir --name
    --entrypoint --cap-add --cap-drop --env-from-file --index --pull""".split())
_COMPOSE_GLOBAL_VALUE_OPTS = frozenset("-f --file -p --project-name --project-directory --env-file --profile --ansi --parallel --progress".split())


def _compose_command(rest: list[Token], env: list) -> int | None:
    """``docker compose [-f F] run|exec [options] SERVICE COMMAND...`` (or ``docker-compose``,
    ``podman compose``): the index of the command the service's container runs, or None (its
    ``-e K=V`` added to ``env``).  With ``--entrypoint`` the command is that program's
    arguments: not read."""
    head = basename(rest[0].value)
    if head in ("docker-compose", "podman-compose"):
        j = 1
    elif head in ("docker", "podman") and len(rest) > 1 and rest[1].value == "compose":
        j = 2
    else:
        return None
    while j < len(rest) and rest[j].value.startswith("-"):
        j += 2 if rest[j].value in _COMPOSE_GLOBAL_VALUE_OPTS else 1
    if j >= len(rest) or rest[j].value not in ("run", "exec"):
        return None
    j += 1
    while j < len(rest) and rest[j].value.startswith("-") and rest[j].value != "--":
        v = rest[j].value
        name = v.split("=", 1)[0]
        if name == "--entrypoint":
            return None
        takes = name in _COMPOSE_VALUE_OPTS and "=" not in v
        if name in ("-e", "--env"):
            _env_option(rest, j, takes, env)
        j += 2 if takes else 1
    if j < len(rest) and rest[j].value == "--":
        j += 1
    return j + 1 if j + 1 < len(rest) else None


# apptainer exec / run (Apptainer 1.x; singularity alike): options that take a value
_APPTAINER_VALUE_OPTS = frozenset("""-B --bind --env --env-file -H --home -o --overlay --pwd -W --workdir --mount
    --security --network --network-args --app --scratch -S --hostname --dns --apply-cgroups --add-caps
    --drop-caps --nvccli --rocm --oci""".split()) - {"--nvccli", "--rocm", "--oci"}


def _apptainer(rest: list[Token], env: list) -> Match | None:
    """``apptainer exec [opts] IMAGE COMMAND...`` runs the command in the image;
    ``apptainer run [opts] IMAGE ARGS...`` hands the arguments to the image's runscript, which
    for an image pulled from vLLM's (``docker://vllm/vllm-openai:TAG``) is its entrypoint."""
    j = 2
    while j < len(rest) and rest[j].value.startswith("-") and len(rest[j].value) > 1:
        v = rest[j].value
        name = v.split("=", 1)[0]
        takes = name in _APPTAINER_VALUE_OPTS and "=" not in v
        if name == "--env" and takes:
            _env_option(rest, j, takes, env)
        j += 2 if takes else 1
    if j >= len(rest):
        return None
    image = rest[j]
    scheme = image.value.find("://")
    ref = _sub_token(image, scheme + 3, len(image.value)) if scheme > 0 and not image.is_opaque else None
    vllm_image = ref is not None and is_official_vllm_image(ref.value)
    after = rest[j + 1 :]
    if rest[1].value == "run":
        return Match("vllm", "image", rest[: j + 1], after, image=ref, env=env) if vllm_image else None
    sub = match_words(after) if after else None
    if sub is not None:
        sub.env = env + sub.env
        if vllm_image:
            sub.image = ref
    return sub


def _kubectl_run(rest: list[Token], env: list) -> Match | None:
    """``kubectl run NAME --image=IMAGE [--env=K=V] [--command] -- ARGS``.

    Without ``--command`` the words after ``--`` are the arguments of the image's
    entrypoint; with it they are the command.
    """
    image: Token | None = None
    command = False
    j = 3
    while j < len(rest):
        v = rest[j].value
        if v == "--":
            j += 1
            break
        if v.startswith("--image="):
            image = _sub_token(rest[j], len("--image="), len(v))
        elif v == "--image" and j + 1 < len(rest):
            image = rest[j + 1]
            j += 1
        elif v.startswith("--env="):
            a = _split_assignment(_sub_token(rest[j], len("--env="), len(v)))
            if a is not None:
                env.append(a)
        elif v == "--command":
            command = True
        j += 1
    else:
        return None
    after = rest[j:]
    if image is None or image.is_opaque:
        return None
    if command:
        sub = match_words(after)
        if sub is not None:
            sub.image, sub.env = image, env + sub.env
        return sub
    if is_official_vllm_image(image.value):
        return Match("vllm", "image", rest[:j], after, image=image, env=env)
    return None


def _named_like_vllm(entry: list[Token], after: list[Token], image: Token, env: list) -> Match | None:
    """``docker run IMAGE ARGS`` for an image merely named like vLLM's (weak evidence).

    Its entrypoint is its own; the words are taken for vLLM's only when they read as
    vLLM's: ``serve MODEL ...`` (an entrypoint of ``vllm``), or options or ``MODEL --opt``
    (an entrypoint of ``vllm serve``).  A script or a program of its own
    (``./run-cluster-node.sh --role head``, ``bash -c ...``) is not vLLM's.
    """
    first = after[0].value
    if after[0].is_opaque:
        return None
    if first == "serve":
        return Match("vllm", "vllm serve", [*entry, after[0]], after[1:], image=image, env=env, named_like=True)
    if first.startswith("-"):
        return Match("vllm", "image", entry, after, image=image, env=env, named_like=True)
    head = basename(first)
    if (
        len(after) >= 2 and after[1].value.startswith("--") and not first.endswith(_SCRIPT_SUFFIXES)
        and not first.startswith("./") and head not in _WRAPPERS_NO_ARGS and head not in _WRAPPER_OPTS
        and not _PYTHON_RE.match(head) and head not in ("sh", "bash", "vllm", "lmcache")
    ):
        return Match("vllm", "image", entry, after, image=image, env=env, named_like=True)
    return None


def _literal_head(tok: Token) -> bool:
    """Whether a word with unknown parts still says what it is: an assignment whose name and
    ``=`` are literal (``LD_PRELOAD="$ENV/lib/x.so"``: only the value is unknown), or a path
    whose last component is literal (``"$VENV/bin/python"``, ``${CONDA_PREFIX}/bin/vllm``: the
    folder is unknown, the program is not)."""
    value = tok.value
    eq = value.find("=")
    if eq > 0 and re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", value[:eq]):
        return not any(s <= eq for s, _e in tok.opaque)
    slash = value.rfind("/")
    return 0 < slash < len(value) - 1 and not any(slash < e for _s, e in tok.opaque)


def named_like_vllm(args: list[Token], image: Token | None) -> Match | None:
    """What the arguments handed to an image merely named like vLLM's start, when they read as
    vLLM's (see :func:`_named_like_vllm`); None for a program or a script of its own."""
    if not args:
        return None
    if args[0].is_opaque and len(args) >= 2 and args[1].value.startswith("--"):
        return Match("vllm", "image", [], args, image=image, named_like=True)  # ``${MODEL} --opt ...``
    return _named_like_vllm([], args, image, [])  # type: ignore[arg-type]


def _split_assignment(tok: Token) -> tuple[Token, Token | None] | None:
    """``VLLM_X=1`` -> (name token, value token)."""
    eq = tok.value.find("=")
    if eq <= 0 or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", tok.value[:eq]):
        return None
    return _sub_token(tok, 0, eq), _sub_token(tok, eq + 1, len(tok.value))


def _sub_token(tok: Token, start: int, end: int) -> Token:
    """The token for ``tok.value[start:end]``, keeping exact positions when editable."""
    value = tok.value[start:end]
    opaque = tuple((max(s, start) - start, min(e, end) - start) for s, e in tok.opaque if s < end and start < e)
    if tok.value_start is not None:
        span = Span(tok.value_start + start, tok.value_start + end)
        return Token(value, span, tok.value_start + start, opaque, tok.splat)
    return Token(value, tok.span, None, opaque, tok.splat)


def sub_token(tok: Token, start: int, end: int) -> Token:
    return _sub_token(tok, start, end)


def _asks_help(args: list[Token]) -> bool:
    """``-h``, ``--help`` or vLLM's ``--help=<group|option|keyword|all|page>`` (vllm/entrypoints/utils.py
    ``show_filtered_argument_or_group_from_help``, 0.28.0 to 0.33.0; the CLI guide documents
    ``vllm serve --help=all``): the command prints help and exits; it starts no server."""
    for tok in args:
        v = tok.value
        if tok.is_opaque:
            continue
        if v == "--":
            return False
        if v in ("-h", "--help") or v.startswith("--help="):
            return True
    return False


def match_words(words: list[Token], *, image_entrypoint: bool = False) -> Match | None:
    """Find a vLLM or LMCache start at the beginning of ``words`` (after wrappers).

    ``image_entrypoint``: the words are the arguments handed to a vLLM image's
    entrypoint (Kubernetes ``args`` without ``command``, compose ``command``,
    ``docker run IMAGE ARGS``), so they are vLLM's argv as they stand, even when
    they repeat ``vllm serve`` (the entrypoint then receives those words too,
    which vLLM rejects).
    """
    if image_entrypoint:
        return Match("vllm", "image", [], list(words))
    env: list[tuple[Token, Token | None]] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        if w.is_opaque and w.opaque_in(0, len(w.value)) and not _literal_head(w):
            return None
        word = basename(w.value)
        assignment = _split_assignment(w)
        if assignment is not None and "/" not in w.value.split("=", 1)[0]:
            env.append(assignment)
            i += 1
            continue
        if word in _WRAPPERS_NO_ARGS:
            i += 1
            continue
        if w.value == "coproc" and i + 1 < n:
            # ``coproc CMD ARGS`` or ``coproc NAME { CMD ARGS; }`` (tree-sitter-bash reads the
            # group's words as the arguments of ``coproc``)
            i += 1
            if i + 1 < n and words[i + 1].value == "{" and re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", words[i].value):
                i += 1
            if words[i].value == "{":
                i += 1
            continue
        if word in _WRAPPER_OPTS:
            value_opts = _WRAPPER_OPTS[word]
            i += 1
            positional = _WRAPPERS_WITH_POSITIONAL.get(word, 0)
            while i < n:
                v = words[i].value
                if v == "--":
                    i += 1
                    break
                if v in _TWO_VALUE_OPTS:
                    i += 3
                    continue
                if v in _WRAPPER_ENV_OPTS.get(word, ()):
                    _env_option(words, i, True, env)  # ``mpirun -x VLLM_X=1``, ``systemd-run -E VLLM_X=1``
                if v.startswith("-") and v != "-":
                    combined = word == "screen" and not v.startswith("--") and len(v) > 2 and v[-1] in _SCREEN_VALUE_LETTERS
                    i += 2 if v in value_opts or combined else 1
                    continue
                if word == "env":
                    a = _split_assignment(words[i])
                    if a is not None:
                        env.append(a)
                        i += 1
                        continue
                if positional:
                    positional -= 1
                    i += 1
                    continue
                break
            continue
        runner = 2 if word in _RUNNERS and i + 1 < n and words[i + 1].value == _RUNNERS[word] else 0
        if word == "uvx":  # ``uvx [--from vllm==X] vllm serve``: uv's ``uv tool run``
            runner = 1
        elif word == "uv" and i + 2 < n and words[i + 1].value == "tool" and words[i + 2].value == "run":
            runner = 3
        if runner:
            i += runner
            while i < n and words[i].value.startswith("-"):
                i += 2 if words[i].value in _RUNNER_OPTS else 1
            continue
        break
    else:
        return None
    rest = words[i:]
    if not rest:
        return None
    head = basename(rest[0].value)

    if head == "vllm" or head == "vllm.exe":
        if len(rest) >= 2 and rest[1].value == "serve":
            if _asks_help(rest[2:]):
                return None  # ``vllm serve --help=ModelConfig`` prints the options and exits: no server
            return Match("vllm", "vllm serve", rest[:2], rest[2:], env=env)
        return None
    if head == "lmcache":
        if len(rest) >= 2 and rest[1].value == "server":
            return Match("lmcache", "lmcache server", rest[:2], rest[2:], env=env)
        return None
    if head in ("lmcache_server", "lmcache_v1_server"):
        return None  # the legacy LMCache server takes positional host/port, not options
    if _PYTHON_RE.match(head):
        j = 1
        while j < len(rest):
            v = rest[j].value
            if v == "-m" and j + 1 < len(rest):
                module = rest[j + 1].value
                if module in VLLM_MODULES:
                    kind = VLLM_MODULES[module]
                    if kind == "cli":
                        if j + 2 < len(rest) and rest[j + 2].value == "serve" and not _asks_help(rest[j + 3 :]):
                            return Match("vllm", "vllm serve", rest[: j + 3], rest[j + 3 :], env=env)
                        return None
                    if _asks_help(rest[j + 2 :]):
                        return None  # ``python -m vllm.entrypoints.openai.api_server --help``
                    return Match("vllm", "api_server", rest[: j + 2], rest[j + 2 :], env=env)
                if module in LMCACHE_MODULES:
                    if LMCACHE_MODULES[module] == "lmcache cli":
                        if j + 2 < len(rest) and rest[j + 2].value == "server":
                            return Match("lmcache", "lmcache server", rest[: j + 3], rest[j + 3 :], env=env)
                        return None
                    return Match("lmcache", "lmcache server", rest[: j + 2], rest[j + 2 :], env=env)
                return None
            if v.startswith("-"):
                j += 2 if v in _PYTHON_OPTS_WITH_VALUE else 1
                continue
            if v.endswith("api_server.py") and "vllm" in v:
                return Match("vllm", "api_server", rest[: j + 1], rest[j + 1 :], env=env)
            return None
        return None
    if head == "ray" and len(rest) >= 3 and rest[1].value == "job" and rest[2].value == "submit":
        return _after_dashes(rest, 3, env)  # ``ray job submit [options] -- COMMAND``: the entrypoint after ``--``
    if head == "kubectl" and len(rest) >= 3 and rest[1].value == "run":
        return _kubectl_run(rest, env)
    if head == "kubectl" and len(rest) >= 3 and rest[1].value == "exec":
        return _after_dashes(rest, 2, env)  # ``kubectl exec [opts] POD -- COMMAND``: the command runs in the pod
    compose = _compose_command(rest, env)
    if compose is not None:
        sub = match_words(rest[compose:])
        if sub is not None:
            sub.env = env + sub.env
        return sub
    if head in ("apptainer", "singularity") and len(rest) >= 3 and rest[1].value in ("exec", "run"):
        return _apptainer(rest, env)
    if head in ("docker", "podman", "nerdctl") and len(rest) >= 3 and rest[1].value == "exec":
        return _docker_exec(rest, env)
    if head in ("docker", "podman", "nerdctl") and len(rest) >= 2:
        run = docker_run(rest)
        m = _in_container(rest, env, run) if run is not None else None
        if m is not None:
            m.mounts = run.mounts  # type: ignore[union-attr]
        return m
    return None


def _in_container(rest: list[Token], env: list, run: DockerRun) -> Match | None:
    """What ``docker run [options] IMAGE [ARGS]`` starts: the image's entrypoint given the
    arguments (a vLLM image), or the command the arguments are."""
    j, entrypoint_override = run.image_index, run.entrypoint
    env.extend(run.env)
    if j >= len(rest):
        return None
    image = rest[j]
    after = rest[j + 1 :]
    if entrypoint_override is not None:
        sub = match_words([entrypoint_override, *after])
        if sub is not None:
            sub.image = image
            sub.env = env + sub.env
        return sub
    if image.alternatives:
        # ``IMG`` set per branch: a vLLM image only when every value is one
        if all(is_official_vllm_image(a) for a in image.alternatives):
            return Match("vllm", "image", rest[: j + 1], after, image=image, env=env)
        return None
    base = built_from(image.value) if not image.is_opaque else None
    if base is not None:
        # built by this file FROM a vLLM image whose entrypoint it keeps
        return Match("vllm", "image", rest[: j + 1], after, image=image, env=env, base=base)
    official = is_official_vllm_image(image.value)
    if official:
        # vLLM's own images: the entrypoint (``vllm serve``) receives ``after`` as its
        # argv, even when it repeats ``vllm serve`` (a doubled entrypoint that vLLM rejects).
        return Match("vllm", "image", rest[: j + 1], after, image=image, env=env)
    sub = match_words(after) if after else None
    if sub is not None:
        sub.image = image
        sub.env = env + sub.env
        return sub
    if is_vllm_image(image.value) and not (after and not after[0].value.startswith("-")):
        # vLLM's image names under another namespace (lmcache/vllm-openai, a mirror): the
        # entrypoint is probably vLLM's, so option words are its arguments (weak evidence:
        # reported, never edited).  A custom image merely named like vLLM's (vllm-node)
        # runs its own entrypoint: nothing is claimed for it.
        return Match("vllm", "image", rest[: j + 1], after, image=image, env=env)
    if likely_vllm_image(image.value) and after:
        return _named_like_vllm(rest[: j + 1], after, image, env)
    return None
