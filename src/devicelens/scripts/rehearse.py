"""``python -m devicelens rehearse --device cuda:0 train.py [args...]``: will this script run on
that GPU? It is run in a forked sandbox as on a machine with the GPUs (tensors simulated, nothing
computed, nothing written), and every mismatch the GPU run would hit is printed with its fix.

Under torchrun each rank rehearses alone, as on its machine's GPUs (one a local rank at least,
``cuda:{LOCAL_RANK}`` its own), and its verdict is tagged ``[rank r/N, local_rank l]``.

Exit status: 0 when the rehearsal ran through (or to ``--steps``) without a mismatch, 1 when
the GPU run would fail, 3 when the rehearsal stopped short of the end without finding one, 2 for
a bad command line. NB: the script's own output goes nowhere; only the verdict is printed.
"""

from __future__ import annotations

import os
import sys
import types
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..inspect.ranks import RankInfo

USAGE = """\
usage: python -m devicelens rehearse --device DEVICES [--steps N] [--seconds S]
                                     (SCRIPT | -m MODULE) [ARGS ...]

Rehearses SCRIPT (or MODULE) as __main__ on a machine with the GPUs DEVICES (cuda:0, or
cuda:0,cuda:1 for a model split over two), on this machine, in a sandbox: torch.cuda says they
are there, tensors on them are simulated, nothing is computed or written. Prints every device
or dtype mismatch the GPU run would hit, with its culprits and its fix. Under torchrun each
rank rehearses alone, its own GPU cuda:LOCAL_RANK, and tags its lines with its rank.

options:
  --device DEVICES  the GPUs to rehearse on (required)
  --steps N         stop after N optimizer steps (a training loop's first steps)
  --seconds S       time limit of one rehearsal round (default 60)

exit status: 0 no mismatch, 1 the GPU run would fail, 3 stopped short of the end, 2 usage
"""


class UsageError(Exception):
    """A bad command line: the message is shown with the usage, exit status 2."""


@dataclass(frozen=True)
class Options:
    target: str
    module: bool
    args: tuple[str, ...]
    devices: tuple[str, ...]
    steps: int = 0
    seconds: float = 60.0


def main(argv: list[str]) -> int:
    """``rehearse``'s arguments (without ``rehearse``) -> the exit status."""
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE, end="")
        return 0
    try:
        opts = parse(argv)
    except UsageError as e:
        print(f"devicelens rehearse: {e}\n\n{USAGE}", end="", file=sys.stderr)
        return 2
    try:
        filename, ns, main_module = _main_module(opts)
    except UsageError as e:
        print(f"devicelens rehearse: {e}", file=sys.stderr)
        return 2
    from ..inspect.ranks import rank_info

    info = rank_info()
    result = _rehearse(opts, filename, ns, main_module, info)
    _emit(result.text(), info)
    return 0 if result.clean else 1 if result.found else 3


def parse(argv: list[str]) -> Options:
    """Our options, then the script (or ``-m MODULE``) and its own arguments."""
    values: dict[str, str] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name in ("--device", "--steps", "--seconds"):
            if not eq:
                if i + 1 >= len(argv):
                    raise UsageError(f"{name} needs a value")
                value, i = argv[i + 1], i + 1
            values[name] = value
        elif arg == "-m":
            if i + 1 >= len(argv):
                raise UsageError("-m needs a module name")
            return _options(argv[i + 1], True, argv[i + 2:], values)
        elif arg.startswith("-"):
            raise UsageError(f"unknown option {arg!r} (options go before the script)")
        else:
            return _options(arg, False, argv[i + 1:], values)
        i += 1
    raise UsageError("no script to rehearse: give a path or -m MODULE")


def _options(target: str, module: bool, rest: list[str], values: dict[str, str]) -> Options:
    from ..guard.running._on_device import parse_devices

    if "--device" not in values:
        raise UsageError("--device is required, e.g. --device cuda:0")
    try:
        devices = parse_devices(values["--device"])
        steps = int(values.get("--steps", "0"))
        seconds = float(values.get("--seconds", "60"))
    except ValueError as e:
        raise UsageError(str(e)) from None
    if steps < 0 or seconds <= 0:
        raise UsageError("--steps and --seconds must be positive")
    return Options(target, module, tuple(rest), devices, steps, seconds)


