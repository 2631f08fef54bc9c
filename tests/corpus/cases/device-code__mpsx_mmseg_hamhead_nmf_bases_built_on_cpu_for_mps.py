"""mmsegmentation HamHead on a Mac: NMF2D builds its random bases on the CPU unless the feature map is on CUDA.

Source: https://github.com/open-mmlab/mmsegmentation/pull/2868
Training a SegNeXt/HamHead config with `tools/train.py` on Apple Silicon (mps) crashed inside
`decode_head`: `_MatrixDecomposition2DBase.forward` computes `cuda = 'cuda' in str(x.device)` and
`NMF2D._build_bases(..., cuda=cuda)` only calls `.cuda()` when that is true, so for an mps feature
map the bases stay on the CPU and `torch.bmm(x.transpose(1, 2), bases)` mixes devices. The PR
("Handle case where device is neither CPU nor CUDA in HamHead") builds the bases on `x.device`.
Stand-in: HamHead -> Hamburger -> NMF2D reduced to the bases and one multiplicative update; cuda:0
stands in for mps, so the stand-in's `cuda` test also asks `torch.cuda.is_available()` (False in the
simulation), which is what `'cuda' in 'mps:0'` answered for the reporter.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class NMF2D(nn.Module):
    def __init__(self, S=1, R=16, steps=2, inv_t=1):
        super().__init__()
        self.S, self.R, self.steps, self.inv_t = S, R, steps, inv_t

    def _build_bases(self, B, S, D, R, cuda=False):
        if cuda:
            bases = torch.rand((B * S, D, R)).cuda()
        else:
            bases = torch.rand((B * S, D, R))
        bases = F.normalize(bases, dim=1)
        return bases

    def forward(self, x):
        B, C, H, W = x.shape
        D = C // self.S
        N = H * W
        x = x.view(B * self.S, D, N)
        cuda = torch.cuda.is_available() and 'cuda' in str(x.device)   # mmseg: 'cuda' in str(x.device)
        bases = self._build_bases(B, self.S, D, self.R, cuda=cuda)
        coef = torch.bmm(x.transpose(1, 2), bases)
        coef = F.softmax(self.inv_t * coef, dim=-1)
        for _ in range(self.steps):
            numerator = torch.bmm(x.transpose(1, 2), bases)
            denominator = coef.bmm(bases.transpose(1, 2).bmm(bases))
            coef = coef * numerator / (denominator + 1e-6)
        x = torch.bmm(bases, coef.transpose(1, 2))
        return x.view(B, C, H, W)

class Hamburger(nn.Module):
    def __init__(self, ham_channels=32):
        super().__init__()
        self.ham_in = nn.Conv2d(ham_channels, ham_channels, 1)
        self.ham = NMF2D()
        self.ham_out = nn.Conv2d(ham_channels, ham_channels, 1)

    def forward(self, x):
        enjoy = F.relu(self.ham_in(x))
        enjoy = self.ham(enjoy)
        return F.relu(x + self.ham_out(enjoy))

class LightHamHead(nn.Module):
    def __init__(self, in_channels=32, num_classes=5):
        super().__init__()
        self.squeeze = nn.Conv2d(in_channels, 32, 1)
        self.hamburger = Hamburger(32)
        self.conv_seg = nn.Conv2d(32, num_classes, 1)

    def forward(self, x):
        return self.conv_seg(self.hamburger(F.relu(self.squeeze(x))))

class EncoderDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=4, padding=1), nn.ReLU())
        self.decode_head = LightHamHead()

    def forward(self, inputs):
        return self.decode_head(self.backbone(inputs))

device = torch.device("cuda:0")     # mmengine Runner picked "mps"
model = EncoderDecoder().to(device)
inputs = torch.randn(2, 3, 64, 64).to(device)
'''
CELL = '''
seg_logits = model(inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.decode_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        bases = self._build_bases(B, self.S, D, self.R, cuda=cuda)\n",
                  "        bases = self._build_bases(B, self.S, D, self.R, cuda=False).to(x.device)\n")
CLEAN = False
