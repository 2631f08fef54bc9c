"""Snapshot, diagnose and ``%devices`` against the floor: a bare loop reading .device/.dtype/.shape.

Targets: a first ``snapshot()`` within 2.0x the bare loop at 1k, 10k, 100k and 1M loose tensors
with gc enabled (as in a kernel), linear (per-tensor cost at 1M within 1.2x of that at 1k) and
at most 200 bytes per tensor; ``diagnose()`` within 0.5x; ``%devices`` on 60 models + 30
optimizers within 50 ms. CPU time of this process, best of interleaved runs (see _workload).
Run: .venv/bin/python benchmarks/bench_snapshot.py
"""

from __future__ import annotations

import contextlib
import gc
import io
import tracemalloc
from typing import Any

from _workload import bare_loop, interleaved, loose, namespace, zoo

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot

SIZES = (1_000, 10_000, 100_000, 1_000_000)


def bytes_per_tensor(ns: dict[str, Any], n: int) -> float:
    """Memory the snapshot keeps, per tensor (tracemalloc: every Python allocation)."""
    gc.collect()
    tracemalloc.start()
    snap = take_snapshot(ns)
    kept = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del snap
    return kept / n


def scaling() -> None:
    print("loose tensors only (torch.zeros(2) each), first snapshot, gc enabled")
    print(f"{'tensors':>10}{'bare ms':>10}{'snapshot ms':>13}{'x bare':>8}{'us/tensor':>11}"
          f"{'x 1k':>7}{'bare x 1k':>11}{'B/tensor':>10}{'diagnose ms':>13}{'x bare':>8}")
    first: tuple[float, float] | None = None
    for n in SIZES:
        per = scaling_row(n, first)
        first = first or per
        gc.collect()


def scaling_row(n: int, first: tuple[float, float] | None) -> tuple[float, float]:
    """One size: prints its row, returns the snapshot's and the bare loop's microseconds per
    tensor. NB: "x 1k" is the snapshot's per-tensor cost against its own at 1k (linearity);
    "bare x 1k" the bare loop's, beside it: memory far from the cache slows both at size."""
    ns = loose(n)
    repeat = 7 if n <= 10_000 else 3
    snap = take_snapshot(ns)
    t = interleaved({"bare": lambda: bare_loop(ns), "snap": lambda: take_snapshot(ns),
                     "diag": lambda: diagnose(snap)}, repeat)
    per, bare = t["snap"] / n * 1e6, t["bare"] / n * 1e6
    snap1k, bare1k = first or (per, bare)
    print(f"{n:>10,}{t['bare'] * 1e3:>10.1f}{t['snap'] * 1e3:>13.1f}"
          f"{t['snap'] / t['bare']:>8.2f}{per:>11.3f}{per / snap1k:>7.2f}{bare / bare1k:>11.2f}"
          f"{bytes_per_tensor(ns, n):>10.0f}{t['diag'] * 1e3:>13.1f}"
          f"{t['diag'] / t['bare']:>8.2f}")
    return per, bare


def workload() -> None:
    ns = namespace(10_000)
    snap = take_snapshot(ns)
    t = interleaved({"bare": lambda: bare_loop(ns), "snap": lambda: take_snapshot(ns),
                     "diag": lambda: diagnose(snap)}, 7)
    print(f"\nREADME workload: 10k loose tensors + 2k-parameter model + Adam state "
          f"({len(snap.tensors())} tensor records)")
    print(f"{'what':<36}{'ms':>8}{'x bare loop':>14}")
    for name, v in (("bare loop (.device/.dtype/.shape)", t["bare"]),
                    ("snapshot(), first", t["snap"]), ("diagnose()", t["diag"]),
                    ("snapshot() + diagnose()", t["snap"] + t["diag"])):
        print(f"{name:<36}{v * 1e3:>8.1f}{v / t['bare']:>14.2f}")


def magic() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "devicelens")
    ns = zoo()
    shell.user_ns.update(ns)
    n_params = sum(len(list(v.parameters())) for k, v in ns.items() if k.startswith("model"))

    def devices() -> object:
        with contextlib.redirect_stdout(io.StringIO()):  # NB: --text prints the table
            return shell.run_line_magic("devices", "--text")

    def rendered() -> object:
        view = shell.run_line_magic("devices", "")
        return view._repr_mimebundle_() if hasattr(view, "_repr_mimebundle_") else view

    t = interleaved({"bare": lambda: bare_loop(ns), "text": devices, "both": rendered}, 7)
    print(f"\n%devices on 60 models + 30 optimizers ({n_params:,} parameters); target <= 50 ms")
    print(f"{'what':<44}{'ms':>8}{'x bare loop':>14}")
    for name, v in (("bare loop", t["bare"]), ("%devices --text", t["text"]),
                    ("%devices (text/plain + text/html rendered)", t["both"])):
        print(f"{name:<44}{v * 1e3:>8.1f}{v / t['bare']:>14.2f}")


def main() -> None:
    assert gc.isenabled()
    scaling()
    workload()
    magic()


if __name__ == "__main__":
    main()
