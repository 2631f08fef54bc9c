"""The kernel end of the sidebar panel: the ``devicelens`` comm target of a shell.

:class:`Hub` registers the target, keeps the open :class:`~devicelens.jupyter._bridge.Bridge`
of each panel, pushes to them after each cell (debounced, only while a panel is open) and owns
the shell's :class:`~devicelens.jupyter._gate.Gate`, which keeps the panel's changes out of
running cells. NB: with :mod:`._bridge`, the only Python code doing the panel's kernel I/O.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Any

from . import _push
from ._bridge import Bridge
from ._gate import Gate
from ._kernel_watch import KernelWatch
from ._protocol import COMM_TARGET
from ._requests import describe

__all__ = ["DEBOUNCE_S", "MAX_WAIT_S", "Bridge", "Hub", "panel_connected", "register",
           "unregister"]

log = logging.getLogger("devicelens.comm")

DEBOUNCE_S = 0.05  # a push waits this long for the next cell before it goes out
MAX_WAIT_S = 1.0  # ...but a busy run-all still gets one at least this often


class Hub:
    """The comm target of one shell: opens bridges, pushes to all of them after each cell.

    NB: the ``post_run_cell`` push hook is registered only while a panel is open, so a kernel
    with no panel pays for nothing but the gate's two counters per cell.
    """

    def __init__(self, shell: Any, *, debounce_s: float = DEBOUNCE_S) -> None:
        self.shell = shell
        self.debounce_s = debounce_s
        self.lock = threading.RLock()
        self.gate = Gate()
        self.watch: KernelWatch | None = None
        self.bridges: list[Bridge] = []
        self._sched = threading.Lock()  # NB: guards the two fields below, from any thread
        self._gen = 0
        self._pending_since: float | None = None

    def namespace(self) -> dict[str, Any]:
        return self.shell.user_ns  # type: ignore[no-any-return]

    def ours(self, msg_type: str, content: dict[str, Any]) -> bool:
        """Whether a comm message is a panel's own (the gate must not wait for it)."""
        if msg_type == "comm_open":
            return bool(content.get("target_name") == COMM_TARGET)
        cid = content.get("comm_id")
        return any(getattr(b.comm, "comm_id", None) == cid for b in list(self.bridges))

    def open(self, comm: Any, msg: object) -> None:
        """The comm target callback."""
        content = dict.get(msg, "content") if type(msg) is dict else None
        _route_as_sent(comm)
        bridge = Bridge(comm, self.namespace, lock=self.lock, gate=self.gate,
                        on_change=self.flush, on_close=self._drop)
        with self.lock:
            if bridge.open(dict.get(content, "data") if type(content) is dict else None):
                self.bridges.append(bridge)
                if len(self.bridges) == 1:
                    self.shell.events.register("post_run_cell", self.after_cell)

    def _drop(self, bridge: Bridge) -> None:
        with self.lock:
            if bridge in self.bridges:
                self.bridges.remove(bridge)
            if not self.bridges:
                self._unhook()

    def _unhook(self) -> None:
        with contextlib.suppress(ValueError):
            self.shell.events.unregister("post_run_cell", self.after_cell)
        with self._sched:
            self._gen += 1  # NB: a push still scheduled finds itself outdated and does nothing
            self._pending_since = None

    def after_cell(self, result: object = None) -> None:
        """``post_run_cell``: push now without an event loop, else once cells pause.

        NB: runs on the thread of the cell that ended, a subshell's included (whose event loop
        is its own): a generation number, not a timer handle, says which scheduled push is the
        latest, so no thread ever cancels a timer on another thread's loop.
        """
        try:
            loop = _running_loop()
            now = time.monotonic()
            with self._sched:
                self._gen += 1
                gen = self._gen
                since = self._pending_since
                now_or_later = loop is None or self.debounce_s <= 0 or (
                    since is not None and now - since >= MAX_WAIT_S)
                self._pending_since = None if now_or_later else (now if since is None else since)
            if now_or_later:
                self.flush()
            else:
                assert loop is not None
                loop.call_later(self.debounce_s, self._fire, gen)
        except Exception as e:  # NB: a hook that raises would print a traceback under the cell
            self._report(e)

    def _fire(self, gen: int) -> None:
        with self._sched:
            if gen != self._gen:
                return
            self._pending_since = None
        try:
            self.flush()
        except Exception as e:
            self._report(e)

    def _report(self, e: Exception) -> None:
        """A failed push goes to the panels (the cell's output is the user's)."""
        log.debug("devicelens: push failed", exc_info=True)
        for bridge in list(self.bridges):
            bridge._error(None, "internal", f"snapshot after the cell failed: {describe(e)}")

    def flush(self) -> None:
        """One frame of the namespace, pushed to every open panel."""
        from ..inspect import gc_paused

        # NB: one pause over the frame and its messages: a collection in between would scan
        # what the cell left young (a training step's new grads) and every row being built
        with self.lock, gc_paused():
            if self.bridges:
                frame = _push.build_frame(self.namespace(), live=self.gate.cell_running)
                for bridge in list(self.bridges):
                    bridge.push(frame)

    def close(self) -> None:
        with self.lock:
            for bridge in list(self.bridges):
                bridge.close()
            self.bridges.clear()
            self._unhook()
        if self.watch is not None:
            self.watch.uninstall()
            self.watch = None
        self.gate.uninstall()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _route_as_sent(comm: Any) -> None:
    """Keep the panel's messages on the subshell the front end sends them to.

    NB: ipykernel 7 routes a comm's incoming messages to the subshell that last *sent* on it
    (meant for a widget reply that a cell is blocked on). The panel's requests are no such
    replies: after a push from the main shell they would wait behind the running cell in the
    shell's queue, where they can be neither acknowledged nor cancelled. The gate decides when
    a change runs; reads stay live.
    """
    if callable(getattr(comm, "_reply_subshell_for", None)):
        comm._reply_subshell_for = lambda data, default: default


def _running_cell(shell: Any) -> object:
    """The ExecutionInfo of the (non-silent) cell running now on this thread, or None: the
    cell whose ``%load_ext`` is registering us, whose ``pre_run_cell`` has already gone by."""
    result = getattr(getattr(shell, "displayhook", None), "exec_result", None)
    info = getattr(result, "info", None)
    return info if info is not None and not getattr(info, "silent", True) else None


_HUBS: dict[int, Hub] = {}


def register(shell: Any) -> Hub:
    """Serve the panel's comm target on ``shell`` (``%load_ext``). Idempotent."""
    import comm

    hub = _HUBS.get(id(shell))
    if hub is None:
        hub = _HUBS[id(shell)] = Hub(shell)
        hub.gate.install(shell, running=_running_cell(shell))
        hub.watch = KernelWatch.install(shell, hub.gate, hub.ours)
    comm.get_comm_manager().register_target(COMM_TARGET, hub.open)
    return hub


def panel_connected(shell: Any) -> bool:
    """Whether a devicelens panel has a comm open to ``shell`` right now."""
    hub = _HUBS.get(id(shell))
    return hub is not None and bool(hub.bridges)


def unregister(shell: Any) -> None:
    """Undo :func:`register`: close open panels' comms, drop the target and the hooks."""
    import comm

    hub = _HUBS.pop(id(shell), None)
    if hub is None:
        return
    hub.close()
    manager = comm.get_comm_manager()
    if manager.targets.get(COMM_TARGET) == hub.open:
        manager.unregister_target(COMM_TARGET, hub.open)
