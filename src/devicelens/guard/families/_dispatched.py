"""A dispatched model's own ``forward`` mixing what its first and last layers see.

Under accelerate's ``device_map`` a model's layers sit on several devices and each moves its own
inputs; the model's inputs rightly stay on its first device. A tensor the model's ``forward``
derives from an input itself (``ends = attention_mask.cumsum(1).argmax(1)``) stays there too,
and meeting what the last layers made (``torch.gather(hidden_states, 1, ends)``) fails. Moving
the input elsewhere would only break the first layers; the line that derives the tensor is what
to fix, against the other operand's device.

NB: read-only: the model's ``__dict__`` and the frame's locals, never a call.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ...inspect._tree import instance_dict
from ..diagnosis import _edits, _source
from ..diagnosis._blame import is_tensor, meta
from ..diagnosis._trace import Origin
from ._code_bugs import owner

if TYPE_CHECKING:
    from ..diagnosis._trace import Scope
    from ..diagnosis._trace import TracerLike as Tracer


def dispatched(m: Any) -> bool:
    """Whether ``m`` was dispatched over several devices (its ``hf_device_map`` says so)."""
    found = (instance_dict(m) or {}).get("hf_device_map") if m is not None else None
    return type(found) is dict and len({str(v) for v in found.values()}) > 1


def derived_input(tr: Tracer, sc: Scope, name: str) -> list[Origin]:
    """``name``, made in a dispatched model's own ``forward`` from one of its inputs, on the
    input's device: the edit moves it to where the other operand is (a local the function made
    before that line, on the expected device)."""
    if tr.want.kind != "device" or sc.frame < 0 or not dispatched(sc.self_obj):
        return []
    assigned = _source.assignments(sc.code, name, sc.line)
    if not assigned:
        return []
    stmt, value = assigned[-1]
    if value is None or not isinstance(stmt, ast.Assign | ast.AnnAssign):
        return []
    inputs = [p for p in sc.code.params() if p != "self"
              and not _source.assignments(sc.code, p, stmt.lineno)]
    read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    source = next((p for p in inputs if p in read and _on(sc.values.get(p), tr.want.device)), "")
    anchor = _anchor(tr, sc, stmt.lineno)
    if not source or not anchor:
        return []
    text = _source.segment(sc.code, value)
    if not isinstance(value, ast.Call | ast.Attribute | ast.Subscript | ast.Name):
        text = f"({text})"  # NB: `mask.sum(1) - 1` moves as a whole
    edit = _edits.replace(sc.code, [(value, f"{text}.to({anchor}.device)")])
    if edit is None:
        return []
    model = owner(tr, sc) or "the model"
    detail = (f"`{name}` is made from the input `{source}`, which stays on {tr.want.device} "
              f"where {model} takes its inputs, but meets `{anchor}` from its layers on "
              f"{tr.want.expected}")
    return [Origin(model, "", None, "code", edit, detail)]


def _on(t: Any, device: str) -> bool:
    m = meta(t) if is_tensor(t) else None
    return m is not None and m[0] == device


def _anchor(tr: Tracer, sc: Scope, line: int) -> str:
    """A local made before ``line`` and still bound, on the expected device; those read on the
    failing line first (``hidden_states`` for ``torch.gather(hidden_states.squeeze(-1), ...)``)."""
    stmt = _source.statement_at(sc.code, sc.line)
    on_line = ([n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)]
               if stmt is not None else [])
    params = set(sc.code.params())
    for k in [*dict.fromkeys(on_line), *sc.values]:
        if k in params or k not in sc.values or not _on(sc.values[k], tr.want.expected):
            continue
        if _source.assignments(sc.code, k, line):
            return k
    return ""
