"""The only module that changes user state: move everything to a device, or apply fixes.

All or nothing: a plan is made first, then every new tensor is allocated, and only then are they
swapped in (modules and optimizer parameters in place, identity kept; loose tensors rebound), so
an out-of-memory error or a bad device leaves the namespace exactly as it was.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

if TYPE_CHECKING:
    from ..analysis import Finding
    from ._final import Plan

Progress = Callable[[int, int], None]


class Move(NamedTuple):
    """One row of a report: what (a namespace name or a fixed path) went from where to where."""

    path: str
    source: str
    target: str
    nbytes: int
    tensors: int = 1


@dataclass(frozen=True)
class MoveReport:
    """What a move did (or, with ``dry_run``, would do). ``ok`` False means nothing changed."""

    ok: bool
    dry_run: bool
    target: str
    moved: tuple[Move, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    bytes_by_device: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    notes: tuple[str, ...] = ()
    missing_bytes: int = 0  # with an out-of-memory error: how much was missing, where known



# --- input ---------------------------------------------------------------------------------

def parse_device(device: Any) -> Any:
    """``device`` as a normalised ``torch.device``, or ``ValueError`` quoting it.

    NB: never initialises CUDA (``torch.cuda.device_count()`` does not). Under a FakeTensorMode
    any ``cuda:N`` is accepted: the mode simulates it.
    """
    import torch

    if isinstance(device, str):
        try:
            dev = torch.device(device.strip())
        except (RuntimeError, ValueError):
            raise ValueError(f"not a device: {device!r} (try 'cpu', 'cuda:0', 'mps' or "
                             f"'meta')") from None
    elif isinstance(device, torch.device):
        dev = device
    else:
        raise ValueError(f"not a device: {device!r} (expected a string such as 'cuda:0')")
    kind, index = dev.type, dev.index
    if kind in ("cpu", "meta"):
        if index not in (None, 0):
            raise ValueError(f"no such device: {device!r} ({kind} has no index)")
        return torch.device(kind)
    if kind == "mps":
        if not torch.backends.mps.is_available():
            raise ValueError(f"no such device: {device!r} (MPS is not available here)")
        return torch.device("mps")
    if kind in ("cuda", "xpu"):
        backend = getattr(torch, kind)
        if index is None:
            index = backend.current_device() if backend.is_initialized() else 0
        fake = torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE)
        n = backend.device_count()
        if index >= n and not (fake is not None and kind == "cuda"):
            raise ValueError(f"no such device: {device!r} (this machine has {n} {kind.upper()} "
                             f"device{'s' * (n != 1)})")
        return torch.device(kind, index)
    raise ValueError(f"unsupported device: {device!r} (devicelens moves to cpu, cuda:N, xpu:N, "
                     f"mps or meta)")


def _namespace(namespace: dict[str, Any] | None) -> dict[str, Any]:
    from ..inspect import user_namespace

    return user_namespace() if namespace is None else namespace


def _names(ns: dict[str, Any], names: Iterable[str] | None) -> list[str]:
    from ..inspect import candidates

    if names is None:
        return [n for n, _ in candidates(ns, None)]
    if isinstance(names, str):
        raise ValueError(f"names must be a list of names, not the string {names!r}")
    names = list(names)
    bad = [n for n in names if type(n) is not str or n not in ns]
    if bad:
        raise ValueError(f"no such name(s) in the namespace: {', '.join(map(repr, bad))}")
    return list(dict.fromkeys(names))


# --- planning ------------------------------------------------------------------------------

@contextmanager
def _no_gc() -> Iterator[None]:
    """NB: plans are acyclic; a collection mid-walk only costs time (3x at 18k tensors)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def plan_move(device: Any, namespace: dict[str, Any] | None = None, *,
              names: Iterable[str] | None = None) -> Plan:
    """The plan for :func:`move_all`; apply it with :func:`apply_plan`. Changes nothing."""
    import torch

    from ._final import finalize
    from ._plan import _SCALARS, Target, Walker

    dev = parse_device(device)
    ns = _namespace(namespace)
    selected = _names(ns, names)
    w = Walker(torch, ns)
    target = Target(device=dev)
    with torch._C.DisableTorchFunctionSubclass(), _no_gc():
        plain = (torch.Tensor, torch.nn.Parameter)
        for n in sorted(selected, key=lambda n: _order(torch, dict.get(ns, n))):
            obj = dict.get(ns, n)
            if type(obj) in plain:
                w.loose(n, obj, target)
            else:
                w.unit(n, n, target)
        anchors = [(ns, n, dict.get(ns, n)) for n in selected
                   if type(dict.get(ns, n)) not in _SCALARS]  # NB: names whose change matters
        return finalize(torch, w, str(dev), anchors)


