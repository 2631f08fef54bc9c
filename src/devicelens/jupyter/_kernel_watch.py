"""The kernel's own execution state for the :class:`~devicelens.jupyter._gate.Gate`: which of
its shell messages are running user code right now, on any shell.

ipykernel dispatches every shell message, on the main shell and on each subshell, through one
table, ``kernel.shell_handlers``. :class:`KernelWatch` wraps the handlers of the messages that
run user code (``execute_request``, silent ones included, which fire no cell event; another
comm's ``comm_open``/``comm_msg``/``comm_close``, e.g. a widget's callback) so the gate sees
each of them begin and end. NB: the panel's own comm messages are not counted (our request
would wait for itself); the table is put back as it was on :meth:`KernelWatch.uninstall`.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ._gate import Gate

log = logging.getLogger("devicelens.gate")

WATCHED = ("execute_request", "comm_open", "comm_msg", "comm_close")
SILENT = "the kernel is running code sent without a cell (a silent execute_request)"
COMM = "the kernel is handling another comm's message (a widget's callback, say)"

Ours = Callable[[str, dict[str, Any]], bool]  # (msg_type, content) -> the panel's own message?


class KernelWatch:
    """Counts ``kernel``'s running shell handlers into ``gate``."""

    def __init__(self, kernel: Any, gate: Gate, ours: Ours) -> None:
        self.kernel, self.gate, self.ours = kernel, gate, ours
        self.wrapped: dict[str, tuple[Any, Any]] = {}  # msg_type -> (original, our wrapper)

    @classmethod
    def install(cls, shell: Any, gate: Gate, ours: Ours) -> KernelWatch | None:
        """Watch the kernel behind ``shell``; None without one (a terminal IPython, a test
        shell: its cells are followed through their events alone)."""
        kernel = getattr(shell, "kernel", None)
        table = getattr(kernel, "shell_handlers", None)
        if type(table) is not dict:
            return None
        watch = cls(kernel, gate, ours)
        for msg_type in WATCHED:
            handler = table.get(msg_type)
            if callable(handler):
                wrapper = watch._wrap(msg_type, handler)
                watch.wrapped[msg_type] = (handler, wrapper)
                table[msg_type] = wrapper
        return watch

    def uninstall(self) -> None:
        table = getattr(self.kernel, "shell_handlers", None)
        for msg_type, (handler, wrapper) in self.wrapped.items():
            if type(table) is dict and table.get(msg_type) is wrapper:
                table[msg_type] = handler
        self.wrapped.clear()

    def _wrap(self, msg_type: str, handler: Any) -> Callable[..., Any]:
        def watched(stream: Any, ident: Any, msg: Any) -> Any:
            what = self._what(msg_type, msg)
            if what is None:
                return handler(stream, ident, msg)
            token = self.gate.enter(what)
            try:
                result = handler(stream, ident, msg)
            except BaseException:
                self.gate.leave(token)
                raise
            if inspect.isawaitable(result):
                return _left_after(result, self.gate, token)
            self.gate.leave(token)
            return result
        return watched

    def _what(self, msg_type: str, msg: Any) -> str | None:
        """What this message runs, for the panel; None for the panel's own messages."""
        try:
            content = msg.get("content") if type(msg) is dict else None
            content = content if type(content) is dict else {}
            if msg_type == "execute_request":
                return SILENT if content.get("silent") else "a cell is running"
            return None if self.ours(msg_type, content) else COMM
        except Exception:  # NB: never stop the kernel's dispatch
            log.debug("devicelens: could not read a shell message", exc_info=True)
            return None


async def _left_after(result: Awaitable[Any], gate: Gate, token: int) -> Any:
    try:
        return await result
    finally:
        gate.leave(token)
