"""pytorch-widedeep on a GPU box with the Trainer set to `device="cpu"`: WideDeep builds its zero wide output on a module-level cuda device.

Source: https://github.com/jrzaurin/pytorch-widedeep/issues/89
"WideDeep class is not honoring device settings from the trainer": `wide_deep.py` computed
`device = torch.device("cuda" if use_cuda else "cpu")` at import, and a model without a `wide`
component made its placeholder `torch.zeros(batch_size, self.pred_dim).to(device)`; AutoGluon ran
the Trainer on the CPU, so `_forward_deep`'s `wide_out.add_(self.deeptabular(...))` mixed cuda and
cpu. The fix takes the device from the trainer (`self.wd_device`). Stand-in: WideDeep's forward for a
deeptabular-only model, a small MLP as TabMlp; `torch.cuda.is_available()` is True on the user's box.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

use_cuda = True                      # torch.cuda.is_available() on the user's GPU box
device = torch.device("cuda:0" if use_cuda else "cpu")

class TabMlp(nn.Module):
    def __init__(self, column_idx, continuous_cols, mlp_hidden_dims=(32, 16)):
        super().__init__()
        self.column_idx = column_idx
        dims = [len(continuous_cols)] + list(mlp_hidden_dims)
        layers = []
        for i in range(1, len(dims)):
            layers += [nn.Linear(dims[i - 1], dims[i]), nn.ReLU()]
        self.mlp = nn.Sequential(*layers)
        self.output_dim = dims[-1]

    def forward(self, X):
        return self.mlp(X)

class WideDeep(nn.Module):
    def __init__(self, wide=None, deeptabular=None, pred_dim=1):
        super().__init__()
        self.pred_dim = pred_dim
        self.wide = wide
        self.deeptabular = nn.Sequential(deeptabular, nn.Linear(deeptabular.output_dim, pred_dim))

    def forward(self, X):
        wide_out = self._forward_wide(X)
        return self._forward_deep(X, wide_out)

    def _forward_wide(self, X):
        if self.wide is not None:
            out = self.wide(X["wide"])
        else:
            batch_size = X["deeptabular"].size(0)
            out = torch.zeros(batch_size, self.pred_dim).to(device)
        return out

    def _forward_deep(self, X, wide_out):
        if self.deeptabular is not None:
            wide_out.add_(self.deeptabular(X["deeptabular"]))
        return wide_out

continuous_cols = ["age", "hours_per_week", "capital_gain", "capital_loss"]
column_idx = {c: i for i, c in enumerate(continuous_cols)}
tab_mlp = TabMlp(column_idx=column_idx, continuous_cols=continuous_cols)
model = WideDeep(deeptabular=tab_mlp)
trainer_device = "cpu"                       # Trainer(model, objective="binary", device="cpu")
model = model.to(trainer_device)
X_tab = torch.randn(64, 4)
target = torch.randint(0, 2, (64,)).float()
'''
CELL = '''
X = {"deeptabular": X_tab.to(trainer_device)}
y = target.view(-1, 1).to(trainer_device)
y_pred = model(X)
loss = nn.functional.binary_cross_entropy_with_logits(y_pred, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('out = torch.zeros(batch_size, self.pred_dim).to(device)',
                  'out = torch.zeros(batch_size, self.pred_dim).to(X["deeptabular"].device)')
CLEAN = False
