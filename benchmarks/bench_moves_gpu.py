"""move_all on a real GPU: bytes/s against the measured host-to-device bandwidth.

Runs only where CUDA is available (``tests/gpu/device_check.sh`` runs it on a machine with a GPU);
elsewhere it says so and exits 0. Namespace: a model (~256 MiB of fp32 parameters) + Adam state
+ a batch dict, moved cpu -> cuda:0 -> cpu. Beside it, on a copy of the same tensors: the naive
loop a user would write (``[t.to(dev) for t in ts]``, allocation included) and the pinned
``copy_`` loop into buffers allocated beforehand (the bandwidth ceiling).
"""

from __future__ import annotations

import time

import torch
from torch import nn

from devicelens import moves

MiB = 1 << 20


def bandwidth(nbytes: int) -> float:
    """Host-to-device bytes/s of one plain (pageable) copy of ``nbytes`` (also the warm-up)."""
    src = torch.empty(nbytes // 4, dtype=torch.float32)
    dst = src.to("cuda:0")  # warm-up: allocator, context
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    dst = src.to("cuda:0")
    torch.cuda.synchronize()
    del dst
    return nbytes / (time.perf_counter() - t0)


def tensors(ns: dict[str, object]) -> list[torch.Tensor]:
    """Every tensor ``move_all`` moves in ``ns``, as copies: parameters, their grads, Adam's
    state, the batch."""
    model, opt, batch = ns["model"], ns["opt"], ns["batch"]
    params = list(model.parameters())  # type: ignore[attr-defined]
    out = [p.detach().clone() for p in params] + [p.grad.clone() for p in params
                                                   if p.grad is not None]
    out += [v.clone() for st in opt.state.values() for v in st.values()  # type: ignore[attr-defined]
            if isinstance(v, torch.Tensor) and v.dim()]
    return out + [t.clone() for t in batch.values()]  # type: ignore[attr-defined]


def naive_loops(ts: list[torch.Tensor]) -> tuple[float, float]:
    """Seconds of ``[t.to("cuda:0") for t in ts]`` and back (what a user writes)."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    up = [t.to("cuda:0") for t in ts]
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    down = [t.to("cpu") for t in up]
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    del up, down
    torch.cuda.empty_cache()
    return t1 - t0, t2 - t1


def pinned_loop(ts: list[torch.Tensor]) -> float:
    """Seconds of a pinned ``copy_`` loop into device buffers allocated beforehand: the ceiling."""
    src = [t.pin_memory() for t in ts]
    dst = [torch.empty_like(t, device="cuda:0") for t in ts]
    for d, s_ in zip(dst, src, strict=True):  # warm-up
        d.copy_(s_, non_blocking=True)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for d, s_ in zip(dst, src, strict=True):
        d.copy_(s_, non_blocking=True)
    torch.cuda.synchronize()
    took = time.perf_counter() - t0
    del src, dst
    torch.cuda.empty_cache()
    return took


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
    copies = tensors(ns)
    bandwidth(256 * MiB)  # warm-up: the context, the allocator
    pinned = pinned_loop(copies)
    naive_up, naive_down = naive_loops(copies)
    up_t, up = timed(moves.move_all, "cuda:0", ns)
    down_t, down = timed(moves.move_all, "cpu", ns)
    assert up.ok and down.ok, (up.error, down.error)
    moved = sum(m.nbytes for m in up.moved)
    looped = sum(t.nbytes for t in copies)
    print(f"{torch.cuda.get_device_name(0)}; move_all moved {moved / MiB:.0f} MiB per direction, "
          f"the loops {len(copies)} tensors, {looped / MiB:.0f} MiB (ratios are of GiB/s)")
    print(f"{'what':<36}{'s':>8}{'GiB/s':>8}{'x pinned':>10}{'x naive':>9}")
    ceiling, up_naive, down_naive = looped / pinned, looped / naive_up, looped / naive_down
    rows = (("pinned copy_ loop h2d (ceiling)", pinned, looped, up_naive),
            ("naive [t.to('cuda:0')] loop", naive_up, looped, up_naive),
            ("move_all cpu -> cuda:0", up_t, moved, up_naive),
            ("naive [t.to('cpu')] loop", naive_down, looped, down_naive),
            ("move_all cuda:0 -> cpu", down_t, moved, down_naive))
    for name, t, nbytes, naive in rows:
        rate = nbytes / t
        print(f"{name:<36}{t:>8.3f}{rate / 2**30:>8.1f}{rate / ceiling:>10.2f}{rate / naive:>9.2f}")

if __name__ == "__main__":
    main()
