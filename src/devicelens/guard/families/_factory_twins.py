"""The same wrong factory line, written again for the same call a few lines on.

HiDDeN's discriminator builds one target per half of its batch, each with
``torch.full(size, self.<label>)`` from an int label, and hands each to the same loss: the edit
of the first line alone lets the cell fail on the second. Where the culprit came from a factory
left to infer its dtype, every other local the function builds with that factory, the same way,
and passes to the same call in the same position gets the same edit. And where the factory's
fill value is an int attribute of the object (``self.cover_label``), that attribute, which is
what made it int64, is named as the culprit.

NB: read-only: source and the frame's locals; no user code runs.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ...inspect._tree import instance_dict
from ..diagnosis import _edits, _source
from ..diagnosis._trace import Origin
from ._code_bugs import _anchor, _is_factory, _origin, _what

if TYPE_CHECKING:
    from ..diagnosis._trace import Scope
    from ..diagnosis._trace import TracerLike as Tracer

#: factories whose dtype comes from their fill value: the argument's position
_FILLED = {"full": 1, "tensor": 0, "as_tensor": 0}


def with_twins(tr: Tracer, sc: Scope, name: str, found: list[Origin]) -> list[Origin]:
    """``found`` (the edit of the factory that made ``name``), its fill attribute named, and the
    same edit of each twin line."""
    call = factory_of(sc, name, sc.line)
    if call is None or tr.want.kind != "dtype" or not any(o.edit for o in found):
        return found
    fill = _int_attribute(sc, call)
    if fill and found[0].name and "." not in found[0].name:
        detail = (f"{found[0].detail}: torch.{_factory(call)} takes int64 from the int "
                  f"`self.{fill}`")
        found = [found[0]._replace(name=f"{found[0].name}.{fill}", detail=detail), *found[1:]]
    out = list(found)
    for twin in _twins(sc, name, call):
        twin_call = factory_of(sc, twin, 1 << 30)
        anchor = _anchor(tr, sc, twin_call.lineno, "dtype") if twin_call is not None else None
        text = _edits.set_dtype(sc.code, twin_call, anchor) if twin_call and anchor else None
        edit = _edits.replace(sc.code, [(twin_call, text)]) if twin_call and text else None
        if edit is not None:
            # NB: under the first one's name: one culprit line, one edit per line
            out.append(_origin(tr, sc, edit, _what(tr, twin))._replace(name=found[0].name))
    return out


def factory_of(sc: Scope, name: str, before: int) -> ast.Call | None:
    """The torch factory call, left to infer its dtype, last bound to ``name``."""
    assigned = _source.assignments(sc.code, name, before)
    value = assigned[-1][1] if assigned else None
    if not isinstance(value, ast.Call) or not _is_factory(sc, value):
        return None
    return None if any(k.arg == "dtype" for k in value.keywords) else value


def _factory(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else ""


def _int_attribute(sc: Scope, call: ast.Call) -> str:
    """``X`` where the fill value is ``self.X`` and that attribute holds a Python int."""
    pos = _FILLED.get(_factory(call))
    arg = call.args[pos] if pos is not None and len(call.args) > pos else None
    me = sc.self_obj
    if not (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)
            and arg.value.id == "self" and me is not None):
        return ""
    value: Any = (instance_dict(me) or {}).get(arg.attr)
    return arg.attr if type(value) is int else ""


def _twins(sc: Scope, name: str, call: ast.Call) -> list[str]:
    """Other locals passed where ``name`` is, to the call of the current line, and made by the
    same factory (its source text up to the arguments)."""
    stmt = _source.statement_at(sc.code, sc.line)
    if stmt is None:
        return []
    uses = [(_source.segment(sc.code, c.func), i) for c in ast.walk(stmt)
            if isinstance(c, ast.Call) for i, a in enumerate(c.args)
            if isinstance(a, ast.Name) and a.id == name]
    made_by = _source.segment(sc.code, call.func)
    out: list[str] = []
    for node in _source.own_nodes(sc.code):
        if not isinstance(node, ast.Call):
            continue
        for func, i in uses:
            arg = node.args[i] if len(node.args) > i else None
            if (isinstance(arg, ast.Name) and arg.id != name and arg.id not in out
                    and _source.segment(sc.code, node.func) == func):
                twin = factory_of(sc, arg.id, 1 << 30)
                if twin is not None and _source.segment(sc.code, twin.func) == made_by:
                    out.append(arg.id)
    return out
