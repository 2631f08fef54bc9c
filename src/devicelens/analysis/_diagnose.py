"""Snapshot -> findings: what will break, which objects, why, and the fix as code in user names.

Every finding also carries an :class:`Action`, a structured description of the same fix that the
move engine can apply (never code: the kernel never executes strings). Intentional layouts
(accelerate dispatch, DTensor, the optimizer ``step`` counter, 0-dim CPU tensors, integer
counters) are never flagged. The rules live in :mod:`._rules_modules` (one module),
:mod:`._rules_multi` (modules used together), :mod:`._rules_optim` and :mod:`._rules_data`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..inspect.records import Snapshot
from ._rules_data import _loose
from ._rules_modules import (
    _dataparallel,
    _module_dtypes,
    _module_split,
    _traps,
)
from ._rules_multi import _helper_modules, _stray_models
from ._rules_optim import _optimizer
from ._usage import Usage
from .findings import (
    DEVICE_KINDS,
    DTYPE_KINDS,
    Action,
    Finding,
    Severity,
    is_float,
    majority,
    models,
    module_tensors,
)

__all__ = ["DEVICE_KINDS", "DTYPE_KINDS", "Action", "Finding", "Severity", "diagnose",
           "is_float", "majority", "module_tensors"]

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def diagnose(snap: Snapshot, cells: Sequence[str] | None = None) -> list[Finding]:
    """All findings for ``snap``, errors first. Pure: reads the snapshot, touches nothing else.

    ``cells``: the user's recent cell sources, oldest first (default: the snapshot's own, read
    from IPython's ``In``), parsed (never run) to tell which model each tensor is used with.
    """
    ms = models(snap.objects)
    usage = Usage(snap.cells if cells is None else cells,
                  {o.name: o.type_name for o in snap.objects if o.kind == "module"})
    out: list[Finding] = _stray_models(snap.objects, ms, usage)
    out += _helper_modules(snap.objects, ms, usage, {f.objects[0] for f in out})
    for o in snap.objects:
        if o.kind == "module":
            out += _dataparallel(o) or _module_split(o)
            out += _module_dtypes(o)
            out += _traps(o)
        elif o.kind == "optimizer":
            out += _optimizer(o, snap, usage)
    out += _loose(snap, ms, usage)
    return sorted(out, key=lambda f: _SEVERITY_ORDER[f.severity])
