"""ComfyUI-Advanced-ControlNet after ComfyUI started keeping conds on the CPU: ControlNetAdvanced passes `context.to(dtype)` (still on the CPU) to a GPU control model.

Source: https://github.com/Kosinkadink/ComfyUI-Advanced-ControlNet/issues/234
From an August 2025 ComfyUI commit on, KSampler with an Advanced ControlNet failed with "Expected all
tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument
for argument mat2 in method wrapper_CUDA_mm)". ComfyUI now leaves the cross-attention cond on the CPU and
casts it at use (and fixed its own ControlNet the same way); the node pack's `get_control` still only
changed the dtype: `context=context.to(dtype)`. The merged fix (PR #235, then #236/#237) passes
`context=comfy.model_management.cast_to_device(context, x_noisy.device, dtype)`.
Stand-in: ControlNetAdvanced.sliding_get_control reduced to the cond path, cast_to_device, a tiny ControlNet.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def cast_to_device(tensor, device, dtype, copy=False):      # comfy.model_management
    return tensor.to(device=device, dtype=dtype, copy=copy)

class ControlNetModel(nn.Module):                          # comfy.cldm.cldm.ControlNet (tiny)
    def __init__(self, ch=32, context_dim=64):
        super().__init__()
        self.dtype = torch.float32
        self.input_hint_block = nn.Conv2d(3, ch, 3, padding=1)
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.to_k = nn.Linear(context_dim, ch, bias=False)
        self.zero_conv = nn.Conv2d(ch, ch, 1)

    def forward(self, x, hint, timesteps, context):
        h = self.conv_in(x) + nn.functional.interpolate(self.input_hint_block(hint), size=x.shape[-2:])
        k = self.to_k(context)                                 # cross-attention keys
        attn = torch.softmax(h.flatten(2).transpose(1, 2) @ k.transpose(1, 2), dim=-1) @ k
        h = h + attn.transpose(1, 2).reshape(h.shape)
        return {"output": [self.zero_conv(h)]}

class ControlNetAdvanced:
    def __init__(self, control_model, cond_hint):
        self.control_model = control_model
        self.cond_hint = cond_hint
        self.manual_cast_dtype = None
        self.previous_controlnet = None

    def get_control(self, x_noisy, t, cond, batched_number, transformer_options):
        return self.sliding_get_control(x_noisy, t, cond, batched_number, transformer_options)

    def sliding_get_control(self, x_noisy, t, cond, batched_number, transformer_options):
        dtype = self.control_model.dtype
        if self.manual_cast_dtype is not None:
            dtype = self.manual_cast_dtype
        context = cond["c_crossattn"]
        control = self.control_model(x=x_noisy.to(dtype), hint=self.cond_hint, timesteps=t.to(dtype), context=context.to(dtype))
        return control

device = torch.device("cuda:0")
controlnet = ControlNetAdvanced(ControlNetModel().to(device), torch.rand(1, 3, 64, 64, device=device))
cond = {"c_crossattn": torch.randn(1, 77, 64)}              # ComfyUI now keeps the cond on the CPU
x_noisy = torch.randn(1, 4, 8, 8, device=device)
t = torch.tensor([999.0], device=device)
'''
CELL = '''
control = controlnet.get_control(x_noisy, t, cond, [1], {})
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["controlnet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("context=context.to(dtype))", "context=cast_to_device(context, x_noisy.device, dtype))")
CLEAN = False
