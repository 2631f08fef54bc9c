"""In-place ops whose result cannot be written back: a float result into an integer tensor.

``t[k] += v`` on an int64 ``num_batches_tracked``, ``x.clamp_(0, bound)`` with a float bound:
PyTorch refuses the cast. Inside a user's function the statement becomes out of place
(``t[k] = t[k] + v``, ``x.copy_(x.clamp(0, bound))``). The same tensor's next in-place update,
which would fail in its turn, needs no rule here: the rehearsal runs the function with this edit,
meets that line and adds its edit.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ...analysis.findings import is_real_float
from ..diagnosis import _edits, _source
from ..diagnosis._blame import meta
from ..diagnosis._roles import _value
from ._code_bugs import _origin
from ._int_fill import factory_of

if TYPE_CHECKING:
    from ..diagnosis._trace import Origin, Scope
    from ..diagnosis._trace import TracerLike as Tracer


def in_place(tr: Tracer, sc: Scope) -> list[Origin]:
    """The failing statement writes a float result into an integer tensor in place: the same
    computation out of place (``t[k] = t[k] + v``; ``x.copy_(x.clamp(a, b))``; a result that is
    no whole number stays a float: ``y = x.pow(-0.5)``)."""
    stmt = _source.statement_at(sc.code, sc.line)
    if stmt is None:
        return []
    if isinstance(stmt, ast.AugAssign):
        edit = _edits.replace_statement(sc.code, stmt,
                                        _edits.augassign_out_of_place(sc.code, stmt))
    else:
        changes = _in_place_calls(tr, sc, stmt)
        edit = _edits.replace(sc.code, changes) if changes else None
    if edit is None:
        return []
    what = "an in-place op here writes a float result into an integer tensor"
    return [_origin(tr, sc, edit, what)]


def _in_place_calls(tr: Tracer, sc: Scope, stmt: ast.stmt) -> list[tuple[ast.AST, str]]:
    """In-place method calls of ``stmt`` on integer tensors, rewritten out of place."""
    changes: list[tuple[ast.AST, str]] = []
    for node in _source.own_nodes_of(stmt):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr.endswith("_") and not node.func.attr.startswith("_")):
            continue
        recv = node.func.value
        t = tr.live(sc, recv) if not isinstance(recv, ast.Name) else sc.values.get(recv.id)
        if not _is_int_tensor(t):
            continue
        if node.func.attr[:-1] in _WHOLE:
            text = _edits.out_of_place(sc.code, node)
        elif isinstance(stmt, ast.Expr) and stmt.value is node:
            # NB: ``deg.pow_(-0.5)`` alone: the name takes the float result
            text = (f"{recv.id} = {_edits.float_result(sc.code, node)}"
                    if isinstance(recv, ast.Name) else None)
            node = stmt
        else:
            text = _edits.float_result(sc.code, node)
        if text:
            changes.append((node, text))
    return changes


#: in-place ops whose result stays a whole number on whole numbers (given whole bounds): the
#: float result can be written back (``x.copy_(x.clamp(0, bound))``); any other (``pow_(-0.5)``,
#: ``div_``, ``mul_(0.5)``) would be truncated into the integer tensor, a fix that runs and
#: computes garbage, so the result stays a float tensor instead
_WHOLE = frozenset({"clamp", "clip", "clamp_min", "clamp_max", "floor", "ceil", "round", "trunc",
                    "fix", "abs", "neg", "negative", "sign", "maximum", "minimum", "fmax",
                    "fmin", "remainder", "fmod"})


def _is_int_tensor(t: Any) -> bool:
    m = meta(t)
    return m is not None and not m[1].startswith(("float", "bfloat", "complex"))


def index_put_cast(tr: Tracer, sc: Scope) -> list[Origin]:
    """``t[idx] = v`` where ``v`` has another floating dtype than ``t`` (fp16 scores written
    into a float32 buffer under autocast): an index put never casts, so the write casts ``v``
    to ``t``'s dtype. NB: ``t`` was made in its dtype on purpose; ``v``'s follows autocast."""
    stmt = _source.statement_at(sc.code, sc.line)
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Subscript)):
        return []
    dest_node = stmt.targets[0].value
    md, mv = meta(_value(tr, sc, dest_node)), meta(_value(tr, sc, stmt.value))
    if md is None or mv is None or md[1] == mv[1] or not (
            is_real_float(md[1]) and is_real_float(mv[1])):
        return []
    made = _buffers_made_here(tr, sc, stmt, mv[1])
    if made:
        return made
    value = _source.segment(sc.code, stmt.value)
    if not isinstance(stmt.value, ast.Name | ast.Attribute | ast.Call | ast.Subscript):
        value = f"({value})"
    new = f"{value}.to({_source.segment(sc.code, dest_node)}.dtype)"
    edit = _edits.replace(sc.code, [(stmt.value, new)])
    if edit is None:
        return []
    what = (f"this line writes {mv[1]} values into a {md[1]} tensor, and an indexed write "
            f"does not cast")
    return [_origin(tr, sc, edit, what)]


def _buffers_made_here(tr: Tracer, sc: Scope, stmt: ast.Assign, dtype: str) -> list[Origin]:
    """The buffer written into was made a few lines up by a factory left to infer its dtype
    (``mscores0_ = torch.zeros((b, m), device=mscores0.device)`` beside an fp16 ``mscores0``):
    that factory takes the values' dtype. (LightGlue's ``mscores1_``, made and filled the same
    way, is the rehearsal's next round.) NB: only where the values are a name bound before the
    factory's line."""
    pair = _write(stmt)
    made = factory_of(sc, pair[0], stmt.lineno) if pair else None
    if pair is None or made is None:
        return []
    if not (pair[1] in sc.code.params() or _source.assignments(sc.code, pair[1], made.lineno)):
        return []
    text = _edits.set_dtype(sc.code, made, f"{pair[1]}.dtype")
    edit = _edits.replace(sc.code, [(made, text)]) if text else None
    if edit is None:
        return []
    return [_origin(tr, sc, edit, f"`{pair[0]}` is made in the default dtype by this line, and "
                    f"the {dtype} values written into it are not cast")]


def _write(stmt: ast.Assign) -> tuple[str, str] | None:
    """(buffer, values) of ``buffer[...] = values``, both plain names."""
    target = stmt.targets[0] if len(stmt.targets) == 1 else None
    if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
            and isinstance(stmt.value, ast.Name)):
        return target.value.id, stmt.value.id
    return None
