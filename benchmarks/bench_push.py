"""What the sidebar panel costs a cell: the push after each cell, by namespace size.

A real IPython shell with ``%load_ext devicelens``; the panel is a fake comm that serialises each
message as the kernel session does (JSON, UTF-8), so sizes are the bytes that go on the wire.
Cells run without an event loop, so the push happens inside the cell and shows up in its time
(in a kernel it is debounced to just after the cell). Prints one table; runs in well under 1 min.
Run: .venv/bin/python benchmarks/bench_push.py
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import torch
from IPython.core.interactiveshell import InteractiveShell
from torch import nn

from devicelens.jupyter import comm as dl_comm
from devicelens.jupyter._protocol import COMM_TARGET, PROTOCOL_VERSION


class WireComm:
    """A panel at the end of a wire: records the serialised size of every message."""

    def __init__(self) -> None:
        self.sizes: list[int] = []

    def send(self, data: Any = None, **_: Any) -> None:
        self.sizes.append(len(json.dumps(data, ensure_ascii=False).encode()))

    def on_msg(self, cb: Any) -> None:
        pass

    def on_close(self, cb: Any) -> None:
        self.close_cb = cb

    def close(self) -> None:
        pass


def fill(ns: dict[str, Any], n: int) -> None:
    """``n`` objects: one in ten a small module (2 Linear layers), the rest tensors."""
    with torch.no_grad():
        for i in range(n):
            ns[f"obj{i}"] = (nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 4)) if i % 10 == 0
                             else torch.zeros(4, 8))


def cell_ms(shell: InteractiveShell, code: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        shell.run_cell(code, store_history=False)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def open_panel() -> WireComm:
    import comm

    fake = WireComm()
    comm.get_comm_manager().targets[COMM_TARGET](
        fake, {"content": {"data": {"protocol": PROTOCOL_VERSION}}})
    return fake


def row(shell: InteractiveShell, n: int, repeat: int) -> list[str]:
    ns = shell.user_ns
    for k in [k for k in ns if k.startswith("obj")]:
        del ns[k]
    fill(ns, n)
    # NB: flips obj1's dtype, so every run really changes one row
    change, same = "obj1 = obj1.double() if obj1.dtype == torch.float32 else obj1.float()", "pass"
    base_change, base_same = cell_ms(shell, change, repeat), cell_ms(shell, same, repeat)
    hub = dl_comm._HUBS[id(shell)]
    assert hub.after_cell not in shell.events.callbacks["post_run_cell"]
    fake = open_panel()
    first_msgs, first_kb = len(fake.sizes) - 1, sum(fake.sizes[1:]) / 1e3
    fake.sizes.clear()
    with_change = cell_ms(shell, change, repeat)
    per_push_kb = sum(fake.sizes) / max(len(fake.sizes), 1) / 1e3
    with_same = cell_ms(shell, same, repeat)
    fake.close_cb({})
    return [f"{n:>7}", f"{base_change:>9.2f}", f"{with_change - base_change:>11.2f}",
            f"{with_same - base_same:>13.2f}", f"{first_msgs:>6}", f"{first_kb:>10.1f}",
            f"{per_push_kb:>10.2f}"]


def main() -> None:
    shell = InteractiveShell.instance()
    shell.user_ns["torch"] = torch
    fill(shell.user_ns, 100)
    no_ext = cell_ms(shell, "pass", 200)
    shell.run_line_magic("load_ext", "devicelens")
    hooks = len(shell.events.callbacks["post_run_cell"])
    no_panel = cell_ms(shell, "pass", 200)
    print(f"no panel open: cell 'pass' {no_ext * 1e3:.0f} us before %load_ext, "
          f"{no_panel * 1e3:.0f} us after (post_run_cell hooks: {hooks}) -> "
          f"{(no_panel - no_ext) * 1e3:+.0f} us, noise\n")
    print("one panel open; push inside the cell (no event loop); medians, ms / kB")
    head = ["objects", "cell ms", "+push ms", "+no-op ms", "msgs", "open kB", "push kB"]
    print("  ".join(f"{h:>{w}}" for h, w in zip(head, (7, 9, 11, 13, 6, 10, 10), strict=True)))
    for n, repeat in ((100, 50), (1_000, 10), (10_000, 3)):
        print("  ".join(row(shell, n, repeat)))
    print("\n+push: a cell that rebinds one name; +no-op: a cell that changes nothing (snapshot "
          "taken, nothing sent).\nmsgs/open kB: the first push on open (capped at 1 MB per "
          "message); push kB: one push after the cell (full up to 200 objects, then the diff).")


if __name__ == "__main__":
    main()
