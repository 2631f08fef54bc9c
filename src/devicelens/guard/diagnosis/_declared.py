"""The device the user's configuration names: ``device = torch.device("cuda:1")``,
``cfg.policy.device = "cpu"``, ``cfg["rl_device"]``, or a flag that turns the GPU off
(``args.cuda = 0``, ``no_cuda=True``).

Where the data an op meets is on that device and the model is elsewhere, the model is the stray
(a library put it on its own default: Accelerate's best device, rl_games' ``cuda:0``), not the
data the user placed as configured. Read from the namespace's names and its plain
configuration objects (dicts, ``argparse``/``SimpleNamespace``, dataclasses), never from an
agent's or a trainer's own attributes (a library's default is no declaration). NB: read
through C-level dict access and type checks only: no property or ``__getattr__`` runs.
"""

from __future__ import annotations

import dataclasses
import re
import types
from argparse import Namespace
from typing import Any

from ...inspect import _types

MAX_DEPTH = 3
#: names read at the top level (a long session's namespace) and in each configuration object
MAX_NAMES, MAX_ITEMS = 20_000, 200
_DEVICE = re.compile(r"(cpu|cuda|mps|xpu|meta)(:\d+)?")
_CONFIGS = (types.SimpleNamespace, Namespace)


def declared_device(ns: dict[str, Any]) -> str | None:
    """The one device the configuration names, or None (none, or several)."""
    import torch

    found: set[str] = set()
    _scan(ns, torch.device, found, 0)
    return found.pop() if len(found) == 1 else None


def _scan(d: dict[Any, Any], device_type: type, found: set[str], depth: int) -> None:
    left = MAX_ITEMS if depth else MAX_NAMES
    for k, v in list(dict.items(d)):
        # NB: IPython's own ``_i12``, ``_3`` are skipped before they are counted
        if type(k) is not str or k.startswith("_"):
            continue
        left -= 1
        if left < 0 or len(found) > 1:
            return
        if "device" in k.lower():
            name = _device_of(v, device_type)
            if name is not None:
                found.add(name)
            continue
        if _cpu_flag(k, v):
            found.add("cpu")
            continue
        if depth < MAX_DEPTH:
            inner = _config_dict(v)
            if inner is not None:
                _scan(inner, device_type, found, depth + 1)


def _cpu_flag(key: str, v: Any) -> bool:
    """A flag that turns the GPU off: ``--cuda 0``, ``use_cuda=False``, ``no_cuda=True``,
    Accelerate's ``cpu=True``. NB: only the off side: ``gpu=0`` is as often an index."""
    if type(v) not in (bool, int):
        return False
    k = key.lower()
    if k in ("cuda", "use_cuda", "use_gpu"):
        return not v
    return k in ("no_cuda", "cpu", "use_cpu") and v is True


def _device_of(v: Any, device_type: type) -> str | None:
    tp = type(v)
    if tp is str:
        text = v.strip()
    elif tp is device_type:
        text = str(v)
    else:
        return None
    m = _DEVICE.fullmatch(text)
    if m is None:
        return None
    kind, index = m.group(1), m.group(2)
    return f"{kind}{index or ':0'}" if kind in ("cuda", "xpu", "mps") else kind


def _config_dict(v: Any) -> dict[Any, Any] | None:
    """The items of a plain configuration object: a dict, a namespace, a dataclass."""
    tp = type(v)
    if tp is dict:
        return v  # type: ignore[no-any-return]
    if issubclass(tp, _CONFIGS) or dataclasses.is_dataclass(tp):
        return _types.instance_dict(v)
    return None
