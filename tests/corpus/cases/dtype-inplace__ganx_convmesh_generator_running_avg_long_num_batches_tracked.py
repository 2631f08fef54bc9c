"""convmesh: the generator's running average (EMA) update also runs `mul_(alpha)` on BatchNorm's int64 counters.

Source: https://github.com/dariopavllo/convmesh/issues/1
Training the text-conditioned GAN on PyTorch 1.6 failed in `update_generator_running_avg` at
`param.mul_(alpha).add_(g_state_dict[k], alpha=1-alpha)` with "result type Float can't be cast to
the desired output type Long"; the user found that one entry of the state dict is int64 (the
BatchNorm `num_batches_tracked` buffer). The author's fix (commit 27cdbf2, "Fix training on PyTorch
1.6"): average only floating-point entries (`if torch.is_floating_point(param)`) and copy the others
with `param.fill_(g_state_dict[k])`. The mesh/texture generator is a small Linear/BatchNorm stand-in.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import math
import argparse
import torch
from torch import nn

class ReconstructionNetwork(nn.Module):
    """Stand-in for the convmesh generator (mesh + texture decoder with SyncBatchNorm)."""
    def __init__(self, z_dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 12))
    def forward(self, z):
        return self.net(z)

args = argparse.Namespace(g_running_average_alpha=0.999)
generator = ReconstructionNetwork()
generator_running_avg = ReconstructionNetwork()
generator_running_avg.load_state_dict(generator.state_dict())
generator_running_avg.requires_grad_(False)

def update_generator_running_avg(epoch):
    with torch.no_grad():
        # This heuristic does not affect the final result, it is just done for visualization purposes.
        if epoch < 10:
            alpha = math.pow(args.g_running_average_alpha, 100)
        elif epoch < 100:
            alpha = math.pow(args.g_running_average_alpha, 10)
        else:
            alpha = args.g_running_average_alpha
        g_state_dict = generator.state_dict()
        for k, param in generator_running_avg.state_dict().items():
            param.mul_(alpha).add_(g_state_dict[k], alpha=1-alpha)

epoch = 0
generator.train()
_ = generator(torch.randn(4, 8))      # one training step updated the BatchNorm statistics
'''
CELL = '''
update_generator_running_avg(epoch)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["update_generator_running_avg"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            param.mul_(alpha).add_(g_state_dict[k], alpha=1-alpha)\n",
                  "            if torch.is_floating_point(param):\n"
                  "                param.mul_(alpha).add_(g_state_dict[k], alpha=1-alpha)\n"
                  "            else:\n"
                  "                param.fill_(g_state_dict[k])\n")
CLEAN = False
