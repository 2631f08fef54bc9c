"""Families whose fix is a change of the failing line itself, not of any tensor's placement.

``x.numpy()`` on an accelerator tensor needs ``x.cpu()`` first (``.detach()`` too when it needs
grad); ``torch.load`` of a checkpoint saved on a GPU needs ``map_location`` on a machine without
one; a meta tensor holds no data at all, so no move can help.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..diagnosis import _edits, _source
from ..diagnosis._blame import Named, Operand, describe_tensor, is_tensor
from ..diagnosis._context import Ctx, Failure
from ..diagnosis._trace import Want
from ..running._frames import CellFiles, Frame

if TYPE_CHECKING:
    from ..diagnosis._mismatch import MismatchReport


def special(report: MismatchReport, failure: Failure, frames: list[Frame],
            ns: dict[str, Any], is_cell: CellFiles) -> MismatchReport:
    rule = failure.rule
    if rule is None or rule.role not in ("host", "load", "meta"):
        return report
    ctx = Ctx(frames, ns, is_cell)
    sc, stmt = ctx.statement(ctx.user)
    if rule.role == "meta":
        return replace(report, notes=(*report.notes, (
            "meta tensors carry shapes and dtypes but no data: nothing can be copied out of "
            "them. Create the tensor on a real device, or load real weights into the model "
            "(e.g. model.load_state_dict(state, assign=True)) before using its values."),))
    if sc is None or stmt is None:
        return report
    tracer = ctx.tracer(_want())
    culprits: list[Operand] = []
    changes: list[tuple[ast.AST, str]] = []
    for node in _source.own_nodes_of(stmt):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        if rule.role == "host" and node.func.attr == "numpy":
            t = tracer.live(sc, node.func.value) if not isinstance(node.func.value, ast.Name) \
                else sc.values.get(node.func.value.id, sc.globals.get(node.func.value.id))
            recv = _source.segment(sc.code, node.func.value)
            grad = is_tensor(t) and _requires_grad(t)
            changes.append((node, f"{recv}{'.detach()' if grad else ''}.cpu().numpy()"))
            if is_tensor(t):
                culprits.append(describe_tensor(t, "", ctx.namer.tensor(t) or Named(
                    recv, "", "unnamed", "")))
        elif rule.role == "load" and node.func.attr == "load" and not any(
                k.arg == "map_location" for k in node.keywords):
            text = _edits.set_kw(sc.code, node, "map_location", '"cpu"')
            if text:
                changes.append((node, text))
                culprits.append(Operand("", Named("torch.load", "", "call", ""), "", "", (),
                                        "storages saved on a CUDA device"))
    edit = _edits.replace(sc.code, changes)
    if edit is None:
        return report
    return replace(report, culprits=tuple(culprits) or report.culprits, edits=(edit,),
                   expected="cpu")


def _requires_grad(t: Any) -> bool:
    import torch

    slot: Any = torch._C.TensorBase.requires_grad  # NB: the C slot, not a subclass's property
    try:
        return bool(slot.__get__(t))
    except Exception:
        return False


def _want() -> Any:
    return Want("device", "", "", "", "")
