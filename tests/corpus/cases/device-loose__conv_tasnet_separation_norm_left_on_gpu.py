"""Conv-TasNet separation: the estimated sources are copied to the CPU, the mixture's norm stays on the GPU.

Source: https://github.com/JusperLee/Conv-TasNet/issues/65
`Separation.inference` failed at `s = s*norm/torch.max(torch.abs(s))` with "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu!". `norm =
torch.norm(egs, float('inf'))` is taken from the mixture on the GPU (a 0-dim CUDA tensor), while
`spks` are `s.detach().cpu()`. Moving `s` to the GPU only broke `torchaudio.save` later; the fix
used in the forks is `norm = norm.to('cpu')`. Stand-in: a two-speaker encoder/mask/decoder net.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class ConvTasNet(nn.Module):
    def __init__(self, N=16, L=8, num_spks=2):
        super().__init__()
        self.num_spks = num_spks
        self.encoder = nn.Conv1d(1, N, L, stride=L // 2)
        self.separation = nn.Conv1d(N, N * num_spks, 1)
        self.decoder = nn.ConvTranspose1d(N, 1, L, stride=L // 2)

    def forward(self, x):
        w = torch.relu(self.encoder(x.unsqueeze(1)))
        m = torch.sigmoid(self.separation(w)).chunk(self.num_spks, dim=1)
        return [self.decoder(w * m[i]).squeeze(1) for i in range(self.num_spks)]

device = torch.device("cuda:0")
net = ConvTasNet().to(device)
mix = torch.randn(1, 800)
with torch.no_grad():
    egs = mix.to(device)
    norm = torch.norm(egs, float("inf"))
    ests = net(egs)
    spks = [torch.squeeze(s.detach().cpu()) for s in ests]
'''
CELL = '''
outputs = []
for s in spks:
    s = s[:egs.shape[1]]
    s = s * norm / torch.max(torch.abs(s))
    outputs.append(s)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["norm"]
FIX = "namespace"
REFERENCE_FIX = '''
norm = norm.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
