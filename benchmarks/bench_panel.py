"""What opening the panel costs a real kernel, beside a ``snapshot()`` of the same namespace.

A real ipykernel (``jupyter_client``) holds N loose tensors (``torch.zeros(2)`` each); the
panel's side of the comm is built by hand as JupyterLab sends it, and its messages are read off
iopub. Per size, side by side in one run:

- ``snapshot()``: the kernel's CPU time of ``take_snapshot`` on its namespace (timed inside the
  kernel, best of three); beside it, the same call run as a cell and timed as the panel is (the
  kernel's CPU from the request to its end, message handling included: "as a cell");
- the panel's first frame: the kernel process's CPU time (every thread: the session's JSON,
  ZMQ sends included, read from ``/proc``) from ``comm_open`` until the last message of the
  first frame, with no frame kept from an earlier panel (best of three; two at 1M);
- bytes kept per tensor afterwards, the panel still open: ``tracemalloc`` in the kernel (every
  Python allocation made by opening the panel and still alive), in a separate open; and after
  the first cell the panel sees (its push starts the incremental snapshot, which keeps more).

Then, in the same kernel, the README workload (10k loose tensors + a 2k-parameter model + Adam):
the push after a cell that changes nothing, where the user is: the kernel's CPU for a cell
``pass`` and the push after it (debounced on the kernel's event loop), less the same cell with
no panel open, against the bare loop timed in the kernel, both back to back (best of 9: warm
caches) and as the push runs (after each cell, on the event loop, median of 9).

Targets (issue 39): first frame <= 2x the snapshot at 10k, 100k and 1M; <= 200 B a tensor kept;
a no-op push <= 1.0x the bare loop in a real kernel at 10k objects.
Run: .venv/bin/python benchmarks/bench_panel.py [N ...]
"""

from __future__ import annotations

import os
import sys
import time
import uuid

from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import KernelManager, start_new_kernel

from devicelens.jupyter._protocol import COMM_TARGET, PROTOCOL_VERSION

SIZES = (10_000, 100_000, 1_000_000)
QUIET_S = 1.5  # the first frame is over once the kernel has sent nothing for this long


def cpu_of(pid: int) -> float:
    """CPU seconds of process ``pid``, all its threads (``schedstat``: nanoseconds, where
    ``/proc/PID/stat`` counts 10 ms ticks)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:  # NB: a thread that ended meanwhile
            continue
    return total / 1e9


class Kernel:
    def __init__(self) -> None:
        self.km: KernelManager
        self.kc: BlockingKernelClient
        self.km, self.kc = start_new_kernel(kernel_name="python3")
        self.pid = self.km.provisioner.process.pid  # type: ignore[union-attr]

    def run(self, code: str, timeout: float = 900) -> str:
        msg_id = self.kc.execute(code)
        out: list[str] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.kc.get_iopub_msg(timeout=1)
            except Exception:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                raise RuntimeError("\n".join(content["traceback"]))
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(out)
        raise RuntimeError(f"cell did not finish: {code!r}")

    def open_panel(self) -> tuple[str, float, int, int]:
        """Open a panel comm; (comm id, kernel CPU seconds until its first frame is over,
        messages, bytes received)."""
        comm_id = uuid.uuid4().hex
        cpu0 = cpu_of(self.pid)
        msg = self.kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": COMM_TARGET,
                                               "data": {"protocol": PROTOCOL_VERSION}})
        self.kc.shell_channel.send(msg)
        n = size = 0
        last = cpu0
        wait = 600.0  # NB: the first message may take long (the frame is built before it)
        while True:
            try:
                m = self.kc.get_iopub_msg(timeout=wait)
            except Exception:
                break
            if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id:
                n += 1
                size += len(str(m["content"]["data"]))
                last = cpu_of(self.pid)
                if m["content"]["data"].get("type") == "snapshot":
                    wait = QUIET_S
        return comm_id, last - cpu0, n, size

    def close_panel(self, comm_id: str) -> None:
        self.kc.shell_channel.send(self.kc.session.msg("comm_close",
                                                       {"comm_id": comm_id, "data": {}}))
        time.sleep(0.2)

    def shutdown(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


SETUP = """
%load_ext devicelens
import gc, time, tracemalloc, torch
from devicelens.inspect import take_snapshot
from devicelens.jupyter import _push
"""

FILL = """
for _k in [k for k in globals() if k.startswith('t') and k[1:].isdigit()]:
    del globals()[_k]
globals().update({{f"t{{i}}": torch.zeros(2) for i in range({n})}})
gc.collect()
"""

TIME_SNAPSHOT = """
_best = None
for _ in range({repeat}):
    _t0 = time.process_time()
    _s = take_snapshot(get_ipython().user_ns)
    _dt = time.process_time() - _t0
    del _s
    _best = _dt if _best is None else min(_best, _dt)
