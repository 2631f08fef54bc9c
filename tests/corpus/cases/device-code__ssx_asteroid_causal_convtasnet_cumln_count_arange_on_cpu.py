"""asteroid causal ConvTasNet (`norm_type="cLN"`) on the GPU: `CumLN.forward` builds its frame counter with `torch.arange` on the CPU.

Source: https://github.com/asteroid-team/asteroid/pull/417
A causal Conv-TasNet uses cumulative layer norm. `CumLN.forward` divides the cumulative sums of the
CUDA features by `cnt = torch.arange(start=chan, end=chan * (spec_len + 1), step=chan,
dtype=x.dtype)`, created without a device, so on the GPU the division mixes cuda and cpu tensors.
The contributor's PR #417 ("Fix inconsistent devices for tensors", merged) creates the
counter with `device=x.device`.
Stand-ins: `_LayerNorm` / `CumLN` as in asteroid 0.4.1; a reduced causal ConvTasNet (free-conv
encoder, bottleneck + two dilated causal blocks normalised with cLN, decoder).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class _LayerNorm(nn.Module):
    """Layer Normalization base class."""
    def __init__(self, channel_size):
        super(_LayerNorm, self).__init__()
        self.channel_size = channel_size
        self.gamma = nn.Parameter(torch.ones(channel_size), requires_grad=True)
        self.beta = nn.Parameter(torch.zeros(channel_size), requires_grad=True)

    def apply_gain_and_bias(self, normed_x):
        return (self.gamma * normed_x.transpose(1, -1) + self.beta).transpose(1, -1)

class CumLN(_LayerNorm):
    """Cumulative Global layer normalization(cumLN)."""
    def forward(self, x, EPS: float = 1e-8):
        batch, chan, spec_len = x.size()
        cum_sum = torch.cumsum(x.sum(1, keepdim=True), dim=-1)
        cum_pow_sum = torch.cumsum(x.pow(2).sum(1, keepdim=True), dim=-1)
        cnt = torch.arange(start=chan, end=chan * (spec_len + 1), step=chan, dtype=x.dtype).view(
            1, 1, -1
        )
        cum_mean = cum_sum / cnt
        cum_var = cum_pow_sum - cum_mean.pow(2)
        return self.apply_gain_and_bias((x - cum_mean) / (cum_var + EPS).sqrt())

class CausalBlock(nn.Module):
    def __init__(self, chan, hid, dilation, kernel_size=3):
        super().__init__()
        self.pad = nn.ConstantPad1d(((kernel_size - 1) * dilation, 0), 0.0)
        self.net = nn.Sequential(nn.Conv1d(chan, hid, 1), nn.PReLU(), CumLN(hid))
        self.dconv = nn.Conv1d(hid, hid, kernel_size, dilation=dilation, groups=hid)
        self.out = nn.Conv1d(hid, chan, 1)

    def forward(self, x):
        return x + self.out(self.dconv(self.pad(self.net(x))))

class ConvTasNet(nn.Module):
    """asteroid.models.ConvTasNet(causal=True, norm_type="cLN") (stand-in)."""
    def __init__(self, n_src=2, n_filters=64, bn_chan=32, hid_chan=64, kernel_size=16, stride=8):
        super().__init__()
        self.n_src = n_src
        self.encoder = nn.Conv1d(1, n_filters, kernel_size, stride=stride, bias=False)
        self.bottleneck = nn.Sequential(CumLN(n_filters), nn.Conv1d(n_filters, bn_chan, 1))
        self.tcn = nn.Sequential(CausalBlock(bn_chan, hid_chan, 1), CausalBlock(bn_chan, hid_chan, 2))
        self.mask_net = nn.Sequential(nn.PReLU(), nn.Conv1d(bn_chan, n_src * n_filters, 1), nn.ReLU())
        self.decoder = nn.ConvTranspose1d(n_filters, 1, kernel_size, stride=stride, bias=False)

    def forward(self, wav):
        tf_rep = self.encoder(wav.unsqueeze(1))
        masks = self.mask_net(self.tcn(self.bottleneck(tf_rep)))
        b, f, t = tf_rep.shape
        masked = masks.view(b, self.n_src, f, t) * tf_rep.unsqueeze(1)
        return self.decoder(masked.view(b * self.n_src, f, t)).view(b, self.n_src, -1)

device = torch.device("cuda:0")
model = ConvTasNet(n_src=2).to(device)
mix = torch.randn(4, 8000).to(device)
'''
CELL = '''
est_sources = model(mix)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("step=chan, dtype=x.dtype).view(",
                  "step=chan, dtype=x.dtype, device=x.device).view(")
CLEAN = False
