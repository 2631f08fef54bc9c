"""``python -m devicelens rehearse --device cuda:0 train.py [args...]``: will this script run on
that GPU? It is run in a forked sandbox as on a machine with the GPUs (tensors simulated, nothing
computed, nothing written), and every mismatch the GPU run would hit is printed with its fix.

Exit status: 0 when the rehearsal ran through (or to ``--steps``) without a mismatch, 1 when
the GPU run would fail, 3 when the rehearsal stopped short of the end without finding one, 2 for
a bad command line. NB: the script's own output goes nowhere; only the verdict is printed.
"""

from __future__ import annotations

import os
import sys
import types
from dataclasses import dataclass
from typing import Any

USAGE = """\
usage: python -m devicelens rehearse --device DEVICES [--steps N] [--seconds S]
                                     (SCRIPT | -m MODULE) [ARGS ...]

Rehearses SCRIPT (or MODULE) as __main__ on a machine with the GPUs DEVICES (cuda:0, or
cuda:0,cuda:1 for a model split over two), on this machine, in a sandbox: torch.cuda says they
are there, tensors on them are simulated, nothing is computed or written. Prints every device
or dtype mismatch the GPU run would hit, with its culprits and its fix.

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
    result = _rehearse(opts, filename, ns, main_module)
    print(result.text())
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
    from ..guard._on_device import parse_devices

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


def _rehearse(opts: Options, filename: str, ns: dict[str, Any], main: types.ModuleType) -> Any:
    from ..guard._on_device import rehearse_file
    from ..guard._scopes import user_files

    def prepare(namespace: dict[str, Any]) -> None:
        """In the child: the script's module is ``__main__`` (pickle, dataclasses look it up)."""
        sys.modules["__main__"] = main

    return rehearse_file(ns, opts.devices, filename=filename, is_user=user_files(),
                         steps=opts.steps, limit=opts.seconds, prepare=prepare)
