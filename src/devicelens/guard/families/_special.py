"""Families whose fix is a change of the failing line itself, not of any tensor's placement.

``x.numpy()`` on an accelerator tensor needs ``x.cpu()`` first (``.detach()`` too when it needs
grad); ``torch.load`` of a checkpoint saved on a GPU needs ``map_location`` on a machine without
one; a meta tensor holds no data at all, so no move can help; a legacy constructor
(``torch.Tensor(data, device=...)``) makes cpu tensors only, so the line asks for the factory
that takes a device (``torch.tensor``, or ``torch.empty`` for sizes).
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..diagnosis import _edits, _source
from ..diagnosis._blame import Named, Operand, describe_tensor, is_tensor, meta
from ..diagnosis._context import Ctx, Failure
from ..diagnosis._decide import is_int
from ..diagnosis._handle import with_handle
from ..diagnosis._trace import Want, is_torch_namespace
from ..running._frames import CellFiles, Frame

if TYPE_CHECKING:
    from ..diagnosis._mismatch import MismatchReport


def special(report: MismatchReport, failure: Failure, frames: list[Frame],
            ns: dict[str, Any], is_cell: CellFiles) -> MismatchReport:
    rule = failure.rule
    if rule is not None and rule.key == "cast":
        return _integer_division(report, frames, ns, is_cell)
    if rule is None or rule.role not in ("host", "load", "meta", "legacy"):
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
        elif rule.role == "legacy" and node.func.attr in LEGACY:
            text = _factory(sc, tracer, node)
            if text:
                changes.append((node, text))
                culprits.append(Operand("", Named(_source.segment(sc.code, node.func), "", "call",
                                                 ""), "", "", (), "a legacy constructor"))
    edit = _edits.replace(sc.code, changes)
    if edit is None:
        return report
    if rule.role == "legacy":
        # NB: the expected device is the one the call was given (the role's, ``_roles``)
        report = replace(report, culprits=tuple(culprits), edits=(edit,))
        return with_handle(report, frames, ctx.namer, is_cell)
    return replace(report, culprits=tuple(culprits) or report.culprits, edits=(edit,),
                   expected="cpu")


#: the divisions whose result is a float whatever their operands (PyTorch's true division)
_DIVISIONS = frozenset({"div", "divide", "true_divide", "div_", "divide_", "true_divide_"})


def _integer_division(report: MismatchReport, frames: list[Frame], ns: dict[str, Any],
                      is_cell: CellFiles) -> MismatchReport:
    """``torch.div(a, b, out=ids)`` or ``ids.div_(b)`` into an integer tensor: true division
    makes a float, which the integer tensor cannot take ("result type Float can't be cast to the
    desired output type Long": HAT's beam search, written for the integer division of old
    PyTorch). The line asks for ``rounding_mode="floor"``, what ``//`` does; ``report`` as it is
    where the line holds no such division."""
    ctx = Ctx(frames, ns, is_cell)
    sc, stmt = ctx.statement(ctx.user)
    if sc is None or stmt is None:
        return report
    tracer = ctx.tracer(_want())
    changes: list[tuple[ast.AST, str]] = []
    culprits: list[Operand] = []
    for node in _source.own_nodes_of(stmt):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in _DIVISIONS
                and not any(k.arg == "rounding_mode" for k in node.keywords)):
            continue
        out = next((k.value for k in node.keywords if k.arg == "out"), None)
        if out is None and node.func.attr.endswith("_"):
            out = node.func.value  # NB: in place: the receiver is written into
        if out is None:
            continue
        t = tracer.live(sc, out)
        header = meta(t)  # NB: None for anything but a tensor; read as the snapshot reads it
        if header is None or not is_int(header[1]):
            continue
        # NB: integers divided (``torch.div(ids, n)``, ``ids.div(n)``): the floor of a float
        # dividend is still a float, which the buffer cannot take either
        first = node.args[0] if is_torch_namespace(sc, node.func.value) and node.args \
            else node.func.value
        dividend = meta(tracer.live(sc, first))
        if dividend is None or not is_int(dividend[1]):
            continue
        text = _edits.set_kw(sc.code, node, "rounding_mode", '"floor"')
        if text:
            changes.append((node, text))
            name = _source.segment(sc.code, out)
            culprits.append(describe_tensor(t, "", ctx.namer.tensor(t) or Named(
                name, "", "unnamed", "")))
    edit = _edits.replace(sc.code, changes)
    if edit is None:
        return report
    want = culprits[0].dtype
    note = (f"true division makes a float, which the {want} tensor it writes into cannot hold; "
            '`rounding_mode="floor"` divides as `//` does and keeps the integers')
    # NB: no expected dtype: the tensor written into is named (it is where the float cannot
    # go), but it is what it should be, and nothing is to be cast to another dtype
    report = replace(report, culprits=tuple(culprits), edits=(edit,), fixes=(), expected="",
                     notes=(note,))
    return with_handle(report, frames, ctx.namer, is_cell)


#: the legacy constructors, and the dtype each makes ("": the default dtype, as torch.Tensor)
LEGACY = {"Tensor": "", "FloatTensor": "float", "DoubleTensor": "double", "HalfTensor": "half",
          "BFloat16Tensor": "bfloat16", "LongTensor": "long", "IntTensor": "int",
          "ShortTensor": "short", "CharTensor": "int8", "ByteTensor": "uint8",
          "BoolTensor": "bool"}

def _factory(sc: Any, tracer: Any, call: ast.Call) -> str | None:
    """``torch.tensor(data, dtype=..., device=...)`` for ``torch.Tensor(data, device=...)``, or
    ``torch.empty(*sizes, ...)`` where the legacy call was given sizes; None where the call
    passes no ``device`` (then it is not the call that raised) or anything else unusual.

    NB: the dtype is spelled out: ``torch.tensor([1, 2])`` would make int64 where the legacy
    constructor made the default float dtype."""
    import torch

    func = call.func
    assert isinstance(func, ast.Attribute)
    device = next((k.value for k in call.keywords if k.arg == "device"), None)
    if device is None and isinstance(func.value, ast.Name) and len(call.args) == 1 \
            and not call.keywords and _off_the_cpu(tracer.live(sc, call.args[0])):
        # NB: a tensor on a GPU handed over as data (Coqui's OpenVoice: ``torch.FloatTensor(
        # audio_ref)``): ``as_tensor`` keeps it where it is, in the constructor's dtype
        dtype = LEGACY[func.attr] or "float"
        return (f"{func.value.id}.as_tensor({_source.segment(sc.code, call.args[0])}, "
                f"dtype={func.value.id}.{dtype})")
    if device is None or not isinstance(func.value, ast.Name) or any(
            k.arg not in ("device", "requires_grad") for k in call.keywords) \
            or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    mod = func.value.id
    dtype = LEGACY[func.attr] or str(torch.get_default_dtype()).removeprefix("torch.").replace(
        "float32", "float")
    rest = ", ".join(f"{k.arg}={_source.segment(sc.code, k.value)}" for k in call.keywords
                     if k.arg != "device")
    tail = f"dtype={mod}.{dtype}, device={_source.segment(sc.code, device)}" + (
        f", {rest}" if rest else "")
    args = [_source.segment(sc.code, a) for a in call.args]
    if len(call.args) == 1 and not _sizes(sc, tracer, call.args[0]):
        return f"{mod}.tensor({args[0]}, {tail})"
    return f"{mod}.empty({', '.join([*args, tail]) if args else '0, ' + tail})"


def _off_the_cpu(value: Any) -> bool:
    m = meta(value)
    return m is not None and m[0] != "cpu"


def _sizes(sc: Any, tracer: Any, arg: ast.expr) -> bool:
    """The one argument of a legacy call is a size (``torch.Tensor(n)``, ``torch.Size``), not
    data. NB: a live value read from the failed frame; no code runs."""
    import torch

    if isinstance(arg, ast.Constant):
        return type(arg.value) is int
    if isinstance(arg, (ast.List, ast.Tuple, ast.ListComp, ast.BinOp)):
        return False
    value = tracer.live(sc, arg) if sc is not None else None
    return type(value) is int or type(value) is torch.Size


def _requires_grad(t: Any) -> bool:
    import torch

    slot: Any = torch._C.TensorBase.requires_grad  # NB: the C slot, not a subclass's property
    try:
        return bool(slot.__get__(t))
    except Exception:
        return False


def _want() -> Any:
    return Want("device", "", "", "", "")
