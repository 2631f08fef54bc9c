"""The frozen records a snapshot is made of: plain, immutable data, safe to keep and to send.

NB: records are ``NamedTuple``s rather than frozen dataclasses: just as immutable, and several
times cheaper to build, which matters at 100k tensors per snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ._tree import Ref


class TensorRecord(NamedTuple):
    """One tensor reachable from the namespace.

    NB: a ``NamedTuple`` rather than a frozen dataclass: it is just as immutable and about five
    times cheaper to build, which matters at 100k tensors per snapshot.
    """

    path: str  # what users read: model.encoder.layers.3.attn.in_proj_weight, batch['x']
    ref: Ref  # how to find it again (moves) and how to write it in code (fixes)
    role: str  # tensor | parameter | buffer | attribute | trapped | grad | opt_param | state
    owner: str  # module path for params/buffers/traps; parameter path for optimizer state
    device: str
    dtype: str
    shape: tuple[int, ...]
    numel: int
    nbytes: int
    requires_grad: bool
    is_leaf: bool
    layout: str
    flavor: str  # dense | sparse | nested | quantized | fake | dtensor | subclass | opaque
    storage: int  # identity of the underlying storage (a view shares its base's)


class ModuleRecord(NamedTuple):
    """One submodule, aggregated over its whole subtree."""

    path: str
    ref: Ref
    type_name: str
    devices: tuple[str, ...]
    dtypes: tuple[str, ...]
    n_tensors: int
    nbytes: int
    depth: int
    trapped: bool  # held in a plain list/dict attribute: Module.to() will not move it
    hf_hook: bool  # accelerate has attached a dispatch hook


class ObjectRecord(NamedTuple):
    """One name in the namespace that holds tensors (a tensor, module, optimizer or container).

    NB: records are ``NamedTuple``s (immutable, and cheap to build at 100k per snapshot).
    """

    name: str
    kind: str  # tensor | module | optimizer | container
    type_name: str
    tensors: tuple[TensorRecord, ...]
    modules: tuple[ModuleRecord, ...] = ()
    devices: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()
    nbytes: int = 0
    truncated: bool = False
    wrapper: str = ""  # DataParallel | DistributedDataParallel
    device_ids: tuple[int, ...] = ()
    output_device: int | None = None
    dispatch: str = ""  # why a multi-device layout is intentional: accelerate | dtensor | fsdp
    frozen: bool = False  # immutable container (tuple, namedtuple, frozen dataclass)


class DeviceTotal(NamedTuple):
    device: str
    objects: int
    tensors: int
    nbytes: int


class DeviceInfo(NamedTuple):
    name: str  # cpu, cuda:0, mps, xpu:0, meta
    kind: str
    free_bytes: int | None  # known only where reading it cannot initialise anything
    total_bytes: int | None


@dataclass(frozen=True)
class Snapshot:
    objects: tuple[ObjectRecord, ...]
    totals: tuple[DeviceTotal, ...]
    devices: tuple[DeviceInfo, ...]
    truncated: bool = False
    torch_version: str | None = None
    skipped: tuple[str, ...] = ()  # names whose walk failed: reported, never raised
    cells: tuple[str, ...] = ()  # the user's recent cell sources, oldest first (never executed)
    _by_name: dict[str, ObjectRecord] = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, name: str) -> ObjectRecord:
        return self._by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def tensors(self) -> list[TensorRecord]:
        return [t for o in self.objects for t in o.tensors]


def device_key(device: str) -> tuple[int, str, int]:
    """Display order: cpu, then accelerators by type and index, meta last."""
    kind, _, index = device.partition(":")
    rank = 0 if kind == "cpu" else 2 if kind == "meta" else 1
    return rank, kind, int(index) if index.isdigit() else -1
