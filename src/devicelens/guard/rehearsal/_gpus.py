"""The GPUs of a rehearsal, inside the sandbox's child: ``torch.cuda`` and ``torch.accelerator``
answer as on a machine with them, "cuda" is the current one, and an index where a device goes
(``torch.device(0)``, ``Module.to(1)``) is that GPU, as a machine with GPUs reads it.
NB: runs only in the forked child; every patch here dies with it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import torch

from ._sandbox import Refused

_CURRENT = {"index": 0, "count": 1, "pretending": 0}
#: the real GPUs (how many, the current one) of the process about to fork, when it has used CUDA
_SEEN: list[tuple[int, int]] = []


def seen() -> bool:
    """In the parent, just before it forks: whether it has used CUDA, so that its child cannot
    (every CUDA call there fails) and must rehearse on fake tensors. The GPUs it sees are kept
    for the child (:func:`as_seen`)."""
    torch = sys.modules.get("torch")
    _SEEN.clear()
    if torch is None or not torch.cuda.is_initialized():
        return False
    _SEEN.append((torch.cuda.device_count(), torch.cuda.current_device()))
    return True


def as_seen() -> None:
    """In the child of a process that used CUDA: ``torch.cuda`` answers as the parent saw its
    real GPUs, without calling CUDA (which would fail there), as for simulated ones."""
    if _SEEN and not _CURRENT["pretending"]:
        count, current = _SEEN[-1]
        pretend(count)
        _CURRENT["index"] = current


def pretend(count: int) -> None:
    """``torch.cuda`` and ``torch.accelerator`` answer as on a machine with ``count`` GPUs; an
    index given where a device goes (``Module.to(1)``) is that GPU."""
    _CURRENT["count"], _CURRENT["pretending"] = count, 1
    _pretend_cuda(count)
    _pretend_accelerator(count)
    # NB: no cudnn here: an RNN's flat weights (a cudnn layout) stay as they are
    torch.backends.cudnn.is_acceptable = lambda tensor: False


def _set_device(device: Any) -> None:
    _CURRENT["index"] = index(torch.device("cuda", device) if isinstance(device, int)
                              else torch.device(device))


def _none(*args: Any, **kwargs: Any) -> None:
    return None


def _pretend_cuda(count: int) -> None:
    module = torch.cuda

    def zero(*args: Any, **kwargs: Any) -> int:
        return 0

    patches: dict[str, Any] = {
        "is_available": lambda: True, "device_count": lambda: count,
        "current_device": lambda: _CURRENT["index"], "set_device": _set_device,
        "is_initialized": lambda: True, "get_device_name": lambda *a: "simulated GPU",
        "get_device_capability": lambda *a: (9, 0), "is_bf16_supported": lambda *a: True,
        "synchronize": _none, "empty_cache": _none, "manual_seed": _none,
        "manual_seed_all": _none, "seed": _none, "seed_all": _none, "init": _none,
        "reset_peak_memory_stats": _none,
        "memory_allocated": zero, "max_memory_allocated": zero, "memory_reserved": zero,
        "max_memory_reserved": zero, "is_current_stream_capturing": lambda: False,
    }
    for name, fn in patches.items():
        setattr(module, name, fn)
    module.mem_get_info = _unknown("how much memory {} has free (torch.cuda.mem_get_info)")
    module.get_device_properties = _unknown("the properties of {} (its memory, its SMs)")
    module.device = module.device_of = _OnDevice  # type: ignore[assignment,misc]


def _unknown(what: str) -> Any:
    """A question a simulated GPU cannot answer: the rehearsal stops there and says so.
    NB: not an ``Exception``: accelerate's ``get_max_memory`` would take the GPU for missing
    and place everything elsewhere, and the rehearsal would check a placement the real run
    never makes."""
    def ask(device: Any = None, *args: Any, **kwargs: Any) -> Any:
        on = cuda(device if device is not None else _CURRENT["index"])
        if sys._getframe(1).f_code.co_filename.startswith(_OURS):
            raise RuntimeError(f"{on} is simulated")  # NB: the snapshot's own question
        raise Refused(f"the code asks {what.format(on)}, which a simulated GPU does not know "
                      "(for accelerate: give max_memory, or a device_map)")
    return ask


_OURS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _pretend_accelerator(count: int) -> None:
    parse_to = torch._C._nn._parse_to  # NB: Module.to(1) reads 1 as a GPU here, in C++

    def _parse_to(*args: Any, **kwargs: Any) -> Any:
        args = tuple(cuda(a) if type(a) is int else a for a in args)
        if type(kwargs.get("device")) is int:
            kwargs["device"] = cuda(kwargs["device"])
        return parse_to(*args, **kwargs)

    torch._C._nn._parse_to = _parse_to
    accelerator = torch.accelerator  # NB: what accelerate and torch.device(0) ask
    for name, fn in {"is_available": lambda *a, **k: True, "device_count": lambda: count,
                     "current_accelerator": lambda *a, **k: torch.device("cuda"),
                     "current_device_index": lambda: _CURRENT["index"],
                     "current_device_idx": lambda: _CURRENT["index"],
                     "set_device_index": _set_device, "set_device_idx": _set_device,
                     "current_stream": lambda *a: _STREAM, "synchronize": _none,
                     "empty_cache": _none}.items():
        setattr(accelerator, name, fn)


class _Stream:
    """The current stream of a simulated GPU: never capturing a graph, always done."""

    def is_capturing(self) -> bool:
        return False

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def wait_stream(self, stream: Any) -> None:
        return None


_STREAM = _Stream()


class _OnDevice:
    """``with torch.cuda.device(1):`` (or ``device_of(t)``): "cuda" means cuda:1 inside."""

    def __init__(self, device: Any) -> None:
        if isinstance(device, torch.Tensor):
            device = device.device if device.device.type == "cuda" else -1
        if isinstance(device, int) or device is None:
            device = torch.device("cuda", device) if device is not None and device >= 0 else None
        self.index = None if device is None else index(torch.device(device))

    def __enter__(self) -> None:
        self.prev = _CURRENT["index"]
        if self.index is not None:
            _CURRENT["index"] = self.index

    def __exit__(self, *exc: object) -> None:
        _CURRENT["index"] = self.prev


def index(device: torch.device) -> int:
    """The index of a simulated ``device``; a real GPU's own error for one that is not there."""
    at = _CURRENT["index"] if device.index is None else device.index
    if not 0 <= at < _CURRENT["count"]:
        raise RuntimeError("CUDA error: invalid device ordinal")
    return at


def cuda(device: Any) -> torch.device:
    """``device`` (an index, "cuda", "cuda:1", None: the current one) as a simulated GPU."""
    if device is None:
        return torch.device("cuda", _CURRENT["index"])
    if isinstance(device, int):
        return torch.device("cuda", index(torch.device("cuda", device)))
    return torch.device("cuda", index(torch.device(device)))
