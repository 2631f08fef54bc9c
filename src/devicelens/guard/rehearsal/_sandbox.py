"""A forked, throw-away copy of the process where a rehearsal may run the user's code.

Nothing the child does reaches the user: its memory is a copy-on-write copy, its output goes to
``/dev/null``, an audit hook refuses files written, sockets, processes and messages to the
frontend, and a time limit stops it. Its answer comes back pickled through a pipe; a crash (an
abort in autograd on a fake cuda tensor) is the child's own and only ends the rehearsal.
NB: the parent never runs user code here: it forks, waits and reads.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import os
import pickle
import select
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class Refused(BaseException):
    """A side effect the sandbox does not allow (a file written, a socket, a process).

    NB: a ``BaseException``, so the user's own ``except Exception`` cannot swallow it.
    """


class TimeUp(BaseException):
    """The rehearsal's time limit, raised inside the user's code where it then is."""


@dataclass(frozen=True)
class Outcome:
    """What the child sent back (``value``), or why it sent nothing (``problem``)."""

    value: Any = None
    problem: str = ""


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_REFUSED_EVENTS = {
    "socket.connect": "opens a network connection", "socket.bind": "opens a network socket",
    "socket.sendto": "sends over the network", "subprocess.Popen": "starts a process",
    "os.system": "runs a shell command", "os.exec": "runs a program",
    "os.posix_spawn": "starts a process", "os.spawn": "starts a process",
    "os.fork": "forks a process", "os.kill": "sends a signal",
    "os.remove": "deletes a file", "os.rename": "renames a file", "os.rmdir": "deletes a folder",
    "os.mkdir": "creates a folder", "os.truncate": "truncates a file",
    "os.chmod": "changes file permissions", "shutil.rmtree": "deletes a folder",
    "os.link": "links a file", "os.symlink": "links a file", "os.utime": "touches a file",
}


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open":
        path, mode, flags = (*tuple(args), None, None, None)[:3]
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS)
        if writes and path not in (os.devnull, None) and not isinstance(path, int):
            raise Refused(f"the code writes the file {os.fspath(path)!r}")
    elif event == "os.mkdir" and args and _harmless_folder(args[0]):
        return
    elif event in _REFUSED_EVENTS:
        path = args[0] if args and isinstance(args[0], str | bytes | os.PathLike) else None
        where = f" ({os.fsdecode(path)})" if path is not None and event.startswith(
            ("os.mkdir", "os.remove", "os.rename", "os.rmdir", "os.truncate", "os.chmod",
             "shutil.rmtree", "os.utime")) else ""
        raise Refused(f"the code {_REFUSED_EVENTS[event]}{where}")


def _harmless_folder(path: Any) -> bool:
    """A folder that exists already (``os.makedirs(..., exist_ok=True)`` asks anyway), or
    torch's own cache folder, which its first import of ``torch._dynamo`` makes (an op the
    cell reaches only after the fix can be the first to import it). Neither is the cell's."""
    try:
        text = os.fsdecode(path)
    except TypeError:
        return False
    if os.path.isdir(text):
        return True
    parent, name = os.path.split(os.path.abspath(text))
    return parent == os.path.abspath(tempfile.gettempdir()) and name.startswith("torchinductor_")


def _refuse(what: str) -> Callable[..., Any]:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise Refused(f"the code {what}")
    return refused


