"""The kernel end of the sidebar panel: the ``devicelens`` comm target and what it serves.

:class:`Bridge` serves one open panel comm (hello, pushes, requests); :class:`Hub` registers the
target on a shell, keeps the open bridges and pushes after each cell, debounced, only while a
panel is open. NB: the one Python module doing the panel's kernel I/O. It acts on validated,
structured requests only (:mod:`devicelens.jupyter._requests`) and never evaluates a string.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from . import _push
from ._protocol import (
    COMM_TARGET,
    PROTOCOL_VERSION,
    ApplyFixResult,
    DevicesResult,
    ErrorCode,
    ErrorMsg,
    HelloMsg,
    Method,
    MoveResult,
    ProgressMsg,
    ResultMsg,
    SnapshotMsg,
    WireSnapshot,
    device_to_wire,
    report_to_wire,
)
from ._requests import (
    ProtocolError,
    check_device,
    clip,
    describe,
    mismatch_detail,
    parse_request,
    request_id_of,
    show,
)

if TYPE_CHECKING:
    from ..moves import MoveReport

log = logging.getLogger("devicelens.comm")

Namespace = Callable[[], dict[str, Any]]
DEBOUNCE_S = 0.05  # a push waits this long for the next cell before it goes out
MAX_WAIT_S = 1.0  # ...but a busy run-all still gets one at least this often
PROGRESS_EVERY_S = 0.1


class Bridge:
    """Serves one panel comm: hello on open, snapshot pushes, request -> reply.

    ``comm`` needs ``send(data=...)``, ``on_msg``, ``on_close`` and ``close`` (a kernel comm, or
    a recording fake in tests); ``namespace`` returns the live user namespace. NB: every entry
    point takes ``lock`` (shared by all bridges of a shell): with ipykernel 7 a request may
    arrive on another thread while a cell runs.
    """

    def __init__(self, comm: Any, namespace: Namespace, *, lock: threading.RLock | None = None,
                 on_change: Callable[[], None] | None = None,
                 on_close: Callable[[Bridge], None] | None = None) -> None:
        self.comm = comm
        self.namespace = namespace
        self.lock = lock or threading.RLock()
        self.on_change = on_change or self.push
        self.on_close = on_close
        self.seq = 0
        self.compatible = True
        self.closed = False
        self._rows: dict[str, Any] = {}
        self._base: object = None
        comm.on_msg(self.handle)
        comm.on_close(self._handle_close)

    # -- lifecycle
    def open(self, data: object = None) -> bool:
        """Greet the panel and send the first snapshot; False (after an error) on a protocol
        mismatch, after which every request is answered ``protocol_mismatch``."""
        from .._version import __version__

        self._send(HelloMsg(type="hello", protocol=PROTOCOL_VERSION, version=__version__))
        panel = dict.get(data, "protocol") if type(data) is dict else None
        if panel is not None and (type(panel) is not int or panel != PROTOCOL_VERSION):
            self.compatible = False
            self._error(None, "protocol_mismatch", mismatch_detail(panel))
            return False
        try:
            self.push(force=True)
        except Exception as e:
            log.debug("devicelens: first snapshot failed", exc_info=True)
            self._error(None, "internal", describe(e))
        return True

    def close(self) -> None:
        """Close the comm from the kernel side (``%unload_ext``). Idempotent."""
        if not self.closed:
            self.closed = True
            try:
                self.comm.close()
            except Exception:
                log.debug("devicelens: closing the comm failed", exc_info=True)

    def _handle_close(self, msg: object) -> None:
        self.closed = True
        if self.on_close is not None:
            self.on_close(self)

    # -- pushes
    def push(self, frame: _push.Frame | None = None, *, request_id: str | None = None,
             force: bool = False) -> int:
        """Send what changed since the last push (everything for a small namespace or when
        ``request_id`` is set); returns the number of messages sent, 0 when nothing changed."""
        with self.lock:
            if self.closed or not self.compatible:
                return 0
            if frame is None:
                frame = _push.build_frame(self.namespace())
            full = force or request_id is not None or len(frame.rows) <= _push.FULL_LIMIT
            chunks = _push.plan(frame, self._rows, self._base, full=full,
                                force=force or request_id is not None)
            for c in chunks:
                self.seq += 1
                snap = WireSnapshot(objects=c.objects, **frame.base)  # type: ignore[typeddict-item]
                snap["truncated"] = c.truncated
                self._send(SnapshotMsg(type="snapshot", seq=self.seq, request_id=request_id,
                                       snapshot=snap, findings=frame.findings,
                                       changed=c.changed, removed=c.removed))
            if chunks:
                self._rows, self._base = frame.rows, (frame.base, frame.findings)
            return len(chunks)

    # -- requests
    def handle(self, msg: object) -> None:
        """The comm's ``on_msg``. NB: never raises; every request gets exactly one final reply
        (a SnapshotMsg for refresh, else ResultMsg or ErrorMsg)."""
        content = dict.get(msg, "content") if type(msg) is dict else None
        data = dict.get(content, "data") if type(content) is dict else None
        rid = request_id_of(data)
        try:
            if not self.compatible:
                raise ProtocolError("protocol_mismatch",
                                    mismatch_detail(dict.get(data, "protocol")
                                                    if type(data) is dict else None), rid)
            req = parse_request(data)
            _HANDLERS[req["method"]](self, req["request_id"], req["params"])
        except ProtocolError as e:
            self._error(e.request_id or rid, e.code, e.detail)
        except Exception as e:  # NB: a bug of ours; the panel shows it, the kernel carries on
            log.debug("devicelens: request failed", exc_info=True)
            self._error(rid, "internal", describe(e))

    def _do_refresh(self, rid: str, params: dict[str, Any]) -> None:
        self.push(request_id=rid)

    def _do_list_devices(self, rid: str, params: dict[str, Any]) -> None:
        devices = []
        torch = sys.modules.get("torch")
        if torch is not None:
            from ..inspect import available_devices

            devices = [device_to_wire(d) for d in available_devices(torch)]
        self._result(rid, "list_devices", DevicesResult(devices=devices))

    def _do_expand(self, rid: str, params: dict[str, Any]) -> None:
        name, path = params["name"], params.get("path", "")
        with self.lock:
            try:
                rec = _push.record_for(dict.copy(self.namespace()), name, _torch(rid))
            except LookupError as e:
                raise ProtocolError("bad_request", f"expand: {e}", rid) from None
            page = _push.expand(rec, path, params.get("offset", 0))
        if page is None:
            raise ProtocolError("bad_request", f"expand: {show(path)} is not inside {name}", rid)
        self._result(rid, "expand", page)

    def _do_move_all(self, rid: str, params: dict[str, Any]) -> None:
        from .. import moves

        _torch(rid)
        try:
            device = str(moves.parse_device(check_device(params["device"], rid)))
        except ValueError as e:
            raise ProtocolError("bad_device", str(e), rid) from None
        names = params.get("names")
        with self.lock:
            ns = self.namespace()
            missing = [n for n in names or () if n not in ns]
            if missing:
                raise ProtocolError("bad_request", f"move_all: no name(s) {show(missing)} in "
                                    "the namespace", rid)
            try:
                report = moves.move_all(device, ns, names=names,
                                        dry_run=params.get("dry_run", False),
                                        progress=_Progress(self, rid))
            except ValueError as e:
                raise ProtocolError("bad_request", f"move_all: {e}", rid) from None
            self._finish(rid, "move_all", MoveResult(report=report_to_wire(report)), report)

    def _do_apply_fix(self, rid: str, params: dict[str, Any]) -> None:
        fid = params["finding_id"]
        _torch(rid)
        with self.lock:
            frame = _push.build_frame(self.namespace())
            finding = next((f for f in frame.raw_findings if f.id == fid), None)
            if finding is None:
                self.push(frame)  # NB: the panel's findings are stale: bring them up to date
                raise ProtocolError("stale_finding", f"finding {show(fid)} no longer applies "
                                    "(the namespace changed since it was reported)", rid)
            if finding.action is None:
                raise ProtocolError("bad_request", f"finding {fid} ({finding.kind}) has no "
                                    "automatic fix; run its code by hand", rid)
            from .. import moves

            try:
                report = moves.apply_fix(finding, self.namespace(),
                                         dry_run=params.get("dry_run", False),
                                         progress=_Progress(self, rid))
            except ValueError as e:
                raise ProtocolError("bad_request", f"apply_fix: {e}", rid) from None
            result = ApplyFixResult(finding_id=fid, report=report_to_wire(report))
            self._finish(rid, "apply_fix", result, report)

    def _finish(self, rid: str, method: Method, result: Mapping[str, Any],
                report: MoveReport) -> None:
        if not report.ok:
            detail = clip(report.error or "the move failed", 400)
            if "nothing" not in detail and "restored" not in detail:
                detail += "; nothing was changed"
            refused = "; ".join(f"{p}: {why}" for p, why in report.refused[:5])
            if refused:
                detail += f" (refused: {clip(refused, 200)})"
            raise ProtocolError("move_failed", detail, rid)
        self._result(rid, method, result)
        if not report.dry_run and report.moved:
            self.on_change()

    # -- sending
    def _result(self, rid: str, method: Method, result: Mapping[str, Any]) -> None:
        self._send(ResultMsg(type="result", request_id=rid, method=method, result=dict(result)))

    def _error(self, rid: str | None, code: ErrorCode, detail: str) -> None:
        self._send(ErrorMsg(type="error", request_id=rid, error=code, detail=detail))

    def _send(self, payload: Mapping[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.comm.send(data=dict(payload))
        except Exception as e:
            log.warning("devicelens: could not send a %s message", payload.get("type"),
                        exc_info=True)
            if payload.get("type") != "error":  # NB: a request still gets its one reply
                self._error(payload.get("request_id"), "internal",
                            f"could not send the {payload.get('type')} message: {describe(e)}")


class _Progress:
    """The move engine's progress callback: ProgressMsgs, at most every PROGRESS_EVERY_S."""

    def __init__(self, bridge: Bridge, rid: str) -> None:
        self.bridge, self.rid, self.last = bridge, rid, -1.0

    def __call__(self, done: int, total: int) -> None:
        try:  # NB: never raise into the move engine: it would undo a good move
            now = time.monotonic()
            if done < total and now - self.last < PROGRESS_EVERY_S:
                return
            self.last = now
            self.bridge._send(ProgressMsg(type="progress", request_id=self.rid, done=int(done),
                                          total=int(total)))
        except Exception:
            log.debug("devicelens: progress message failed", exc_info=True)


