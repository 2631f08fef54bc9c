"""train_text_to_image.py `--use_ema --resume_from_checkpoint`: the reloaded EMA shadow params are on the CPU.

Source: https://github.com/huggingface/diffusers/issues/3871
Resuming `train_text_to_image.py --use_ema` from `checkpoint-10000` failed with "Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu!". The script moves `ema_unet` to
`accelerator.device` before resuming; `accelerator.load_state` then runs the `load_model_hook`, which
replaces the EMA state with `EMAModel.from_pretrained(...)`'s CPU shadow parameters, so the next
`ema_unet.step(unet.parameters())` mixes CPU shadows with the GPU UNet. The EMA model has to be moved
to the device again after loading (`ema_unet.to(accelerator.device)`). Stand-in: EMAModel with
`step`/`load_state_dict`/`to`, a tiny UNet and the resume hook; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
from torch import nn

class EMAModel:
    def __init__(self, parameters, decay=0.9999):
        self.shadow_params = [p.clone().detach() for p in parameters]
        self.decay = decay
        self.optimization_step = 0

    @torch.no_grad()
    def step(self, parameters):
        self.optimization_step += 1
        one_minus_decay = 1 - self.decay
        for s_param, param in zip(self.shadow_params, parameters):
            s_param.sub_(one_minus_decay * (s_param - param))

    def to(self, device=None, dtype=None):
        self.shadow_params = [p.to(device=device, dtype=dtype) if p.is_floating_point() else p.to(device=device)
                              for p in self.shadow_params]

    def state_dict(self):
        return {"decay": self.decay, "optimization_step": self.optimization_step,
                "shadow_params": self.shadow_params}

    def load_state_dict(self, state_dict):
        self.decay = state_dict["decay"]
        self.optimization_step = state_dict["optimization_step"]
        self.shadow_params = state_dict["shadow_params"]

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 8, 3, padding=1)
        self.conv_out = nn.Conv2d(8, 4, 3, padding=1)

class Accelerator:
    device = torch.device("cuda:0")

accelerator = Accelerator()
_saved_unet = UNet2DConditionModel()                        # checkpoint-10000/unet_ema on disk
_saved_ema_state = EMAModel(_saved_unet.parameters()).state_dict()

unet = UNet2DConditionModel()
ema_unet = EMAModel(copy.deepcopy(unet).parameters())
unet = unet.to(accelerator.device)
ema_unet.to(accelerator.device)                             # if args.use_ema: ema_unet.to(accelerator.device)

def load_model_hook(models, input_dir):
    load_model = EMAModel(_saved_unet.parameters())         # EMAModel.from_pretrained(input_dir/unet_ema)
    load_model.load_state_dict(_saved_ema_state)
    ema_unet.load_state_dict(load_model.state_dict())
    del load_model

load_model_hook([unet], "checkpoint-10000")                 # accelerator.load_state(...)
'''
CELL = '''
ema_unet.step(unet.parameters())
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["ema_unet"]
FIX = "namespace"
REFERENCE_FIX = '''
ema_unet.to(accelerator.device)
'''
REFERENCE_EDIT = None
CLEAN = False
