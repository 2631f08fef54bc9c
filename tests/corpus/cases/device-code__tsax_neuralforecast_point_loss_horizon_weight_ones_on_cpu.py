"""neuralforecast point losses on GPU: `_compute_weights` builds the horizon weights on the CPU and multiplies them with the GPU mask.

Source: https://github.com/Nixtla/neuralforecast/pull/706
"[FIX] Fix device error in `horizon_weight`: fix a bug that prevented training models on GPU due to
device error." In `BasePointLoss._compute_weights` the horizon weights are a plain tensor
(`torch.Tensor(horizon_weight)`, or `torch.ones(mask.shape[-1])` when none is given) that
`Module.to()` never moves, and `torch.ones_like(mask, device=mask.device) * weights` meets the CUDA
mask. The fix moves the weights with `.to(mask.device)`. Stand-ins: MAE/BasePointLoss as before the
PR, an MLP-like model holding the loss, and one training step (forward + loss).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class BasePointLoss(torch.nn.Module):
    def __init__(self, horizon_weight=None, outputsize_multiplier=1, output_names=("",)):
        super().__init__()
        if horizon_weight is not None:
            horizon_weight = torch.Tensor(horizon_weight.flatten())
        self.horizon_weight = horizon_weight
        self.outputsize_multiplier = outputsize_multiplier
        self.output_names = output_names

    def _compute_weights(self, y, mask):
        if mask is None:
            mask = torch.ones_like(y, device=y.device)
        if self.horizon_weight is None:
            self.horizon_weight = torch.ones(mask.shape[-1])
        else:
            assert mask.shape[-1] == len(self.horizon_weight), "horizon_weight must have same length as Y"
        weights = self.horizon_weight.clone()
        weights = torch.ones_like(mask, device=mask.device) * weights
        return weights * mask

class MAE(BasePointLoss):
    def __call__(self, y, y_hat, mask=None):
        losses = torch.abs(y - y_hat)
        weights = self._compute_weights(y=y, mask=mask)
        return (losses * weights).sum() / weights.sum()

class MLP(nn.Module):
    def __init__(self, h, input_size, hidden_size=32, loss=MAE()):
        super().__init__()
        self.h, self.input_size, self.loss = h, input_size, loss
        self.mlp = nn.Sequential(nn.Linear(input_size, hidden_size), nn.ReLU(), nn.Linear(hidden_size, h))

    def forward(self, windows_batch):
        return self.mlp(windows_batch["insample_y"])

    def training_step(self, batch, batch_idx):
        y_hat = self(batch)
        return self.loss(y=batch["outsample_y"], y_hat=y_hat, mask=batch["outsample_mask"])

device = torch.device("cuda:0")
model = MLP(h=12, input_size=24, loss=MAE())
model.to(device)
batch = {"insample_y": torch.randn(32, 24, device=device),
         "outsample_y": torch.randn(32, 12, device=device),
         "outsample_mask": torch.ones(32, 12, device=device)}
'''
CELL = '''
loss = model.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("weights = torch.ones_like(mask, device=mask.device) * weights",
                  "weights = torch.ones_like(mask, device=mask.device) * weights.to(mask.device)")
CLEAN = False
