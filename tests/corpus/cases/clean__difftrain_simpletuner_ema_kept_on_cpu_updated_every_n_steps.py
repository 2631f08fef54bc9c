"""Look-alike: an EMA of the trained model kept on the CPU and updated every n steps from the GPU weights.

Source: https://github.com/bghira/SimpleTuner/pull/517
SimpleTuner's EMA can be offloaded to the CPU and updated only every n steps ("EMA on CPU only doesn't
seem to have a performance impact because it is only updated every 100th step", issue 1138): the
shadow parameters live on the CPU for the whole run while the model trains on the GPU, and each update
brings the online parameters to the shadow's device before the decay step. Deliberately split devices
that run: no finding expected. Stand-in: an EMAModel with a CPU `ema_device` and an update gate; GPU
simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class EMAModel:
    def __init__(self, parameters, decay=0.999, ema_device="cpu", update_every=10):
        self.ema_device = torch.device(ema_device)
        self.shadow_params = [p.detach().clone().to(self.ema_device) for p in parameters]
        self.decay = decay
        self.update_every = update_every

    @torch.no_grad()
    def step(self, parameters, global_step):
        if global_step % self.update_every != 0:
            return
        one_minus_decay = 1 - self.decay
        for s_param, param in zip(self.shadow_params, parameters):
            s_param.sub_(one_minus_decay * (s_param - param.detach().to(self.ema_device)))

class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 8, 3, padding=1)
        self.conv_out = nn.Conv2d(8, 4, 3, padding=1)

device = torch.device("cuda:0")
unet = UNet()
ema_unet = EMAModel(unet.parameters(), ema_device="cpu", update_every=10)
unet = unet.to(device)
global_step = 100
'''
CELL = '''
ema_unet.step(unet.parameters(), global_step)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
