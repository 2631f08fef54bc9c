"""Fixes that run but break training: what a fix must never do, checked on the rehearsal's copy.

Before the fix the namespace's training links are written down (which parameters each optimizer
trains, which names are those parameters, which tensors already sit where the models are, each
module's buffers and hooks); after it, every link must still hold. A fix that rebinds a trained
``nn.Parameter`` to a cast copy runs, and the copy is never trained again: that is a harm, not a
fix. NB: top-level names and their direct items only: what a fix line can rebind. Objects are
kept by ``id`` only: a strong reference would make ``Module.to`` refuse to swap a parameter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...inspect._objects import trained_params


def _torch() -> Any:
    import torch

    return torch


def _is_user(name: str, value: Any) -> bool:
    return not name.startswith("_") and name not in ("In", "Out", "exit", "quit")


@dataclass
class Links:
    """The training links of one namespace at one moment (child process only)."""

    trained: dict[str, list[int]] = field(default_factory=dict)  # optimizer name -> param ids
    param_names: dict[str, int] = field(default_factory=dict)  # name -> its trained Parameter
    leaf: dict[int, tuple[bool, bool]] = field(default_factory=dict)  # id -> (is_leaf, grad)
    modules: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (buffers, hooks)
    split: dict[str, list[str]] = field(default_factory=dict)  # name -> its parts' accelerators
    placed: dict[str, tuple[int, str]] = field(default_factory=dict)  # path -> (tensor id, place)
    places: set[str] = field(default_factory=set)  # where the models' floating weights are
    # NB: ids of the Parameters a model or a name holds now; an optimizer's other Parameters
    # are stale copies (a model moved after the optimizer was made): relinking them is the fix
    current: set[int] = field(default_factory=set)


def links(ns: dict[str, Any]) -> Links:
    torch = _torch()
    out = Links()
    held: set[int] = set()
    for name, v in list(ns.items()):
        if not _is_user(name, v):
            continue
        if isinstance(v, torch.optim.Optimizer):
            params = trained_params(v)  # NB: read off its __dict__, never a property
            out.trained[name] = [id(p) for p in params]
            held |= {id(p) for p in params}
            out.leaf.update({id(p): (p.is_leaf, p.requires_grad) for p in params})
            del params
        elif isinstance(v, torch.nn.Module):
            out.modules[name] = (_count_buffers(v), _count_hooks(v))
            split = _parallel_devices(v)
            if split:
                out.split[name] = split
            out.current |= {id(p) for p in v.parameters()}
    out.places = _places(ns)
    for name, v in list(ns.items()):
        if _is_user(name, v) and isinstance(v, torch.nn.Parameter) and id(v) in held:
            out.param_names[name] = id(v)
        if _is_user(name, v):
            out.current |= {id(p) for p in _direct(v) if isinstance(p, torch.nn.Parameter)}
    for path, t in _loose_tensors(ns):
        out.placed[path] = (id(t), _place(t, with_dtype=t.is_floating_point()))
    return out


def _direct(v: Any) -> list[Any]:
    """``v`` and the items of a top-level dict, list or tuple."""
    if type(v) is dict:
        return [v, *v.values()]
    if type(v) in (list, tuple):
        return [v, *v]
    return [v]


def _place(t: Any, with_dtype: bool = True) -> str:
    return f"{t.device}/{t.dtype}" if with_dtype else f"{t.device}"


def _parallel_devices(m: Any) -> list[str]:
    """The accelerators a model is split over on purpose (model parallelism): each direct
    child whole on one accelerator, two accelerators or more, nothing on the cpu; else [].
    NB: a part left on the cpu is a stray, not a placement, and collapsing it is the fix."""
    devices: list[str] = []
    for child in m.children():
        own = {str(t.device) for t in [*child.parameters(), *child.buffers()]}
        if len(own) > 1:
            return []
        devices += own
    found = sorted(set(devices))
    if len(found) < 2 or any(d in ("cpu", "meta") for d in found):
        return []
    return found


def _count_buffers(m: Any) -> int:
    return sum(1 for _ in m.buffers())


def _count_hooks(m: Any) -> int:
    kinds = ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks", "_backward_pre_hooks",
             "_state_dict_hooks", "_load_state_dict_pre_hooks")
    return sum(len(getattr(sub, k, None) or {}) for sub in m.modules() for k in kinds)


#: the items of a top-level list of dicts read (a detection batch's ``targets[i]['boxes']``)
MAX_NESTED = 64


def _loose_tensors(ns: dict[str, Any]) -> list[tuple[str, Any]]:
    """Top-level tensors, the tensors directly inside top-level dicts, lists and tuples, and
    those of the dicts a top-level list or tuple holds (DETR's ``targets``, one dict of boxes
    and labels per image), as a fix line writes their paths."""
    torch = _torch()
    out = []
    for name, v in list(ns.items()):
        if not _is_user(name, v) or isinstance(v, torch.nn.Parameter):
            continue
        if isinstance(v, torch.Tensor):
            out.append((name, v))
        elif type(v) is dict:
            out += [(f"{name}[{k!r}]", t) for k, t in v.items() if isinstance(t, torch.Tensor)]
        elif type(v) in (list, tuple):
            out += [(f"{name}[{i}]", t) for i, t in enumerate(v) if isinstance(t, torch.Tensor)]
            out += [(f"{name}[{i}][{k!r}]", t) for i, d in enumerate(v[:MAX_NESTED])
                    if type(d) is dict for k, t in d.items() if isinstance(t, torch.Tensor)]
    return out


def harms(before: Links, ns: dict[str, Any]) -> list[str]:
    """Each training link ``before`` had that ``ns`` no longer has, said in the user's names."""
    torch = _torch()
    out: list[str] = []
    names = {p: n for n, p in before.param_names.items()}
    for opt, params in before.trained.items():
        now = ns.get(opt)
        held = {id(p): p for p in (trained_params(now) if now is not None else ())}
        lost = [p for p in params if p not in held and p in before.current]
        if lost:
            who = names.get(lost[0]) or f"{len(lost)} of its parameters"
            out.append(f"`{opt}` would no longer train {who}")
        for p in params:
            if p in held and (held[p].is_leaf, held[p].requires_grad) != before.leaf[p]:
                out.append(f"{names.get(p, 'a parameter')} would no longer be a trainable "
                           "leaf tensor")
                break
    for name, p in before.param_names.items():
        if id(ns.get(name)) != p:
            out.append(f"`{name}` would be rebound to a copy that its optimizer never trains; "
                       "the Parameter itself must change in place")
    for name, (buffers, hooks) in before.modules.items():
        m = ns.get(name)
        if isinstance(m, torch.nn.Module):
            if _count_buffers(m) < buffers:
                out.append(f"`{name}` would lose a buffer")
            if _count_hooks(m) < hooks:
                out.append(f"`{name}` would lose a hook")
    for name, devices in before.split.items():
        m = ns.get(name)
        if isinstance(m, torch.nn.Module):
            now = sorted({str(t.device) for t in [*m.parameters(), *m.buffers()]})
            if len(now) < len(devices):
                out.append(f"`{name}` is split over {', '.join(devices)} on purpose (each part "
                           f"whole on one device); the fix would put it all on "
                           f"{', '.join(now)}")
    now = dict(_loose_tensors(ns))
    places = _places(ns) or before.places
    for path, (t, place) in before.placed.items():
        if place not in before.places:
            continue
        moved = now.get(path)
        if moved is None or id(moved) == t:
            continue
        new = _place(moved, with_dtype=moved.is_floating_point())
        if moved.dim() == 0 and moved.device.type == "cpu" \
                and new.partition("/")[2] == place.partition("/")[2]:
            continue  # NB: a 0-dim cpu tensor meets tensors on any device: nothing is lost
        if new != place and new not in places:
            out.append(f"`{path}` is already where the model is ({place}); the fix would "
                       f"move it to {new}")
    return list(dict.fromkeys(out))


def _places(ns: dict[str, Any]) -> set[str]:
    """Where the namespace's models keep their weights: ``device/dtype`` of their floating
    parameters, and their devices alone (for integer tensors, which keep their dtype)."""
    torch = _torch()
    out: set[str] = set()
    for name, v in list(ns.items()):
        if _is_user(name, v) and isinstance(v, torch.nn.Module):
            out |= {_place(p) for p in v.parameters() if p.is_floating_point()}
            out |= {_place(p, with_dtype=False) for p in v.parameters()}
    return out
