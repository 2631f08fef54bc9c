"""``devicelens.check(model, optimizer, batch)``: an assertion for a training loop's first step
that raises :class:`~devicelens.guard.DeviceMismatchError`, with the notebook's report, when the
given modules, optimizers and batches disagree about devices (and, with ``dtype=True``, dtypes).

Under torchrun it also knows which rank it runs on (a model on another rank's GPU, DDP's
``device_ids`` away from its module). Metadata only: it reads no tensor data and moves nothing.
"""

from __future__ import annotations

import sys
import warnings
from types import FrameType
from typing import Any

from ..analysis import DEVICE_KINDS, DIST_KINDS, DTYPE_KINDS, Finding, diagnose, diagnose_ranks
from ..analysis.findings import model_layout
from ..guard.diagnosis._blame import Named, Operand
from ..guard.diagnosis._mismatch import Kind, MismatchReport
from ..guard.running._frames import Frame, cell_lines
from ..inspect.ranks import RankInfo, rank_info
from ..inspect.records import Snapshot, TensorRecord

MAX_CULPRITS = 3  # per finding: the report names a few; the finding's message counts them all


def check(*objects: Any, dtype: bool = False) -> None:
    """Raise ``DeviceMismatchError`` if ``objects`` (modules, optimizers, tensors, batches as
    dicts/lists/dataclasses) would fail together; return ``None`` when they agree.

    Objects are named as in the caller's code (``model``, ``batch['x']``). ``dtype=True`` also
    checks floating dtypes. Cheap enough for every step, meant for the first.
    """
    check_objects(objects, dtype=dtype, caller=sys._getframe(1))


def check_objects(objects: tuple[Any, ...], *, dtype: bool, caller: FrameType) -> None:
    """:func:`check`, naming objects and the line from the frame ``caller``."""
    from ..guard import DeviceMismatchError
    from ..inspect import take_snapshot

    named = _names(objects, caller)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NB: reading .grad of a non-leaf warns; harmless
        snap = take_snapshot(named)
    info = rank_info()
    bad = _findings(snap, info, dtype)
    if bad:
        raise DeviceMismatchError(_report(bad, snap, caller, info))


def _names(objects: tuple[Any, ...], caller: FrameType) -> dict[str, Any]:
    """Each object under its name in the caller's locals, else globals (by identity)."""
    out: dict[str, Any] = {}
    scopes = [caller.f_locals, caller.f_globals]
    for i, obj in enumerate(objects):
        name = next((k for scope in scopes for k, v in list(scope.items())
                     if v is obj and type(k) is str and not k.startswith("_")
                     and k not in out), f"object{i + 1}")
        out[name] = obj
    return out


def _findings(snap: Snapshot, info: RankInfo | None, dtype: bool) -> list[Finding]:
    kinds = DEVICE_KINDS + (DTYPE_KINDS if dtype else ())
    found = [f for f in diagnose(snap) if f.kind in kinds and f.severity != "info"]
    ranked = diagnose_ranks(snap, info) if info is not None else []
    if any(f.kind in ("rank_device", "ddp_device") for f in ranked):
        # NB: "the batch is not where the model is" is wrong advice when the model is misplaced
        found = [f for f in found if f.kind != "loose_device"]
    covered = {o for f in ranked for o in f.objects}
    return ranked + [f for f in found if not set(f.objects) & covered]


def _report(bad: list[Finding], snap: Snapshot, caller: FrameType,
            info: RankInfo | None) -> MismatchReport:
    kind: Kind = "device" if any(f.kind in DEVICE_KINDS + DIST_KINDS for f in bad) else "dtype"
    expected = _expected(bad, kind) or getattr(model_layout(snap.objects), kind) or ""
    records = {t.path: t for t in snap.tensors()}
    culprits = [_operand(records[p]) for f in bad for p in f.paths[:MAX_CULPRITS] if p in records]
    anchor = next((t for t in snap.tensors() if getattr(t, kind) == expected
                   and t.role in ("parameter", "buffer", "tensor")), None)
    operands = [*culprits, *([_operand(anchor)] if anchor is not None else [])]
    fixes = [f.fix for f in bad]
    if info is not None:
        from ._dist import in_rank_terms

        fixes = [in_rank_terms(f, info, [], caller.f_globals | caller.f_locals) for f in fixes]
    return MismatchReport(kind, "check", expected, tuple(operands), tuple(culprits), "",
                          tuple(cell_lines([Frame(caller, caller.f_lineno)], lambda _f: True)),
                          tuple(dict.fromkeys(fixes)), tuple(f.message for f in bad))


def _expected(bad: list[Finding], kind: str) -> str:
    for f in bad:
        a = f.action
        if a is not None and (a.device if kind == "device" else a.dtype):
            return str(a.device if kind == "device" else a.dtype)
    return ""


def _operand(t: TensorRecord) -> Operand:
    from ..inspect._tree import code_for, has_code

    code = code_for(t.ref) if has_code(t.ref) else ""
    return Operand(t.path, Named(t.path, code, t.role, str(t.ref[0].key)), t.device, t.dtype,
                   t.shape)
