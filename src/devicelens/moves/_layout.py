"""How a move keeps a tensor's layout: which tensors share a storage it can rebuild, how much
of a storage a tensor reaches, and the new copies (phase 1 of :mod:`._apply`) that keep each
storage's size and each view's strides. NB: runs no user code."""

from __future__ import annotations

import sys
from typing import Any

from ..inspect._trust import type_name
from ._keys import is_fake


def groupable(torch: Any, t: Any) -> bool:
    """Whether ``t`` is a plain strided tensor whose storage, offset and strides a move can
    rebuild (no conjugate or negative bit a rebuilt view would lose)."""
    tp = type(t)
    return ((tp is torch.Tensor or tp is torch.nn.Parameter or type_name(tp) == "FakeTensor")
            and t.layout is torch.strided and not t.is_quantized and not t.is_nested
            and not t.is_conj() and not t.is_neg())


def span(t: Any) -> int:
    """How many elements of its storage ``t`` reaches from its offset: what a lone tensor's move
    copies. NB: strides are never negative; a broadcast dimension (stride 0) adds nothing."""
    if t.numel() == 0:
        return 0
    return 1 + sum(int((n - 1) * s) for n, s in zip(t.shape, t.stride(), strict=True))


def strided_copy(torch: Any, t: Any) -> bool:
    """Whether a lone ``t`` moves as the span it reaches, strides kept, rather than as ``.to()``
    would copy it (a broadcast tensor materialised, a sliced one made contiguous)."""
    return groupable(torch, t) and not t.is_contiguous()


def storage_key(t: Any) -> Any:
    """What tells storages apart (None for one a move cannot share). NB: ``_storage_id`` is the
    address ``untyped_storage()._cdata`` gives, without leaving a Python storage object on the
    tensor's storage for as long as it lives (64 bytes each)."""
    try:
        c = sys.modules["torch"]._C
        return c._storage_id(t) if hasattr(c, "_storage_id") else t.untyped_storage()._cdata
    except Exception:  # NB: exotic storages just move on their own
        return None


# --- the new copies -------------------------------------------------------------------

def copy_single(torch: Any, e: Any) -> Any:
    """The new copy of a tensor that shares its storage with nothing else that moves.

    NB: a non-contiguous one copies only the span of storage it reaches and keeps its strides:
    ``.to()`` would materialise a broadcast tensor (1 element becoming 2.5 GB) and make a sliced
    or overlapping one contiguous."""
    t = e.t
    dev, dt = e.device or t.device, e.dtype or t.dtype
    if not strided_copy(torch, t):
        return t.detach().to(device=dev, dtype=dt)
    flat = t.detach().as_strided((span(t),), (1,), t.storage_offset()).to(device=dev, dtype=dt)
    return torch.empty(0, dtype=dt, device=dev).set_(flat.untyped_storage(), 0, t.size(),
                                                      t.stride())


def copy_group(torch: Any, group: list[Any], new: dict[int, Any]) -> None:
    """One copy of the shared storage (cast once, for a cast); every member rebuilt on it with
    its own layout, views as views of their (rebuilt) base."""
    t0, dt = group[0].t, group[0].dtype
    dev = group[0].device or t0.device
    flat = _flat(torch, t0)
    if dt is None:
        storage = flat.to(dev).untyped_storage()
    else:  # NB: every member has t0's dtype (the group's key says so)
        storage = flat.view(t0.dtype).to(device=dev, dtype=dt).untyped_storage()
    rebuilt: dict[int, Any] = {}
    for e in group:
        new[id(e.t)] = _on_new(torch, e.t, dev, dt, storage, rebuilt)


def _on_new(torch: Any, x: Any, dev: Any, dt: Any, storage: Any, rebuilt: dict[int, Any],
            ) -> Any:
    """``x``'s layout on the new storage (of dtype ``dt`` for a cast). NB: a plain recursive
    function, not a closure: a self-referencing closure is a cycle that would pin device memory
    after a failure."""
    if id(x) in rebuilt:
        return rebuilt[id(x)]
    base = x._base
    if base is not None and base.dtype == x.dtype and groupable(torch, base):
        r = _on_new(torch, base, dev, dt, storage, rebuilt).as_strided(
            x.size(), x.stride(), x.storage_offset())
    else:
        r = torch.empty(0, dtype=dt or x.dtype, device=dev).set_(
            storage, x.storage_offset(), x.size(), x.stride())
    rebuilt[id(x)] = r
    return r


def _flat(torch: Any, t: Any) -> Any:
    """A uint8 tensor over ``t``'s whole storage. NB: under FakeTensorMode a real storage must be
    wrapped outside the mode (the mode refuses ``set_`` across fake and real)."""
    fake = torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE)
    if fake is not None and not is_fake(t):
        from torch._subclasses.fake_tensor import unset_fake_temporarily

        with unset_fake_temporarily():
            return torch.empty(0, dtype=torch.uint8, device=t.device).set_(t.untyped_storage())
    return torch.empty(0, dtype=torch.uint8, device=t.device).set_(t.untyped_storage())
