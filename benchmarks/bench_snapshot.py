"""Snapshot cost against the floor: a bare loop that only reads .device/.dtype/.shape.

Namespace: N loose tensors + a module with 2k parameters + Adam state for all of them.
Prints a table (ratio side by side, one run) and the scaling from 1k to 100k loose tensors.
Run: .venv/bin/python benchmarks/bench_snapshot.py
"""

from __future__ import annotations

import sys
import time

import torch
from _workload import namespace
from torch import nn

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot

# NB: the module, not devicelens.snapshot (that name is the public function)
snapshot_module = sys.modules[take_snapshot.__module__]


def bare_loop(ns: dict[str, object]) -> int:
    """The floor: touch every tensor's device, dtype and shape, nothing else."""
    n = 0
    for v in ns.values():
        if isinstance(v, torch.Tensor):
            _ = v.device, v.dtype, v.shape
            n += 1
        elif isinstance(v, nn.Module):
            for p in v.parameters():
                _ = p.device, p.dtype, p.shape, p.grad
                n += 1
        elif isinstance(v, torch.optim.Optimizer):
            for s in v.state.values():
                for t in s.values():
                    _ = t.device, t.dtype, t.shape
                    n += 1
    return n


def best(fn, *args, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times)


def cold(ns: dict[str, object]) -> object:
    """A first snapshot: nothing to reuse from a previous one."""
    snapshot_module._loose_cache[0] = {}
    return take_snapshot(ns)


def warm(ns: dict[str, object]) -> object:
    """A snapshot after one of the same namespace (what the panel's push after a cell does)."""
    take_snapshot(ns)
    t0 = time.perf_counter()
    take_snapshot(ns)
    return time.perf_counter() - t0


def main() -> None:
    ns = namespace(10_000)
    floor = best(bare_loop, ns)
    cold_t = best(cold, ns)
    warm_t = min(warm(ns) for _ in range(5))  # type: ignore[type-var]
    snap = take_snapshot(ns)
    diag_t = best(diagnose, snap)
    print(f"namespace: 10k loose tensors + 2k-parameter model + Adam state "
          f"({len(snap.tensors())} tensor records)")
    print(f"{'what':<36}{'ms':>8}{'x bare loop':>14}")
    for name, t in (("bare loop (.device/.dtype/.shape)", floor), ("snapshot(), first", cold_t),
                    ("snapshot(), again (reuse)", warm_t), ("diagnose()", diag_t),
                    ("first snapshot() + diagnose()", cold_t + diag_t)):
        print(f"{name:<36}{t * 1e3:>8.1f}{t / floor:>14.2f}")
    print("\nscaling (loose tensors only, first snapshot):")
    print(f"{'tensors':>10}{'snapshot ms':>14}{'bare ms':>10}{'ratio':>8}{'us/tensor':>11}")
    for n in (1_000, 10_000, 100_000):
        ns_n = {f"t{i}": torch.zeros(2) for i in range(n)}
        s, b = best(cold, ns_n, repeat=3), best(bare_loop, ns_n, repeat=3)
        print(f"{n:>10}{s * 1e3:>14.1f}{b * 1e3:>10.1f}{s / b:>8.2f}{s / n * 1e6:>11.2f}")


if __name__ == "__main__":
    main()
