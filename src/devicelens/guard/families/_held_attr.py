"""A plain tensor attribute that ``model.half()`` left in its old dtype, behind a culprit that
the trace could not follow.

``.half()``/``.to(dtype)`` casts parameters and buffers only. A float32 table kept as a plain
attribute (``setattr(self, "pos_embed2", ...)``) is added to the activations, type promotion
makes them float32, and a later half-precision layer fails on a local the user never named
(``q`` in the attention). When the trace ends at such a local, an attribute of the failing
model in exactly the culprit's dtype, while the model's parameters are in the expected one, is
where the dtype came from. NB: reads ``__dict__``s only (:func:`_tree.module_parts`).
"""

from __future__ import annotations

from typing import Any

from ...analysis.findings import is_real_float
from ...inspect import _tree
from ..diagnosis._blame import meta
from ..diagnosis._context import Ctx, Op
from ..diagnosis._trace import Origin

MAX_MODULES = 2_000
MAX_FOUND = 4


def attribute_origins(ctx: Ctx, op: Op, expected: str) -> list[Origin]:
    """Plain tensor attributes of the model the failure runs in (its outermost module) with
    the culprit's real floating dtype and a shape that broadcasts with it, where every floating
    parameter is ``expected``."""
    import torch

    wrong = op.operand.dtype
    if not ctx.stack or not (is_real_float(wrong) and is_real_float(expected)) or wrong == expected:
        return []
    found: list[Any] = []
    params: set[str] = set()
    for m in _tree.submodules(ctx.stack[-1], MAX_MODULES):
        parts = _tree.module_parts(m)
        params.update(d for _k, p in parts.params if (d := _dtype(p)) and is_real_float(d))
        found += [v for k, v in parts.attrs if type(v) is torch.Tensor and k.isidentifier()
                  and _dtype(v) == wrong and _broadcasts(_shape(v), op.operand.shape)
                  and not any(v is f for f in found)]
    if params != {expected}:
        return []  # NB: a model whose own dtype is not clear says nothing about its tables
    out = []
    for t in found:
        named = ctx.namer.tensor(t)
        if named is not None and named.role == "attribute":
            why = (f"{named.name} is a plain tensor attribute in {wrong}: .half() and "
                   f".to(dtype) cast only parameters and buffers, and using it with the "
                   f"{expected} activations makes them {wrong}")
            out.append(Origin(named.name, named.code, t, "attribute", detail=why))
    return out[:MAX_FOUND]


def _dtype(t: Any) -> str:
    m = meta(t)
    return m[1] if m is not None else ""


def _shape(t: Any) -> tuple[int, ...] | None:
    m = meta(t)
    return m[2] if m is not None else None


def _broadcasts(a: tuple[int, ...] | None, b: tuple[int, ...]) -> bool:
    """``a`` combines elementwise with a tensor of shape ``b`` (NB: the table was added to the
    activations; a view may have swapped dimensions of size 1, as batch-first attention does)."""
    if a is None or not a or len(a) > len(b):
        return False
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a), reversed(b), strict=False))
