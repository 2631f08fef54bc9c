"""DEIMv2: a model exported with torch.jit.trace on the CPU and run on a GPU; the ViT's RoPE coordinates were traced with the CPU device baked in.

Source: https://github.com/Intellindust-AI-Lab/DEIMv2/issues/77
"I exported the model with torch.jit.trace on the CPU; inference on the GPU fails: Expected all tensors
to be on the same device, but found at least two devices, cuda:1 and cpu!", pointing at
`RopePositionEmbedding` in vit_tiny.py. Its forward builds the patch coordinates with
`device = self.periods.device` (`torch.arange(0.5, H, device=device)`); tracing on the CPU records that
device as a constant while `periods` is a buffer that `.to('cuda:1')` moves. Stand-in: the RoPE module
as the traced code amounts to (the device constant written out), inside a tiny ViT block.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class RopePositionEmbedding(nn.Module):
    def __init__(self, embed_dim, num_heads, base=100.0):
        super().__init__()
        self.D_head = embed_dim // num_heads
        periods = base ** (2 * torch.arange(self.D_head // 4, dtype=torch.float32) / (self.D_head // 2))
        self.register_buffer("periods", periods, persistent=True)

    def forward(self, H, W):
        # traced: `device = self.periods.device` became the constant the trace saw
        coords_h = torch.arange(0.5, H, device=torch.device("cpu"), dtype=torch.float32) / H
        coords_w = torch.arange(0.5, W, device=torch.device("cpu"), dtype=torch.float32) / W
        coords = torch.stack(torch.meshgrid(coords_h, coords_w, indexing="ij"), dim=-1).flatten(0, 1)
        coords = 2.0 * coords - 1.0
        angles = 2 * torch.pi * coords[:, :, None] / self.periods[None, None, :]
        angles = angles.flatten(1, 2).tile(2)
        return torch.sin(angles), torch.cos(angles)

class ViTTiny(nn.Module):
    def __init__(self, embed_dim=32, num_heads=2, patch=4):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, patch, patch)
        self.rope_embed = RopePositionEmbedding(embed_dim, num_heads)
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.num_heads = num_heads

    def forward(self, x):
        x = self.patch_embed(x)
        B, C, H, W = x.shape
        x = x.flatten(2).transpose(1, 2)
        sin, cos = self.rope_embed(H, W)
        q, k, v = self.qkv(x).reshape(B, H * W, 3, self.num_heads, C // self.num_heads).unbind(2)
        q = q * cos[None, :, None, :] + q.roll(1, -1) * sin[None, :, None, :]
        return q.flatten(2)

model = ViTTiny().eval()            # torch.jit.load("deimv2_traced.pt") of the CPU trace
model = model.to("cuda:1")
images = torch.randn(1, 3, 32, 32, device="cuda:1")
'''
CELL = '''
with torch.no_grad():
    outputs = model(images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        coords_h = torch.arange(0.5, H, device=torch.device("cpu"), dtype=torch.float32) / H
        coords_w = torch.arange(0.5, W, device=torch.device("cpu"), dtype=torch.float32) / W
''', '''        coords_h = torch.arange(0.5, H, device=self.periods.device, dtype=torch.float32) / H
        coords_w = torch.arange(0.5, W, device=self.periods.device, dtype=torch.float32) / W
''')
CLEAN = False
