"""Happy-path cost of ``%%cuda_safe`` against the floor: an empty ``TorchFunctionMode``.

Workloads (CPU): 200 training steps of a tiny MLP and of a small CNN (forward, loss, backward,
SGD step). Columns: plain execution, an empty mode (the floor any function mode pays), the
device guard, the guard with ``--dtype``, and the whole ``%%cuda_safe`` magic through a real
IPython shell (pre-flight + guard). Target: guard within 1.2x of the floor. Best of 9
interleaved runs.
Run: .venv/bin/python benchmarks/bench_guard.py
"""

from __future__ import annotations

import time
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn
from torch.overrides import TorchFunctionMode

from devicelens.guard import make_guard

STEPS = 200
torch.manual_seed(0)
torch.set_num_threads(1)


class EmptyMode(TorchFunctionMode):
    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return func(*args, **(kwargs or {}))


def mlp_ns() -> dict[str, Any]:
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    return {"model": model, "opt": torch.optim.SGD(model.parameters(), lr=0.01),
            "x": torch.randn(8, 16), "y": torch.randint(0, 4, (8,)), "F": F}


def cnn_ns() -> dict[str, Any]:
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
    return {"model": model, "opt": torch.optim.SGD(model.parameters(), lr=0.01),
            "x": torch.randn(4, 1, 16, 16), "y": torch.randint(0, 10, (4,)), "F": F}


CELL = f"""
for _ in range({STEPS}):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
"""


def interleaved(variants: dict[str, Any], repeat: int = 9) -> dict[str, float]:
    """Best time of each variant, runs interleaved so drift on a shared machine hits all alike."""
    for fn in variants.values():
        fn()  # warm-up
    times: dict[str, list[float]] = {k: [] for k in variants}
    for _ in range(repeat):
        for k, fn in variants.items():
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
    return {k: min(v) for k, v in times.items()}


def under(mode_factory: Any, ns: dict[str, Any]) -> Any:
    code = compile(CELL, "<bench>", "exec")

    def run() -> None:
        if mode_factory is None:
            exec(code, ns)
        else:
            with mode_factory(ns):
                exec(code, ns)
    return run


def magic(ns: dict[str, Any]) -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    if "devicelens" not in shell.extension_manager.loaded:
        shell.run_line_magic("load_ext", "devicelens")
    shell.user_ns.update(ns)
    return lambda: shell.run_cell_magic("cuda_safe", "", CELL)


def main() -> None:
    rows = []
    for name, make_ns in (("tiny MLP", mlp_ns), ("small CNN", cnn_ns)):
        ns = make_ns()
        t = interleaved({
            "plain": under(None, ns),
            "empty mode": under(lambda _ns: EmptyMode(), ns),
            "guard": under(lambda n: make_guard(n), ns),
            "guard --dtype": under(lambda n: make_guard(n, dtype=True), ns),
            "%%cuda_safe": magic(ns),
        })
        rows.append((name, t))
    cols = list(rows[0][1])
    print(f"{STEPS} training steps per run, CPU, 1 thread, best of 9 interleaved runs "
          "(ms; x = ratio to the empty-mode floor)\n")
    print(f"| workload | {' | '.join(cols)} |")
    print("|---|" + "---|" * len(cols))
    for name, t in rows:
        floor = t["empty mode"]
        cells = [f"{t[c] * 1e3:.1f} ({t[c] / floor:.2f}x)" for c in cols]
        print(f"| {name} | {' | '.join(cells)} |")
    worst = max(t["guard"] / t["empty mode"] for _n, t in rows)
    print(f"\nguard vs floor, worst workload: {worst:.2f}x (target <= 1.20x)")


if __name__ == "__main__":
    main()
