"""Snapshot -> findings: what will break, which objects, why, and the fix as code in user names.

Every finding also carries an :class:`Action`, a structured description of the same fix that the
move engine can apply (never code: the kernel never executes strings). Intentional layouts
(accelerate dispatch, DTensor, the optimizer ``step`` counter, 0-dim CPU tensors, integer
counters) are never flagged. The rules live in :mod:`._rules_modules` and :mod:`._rules_data`.
"""

from __future__ import annotations

from ..inspect.records import ObjectRecord, Snapshot
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
    Layout,
    Memo,
    Severity,
    is_float,
    majority,
    model_layout,
    module_tensors,
)

__all__ = ["DEVICE_KINDS", "DTYPE_KINDS", "Action", "Finding", "Memo", "Severity", "diagnose",
           "is_float", "majority", "module_tensors"]

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def diagnose(snap: Snapshot, memo: Memo | None = None) -> list[Finding]:
    """All findings for ``snap``, errors first. Pure: reads the snapshot, touches nothing else.

    ``memo``: kept by a caller that diagnoses the same namespace again and again (the panel, after
    each cell): findings of unchanged records in an unchanged context are reused. NB: modules
    and optimizers are read from ``snap.composites()``; a big namespace's loose tensors only by
    group, so diagnosing costs a fraction of the snapshot.
    """
    objects = [o for _p, o in snap.composites()]
    layout = model_layout(objects)
    modules = [o for o in objects if o.kind == "module"]
    m = memo if memo is not None else Memo()
    out: list[Finding] = []
    for o in modules:
        out += m.get(o, "helper", layout, _helper)
    for o in objects:
        if o.kind == "module":
            out += m.get(o, "module", None, _module_rules)
        elif o.kind == "optimizer":
            out += m.get(o, "optimizer", modules, _optimizer)
    out += _loose(snap, layout, m)
    m.roll()
    return sorted(out, key=lambda f: _SEVERITY_ORDER[f.severity])


def _helper(o: ObjectRecord, layout: Layout) -> list[Finding]:
    return _helper_modules((o,), layout)


def _module_rules(o: ObjectRecord, _context: object) -> list[Finding]:
    return (_dataparallel(o) or _module_split(o)) + _module_dtypes(o) + _traps(o)