def _main_module(opts: Options) -> tuple[str, dict[str, Any], types.ModuleType]:
    """The file to run and the ``__main__`` module it runs in, as ``python`` would set them up
    (argv, ``sys.path[0]``, ``__file__``, ``__spec__`` for ``-m``)."""
    import builtins
    import importlib.util
    from importlib.machinery import SourceFileLoader

    main = types.ModuleType("__main__")
    ns = main.__dict__
    ns.update(__builtins__=builtins, __annotations__={}, __cached__=None)
    if opts.module:
        try:
            spec = importlib.util.find_spec(opts.target)
            if spec is not None and spec.submodule_search_locations is not None:
                spec = importlib.util.find_spec(f"{opts.target}.__main__")
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.origin or not os.path.isfile(spec.origin):
            raise UsageError(f"No module named {opts.target}")
        path = spec.origin
        ns.update(__file__=path, __spec__=spec, __package__=spec.parent, __loader__=spec.loader)
        sys.path.insert(0, os.getcwd())
    else:
        if not os.path.isfile(opts.target):
            raise UsageError(f"can't open file {os.path.abspath(opts.target)!r}")
        path = os.path.abspath(opts.target)
        ns.update(__file__=path, __loader__=SourceFileLoader("__main__", path), __spec__=None,
                  __package__=None)
        sys.path[0] = os.path.dirname(os.path.realpath(path))
    sys.argv = [path if opts.module else opts.target, *opts.args]
    return path, ns, main


def _rehearse(opts: Options, filename: str, ns: dict[str, Any], main: types.ModuleType,
              info: RankInfo | None) -> Any:
    from ..guard.running._on_device import rehearse_file
    from ..guard.running._scopes import user_files

    devices = opts.devices
    if info is not None:
        from ._rehearse_ranks import machine

        devices = machine(devices, info)

    def prepare(namespace: dict[str, Any]) -> None:
        """In the child: the script's module is ``__main__`` (pickle, dataclasses look it up);
        under torchrun, this rank's process group, alone."""
        sys.modules["__main__"] = main
        if info is not None:
            from ._rehearse_ranks import one_rank

            one_rank(info)

    is_user = user_files()
    return rehearse_file(ns, devices, filename=filename, is_user=is_user, steps=opts.steps,
                         limit=opts.seconds, prepare=prepare,
                         judge=None if info is None else _judge(info, is_user))


def _judge(info: RankInfo, is_user: Any) -> Any:
    """In the child: a report seen from this rank (its own GPU is where the others belong, fixes
    in every rank's terms), as ``devicelens run`` says it."""
    def judge(report: Any, exc: BaseException) -> Any:
        from ..guard.running._frames import traceback_frames
        from ..guard.running._scopes import user_scope
        from ._dist import rejudge

        try:
            frames = traceback_frames(exc.__traceback__)
            return rejudge(report, info, user_scope(frames, is_user), frames)
        except Exception:  # NB: the report as the post-mortem made it is still true
            return report
    return judge


def _emit(text: str, info: RankInfo | None) -> None:
    """The verdict; under torchrun each line tagged with the rank, in one ``write`` (atomic on a
    pipe up to 4 KiB, so other ranks' lines do not land inside a verdict of that size)."""
    if info is not None:
        head = f"this rank's GPU: {info.device}"
        text = "\n".join(f"{info.tag} {ln}" for ln in [head, *text.splitlines()])
    sys.stdout.flush()
    data = (text + "\n").encode(sys.stdout.encoding or "utf-8", "backslashreplace")
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # NB: a replaced stdout (a test's capture)
        sys.stdout.write(text + "\n")
        return
    while data:
        data = data[os.write(fd, data):]
