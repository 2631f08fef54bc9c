"""Namespace -> frozen records: where every tensor, module and optimizer state lives.

The bottom layer: the one walker of user objects. It imports nothing else of devicelens, never
runs user code and never imports torch until a snapshot is taken.
"""

from __future__ import annotations

from ._gc import gc_paused
from .records import (
    DeviceInfo,
    DeviceTotal,
    ModuleRecord,
    ObjectRecord,
    Snapshot,
    TensorRecord,
    device_key,
)
from .snapshot import (
    MAX_DEPTH,
    MAX_NODES,
    MAX_WIDTH,
    available_devices,
    candidates,
    take_snapshot,
    user_namespace,
)
from .units import human_bytes

__all__ = ["MAX_DEPTH", "MAX_NODES", "MAX_WIDTH", "DeviceInfo", "DeviceTotal", "ModuleRecord",
           "ObjectRecord", "Snapshot", "TensorRecord", "available_devices", "candidates",
           "device_key", "gc_paused", "human_bytes", "take_snapshot", "user_namespace"]
