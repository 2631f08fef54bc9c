"""MB-iSTFT-VITS2 inference on the CPU: the text, lengths and speaker id tensors are still sent to cuda.

Source: https://github.com/FENRlR/MB-iSTFT-VITS2/pull/17
With `net_g` loaded on the CPU, the inference notebook failed with "Expected all tensors to be on
the same device, but found at least two devices, cpu and cuda:0": the input tensors were converted
with a hard-coded `.cuda()` (`x_tst = stn_tst.cuda().unsqueeze(0)`, `x_tst_lengths`, `sid`). The
PR converts them "according to the type of device" instead.
Stand-in: a VITS-shaped `SynthesizerTrn.infer` (text encoder, sequence mask, speaker embedding,
flow/decoder as linears); the hard-coded `.cuda()` is written `.to("cuda:0")` for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

def sequence_mask(length, max_length=None):
    if max_length is None:
        max_length = length.max()
    x = torch.arange(max_length, dtype=length.dtype, device=length.device)
    return x.unsqueeze(0) < length.unsqueeze(1)

class SynthesizerTrn(nn.Module):
    def __init__(self, n_vocab=50, hidden=32, n_speakers=4, gin=16):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, hidden)
        self.enc = nn.Linear(hidden, hidden)
        self.emb_g = nn.Embedding(n_speakers, gin)
        self.cond = nn.Linear(gin, hidden)
        self.dec = nn.Linear(hidden, 64)

    def infer(self, x, x_lengths, sid=None, noise_scale=0.667, length_scale=1.0):
        x_mask = sequence_mask(x_lengths, x.size(1)).unsqueeze(-1).float()
        h = self.enc(self.emb(x)) * x_mask
        g = self.cond(self.emb_g(sid)).unsqueeze(1)
        return self.dec(h + g).flatten(1)

device = "cpu"
net_g = SynthesizerTrn().to(device)
_ = net_g.eval()
stn_tst = torch.LongTensor([3, 7, 1, 12, 9, 4, 22, 5])
x_tst = stn_tst.to("cuda:0").unsqueeze(0)
x_tst_lengths = torch.LongTensor([stn_tst.size(0)]).to("cuda:0")
sid = torch.LongTensor([2]).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    audio = net_g.infer(x_tst, x_tst_lengths, sid=sid, noise_scale=.667, length_scale=1)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["x_tst", "x_tst_lengths", "sid"]
FIX = "namespace"
REFERENCE_FIX = '''
x_tst = x_tst.to(device)
x_tst_lengths = x_tst_lengths.to(device)
sid = sid.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
