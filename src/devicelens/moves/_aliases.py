"""Aliases a move must keep or name: views that follow a base a fix casts or moves, tensors
that share its storage but cannot follow, and tensors in plain objects' attributes, which a move
does not rebind. NB: reads metadata and instance ``__dict__``s only; runs no user code."""

from __future__ import annotations

import types
from typing import Any

from ..inspect import _tree
from ..inspect._tree import Ref, Step
from ._layout import groupable, span, storage_key


class Aliases:
    """What a fix moves, by storage; :meth:`follow` says whether another tensor goes with it.

    NB: a view follows when its base (``_base``, or itself) is a tensor that moves whole (its
    whole storage, from offset 0): a base and its views move together. A view of another dtype
    cannot follow a cast, and a ``detach()`` or a slice's sibling is no view of what moves:
    those stay, and :meth:`note` names them."""

    def __init__(self, torch: Any, occ: list[Any]) -> None:
        self.torch = torch
        self.moving: set[int] = set()
        self.roots: dict[int, tuple[Any, Any]] = {}  # id of a base -> (target, its dtype)
        self.storages: dict[Any, str] = {}  # storage -> path of a tensor that moves
        self.strays: dict[str, str] = {}  # path of a tensor that stays -> what moved
        for o in occ:
            t = o.t
            if o.target is None or not o.target.changes(t) or not groupable(torch, t):
                continue
            self.moving.add(id(t))
            key = storage_key(t)
            if key is None:
                continue
            self.storages.setdefault(key, _tree.display_for(o.ref))
            if t.storage_offset() == 0 and span(t) * t.element_size() == (
                    t.untyped_storage().nbytes()):
                self.roots.setdefault(id(_root(t)), (o.target, t.dtype))

    def follow(self, t: Any, ref: Ref) -> Any:
        """The target of ``t`` (not in scope) when it follows what moves, else None."""
        if id(t) in self.moving or not groupable(self.torch, t):
            return None
        moved = self.storages.get(storage_key(t))
        if moved is None:
            return None
        hit = self.roots.get(id(_root(t)))
        if hit is not None and (hit[0].dtype is None or t.dtype == hit[1]):
            return hit[0]
        self.strays.setdefault(_tree.display_for(ref), moved)
        return None

    def note(self) -> str | None:
        by_moved: dict[str, list[str]] = {}
        for stray, moved in self.strays.items():
            by_moved.setdefault(moved, []).append(stray)
        notes = [f"{moved} was cast or moved without {joined(strays)}, which shared its "
                 f"storage: {'it' if len(strays) == 1 else 'they'} stayed as "
                 f"{'it was' if len(strays) == 1 else 'they were'} and no longer "
                 f"share{'s' if len(strays) == 1 else ''} it."
                 for moved, strays in by_moved.items()]
        return " ".join(notes) or None


def _root(t: Any) -> Any:
    base = t._base
    return t if base is None else base


# --- plain objects -------------------------------------------------------------------------

_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType)


def held_by_object(torch: Any, obj: Any, ref: Ref) -> list[Ref]:
    """Where a plain object (a ``TensorDataset``, a user's class) holds tensors in its instance
    ``__dict__``: an attribute, or an item of a tuple or list in one. NB: a move opens no such
    object (its class may keep invariants a rebind would break), so these are named instead."""
    if issubclass(type(obj), _OPAQUE):
        return []
    d = _tree.instance_dict(obj)
    out: list[Ref] = []
    for k, v in list(dict.items(d or {})):
        if type(k) is not str:
            continue
        at = (*ref, Step("attr", k))
        if issubclass(type(v), torch.Tensor):
            out.append(at)
        elif type(v) is tuple or type(v) is list:
            out += [(*at, Step("item", i)) for i, x in enumerate(v)
                    if issubclass(type(x), torch.Tensor)]
    return out


def not_moved_note(refs: list[Ref], to: str) -> str | None:
    if not refs:
        return None
    code = _tree.code_for(refs[0])
    return (f"Not moved: {joined([_tree.display_for(r) for r in refs])}, held by plain "
            f"objects' attributes, which a move does not rebind; move them yourself, for "
            f"example {code} = {code}.to({to}).")


def joined(items: list[str]) -> str:
    items = list(dict.fromkeys(items))
    if len(items) > 4:
        return f"{', '.join(items[:3])} and {len(items) - 3} more"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
