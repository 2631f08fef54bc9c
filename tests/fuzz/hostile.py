"""What the fuzz namespaces are made of besides torch's own objects: hostile objects that record
every call into their code (in :data:`CALLS`) and then raise, a well-behaved tensor subclass, and
plain containers (namedtuple, dataclasses, a module holding anything)."""

from __future__ import annotations

import collections
import dataclasses
import enum
from typing import Any

import torch
from torch import nn

#: every call into user code lands here ("torch_function:…" from the benign subclass)
CALLS: list[str] = []


class Boom(Exception):
    pass


# --- hostile objects ------------------------------------------------------------------------

class RaisingProps:
    """Looks like a model: properties and dunders that record, then raise."""

    @property
    def weight(self) -> Any:
        CALLS.append("property")
        raise Boom

    def __getattr__(self, name: str) -> Any:
        CALLS.append(f"getattr:{name}")
        raise Boom

    def __eq__(self, other: object) -> bool:
        CALLS.append("eq")
        raise Boom

    def __hash__(self) -> int:
        CALLS.append("hash")
        raise Boom

    def __repr__(self) -> str:
        CALLS.append("repr")
        raise Boom


class AnswersAnything:
    """A ``__getattr__`` proxy that claims to be a tensor through ``__class__``."""

    def __getattr__(self, name: str) -> Any:
        CALLS.append(f"getattr:{name}")
        return self

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        CALLS.append("__class__")
        return torch.Tensor


