"""asteroid SuDORMRFNet on the GPU: `pad()` appends zeros made on the CPU when the length is not a multiple of `lcm`.

Source: https://github.com/asteroid-team/asteroid/pull/603
The PR fixes issue #598, a device error of the SuDO-RM-RF separators on CUDA when the mixture length
is not a multiple of the padder's `lcm`: `asteroid/models/sudormrf.py::pad` builds
`padding = torch.zeros(list(x.shape[:-1]) + [lcm - values_to_pad], dtype=x.dtype)` without a device
and `torch.cat([x, padding], dim=-1)` mixes it with the CUDA waveform. The maintainers' fix (PR #603,
"Fix device in padding for sudormrf. Fix #598") adds `device=x.device` to the zeros.
Stand-ins: `_Padder` and `pad` as in asteroid 0.5 (without `@script_if_tracing`); a free-conv
encoder, a small conv masker instead of the U-ConvBlocks, `BaseEncoderMaskerDecoder.forward`
reduced, output trimmed with `narrow`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

def pad(x, lcm: int):
    values_to_pad = int(x.shape[-1]) % lcm
    if values_to_pad:
        appropriate_shape = x.shape
        padding = torch.zeros(
            list(appropriate_shape[:-1]) + [lcm - values_to_pad],
            dtype=x.dtype,
        )
        padded_x = torch.cat([x, padding], dim=-1)
        return padded_x
    return x

class _Padder(nn.Module):
    def __init__(self, encoder, upsampling_depth=4, kernel_size=21):
        super().__init__()
        self.encoder = encoder
        self.upsampling_depth = upsampling_depth
        self.kernel_size = kernel_size
        self.lcm = abs(self.kernel_size // 2 * 2 ** self.upsampling_depth) // math.gcd(
            self.kernel_size // 2, 2 ** self.upsampling_depth
        )

    def forward(self, x):
        x = pad(x, self.lcm)
        return self.encoder(x)

class SuDORMRFNet(nn.Module):
    """asteroid.models.SuDORMRFNet (stand-in, BaseEncoderMaskerDecoder reduced)."""
    def __init__(self, n_src=2, bn_chan=32, n_filters=64, upsampling_depth=4, kernel_size=21):
        super().__init__()
        self.n_src = n_src
        enc = nn.Conv1d(1, n_filters, kernel_size, stride=kernel_size // 2,
                        padding=kernel_size // 2, bias=False)
        self.encoder = _Padder(enc, upsampling_depth=upsampling_depth, kernel_size=kernel_size)
        self.masker = nn.Sequential(nn.Conv1d(n_filters, bn_chan, 1), nn.PReLU(),
                                    nn.Conv1d(bn_chan, n_src * n_filters, 1), nn.ReLU())
        self.decoder = nn.ConvTranspose1d(n_filters, 1, kernel_size, stride=kernel_size // 2,
                                          padding=kernel_size // 2,
                                          output_padding=(kernel_size // 2) - 1, bias=False)

    def forward(self, wav):
        wav = wav.unsqueeze(1)                               # _unsqueeze_to_3d
        tf_rep = torch.relu(self.encoder(wav))
        est_masks = self.masker(tf_rep).view(wav.shape[0], self.n_src, *tf_rep.shape[1:])
        masked = est_masks * tf_rep.unsqueeze(1)
        b, s, f, t = masked.shape
        decoded = self.decoder(masked.view(b * s, f, t)).view(b, s, -1)
        return decoded.narrow(-1, 0, wav.shape[-1])          # pad_x_to_y

device = torch.device("cuda:0")
model = SuDORMRFNet(n_src=2).to(device)
model.eval()
mixture = torch.randn(1, 16001).to(device)                    # 16001 % lcm (80) != 0
'''
CELL = '''
est_sources = model(mixture)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pad"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''            list(appropriate_shape[:-1]) + [lcm - values_to_pad],
            dtype=x.dtype,''', '''            list(appropriate_shape[:-1]) + [lcm - values_to_pad], dtype=x.dtype, device=x.device''')
CLEAN = False
