"""SpatialAttentionGAN generate.py: the target attribute labels are left on the CPU.

Source: https://github.com/elvisyjlin/SpatialAttentionGAN/issues/4
"CUDA problem in generate.py": `samples, masks = G(reals, target_labels)` failed in the attention
network's `x = torch.cat((x, a), dim=1)` with "Expected object of backend CUDA but got backend CPU
for sequence element 1". The reporter fixed it in the script: `reals, labels = reals.to(device),
labels.type_as(reals).to(device)`; the labels (from which `target_labels` is made) were never
moved. Stand-in: the generator's attention branch reduced to a 1x1 projection over the
concatenation of image features and the tiled attribute vector (conv replaced by Linear).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class AttentionMaskNet(nn.Module):
    def __init__(self, c=3, n_attrs=1):
        super().__init__()
        self.proj = nn.Linear(c + n_attrs, 1)

    def forward(self, x, a):
        a = a.view(a.size(0), a.size(1), 1, 1).expand(-1, -1, x.size(2), x.size(3))
        x = torch.cat((x, a), dim=1)
        return torch.sigmoid(self.proj(x.permute(0, 2, 3, 1))).permute(0, 3, 1, 2)

class Generator(nn.Module):
    def __init__(self, c=3, n_attrs=1):
        super().__init__()
        self.AMN = AttentionMaskNet(c, n_attrs)
        self.edit = nn.Linear(c + n_attrs, c)

    def forward(self, x, a):
        mask = self.AMN(x, a)
        t = torch.cat((x, a.view(a.size(0), -1, 1, 1).expand(-1, -1, x.size(2), x.size(3))), 1)
        y = self.edit(t.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
        return mask * y + (1 - mask) * x, mask

device = torch.device("cuda:0")
G = Generator().to(device)
G.eval()
reals = torch.rand(4, 3, 16, 16).to(device)
labels = torch.tensor([[0], [1], [0], [1]])
target_labels = 1 - labels.float()
'''
CELL = '''
with torch.no_grad():
    samples, masks = G(reals, target_labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["target_labels"]
FIX = "namespace"
REFERENCE_FIX = '''
target_labels = target_labels.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
