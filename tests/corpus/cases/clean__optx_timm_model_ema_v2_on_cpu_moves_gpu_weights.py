"""Look-alike: timm's ModelEmaV2 with `device='cpu'` keeps the EMA weights on the CPU and moves each GPU weight to it.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/utils/model_ema.py
"device: If provided, ema model will be kept on this device" -- `_update` does
`if self.device is not None: model_v = model_v.to(device=self.device)` before blending, so a CPU
EMA next to a CUDA model is the documented way to save GPU memory. Stand-in: ModelEmaV2 reduced
to `__init__`/`_update`/`update` (its deepcopy written as a fresh instance loaded with the same
state, since fake tensors cannot be deep-copied), a small classifier on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9999, device=None):
        super().__init__()
        self.module = make_model()                 # upstream: deepcopy(model)
        self.module.load_state_dict(model.state_dict())
        self.module.eval()
        self.decay = decay
        self.device = device
        if self.device is not None:
            self.module.to(device=device)

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if self.device is not None:
                    model_v = model_v.to(device=self.device)
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)

def make_model():
    return nn.Sequential(nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 10))

model = make_model()
model_ema = ModelEmaV2(model, decay=0.9998, device="cpu")
model.to("cuda:0")
'''
CELL = '''
model_ema.update(model)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
