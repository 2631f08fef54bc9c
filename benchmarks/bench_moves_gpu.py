"""move_all on a real GPU: bytes/s against the measured host-to-device bandwidth.

Runs only where CUDA is available (``tests/gpu/device_check.sh`` runs it on a machine with a GPU);
elsewhere it says so and exits 0. Namespace: a model (~256 MiB of fp32 parameters) + Adam state
+ a batch dict, moved cpu -> cuda:0 -> cpu.
"""

from __future__ import annotations

import time

import torch
from torch import nn

from devicelens import moves

MiB = 1 << 20


def bandwidth(nbytes: int) -> float:
    """Host-to-device bytes/s of one plain (pageable) copy of ``nbytes``: the ceiling to compare."""
    src = torch.empty(nbytes // 4, dtype=torch.float32)
    dst = src.to("cuda:0")  # warm-up: allocator, context
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    dst = src.to("cuda:0")
    torch.cuda.synchronize()
    del dst
    return nbytes / (time.perf_counter() - t0)


def namespace() -> dict[str, object]:
    model = nn.Sequential(*[nn.Linear(2048, 2048) for _ in range(16)])  # ~256 MiB fp32
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(8, 2048)).sum().backward()
    opt.step()  # Adam state: two more copies of every parameter
    return {"model": model, "opt": opt, "batch": {"x": torch.randn(256, 2048)}}


def timed(fn: object, *args: object) -> tuple[float, moves.MoveReport]:
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    report = fn(*args)  # type: ignore[operator]
    torch.cuda.synchronize()
    return time.perf_counter() - t0, report


def main() -> None:
    if not torch.cuda.is_available():
        print("skipped: no CUDA device here (run tests/gpu/device_check.sh on a GPU machine)")
        return
    ns = namespace()
    ceiling = bandwidth(256 * MiB)
    up_t, up = timed(moves.move_all, "cuda:0", ns)
    down_t, down = timed(moves.move_all, "cpu", ns)
    assert up.ok and down.ok, (up.error, down.error)
    nbytes = sum(m.nbytes for m in up.moved)
    print(f"{torch.cuda.get_device_name(0)}; moved {nbytes / MiB:.0f} MiB per direction")
    print(f"{'what':<34}{'s':>8}{'GiB/s':>8}{'x ceiling':>11}")
    print(f"{'one plain h2d copy (ceiling)':<34}{'':>8}{ceiling / 2**30:>8.1f}{1:>11.2f}")
    for name, t in (("move_all cpu -> cuda:0", up_t), ("move_all cuda:0 -> cpu", down_t)):
        rate = nbytes / t
        print(f"{name:<34}{t:>8.3f}{rate / 2**30:>8.1f}{rate / ceiling:>11.2f}")


if __name__ == "__main__":
    main()
