"""Snapshot -> findings: what will break, which objects, why, and the fix as code in user names.

Every finding also carries an :class:`Action`, a structured description of the same fix that the
move engine can apply (never code: the kernel never executes strings). Intentional layouts
(accelerate dispatch, DTensor, the optimizer ``step`` counter, 0-dim CPU tensors, integer
counters) are never flagged. The rules live in :mod:`._rules_modules` and :mod:`._rules_data`.
"""

from __future__ import annotations

from ..inspect.records import Snapshot
from ._rules_data import _loose, _optimizer
from ._rules_modules import (
    _dataparallel,
    _helper_modules,
    _module_dtypes,
    _module_split,
    _traps,
)
from .findings import (
    DEVICE_KINDS,
    DTYPE_KINDS,
    Action,
    Finding,
    Severity,
    is_float,
    majority,
    model_layout,
    module_tensors,
)

__all__ = ["DEVICE_KINDS", "DTYPE_KINDS", "Action", "Finding", "Severity", "diagnose",
           "is_float", "majority", "module_tensors"]

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def diagnose(snap: Snapshot) -> list[Finding]:
    """All findings for ``snap``, errors first. Pure: reads the snapshot, touches nothing else."""
    out: list[Finding] = _helper_modules(snap.objects, model_layout(snap.objects))
    for o in snap.objects:
        if o.kind == "module":
            out += _dataparallel(o) or _module_split(o)
            out += _module_dtypes(o)
            out += _traps(o)
        elif o.kind == "optimizer":
            out += _optimizer(o, snap)
    out += _loose(snap)
    return sorted(out, key=lambda f: _SEVERITY_ORDER[f.severity])
