"""Tensors that are another tensor's data under a new Python object: ``state_dict()`` values,
``p.detach()``, ``p.data``. Identity misses them; their storage and layout give them away.

NB: metadata only: the storage's C pointer (``_cdata``, a storage object and not its data),
offset, shape, stride, dtype and device; no data is read, no GPU syncs, no user code runs. Works
the same for cpu, meta and fake cuda tensors (their storages are distinct objects too).
"""

from __future__ import annotations

import math
from typing import Any

Key = tuple[int, int, tuple[int, ...], tuple[int, ...], str, str]


def layout_key(t: Any) -> Key | None:
    """What makes two tensors the same data seen the same way; None when ``t`` has no plain
    storage (sparse, nested, wrapper subclasses) or refuses."""
    import torch

    base: Any = torch._C.TensorBase
    try:
        with torch._C.DisableTorchFunctionSubclass():
            storage = base.untyped_storage(t)
            return (int(storage._cdata), int(base.storage_offset(t)), tuple(base.size(t)),
                    tuple(base.stride(t)), str(base.dtype.__get__(t)),
                    str(base.device.__get__(t)))
    except Exception:
        return None


def region(t: Any) -> tuple[int, int, str] | None:
    """Which elements of its storage ``t`` sees, as (offset, count, dtype): two views of one
    base with equal regions are the same elements reshaped. None when ``t`` refuses."""
    key = layout_key(t)
    return (key[1], math.prod(key[2]), key[4]) if key is not None else None


class SharedIndex:
    """layout key -> the first object given for it (callers give the best name first)."""

    def __init__(self) -> None:
        self._by_key: dict[Key, Any] = {}

    def add(self, t: Any, value: Any) -> None:
        key = layout_key(t)
        if key is not None and key not in self._by_key:
            self._by_key[key] = value

    def get(self, t: Any) -> Any:
        key = layout_key(t)
        return self._by_key.get(key) if key is not None else None
