"""A model dispatched over several devices, then moved whole to one: its hooks still send each
layer's inputs where the dispatch put that layer.

``from_pretrained(..., device_map="auto")`` places the layers over the GPUs and gives each an
accelerate hook that moves its inputs to its device; the model's ``hf_device_map`` says where.
A later ``model.to("cuda:0")`` moves the weights, not the hooks: a layer the map put on cuda:1
now holds its weights on cuda:0 and still receives its inputs on cuda:1 (MiniGPT-4's demo,
LeRobot's SmolVLA). The layer that fails is not what to change, nor the data: the model is. The
fix is to load it where it is wanted, ``device_map={"": 0}``, on the line that loads it (in the
cells, or in ``__init__`` of the object that holds it), found by the attribute or name the
model is bound to.
NB: reads ``__dict__``s, frames and source lines only; no user code runs.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, NamedTuple

from ...inspect import _tree
from ...inspect._tree import instance_dict
from ._blame import Named, Namer, Operand, iter_params
from ._edits import Edit, replace
from ._source import Code, function_code, load

#: the values of ``device_map`` that spread a model over the devices it finds
_SPREAD = frozenset({"auto", "balanced", "balanced_low_0", "sequential"})


class Redispatch(NamedTuple):
    culprit: Operand
    edits: tuple[Edit, ...]
    note: str


def moved_after_dispatch(kind: str, stack: list[Any], namer: Namer, resolve: Callable[[str], Any],
                         cell_files: list[str]) -> Redispatch | None:
    """The running model whose ``hf_device_map`` spreads it over several devices while all its
    weights sit on one (moved after it was dispatched), with the edit that loads it there; None
    where no running model is such. ``resolve``: a name path's object; ``cell_files``: the
    cells' file names, newest first."""
    if kind != "device" or not stack:
        return None
    for name, m in _above(namer.module_code(stack[0]), resolve):
        spread = _spread_over(m)
        if not spread:
            continue
        on = {str(p.device) for p in iter_params(m, limit=20_000)}
        if len(on) != 1 or on == {"meta"}:  # NB: meta: accelerate's offload keeps weights there
            continue
        device = on.pop()
        edit = _loading_edit(name, resolve, cell_files, device)
        note = (f"{name} was dispatched over {', '.join(spread)} (its hf_device_map), then "
                f"moved whole to {device}: its hooks still send each layer's inputs to the "
                f"device the map gave that layer. Load it on {device} instead "
                f"(device_map={_map_for(device)}), or do not move it after loading.")
        what = f"dispatched over {', '.join(spread)}, then moved whole to {device}"
        culprit = Operand("", Named(name, name, "code", name.split(".")[0].split("[")[0]), "",
                          "", (), what)
        return Redispatch(culprit, (edit,) if edit is not None else (), note)
    return None


def _above(path: str, resolve: Callable[[str], Any]) -> list[tuple[str, Any]]:
    """Each module on the path to the innermost running one, outermost first (``policy``,
    ``policy.model``, ...): the model the user loaded may hold the failing layer without its
    own ``forward`` running (``self.vlm.model.text_model(...)``)."""
    import torch

    cuts = [i for i, c in enumerate(path) if c in ".["] + [len(path)]
    out = []
    for i in cuts:
        m = resolve(path[:i])
        if issubclass(type(m), torch.nn.Module):
            out.append((path[:i], m))
    return out


def _spread_over(m: Any) -> list[str]:
    """The devices ``m``'s ``hf_device_map`` names, where it names more than one."""
    found = dict.get(instance_dict(m) or {}, "hf_device_map")
    if type(found) is not dict:
        return []
    places = sorted({_device(v) for v in dict.values(found) if type(v) in (int, str)})
    return places if len(places) > 1 else []


def _device(v: int | str) -> str:
    return f"cuda:{v}" if type(v) is int else str(v)


def _map_for(device: str) -> str:
    """``{"": 0}`` for cuda:0, ``{"": "cpu"}`` for the cpu."""
    kind, _, index = device.partition(":")
    return f'{{"": {index}}}' if kind == "cuda" and index else f'{{"": "{device}"}}'


def _loading_edit(name: str, resolve: Callable[[str], Any], cell_files: list[str],
                  device: str) -> Edit | None:
    """``device_map=...`` set to ``device`` where the model bound to ``name`` is loaded: in
    ``__init__`` of the object holding it (``self.llama_model = ...(device_map="auto")``), or
    in a cell (``model = ...(device_map="auto")``)."""
    holder, _, attr = name.rpartition(".")
    if holder and attr.isidentifier():
        init = _own_init(resolve(holder))
        code = function_code(init) if init is not None else None
        return _edit_in(code, attr, True, device)[1] if code is not None else None
    for filename in cell_files:
        src = load(filename)
        if src is None:
            continue
        bound, found = _edit_in(Code(src, None, ""), name, False, device)
        if bound:  # NB: the newest cell that binds it: an older one's load is gone
            return found
    return None


def _own_init(obj: Any) -> Any:
    """``__init__`` of ``obj``'s class, read off the MRO's ``__dict__``s (no lookup that could
    run code)."""
    return None if obj is None else _tree._type_dict_lookup(type(obj), "__init__")


def _edit_in(code: Code, target: str, on_self: bool, device: str) -> tuple[bool, Edit | None]:
    """Whether ``code`` assigns ``self.<target>`` (``on_self``) or ``target``, and the edit of
    the first such assignment whose call spreads the model (``device_map="auto"``)."""
    bound_here = False
    for node in ast.walk(code.body):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        t = node.targets[0]
        if on_self:
            bound = (isinstance(t, ast.Attribute) and t.attr == target
                     and isinstance(t.value, ast.Name) and t.value.id == "self")
        else:
            bound = isinstance(t, ast.Name) and t.id == target
        if not bound:
            continue
        bound_here = True
        for call in ast.walk(node.value):
            if not isinstance(call, ast.Call):
                continue
            for kw in call.keywords:
                if kw.arg == "device_map" and isinstance(kw.value, ast.Constant) \
                        and kw.value.value in _SPREAD:
                    return True, replace(code, [(kw.value, _map_for(device))])
    return bound_here, None
