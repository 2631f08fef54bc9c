"""One tensor's header -> its record, through torch's C accessors only.

NB: exact ``torch.Tensor``/``Parameter`` are read with plain attribute access (their getters are
torch's C code); any subclass is read through ``torch._C.TensorBase``'s own descriptors, so a
subclass property never runs; one whose class redefines metadata (:mod:`._trust`) or whose
``__torch_dispatch__`` is not torch's is not read at all (its own code could answer): an
opaque row, its device from the C header ("?" where its own dispatch could answer that too).
Every value kept is plain (``str``, ``int``, a ``torch.Size`` of ``int``s): a symbolic size
makes the shape ``()``. ``.grad`` is read only where torch keeps one (a leaf, or
``retain_grad()``), so a non-leaf tensor such as ``loss`` never triggers torch's warning.
"""

from __future__ import annotations

import sys
from math import prod
from operator import attrgetter
from typing import Any

from . import _types
from ._trust import Trust
from .records import TensorRecord, device_name, dtype_info

#: what a tensor's record is built from, in one C call; NB: ``_base`` is turned into an id
#: before anything is kept (holding it would keep the base tensor alive)
META_NAMES = ("device", "dtype", "shape", "layout", "requires_grad", "is_leaf", "_base")
_META = attrgetter(*META_NAMES)
_new = tuple.__new__  # NB: several times cheaper than TensorRecord(...)
_FLAVORS = {"FakeTensor": "fake", "DTensor": "dtensor", "FunctionalTensor": "subclass"}
_LAYOUTS: dict[Any, str] = {}


class TensorReader:
    """Reads tensor headers for one snapshot: torch's types and C getters, looked up once."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.exact = (torch.Tensor, torch.nn.Parameter)
        self.strided = torch.strided
        base = torch._C.TensorBase.__dict__
        self.c_get = tuple(base[n].__get__ for n in META_NAMES)
        self.c_grad = base["grad"].__get__
        self.c_retains = base["retains_grad"].__get__
        self.c_nested = base["is_nested"].__get__
        self.c_numel = base["numel"]
        self._foreign: dict[int, tuple[type, bool]] = {}
        self.trust = Trust(torch)  # NB: a class redefining metadata (.device...) is never read

    def meta(self, t: Any) -> tuple[Any, ...] | None:
        """(device, dtype, shape, layout, requires_grad, is_leaf, id of base or None), or None
        when this tensor cannot be read without running code that is not torch's. NB: the shape
        is None for a nested tensor, ``()`` where a size is symbolic."""
        tp = type(t)
        exact = tp is self.exact[0] or tp is self.exact[1]
        if not exact and (self.foreign(tp) or self.trust(tp)):
            return None
        try:
            m = _META(t) if exact else tuple(get(t) for get in self.c_get)
        except RuntimeError:  # NB: a nested tensor has no sizes
            if not self.c_nested(t):
                raise
            m = tuple(None if i == 2 else get(t) for i, get in enumerate(self.c_get))
        b = m[6]
        if b is not None:
            m = (*m[:6], id(b))
        if not exact and m[2] is not None and not all(type(d) is int for d in m[2]):
            m = (m[0], m[1], None if self.c_nested(t) else (), *m[3:])
        return m

    def foreign(self, tp: type) -> bool:
        """Whether a tensor subclass brings its own ``__torch_dispatch__`` (not torch's)."""
        entry = self._foreign.get(id(tp))
        if entry is None or entry[0] is not tp:
            entry = self._foreign[id(tp)] = (tp, _foreign_dispatch(tp))
        return entry[1]

    def grad(self, t: Any, m: tuple[Any, ...]) -> Any:
        """``t.grad`` where torch keeps one, else None; never a subclass's ``grad`` property."""
        if not m[4]:
            return None
        if not m[5] and not self.c_retains(t):
            return None
        return self.c_grad(t)

    def record(self, t: Any, m: tuple[Any, ...] | None, path: str, ref: Any, role: str,
               owner: str) -> TensorRecord:
        tp = type(t)
        if m is None:
            return TensorRecord(path, ref, role, owner, self.opaque_device(t), "?", (), 0, 0,
                                False, True, "?", "opaque", id(t))
        device, dtype, shape, layout, rg, leaf, base = m
        dtname, itemsize, quantized = dtype_info(dtype)
        flavor = ("dense" if tp is self.exact[0] or tp is self.exact[1]
                  else _FLAVORS.get(_types.info(tp).name, "subclass"))
        if shape is None:
            flavor, shape = "nested", ()
            numel = self.c_numel(t)
            numel = numel if type(numel) is int else 0
        elif layout is not self.strided:
            flavor, numel = "sparse", prod(shape)
        else:
            numel = prod(shape)
            if quantized:
                flavor = "quantized"
        return _new(TensorRecord, (path, ref, role, owner, device_name(device), dtname, shape,
                                   numel, numel * itemsize, rg, leaf, _layout(layout), flavor,
                                   id(t) if base is None else base))

    def opaque_device(self, t: Any) -> str:
        """The device from the C tensor header itself, where reading it runs no other code."""
        if self.foreign(type(t)):
            return "?"
        try:
            return device_name(self.c_get[0](t))
        except Exception:
            return "?"


def _layout(layout: Any) -> str:
    name = _LAYOUTS.get(layout)
    if name is None:
        name = _LAYOUTS[layout] = str(layout).removeprefix("torch.")
    return name


def _foreign_dispatch(tp: type) -> bool:
    for klass in _types.type_mro(tp):
        d = _types._TDICT(klass)
        if "__torch_dispatch__" in d:
            module = d.get("__module__")
            return not (type(module) is str and (module == "torch" or module.startswith("torch.")))
    return False


def torch_module() -> Any:
    return sys.modules["torch"]
