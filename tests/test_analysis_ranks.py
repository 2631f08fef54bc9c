"""Rules only distributed training has, on snapshots of real modules: which rank this is
(:func:`rank_info`), a model or batch on another rank's GPU, DDP's ``device_ids`` away from its
module, and sharded layouts (FSDP, DTensor) that are never flagged.

Simulated GPUs: ``FakeTensorMode`` gives tensors real ``cuda:N`` metadata (the rules read only
that). DDP and FSDP objects are real, built in a one-process gloo group on the CPU.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torch.distributed as dist
from torch import nn

from devicelens.analysis import diagnose, diagnose_ranks
from devicelens.inspect import take_snapshot
from devicelens.inspect.ranks import RankInfo, rank_info

RANK1 = RankInfo(rank=1, world_size=2, local_rank=1, local_world_size=2)
TORCHRUN_RANK1 = {"RANK": "1", "WORLD_SIZE": "2", "LOCAL_RANK": "1", "LOCAL_WORLD_SIZE": "2"}


def test_rank_info_reads_torchruns_environment():
    assert rank_info({}) is None  # not a distributed run
    info = rank_info({**TORCHRUN_RANK1, "CUDA_VISIBLE_DEVICES": "0,1"})
    assert info == RankInfo(1, 2, 1, 2, "", 2)
    assert (info.tag, info.device) == ("[rank 1/2, local_rank 1]", "cuda:1")
    # one GPU per process (CUDA_VISIBLE_DEVICES per rank): cuda:0 is every rank's own
    one = rank_info({**TORCHRUN_RANK1, "CUDA_VISIBLE_DEVICES": "3"})
    assert one is not None and (one.visible_gpus, one.device) == (1, "cuda:0")
    assert rank_info({"RANK": "x", "WORLD_SIZE": "2"}) is None


def test_a_model_on_another_ranks_gpu(fake_cuda):
    snap = take_snapshot({"model": fake_cuda.to(nn.Linear(4, 2), "cuda:0")})
    (f,) = diagnose_ranks(snap, RANK1)
    assert (f.kind, f.severity, f.objects) == ("rank_device", "error", ("model",))
    assert f.message == ("model is on cuda:0 on every rank: the code does not use LOCAL_RANK, so "
                         "all ranks of this node share one GPU (with NCCL: \"Duplicate GPU "
                         "detected\"); this process is local_rank 1 of 2, whose GPU is cuda:1.")
    assert f.fix == "model.to(f\"cuda:{os.environ['LOCAL_RANK']}\")"  # right on every rank
    assert diagnose_ranks(snap, RANK1._replace(rank=0, local_rank=0)) == []  # rank 0's own GPU
    assert diagnose_ranks(snap, RANK1._replace(visible_gpus=1)) == []  # one GPU per process
    assert diagnose_ranks(snap, RankInfo(0, 1, 0, 1)) == []  # a single process


def test_a_batch_on_another_ranks_gpu(fake_cuda):
    snap = take_snapshot({"model": fake_cuda.to(nn.Linear(4, 2), "cuda:1"),
                          "batch": {"x": fake_cuda.randn(2, 4, device="cuda:2"),
                                    "y": torch.tensor([0, 1])}})
    (f,) = diagnose_ranks(snap, RankInfo(1, 4, 1, 4))
    assert (f.kind, f.paths) == ("rank_tensor", ("batch['x']",))
    assert f.message == ("batch['x'] is on cuda:2, local_rank 2's GPU; this process is "
                         "local_rank 1, whose GPU is cuda:1.")
    assert f.fix == "batch['x'] = batch['x'].to(f\"cuda:{os.environ['LOCAL_RANK']}\")"


@pytest.fixture
def process_group(tmp_path: Path):
    """A real one-process gloo group: DDP and FSDP need one to be built."""
    dist.init_process_group("gloo", init_method=f"file://{tmp_path / 'store'}", rank=0,
                            world_size=1)
    yield
    dist.destroy_process_group()


def test_ddp_device_ids_away_from_its_module(process_group, fake_cuda):
    """DistributedDataParallel(module on cuda:0, device_ids=[1]), as built on a GPU machine:
    a real DDP over a cpu module, whose module then gets fake cuda:0 and device_ids [1]."""
    ddp = nn.parallel.DistributedDataParallel(nn.Linear(4, 2))
    fake_cuda.to(ddp.module, "cuda:0")
    ddp.device_ids = [1]
    (f,) = diagnose_ranks(take_snapshot({"model": ddp}), RANK1)
    assert (f.kind, f.severity) == ("ddp_device", "error")
    assert f.message == ("model is a DistributedDataParallel with device_ids=[1], but its module "
                         "is on cuda:0: DDP moves every input to cuda:1, so the forward pass "
                         "fails.")
    assert f.fix == ("# wrap the module once it is on this rank's GPU\n"
                     "model = torch.nn.parallel.DistributedDataParallel(model.module.to("
                     "f\"cuda:{os.environ['LOCAL_RANK']}\"), device_ids=[int(os.environ["
                     "'LOCAL_RANK'])])")
    ddp.device_ids = [0]  # module and device_ids agree, but on rank 0's GPU
    (f,) = diagnose_ranks(take_snapshot({"model": ddp}), RANK1)
    assert f.kind == "ddp_device" and f.message.startswith(
        "model is a DistributedDataParallel on cuda:0, cuda:0 on every rank")


def test_fsdp_and_dtensor_layouts_are_never_flagged(process_group):
    """A stray batch is flagged next to a plain model, never next to a sharded one (FSDP may
    keep its parameters on the cpu and compute elsewhere)."""
    from torch.distributed.fsdp import FullyShardedDataParallel, fully_shard

    batch = torch.ones(2, 4, device="meta")
    plain = nn.Linear(4, 4)
    assert [f.kind for f in diagnose(take_snapshot({"model": plain, "batch": batch}))] == [
        "meta_no_data"]  # NB: a meta batch cannot go to the cpu: the model goes to meta
    fsdp2 = fully_shard(nn.Sequential(nn.Linear(4, 4)))  # DTensor parameters
    snap = take_snapshot({"model": fsdp2, "batch": batch})
    assert snap["model"].dispatch == "dtensor"
    assert diagnose(snap) == [] and diagnose_ranks(snap, RANK1) == []
    # FSDP1 needs a GPU to be built: its instance is made without __init__ (the rule reads
    # only the wrapper's type and the tensors' metadata)
    fsdp1 = FullyShardedDataParallel.__new__(FullyShardedDataParallel)
    nn.Module.__init__(fsdp1)
    fsdp1._fsdp_wrapped_module = nn.Linear(4, 4)
    snap = take_snapshot({"model": fsdp1, "batch": batch})
    assert snap["model"].dispatch == "fsdp"
    assert diagnose(snap) == [] and diagnose_ranks(snap, RANK1) == []


@pytest.mark.parametrize("gpu", [False, True])
def test_ddp_device_ids_on_a_cpu_module_is_fixed_by_what_the_machine_has(
        process_group, monkeypatch, gpu):
    """Issue 36 harm 7: without the GPU, only dropping ``device_ids`` works; with it, moving
    the module first."""
    from devicelens.guard.running._frames import traceback_frames
    from devicelens.scripts import _dist

    monkeypatch.setattr(_dist, "_has_gpu", lambda want: gpu)
    model = nn.Linear(4, 2)
    try:
        ddp = nn.parallel.DistributedDataParallel(model, device_ids=[0])  # noqa: F841
    except ValueError as e:
        exc = e
    frames = traceback_frames(exc.__traceback__)
    here = __file__
    _head, rep = _dist.explain_dist(exc, frames, {"model": model}, lambda f: f == here, RANK1)
    text = rep.body()
    if gpu:
        assert 'model = model.to("cuda:0")  # before wrapping it' in text
        assert not rep.edits
    else:
        assert "model.to(" not in text and rep.fixes == ()
        (e,) = rep.edits
        assert e.old == ("        ddp = nn.parallel.DistributedDataParallel(model, "
                         "device_ids=[0])  # noqa: F841",)
        assert e.new == ("        ddp = nn.parallel.DistributedDataParallel(model)  # noqa: "
                         "F841",)
