"""A tensor a factory filled from an int attribute is int64: the attribute is the culprit.

HiDDeN's discriminator builds its targets with ``torch.full(size, self.cover_label)``: the
factory, left to infer its dtype, takes int64 from the int label, and BCE refuses the target.
The temporary it made is no name the user knows; ``self.cover_label`` is. (The same wrong line
written again for a second target a few lines on needs no rule of its own: the rehearsal runs
the cell with the first edit, meets the second line and adds its edit.)

NB: read-only: source and the frame's locals; no user code runs.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ...inspect._tree import instance_dict
from ..diagnosis import _source
from ..diagnosis._trace import Origin
from ._code_bugs import _is_factory

if TYPE_CHECKING:
    from ..diagnosis._trace import Scope
    from ..diagnosis._trace import TracerLike as Tracer

#: factories whose dtype comes from their fill value: the argument's position
_FILLED = {"full": 1, "tensor": 0, "as_tensor": 0}


def with_fill(tr: Tracer, sc: Scope, name: str, found: list[Origin]) -> list[Origin]:
    """``found`` (the edit of the factory that made ``name``) with the int attribute it was
    filled from named as the culprit."""
    call = factory_of(sc, name, sc.line)
    if call is None or tr.want.kind != "dtype" or not any(o.edit for o in found):
        return found
    fill = _int_attribute(sc, call)
    if fill and found[0].name and "." not in found[0].name:
        detail = (f"{found[0].detail}: torch.{_factory(call)} takes int64 from the int "
                  f"`self.{fill}`")
        found = [found[0]._replace(name=f"{found[0].name}.{fill}", detail=detail, own=True),
                 *found[1:]]
    return found


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
