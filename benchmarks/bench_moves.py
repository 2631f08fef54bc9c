"""Move cost against the seed-style naive loop, on one namespace, CPU -> meta.

Namespace: 10k loose tensors + a module with 2k parameters (with grads) + Adam state for all of
them. The naive loop is what users write by hand: ``x = x.to(dev)`` per name and
``model.to(dev)``; it leaves the optimizer state behind and (cpu -> meta) replaces the
Parameter objects, so it does strictly less than devicelens, which also moves the state, keeps
identities and is all-or-nothing. Each timing is the best of 5 on a freshly built namespace.

Then, at 10k, 100k and 1M loose tensors (``torch.zeros(2)`` each, as in ``bench_snapshot``), a
dry run and a move beside the naive ``[t.to("meta") for t in ts]`` (targets: a dry run <= 2x
the naive loop; a move <= 2x the naive loop, whose ``.to()`` calls are the copies), in CPU time
of this process, interleaved rounds, each ratio the median of the rounds' own; the peak of
Python memory (tracemalloc) of each beside the bytes moved (target: <= the moved bytes + 200 B
a tensor; torch's C++ side, tensor bodies and device memory, is not traced); and the README
workload's first ``snapshot()`` against the bare loop (target <= 2.5x).
Run: .venv/bin/python benchmarks/bench_moves.py [--scale-only [SIZES...]]
"""

from __future__ import annotations

import gc
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import torch
from _workload import bare_loop, loose, namespace, paired_ratio, rounds
from torch import nn

from devicelens import moves

DEV = "meta"


def naive(ns: dict[str, Any]) -> None:
    for k, v in list(ns.items()):
        if isinstance(v, torch.Tensor):
            ns[k] = v.to(DEV)
        elif isinstance(v, nn.Module):
            v.to(DEV)


def naive_with_state(ns: dict[str, Any]) -> None:
    """The hand-written version that also remembers the optimizer state (not the step)."""
    naive(ns)
    for v in ns.values():
        if isinstance(v, torch.optim.Optimizer):
            for s in v.state.values():
                for k, t in s.items():
                    if isinstance(t, torch.Tensor) and k != "step":
                        s[k] = t.to(DEV)


def plan_only(ns: dict[str, Any]) -> None:
    moves.plan_move(DEV, ns)


def dry_run(ns: dict[str, Any]) -> None:
    assert moves.move_all(DEV, ns, dry_run=True).ok


def move_all(ns: dict[str, Any]) -> None:
    assert moves.move_all(DEV, ns).ok


