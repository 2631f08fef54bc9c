"""An EMA of model weights updates every state-dict tensor in place, BatchNorm's int64 counter too.

Source: https://github.com/YU1ut/MixMatch-pytorch/issues/27
"RuntimeError: result type Float can't be cast to the desired output type Long" in WeightEMA.step:
it zips `model.state_dict().values()` with the EMA model's and does `ema_param.mul_(self.alpha)`,
which cannot store a float product in `num_batches_tracked`. The fix posted in the issue (merged
in PR #29): only update floating-point entries.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn

class WeightEMA:
    def __init__(self, model, ema_model, alpha=0.999):
        self.alpha = alpha
        self.params = list(model.state_dict().values())
        self.ema_params = list(ema_model.state_dict().values())

    def step(self):
        one_minus_alpha = 1.0 - self.alpha
        for param, ema_param in zip(self.params, self.ema_params):
            ema_param.mul_(self.alpha)
            ema_param.add_(param * one_minus_alpha)

def wide_resnet_stub():
    return nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))

model = wide_resnet_stub()
ema_model = wide_resnet_stub()
ema_optimizer = WeightEMA(model, ema_model)
'''
CELL = '''
ema_optimizer.step()
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["ema_optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            ema_param.mul_(self.alpha)
            ema_param.add_(param * one_minus_alpha)""",
    """            if ema_param.dtype == torch.float32:
                ema_param.mul_(self.alpha)
                ema_param.add_(param * one_minus_alpha)""",
)
CLEAN = False
