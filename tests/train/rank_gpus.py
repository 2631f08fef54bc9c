"""A training step whose every rank puts its model on cuda:0 (LOCAL_RANK unused), with each
batch on cuda:LOCAL_RANK: rank 0 is right by accident, rank 1 fails.

Simulated GPUs: this machine has none, so the tensors live in a FakeTensorMode, which gives
them real ``cuda:N`` metadata and raises PyTorch's real device errors (and never runs autograd:
that aborts on fake cuda). The process group is real: gloo on the CPU.
"""

import os
import sys

import torch
import torch.distributed as dist
from _exit_sync import wait_for_every_rank_at_exit
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

fake = FakeTensorMode(allow_non_fake_inputs=True)
# NB: without the converter's weak memo, Module.to() swaps parameters in place as on a GPU
fake.fake_tensor_converter.set_tensor_memo = lambda *a, **k: None

wait_for_every_rank_at_exit()
dist.init_process_group("gloo")
rank = dist.get_rank()
local_rank = int(os.environ["LOCAL_RANK"])
seen = torch.ones(2)
dist.all_reduce(seen)  # a cpu tensor with gloo: fine, never flagged
# NB: one write per line: under torchrun (python -u) print() writes the text and "\n" apart
sys.stdout.write(f"rank {rank}: {int(seen[0])} ranks answered\n")

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
with fake, torch.no_grad():
    model.to("cuda:0")
    x = torch.randn(4, 8, device=f"cuda:{local_rank}")
    out = model(x)
sys.stdout.write(f"rank {rank}: step done\n")
dist.destroy_process_group()
