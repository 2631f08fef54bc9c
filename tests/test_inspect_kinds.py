"""Every kind of holder is walked, no user code runs while walking, and no torch warning shows.

Regression tests for hostile inputs: containers the walk used to skip (deque, UserList, UserDict,
ChainMap, SimpleNamespace, a module with a non-``str`` key in its ``__dict__``), tensor subclass
properties, a dataclass's ``__class__`` property or ``__getattribute__``, a metaclass's
``__getattribute__``, a subclass's own ``__torch_dispatch__``, and a non-leaf tensor's ``.grad``.
"""

from __future__ import annotations

import collections
import dataclasses
import types
import warnings
from typing import Any

import torch
from torch import nn

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.inspect._live import Live
from devicelens.inspect._tree import resolve

CALLED: list[str] = []


def paths(snap: Any, name: str) -> dict[str, Any]:
    return {t.path: t for t in snap[name].tensors}


# --- H: holders the walk reaches ------------------------------------------------------------

def test_every_standard_holder_is_walked_and_its_paths_resolve() -> None:
    a, b, c, d, e = (torch.ones(n) for n in range(1, 6))
    ns = {"dq": collections.deque([a, b]), "ul": collections.UserList([c]),
          "ud": collections.UserDict({"k": d}), "cm": collections.ChainMap({"x": e}, {"y": a}),
          "sn": types.SimpleNamespace(w=b, n=3)}
    snap = take_snapshot(ns)
    assert set(paths(snap, "dq")) == {"dq[0]", "dq[1]"}
    assert set(paths(snap, "ul")) == {"ul[0]"}
    assert set(paths(snap, "ud")) == {"ud['k']"}
    assert set(paths(snap, "cm")) == {"cm['x']", "cm['y']"}  # NB: as the map reads them (main)
    assert set(paths(snap, "sn")) == {"sn.w"}
    # NB: moves find every one of them again by its ref
    found = {t.path: resolve(ns, t.ref) for o in snap.objects for t in o.tensors}
    assert found["dq[1]"] is b and found["ul[0]"] is c and found["ud['k']"] is d
    assert found["cm['x']"] is e and found["cm['y']"] is a
    assert found["sn.w"] is b
    assert snap["dq"].nbytes == 4 * 3 and snap["cm"].devices == ("cpu",)


def test_a_module_with_a_non_string_key_in_its_dict_is_still_walked() -> None:
    m = nn.Linear(2, 3)
    m.__dict__[7] = torch.ones(1)  # NB: only reachable through __dict__, never by attribute
    snap = take_snapshot({"m": m})
    assert snap.skipped == ()
    assert set(paths(snap, "m")) == {"m.weight", "m.bias"}
    assert snap["m"].nbytes == (6 + 3) * 4


# --- D: no user code runs -------------------------------------------------------------------

class Spy(torch.Tensor):
    """A subclass whose metadata properties lie and record that they ran."""

    @property
    def device(self) -> Any:  # type: ignore[override]
        CALLED.append("device")
        return torch.device("meta")

    @property
    def dtype(self) -> Any:  # type: ignore[override]
        CALLED.append("dtype")
        return torch.int8

    @property
    def shape(self) -> Any:  # type: ignore[override]
        CALLED.append("shape")
        return torch.Size([99])

    @property
    def grad(self) -> Any:  # type: ignore[override]
        CALLED.append("grad")
        return None


class Dispatching(torch.Tensor):
    """A subclass with its own __torch_dispatch__: its answers would be its own code."""

    @classmethod
    def __torch_dispatch__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        CALLED.append(f"dispatch:{func}")
        return func(*args, **(kwargs or {}))


@dataclasses.dataclass
class ClassProperty:
    t: torch.Tensor

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        CALLED.append("__class__")
        return list


@dataclasses.dataclass
class Getattribute:
    t: torch.Tensor

    def __getattribute__(self, name: str) -> Any:
        CALLED.append(f"getattribute:{name}")
        return object.__getattribute__(self, name)


class LoudMeta(type):
    def __getattribute__(cls, name: str) -> Any:
        CALLED.append(f"meta:{name}")
        return type.__getattribute__(cls, name)

    def __eq__(cls, other: object) -> bool:
        CALLED.append("meta:__eq__")
        return type.__eq__(cls, other)

    __hash__ = type.__hash__


