"""Lightning EarlyStopping when restarting DDP training from a checkpoint: the restored best_score sits on cuda:0 in every process, the rank-1 metric on cuda:1.

Source: https://github.com/Lightning-AI/pytorch-lightning/pull/17908
"fix: error when restarting distributed training from checkpoint ... which uses early stopping:
best_score is saved in the checkpoint on device 0 but is never moved to the LOCAL_RANK, so you hit an
error here" - at the comparison in `_evaluate_stopping_criteria`. The callback state is restored
verbatim (`self.best_score = state_dict["best_score"]`), a tensor written by rank 0 on cuda:0, while
process LOCAL_RANK=1 computes its monitored metric on cuda:1. Stand-in: the callback's
load_state_dict and stopping criterion for the rank-1 process, without the Trainer; the criterion's
`if` on the comparison is written with torch.where (the simulation cannot branch on tensor values).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class EarlyStopping:
    mode_dict = {"min": torch.lt, "max": torch.gt}

    def __init__(self, monitor="val_loss", min_delta=0.0, patience=3, mode="min"):
        self.monitor, self.min_delta, self.patience, self.mode = monitor, min_delta, patience, mode
        self.wait_count = 0
        self.stopped_epoch = 0
        self.best_score = torch.tensor(torch.inf)

    @property
    def monitor_op(self):
        return self.mode_dict[self.mode]

    def load_state_dict(self, state_dict):
        self.wait_count = state_dict["wait_count"]
        self.stopped_epoch = state_dict["stopped_epoch"]
        self.best_score = state_dict["best_score"]
        self.patience = state_dict["patience"]

    def _evaluate_stopping_criteria(self, current):
        improved = self.monitor_op(current - self.min_delta, self.best_score)
        # `if improved: best_score = current; wait_count = 0 else: wait_count += 1`, kept tensor-valued here
        self.best_score = torch.where(improved, current, self.best_score)
        self.wait_count = torch.where(improved, 0, self.wait_count + 1)
        return self.wait_count >= self.patience

LOCAL_RANK = 1
device = torch.device(f"cuda:{LOCAL_RANK}")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)

# callback state from last.ckpt, written by rank 0 (its best_score was a cuda:0 tensor)
ckpt = {"callbacks": {"EarlyStopping{'monitor': 'val_loss', 'mode': 'min'}": {
    "wait_count": 1, "stopped_epoch": 0, "patience": 3,
    "best_score": torch.tensor(0.2317, device="cuda:0")}}}
early_stopping = EarlyStopping(monitor="val_loss", patience=3)
early_stopping.load_state_dict(ckpt["callbacks"]["EarlyStopping{'monitor': 'val_loss', 'mode': 'min'}"])
val_x = torch.randn(32, 16, device=device)
val_y = torch.randn(32, 1, device=device)
'''
CELL = '''
val_loss = nn.functional.mse_loss(model(val_x), val_y)
should_stop = early_stopping._evaluate_stopping_criteria(val_loss)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["early_stopping.best_score"]
FIX = "namespace"
REFERENCE_FIX = '''
early_stopping.best_score = early_stopping.best_score.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
