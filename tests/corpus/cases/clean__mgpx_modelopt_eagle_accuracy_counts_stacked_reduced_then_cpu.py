"""Look-alike: per-microbatch accuracy counts stacked on the GPU, all-reduced when a process group exists, and brought to the CPU for logging.

Source: https://github.com/NVIDIA/Model-Optimizer/pull/2340
`_aggregate_accuracy_counts(counts)` in the EAGLE training example: `torch.stack(counts).sum(dim=0)`,
`torch.distributed.all_reduce(counts, op=SUM)` only if the process group is initialised, then
`correct / valid.clamp_min(1.0)` per position and in total, returned through `.cpu()` (the PR returns
`.cpu().numpy()` and `.item()`). CPU results beside GPU counts, each op on one device. Stand-in: the
function as in the PR, stopping at `.cpu()` (no numpy/item on simulated tensors); no process group, so
the all_reduce branch is skipped as on a single process.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def _aggregate_accuracy_counts(counts):
    """Compute per-position and total accuracy across microbatches and distributed ranks."""
    counts = torch.stack(counts).sum(dim=0)
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        torch.distributed.all_reduce(counts, op=torch.distributed.ReduceOp.SUM)
    correct, valid = counts.unbind(0)
    per_position_acc = correct / valid.clamp_min(1.0)
    total_acc = correct.sum() / valid.sum().clamp_min(1.0)
    return per_position_acc.unsqueeze(0).cpu(), total_acc.cpu()

device = torch.device("cuda:1")
# one [2, n_positions] tensor (correct, valid) per microbatch, made on the rank's GPU
counts = [torch.stack([torch.randint(0, 8, (3,)).float(), torch.full((3,), 8.0)]).to(device)
          for _ in range(4)]
'''
CELL = '''
per_position_acc, total_acc = _aggregate_accuracy_counts(counts)
print(per_position_acc.device, total_acc.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
