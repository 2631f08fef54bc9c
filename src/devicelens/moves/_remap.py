"""Plan an ``optimizer_remap`` fix: point an optimizer at its model's current parameters.

``Module.to()`` to or from meta (and ``load_state_dict(assign=True)``, or re-creating the model)
replaces Parameter objects, leaving the optimizer with the old ones. The fix rewrites each
``param_groups[g]["params"][i]`` in place, re-keys ``state`` onto the new parameter and moves the
state tensors to it; every write goes through the plan's undo log, so it is all or nothing.
"""

from __future__ import annotations

from typing import Any

from ..inspect import _tree
from ..inspect._tree import Ref, Step
from ._containers import Slot
from ._final import MISSING
from ._plan import Occ, Walker
from ._report import REMAPPED


def plan_optimizer(w: Walker, a: Any, opt: Any, ref: Ref,
                   anchors: list[tuple[dict[str, Any], str, Any]]) -> str | None:
    """The optimizer half of a fix (``a`` an :class:`~devicelens.analysis.Action`): its state
    follows its parameters, or it is remapped; the reason it cannot be, else None."""
    label = _tree.display_for(ref)
    if a.op == "optimizer_state":
        w.optimizers[id(opt)] = (opt, ref, "state", label)
    elif a.op == "optimizer_remap":
        anchors += [(w.ns, str(n[0].key), dict.get(w.ns, str(n[0].key))) for _o, n in a.pairs]
        return plan_remap(w, opt, ref, a.pairs, label)
    return None


def plan_remap(w: Walker, opt: Any, ref: Ref, pairs: tuple[tuple[Ref, Ref], ...],
               label: str) -> str | None:
    """Add the remap of ``opt`` to ``w``; the reason it cannot be done, else None."""
    d = _tree.instance_dict(opt) or {}
    groups: Any = d.get("param_groups")
    state: Any = d.get("state")
    if type(groups) is not list or not issubclass(type(state), dict):
        return f"{label} is not an optimizer any more (the finding is out of date)"
    moves: list[tuple[int, list[Any], int, Any, Any]] = []
    for old_ref, new_ref in pairs:
        key = old_ref[-1].key
        try:
            g, i = key if isinstance(key, tuple) else (-1, -1)
            plist = dict.__getitem__(groups[g], "params")
            old, new = list.__getitem__(plist, i), _tree.resolve(w.ns, new_ref)
        except (LookupError, TypeError) as e:
            return f"{_tree.display_for(new_ref)}: {e} (the finding is out of date)"
        if not (issubclass(type(new), w.Tensor) and new.shape == old.shape) or new is old:
            return (f"{_tree.display_for(new_ref)} no longer matches {label}'s parameter "
                    f"{g}.{i} (the finding is out of date: run %devices again)")
        moves.append((g, plist, i, old, new))
    for g, plist, i, old, new in moves:
        w.literals.append((Slot("list", plist, i), new))
        special = bool(dict.get(groups[g], "capturable") or dict.get(groups[g], "fused"))
        pstate: Any = dict.get(state, old)
        if issubclass(type(pstate), dict):
            w.literals += [(Slot("map", state, new), pstate), (Slot("map", state, old), MISSING)]
            _follow(w, pstate, new, (*ref, Step("state", (g, i))), label, special)
    devices = sorted({str(m[4].device) for m in moves})
    w.extra_rows.append((label, REMAPPED, f"current parameters ({', '.join(devices)})",
                         0, len(moves), None, None))
    return None


def _follow(w: Walker, pstate: dict[Any, Any], p: Any, ref: Ref, unit: str,
            special: bool) -> None:
    """State goes to the new parameter's device (and floating dtype), as torch.optim's own
    ``load_state_dict`` places it. NB: ``step`` stays where it is unless the group is
    capturable or fused; lists of tensors (LBFGS history) follow item by item."""
    for k, v in list(dict.items(pstate)):
        if k == "step" and not special:
            continue
        if issubclass(type(v), w.Tensor):
            _one(w, v, Slot("map", pstate, k), (*ref, Step("item", k)), p, unit, k != "step")
        elif type(v) is list:
            for j, x in enumerate(v):
                if issubclass(type(x), w.Tensor):
                    _one(w, x, Slot("list", v, j), (*ref, Step("item", k), Step("item", j)),
                         p, unit, True)


def _one(w: Walker, v: Any, slot: Slot, ref: Ref, p: Any, unit: str, cast: bool) -> None:
    dev = p.device if v.device != p.device else None
    dt = (p.dtype if cast and v.is_floating_point() and p.is_floating_point()
          and v.dtype != p.dtype else None)
    if dev is not None or dt is not None:
        w.occ.append(Occ(v, slot, ref, False, None, unit, "", (dev, dt)))