def _order(torch: Any, obj: Any) -> int:
    """Modules first, then optimizers, then the rest (only the report order depends on it)."""
    tp = type(obj)
    return 0 if issubclass(tp, torch.nn.Module) else 1 if issubclass(
        tp, torch.optim.Optimizer) else 2


def plan_fixes(findings: Iterable[Finding], namespace: dict[str, Any] | None = None) -> Plan:
    """The plan that applies every finding's :class:`~devicelens.analysis.Action` at once."""
    import torch

    from ..inspect import _tree
    from ._final import finalize
    from ._plan import Target, Walker

    ns = _namespace(namespace)
    w = Walker(torch, ns)
    anchors: list[tuple[dict[str, Any], str, Any]] = []
    failure: str | None = None
    targets: list[str] = []
    with torch._C.DisableTorchFunctionSubclass(), _no_gc():
        for f in findings:
            a = f.action
            if a is None:
                continue
            roots: dict[str, set[int]] = {}
            for ref in a.refs:
                try:
                    obj = _tree.resolve(ns, ref)
                except LookupError as e:
                    failure = failure or f"{e} (the finding is out of date: run %devices again)"
                    continue
                root = str(ref[0].key)
                anchors.append((ns, root, dict.get(ns, root)))
                roots.setdefault(root, set()).add(id(obj))
                if a.op == "optimizer_state":
                    w.optimizers[id(obj)] = (obj, ref, "state", _tree.display_for(ref))
            target = Target(device=parse_device(a.device) if a.device else None,
                            dtype=_dtype(torch, a.dtype))
            targets.append(a.device or a.dtype or "parameter devices")
            if a.op != "optimizer_state":
                for root, want in roots.items():
                    label = _tree.display_for(a.refs[0]) if len(a.refs) == 1 else root
                    w.unit(root, label, target, want)
        plan = finalize(torch, w, ", ".join(dict.fromkeys(targets)) or "nothing", anchors)
    plan.failure = failure
    return plan


def _dtype(torch: Any, name: str | None) -> Any:
    if name is None:
        return None
    dt = getattr(torch, name, None)
    if not isinstance(dt, torch.dtype):
        raise ValueError(f"not a dtype: {name!r}")
    return dt


# --- applying ------------------------------------------------------------------------------

def apply_plan(plan: Plan, *, dry_run: bool = False, progress: Progress | None = None,
               ) -> MoveReport:
    """Carry out ``plan`` (or only describe it, with ``dry_run``). All or nothing."""
    import torch

    from ._apply import Failed, Stale, allocate, commit

    if plan.spent:
        raise ValueError("this plan was already applied; make a new one")
    if plan.failure is not None:
        return _report(plan, dry_run, ok=False, error=plan.failure)
    short = _memory_shortfall(torch, plan, run=not dry_run)
    if short is not None:
        return _report(plan, dry_run, ok=False, error=short[0], missing=short[1])
    if dry_run or not plan.entries:
        return _report(plan, dry_run, ok=True)
    failed: tuple[Any, bool, str] | None = None
    try:
        with _no_gc():
            side = allocate(torch, plan, progress)
            commit(torch, plan, side)
            del side
    except Failed as f:
        # NB: keep only text: the exception's frames hold the side table (device memory)
        failed = (f.entry, _is_oom(torch, f.cause), _cause(f.cause))
    except Stale as s:
        return _report(plan, False, ok=False, error=f"{s}; nothing was moved")
    except Exception as e:
        failed = (None, False, f"the move failed and everything was restored: {_cause(e)}")
    if failed is not None:
        _release(torch)
        return _report(plan, False, ok=False, **_failure(torch, plan, *failed))
    report = _report(plan, False, ok=True)
    plan.spent = True
    plan.entries, plan.groups, plan.assigns, plan.anchors = [], [], [], []
    return report


def _report(plan: Plan, dry_run: bool, *, ok: bool, error: str | None = None,
            missing: int = 0) -> MoveReport:
    moved = tuple(Move(u, s, d, b, n) for u, s, d, b, n in plan.rows) if ok else ()
    return MoveReport(ok, dry_run, plan.target, moved, tuple(plan.refused),
                      dict(plan.bytes_by_device), error, tuple(plan.notes), missing)


def _free_bytes(torch: Any, dev: Any) -> int:
    free, _total = torch.cuda.mem_get_info(dev)
    cached = torch.cuda.memory_reserved(dev) - torch.cuda.memory_allocated(dev)
    return int(free) + int(cached)


