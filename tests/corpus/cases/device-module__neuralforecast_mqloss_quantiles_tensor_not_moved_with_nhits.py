"""neuralforecast NHITS with MQLoss on a GPU: the loss keeps its quantiles as a plain CPU tensor.

Source: https://github.com/Nixtla/neuralforecast/issues/307
Running the UncertaintyIntervals example notebook on a Colab GPU, `fcst.fit(df=Y_train_df)` failed
inside `MQLoss.__call__` at `mqloss = (self.quantiles * sq + (1 - self.quantiles) * s1_q)` with
"Expected all tensors to be on the same device": MQLoss stored `self.quantiles = torch.Tensor(qs)`
as a plain attribute, so moving the Lightning model to the GPU never moved it (later registered as
a non-trainable Parameter). Stand-in: MQLoss and a small NHITS-like network holding it as `loss`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def level_to_outputs(level):
    qs = sum([[50 - l / 2, 50 + l / 2] for l in level], [])
    output_names = sum([[f"-lo-{l}", f"-hi-{l}"] for l in level], [])
    sort_idx = sorted(range(len(qs)), key=lambda i: qs[i])
    qs = [qs[i] / 100 for i in sort_idx]
    return [0.5] + qs, ["-median"] + [output_names[i] for i in sort_idx]

class MQLoss:
    def __init__(self, level=[80, 90], quantiles=None):
        qs, self.output_names = level_to_outputs(level)
        self.quantiles = torch.Tensor(qs)
        self.outputsize_multiplier = len(qs)
        self.output_names = [""] + self.output_names[1:]

    def __call__(self, y, y_hat, mask=None):
        if mask is None:
            mask = torch.ones_like(y_hat)
        n_q = len(self.quantiles)
        error = y_hat - y.unsqueeze(-1)
        sq = torch.maximum(-error, torch.zeros_like(error))
        s1_q = torch.maximum(error, torch.zeros_like(error))
        mqloss = (self.quantiles * sq + (1 - self.quantiles) * s1_q)
        return (mqloss * mask).mean()

class NHITS(nn.Module):
    def __init__(self, h, input_size, loss, hidden=64):
        super().__init__()
        self.h = h
        self.loss = loss
        self.mlp = nn.Sequential(nn.Linear(input_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, h * loss.outputsize_multiplier)

    def forward(self, insample_y):
        out = self.head(self.mlp(insample_y))
        return out.view(insample_y.shape[0], self.h, self.loss.outputsize_multiplier)

horizon = 12
model = NHITS(h=horizon, input_size=2 * horizon, loss=MQLoss(level=[80, 90]))
model.to("cuda:0")                      # the Lightning trainer's accelerator="gpu"
insample_y = torch.randn(32, 2 * horizon, device="cuda:0")
outsample_y = torch.randn(32, horizon, device="cuda:0")
'''
CELL = '''
y_hat = model(insample_y)
loss = model.loss(y=outsample_y, y_hat=y_hat)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.loss"]
FIX = "namespace"
REFERENCE_FIX = '''
model.loss.quantiles = model.loss.quantiles.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
