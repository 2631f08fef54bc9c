"""Look-alike: after `fuse_lora`, diffusers' `LoRACompatibleConv` keeps the LoRA up/down matrices as plain CPU attributes next to its GPU weight.

Source: https://github.com/huggingface/diffusers/blob/v0.25.0/src/diffusers/models/lora.py
`_fuse_lora` folds `w_up @ w_down` into the conv weight on the weight's device, drops the LoRA
layer, and then "offload[s] the up and down matrices to CPU to not blow the memory"
(`self.w_up = w_up.cpu()`, `self.w_down = w_down.cpu()`). The fused forward never reads them;
`_unfuse_lora` brings them back with `self.w_up.to(device=device)` before subtracting. The CPU
tensors on a GPU module are deliberate.
Stand-in: `LoRAConv2dLayer` / `LoRACompatibleConv` as in that file (conv path only, no
`safe_fusing`), one conv of a UNet block on "cuda:0".
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LoRAConv2dLayer(nn.Module):
    def __init__(self, in_features, out_features, rank=4, kernel_size=(1, 1), stride=(1, 1),
                 padding=0, network_alpha=None):
        super().__init__()
        self.down = nn.Conv2d(in_features, rank, kernel_size=kernel_size, stride=stride, padding=padding, bias=False)
        self.up = nn.Conv2d(rank, out_features, kernel_size=(1, 1), stride=(1, 1), bias=False)
        self.network_alpha = network_alpha
        self.rank = rank
        nn.init.normal_(self.down.weight, std=1 / rank)
        nn.init.normal_(self.up.weight, std=0.01)

    def forward(self, hidden_states):
        orig_dtype = hidden_states.dtype
        dtype = self.down.weight.dtype
        down_hidden_states = self.down(hidden_states.to(dtype))
        up_hidden_states = self.up(down_hidden_states)
        if self.network_alpha is not None:
            up_hidden_states *= self.network_alpha / self.rank
        return up_hidden_states.to(orig_dtype)

class LoRACompatibleConv(nn.Conv2d):
    def __init__(self, *args, lora_layer=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lora_layer = lora_layer

    def set_lora_layer(self, lora_layer):
        self.lora_layer = lora_layer

    def _fuse_lora(self, lora_scale=1.0):
        if self.lora_layer is None:
            return
        dtype, device = self.weight.data.dtype, self.weight.data.device
        w_orig = self.weight.data.float()
        w_up = self.lora_layer.up.weight.data.float()
        w_down = self.lora_layer.down.weight.data.float()
        if self.lora_layer.network_alpha is not None:
            w_up = w_up * self.lora_layer.network_alpha / self.lora_layer.rank
        fusion = torch.mm(w_up.flatten(start_dim=1), w_down.flatten(start_dim=1))
        fusion = fusion.reshape((w_orig.shape))
        fused_weight = w_orig + (lora_scale * fusion)
        self.weight.data = fused_weight.to(device=device, dtype=dtype)

        # we can drop the lora layer now
        self.lora_layer = None

        # offload the up and down matrices to CPU to not blow the memory
        self.w_up = w_up.cpu()
        self.w_down = w_down.cpu()
        self._lora_scale = lora_scale

    def _unfuse_lora(self):
        if not (getattr(self, "w_up", None) is not None and getattr(self, "w_down", None) is not None):
            return
        fused_weight = self.weight.data
        dtype, device = fused_weight.data.dtype, fused_weight.data.device
        self.w_up = self.w_up.to(device=device).float()
        self.w_down = self.w_down.to(device).float()
        fusion = torch.mm(self.w_up.flatten(start_dim=1), self.w_down.flatten(start_dim=1))
        fusion = fusion.reshape((fused_weight.shape))
        unfused_weight = fused_weight.float() - (self._lora_scale * fusion)
        self.weight.data = unfused_weight.to(device=device, dtype=dtype)
        self.w_up = None
        self.w_down = None

    def forward(self, hidden_states, scale=1.0):
        if self.lora_layer is None:
            return F.conv2d(hidden_states, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        original_outputs = F.conv2d(hidden_states, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        return original_outputs + (scale * self.lora_layer(hidden_states))

conv = LoRACompatibleConv(8, 8, kernel_size=3, padding=1)
conv.set_lora_layer(LoRAConv2dLayer(8, 8, rank=4, kernel_size=(3, 3), padding=1))
conv = conv.to("cuda:0")
conv._fuse_lora(lora_scale=0.8)       # pipe.fuse_lora(lora_scale=0.8)
sample = torch.randn(1, 8, 16, 16, device="cuda:0")
'''
CELL = '''
out = conv(sample)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
