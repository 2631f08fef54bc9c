"""Look-alike: DPO metrics stored per step as tensors, gathered across ranks on the accelerator's device and averaged before logging.

Source: https://github.com/huggingface/trl/pull/2474
"Proper metrics gathering across ranks before logging" (fixes trl#2468): `DPOTrainer.log` averaged each
rank's stored metrics alone (`torch.tensor(metrics).mean()`); the PR gathers them across processes
when they are tensors. Stored values are detached per-step tensors, the gather runs on the
accelerator's device, the mean goes to the logs. Stand-in: `accelerator.gather_for_metrics` as on one
process (returns its input), a rank-1 process on cuda:1; the final `.item()` is left out (no data in
the simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import defaultdict
import torch

class Accelerator:
    device = torch.device("cuda:1")
    def gather_for_metrics(self, tensor):
        return tensor          # one process here; with N ranks: the N tensors concatenated

accelerator = Accelerator()
_stored_metrics = defaultdict(lambda: defaultdict(list))
for step in range(3):
    chosen_rewards = torch.randn(4).to(accelerator.device)
    rejected_rewards = torch.randn(4).to(accelerator.device)
    _stored_metrics["train"]["rewards/chosen"].append(chosen_rewards.mean().detach())
    _stored_metrics["train"]["rewards/margins"].append((chosen_rewards - rejected_rewards).mean().detach())
logs = {"loss": 0.69}
'''
CELL = '''
train_eval = "train" if "loss" in logs else "eval"
for key, metrics in _stored_metrics[train_eval].items():
    if isinstance(metrics[0], torch.Tensor):
        gathered = accelerator.gather_for_metrics(torch.stack(metrics).to(accelerator.device))
        logs[key] = gathered.mean()
    else:
        logs[key] = torch.tensor(metrics).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
