"""``devicelens rehearse`` under torchrun: each rank rehearses alone, as on its machine's GPUs.

No rank talks to another in a rehearsal (the sandbox refuses sockets): ``init_process_group``
gets torch's own fake backend, whose collectives return at once, with this rank's place in the
run; ``DistributedDataParallel`` is a stand-in that keeps what the real one does with devices
(its check of ``device_ids`` against the module, and the move of the inputs to
``device_ids[0]``) and leaves out gradient buckets, which need real tensors.
NB: :func:`one_rank` runs only in the rehearsal's forked child; every patch dies with it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import torch
import torch.distributed as dist
from torch import nn
from torch.utils._pytree import tree_map

from ..inspect.ranks import RankInfo


def machine(devices: tuple[str, ...], info: RankInfo) -> tuple[str, ...]:
    """The GPUs this rank sees: those given, and at least one per local rank; as many as
    ``CUDA_VISIBLE_DEVICES`` names where it is set (one GPU per process: its ``cuda:0``)."""
    count = info.visible_gpus or max(len(devices), info.local_world_size, info.local_rank + 1)
    return tuple(f"cuda:{i}" for i in range(count))


def one_rank(info: RankInfo) -> None:
    """In the child: the process group and DDP of a rank rehearsed alone."""
    from torch.testing._internal.distributed.fake_pg import FakeStore

    init = dist.init_process_group

    def init_process_group(backend: Any = None, *args: Any, **kwargs: Any) -> None:
        """Whatever backend the code asks for (nccl, gloo), a fake one: nothing is sent."""
        init("fake", store=FakeStore(), rank=info.rank, world_size=info.world_size)

    dist.init_process_group = init_process_group
    stand_in: Any = DistributedDataParallel
    torch.nn.parallel.DistributedDataParallel = stand_in  # type: ignore[misc]
    torch.nn.parallel.distributed.DistributedDataParallel = stand_in  # type: ignore[misc]


class DistributedDataParallel(nn.Module):
    """What ``DistributedDataParallel`` does with devices, without its gradient buckets."""

    def __init__(self, module: nn.Module, device_ids: Any = None, output_device: Any = None,
                 *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.module = module
        devices = {p.device for p in module.parameters()}
        cpu = any(d.type == "cpu" for d in devices)
        if (device_ids or output_device) and (cpu or len(devices) > 1):
            # NB: the real one's words: the post-mortem of scripts reads them
            raise ValueError(
                "DistributedDataParallel device_ids and output_device arguments only work with "
                "single-device/multiple-device GPU modules or CPU modules, but got device_ids "
                f"{device_ids}, output_device {output_device}, and module parameters "
                f"{devices}.")
        self.device_ids = [_index(d) for d in device_ids] if device_ids else None

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        if self.device_ids:
            device = torch.device("cuda", self.device_ids[0])
            inputs, kwargs = tree_map(
                lambda t: t.to(device) if isinstance(t, torch.Tensor) else t, (inputs, kwargs))
        return self.module(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        yield


def _index(device: Any) -> int:
    if isinstance(device, int):
        return device
    index = torch.device(device).index
    return torch.cuda.current_device() if index is None else index