print(_best)
"""

SNAPSHOT_CELL = "_s = take_snapshot(get_ipython().user_ns); del _s"
FORGET = "_push._FRAMES.clear(); gc.collect()"
TRACE = "gc.collect(); tracemalloc.start()"
TRACED = "gc.collect(); print(tracemalloc.get_traced_memory()[0])"
# NB: the push after a cell, run now rather than when the event loop gets to it
PUSHED = ("from devicelens.jupyter import comm as _c; _c._HUBS[id(get_ipython())].flush(); "
          "gc.collect(); print(tracemalloc.get_traced_memory()[0]); tracemalloc.stop()")


def row(k: Kernel, n: int) -> None:
    k.run(FILL.format(n=n))
    repeat = 2 if n >= 1_000_000 else 3
    snap = float(k.run(TIME_SNAPSHOT.format(repeat=3)))
    cells = []
    for _ in range(3):
        cpu0 = cpu_of(k.pid)
        k.run(SNAPSHOT_CELL)
        cells.append(cpu_of(k.pid) - cpu0)
    cell = min(cells)
    frames: list[float] = []
    msgs = size = 0
    for _ in range(repeat):
        k.run(FORGET)
        comm_id, cpu, msgs, size = k.open_panel()
        frames.append(cpu)
        k.close_panel(comm_id)
    k.run(FORGET)
    k.run(TRACE)
    comm_id, _, _, _ = k.open_panel()
    kept = int(k.run(TRACED))
    after = int(k.run(PUSHED))
    k.close_panel(comm_id)
    k.run(FORGET)
    frame = min(frames)
    print(f"{n:>10,}{snap * 1e3:>14.1f}{frame * 1e3:>16.1f}{frame / snap:>9.2f}"
          f"{cell * 1e3:>11.1f}{frame / cell:>9.2f}"
          f"{msgs:>7}{size / 1e3:>11.1f}{kept / n:>12.0f}{after / n:>14.0f}", flush=True)


WORKLOAD = """
for _k in [k for k in globals() if k.startswith('t') and k[1:].isdigit()]:
    del globals()[_k]
import sys; sys.path.insert(0, {here!r})
from _workload import namespace as _ns, bare_loop as _bare
globals().update(_ns(10_000))
gc.collect()
"""
BARE = """
_b = []
for _ in range(9):
    _t0 = time.process_time(); _bare(get_ipython().user_ns); _b.append(time.process_time() - _t0)
print(min(_b))
"""
# NB: the bare loop where the push runs: after each cell, on the kernel's event loop, once the
# debounce has passed (the caches then hold what the kernel's message handling left in them)
AFTER_CELL = """
import asyncio
from devicelens.jupyter.comm import DEBOUNCE_S as _wait
_after = []
def _bare_after(result=None):
    def run():
        t0 = time.thread_time()
        _bare(get_ipython().user_ns)
        _after.append(time.thread_time() - t0)
    asyncio.get_running_loop().call_later(_wait, run)
get_ipython().events.register("post_run_cell", _bare_after)
"""
AFTER_CELL_READ = ("get_ipython().events.unregister('post_run_cell', _bare_after); "
                   "import statistics; print(statistics.median(_after))")
SETTLE_S = 0.4  # NB: the push waits 0.05 s for the next cell, then runs on the event loop


def cell_cpu(k: Kernel, code: str = "pass") -> float:
    """The kernel's CPU for ``code`` run as a cell and whatever follows it within SETTLE_S."""
    cpu0 = cpu_of(k.pid)
    k.run(code)
    time.sleep(SETTLE_S)
    return cpu_of(k.pid) - cpu0


def noop_push(k: Kernel) -> None:
    """The push after a cell that changes nothing, in a real kernel (README workload)."""
    import statistics

    here = os.path.dirname(os.path.abspath(__file__))
    k.run(WORKLOAD.format(here=here))
    bare = float(k.run(BARE))
    comm_id, _, _, _ = k.open_panel()
    for _ in range(10):  # NB: the live snapshot starts, its watches settle
        cell_cpu(k)
    with_panel = [cell_cpu(k) for _ in range(9)]
    k.close_panel(comm_id)
    for _ in range(3):
        cell_cpu(k)
    without = [cell_cpu(k) for _ in range(9)]
    push = statistics.median(with_panel) - statistics.median(without)
    k.run(AFTER_CELL)
    for _ in range(3):
        cell_cpu(k)
    k.run("_after.clear()")
    for _ in range(9):
        cell_cpu(k)
    after = float(k.run(AFTER_CELL_READ))
    print(f"\nREADME workload in a real kernel: bare loop {bare * 1e3:.2f} ms back to back, "
          f"{after * 1e3:.2f} ms run as the push runs (after each cell, on the event loop); "
          f"a cell 'pass' {statistics.median(without) * 1e3:.2f} ms of kernel CPU without the "
          f"panel, {statistics.median(with_panel) * 1e3:.2f} ms with it: the push "
          f"{push * 1e3:.2f} ms ({push / bare:.2f}x the bare loop back to back, "
          f"{push / after:.2f}x the bare loop after each cell)", flush=True)


def main(sizes: tuple[int, ...]) -> None:
    k = Kernel()
    try:
        k.run(SETUP)
        print("a real ipykernel, N loose tensors (torch.zeros(2) each); CPU ms of the kernel; "
              "first frame: best of 3 opens (2 at 1M), no frame kept from an earlier panel")
        print(f"{'tensors':>10}{'snapshot ms':>14}{'first frame ms':>16}{'x snap':>9}"
              f"{'as a cell':>11}{'x cell':>9}{'msgs':>7}{'kB sent':>11}{'B/tensor':>12}"
              f"{'after a cell':>14}")
        for n in sizes:
            row(k, n)
        noop_push(k)
    finally:
        k.shutdown()


if __name__ == "__main__":
    main(tuple(int(a) for a in sys.argv[1:]) or SIZES)