def _seal(seconds: float, keep: int) -> None:
    """In the child only: no output, no side effects, a time limit (hooks cannot be removed).

    NB: every inherited file descriptor but ``keep`` (the answer's pipe) now points at
    /dev/null: a log file the user's code holds open, the kernel's sockets. The audit hook sees
    files opened, not writes to files already open.
    """
    faulthandler.disable()  # NB: a crash of the child is reported by the parent, not dumped
    # NB: the parent's garbage is the parent's: collected here, a finaliser of an object from
    # before the fork can crash the child (seen: a segfault while collecting), and every object
    # the collector touches is copied on write
    gc.freeze()
    sys.dont_write_bytecode = True  # NB: a first import must not write a .pyc
    null = os.open(os.devnull, os.O_RDWR)
    for fd in [0, 1, 2, *_open_fds()]:
        if fd not in (keep, null):
            with contextlib.suppress(OSError):
                os.dup2(null, fd)
    # NB: not the kernel's OutStream, whose I/O thread the child does not have
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the child
    sys.stdin = open(os.devnull)  # noqa: SIM115
    torch = sys.modules.get("torch")
    if torch is not None:
        # NB: the parent's OpenMP pool does not survive fork(): a parallel op would wait forever
        # for its threads (DataLoader's workers do the same)
        torch.set_num_threads(1)
        # NB: torch.save writes through C++, which the audit hook never sees
        torch.save = _refuse("saves with torch.save")  # type: ignore[attr-defined]
    session = sys.modules.get("jupyter_client.session")
    if session is not None:  # NB: display(), widgets, comms: messages to the real frontend
        session.Session.send = _refuse("sends a message to the notebook (display or widget)")
    # NB: the temp folder is found once, here: its first lookup writes and deletes a probe file
    # there (a first `import torch._dynamo` asks for it), which is not the cell writing
    with contextlib.suppress(OSError):  # NB: none usable: the cell meets that itself
        tempfile.gettempdir()
    sys.addaudithook(_audit)
    signal.signal(signal.SIGINT, signal.SIG_DFL)

    def time_up(signum: int, frame: Any) -> None:
        raise TimeUp(f"{seconds:.3g} s")

    signal.signal(signal.SIGALRM, time_up)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _open_fds() -> list[int]:
    try:
        return [int(fd) for fd in os.listdir("/proc/self/fd") if int(fd) > 2]
    except OSError:
        return list(range(3, 256))


def run_forked(fn: Callable[[], Any], seconds: float) -> Outcome:
    """``fn()`` in a sealed child; its value (picklable), or why there is none.

    The child raises :class:`TimeUp` in the user's code after ``seconds`` (``fn`` decides what
    that means) and is killed a little later if it still has not answered.
    """
    if not hasattr(os, "fork"):
        return Outcome(problem="this platform has no fork(), which rehearsals need")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is never written
        _child(r, w, fn, seconds)
    os.close(w)
    try:
        data = _read(r, pid, time.monotonic() + seconds + 5)
    finally:
        os.close(r)
    status = _reap(pid)
    if data is None:
        return Outcome(problem=f"the rehearsal did not answer within {seconds:g} s")
    if not data:
        why = (f"signal {-status}" if status < 0 else f"exit status {status}")
        return Outcome(problem=f"the rehearsal's process crashed ({why})")
    try:
        kind, value = pickle.loads(data)
    except Exception as e:
        return Outcome(problem=f"the rehearsal's answer could not be read ({e})")
    return Outcome(value=value) if kind == "ok" else Outcome(problem=str(value))


def _child(r: int, w: int, fn: Callable[[], Any], seconds: float) -> None:  # pragma: no cover
    code = 0
    try:
        os.close(r)
        _seal(seconds, w)
        try:
            data = pickle.dumps(("ok", fn()))
        except BaseException as e:  # NB: the child must always answer
            data = pickle.dumps(("error", f"the rehearsal failed: {type(e).__name__}: {e}"))
        signal.setitimer(signal.ITIMER_REAL, 0)
        view = memoryview(data)
        while view:
            view = view[os.write(w, view):]
    except BaseException:
        code = 70
    finally:
        os._exit(code)  # NB: no interpreter teardown, no atexit of the parent's kernel


def _read(fd: int, pid: int, deadline: float) -> bytes | None:
    """All the child writes (b'' when it died first); None when the deadline passed."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            os.kill(pid, signal.SIGKILL)
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int) -> int:
    """The child's exit status (negative: the signal that ended it)."""
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)
