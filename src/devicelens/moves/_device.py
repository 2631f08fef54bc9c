"""Where a move may go: a user's device string or ``torch.device``, checked before torch parses it.

NB: torch keeps a device index in a few bits: ``torch.device("cuda:257")`` is ``cuda:1`` and
``"cuda:999"`` fails deep inside a move. Indices are validated here, as text, against the
device count, before any ``torch.device`` is built. Never initialises CUDA
(``device_count()`` does not).
"""

from __future__ import annotations

import re
from typing import Any

from ..inspect._types import one_of

# NB: torch's own spelling: a lower-case type, then an optional index without leading zeros
_SPELLING = re.compile(r"([a-z][a-z0-9_]*)(?::(-?(?:0|[1-9][0-9]*)))?")
_MAX_INDEX = 127  # the largest index every torch build can address
_HINT = "(try 'cpu', 'cuda:0', 'mps' or 'meta')"


def shown(device: Any) -> str:
    """``device`` for an error message. NB: ``repr`` only of types whose repr runs no user code."""
    if one_of(type(device), (str, int, float, bool, type(None))):
        return repr(device)
    import torch

    if type(device) is torch.device:
        return repr(str(device))
    return f"a {type(device).__name__}"


def parse_device(device: Any) -> Any:
    """``device`` as a normalised ``torch.device``, or ``ValueError`` quoting it.

    Under a FakeTensorMode any ``cuda:N`` torch can address is accepted: the mode simulates it.
    """
    import torch

    if type(device) is str:
        m = _SPELLING.fullmatch(device.strip())
        if m is None:
            raise ValueError(f"not a device: {shown(device)} {_HINT}")
        kind, text = m.group(1), m.group(2)
        index = None if text is None else int(text)
    elif type(device) is torch.device:
        kind, index = device.type, device.index
    else:
        raise ValueError(f"not a device: {shown(device)} (expected a string such as 'cuda:0')")
    if index is not None and index < 0:
        raise ValueError(f"no such device: {shown(device)} (device indices start at 0)")
    return _checked(torch, device, kind, index)


def _checked(torch: Any, device: Any, kind: str, index: int | None) -> Any:
    if kind in ("cpu", "meta", "mps"):
        if index not in (None, 0):
            raise ValueError(f"no such device: {shown(device)} ({kind} has no index)")
        if kind == "mps" and not torch.backends.mps.is_available():
            raise ValueError(f"no such device: {shown(device)} (MPS is not available here)")
        return torch.device(kind)
    if kind in ("cuda", "xpu"):
        backend = getattr(torch, kind)
        if index is None:
            index = backend.current_device() if backend.is_initialized() else 0
        if index > _MAX_INDEX:
            raise ValueError(f"no such device: {shown(device)} (torch addresses device indices "
                             f"up to {_MAX_INDEX})")
        fake = torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE)
        n = backend.device_count()
        if index >= n and not (fake is not None and kind == "cuda"):
            raise ValueError(f"no such device: {shown(device)} (this machine has {n} "
                             f"{kind.upper()} device{'s' * (n != 1)})")
        return torch.device(kind, index)
    raise ValueError(f"unsupported device: {shown(device)} (devicelens moves to cpu, cuda:N, "
                     f"xpu:N, mps or meta)")
