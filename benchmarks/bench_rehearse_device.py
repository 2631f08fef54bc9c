"""``%%cuda_safe --rehearse cuda:0`` on the README's workload: what knowing it will run on a GPU
costs, on a machine without one.

Workload: the README's namespace (10k loose tensors, a 2k-parameter model of 1000 Linear layers)
and one training step that moves the model to the GPU, makes its optimizer and steps it. NB: with
the namespace's own Adam, stepped on the cpu, the rehearsal finds the real bug instead (its state
stays on the cpu when the model moves), which is a different measurement.
Columns: the same step run for real on the cpu (``device = "cpu"``), and rehearsed as on
``cuda:0`` in the forked sandbox (simulated tensors, ``backward()`` skipped). Wall time, best of
5 interleaved runs, in a real IPython shell with devicelens loaded; the first rehearsal (which
imports ``torch._dynamo`` once) is reported apart.
Run: .venv/bin/python benchmarks/bench_rehearse_device.py
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from typing import Any

import torch

sys.path.insert(0, os.path.dirname(__file__))
from _workload import namespace

STEP = """\
device = "{device}"
model.to(device)
opt = torch.optim.Adam(model.parameters())
x = torch.randn(4, 2, device=device)
loss = model(x).sum()
opt.zero_grad()
loss.backward()
opt.step()
"""


def shell() -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "devicelens")
    ip.user_ns.update(namespace(10_000), torch=torch)
    return ip


def timed(ip: Any, cell: str) -> tuple[float, str]:
    buf = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        ip.run_cell(cell, store_history=False)
    return time.perf_counter() - start, buf.getvalue()


def main() -> None:
    ip = shell()
    rehearse = "%%cuda_safe --rehearse cuda:0\n" + STEP.format(device="cuda")
    first, out = timed(ip, rehearse)
    best = {"cpu": 1e9, "rehearsal": 1e9}
    for _ in range(5):
        best["cpu"] = min(best["cpu"], timed(ip, STEP.format(device="cpu"))[0])
        took, out = timed(ip, rehearse)
        best["rehearsal"] = min(best["rehearsal"], took)
    verdict = out.strip().splitlines()[0] if out.strip() else "(no output)"
    print(f"{'workload':10} {'cpu step':>10} {'rehearsal':>10} {'ratio':>7} {'first':>8}  verdict")
    print(f"{'README':10} {best['cpu']:9.3f}s {best['rehearsal']:9.3f}s "
          f"{best['rehearsal'] / best['cpu']:6.1f}x {first:7.2f}s  {verdict}")


if __name__ == "__main__":
    main()
