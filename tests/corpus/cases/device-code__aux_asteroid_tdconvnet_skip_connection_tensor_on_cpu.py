"""asteroid ConvTasNet on the GPU: `TDConvNet.forward` starts the skip-connection sum from `torch.tensor([0.0])` on the CPU.

Source: https://github.com/asteroid-team/asteroid/issues/300
Running the wham ConvTasNet recipe on GPUs (asteroid 0.3.4) failed in
`asteroid/masknn/convolutional.py` at `skip_connection = skip_connection + skip` with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The reporter found
the accumulator `skip_connection = torch.tensor([0.0])` made without a device; the maintainer fixed it
on master (`torch.tensor([0.0], device=output.device)`). Stand-in: a small ConvTasNet (free-conv
encoder, TDConvNet masker with skip outputs, decoder) in asteroid's names.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Conv1DBlock(nn.Module):
    """asteroid.masknn.convolutional.Conv1DBlock (stand-in): returns (residual, skip)."""
    def __init__(self, in_chan, hid_chan, skip_out_chan, kernel_size, padding, dilation):
        super().__init__()
        self.shared_block = nn.Sequential(
            nn.Conv1d(in_chan, hid_chan, 1), nn.PReLU(), nn.GroupNorm(1, hid_chan),
            nn.Conv1d(hid_chan, hid_chan, kernel_size, padding=padding, dilation=dilation,
                      groups=hid_chan),
            nn.PReLU(), nn.GroupNorm(1, hid_chan))
        self.res_conv = nn.Conv1d(hid_chan, in_chan, 1)
        self.skip_conv = nn.Conv1d(hid_chan, skip_out_chan, 1)

    def forward(self, x):
        shared_out = self.shared_block(x)
        return self.res_conv(shared_out), self.skip_conv(shared_out)

class TDConvNet(nn.Module):
    """asteroid.masknn.TDConvNet (asteroid 0.3.4, reduced)."""
    def __init__(self, in_chan, n_src, n_blocks=3, bn_chan=16, hid_chan=32, skip_chan=16,
                 conv_kernel_size=3):
        super().__init__()
        self.in_chan, self.n_src, self.skip_chan = in_chan, n_src, skip_chan
        self.bottleneck = nn.Sequential(nn.GroupNorm(1, in_chan), nn.Conv1d(in_chan, bn_chan, 1))
        self.TCN = nn.ModuleList()
        for x in range(n_blocks):
            padding = (conv_kernel_size - 1) * 2 ** x // 2
            self.TCN.append(Conv1DBlock(bn_chan, hid_chan, skip_chan, conv_kernel_size,
                                        padding=padding, dilation=2 ** x))
        self.mask_net = nn.Sequential(nn.PReLU(), nn.Conv1d(skip_chan, n_src * in_chan, 1))
        self.output_act = nn.ReLU()

    def forward(self, mixture_w):
        batch, n_filters, n_frames = mixture_w.size()
        output = self.bottleneck(mixture_w)
        skip_connection = torch.tensor([0.0])
        for i in range(len(self.TCN)):
            tcn_out = self.TCN[i](output)
            if self.skip_chan:
                residual, skip = tcn_out
                skip_connection = skip_connection + skip
            else:
                residual = tcn_out
            output = output + residual
        mask_inp = skip_connection if self.skip_chan else output
        score = self.mask_net(mask_inp)
        score = score.view(batch, self.n_src, self.in_chan, n_frames)
        return self.output_act(score)

class ConvTasNet(nn.Module):
    """asteroid.models.ConvTasNet (stand-in): encoder -> TDConvNet masker -> decoder."""
    def __init__(self, n_src=2, n_filters=64, kernel_size=16, stride=8):
        super().__init__()
        self.encoder = nn.Conv1d(1, n_filters, kernel_size, stride=stride, bias=False)
        self.masker = TDConvNet(n_filters, n_src)
        self.decoder = nn.ConvTranspose1d(n_filters, 1, kernel_size, stride=stride, bias=False)

    def forward(self, wav):
        tf_rep = self.encoder(wav.unsqueeze(1))
        est_masks = self.masker(tf_rep)
        masked_tf_rep = est_masks * tf_rep.unsqueeze(1)
        batch, n_src, n_filters, n_frames = masked_tf_rep.shape
        est = self.decoder(masked_tf_rep.view(batch * n_src, n_filters, n_frames))
        return est.view(batch, n_src, -1)

device = torch.device("cuda:0")
model = ConvTasNet(n_src=2).to(device)
mix = torch.randn(4, 8000).to(device)          # a wham batch, 1 s at 8 kHz
'''
CELL = '''
with torch.no_grad():
    est_sources = model(mix)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.masker"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "skip_connection = torch.tensor([0.0])",
    "skip_connection = torch.tensor([0.0], device=output.device)",
)
CLEAN = False
