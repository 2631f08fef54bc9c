"""Look-alike: uni2ts MoiraiForecast takes a float target with boolean `past_observed_target` / `past_is_pad` masks.

Source: https://github.com/SalesforceAIResearch/uni2ts/blob/main/src/uni2ts/model/moirai/forecast.py
`MoiraiForecast.forward(past_target, past_observed_target, past_is_pad, ...)` expects a float32
target and two bool tensors (as the maintainer lists them in uni2ts issue #9); the scaler and the
patcher combine them with `torch.where`, `~` and `*`, and `past_observed_target` is multiplied into
the float values. Mixed dtypes by design. Nothing to report. Stand-in: a packed std-scaler, patch
projection and point head; CPU (dtypes only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class PackedStdScaler(nn.Module):
    def __init__(self, minimum_scale=1e-5):
        super().__init__()
        self.minimum_scale = minimum_scale

    def forward(self, target, observed_mask):
        n = observed_mask.sum(dim=-1, keepdim=True).clamp(min=1)
        loc = (target * observed_mask).sum(dim=-1, keepdim=True) / n
        var = (((target - loc) * observed_mask) ** 2).sum(dim=-1, keepdim=True) / n
        return loc, torch.sqrt(var + self.minimum_scale)

class MoiraiForecast(nn.Module):
    def __init__(self, prediction_length=8, context_length=32, patch_size=8, d_model=32):
        super().__init__()
        self.patch_size = patch_size
        self.scaler = PackedStdScaler()
        self.in_proj = nn.Linear(patch_size, d_model)
        self.head = nn.Linear(d_model, prediction_length)

    def forward(self, past_target, past_observed_target, past_is_pad):
        observed_mask = past_observed_target & ~past_is_pad.unsqueeze(-1)
        target = torch.where(observed_mask, past_target, torch.zeros_like(past_target))
        loc, scale = self.scaler(target.transpose(1, 2), observed_mask.transpose(1, 2))
        scaled = (target.transpose(1, 2) - loc) / scale
        b, v, t = scaled.shape
        patches = scaled.reshape(b, v, t // self.patch_size, self.patch_size)
        h = self.in_proj(patches).mean(dim=2)
        return self.head(h) * scale + loc

model = MoiraiForecast()
model.eval()
past_target = torch.randn(4, 32, 1)
past_observed_target = torch.ones(4, 32, 1, dtype=torch.bool)
past_observed_target[:, :3] = False
past_is_pad = torch.zeros(4, 32, dtype=torch.bool)
'''
CELL = '''
with torch.no_grad():
    forecast = model(past_target=past_target, past_observed_target=past_observed_target,
                     past_is_pad=past_is_pad)
print(forecast.shape, forecast.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
