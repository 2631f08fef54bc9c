"""A device kept as a setting: an object's ``self.device`` that ``Module.to()`` never changes.

Many libraries (RL policies, samplers, wrappers) store the device they were built for and make
their tensors on it: ``torch.as_tensor(obs, device=self.device)``. After ``net.to("cuda")`` the
weights move and the setting does not, so every tensor made from it is left behind. The tensor
is a temporary the user never named; the setting is theirs (``net.device``), and setting it is
the fix that works without editing the library.

NB: read-only: the source of the line and the object's ``__dict__``; no user code runs.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ...inspect._types import instance_dict
from ..diagnosis import _source
from ..diagnosis._trace import Origin
from ._code_bugs import _is_factory, names_device

if TYPE_CHECKING:
    from ..diagnosis._trace import Scope
    from ..diagnosis._trace import TracerLike as Tracer


def for_name(tr: Tracer, sc: Scope, name: str) -> list[Origin]:
    """The setting the line that last bound local ``name`` made it on (see :func:`in_value`)."""
    assigned = _source.assignments(sc.code, name, sc.line)
    value = assigned[-1][1] if assigned else None
    return in_value(tr, sc, value, name) if value is not None else []


def in_value(tr: Tracer, sc: Scope, value: ast.expr, name: str = "") -> list[Origin]:
    """The setting ``value`` (a factory or a move) makes its tensor on, when that setting holds
    the culprit's device and its object is one of the user's: the setting as the culprit."""
    if tr.want.kind != "device" or sc.self_obj is None:
        return []
    for call in ast.walk(value):
        attr = _device_attribute(sc, call) if isinstance(call, ast.Call) else ""
        setting = (instance_dict(sc.self_obj) or {}).get(attr) if attr else None
        if not attr or not names_device(setting, tr.want.device):
            continue
        who = tr.namer.owner(sc.self_obj)  # NB: a path in the namespace, or no culprit to name
        if not who:
            return []
        code = f"{who}.{attr}"  # NB: ``who`` is code already (``model[0]``, not ``model.0``)
        made = f"`{name}`" if name else "a tensor"
        detail = (f"`{code}` is {str(setting)!r}: {sc.code.qualname} makes {made} on it, and "
                  f"Module.to() moves weights, not settings")
        return [Origin(code, code, setting, "setting", None, detail)]
    return []


def _device_attribute(sc: Scope, call: ast.Call) -> str:
    """``X`` where ``call`` is a torch factory with ``device=self.X``, or ``t.to(self.X)``."""
    dev: ast.expr | None = None
    if _is_factory(sc, call):
        dev = next((k.value for k in call.keywords if k.arg == "device"), None)
    elif isinstance(call.func, ast.Attribute) and call.func.attr == "to":
        dev = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg == "device"), None)
    if isinstance(dev, ast.Attribute) and isinstance(dev.value, ast.Name) \
            and dev.value.id == "self":
        return dev.attr
    return ""
