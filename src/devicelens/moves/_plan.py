"""Walk the namespace for a move: every tensor that must change and every reference to it.

Unlike a snapshot, the walk is unbounded in width and keeps each *holder* (dict, list, module
``__dict__``, the chain of immutable containers) so :mod:`devicelens.moves._final` can decide
how to swap or rebind every reference. Like :mod:`devicelens.inspect._tree`, it runs no user
code and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import repeat
from typing import Any, NamedTuple

from ..inspect import _tree
from ..inspect._tree import Ref, Step
from ..inspect._trust import Trust, type_name
from ..inspect._types import one_of
from ._aliases import Aliases, held_by_object
from ._containers import (
    _SCALARS,
    Node,
    Slot,
    _children,
    _holds_module,
    _only_scalars,
    move_kind,
)
from ._keys import plain_key

MAX_DEPTH = 64
_MODE_RANK = {"follow": 0, "state": 1, "move": 2}  # what an optimizer's state does


class Target(NamedTuple):
    """Where tensors in scope should go. ``dtype`` applies to floating tensors only."""

    device: Any = None
    dtype: Any = None

    def changes(self, t: Any) -> bool:
        """Whether ``t`` in this scope changes (its device, or the dtype of a floating one)."""
        return ((self.device is not None and t.device != self.device)
                or (self.dtype is not None and t.dtype != self.dtype and t.is_floating_point()))

    def code(self) -> str:
        """This target as ``.to()``'s argument."""
        return f'"{self.device}"' if self.device is not None else str(self.dtype)


class Occ(NamedTuple):
    """One place a tensor was found."""

    t: Any
    slot: Slot | None  # None: the tensor keeps its identity (parameter, buffer, optimizer param)
    ref: Ref
    inplace: bool
    target: Target | None  # None: follows its owner (grads, optimizer state: set explicitly)
    unit: str
    note: str = ""
    explicit: tuple[Any, Any] | None = None  # (device, dtype) decided by the planner itself


