"""``pack_padded_sequence`` given lengths on an accelerator: the call passes ``lengths.cpu()``.

PyTorch requires the lengths as a CPU tensor (or a list) whatever device the data is on, so a
batch moved whole to the GPU is right, and the call is what to change: an edit of the failing
line, not a move of the user's batch. NB: a meta tensor has no values to copy to the cpu; its
fix lies where it was made, never here.
"""

from __future__ import annotations

import ast

from ..diagnosis import _edits, _source
from ..diagnosis._context import Blame, Ctx, Failure, Op

_PACKERS = ("pack_padded_sequence",)


def lengths_blame(ctx: Ctx, failure: Failure, op: Op) -> Blame | None:
    """The edit passing the lengths through ``.cpu()`` on the user's failing line."""
    rule = failure.rule
    dev = op.operand.device
    if rule is None or rule.want != "cpu_int64" or dev in ("cpu", "meta", "") or ctx.user < 0:
        return None
    sc, stmt = ctx.statement(ctx.user)
    if sc is None or stmt is None:
        return None
    for node in _source.own_nodes_of(stmt):
        arg = _lengths_arg(node) if isinstance(node, ast.Call) else None
        if arg is None:
            continue
        text = _source.segment(sc.code, arg)
        simple = isinstance(arg, ast.Name | ast.Attribute | ast.Subscript | ast.Call)
        edit = _edits.replace(sc.code, [(arg, f"{text if simple else f'({text})'}.cpu()")])
        if edit is None:
            return None
        note = (f"pack_padded_sequence() takes lengths on the cpu whatever device the data is "
                f"on: pass `{text}.cpu()` there and keep the batch where it is")
        return Blame(op.operand, (), (edit,), (note,))
    return None


def _lengths_arg(call: ast.Call) -> ast.expr | None:
    """The expression ``call`` passes as ``lengths`` to a packer (second positional)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")
    if name not in _PACKERS:
        return None
    found = next((k.value for k in call.keywords if k.arg == "lengths"), None)
    if found is None and len(call.args) >= 2 and not any(
            isinstance(a, ast.Starred) for a in call.args[:2]):
        found = call.args[1]
    return found
