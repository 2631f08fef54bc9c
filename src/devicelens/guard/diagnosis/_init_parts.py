"""A part that an object of the user's made for itself in its ``__init__``, and ran there
before any name of the user's held the object.

byol-pytorch's ``BYOL.__init__`` sends a mock batch through itself to build its lazy layers,
beside the network it was handed on the GPU: its own predictor (``self.online_predictor =
MLP(...)``) is still on the default device. No namespace path reaches the object yet, so no
``learner.online_predictor.to(...)`` can be printed; the part is moved where it is made, to the
device of what the ``__init__`` was handed. NB: reads ``__dict__``s and source only.
"""

from __future__ import annotations

import ast
from typing import Any

from ...inspect import _tree
from ..running._frames import frame_locals
from . import _edits, _source
from ._blame import Named, Operand, is_module, iter_params, meta
from ._context import Blame, Ctx, Op
from ._trace import Want


def made_in_init(ctx: Ctx, op: Op, want: Want, part: Any) -> Blame | None:
    """The edit that moves ``part`` where a running ``__init__`` of the user's makes it, when
    every weight of ``part`` is where the culprit is; None where no such ``__init__`` runs."""
    from ..families._code_bugs import anchor_at

    if want.kind != "device" or not _all_on(part, want.device):
        return None
    for i, fr in enumerate(ctx.frames):
        if fr.frame.f_code.co_name != "__init__" or not ctx.is_user(fr.frame.f_code.co_filename):
            continue
        me = frame_locals(fr.frame).get("self")
        attr = next((k for k, v in _tree.module_parts(me).children if v is part), None) \
            if is_module(me) else None
        code = _source.frame_code(fr.frame)
        if attr is None or code is None:
            continue
        made = sorted((n for n in _source.self_attr_assignments(code, attr)
                       if n.lineno < fr.lineno), key=lambda n: n.lineno)
        if not made or not isinstance(made[-1].value, ast.Call):
            return None
        call = made[-1].value
        tracer = ctx.tracer(want)
        sc = tracer.scope(i)
        target = anchor_at(tracer, sc._replace(line=call.lineno), call.lineno) \
            if sc is not None else None
        edit = _edits.replace(code, [(call, f"{_source.segment(code, call)}.to({target})")]) \
            if target else None
        if edit is None:
            return None
        qual = fr.frame.f_code.co_qualname
        operand = Operand(op.operand.where, Named(f"`self.{attr}` in {qual}", "", "local", ""),
                          op.operand.device, op.operand.dtype, (),
                          f"{type(part).__name__}, {op.operand.device}")
        note = (f"`self.{attr}` is made in {qual} on {op.operand.device} and run there, "
                f"before anything moves it, on {want.expected} inputs")
        return Blame(operand, (), (edit,), (note,))
    return None


def _all_on(part: Any, device: str) -> bool:
    params = list(iter_params(part, limit=10_000))
    return bool(params) and all((meta(p) or ("",))[0] == device for p in params)
