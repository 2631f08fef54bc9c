"""Look-alike: a torchmetrics list-state metric with `compute_on_cpu=True` fed cuda predictions; its states live on the CPU.

Source: https://github.com/Lightning-AI/torchmetrics/pull/867
"New argument `compute_on_cpu` ... allows *all* metrics where the metric state is a list to store the
state on CPU instead of GPU ... code in `compute` will be executed on CPU (code in `update` will still
be executed on GPU)." After each `update` the appended tensors are moved to the CPU, so the metric's
`preds`/`target` lists hold CPU tensors while the model, the batch and the metric itself are on cuda.
Two devices on purpose, nothing to report. Stand-in: `Metric`'s state handling with
`compute_on_cpu` and `SpearmanCorrCoef` (ranks by double argsort).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Metric(nn.Module):
    def __init__(self, compute_on_cpu=False):
        super().__init__()
        self.compute_on_cpu = compute_on_cpu
        self._defaults = {}

    def add_state(self, name, default):
        setattr(self, name, list(default))
        self._defaults[name] = default

    def _move_list_states_to_cpu(self):
        for key in self._defaults:
            current_val = getattr(self, key)
            if isinstance(current_val, list):
                setattr(self, key, [cur_v.to("cpu") for cur_v in current_val])

    def forward(self, *args):
        self.update(*args)
        if self.compute_on_cpu:
            self._move_list_states_to_cpu()

class SpearmanCorrCoef(Metric):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_state("preds", default=[])
        self.add_state("target", default=[])

    def update(self, preds, target):
        self.preds.append(preds.detach())
        self.target.append(target.detach())

    def compute(self):
        preds, target = torch.cat(self.preds), torch.cat(self.target)
        rp = preds.argsort().argsort().float()
        rt = target.argsort().argsort().float()
        rp, rt = rp - rp.mean(), rt - rt.mean()
        return (rp * rt).sum() / (rp.norm() * rt.norm())

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
spearman = SpearmanCorrCoef(compute_on_cpu=True).to(device)
batches = [(torch.randn(16, 10, device=device), torch.randn(16, device=device)) for _ in range(3)]
'''
CELL = '''
for x, y in batches:
    spearman(model(x).squeeze(-1), y)
rho = spearman.compute()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
