"""Look-alike: RAVE export builds a fresh CPU model from a `map_location='cpu'` checkpoint while the trained model sits on CUDA.

Source: https://github.com/acids-ircam/RAVE/blob/master/scripts/export.py (`main`)
`rave export` rebuilds `pretrained = rave.RAVE()` (CPU), loads `torch.load(FLAGS.run,
map_location='cpu')["state_dict"]`, calls `pretrained.eval()` and checks the export with a CPU test
signal `x = torch.zeros(1, pretrained.n_channels, 2**14)`: `z = scripted_rave.encode(x)`,
`x = scripted_rave.decode(z)`. In a notebook the training model is still on the GPU next to it; the
export copy is kept on the CPU on purpose (TorchScript for nn~ / the VST). Stand-ins: a RAVE with a
PQMF-like framing, a variational encoder and a decoder; scripting is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RAVE(nn.Module):
    def __init__(self, n_channels=1, ratio=256, latent_size=8):
        super().__init__()
        self.n_channels, self.ratio = n_channels, ratio
        self.encoder = nn.Sequential(nn.Linear(ratio * n_channels, 64), nn.LeakyReLU(0.2), nn.Linear(64, 2 * latent_size))
        self.decoder = nn.Sequential(nn.Linear(latent_size, 64), nn.LeakyReLU(0.2), nn.Linear(64, ratio * n_channels))

    def encode(self, x):
        frames = x.reshape(x.shape[0], self.n_channels, -1, self.ratio).transpose(1, 2).flatten(2)
        mean, scale = self.encoder(frames).chunk(2, dim=-1)
        return mean.transpose(1, 2)

    def decode(self, z):
        y = self.decoder(z.transpose(1, 2))
        return y.reshape(z.shape[0], -1, self.n_channels, self.ratio).transpose(1, 2).flatten(2)

model = RAVE().to("cuda:0")                      # the model trained in this notebook
checkpoint = {"state_dict": RAVE().state_dict()} # torch.load(run, map_location="cpu")
'''
CELL = '''
pretrained = RAVE()
pretrained.load_state_dict(checkpoint["state_dict"], strict=False)
pretrained.eval()
x = torch.zeros(1, pretrained.n_channels, 2**14)
with torch.no_grad():
    z = pretrained.encode(x)
    x = pretrained.decode(z)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
