"""ComfyUI native BiRefNet, loaded partially in low-VRAM mode: the Swin relative position bias stays on the CPU.

Source: https://github.com/Saganaki22/Pixal3D-ComfyUI/issues/13
With hybrid low-VRAM mode, "Load Background Removal Model" + "Remove Background" logged "loaded
partially; 0.00 MB loaded, 419.43 MB offloaded" and failed with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". The maintainer's diagnosis: the attention
tensor is on CUDA (ComfyUI's cast-on-forward ops bring the Linear weights to the input's device), but
BiRefNet's relative position bias (a bare `nn.Parameter` plus its index buffer, which those ops never
cast) remains on the CPU; the patch makes the bias follow the attention tensor's device in forward.
Stand-ins: `comfy.ops`-style Linear/LayerNorm that cast weights to the input device, a one-block Swin
backbone, and a ModelPatcher-like wrapper that offloads everything. SIM meta: "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ops:                                          # comfy.ops.manual_cast stand-in
    class Linear(nn.Linear):
        def forward(self, input):
            weight = self.weight.to(input.device)   # cast_bias_weight(self, input)
            bias = None if self.bias is None else self.bias.to(input.device)
            return F.linear(input, weight, bias)

    class LayerNorm(nn.LayerNorm):
        def forward(self, input):
            return F.layer_norm(input, self.normalized_shape, self.weight.to(input.device),
                                self.bias.to(input.device), self.eps)

def window_partition(x, window_size):
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, C)

def window_reverse(windows, window_size, H, W):
    B = int(windows.shape[0] / (H * W / window_size / window_size))
    x = windows.view(B, H // window_size, W // window_size, window_size, window_size, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)

class WindowAttention(nn.Module):
    def __init__(self, dim, window_size, num_heads, operations=ops):
        super().__init__()
        self.dim = dim
        self.window_size = window_size
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(
            torch.zeros((2 * window_size[0] - 1) * (2 * window_size[1] - 1), num_heads))
        coords = torch.stack(torch.meshgrid([torch.arange(window_size[0]), torch.arange(window_size[1])], indexing="ij"))
        coords_flatten = torch.flatten(coords, 1)
        relative_coords = (coords_flatten[:, :, None] - coords_flatten[:, None, :]).permute(1, 2, 0).contiguous()
        relative_coords[:, :, 0] += window_size[0] - 1
        relative_coords[:, :, 1] += window_size[1] - 1
        relative_coords[:, :, 0] *= 2 * window_size[1] - 1
        self.register_buffer("relative_position_index", relative_coords.sum(-1))
        self.qkv = operations.Linear(dim, dim * 3)
        self.proj = operations.Linear(dim, dim)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        relative_position_bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(
            self.window_size[0] * self.window_size[1], self.window_size[0] * self.window_size[1], -1)
        relative_position_bias = relative_position_bias.permute(2, 0, 1).contiguous()
        attn = attn + relative_position_bias.unsqueeze(0)
        attn = self.softmax(attn)
        x = (attn @ v).transpose(1, 2).reshape(B_, N, C)
        return self.proj(x)

class SwinTransformerBlock(nn.Module):
    def __init__(self, dim, num_heads, window_size=4, operations=ops):
        super().__init__()
        self.window_size = window_size
        self.norm1 = operations.LayerNorm(dim)
        self.attn = WindowAttention(dim, (window_size, window_size), num_heads, operations=operations)

    def forward(self, x, H, W):
        B, L, C = x.shape
        shortcut = x
        x = self.norm1(x).view(B, H, W, C)
        x_windows = window_partition(x, self.window_size).view(-1, self.window_size * self.window_size, C)
        attn_windows = self.attn(x_windows).view(-1, self.window_size, self.window_size, C)
        x = window_reverse(attn_windows, self.window_size, H, W).view(B, H * W, C)
        return shortcut + x

class BasicLayer(nn.Module):
    def __init__(self, dim, depth, num_heads, operations=ops):
        super().__init__()
        self.blocks = nn.ModuleList([SwinTransformerBlock(dim, num_heads, operations=operations) for _ in range(depth)])

    def forward(self, x, H, W):
        for blk in self.blocks:
            x = blk(x, H, W)
        return x

class SwinTransformer(nn.Module):
    def __init__(self, patch_size=4, embed_dim=16, operations=ops):
        super().__init__()
        self.patch_size = patch_size
        self.patch_embed = operations.Linear(3 * patch_size * patch_size, embed_dim)
        self.layers = nn.ModuleList([BasicLayer(embed_dim, depth=1, num_heads=2, operations=operations)])

    def forward(self, x):
        B, C, H, W = x.shape
        p = self.patch_size
        x = x.view(B, C, H // p, p, W // p, p).permute(0, 2, 4, 1, 3, 5).reshape(B, (H // p) * (W // p), C * p * p)
        x = self.patch_embed(x)
        for layer in self.layers:
            x = layer(x, H // p, W // p)
        return x

class BiRefNet(nn.Module):
    def __init__(self, operations=ops):
        super().__init__()
        self.bb = SwinTransformer(operations=operations)
        self.head = operations.Linear(16, 1)

    def forward(self, x):
        return [self.head(self.bb(x))]

class ModelPatcher:                                   # comfy.model_patcher stand-in
    def __init__(self, model, load_device, offload_device):
        self.model = model.eval()
        self.load_device = load_device
        self.offload_device = offload_device

    def partially_load(self, device, extra_memory=0):
        # lowvram: 0.00 MB fit, every weight stays on the offload device and is cast per layer
        return 0

    def encode_image(self, image):                    # IMAGE [B, H, W, C] -> mask tokens
        x = image.movedim(-1, 1).to(self.load_device)
        with torch.no_grad():
            return self.model(x)[-1].sigmoid()

bg_removal_model = ModelPatcher(BiRefNet(), load_device=torch.device("meta"), offload_device=torch.device("cpu"))
bg_removal_model.partially_load(bg_removal_model.load_device)
image = torch.rand(1, 32, 32, 3)
'''
CELL = '''
mask = bg_removal_model.encode_image(image)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["bg_removal_model.model.bb.layers[0].blocks[0].attn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("attn = attn + relative_position_bias.unsqueeze(0)",
                  "attn = attn + relative_position_bias.to(attn.device).unsqueeze(0)")
CLEAN = False
