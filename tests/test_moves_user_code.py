"""No user code runs while inspecting or moving (issue 38, item 10): a tensor subclass whose
metaclass hashes by its own code, ``hf_device_map`` values that print by their own code, a frozen
dataclass with its own copy protocol, a frozenset subclass with its own ``__new__``/``__hash__``."""

from __future__ import annotations

import dataclasses
from typing import Any

import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot

CALLS: list[str] = []


class LoudMeta(torch._C._TensorMeta):
    def __hash__(cls) -> int:
        CALLS.append("metaclass hash")
        return 1

    def __eq__(cls, other: object) -> bool:
        CALLS.append("metaclass eq")
        return cls is other


class Marked(torch.Tensor, metaclass=LoudMeta):
    pass


def test_a_tensor_subclass_whose_metaclass_hashes_is_read_and_moved_without_hashing_it() -> None:
    t = torch.ones(3).as_subclass(Marked)
    ns = {"t": t, "box": [t, torch.zeros(2)]}
    CALLS.clear()
    snap = take_snapshot(ns)
    diagnose(snap)
    assert [r.path for r in snap.tensors()] == ["t", "box[0]", "box[1]"]
    report = moves.move_all("meta", ns)
    assert CALLS == []
    assert report.ok and ns["t"].device.type == "meta" and type(ns["t"]) is Marked
    assert ns["box"][0] is ns["t"]


class Placement:
    """An ``hf_device_map`` value that is no device: printing it is user code."""

    def __str__(self) -> str:
        CALLS.append("str")
        return "cuda:0"

    __repr__ = __str__

    def __hash__(self) -> int:
        CALLS.append("hash")
        return 0


def test_hf_device_map_values_are_compared_without_printing_them() -> None:
    plain, odd = nn.Linear(2, 2), nn.Linear(2, 2)
    plain.hf_device_map = {"": 0, "lm_head": torch.device("cpu")}  # type: ignore[assignment]
    odd.hf_device_map = {"a": Placement(), "b": Placement()}  # type: ignore[assignment]
    CALLS.clear()
    report = moves.move_all("meta", {"plain": plain, "odd": odd})
    assert CALLS == []
    why = ("dispatched by accelerate (hf_device_map / hooks): its layout is intentional; "
           "change it with accelerate, not by moving it")
    # NB: two placements that cannot be read are two placements: refused, not guessed
    assert not report.ok and report.refused == (("plain", why), ("odd", why))
    one = nn.Linear(2, 2)
    one.hf_device_map = {"": 0, "b": 0}  # type: ignore[assignment]
    assert moves.move_all("meta", {"one": one}).ok and one.weight.device.type == "meta"


@dataclasses.dataclass(frozen=True)
class Frozen:
    x: Any
    label: str = "batch"

    def __reduce_ex__(self, protocol: Any) -> Any:
        CALLS.append("reduce_ex")
        raise RuntimeError("no copies")

    def __copy__(self) -> Any:
        CALLS.append("copy")
        raise RuntimeError("no copies")


@dataclasses.dataclass(frozen=True, slots=True)
class Slotted:
    x: Any
    n: int = 3

    def __reduce_ex__(self, protocol: Any) -> Any:
        CALLS.append("reduce_ex")
        raise RuntimeError("no copies")


def test_a_frozen_dataclass_is_rebuilt_without_its_copy_protocol() -> None:
    t = torch.ones(2)
    f, s = Frozen(t), Slotted(t)
    object.__setattr__(f, "extra", 5)
    ns = {"f": f, "s": s}
    CALLS.clear()
    report = moves.move_all("meta", ns)
    assert CALLS == []
    assert report.ok
    nf, nsl = ns["f"], ns["s"]
    assert type(nf) is Frozen and nf is not f and nf.x.device.type == "meta"
    assert (nf.label, nf.__dict__["extra"]) == ("batch", 5)
    assert type(nsl) is Slotted and nsl.x is nf.x and nsl.n == 3
    assert f.x is t and t.device.type == "cpu"  # the old ones are untouched


class Tags(frozenset):  # type: ignore[type-arg]
    def __new__(cls, items: Any = ()) -> Tags:
        CALLS.append("new")
        return super().__new__(cls, items)

    def __init__(self, items: Any = ()) -> None:
        CALLS.append("init")

    def __hash__(self) -> int:
        CALLS.append("hash")
        return 9


def test_a_frozenset_subclass_is_rebuilt_without_its_new_or_hash() -> None:
    t = torch.ones(2)
    tags = Tags([t, "a"])
    tags.note = "kept"  # type: ignore[attr-defined]
    ns = {"tags": tags, "t": t}
    CALLS.clear()
    report = moves.move_all("meta", ns)
    assert CALLS == []
    assert report.ok
    new = ns["tags"]
    assert type(new) is Tags and new is not tags and new.note == "kept"  # type: ignore[attr-defined]
    assert sorted(type(x).__name__ for x in frozenset.__iter__(new)) == ["Tensor", "str"]
    assert [x for x in frozenset.__iter__(new) if type(x) is torch.Tensor] == [ns["t"]]
    assert ns["t"].device.type == "meta"
