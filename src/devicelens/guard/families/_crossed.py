"""An in-place update of one model's tensors from another model's (an EMA, a target network, a
teacher): each model sits where the user put it, and the destination of an in-place op cannot
change device; the fix moves the values across on that line (``src.to(dest.device)``).

NB: both tensors are named as two different namespace models' parameters or buffers (by identity
or by shared storage) before this applies; it reads the failing frame's locals, runs nothing.
"""

from __future__ import annotations

import ast

from ..diagnosis import _edits
from ..diagnosis._blame import is_tensor
from ..diagnosis._context import Blame, Ctx, Failure, Op

_WEIGHTS = ("parameter", "buffer")


def crossed_update(ctx: Ctx, failure: Failure, op: Op) -> Blame | None:
    """``dest.lerp_(src)`` in the user's function, ``dest`` (the culprit) one model's weight and
    ``src`` another's: the edit ``dest.lerp_(src.to(dest.device))``."""
    named = op.operand.named
    if failure.kind != "device" or named.role not in _WEIGHTS or not named.root:
        return None
    sc, stmt = ctx.statement(ctx.user)
    if sc is None or stmt is None or sc.code.func is None:
        return None  # NB: at a cell's top level the models are the user's to place
    values = sc.values
    for call in ast.walk(stmt):
        dest = _in_place_receiver(call)
        if dest is None or values.get(dest) is not op.tensor:
            continue
        for arg in call.args:  # type: ignore[attr-defined]
            src = values.get(arg.id) if isinstance(arg, ast.Name) else None
            other = ctx.namer.namespace_tensor(src) if is_tensor(src) else None
            if other is None or other.role not in _WEIGHTS or other.root in ("", named.root):
                continue
            edit = _edits.replace(sc.code, [(arg, f"{arg.id}.to({dest}.device)")])
            if edit is not None:
                note = (f"{named.root} and {other.root} sit on different devices; an in-place "
                        f"update cannot move {named.root}'s tensor, so the line brings "
                        f"{other.root}'s values to it")
                return Blame(op.operand, (), (edit,), (note,))
    return None


def _in_place_receiver(node: ast.AST) -> str | None:
    """``x`` for ``x.add_(...)`` / ``x.lerp_(...)`` / ``x.copy_(...)``; None otherwise."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    attr, recv = node.func.attr, node.func.value
    if not attr.endswith("_") or attr.startswith("_") or not isinstance(recv, ast.Name):
        return None
    return recv.id