def best(fn: Callable[[dict[str, Any]], None], n_loose: int, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        ns = namespace(n_loose)
        t0 = time.perf_counter()
        fn(ns)
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ns = namespace()
    plan = moves.plan_move(DEV, ns)
    n_tensors = len(plan.entries) + len(plan.loose or ())
    print(f"namespace: 10,000 loose tensors + 2,000 parameters (+ grads) + Adam state "
          f"= {n_tensors:,} tensors to move, cpu -> {DEV}\n")
    base = best(naive, 10_000)
    rows = [("naive loop (x = x.to(dev); model.to(dev))", base),
            ("naive loop + optimizer state loop", best(naive_with_state, 10_000)),
            ("devicelens plan only", best(plan_only, 10_000)),
            ("devicelens dry run (plan + report)", best(dry_run, 10_000)),
            ("devicelens move_all (plan + allocate + commit)", best(move_all, 10_000))]
    width = max(len(r[0]) for r in rows)
    print(f"{'operation':<{width}}  {'time':>9}  {'x naive':>7}")
    for name, t in rows:
        print(f"{name:<{width}}  {t * 1e3:7.1f} ms  {t / base:7.2f}")
    print("\nscaling of move_all with the number of loose tensors:")
    print(f"{'loose tensors':>13}  {'naive':>9}  {'move_all':>9}  {'x naive':>7}")
    for n in (1_000, 10_000, 30_000):
        t_naive, t_move = best(naive, n, 3), best(move_all, n, 3)
        print(f"{n:>13,}  {t_naive * 1e3:6.1f} ms  {t_move * 1e3:6.1f} ms  "
              f"{t_move / t_naive:7.2f}")
    scalars()


def scalars() -> None:
    """A dry run beside big containers of scalars costs about what a snapshot of them does."""
    from devicelens.inspect import take_snapshot

    ns = {"ids": list(range(1_000_000)), "table": dict.fromkeys(range(100_000), 0.5),
          "x": torch.ones(3)}

    def timed(fn: Callable[[], Any]) -> float:
        best_t = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            fn()
            best_t = min(best_t, time.perf_counter() - t0)
        return best_t

    snap = timed(lambda: take_snapshot(ns))
    dry = timed(lambda: moves.move_all(DEV, ns, dry_run=True))
    print("\na list of 1,000,000 ints + a dict of 100,000 floats + one tensor:")
    print(f"  snapshot() {snap * 1e3:6.1f} ms   dry run {dry * 1e3:6.1f} ms   "
          f"dry run / snapshot {dry / snap:5.2f}")


SCALE = tuple(int(a) for a in sys.argv[1:] if a.isdigit()) or (10_000, 100_000, 1_000_000)


def scale() -> None:
    """Dry run, move and the naive loop side by side; peak memory against the moved bytes."""
    print(f"\nloose tensors only (torch.zeros(2) each), cpu -> {DEV}; CPU ms, best of the "
          f"rounds; x = the median of each round's ratio to the naive loop; B/t = bytes a tensor:"
          f" moved, and the peak of Python memory (tracemalloc) while each runs")
    print(f"{'tensors':>10}{'naive ms':>10}{'dry ms':>9}{'x naive':>8}{'move ms':>10}"
          f"{'x naive':>8}{'moved B/t':>10}{'dry peak':>10}{'move peak':>11}{'naive peak':>12}")
    for n in SCALE:
        scale_row(n, {10_000: 9, 100_000: 5}.get(n, 3))
        gc.collect()


def scale_row(n: int, repeat: int) -> None:
    """One size. NB: a move changes its namespace, so each round moves a fresh one, built in a
    variant of its own (not a ratio's); the naive loop leaves its list as it was."""
    ns = loose(n)
    ts = list(ns.values())
    fresh = [loose(n)]

    def move() -> None:
        assert moves.move_all(DEV, fresh[0]).ok

    def rebuild() -> None:
        fresh[0] = loose(n)

    r = rounds({"naive": lambda: [t.to(DEV) for t in ts],
                "dry": lambda: moves.move_all(DEV, ns, dry_run=True),
                "move": move, "rebuild": rebuild}, repeat)
    t = {k: min(v) for k, v in r.items()}
    moved = moves.plan_move(DEV, ns).total
    fresh[0] = loose(n)
    peaks = (peak(lambda: moves.move_all(DEV, ns, dry_run=True)), peak(move),
             peak(lambda: [t.to(DEV) for t in ts]))
    print(f"{n:>10,}{t['naive'] * 1e3:>10.1f}{t['dry'] * 1e3:>9.1f}"
          f"{paired_ratio(r['dry'], r['naive']):>8.2f}{t['move'] * 1e3:>10.1f}"
          f"{paired_ratio(r['move'], r['naive']):>8.2f}{moved / n:>10.0f}"
          f"{peaks[0] / n:>10.0f}{peaks[1] / n:>11.0f}{peaks[2] / n:>12.0f}")


def peak(fn: Callable[[], object]) -> int:
    """Peak Python memory (tracemalloc) while ``fn`` runs, above what was there before it.
    NB: allocations of torch's C++ side (tensor bodies, device memory) are not traced."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    out = fn()
    top = tracemalloc.get_traced_memory()[1] - base
    del out
    tracemalloc.stop()
    return top


def readme_snapshot() -> None:
    """The README workload's first snapshot against the bare loop (as bench_snapshot)."""
    from devicelens.inspect import take_snapshot

    ns = namespace(10_000)
    r = rounds({"bare": lambda: bare_loop(ns), "snap": lambda: take_snapshot(ns)}, 11)
    print(f"\nREADME workload (10k loose + 2k-parameter model + Adam): first snapshot() "
          f"{min(r['snap']) * 1e3:.1f} ms, bare loop {min(r['bare']) * 1e3:.1f} ms, "
          f"{paired_ratio(r['snap'], r['bare']):.2f}x (target <= 2.5x)")


if __name__ == "__main__":
    if "--scale-only" not in sys.argv:
        main()
    scale()
    readme_snapshot()
