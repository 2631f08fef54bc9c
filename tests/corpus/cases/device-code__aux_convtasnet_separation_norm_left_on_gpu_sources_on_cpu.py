"""Conv-TasNet inference script: the separated sources are moved to the CPU but the mixture's `norm` stays on the GPU.

Source: https://github.com/JusperLee/Conv-TasNet/issues/12
Running `Separation.py` with the released `best.pt` on GPUs failed in `Separation.inference` at
`s = s*norm/torch.max(torch.abs(s))` with "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!": `egs` is moved to the GPU and `norm = torch.norm(egs, inf)` is
computed there, while each estimate is brought back with `s.detach().cpu()`. The reporter: "Fixed by
moving variable norm to cpu before computing s". Stand-ins: a small ConvTasNet returning one tensor per
speaker, the scp reader as a list of CPU waveforms, and `write_wav` keeping the results.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ConvTasNet(nn.Module):
    """Conv_TasNet.ConvTasNet (stand-in): encoder, mask per speaker, decoder; returns a list."""
    def __init__(self, N=32, L=16, num_spks=2):
        super().__init__()
        self.num_spks = num_spks
        self.encoder_1d = nn.Conv1d(1, N, L, stride=L // 2, padding=0)
        self.separation = nn.Conv1d(N, N * num_spks, 1)
        self.decoder_1d = nn.ConvTranspose1d(N, 1, L, stride=L // 2, bias=True)

    def forward(self, x):
        if x.dim() == 1:
            x = torch.unsqueeze(x, 0)
        w = torch.relu(self.encoder_1d(x.unsqueeze(1)))
        m = torch.sigmoid(self.separation(w)).chunk(self.num_spks, dim=1)
        return [self.decoder_1d(w * m[n]).squeeze(1) for n in range(self.num_spks)]

written = {}
def write_wav(fname, samps, sampling_rate=8000):
    written[fname] = samps

class Separation():
    def __init__(self, mix, net, gpuid):
        self.mix = mix                                   # AudioReader(mix_path, sample_rate=8000)
        self.net = net.to("cuda:0")                      # net.cuda()
        self.device = torch.device('cuda:{}'.format(gpuid[0]) if len(gpuid) > 0 else 'cpu')
        self.gpuid = tuple(gpuid)

    def inference(self, file_path):
        with torch.no_grad():
            for key, egs in self.mix:
                egs = egs.to(self.device)
                norm = torch.norm(egs, float('inf'))
                if len(self.gpuid) != 0:
                    ests = self.net(egs)
                    spks = [torch.squeeze(s.detach().cpu()) for s in ests]
                else:
                    ests = self.net(egs)
                    spks = [torch.squeeze(s.detach()) for s in ests]
                index = 0
                for s in spks:
                    s = s[:egs.shape[0]]
                    #norm
                    s = s*norm/torch.max(torch.abs(s))
                    index += 1
                    filename = file_path + '/spk' + str(index) + '/' + key
                    write_wav(filename, s, 8000)

net = ConvTasNet()                                       # loaded from best.pt (map_location='cpu')
mix = [("utt1.wav", torch.randn(8000)), ("utt2.wav", torch.randn(8000))]
separation = Separation(mix, net, gpuid=[0])
'''
CELL = '''
separation.inference("./checkpoint")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["separation"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "norm = torch.norm(egs, float('inf'))",
    "norm = torch.norm(egs, float('inf')).cpu()",
)
CLEAN = False