class Walker:
    """Collects occurrences unit by unit; a refused unit contributes nothing but protection."""

    def __init__(self, torch: Any, namespace: dict[str, Any]) -> None:
        self.torch = torch
        self.ns = namespace
        self.Tensor = torch.Tensor
        self.Module = torch.nn.Module
        self.Optimizer = torch.optim.Optimizer
        self.Parameter = torch.nn.Parameter
        self.DataParallel = torch.nn.DataParallel
        self.RNNBase = torch.nn.RNNBase
        self.trust = Trust(torch)
        self.occ: list[Occ] = []
        self.links: list[tuple[Node, Slot]] = []
        self.nodes: dict[int, Node] = {}
        self.visited: set[tuple[int, int, int]] = set()
        self.optimizers: dict[int, tuple[Any, Ref, str, str]] = {}  # id -> (opt, ref, mode, unit)
        self.literals: list[tuple[Slot, Any]] = []
        self.protected: set[int] = set()
        self.refused: list[tuple[str, str]] = []
        self.notes: list[str] = []
        # NB: rows of changes that move no tensor (an optimizer remapped onto current parameters)
        self.extra_rows: list[tuple[str, str, str, int, int, str | None, str | None]] = []
        self.want: set[int] | None = None
        self.want_target: Target | None = None
        self.rnns: dict[int, Any] = {}  # NB: their _flat_weight_refs are the only weak refs
        self.aliases: Aliases | None = None  # NB: set for the last walk of a fix: views follow
        self.left: list[tuple[Ref, Target]] = []  # tensors in plain objects, not moved
        # NB: the report's order: how many names moved as columns (:mod:`._loose`) come before
        # the unit being walked; ``marks``: (index in ``occ``, seq) where it changes
        self.seq = 0
        self.marks: list[tuple[int, int]] = []

    # -- units
    def unit(self, name: str, label: str, target: Target, want: set[int] | None = None, *,
             quiet: bool = False) -> None:
        """Walk ``namespace[name]``; with ``want``, only objects whose id is in it are in scope.
        ``quiet``: a refused unit that holds nothing in scope is not reported (alias search)."""
        self.want, self.want_target = want, target
        self._u_occ: list[Occ] = []
        self._u_links: list[tuple[Node, Slot]] = []
        self._u_opts: list[tuple[Any, Ref, str]] = []
        self._u_lits: list[tuple[Slot, Any]] = []
        self._u_notes: list[str] = []
        self._u_rnns: list[Any] = []
        self._u_left: list[tuple[Ref, Target]] = []
        self._refusal = ""
        self._label = label
        obj = dict.get(self.ns, name)
        scope = target if want is None else None
        try:
            self.value(obj, Slot("map", self.ns, name), (Step("name", name),), scope, 0, "")
        except Exception as e:  # NB: a hostile object costs its own unit, never the move
            self._refusal = f"could not be inspected ({type(e).__name__})"
        if self._refusal:
            if not (quiet and not self._u_occ):
                self.refused.append((label, self._refusal))
            self.protected.update(id(o.t) for o in self._u_occ)
            return
        self._mark()
        self.occ += self._u_occ
        self.links += self._u_links
        self.literals += self._u_lits
        self.notes += self._u_notes
        self.rnns.update((id(m), m) for m in self._u_rnns)
        self.left += self._u_left
        for opt, ref, mode in self._u_opts:
            known = self.optimizers.get(id(opt))
            if known is None or _MODE_RANK[mode] > _MODE_RANK[known[2]]:
                self.optimizers[id(opt)] = (opt, ref, mode, label)

    def loose(self, name: str, t: Any, target: Target) -> None:
        """The fast path for ``unit``: a plain tensor bound to a name (most names, often)."""
        inplace = type(t) is self.Parameter
        self._mark()
        self.occ.append(Occ(t, None if inplace else Slot("map", self.ns, name),
                            (Step("name", name),), inplace, target, name))

    def _mark(self) -> None:
        if self.seq != (self.marks[-1][1] if self.marks else 0):
            self.marks.append((len(self.occ), self.seq))

    def seqs(self) -> Iterator[int]:
        """The ``seq`` of each occurrence, in order."""
        seq, k = 0, 0
        for start, s in self.marks:
            yield from repeat(seq, start - k)
            seq, k = s, start
        yield from repeat(seq, len(self.occ) - k)

    def refuse(self, reason: str) -> None:
        self._refusal = self._refusal or reason

    def _scope(self, obj: Any, scope: Target | None) -> Target | None:
        if self.want is not None and id(obj) in self.want:
            return self.want_target
        return scope

    # -- values
    def value(self, obj: Any, slot: Slot, ref: Ref, scope: Target | None, depth: int,
              note: str) -> None:
        tp = type(obj)
        scope = self._scope(obj, scope)
        if issubclass(tp, self.Tensor):
            self.tensor(obj, slot, ref, scope, issubclass(tp, self.Parameter), note)
        elif issubclass(tp, self.Module):
            self.module(obj, ref, scope, depth, note)
        elif issubclass(tp, self.Optimizer):
            self.optimizer(obj, ref, scope)
        else:
            kind = move_kind(obj)
            if kind is not None:
                self.container(obj, kind, slot, ref, scope, depth, note)
            elif scope is not None:
                self._u_left += [(r, scope) for r in held_by_object(self.torch, obj, ref)]

    def tensor(self, t: Any, slot: Slot | None, ref: Ref, scope: Target | None, inplace: bool,
               note: str) -> None:
        scope = self._scope(t, scope)
        if scope is None and self.aliases is not None:
            scope = self.aliases.follow(t, ref)
        if scope is None:
            return
        tp = type(t)
        if type_name(tp) == "DTensor":
            self.refuse("holds DTensors: their placement is managed by torch.distributed "
                        "(redistribute them instead)")
        why = self.trust(tp)
        if why:
            self.refuse(f"holds a tensor that cannot be moved safely: {why}, so devicelens "
                        f"cannot trust what it says; move it with its own .to()")
        self._u_occ.append(Occ(t, None if inplace else slot, ref, inplace, scope, self._label,
                               note))

    def container(self, obj: Any, kind: str, slot: Slot, ref: Ref, scope: Target | None,
                  depth: int, note: str) -> None:
        if depth > MAX_DEPTH:
            if scope is not None:
                self.refuse(f"nested deeper than {MAX_DEPTH} levels")
            return
        if _only_scalars(obj, kind):
            return
        frozen = kind in ("tuple", "namedtuple") or (
            kind == "set" and issubclass(type(obj), frozenset)) or (
            kind == "dataclass" and _tree.is_frozen_dataclass(type(obj)))
        node = None
        if frozen:
            node = self.nodes.get(id(obj))
            if node is None:
                node = self.nodes[id(obj)] = Node(obj, kind)
            self._u_links.append((node, slot))
        key = (id(obj), id(scope), id(self.want_target))
        if key in self.visited:
            return
        self.visited.add(key)
        found = len(self._u_occ)
        for child_slot, step, child in _children(obj, kind, node):
            # NB: rebinding a value hashes its dict key, or (in a set) the value itself
            hashed = child if kind == "set" else (
                child_slot.key if child_slot.kind == "map" else 0)
            if plain_key(hashed):
                self.value(child, child_slot, (*ref, step), scope, depth + 1, note)
                continue
            before = len(self._u_occ)
            self.value(child, child_slot, (*ref, step), scope, depth + 1, note)
            if len(self._u_occ) > before:
                self.refuse(_hashed_by_user(kind, hashed))
        if kind == "set" and frozen and len(self._u_occ) > found:
            # NB: rebuilding a frozenset hashes every item again
            loud = next((x for x in frozenset.__iter__(obj) if not plain_key(x)), _NONE)
            if loud is not _NONE:
                self.refuse(_hashed_by_user(kind, loud))

    # -- modules
    def module(self, m: Any, ref: Ref, scope: Target | None, depth: int, note: str) -> None:
        key = (id(m), id(scope), id(self.want_target))
        if key in self.visited:
            return
        self.visited.add(key)
        d = _tree.instance_dict(m) or {}
        if scope is not None and _dispatched(self.torch, d):
            # NB: keep walking: a refused unit's tensors are protected from every other unit
            self.refuse("dispatched by accelerate (hf_device_map / hooks): its layout is "
                        "intentional; change it with accelerate, not by moving it")
        if scope is not None and _tree.is_script(m):
            # NB: its tensors live in a C++ module that a swap or a rebind cannot reach
            where = f'"{scope.device}"' if scope.device is not None else "..."
            self.refuse(f"is a TorchScript module (torch.jit.script / trace): devicelens does "
                        f"not move its tensors; use its own .to(): "
                        f"{_tree.code_for(ref)}.to({where})")
        if scope is not None and scope.device is not None:
            self._wrapper(m, d, ref, scope.device)
            if scope.device.type == "meta" and (depth == 0 or id(m) in (self.want or ())):
                self._empty_weights(m)
        if scope is not None and issubclass(type(m), self.RNNBase):
            self._u_rnns.append(m)
        parts = _tree.module_parts(m)
        for name, p in parts.params:
            self.tensor(p, None, (*ref, Step("attr", name)), scope, True, note)
        for name, b in parts.buffers:
            self.tensor(b, None, (*ref, Step("attr", name)), scope, True, note)
        for name, child in parts.children:
            self.module(child, (*ref, Step("attr", name, parts.hint)), self._scope(child, scope),
                        depth + 1, note)
        for name, v in parts.attrs:
            self._attr(m, d, name, v, (*ref, Step("attr", name)), scope, depth, note)

    def _attr(self, m: Any, d: dict[str, Any], name: str, v: Any, ref: Ref,
              scope: Target | None, depth: int, note: str) -> None:
        """A plain module attribute: a trap when it holds tensors or modules ``.to()`` misses."""
        tp = type(v)
        if one_of(tp, _SCALARS):
            return
        scope = self._scope(v, scope)
        if issubclass(tp, self.Tensor):
            self.tensor(v, Slot("map", d, name), ref, scope, issubclass(tp, self.Parameter),
                        note or _trap_tensor_note(ref))
        elif issubclass(tp, self.Module):
            self.module(v, ref, scope, depth + 1, note)
        elif not issubclass(tp, self.Optimizer):
            kind = move_kind(v)
            if kind is not None:
                holds = _holds_module(v, kind, self.Module)
                self.container(v, kind, Slot("map", d, name), ref, scope, depth + 1,
                               note or _trap_container_note(ref, kind, holds))

    def _empty_weights(self, m: Any) -> None:
        """NB: a model built with empty weights (parameters on meta, buffers with data) keeps
        buffers no checkpoint holds (rotary ``inv_freq``): moving them to meta destroys them."""
        params: list[Any] = []
        real: list[str] = []
        for sub in _tree.submodules(m):
            parts = _tree.module_parts(sub)
            params += [p for _n, p in parts.params]
            real += [n for n, b in parts.buffers if b.device.type != "meta"]
        if params and real and all(p.device.type == "meta" for p in params):
            self.refuse(f"has empty weights (parameters on meta) and buffers with data "
                        f"({', '.join(dict.fromkeys(real[:3]))}) that no checkpoint restores: "
                        f"moving them to meta would destroy them; load its weights instead "
                        f"(accelerate's load_checkpoint_and_dispatch, or "
                        f"load_state_dict(..., assign=True))")

    def _wrapper(self, m: Any, d: dict[str, Any], ref: Ref, device: Any) -> None:
        names = {type_name(k) for k in type.__getattribute__(type(m), "__mro__")}
        code = _tree.code_for(ref)
        if "DistributedDataParallel" in names:
            self.refuse(f"DistributedDataParallel is bound to its process group; re-create it: "
                        f"{code} = DistributedDataParallel({code}.module.to(\"{device}\"), "
                        f"device_ids=[{device.index}])")
            return
        if not issubclass(type(m), self.DataParallel):
            return
        ids = d.get("device_ids")
        if type(ids) is not list or not ids:
            return  # a DataParallel built without CUDA just calls its module
        if device.type != "cuda":
            self.refuse(f"DataParallel needs CUDA devices; unwrap it: "
                        f"{code} = {code}.module.to(\"{device}\")")
            return
        k = device.index
        if k not in ids:
            self.refuse(f"DataParallel over device_ids={ids} cannot run on cuda:{k}; re-wrap it: "
                        f"{code} = torch.nn.DataParallel({code}.module.to(\"cuda:{k}\"), "
                        f"device_ids={[k, *ids]}, output_device={k})")
            return
        new_ids = [k, *(i for i in ids if i != k)]
        out = d.get("output_device")
        new_out = k if out == ids[0] else out
        if new_ids != ids or new_out != out:
            self._u_lits += [(Slot("map", d, "device_ids"), new_ids),
                             (Slot("map", d, "output_device"), new_out),
                             (Slot("map", d, "src_device_obj"), self.torch.device("cuda", k))]
            self._u_notes.append(f"{_tree.display_for(ref)}.device_ids reordered to {new_ids} "
                                 f"(output_device={new_out}) so its module lives on "
                                 f"device_ids[0].")

    # -- optimizers
    def optimizer(self, opt: Any, ref: Ref, scope: Target | None) -> None:
        """Params of an optimizer in scope move in place; its state is planned afterwards."""
        self._u_opts.append((opt, ref, "move" if scope is not None else "follow"))
        if scope is None:
            return
        for g, i, p in optimizer_params(opt, self.Tensor):
            self.tensor(p, None, (*ref, Step("group_param", (g, i))), scope, True, "")


