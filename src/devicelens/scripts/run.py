"""``python -m devicelens run train.py [args...]``: run a script as ``__main__`` exactly as
``python`` would (argv, ``sys.path[0]``, ``__file__``, exit status, signals), and explain an
uncaught device/dtype mismatch after its unchanged traceback.

NB: nothing is imported from torch here; a script that never imports it pays nothing, and one
that does pays only on the failure path (and for ``--guard``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import runpy
import signal
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

from ..guard.running._scopes import PACKAGE
from ._args import USAGE, RunOptions, UsageError, parse


def main(argv: list[str] | None = None) -> int:
    """The ``devicelens`` command; returns the exit status (the script's own, for ``run``)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, end="", file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "rehearse":
        from .rehearse import main as rehearse

        return rehearse(argv[1:])
    if argv[0] != "run":
        print(f"devicelens: unknown command {argv[0]!r}\n\n{USAGE}", end="", file=sys.stderr)
        return 2
    if argv[1:2] in (["-h"], ["--help"]):
        print(USAGE, end="")
        return 0
    try:
        opts = parse(argv[1:])
    except UsageError as e:
        print(f"devicelens run: {e}\n\n{USAGE}", end="", file=sys.stderr)
        return 2
    return run(opts)


def user_files() -> Callable[[str], bool]:
    """The user's own files: not Python's, not an installed package's, not devicelens'."""
    from ..guard.running._scopes import user_files as files

    return files()


def run(opts: RunOptions) -> int:
    """Run the script; return its exit status. ``SystemExit`` propagates as with ``python``."""
    error = _prepare(opts)
    if error:
        print(error, file=sys.stderr)
        return 1 if opts.module else 2
    atexit.register(_exit_like_python)  # NB: registered before the script's own handlers
    guard = _guard(opts) if opts.guard else None
    try:
        if guard is not None:
            with guard:
                _execute(opts)
        else:
            _execute(opts)
    except SystemExit:
        raise
    except BaseException as exc:  # NB: KeyboardInterrupt too: python prints it, then dies by it
        return _uncaught(exc)
    finally:
        if guard is not None and opts.autofix:
            _print_moves(guard, opts.target)
    return 0


def _prepare(opts: RunOptions) -> str:
    """Set argv and ``sys.path[0]`` as ``python SCRIPT`` (or ``-m``) does; an error or ''."""
    if opts.module:
        import importlib.util

        try:
            found = importlib.util.find_spec(opts.target) is not None
        except (ImportError, ValueError):
            found = False
        sys.argv = ["-m", *opts.args]  # NB: runpy puts the module's file in argv[0]
        return "" if found else f"{sys.executable}: No module named {opts.target}"
    if not os.path.isfile(opts.target):
        return (f"{sys.executable}: can't open file {os.path.abspath(opts.target)!r}: "
                "[Errno 2] No such file or directory")
    sys.argv = [opts.target, *opts.args]
    # NB: python puts the script's real directory first; ``-m devicelens`` had put the cwd there
    sys.path[0] = os.path.dirname(os.path.realpath(opts.target))
    return ""


def _execute(opts: RunOptions) -> None:
    if opts.module:
        runpy.run_module(opts.target, run_name="__main__", alter_sys=True)
    elif _is_archive(opts.target):
        sys.path.pop(0)  # NB: runpy puts the directory / zip there itself, as python does
        runpy.run_path(opts.target, run_name="__main__")
    else:
        _run_file(opts.target)


def _is_archive(path: str) -> bool:
    import zipfile

    return os.path.isdir(path) or zipfile.is_zipfile(path)


def _run_file(path: str) -> None:
    """A script file as python runs it: ``__file__`` (and the code's file name) absolute,
    ``argv[0]`` as typed, a real ``__main__`` module. NB: ``runpy.run_path`` would put its
    path in ``argv[0]`` and give the module no loader."""
    import builtins
    import io
    import types
    from importlib.machinery import SourceFileLoader

    path = os.path.abspath(path)
    with io.open_code(path) as f:
        code = compile(f.read(), path, "exec", dont_inherit=True)
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=path, __cached__=None, __builtins__=builtins,
                         __loader__=SourceFileLoader("__main__", path), __annotations__={})
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:
        sys.modules["__main__"] = saved


def _guard(opts: RunOptions) -> Any:
    from ..guard.running._scoped import scoped_guard

    return scoped_guard(dtype=opts.dtype, autofix=opts.autofix, device=opts.device,
                        is_cell=user_files())


def _uncaught(exc: BaseException) -> int:
    """What python does with an uncaught exception, plus the diagnosis after the traceback."""
    tb = _user_traceback(exc.__traceback__)
    exc.__traceback__ = tb
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
    sys.excepthook(type(exc), exc, tb)
    from ._explain import explain_script

    text = explain_script(exc, tb, user_files())
    if text:
        emit(f"\n{text}\n")
    if isinstance(exc, KeyboardInterrupt):
        _EXIT["sigint"] = True
    return 1


def _user_traceback(tb: TracebackType | None) -> TracebackType | None:
    """Drop the runner's own frames (devicelens, runpy): the traceback python would show."""
    while tb is not None and (tb.tb_frame.f_code.co_filename.startswith(PACKAGE)
                              or tb.tb_frame.f_globals.get("__name__") == "runpy"):
        tb = tb.tb_next
    return tb


_EXIT = {"sigint": False}


def _exit_like_python() -> None:
    """After an uncaught KeyboardInterrupt python ends by SIGINT, so callers see a signal."""
    if _EXIT["sigint"]:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)


def _print_moves(guard: Any, target: str) -> None:
    from ._explain import tag

    moves = guard.autofix_report().moves
    if not moves:
        return
    name = os.path.basename(target)
    out = [f"devicelens{tag()}: --autofix moved {len(moves)} op argument(s) while {name} ran:"]
    out += [f"  {m.name}: {m.source} -> {m.target}, {m.count}x ({m.op}, {m.line})" for m in moves]
    out.append("To make it permanent:")
    out += ["  " + ln for fix in dict.fromkeys(m.fix for m in moves) for ln in fix.splitlines()]
    emit("\n".join(out) + "\n")


def emit(text: str) -> None:
    """Write ``text`` to stderr in one piece. NB: one ``write`` to a pipe (up to 4 KiB) is
    atomic, so other ranks' lines never land inside a report under torchrun."""
    try:
        sys.stderr.flush()
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # NB: a replaced stderr (a test's capture)
        sys.stderr.write(text)
        sys.stderr.flush()
        return
    data = text.encode(sys.stderr.encoding or "utf-8", "backslashreplace")
    while data:
        data = data[os.write(fd, data):]