def _memory_shortfall(torch: Any, plan: Plan, *, run: bool) -> tuple[str, int] | None:
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
        free = _free_bytes(torch, torch.device(name))
        if need > free:
            return (f"not enough memory on {name}: the move needs {human_bytes(need)} there, "
                    f"{human_bytes(free)} is free ({human_bytes(need - free)} missing)",
                    need - free)
    return None


def _is_oom(torch: Any, cause: BaseException | str) -> bool:
    return isinstance(cause, torch.OutOfMemoryError) or "out of memory" in str(cause).lower()


def _failure(torch: Any, plan: Plan, e: Any, oom: bool, cause: str) -> dict[str, Any]:
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
        free = _free_bytes(torch, torch.device(dev))
        missing = max(0, need - free)
        msg += f", {human_bytes(free)} is free ({human_bytes(missing)} missing)"
    return {"error": msg, "missing": missing}


def _cause(c: BaseException | str) -> str:
    if isinstance(c, str):
        return c
    text = str(c).strip()
    return f"{type(c).__name__}: {text.splitlines()[0]}" if text else type(c).__name__


def _release(torch: Any) -> None:
    """After a failed move: hand the half-made copies back to the device right away."""
    if torch.cuda.is_initialized():
        import gc

        gc.collect()
        torch.cuda.empty_cache()


# --- public entry points -------------------------------------------------------------------

def move_all(device: Any, namespace: dict[str, Any] | None = None, *,
             names: Iterable[str] | None = None, dry_run: bool = False,
             progress: Progress | None = None) -> MoveReport:
    """Move every tensor, module and optimizer state (or only ``names``) to ``device``.

    Raises ``ValueError`` for a bad device or unknown names; any other failure returns a report
    with ``ok=False`` and leaves everything as it was.
    """
    return apply_plan(plan_move(device, namespace, names=names), dry_run=dry_run,
                      progress=progress)


def apply_fix(finding: Finding, namespace: dict[str, Any] | None = None, *,
              dry_run: bool = False, progress: Progress | None = None) -> MoveReport:
    """Apply the move or cast that ``finding`` suggests; all or nothing."""
    if getattr(finding, "action", None) is None:
        raise ValueError(f"finding {getattr(finding, 'id', finding)!r} has no automatic fix; "
                         f"apply its code by hand")
    return apply_plan(plan_fixes([finding], namespace), dry_run=dry_run, progress=progress)


def apply_all_fixes(namespace: dict[str, Any] | None = None, names: Iterable[str] | None = None,
                    dry_run: bool = False, progress: Progress | None = None) -> MoveReport:
    """Apply every finding that has an automatic fix, as one all-or-nothing move."""
    from ..analysis import diagnose
    from ..inspect import take_snapshot

    ns = _namespace(namespace)
    selected = None if names is None else _names(ns, names)
    fixable = [f for f in diagnose(take_snapshot(ns, names=selected)) if f.action is not None]
    if not fixable:
        return MoveReport(True, dry_run, "nothing", notes=("No fixes to apply.",))
    return apply_plan(plan_fixes(fixable, ns), dry_run=dry_run, progress=progress)


# --- progress ------------------------------------------------------------------------------

class ConsoleProgress:
    """A ``(done, total)`` callback drawing a one-line bar, only for moves over ``min_bytes``."""

    def __init__(self, min_bytes: int = 1 << 30, stream: TextIO | None = None,
                 width: int = 30) -> None:
        self.min_bytes = min_bytes
        self.stream = stream
        self.width = width
        self._last = -1
        self._open = False

    def __call__(self, done: int, total: int) -> None:
        if total < self.min_bytes or total <= 0:
            return
        pct = min(100, done * 100 // total)
        if pct == self._last:
            return
        from ..inspect import human_bytes

        self._last = pct
        out = self.stream or sys.stdout
        filled = self.width * min(done, total) // total
        out.write(f"\rdevicelens: moving [{'#' * filled}{'.' * (self.width - filled)}] "
                  f"{human_bytes(done)} / {human_bytes(total)}")
        self._open = done < total
        if not self._open:
            out.write("\n")
        out.flush()

    def close(self) -> None:
        """End the bar's line if the move stopped before 100%."""
        if self._open:
            (self.stream or sys.stdout).write("\n")
            self._open = False


def console_progress(min_bytes: int = 1 << 30, stream: TextIO | None = None) -> ConsoleProgress:
    """The progress bar ``%devices --to`` shows for moves of more than ~1 GB."""
    return ConsoleProgress(min_bytes, stream)