def optimizer_params(opt: Any, tensor_type: type) -> list[tuple[int, int, Any]]:
    d = _tree.instance_dict(opt) or {}
    groups = d.get("param_groups")
    out: list[tuple[int, int, Any]] = []
    for g, group in enumerate(groups if type(groups) is list else ()):
        params = dict.get(group, "params") if issubclass(type(group), dict) else None
        for i, p in enumerate(params if type(params) is list else ()):
            if issubclass(type(p), tensor_type):
                out.append((g, i, p))
    return out


_NONE = object()


def _hashed_by_user(kind: str, key: Any) -> str:
    where = "in a set whose __hash__ or __eq__ is their" if kind == "set" else (
        "under a dict key whose __hash__ or __eq__ is its")
    return f"holds tensors {where} own code (a {type_name(type(key))})"


def _dispatched(torch: Any, d: dict[str, Any]) -> bool:
    devmap = d.get("hf_device_map")
    multi = type(devmap) is dict and len({_placement(torch, v)
                                          for v in dict.values(devmap)}) > 1
    return multi or "_hf_hook" in d


def _placement(torch: Any, v: Any) -> Any:
    """An ``hf_device_map`` value as a comparable key, without running user code (``str`` of an
    unknown object would): accelerate writes ints, strings and ``torch.device``s; anything else
    counts as a placement of its own."""
    tp = type(v)
    if tp is str or tp is int:
        return v
    if tp is torch.device:
        return str(v)
    return ("unknown", id(v))


def _trap_tensor_note(ref: Ref) -> str:
    owner, name, code = _tree.code_for(ref[:-1]), str(ref[-1].key), _tree.code_for(ref)
    return (f"{_tree.display_for(ref)} is a plain tensor attribute, so the next {owner}.to() "
            f"will leave it behind again. Make it a buffer: _t = {code}; {_tree.del_code(code)}; "
            f"{owner}.register_buffer({_tree.str_literal(name)}, _t, persistent=False)")


def _trap_container_note(ref: Ref, kind: str, holds_modules: bool) -> str:
    code = _tree.code_for(ref)
    if holds_modules:
        wrap = "ModuleDict" if kind in ("dict", "userdict") else "ModuleList"
        return (f"{_tree.display_for(ref)} holds modules in a plain {kind}: .to(), .parameters() "
                f"and state_dict() miss them. Make it permanent: "
                f"{code} = torch.nn.{wrap}({code})")
    return (f"{_tree.display_for(ref)} holds tensors in a plain {kind}: .to() misses them. "
            f"Register each with register_buffer (or use torch.nn.ParameterList).")
