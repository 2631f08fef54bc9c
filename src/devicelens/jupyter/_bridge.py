"""One open panel comm: hello on open, snapshot pushes, requests and their replies.

NB: acts on validated, structured requests only (:mod:`devicelens.jupyter._requests`) and never
evaluates a string. Reads (refresh, expand, dry runs) may run while a cell runs, on a subshell's
thread, against a copy of the namespace; changes (move_all, apply_fix) go through the shell's
:class:`~devicelens.jupyter._gate.Gate` and never run while a cell does.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from . import _push, _window
from ._gate import Gate
from ._protocol import (
    PROTOCOL_VERSION,
    ApplyFixResult,
    CancelResult,
    DevicesResult,
    ErrorCode,
    ErrorMsg,
    HelloMsg,
    Method,
    MoveResult,
    ProgressMsg,
    QueuedMsg,
    RehearseFixResult,
    ResultMsg,
    SnapshotMsg,
    WireObject,
    WireSnapshot,
    WireWindow,
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
    parse_window,
    request_id_of,
    scrub,
    show,
)

if TYPE_CHECKING:
    from ..moves import MoveReport

log = logging.getLogger("devicelens.comm")

Namespace = Callable[[], dict[str, Any]]
PROGRESS_EVERY_S = 0.1
HELD_REASON = "{}: the change waits until it ends, then runs before the next one"


class Bridge:
    """Serves one panel comm: hello on open, snapshot pushes, request -> reply.

    ``comm`` needs ``send(data=...)``, ``on_msg``, ``on_close`` and ``close`` (a kernel comm, or
    a recording fake in tests); ``namespace`` returns the live user namespace; ``gate`` (shared
    by all bridges of a shell) holds changes while a cell runs — without one, as in a bare
    test, nothing is ever held. NB: every entry point takes ``lock`` (also shared): with
    ipykernel 7 a request may arrive on another thread while a cell runs.
    """

    def __init__(self, comm: Any, namespace: Namespace, *, lock: threading.RLock | None = None,
                 gate: Gate | None = None, on_change: Callable[[], None] | None = None,
                 on_close: Callable[[Bridge], None] | None = None) -> None:
        self.comm = comm
        self.namespace = namespace
        self.lock = lock or threading.RLock()
        self.gate = gate or Gate()
        self.on_change = on_change or self.push
        self.on_close = on_close
        self.seq = 0
        self.compatible = True
        self.closed = False
        self.spec = _window.Spec()  # the window the panel shows (``rows`` changes it)
        self._rows: dict[str, WireObject] = {}  # the page the panel holds
        self._state: object = None  # and its base, findings and window
        self._sent_any = False
        self._pager = _window.Pager()
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
            self.spec = self.spec.with_params(parse_window(data))
        except ProtocolError as e:  # NB: the panel still gets the default window
            self._error(None, e.code, e.detail)
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
        self.gate.drop(lambda key: key[0] == id(self))  # NB: nobody is left to tell
        if self.on_close is not None:
            self.on_close(self)

    # -- pushes
    def push(self, frame: _push.Frame | None = None, *, request_id: str | None = None,
             force: bool = False) -> int:
        """Send what changed in the panel's window since the last push (every row of it on
        the first push, a refresh, a ``rows`` request or a forced push: a full replace heals
        whatever the panel held); returns the number of messages sent, 0 when nothing
        changed."""
        with self.lock:
            if self.closed or not self.compatible:
                return 0
            if frame is None:
                frame = _push.build_frame(self.namespace(), live=self.gate.cell_running)
            rows, window = self._page(frame)
            full = force or request_id is not None or not self._sent_any
            chunks = _push.plan(frame, rows, window, self._rows, self._state, full=full,
                                force=force or request_id is not None)
            for c in chunks:
                self.seq += 1
                snap = WireSnapshot(objects=c.objects, **frame.base)  # type: ignore[typeddict-item]
                snap["truncated"] = c.truncated
                self._send(SnapshotMsg(type="snapshot", seq=self.seq, request_id=request_id,
                                       snapshot=snap, findings=frame.findings,
                                       changed=c.changed, removed=c.removed, window=window))
            if chunks:
                self._rows, self._state = rows, _push.state_of(frame, window)
                self._sent_any = True
            return len(chunks)

    def _page(self, frame: _push.Frame) -> tuple[dict[str, WireObject], WireWindow]:
        """The rows of the panel's window in ``frame``."""
        from ..inspect import gc_paused

        with gc_paused():  # NB: as for a snapshot: 1M names sorted, no object to collect
            return self._pager.page(frame, self.spec)

    # -- requests
    def handle(self, msg: object) -> None:
        """The comm's ``on_msg``. NB: never raises; every request gets exactly one final reply
        (a SnapshotMsg for refresh, else ResultMsg or ErrorMsg), a held one a QueuedMsg first."""
        content = dict.get(msg, "content") if type(msg) is dict else None
        data = dict.get(content, "data") if type(content) is dict else None
        rid = request_id_of(data)

        def serve() -> None:
            if not self.compatible:
                raise ProtocolError("protocol_mismatch",
                                    mismatch_detail(dict.get(data, "protocol")
                                                    if type(data) is dict else None), rid)
            req = parse_request(data)
            _HANDLERS[req["method"]](self, req["request_id"], req["params"])

        self._answer(rid, serve)

    def _answer(self, rid: str | None, work: Callable[[], None]) -> None:
        """Run ``work``; whatever it raises becomes the request's ErrorMsg. NB: never raises."""
        try:
            work()
        except ProtocolError as e:
            self._error(e.request_id or rid, e.code, e.detail)
        except Exception as e:  # NB: a bug of ours; the panel shows it, the kernel carries on
            log.debug("devicelens: request failed", exc_info=True)
            self._error(rid, "internal", describe(e))

    def _between_cells(self, rid: str, method: Method, work: Callable[[], None]) -> None:
        """Run the change ``work`` now, or hold it until no cell runs (QueuedMsg meanwhile)."""
        self.gate.submit(
            (id(self), rid),
            run=lambda: self._answer(rid, work),
            drop=lambda: self._error(rid, "cancelled", f"{method} cancelled before it ran: "
                                     "nothing was changed"),
            on_hold=lambda: self._send(QueuedMsg(type="queued", request_id=rid, method=method,
                                                 reason=HELD_REASON.format(self.gate.reason()))))

    def _view(self) -> dict[str, Any]:
        """The namespace to read: a copy (one C call), so a cell running on another thread
        cannot change its size under the walk."""
        return _push.namespace_copy(self.namespace())

    def _do_refresh(self, rid: str, params: dict[str, Any]) -> None:
        self.push(request_id=rid)

    def _do_rows(self, rid: str, params: dict[str, Any]) -> None:
        """Another page, sort or filter: the reply, and every push after it, show that
        window. NB: the frame the panel last saw, unless none was built yet: a page is a read
        of what the panel shows, not a new snapshot (pushes bring those)."""
        with self.lock:
            self.spec = self.spec.with_params(params)  # type: ignore[arg-type]
            frames = _push.frames_of(self.namespace())
            self.push(frames.last if frames is not None and frames.last is not None else None,
                      request_id=rid)

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
                rec = _push.record_for(self._view(), name, _torch(rid),
                                       live=self.gate.cell_running)
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
        names, dry_run = params.get("names"), params.get("dry_run", False)

        def move() -> None:
            with self.lock:
                # NB: a dry run only reads, so it may look at a copy while a cell runs
                ns = self._view() if dry_run else self.namespace()
                missing = [n for n in names or () if n not in ns]
                if missing:
                    raise ProtocolError("bad_request", f"move_all: no name(s) {show(missing)} "
                                        "in the namespace", rid)
                try:
                    report = moves.move_all(device, ns, names=names, dry_run=dry_run,
                                            progress=_Progress(self, rid))
                except ValueError as e:
                    raise ProtocolError("bad_request", f"move_all: {e}", rid) from None
                report = self._threads_noted(report)
                if report.dry_run and report.refused:  # NB: the panel names what stays and
                    self._result(rid, "move_all",      # offers to move the rest
                                 MoveResult(report=report_to_wire(report)))
                    return
                self._finish(rid, "move_all", MoveResult(report=report_to_wire(report)), report)

        if dry_run:
            move()
        else:
            self._between_cells(rid, "move_all", move)

    def _do_apply_fix(self, rid: str, params: dict[str, Any]) -> None:
        fid, dry_run = params["finding_id"], params.get("dry_run", False)
        _torch(rid)

        def fix() -> None:
            with self.lock:
                ns = self._view() if dry_run else self.namespace()
                frame = _push.build_frame(ns, live=dry_run and self.gate.cell_running)
                finding = next((f for f in frame.raw_findings if f.id == fid), None)
                if finding is None:
                    self.push(frame)  # NB: the panel's findings are stale: bring them up to date
                    raise ProtocolError("stale_finding", f"finding {show(fid)} no longer "
                                        "applies (the namespace changed since it was reported)",
                                        rid)
                if finding.action is None:
                    raise ProtocolError("bad_request", f"finding {fid} ({finding.kind}) has no "
                                        "automatic fix; run its code by hand", rid)
                from .. import moves

                verdict = "" if dry_run else _rehearsed(finding, ns)
                if "would do harm" in verdict:
                    raise ProtocolError("move_failed", "nothing applied: "
                                        f"{verdict.removeprefix('not verified: ')}", rid)
                try:
                    report = moves.apply_fix(finding, ns, dry_run=dry_run,
                                             progress=_Progress(self, rid))
                except ValueError as e:
                    raise ProtocolError("bad_request", f"apply_fix: {e}", rid) from None
                if verdict:
                    report = dataclasses.replace(report, notes=(verdict, *report.notes))
                report = self._threads_noted(report)
                result = ApplyFixResult(finding_id=fid, report=report_to_wire(report))
                self._finish(rid, "apply_fix", result, report)

        if dry_run:
            fix()
        else:
            self._between_cells(rid, "apply_fix", fix)

    def _do_rehearse_fix(self, rid: str, params: dict[str, Any]) -> None:
        """One finding's fix as code, rehearsed as printed on a forked copy of the kernel:
        what "Insert as cell" puts in the notebook, with its verdict. NB: a fork is no read of
        a copy: like a change, it waits until no cell runs."""
        fid = params["finding_id"]
        _torch(rid)

        def rehearse() -> None:
            with self.lock:
                ns = self.namespace()
                frame = _push.build_frame(ns)
                finding = next((f for f in frame.raw_findings if f.id == fid), None)
                if finding is None:
                    self.push(frame)
                    raise ProtocolError("stale_finding", f"finding {show(fid)} no longer "
                                        "applies (the namespace changed since it was reported)",
                                        rid)
                if not finding.fix:
                    raise ProtocolError("bad_request", f"finding {fid} ({finding.kind}) has no "
                                        "fix as code", rid)
                from ..guard import rehearsal

                verdict = rehearsal.rehearsed_code(finding, ns, rehearsal.snapshot_diagnosis())
            self._result(rid, "rehearse_fix", RehearseFixResult(finding_id=fid, fix=finding.fix,
                                                                verdict=verdict))

        self._between_cells(rid, "rehearse_fix", rehearse)

    def _threads_noted(self, report: MoveReport) -> MoveReport:
        """NB: a thread a cell started may still use the tensors: the gate cannot wait for it
        (it may never end), so the reply says so."""
        threads = self.gate.user_threads()
        if not threads:
            return report
        names = ", ".join(threads[:3]) + (f" and {len(threads) - 3} more"
                                          if len(threads) > 3 else "")
        s = "" if len(threads) == 1 else "s"
        note = (f"User thread{s} started by a cell {'is' if not s else 'are'} still running "
                f"({names}): {'it' if not s else 'they'} may be using these tensors while they "
                f"move, or keep the old ones afterwards; join {'it' if not s else 'them'} "
                f"first to be sure.")
        return dataclasses.replace(report, notes=(*report.notes, note))

    def _do_cancel(self, rid: str, params: dict[str, Any]) -> None:
        """Cancel a held change: it is answered ``cancelled``; too late once it ran."""
        target = params["request_id"]
        done = self.gate.cancel((id(self), target))
        self._result(rid, "cancel", CancelResult(request_id=target, cancelled=done))

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
            try:
                self.comm.send(data=dict(payload))
            except UnicodeEncodeError:  # NB: a lone surrogate in a name: sent escaped instead
                self.comm.send(data=scrub(dict(payload)))
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
    "refresh": Bridge._do_refresh, "rows": Bridge._do_rows, "expand": Bridge._do_expand,
    "move_all": Bridge._do_move_all, "apply_fix": Bridge._do_apply_fix,
    "rehearse_fix": Bridge._do_rehearse_fix,
    "list_devices": Bridge._do_list_devices, "cancel": Bridge._do_cancel,
}


def _torch(rid: str) -> Any:
    torch = sys.modules.get("torch")
    if torch is None:
        raise ProtocolError("bad_request", "torch is not imported in this kernel yet", rid)
    return torch


def _rehearsed(finding: Any, ns: dict[str, Any]) -> str:
    """The panel's Apply, rehearsed on a forked copy of the namespace first (as ``%devices
    --fix`` is): ``verified: ...``, or ``not verified: why``; '' when rehearsals are off."""
    from .. import moves
    from ..guard import rehearsal

    return rehearsal.rehearsed_apply(ns, lambda copy: moves.apply_fix(finding, copy),
                                     rehearsal.snapshot_diagnosis(), only=finding)
