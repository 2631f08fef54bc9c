"""Move cost against the seed-style naive loop, on one namespace, CPU -> meta.

Namespace: 10k loose tensors + a module with 2k parameters (with grads) + Adam state for all of
them. The naive loop is what users write by hand: ``x = x.to(dev)`` per name and
``model.to(dev)``; it leaves the optimizer state behind and (cpu -> meta) replaces the
Parameter objects, so it does strictly less than devicelens, which also moves the state, keeps
identities and is all-or-nothing. Each timing is the best of 5 on a freshly built namespace.
Run: .venv/bin/python benchmarks/bench_moves.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import torch
from _workload import namespace
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
    n_tensors = sum(len(g) for g in plan.groups)
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


if __name__ == "__main__":
    main()
