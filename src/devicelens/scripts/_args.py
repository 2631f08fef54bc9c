"""The command line of ``python -m devicelens run``: our options first, then the script (or
``-m module``) and its arguments, which are the script's and never parsed here.
"""

from __future__ import annotations

from dataclasses import dataclass

USAGE = """\
usage: python -m devicelens run [--guard] [--dtype] [--device DEVICE]
                                [--autofix --allow-autofix] (SCRIPT | -m MODULE) [ARGS ...]

Runs SCRIPT (or MODULE) as __main__, exactly as `python SCRIPT ARGS` would. An uncaught
device or dtype mismatch keeps its traceback and gets a diagnosis: the culprits by name, the
module, the file and line, and the fix. Under torchrun each report is tagged with its rank.

options:
  --guard          check the devices of every torch op while the script runs
  --dtype          also check floating dtypes (implies --guard)
  --device DEVICE  the device the guard expects (default: the model's)
  --autofix        move stray op arguments instead of failing (needs --allow-autofix:
                   it hides the bug; every move is reported at exit)
  --allow-autofix  accept --autofix in a script
"""


class UsageError(Exception):
    """A bad command line: the message is shown with the usage, exit status 2."""


@dataclass(frozen=True)
class RunOptions:
    target: str  # a script path, or a module name when ``module``
    module: bool = False
    args: tuple[str, ...] = ()
    guard: bool = False
    dtype: bool = False
    device: str | None = None
    autofix: bool = False


_FLAGS = ("--guard", "--dtype", "--autofix", "--allow-autofix")


def parse(argv: list[str]) -> RunOptions:
    """``run``'s arguments (without ``run``) -> options; raises :class:`UsageError`."""
    flags: set[str] = set()
    device = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _FLAGS:
            flags.add(arg)
        elif arg == "--device" or arg.startswith("--device="):
            device, i = _value(argv, i)
        elif arg == "-m" or (arg.startswith("-m") and len(arg) > 2):
            name, i = (argv[i + 1], i + 1) if arg == "-m" and i + 1 < len(argv) else (arg[2:], i)
            if not name:
                raise UsageError("-m needs a module name")
            return _options(name, True, argv[i + 1:], flags, device)
        elif arg == "--":
            if i + 1 >= len(argv):
                break
            return _options(argv[i + 1], False, argv[i + 2:], flags, device)
        elif arg.startswith("-") and arg != "-":
            raise UsageError(f"unknown option {arg!r} (options go before the script)")
        else:
            return _options(arg, False, argv[i + 1:], flags, device)
        i += 1
    raise UsageError("no script to run: give a path or -m MODULE")


def _value(argv: list[str], i: int) -> tuple[str, int]:
    if "=" in argv[i]:
        value = argv[i].split("=", 1)[1]
    elif i + 1 < len(argv):
        value, i = argv[i + 1], i + 1
    else:
        value = ""
    if not value:
        raise UsageError("--device needs a device, e.g. --device cuda:0")
    return value, i


def _options(target: str, module: bool, rest: list[str], flags: set[str],
             device: str | None) -> RunOptions:
    autofix = "--autofix" in flags
    if autofix and "--allow-autofix" not in flags:
        raise UsageError("--autofix is refused in scripts: it moves tensors while the script "
                         "runs and hides the bug the report would name. Fix the code, or pass "
                         "--allow-autofix as well to accept it (every move is reported at exit)")
    if "--allow-autofix" in flags and not autofix:
        raise UsageError("--allow-autofix only goes with --autofix")
    dtype = "--dtype" in flags
    return RunOptions(target, module, tuple(rest), guard="--guard" in flags or dtype or autofix,
                      dtype=dtype, device=device, autofix=autofix)
