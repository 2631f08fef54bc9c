"""positional-encodings' Summer adds a cached CPU encoding to a GPU patch embedding.

Source: https://github.com/tatp22/multidim-positional-encoding/issues/33
A shifted-window transformer used `Summer(PositionalEncoding3D(...))`; at test time with batch
size 1 the encoding was on 'cpu' while the patch embedding was on 'cuda:0', so `tensor + penc`
failed. The maintainer's fix (#41) puts the encoding on the input's device in `Summer`
(`penc.to(tensor.device)`). The encoder caches its last encoding in `self.cached_penc`, a plain
attribute that `Module.to()` does not move; the report does not say how the CPU copy arose, so the
stand-in assumes a batch-1 sanity pass on the CPU before `model.to(device)` (my choice).
Stand-in: the library's 3D encoder (cache logic kept) and a tiny patch-embedding model.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def get_emb(sin_inp):
    emb = torch.stack((sin_inp.sin(), sin_inp.cos()), dim=-1)
    return torch.flatten(emb, -2, -1)

class PositionalEncoding3D(nn.Module):
    """positional_encodings.torch_encodings.PositionalEncoding3D (stand-in, cache kept)."""

    def __init__(self, channels):
        super().__init__()
        self.org_channels = channels
        channels = int(np.ceil(channels / 6) * 2)
        if channels % 2:
            channels += 1
        self.channels = channels
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2).float() / channels))
        self.register_buffer("inv_freq", inv_freq)
        self.cached_penc = None

    def forward(self, tensor):
        if self.cached_penc is not None and self.cached_penc.shape == tensor.shape:
            return self.cached_penc
        self.cached_penc = None
        batch_size, x, y, z, orig_ch = tensor.shape
        pos_x = torch.arange(x, device=tensor.device).to(self.inv_freq.dtype)
        pos_y = torch.arange(y, device=tensor.device).to(self.inv_freq.dtype)
        pos_z = torch.arange(z, device=tensor.device).to(self.inv_freq.dtype)
        emb_x = get_emb(torch.einsum("i,j->ij", pos_x, self.inv_freq)).unsqueeze(1).unsqueeze(1)
        emb_y = get_emb(torch.einsum("i,j->ij", pos_y, self.inv_freq)).unsqueeze(1)
        emb_z = get_emb(torch.einsum("i,j->ij", pos_z, self.inv_freq))
        emb = torch.zeros((x, y, z, self.channels * 3), device=tensor.device, dtype=tensor.dtype)
        emb[:, :, :, : self.channels] = emb_x
        emb[:, :, :, self.channels : 2 * self.channels] = emb_y
        emb[:, :, :, 2 * self.channels :] = emb_z
        self.cached_penc = emb[None, :, :, :, :orig_ch].repeat(batch_size, 1, 1, 1, 1)
        return self.cached_penc

class Summer(nn.Module):
    """positional_encodings.torch_encodings.Summer before #41."""

    def __init__(self, penc):
        super().__init__()
        self.penc = penc

    def forward(self, tensor):
        penc = self.penc(tensor)
        assert tensor.size() == penc.size()
        return tensor + penc

class SwinStandIn(nn.Module):
    def __init__(self, in_ch=1, embed_dim=12, num_classes=2):
        super().__init__()
        self.patch_embed = nn.Conv3d(in_ch, embed_dim, kernel_size=2, stride=2)
        self.pos_enc = Summer(PositionalEncoding3D(embed_dim))
        self.head = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x).permute(0, 2, 3, 4, 1)
        x = self.pos_enc(x)
        return self.head(x.mean(dim=(1, 2, 3)))

device = torch.device("cuda:0")
model = SwinStandIn()
model.eval()
with torch.no_grad():
    _ = model(torch.randn(1, 1, 8, 8, 8))      # quick check on the CPU, batch size 1
model.to(device)
test_volume = torch.randn(1, 1, 8, 8, 8).to(device)
'''
CELL = '''
pred = model(test_volume)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.pos_enc.penc.cached_penc"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("penc = self.penc(tensor)\n", "penc = self.penc(tensor).to(tensor.device)\n")
CLEAN = False
