"""In-place ops whose result cannot be written back: a float result into an integer tensor.

``t[k] += v`` on an int64 ``num_batches_tracked``, ``x.clamp_(0, bound)`` with a float bound:
PyTorch refuses the cast. Inside a user's function the statement becomes out of place
(``t[k] = t[k] + v``, ``x.copy_(x.clamp(0, bound))``), and so does every other in-place update
of the same tensor there, so the edit covers what the function will trip on next.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from . import _edits, _source
from ._blame import meta
from ._code_bugs import _origin

if TYPE_CHECKING:
    from ._trace import Origin, Scope
    from ._trace import TracerLike as Tracer


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
