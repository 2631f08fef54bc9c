"""Three bugs only distributed training has, one per rank, so that one launch shows them all.

  rank 0: DistributedDataParallel(model, device_ids=[local_rank]) with the model still on cpu
  rank 1: dist.all_reduce(loss) with loss on the cpu, in a group with a cuda backend only
  rank 2: the model on its own GPU, the batch on cuda:0 (rank 0's)

Simulated NCCL: NCCL is not part of a CPU build of PyTorch; a "cuda:gloo" group likewise has no
backend for cpu tensors and raises the very error NCCL raises. Simulated GPUs: tensors made in a
FakeTensorMode carry real ``cuda:N`` metadata and raise PyTorch's real device errors.
"""

import os

import torch
import torch.distributed as dist
from _exit_sync import wait_for_every_rank_at_exit
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

wait_for_every_rank_at_exit()
dist.init_process_group("gloo")
cuda_group = dist.new_group(backend="cuda:gloo")
rank = dist.get_rank()
local_rank = int(os.environ["LOCAL_RANK"])
model = nn.Linear(8, 2)
if rank == 0:
    ddp_model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
elif rank == 1:
    loss = torch.ones(())
    dist.all_reduce(loss, group=cuda_group)
else:
    fake = FakeTensorMode(allow_non_fake_inputs=True)
    fake.fake_tensor_converter.set_tensor_memo = lambda *a, **k: None  # Module.to() in place
    with fake, torch.no_grad():
        model.to(f"cuda:{local_rank}")
        x = torch.randn(4, 8, device="cuda:0")
        out = model(x)
