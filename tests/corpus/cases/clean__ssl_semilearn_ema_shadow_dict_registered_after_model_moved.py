"""Look-alike: USB's `EMA` helper keeps the teacher weights in a plain dict of tensors, cloned from the model after it was moved.

Source: https://github.com/microsoft/Semi-supervised-learning/blob/main/semilearn/core/utils/misc.py
`semilearn.core.utils.misc.EMA` stores `self.shadow[name] = param.data.clone()` for every parameter
in `register()`, blends `(1.0 - self.decay) * param.data + self.decay * self.shadow[name]` in
`update()`, clones the buffers, and swaps the shadow weights in for evaluation with
`apply_shadow()` / `restore()`. The algorithm registers it after the model is on the GPU, so the dict
(outside `Module.to()`) already holds GPU tensors: nothing to report.
Stand-in: `EMA` as in the repo around a tiny CNN with BatchNorm.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class EMA:
    def __init__(self, model, decay):
        self.model = model
        self.decay = decay
        self.shadow = {}
        self.backup = {}

    def register(self):
        for name, param in self.model.named_parameters():
            self.shadow[name] = param.data.clone()

    def update(self):
        for name, param in self.model.named_parameters():
            new_average = (1.0 - self.decay) * param.data + self.decay * self.shadow[name]
            self.shadow[name] = new_average.clone()
        for name, buffer in self.model.named_buffers():
            self.shadow[name] = buffer.clone()

    def apply_shadow(self):
        for name, param in self.model.named_parameters():
            self.backup[name] = param.data
            param.data = self.shadow[name]

    def restore(self):
        for name, param in self.model.named_parameters():
            param.data = self.backup[name]
        self.backup = {}

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
model = model.to("cuda:0")        # algorithm.model = send_model_cuda(args, model)
ema = EMA(model, 0.999)
ema.register()
x_eval = torch.randn(2, 3, 8, 8, device="cuda:0")
'''
CELL = '''
ema.update()
ema.apply_shadow()
model.eval()
with torch.no_grad():
    logits = model(x_eval)
ema.restore()
model.train()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