class Holder(metaclass=LoudMeta):
    def __init__(self) -> None:
        self.t = torch.ones(2)


def test_no_user_code_runs_while_walking_hostile_objects() -> None:
    leaf = torch.ones(3).as_subclass(Spy).requires_grad_()
    torch._C.TensorBase.grad.__set__(leaf, torch.zeros(3))  # NB: Spy's own grad has no setter
    ns = {"spy": torch.ones(2, 3).as_subclass(Spy), "spy_param": leaf,
          "disp": torch.ones(4).as_subclass(Dispatching), "cp": ClassProperty(torch.ones(5)),
          "ga": Getattribute(torch.ones(6)), "holder": Holder(), "cls": Holder,
          "box": {"inner": ClassProperty(torch.ones(1))}}
    CALLED.clear()
    snap = take_snapshot(ns)
    diagnose(snap)
    Live().update(ns)
    assert CALLED == []
    spy = snap["spy"].tensors[0]
    # NB: a class that redefines metadata is never read (an opaque row), its device from the
    # C header, not from what its property claims
    assert (spy.device, spy.dtype, spy.shape, spy.flavor) == ("cpu", "?", (), "opaque")
    assert [t.path for t in snap["spy_param"].tensors] == ["spy_param"]
    disp = snap["disp"].tensors[0]
    assert (disp.flavor, disp.device) == ("opaque", "?")
    assert [t.path for t in snap["cp"].tensors] == ["cp.t"]
    assert [t.path for t in snap["ga"].tensors] == ["ga.t"]
    assert "holder" not in snap and "cls" not in snap  # a plain object: not walked, not called
    assert [t.path for t in snap["box"].tensors] == ["box['inner'].t"]


# --- J: no warning from torch ---------------------------------------------------------------

def test_a_non_leaf_tensor_never_triggers_the_grad_warning() -> None:
    w = torch.ones(3, requires_grad=True)
    loss = (w * 2).sum()
    kept = w * 3
    kept.retain_grad()
    kept.sum().backward()
    ns = {"w": w, "loss": loss, "kept": kept, "batch": {"loss": loss}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        snap = take_snapshot(ns)
        Live().update(ns)
    assert [str(c.message) for c in caught] == []
    assert [t.path for t in snap["loss"].tensors] == ["loss"]
    assert snap["loss"].tensors[0].is_leaf is False
    # NB: a non-leaf that retains its grad keeps one, and it is shown
    assert [t.path for t in snap["kept"].tensors] == ["kept", "kept.grad"]
    assert [t.path for t in snap["w"].tensors] == ["w", "w.grad"]


def test_an_item_of_torchs_module_containers_resolves_from_its_table() -> None:
    """``layers["I"]``, ``blocks[-1]``, ``params[0]`` of torch's module containers read their
    tables as the containers' own ``__getitem__`` does (a user's ``self.layers[l]``, followed
    by the guard); a subclass's own ``__getitem__`` is never run, and nothing resolves."""
    from devicelens.inspect._tree import Step

    class Picky(nn.ModuleList):
        def __getitem__(self, i: Any) -> Any:
            CALLED.append("Picky.__getitem__")
            return super().__getitem__(i)

    CALLED.clear()
    first, last = nn.Linear(1, 1), nn.Linear(1, 2)
    w = nn.Parameter(torch.zeros(1))
    ns = {"layers": nn.ModuleDict({"I": first}), "blocks": nn.Sequential(first, last),
          "params": nn.ParameterList([w]), "picky": Picky([first])}

    def at(name: str, key: Any) -> Any:
        return resolve(ns, (Step("name", name), Step("item", key)))

    assert at("layers", "I") is first
    assert at("blocks", -1) is last and at("blocks", 0) is first
    assert at("params", 0) is w
    for name, key in (("layers", "O"), ("blocks", 2), ("layers", 0), ("picky", 0)):
        try:
            at(name, key)
        except LookupError:
            continue
        raise AssertionError(f"{name}[{key!r}] resolved")
    assert CALLED == []
