"""ComfyUI-BrushNet on a two-GPU machine: the BrushNet model loaded with `device_map="auto"` is split over cuda:0 and cuda:1, and a block's output on cuda:1 meets the cuda:0 residual stream.

Source: https://github.com/nullquant/ComfyUI-BrushNet/issues/45
With two 4090s and ComfyUI on cuda:0, the basic BrushNet workflow failed with "Expected all tensors
to be on the same device, but found at least two devices, cuda:1 and cuda:0!"; the user located it at
`hidden_states = resnet(hidden_states, temb)`, which moves hidden_states to cuda:1. The author: the
model was loaded with `device_map="auto"` (accelerate spreads the blocks over both GPUs and its hooks
move each block's inputs to that block); changed to `sequential` so it stays on one GPU. Stand-in:
a down block whose resnets carry accelerate-style pre-hooks (inputs to the block's device), the
residual sum on the caller's device.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class ResnetBlock2D(nn.Module):
    def __init__(self, ch=8, temb_ch=16):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.time_emb_proj = nn.Linear(temb_ch, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, hidden_states, temb):
        h = self.conv1(hidden_states) + self.time_emb_proj(temb)[:, :, None, None]
        return hidden_states + self.conv2(torch.relu(h))

class DownBlock2D(nn.Module):
    def __init__(self):
        super().__init__()
        self.resnets = nn.ModuleList([ResnetBlock2D(), ResnetBlock2D()])

    def forward(self, hidden_states, temb):
        output_states = ()
        for resnet in self.resnets:
            hidden_states = resnet(hidden_states, temb)
            output_states = output_states + (hidden_states,)
        return hidden_states, output_states

class BrushNetModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(9, 8, 3, padding=1)
        self.time_embedding = nn.Linear(1, 16)
        self.down_block = DownBlock2D()
        self.brushnet_down_block = nn.Conv2d(8, 8, 1)

    def forward(self, sample, timestep, brushnet_cond):
        temb = self.time_embedding(timestep[:, None].float())
        h = self.conv_in(torch.cat([sample, brushnet_cond], dim=1))
        h, res = self.down_block(h, temb)
        return [self.brushnet_down_block(r) + h for r in res]

def _align_inputs_hook(module, args):                   # accelerate AlignDevicesHook.pre_forward
    dev = next(module.parameters()).device
    return tuple(a.to(dev) if torch.is_tensor(a) else a for a in args)

def load_brushnet(device_map="auto"):
    model = BrushNetModel().to("cuda:0")
    if device_map == "auto":                             # infer_auto_device_map over two 24 GB cards
        for resnet in model.down_block.resnets[1:]:
            resnet.to("cuda:1")
            resnet.register_forward_pre_hook(_align_inputs_hook)
    return model

brushnet = load_brushnet("auto")
latent = torch.randn(1, 4, 16, 16, device="cuda:0")
cond = torch.randn(1, 5, 16, 16, device="cuda:0")       # masked-image latent + mask
t = torch.tensor([981], device="cuda:0")
'''
CELL = '''
brushnet_down_samples = brushnet(latent, t, cond)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["brushnet"]
FIX = "namespace"
REFERENCE_FIX = '''
brushnet.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
