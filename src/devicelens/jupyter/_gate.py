"""When the panel may change user state: never while the kernel runs user code, on any shell.

:class:`Gate` follows IPython's ``pre_run_cell``/``post_run_cell`` on every thread (ipykernel 7
runs each subshell on a thread of its own), and the kernel's own handlers of the messages that
run user code (:mod:`._kernel_watch`: a silent ``execute_request``, which fires no cell event,
another comm's message, such as a widget's callback) through :meth:`Gate.enter`/:meth:`leave`.
A mutating request that arrives meanwhile is held; held requests run once the last of them ends.
Threads that cells started and that still run are only reported (:meth:`Gate.user_threads`).

NB: not ``pre_execute``/``post_execute``: the comm machinery fires those around every comm
message, on the thread that handles it (ipykernel issue 1564), so our own request would count
as a running cell.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("devicelens.gate")

Action = Callable[[], None]


@dataclass(frozen=True)
class _Held:
    key: tuple[int, str]  # (id of the owner, request id)
    run: Action
    drop: Action  # called instead of ``run`` when the request is dropped unrun


class Gate:
    """Runs actions between cells. ``install`` on a shell, then ``submit``.

    NB: a held action runs on the thread whose cell ended last (the main thread for notebook
    cells), before the kernel answers that cell: the next cell starts after the move, as if it
    had been queued behind the cell. While an action runs, a cell starting on another thread
    waits in ``pre_run_cell`` until it is done.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.RLock())
        self._cells: dict[int, list[object]] = {}  # thread id -> ExecutionInfo of its cells
        self._busy: dict[int, str] = {}  # token -> what the kernel runs (see enter)
        self._tokens = itertools.count(1)
        self._before: dict[object, frozenset[threading.Thread]] = {}  # threads at a start
        self._born: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
        self._held: list[_Held] = []
        self._acting = 0
        self._actor: int | None = None
        self._shell: Any = None

    # -- the shell's events
    def install(self, shell: Any, *, running: object = None) -> None:
        """Follow ``shell``'s cells. ``running``: the ExecutionInfo of the cell this thread is
        running now (``%load_ext`` in a notebook), whose ``pre_run_cell`` has gone by."""
        self._shell = shell
        if running is not None:
            with self._cond:
                self._cells.setdefault(threading.get_ident(), []).append(running)
        shell.events.register("pre_run_cell", self.pre_run_cell)
        shell.events.register("post_run_cell", self.post_run_cell)

    def uninstall(self) -> None:
        """Stop following cells; requests still held are dropped (each told so)."""
        shell, self._shell = self._shell, None
        if shell is not None:
            for name, hook in (("pre_run_cell", self.pre_run_cell),
                               ("post_run_cell", self.post_run_cell)):
                with contextlib.suppress(ValueError):
                    shell.events.unregister(name, hook)
        self.drop(lambda key: True)
        with self._cond:
            self._cells.clear()
            self._busy.clear()
            self._before.clear()

    def pre_run_cell(self, info: object = None) -> None:
        me = threading.get_ident()
        with self._cond:
            while self._acting and self._actor != me:
                self._cond.wait()  # NB: a move on another thread finishes before this cell
            self._cells.setdefault(me, []).append(info)
            self._before[id(info)] = frozenset(threading.enumerate())

    def post_run_cell(self, result: object = None) -> None:
        me = threading.get_ident()
        with self._cond:
            stack = self._cells.get(me)
            if not stack:
                return
            info = getattr(result, "info", None)
            if info is None:
                info = stack.pop()  # NB: an interrupted async cell reports no result: the latest
            elif any(i is info for i in stack):
                stack.pop(max(k for k, i in enumerate(stack) if i is info))
            else:
                return  # NB: a whitespace-only cell fires post_run_cell without pre_run_cell
            if not stack:
                del self._cells[me]
            self._note_threads(id(info))
            held = self._release()
        self._run_held(held)

    # -- the kernel's handlers (see _kernel_watch)
    def enter(self, what: str) -> int:
        """The kernel starts running user code outside a cell (``what`` says what, for the
        panel); a token for :meth:`leave`. NB: waits while a change runs on another thread."""
        me = threading.get_ident()
        with self._cond:
            while self._acting and self._actor != me:
                self._cond.wait()
            token = next(self._tokens)
            self._busy[token] = what
            self._before[token] = frozenset(threading.enumerate())
        return token

    def leave(self, token: int) -> None:
        """What :meth:`enter` started has ended; held changes run if nothing else runs."""
        with self._cond:
            if self._busy.pop(token, None) is None:
                return
            self._note_threads(token)
            held = self._release()
        self._run_held(held)

    def _release(self) -> list[_Held]:
        # NB: called with the condition held
        if self._cells or self._busy or not self._held:
            return []
        held, self._held = self._held, []
        self._begin()
        return held

    def _run_held(self, held: list[_Held]) -> None:
        if not held:
            return
        try:
            for h in held:
                _safely(h.run)
        finally:
            self._end()

    # -- threads that cells started
    def _note_threads(self, key: object) -> None:
        before = self._before.pop(key, None)
        if before is not None:
            self._born.update(t for t in threading.enumerate() if t not in before
                              and not _kernel_thread(t))

    def user_threads(self) -> list[str]:
        """Names of the threads that user code started and that still run."""
        return sorted(t.name for t in list(self._born) if t.is_alive())

    # -- requests
    @property
    def cell_running(self) -> bool:
        with self._cond:
            return bool(self._cells or self._busy)

    def reason(self) -> str:
        """What the kernel runs that a change waits for."""
        with self._cond:
            if self._cells or not self._busy:
                return "a cell is running"
            return next(iter(self._busy.values()))

    def submit(self, key: tuple[int, str], run: Action, drop: Action,
               on_hold: Action) -> bool:
        """Run ``run`` now if no cell runs (True), else hold it, call ``on_hold`` and return
        False. ``drop`` is called instead of ``run`` if the request is cancelled or dropped."""
        with self._cond:
            if self._cells or self._busy:
                self._held.append(_Held(key, run, drop))
                held = True
            else:
                self._begin()
                held = False
        if held:
            _safely(on_hold)
            return False
        try:
            run()
        finally:
            self._end()
        return True

    def cancel(self, key: tuple[int, str]) -> bool:
        """Drop the held request ``key`` (its ``drop`` runs); False when it is not held (it ran
        already, or never was)."""
        return self.drop(lambda k: k == key) > 0

    def drop(self, which: Callable[[tuple[int, str]], bool]) -> int:
        """Drop every held request whose key ``which`` accepts; how many were dropped."""
        with self._cond:
            gone = [h for h in self._held if which(h.key)]
            self._held = [h for h in self._held if not which(h.key)]
        for h in gone:
            _safely(h.drop)
        return len(gone)

    def _begin(self) -> None:
        # NB: called with the condition held
        self._acting += 1
        self._actor = threading.get_ident()

    def _end(self) -> None:
        with self._cond:
            self._acting -= 1
            if not self._acting:
                self._actor = None
                self._cond.notify_all()


_KERNEL_PACKAGES = ("ipykernel", "IPython", "zmq", "jupyter_client", "tornado", "comm",
                    "devicelens", "debugpy", "traitlets")


def _kernel_thread(t: threading.Thread) -> bool:
    """Whether ``t`` is the kernel's own (a subshell, the iopub or history thread...): judged by
    the module of its class, or of its target. NB: ``__module__`` read from the class's dict."""
    target = getattr(t, "_target", None)
    for where in (type.__dict__["__module__"].__get__(type(t)),
                  getattr(target, "__module__", None)):
        if type(where) is str and where.split(".")[0] in _KERNEL_PACKAGES:
            return True
    return False


def _safely(action: Action) -> None:
    """NB: an exception must never escape into IPython's hooks or the comm machinery."""
    try:
        action()
    except Exception:
        log.warning("devicelens: a panel request failed between cells", exc_info=True)
