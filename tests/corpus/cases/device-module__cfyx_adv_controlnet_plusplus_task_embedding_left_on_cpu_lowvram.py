"""ComfyUI-Advanced-ControlNet ControlNet++ (union) under lowvram: the raw `task_embedding` Parameter stays on the CPU.

Source: https://github.com/Kosinkadink/ComfyUI-Advanced-ControlNet/issues/136
With three ControlNet++ inputs, sampling failed in control_plusplus.py `union_controlnet_merge` at
`feat_seq += self.task_embedding[indexes[idx][0]]` with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". The maintainer: "it's an issue with lowvram"
and fixed it (commit a895854) with `self.task_embedding[...].to(dtype=feat_seq.dtype, device=feat_seq.device)`.
In lowvram mode the ControlNet's comfy.ops layers stay on the CPU and cast their weights to the input's
device at each call, but the bare `task_embedding` Parameter is used directly and is never cast.
Stand-in: comfy.ops-style cast Linear/Conv, a partially loaded ControlNetPlusPlus, indexes precomputed.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class CastLinear(nn.Linear):                 # comfy.ops.manual_cast.Linear: weight cast at call time
    comfy_cast_weights = True
    def forward(self, x):
        return nn.functional.linear(x, self.weight.to(x.device, x.dtype), self.bias.to(x.device, x.dtype))

class CastConv2d(nn.Conv2d):
    comfy_cast_weights = True
    def forward(self, x):
        return self._conv_forward(x, self.weight.to(x.device, x.dtype), self.bias.to(x.device, x.dtype))

class ControlNetPlusPlus(nn.Module):
    def __init__(self, model_channels=32, num_control_type=6):
        super().__init__()
        self.model_channels = model_channels
        self.input_hint_block = CastConv2d(3, model_channels, 3, padding=1)
        self.task_embedding = nn.Parameter(torch.randn(num_control_type, model_channels))
        self.transformer_layes = CastLinear(model_channels, model_channels)
        self.spatial_ch_projs = CastLinear(model_channels, model_channels)

    def union_controlnet_merge(self, hint, indexes, emb, context):
        inputs = []
        condition_list = []
        for idx in range(len(indexes)):
            controlnet_cond = self.input_hint_block(hint[indexes[idx]])
            feat_seq = torch.mean(controlnet_cond, dim=(2, 3))
            if idx < len(indexes):
                feat_seq += self.task_embedding[indexes[idx]]
            inputs.append(feat_seq.unsqueeze(1))
            condition_list.append(controlnet_cond)
        x = torch.cat(inputs, dim=1)
        x = self.transformer_layes(x)
        controlnet_cond_fuser = None
        for idx in range(len(indexes)):
            alpha = self.spatial_ch_projs(x[:, idx]).unsqueeze(-1).unsqueeze(-1)
            o = condition_list[idx] + alpha
            controlnet_cond_fuser = o if controlnet_cond_fuser is None else controlnet_cond_fuser + o
        return controlnet_cond_fuser

device = torch.device("cuda:0")
control_model = ControlNetPlusPlus()          # lowvram: partially loaded, cast layers left on the CPU
hint = [torch.rand(1, 3, 32, 32, device=device) for _ in range(6)]   # one hint slot per control type
indexes = [0, 1, 3]                           # three ControlNet++ inputs (openpose, depth, canny)
emb = torch.randn(1, 128, device=device)
context = torch.randn(1, 77, 64, device=device)
'''
CELL = '''
guided_hint = control_model.union_controlnet_merge(hint, indexes, emb, context)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["control_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("feat_seq += self.task_embedding[indexes[idx]]", "feat_seq += self.task_embedding[indexes[idx]].to(dtype=feat_seq.dtype, device=feat_seq.device)")
CLEAN = False
