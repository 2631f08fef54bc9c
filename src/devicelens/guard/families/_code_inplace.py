"""In-place ops whose result cannot be written back: a float result into an integer tensor.

``t[k] += v`` on an int64 ``num_batches_tracked``, ``x.clamp_(0, bound)`` with a float bound:
PyTorch refuses the cast. Inside a user's function the statement becomes out of place
(``t[k] = t[k] + v``, ``x.copy_(x.clamp(0, bound))``), and so does every other in-place update
of the same tensor there, so the edit covers what the function will trip on next.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ...analysis.findings import is_real_float
from ..diagnosis import _edits, _source
from ..diagnosis._blame import meta
from ..diagnosis._roles import _value
from ._code_bugs import _origin
from ._factory_twins import factory_of

if TYPE_CHECKING:
    from ..diagnosis._trace import Origin, Scope
    from ..diagnosis._trace import TracerLike as Tracer


def in_place(tr: Tracer, sc: Scope) -> list[Origin]:
    """The failing statement writes a float result into an integer tensor in place: the same
    computation out of place (``t[k] = t[k] + v``; ``x.copy_(x.clamp(a, b))``)."""
    stmt = _source.statement_at(sc.code, sc.line)
    if stmt is None:
        return []
    if isinstance(stmt, ast.AugAssign):
        edit = _edits.replace_statement(sc.code, stmt,
                                        _edits.augassign_out_of_place(sc.code, stmt))
    else:
        changes, names = _in_place_calls(tr, sc, stmt, None)
        edit = _edits.replace(sc.code, changes) if changes else None
    if edit is None:
        return []
    what = "an in-place op here writes a float result into an integer tensor"
    out = [_origin(tr, sc, edit, what)]
    if not isinstance(stmt, ast.AugAssign):
        # NB: the same tensor's other in-place updates in the function fail the same way
        for other in _source.own_nodes(sc.code):
            if isinstance(other, ast.Expr) and other is not stmt and other.lineno > stmt.lineno:
                more, _ = _in_place_calls(tr, sc, other, names)
                e = _edits.replace(sc.code, more) if more else None
                if e is not None:
                    out.append(_origin(tr, sc, e, what))
    return out


def _in_place_calls(tr: Tracer, sc: Scope, stmt: ast.stmt,
                    names: set[str] | None) -> tuple[list[tuple[ast.AST, str]], set[str]]:
    """In-place method calls of ``stmt`` on integer tensors (or, with ``names``, on those
    names), rewritten out of place."""
    changes: list[tuple[ast.AST, str]] = []
    found: set[str] = set()
    for node in _source.own_nodes_of(stmt):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr.endswith("_") and not node.func.attr.startswith("_")):
            continue
        recv = node.func.value
        if names is not None:
            ok = isinstance(recv, ast.Name) and recv.id in names
        else:
            t = tr.live(sc, recv) if not isinstance(recv, ast.Name) else sc.values.get(recv.id)
            ok = _is_int_tensor(t)
        text = _edits.out_of_place(sc.code, node) if ok else None
        if text:
            changes.append((node, text))
            if isinstance(recv, ast.Name):
                found.add(recv.id)
    return changes, found


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
    that factory takes the values' dtype, and so does each other buffer the function makes with
    the same factory and fills the same way (LightGlue's ``mscores1_``), so the next write does
    not fail in its turn. NB: only where the values are a name bound before the factory's line."""
    first = _write(stmt)
    call = factory_of(sc, first[0], stmt.lineno) if first else None
    if call is None:
        return []
    factory = _source.segment(sc.code, call.func)
    out: list[Origin] = []
    for node in _source.own_nodes(sc.code):
        if not isinstance(node, ast.Assign) or node.lineno < stmt.lineno:
            continue
        pair = _write(node)
        made = factory_of(sc, pair[0], node.lineno) if pair else None
        if pair is None or made is None or _source.segment(sc.code, made.func) != factory:
            continue
        if not (pair[1] in sc.code.params() or _source.assignments(sc.code, pair[1], made.lineno)):
            continue
        text = _edits.set_dtype(sc.code, made, f"{pair[1]}.dtype")
        edit = _edits.replace(sc.code, [(made, text)]) if text else None
        if edit is not None and all(o.edit != edit for o in out):
            out.append(_origin(tr, sc, edit, f"`{pair[0]}` is made in the default dtype by "
                               f"this line, and the {dtype} values written into it are not cast"))
    return out


def _write(stmt: ast.Assign) -> tuple[str, str] | None:
    """(buffer, values) of ``buffer[...] = values``, both plain names."""
    target = stmt.targets[0] if len(stmt.targets) == 1 else None
    if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
            and isinstance(stmt.value, ast.Name)):
        return target.value.id, stmt.value.id
    return None
