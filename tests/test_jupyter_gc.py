"""The panel never turns the user's garbage collector back on (issue 38, item 6): a refresh
served on another thread (a kernel subshell) while the cell on the main thread calls
``gc.disable()`` leaves the collector off."""

from __future__ import annotations

import gc
import sys
import threading
from typing import Any

import torch

from devicelens.jupyter._protocol import PROTOCOL_VERSION
from devicelens.jupyter.comm import Bridge

from ._comm_fake import FakeComm


def test_a_refresh_on_a_subshell_keeps_the_cells_gc_disable() -> None:
    ns = {"x": torch.ones(2), "m": torch.nn.Linear(2, 2)}
    comm = FakeComm()
    bridge = Bridge(comm, lambda: ns)
    assert bridge.open({"protocol": PROTOCOL_VERSION})
    comm.take()
    inside, go = threading.Event(), threading.Event()
    replies: list[list[dict[str, Any]]] = []

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        # NB: stop the refresh in the middle of reading the namespace (a snapshot's first walk)
        if event == "call" and frame.f_code.co_filename.endswith("inspect/snapshot.py") \
                and not inside.is_set():
            inside.set()
            assert go.wait(10)
        return None

    def subshell() -> None:
        sys.settrace(tracer)
        try:
            replies.append(comm.request("refresh", rid="gc"))
        finally:
            sys.settrace(None)

    assert gc.isenabled()
    worker = threading.Thread(target=subshell)
    worker.start()
    try:
        assert inside.wait(10)
        gc.disable()  # the cell, on the main thread, while the refresh is half-way
        go.set()
        worker.join(10)
        assert not worker.is_alive()
        assert not gc.isenabled()
    finally:
        go.set()
        gc.enable()
    assert [m["type"] for m in replies[0]] == ["snapshot"]
    assert [o["name"] for o in replies[0][0]["snapshot"]["objects"]] == ["m", "x"]


def test_a_frame_built_on_the_main_thread_pauses_and_restores_the_gc() -> None:
    from devicelens.inspect import gc_paused

    seen: list[bool] = []
    with gc_paused():
        seen.append(gc.isenabled())
    seen.append(gc.isenabled())
    gc.disable()
    try:
        with gc_paused():
            pass
        seen.append(gc.isenabled())
    finally:
        gc.enable()
    assert seen == [False, True, False]
