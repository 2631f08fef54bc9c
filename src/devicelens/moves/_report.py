"""What a move says it did: the report records, and the words for each way a move can fail.

Plain data, no renderer: :mod:`devicelens.render` and the wire protocol read these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._row import Move

if TYPE_CHECKING:
    from ._final import Plan


#: ``Move.source`` of a row that moves no tensor: an optimizer remapped onto the module's
#: current parameters (its state tensors follow them and are counted in their own rows)
REMAPPED = "stale parameters"


@dataclass(frozen=True)
class MoveReport:
    """What a move did (or, with ``dry_run``, would do). ``ok`` False means nothing changed.

    ``target`` is the device of a move-all, ``""`` for fixes (each finding has its own target;
    the rows say where each went).

    NB: anything ``refused`` makes the whole move not ok: a partial move is never reported as
    done. ``applied``/``skipped``: for fixes, each finding's title, and why one was not applied.
    """

    ok: bool
    dry_run: bool
    target: str
    moved: Sequence[Move] = ()  # NB: a tuple, or Rows (made as read), equal to it
    refused: tuple[tuple[str, str], ...] = ()
    bytes_by_device: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    notes: tuple[str, ...] = ()
    missing_bytes: int = 0  # with an out-of-memory error: how much was missing, where known
    applied: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()


def report(plan: Plan, dry_run: bool, *, ok: bool, error: str | None = None,
           missing: int = 0, notes: tuple[str, ...] = ()) -> MoveReport:
    from ..inspect import gc_paused

    with gc_paused():  # NB: a row a name: many small acyclic tuples
        moved = plan.moved() if ok else ()
    return MoveReport(ok, dry_run, plan.target, moved, tuple(plan.refused),
                      dict(plan.bytes_by_device), error, (*plan.notes, *notes), missing)


def free_bytes(torch: Any, dev: Any) -> int:
    free, _total = torch.cuda.mem_get_info(dev)
    cached = torch.cuda.memory_reserved(dev) - torch.cuda.memory_allocated(dev)
    return int(free) + int(cached)


def memory_shortfall(torch: Any, plan: Plan, *, run: bool) -> tuple[str, int] | None:
    """Refuse early when a CUDA target cannot hold the new copies. NB: a dry run only looks
    where CUDA is already initialised; it never initialises it."""
    from ..inspect import human_bytes

    if torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE) is not None:
        return None
    for name, need in plan.bytes_by_device.items():
        if not name.startswith("cuda") or need == 0:
            continue
        if not torch.cuda.is_available() or not (run or torch.cuda.is_initialized()):
            continue
        free = free_bytes(torch, torch.device(name))
        if need > free:
            return (f"not enough memory on {name}: the move needs {human_bytes(need)} there, "
                    f"{human_bytes(free)} is free ({human_bytes(need - free)} missing)",
                    need - free)
    return None


def is_oom(torch: Any, cause: BaseException | str) -> bool:
    return isinstance(cause, torch.OutOfMemoryError) or "out of memory" in str(cause).lower()


def failure(torch: Any, plan: Plan, e: Any, oom: bool, cause: str) -> dict[str, Any]:
    """``error`` (and ``missing`` bytes) for a move that failed at entry ``e`` (None: unknown)."""
    from ..inspect import human_bytes

    if e is None:
        return {"error": cause}
    dev = str(e.device if e.device is not None else e.t.device)
    if not oom:
        return {"error": f"moving {e.path} to {dev} failed: {cause}"}
    need = plan.bytes_by_device.get(dev, 0)
    missing = 0
    msg = f"out of memory on {dev} while moving {e.path}: the move needs {human_bytes(need)} there"
    if dev.startswith("cuda") and torch.cuda.is_available():
        free = free_bytes(torch, torch.device(dev))
        missing = max(0, need - free)
        msg += f", {human_bytes(free)} is free ({human_bytes(missing)} missing)"
    return {"error": msg, "missing": missing}


def cause(c: BaseException | str) -> str:
    if isinstance(c, str):
        return c
    text = str(c).strip()
    return f"{type(c).__name__}: {text.splitlines()[0]}" if text else type(c).__name__


def release(torch: Any) -> None:
    """After a failed move: hand the half-made copies back to the device right away."""
    if torch.cuda.is_initialized():
        import gc

        gc.collect()
        torch.cuda.empty_cache()
