"""Look-alike: sd_dreambooth_extension keeps the EMA copy of the UNet in float32 while the trained UNet runs in float16.

Source: https://github.com/d8ahazard/sd_dreambooth_extension/pull/1417
"Due to lack of precision, in fp16/bf16 updates to EMA weights will almost always be rounded to 0
... The solution is to always use float32 for the EMA model." The EMA step subtracts the fp16
weights from the fp32 shadow weights in place (`s_param.sub_(one_minus_decay * (s_param -
param))`), which promotes to float32 and writes into the float32 shadow. Mixed dtypes on purpose.
Stand-in: a two-layer "UNet" and the EMAModel step, CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn

class EMAModel:
    def __init__(self, model, decay=0.9999):
        self.averaged_model = copy.deepcopy(model).to(dtype=torch.float32).eval()
        self.averaged_model.requires_grad_(False)
        self.decay = decay
        self.optimization_step = 0

    def get_decay(self, optimization_step):
        value = (1 + optimization_step) / (10 + optimization_step)
        return 1 - min(self.decay, value)

    @torch.no_grad()
    def step(self, new_model):
        one_minus_decay = self.get_decay(self.optimization_step)
        for s_param, param in zip(self.averaged_model.parameters(), new_model.parameters()):
            if param.requires_grad:
                s_param.sub_(one_minus_decay * (s_param - param))
            else:
                s_param.copy_(param)
        self.optimization_step += 1

weight_dtype = torch.float16
unet = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 4, 3, padding=1))
ema_unet = EMAModel(unet)
unet.to(dtype=weight_dtype)
# the weights after an optimizer step (the step itself runs on the fp32 master copy elsewhere)
with torch.no_grad():
    for p in unet.parameters():
        p.add_(0.01)
'''
CELL = '''
ema_unet.step(unet)
print(next(ema_unet.averaged_model.parameters()).dtype, next(unet.parameters()).dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
