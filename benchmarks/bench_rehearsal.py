"""What the rehearsal adds to a failing cell: the post-mortem with and without it, side by side.

Workloads, each a failing cell in a real IPython shell with devicelens loaded: the README's
namespace (10k loose tensors, a 2k-parameter model moved to ``meta``, Adam) fed a cpu batch, and
``notebooks/quickstart.ipynb``'s first training step (a transformer, AdamW, a dict batch and a
loss weight left on the cpu: completed over rounds). Columns: the failing cell without devicelens
(the error alone), the post-mortem without the rehearsal (``DEVICELENS_REHEARSAL_SECONDS=0``),
and with it. Wall time (the rehearsal's work happens in forked children), best of 5 interleaved
runs. Target: a rehearsal on the README's workload within 2 s. Beside them, ``%devices`` on the
quickstart's namespace at that step (five findings, each fix rehearsed on a copy of the
namespace) with ``--no-rehearse`` and without: its cost when it has fixes to prove (with none, as
on ``bench_snapshot``'s workloads, the rehearsal does nothing).
Run: .venv/bin/python benchmarks/bench_rehearsal.py
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

NOTEBOOK = os.path.join(os.path.dirname(__file__), "..", "notebooks", "quickstart.ipynb")
STEP = "loss = train_step(model, optimizer, batch, class_weights)"


def shell(load: bool) -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.InteractiveTB.set_mode("Plain")
    if load:
        ip.run_line_magic("load_ext", "devicelens")
    return ip


def readme(ip: Any) -> str:
    ns = namespace(10_000)
    ns["model"].to("meta")
    ip.user_ns.update(ns, x=torch.randn(4, 2))
    return "out = model(x)\n"


def quickstart(ip: Any) -> str:
    """The quickstart notebook's own cells, run up to its first failing training step."""
    import json

    with open(NOTEBOOK) as f:
        cells = ["".join(c["source"]) for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    for src in cells[:[c.strip() for c in cells].index(STEP)]:
        if not src.lstrip().startswith("%devices"):  # NB: views only; they change nothing
            ip.run_cell(src, store_history=False)
    return STEP + "\n"


def timed(ip: Any, cell: str, seconds: str) -> tuple[float, str]:
    os.environ["DEVICELENS_REHEARSAL_SECONDS"] = seconds
    buf = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        ip.run_cell(cell, store_history=False)
    took = time.perf_counter() - start
    verdict = next((ln.strip() for ln in buf.getvalue().splitlines()
                    if ln.lstrip().startswith(("verified", "not verified"))), "")
    return took, verdict


def main() -> None:
    torch.__future__.set_swap_module_params_on_conversion(True)
    ip = shell(load=True)
    print(f"{'workload':12} {'error alone':>12} {'post-mortem':>12} {'+ rehearsal':>12} "
          f"{'ratio':>6}  verdict")
    for name, make in (("README", readme), ("quickstart", quickstart)):
        ip.reset(new_session=False)
        ip.run_cell("import torch", store_history=False)
        cell = make(ip)
        best: dict[str, float] = {"off": 1e9, "on": 1e9, "plain": 1e9}
        verdict = ""
        for _ in range(5):
            best["off"] = min(best["off"], timed(ip, cell, "0")[0])
            took, verdict = timed(ip, cell, "10")
            best["on"] = min(best["on"], took)
            start = time.perf_counter()
            with contextlib.suppress(Exception):
                exec(compile(cell, "<bench>", "exec"), dict(ip.user_ns))
            best["plain"] = min(best["plain"], time.perf_counter() - start)
        print(f"{name:12} {best['plain']:11.3f}s {best['off']:11.3f}s {best['on']:11.3f}s "
              f"{best['on'] / best['off']:5.1f}x  {verdict[:60]}")
    devices(ip)


def devices(ip: Any) -> None:
    """``%devices`` on the quickstart's failing namespace, its fixes rehearsed or not."""
    os.environ["DEVICELENS_REHEARSAL_SECONDS"] = "10"
    best = {"--no-rehearse": 1e9, "": 1e9}
    for _ in range(5):
        for flag in best:
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                ip.run_line_magic("devices", f"--text {flag}")
            best[flag] = min(best[flag], time.perf_counter() - start)
    print(f"\n%devices, quickstart step (5 findings): {best['--no-rehearse']:.3f}s without the "
          f"rehearsal, {best['']:.3f}s with it ({best[''] / best['--no-rehearse']:.0f}x)")


if __name__ == "__main__":
    main()