class HostileDict(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        CALLS.append("dict.items")
        raise Boom

    def __iter__(self) -> Any:
        CALLS.append("dict.iter")
        raise Boom

    def __getitem__(self, k: Any) -> Any:
        CALLS.append("dict.getitem")
        raise Boom

    def __setitem__(self, k: Any, v: Any) -> None:
        CALLS.append("dict.setitem")
        raise Boom

    def __len__(self) -> int:
        CALLS.append("dict.len")
        raise Boom


class HostileList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        CALLS.append("list.iter")
        raise Boom

    def __getitem__(self, i: Any) -> Any:
        CALLS.append("list.getitem")
        raise Boom

    def __setitem__(self, i: Any, v: Any) -> None:
        CALLS.append("list.setitem")
        raise Boom

    def __len__(self) -> int:
        CALLS.append("list.len")
        raise Boom


class HostileModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.cache = torch.ones(3)

    def __getattr__(self, name: str) -> Any:
        CALLS.append(f"module getattr:{name}")
        raise Boom

    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" in self.__dict__ and name not in ("fc", "cache"):
            CALLS.append(f"module setattr:{name}")
        super().__setattr__(name, value)


@dataclasses.dataclass
class ClassProp:
    """A dataclass whose ``__class__`` is a property (issue 12 D)."""

    t: Any

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # type: ignore[override]
        CALLS.append("dataclass __class__")
        raise Boom


@dataclasses.dataclass
class GetAttribute:
    """A dataclass with its own ``__getattribute__`` (issue 12 D)."""

    t: Any

    def __getattribute__(self, name: str) -> Any:
        if name != "__dict__":
            CALLS.append(f"dataclass getattribute:{name}")
        return object.__getattribute__(self, name)


class LoudMeta(type):
    def __getattribute__(cls, name: str) -> Any:
        if name not in ("__dict__", "__mro__"):
            CALLS.append(f"metaclass getattribute:{name}")
        return type.__getattribute__(cls, name)


class MetaHeld(metaclass=LoudMeta):
    """An object whose class's metaclass runs code on every class attribute read."""

    def __init__(self, t: Any) -> None:
        self.t = t


class LoudEqMeta(type):
    """A metaclass whose classes claim to equal, and hash like, any class: ``type(x) in
    (...)``, ``types.count(dict)`` or a set of types would run it."""

    def __eq__(cls, other: object) -> bool:
        CALLS.append("metaclass eq")
        return True

    def __hash__(cls) -> int:
        CALLS.append("metaclass hash")
        return hash(dict)


class EqHeld(metaclass=LoudEqMeta):
    """An object whose class claims to be every class it is compared with."""

    def __init__(self, t: Any) -> None:
        self.t = t


class LoudEqTensor(torch.Tensor):
    """A tensor subclass equal to anything, ``None`` included: an exact tensor can be a view of
    one, and ``_base == None`` would then run it."""

    def __eq__(self, other: object) -> Any:
        CALLS.append("tensor eq")
        return True

    __hash__ = torch.Tensor.__hash__


def view_of_loud_eq() -> torch.Tensor:
    """An exact ``torch.Tensor`` whose ``_base`` is a :class:`LoudEqTensor`."""
    base = torch.Tensor._make_subclass(LoudEqTensor, torch.ones(4))
    with torch._C.DisableTorchFunction():
        return base.view(2, 2)


class LoudKey:
    def __hash__(self) -> int:
        CALLS.append("key hash")
        return 7

    def __eq__(self, other: object) -> bool:
        CALLS.append("key eq")
        return self is other


class HostileTensor(torch.Tensor):
    """A tensor subclass whose metadata is user code that raises."""

    @property
    def device(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor device")
        raise Boom

    @property
    def dtype(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor dtype")
        raise Boom

    @property
    def shape(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor shape")
        raise Boom

    @property
    def grad(self) -> Any:  # type: ignore[override]
        CALLS.append("tensor grad")
        raise Boom

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        CALLS.append(f"tensor torch_function:{getattr(func, '__name__', '?')}")
        raise Boom


class OwnHashTensor(torch.Tensor):
    """A tensor subclass that hashes by its own code (issue 38 item 3): in a set, moving it
    would hash it, and a meta copy refuses to be hashed."""

    def __hash__(self) -> int:
        CALLS.append("tensor hash")
        if torch._C.TensorBase.device.__get__(self).type == "meta":
            raise Boom
        return id(self)


class LoudHashTensorMeta(torch._C._TensorMeta):
    """A tensor metaclass whose classes hash and compare by user code (issue 38 item 10)."""

    def __hash__(cls) -> int:
        CALLS.append("tensor metaclass hash")
        return 1

    def __eq__(cls, other: object) -> bool:
        CALLS.append("tensor metaclass eq")
        return cls is other


class MetaHashTensor(torch.Tensor, metaclass=LoudHashTensorMeta):
    """A plain tensor subclass whose class hashes by user code."""


class LoudFrozenSet(frozenset):  # type: ignore[type-arg]
    """A frozenset subclass whose constructor and hash are user code (issue 38 item 10)."""

    def __new__(cls, items: Any = ()) -> LoudFrozenSet:
        CALLS.append("frozenset new")
        return super().__new__(cls, items)

    def __hash__(self) -> int:
        CALLS.append("frozenset hash")
        return 5


@dataclasses.dataclass(frozen=True)
class LoudFrozenBox:
    """A frozen dataclass whose copy protocol is user code (issue 38 item 10)."""

    a: Any
    b: Any = None

    def __reduce_ex__(self, protocol: Any) -> Any:
        CALLS.append("reduce_ex")
        raise Boom

    def __copy__(self) -> Any:
        CALLS.append("copy")
        raise Boom


class BenignTensor(torch.Tensor):
    """A well-behaved subclass (like torchvision's tv_tensors): its ``__torch_function__`` is
    the one user code a real move of it may run."""

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        CALLS.append(f"torch_function:{getattr(func, '__name__', '?')}")
        return super().__torch_function__(func, types, args, kwargs or {})


class Split(enum.Enum):
    TRAIN = 1
    VAL = 2


Pair = collections.namedtuple("Pair", "a b")


@dataclasses.dataclass
class Box:
    a: Any
    b: Any = None


@dataclasses.dataclass(frozen=True)
class FrozenBox:
    a: Any
    b: Any = None


class Holder(nn.Module):
    """A module holding arbitrary children as plain attributes (traps)."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__()
        self.fc = nn.Linear(2, 2)
        for i, v in enumerate(items):  # NB: by type only: isinstance would ask __class__
            if issubclass(type(v), (nn.Module, torch.Tensor)):
                setattr(self, f"a{i}", v)
            else:
                object.__setattr__(self, f"a{i}", v)
