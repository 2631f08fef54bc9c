"""Device and dtype names as records spell them, and the per-device total they add up to.

NB: a leaf module: records, the walker and the totals all read these, and it reads none of them.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class DeviceTotal(NamedTuple):
    device: str
    objects: int
    tensors: int
    nbytes: int


def device_key(device: str) -> tuple[int, str, int]:
    """Display order: cpu, then accelerators by type and index, meta last."""
    kind, _, index = device.partition(":")
    rank = 0 if kind == "cpu" else 2 if kind == "meta" else 1
    return rank, kind, int(index) if index.isdigit() else -1


_DEVICE_NAMES: dict[Any, str] = {}
_DTYPE_INFO: dict[Any, tuple[str, int, bool]] = {}


def device_name(device: Any) -> str:
    """``"cuda:0"`` for ``torch.device("cuda", 0)``; cached (a handful of devices per process)."""
    name = _DEVICE_NAMES.get(device)
    if name is None:
        name = _DEVICE_NAMES[device] = str(device)
    return name


def dtype_info(dtype: Any) -> tuple[str, int, bool]:
    """(name without ``torch.``, bytes per element, quantized) of a torch dtype; cached."""
    info = _DTYPE_INFO.get(dtype)
    if info is None:
        name = str(dtype).removeprefix("torch.")
        info = _DTYPE_INFO[dtype] = (name, int(dtype.itemsize), name.startswith(("qint", "quint")))
    return info
