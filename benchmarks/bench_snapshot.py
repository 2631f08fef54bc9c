"""Snapshot, diagnose and ``%devices`` against the floor: a bare loop reading .device/.dtype/.shape.

Targets: a first ``snapshot()`` within 2.0x the bare loop at 1k, 10k, 100k and 1M loose tensors
with gc enabled (as in a kernel), linear (per-tensor cost at 1M within 1.2x of that at 1k) and
at most 200 bytes per tensor; ``diagnose()`` within 0.5x; ``%devices`` on 60 models + 30
optimizers within 50 ms (and, beside it, ``%devices`` on 100k loose tensors). CPU time of this
process: ms is the best of interleaved runs, "x bare" the median over rounds of each round's
ratio (``paired_ratio``, see _workload).
Run: .venv/bin/python benchmarks/bench_snapshot.py
"""

from __future__ import annotations

import contextlib
import gc
import io
import tracemalloc
from operator import add
from typing import Any

from _workload import bare_loop, loose, namespace, paired_ratio, rounds, zoo

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
    # NB: best of more runs where a run is short: on a shared machine one of three runs at
    # 100k could all fall in a slow spell (3.0x one run, 2.0x the next)
    repeat = {1_000: 25, 10_000: 15, 100_000: 9}.get(n, 5)
    snap = take_snapshot(ns)
    r = rounds({"bare": lambda: bare_loop(ns), "snap": lambda: take_snapshot(ns),
                "diag": lambda: diagnose(snap)}, repeat)
    t = {k: min(v) for k, v in r.items()}
    per, bare = t["snap"] / n * 1e6, t["bare"] / n * 1e6
    snap1k, bare1k = first or (per, bare)
    print(f"{n:>10,}{t['bare'] * 1e3:>10.1f}{t['snap'] * 1e3:>13.1f}"
          f"{paired_ratio(r['snap'], r['bare']):>8.2f}{per:>11.3f}{per / snap1k:>7.2f}"
          f"{bare / bare1k:>11.2f}"
          f"{bytes_per_tensor(ns, n):>10.0f}{t['diag'] * 1e3:>13.1f}"
          f"{paired_ratio(r['diag'], r['bare']):>8.2f}")
    return per, bare


def workload() -> None:
    ns = namespace(10_000)
    snap = take_snapshot(ns)
    r = rounds({"bare": lambda: bare_loop(ns), "snap": lambda: take_snapshot(ns),
                "diag": lambda: diagnose(snap)}, 11)
    r["both"] = list(map(add, r["snap"], r["diag"]))
    t = {k: min(v) for k, v in r.items()}
    print(f"\nREADME workload: 10k loose tensors + 2k-parameter model + Adam state "
          f"({len(snap.tensors())} tensor records)")
    print(f"{'what':<36}{'ms':>8}{'x bare loop':>14}")
    for name, k in (("bare loop (.device/.dtype/.shape)", "bare"), ("snapshot(), first", "snap"),
                    ("diagnose()", "diag"), ("snapshot() + diagnose()", "both")):
        print(f"{name:<36}{t[k] * 1e3:>8.1f}{paired_ratio(r[k], r['bare']):>14.2f}")


def magic() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "devicelens")
    ns = zoo()
    shell.user_ns.update(ns)
    n_params = sum(len(list(v.parameters())) for k, v in ns.items() if k.startswith("model"))
    print(f"\n%devices on 60 models + 30 optimizers ({n_params:,} parameters); target <= 50 ms")
    magic_rows(shell, ns, 11)
    for k in ns:
        del shell.user_ns[k]
    big = loose(100_000)
    shell.user_ns.update(big)
    print("\n%devices on 100k loose tensors (runs of alike tensors fold into one row)")
    magic_rows(shell, big, 5)


def magic_rows(shell: Any, ns: dict[str, Any], repeat: int) -> None:
    """``%devices`` (as text, and rendered as a notebook keeps it) on the namespace ``ns`` of
    ``shell``, against the bare loop over ``ns``; and how much it shows."""

    def devices() -> object:
        with contextlib.redirect_stdout(io.StringIO()):  # NB: --text prints the table
            return shell.run_line_magic("devices", "--text")

    def rendered() -> object:
        view = shell.run_line_magic("devices", "")
        return view._repr_mimebundle_() if hasattr(view, "_repr_mimebundle_") else view

    r = rounds({"bare": lambda: bare_loop(ns), "text": devices, "both": rendered}, repeat)
    t = {k: min(v) for k, v in r.items()}
    print(f"{'what':<44}{'ms':>8}{'x bare loop':>14}")
    for name, k in (("bare loop", "bare"), ("%devices --text", "text"),
                    ("%devices (text/plain + text/html rendered)", "both")):
        print(f"{name:<44}{t[k] * 1e3:>8.1f}{paired_ratio(r[k], r['bare']):>14.2f}")
    shown = rendered()
    assert isinstance(shown, dict)
    print(f"what it shows: {shown['text/plain'].count(chr(10)) + 1:,} lines of text, "
          f"{len(shown['text/html'].encode()) / 1e3:.0f} kB of HTML (kept in the notebook)")


def main() -> None:
    assert gc.isenabled()
    scaling()
    workload()
    magic()


if __name__ == "__main__":
    main()