_HANDLERS: dict[str, Callable[[Bridge, str, dict[str, Any]], None]] = {
    "refresh": Bridge._do_refresh, "expand": Bridge._do_expand,
    "move_all": Bridge._do_move_all, "apply_fix": Bridge._do_apply_fix,
    "list_devices": Bridge._do_list_devices,
}


def _torch(rid: str) -> Any:
    torch = sys.modules.get("torch")
    if torch is None:
        raise ProtocolError("bad_request", "torch is not imported in this kernel yet", rid)
    return torch


# --- the shell side -------------------------------------------------------------------------

class Hub:
    """The comm target of one shell: opens bridges, pushes to all of them after each cell.

    NB: the ``post_run_cell`` hook is registered only while a panel is open, so a kernel with
    no panel pays nothing.
    """

    def __init__(self, shell: Any, *, debounce_s: float = DEBOUNCE_S) -> None:
        self.shell = shell
        self.debounce_s = debounce_s
        self.lock = threading.RLock()
        self.bridges: list[Bridge] = []
        self._timer: asyncio.TimerHandle | None = None
        self._pending_since: float | None = None

    def namespace(self) -> dict[str, Any]:
        return self.shell.user_ns  # type: ignore[no-any-return]

    def open(self, comm: Any, msg: object) -> None:
        """The comm target callback."""
        content = dict.get(msg, "content") if type(msg) is dict else None
        bridge = Bridge(comm, self.namespace, lock=self.lock, on_change=self.flush,
                        on_close=self._drop)
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
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def after_cell(self, result: object = None) -> None:
        """``post_run_cell``: push now without an event loop, else once cells pause."""
        try:
            loop = _running_loop()
            now = time.monotonic()
            if loop is None or self.debounce_s <= 0 or (
                    self._pending_since is not None and now - self._pending_since >= MAX_WAIT_S):
                self._fire()
                return
            if self._pending_since is None:
                self._pending_since = now
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_later(self.debounce_s, self._fire)
        except Exception as e:  # NB: a hook that raises would print a traceback under the cell
            self._report(e)

    def _fire(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._pending_since = None, None
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
        with self.lock:
            if self.bridges:
                frame = _push.build_frame(self.namespace())
                for bridge in list(self.bridges):
                    bridge.push(frame)

    def close(self) -> None:
        with self.lock:
            for bridge in list(self.bridges):
                bridge.close()
            self.bridges.clear()
            self._unhook()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


_HUBS: dict[int, Hub] = {}


def register(shell: Any) -> Hub:
    """Serve the panel's comm target on ``shell`` (``%load_ext``). Idempotent."""
    import comm

    hub = _HUBS.get(id(shell))
    if hub is None:
        hub = _HUBS[id(shell)] = Hub(shell)
    comm.get_comm_manager().register_target(COMM_TARGET, hub.open)
    return hub


def panel_connected(shell: Any) -> bool:
    """Whether a devicelens panel has a comm open to ``shell`` right now."""
    hub = _HUBS.get(id(shell))
    return hub is not None and bool(hub.bridges)


def unregister(shell: Any) -> None:
    """Undo :func:`register`: close open panels' comms, drop the target and the hook."""
    import comm

    hub = _HUBS.pop(id(shell), None)
    if hub is None:
        return
    hub.close()
    manager = comm.get_comm_manager()
    if manager.targets.get(COMM_TARGET) == hub.open:
        manager.unregister_target(COMM_TARGET, hub.open)
