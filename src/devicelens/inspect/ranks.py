"""Which distributed process this is: rank, local rank, world size and the process group's
backends, read from torchrun's environment variables and ``torch.distributed``.

NB: reads only; imports no torch (``torch.distributed`` is consulted only when the program has
imported it already) and never initialises CUDA.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import NamedTuple


class RankInfo(NamedTuple):
    rank: int
    world_size: int
    local_rank: int
    local_world_size: int
    backend: str = ""  # the default group's backend config ("cuda:nccl", "cpu:gloo,cuda:gloo")
    visible_gpus: int | None = None  # CUDA devices this process can see, when known

    @property
    def tag(self) -> str:
        return f"[rank {self.rank}/{self.world_size}, local_rank {self.local_rank}]"

    @property
    def device(self) -> str:
        """The accelerator this rank should use: ``cuda:<LOCAL_RANK>``, or ``cuda:0`` when it
        sees a single GPU (one GPU per process via ``CUDA_VISIBLE_DEVICES``)."""
        return "cuda:0" if self.visible_gpus == 1 else f"cuda:{self.local_rank}"

    def backend_devices(self) -> tuple[str, ...]:
        """Device types the default process group can communicate (``cpu``, ``cuda``)."""
        return tuple(part.split(":", 1)[0] for part in self.backend.split(",") if ":" in part)


def rank_info(environ: Mapping[str, str] | None = None) -> RankInfo | None:
    """This process' place in a distributed run, or ``None`` when it is not part of one."""
    env = os.environ if environ is None else environ
    rank, world = _int(env.get("RANK")), _int(env.get("WORLD_SIZE"))
    group = _group()
    if group is not None:
        rank, world = group[0], group[1]
    if rank is None or world is None:
        return None
    local = _int(env.get("LOCAL_RANK"))
    local_world = _int(env.get("LOCAL_WORLD_SIZE"))
    return RankInfo(rank, world, rank if local is None else local,
                    world if local_world is None else local_world,
                    group[2] if group is not None else "", _visible_gpus(env))


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.strip().isdigit() else None


def _group() -> tuple[int, int, str] | None:
    dist = sys.modules.get("torch.distributed")
    try:
        if dist is None or not dist.is_available() or not dist.is_initialized():
            return None
        return dist.get_rank(), dist.get_world_size(), str(dist.get_backend_config())
    except Exception:  # NB: a group being torn down; the environment still says who we are
        return None


def _visible_gpus(env: Mapping[str, str]) -> int | None:
    visible = env.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([d for d in visible.split(",") if d.strip() and d.strip() != "-1"])
    cuda = sys.modules.get("torch.cuda")
    try:  # NB: only where CUDA is up already: counting devices must not initialise it
        if cuda is not None and cuda.is_initialized():
            return int(cuda.device_count())
    except Exception:
        pass
    return None
