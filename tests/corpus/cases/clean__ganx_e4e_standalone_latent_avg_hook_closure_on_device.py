"""Look-alike: e4e's standalone loader keeps `latent_avg` in a forward-hook closure, moved to the device at load time.

Source: https://github.com/omertov/encoder4editing/blob/main/utils/model_utils.py
`load_e4e_standalone` loads the checkpoint with `map_location='cpu'`, moves the encoder with
`e4e.to(device)`, and takes `latent_avg = ckpt['latent_avg'].to(device)` into a closure used by a
forward hook (`outputs + latent_avg.repeat(...)`). The tensor lives outside the module, where
`Module.to()` would never see it, but it is created on the same device as the encoder, and the CPU
copy left in the checkpoint dict is never used in the forward. Stand-ins: `torch.load` is an in-memory
dict and Encoder4Editing a small conv + linear net.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import argparse
import torch
from torch import nn

# stand-in for torch.load(checkpoint_path, map_location='cpu')
_CHECKPOINTS = {
    "e4e_ffhq_encode.pt": {
        "opts": {"encoder_type": "Encoder4Editing", "n_styles": 4},
        "state_dict": {},
        "latent_avg": torch.randn(4, 16),
    },
}

class Encoder4Editing(nn.Module):
    def __init__(self, num_layers, mode, opts, style_dim=16):
        super().__init__()
        self.style_count = opts.n_styles
        self.style_dim = style_dim
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.styles = nn.Linear(8, self.style_count * style_dim)
    def forward(self, x):
        return self.styles(self.body(x)).view(x.shape[0], self.style_count, self.style_dim)

def load_e4e_standalone(checkpoint_path, device='cuda'):
    ckpt = _CHECKPOINTS[checkpoint_path]
    opts = argparse.Namespace(**ckpt['opts'])
    e4e = Encoder4Editing(50, 'ir_se', opts)
    e4e_dict = {k.replace('encoder.', ''): v for k, v in ckpt['state_dict'].items() if k.startswith('encoder.')}
    e4e.load_state_dict(e4e_dict, strict=False)
    e4e.eval()
    e4e = e4e.to(device)
    latent_avg = ckpt['latent_avg'].to(device)

    def add_latent_avg(model, inputs, outputs):
        return outputs + latent_avg.repeat(outputs.shape[0], 1, 1)

    e4e.register_forward_hook(add_latent_avg)
    return e4e

device = "cuda:0"
e4e = load_e4e_standalone("e4e_ffhq_encode.pt", device)
images = torch.rand(2, 3, 16, 16, device=device) * 2 - 1
'''
CELL = '''
with torch.no_grad():
    w_plus = e4e(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
