"""Look-alike: Conv-TasNet separation with the fix: the model and mixture on the GPU, the sources and their norm on the CPU.

Source: https://github.com/JusperLee/Conv-TasNet/issues/65
The fixed inference loop from the forks: the separated sources are copied to the CPU for writing
with torchaudio, and the mixture's infinity norm is moved there too (`norm = norm.to('cpu')`)
before rescaling. A GPU model and mixture next to CPU outputs is the intended layout: no finding.
Stand-in: the same two-speaker encoder/mask/decoder net as the bug case.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
norm = norm.to("cpu")
for s in spks:
    s = s * norm / torch.max(torch.abs(s))
    outputs.append(s.unsqueeze(0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
