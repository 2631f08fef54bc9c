"""LPIPS inside a user `Lpips_Loss` wrapper: inputs on cuda:0, the LPIPS module (and its ScalingLayer buffers) left on the CPU.

Source: https://github.com/richzhang/PerceptualSimilarity/issues/91
The user's `losses/Lpips_Loss.py` wraps `lpips.LPIPS` as `self.loss` and calls it with
`normalize=True` on BGR-swapped cuda:0 images; it fails in `ScalingLayer.forward`,
`(inp - self.shift) / self.scale`, with cuda:0 and cpu. The reporter's own answer: "I don't transmit
Lpips model to gpu" -- moving the loss module to the GPU fixes it (the buffers follow `.to()`).
Stand-in: ScalingLayer as in lpips 0.1.4 (registered buffers), a one-conv feature net and a 1x1 `lin`
layer in place of AlexNet and the pretrained heads; the BGR swap `[:, (2, 1, 0), ...]` is written as
`.flip(1)` (the same permutation for three channels).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class ScalingLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('shift', torch.Tensor([-.030, -.088, -.188])[None, :, None, None])
        self.register_buffer('scale', torch.Tensor([.458, .448, .450])[None, :, None, None])

    def forward(self, inp):
        return (inp - self.shift) / self.scale

def normalize_tensor(in_feat, eps=1e-10):
    norm_factor = torch.sqrt(torch.sum(in_feat ** 2, dim=1, keepdim=True))
    return in_feat / (norm_factor + eps)

class LPIPS(nn.Module):
    def __init__(self):
        super().__init__()
        self.version = '0.1'
        self.scaling_layer = ScalingLayer()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.lin0 = nn.Conv2d(8, 1, 1, bias=False)

    def forward(self, in0, in1, normalize=False):
        if normalize:
            in0 = 2 * in0 - 1
            in1 = 2 * in1 - 1
        in0_input, in1_input = (self.scaling_layer(in0), self.scaling_layer(in1)) if self.version == '0.1' else (in0, in1)
        feats0, feats1 = normalize_tensor(self.net(in0_input)), normalize_tensor(self.net(in1_input))
        diffs = (feats0 - feats1) ** 2
        return self.lin0(diffs).mean([2, 3], keepdim=True)

class Lpips_Loss(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = LPIPS()

    def forward(self, input, target):
        loss = self.loss(input.flip(1), target.flip(1), normalize=True)
        return loss.mean()

device = torch.device('cuda:0')
net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1)).to(device)
lpips_loss = Lpips_Loss()
input = torch.rand(2, 3, 32, 32, device=device)
target = torch.rand(2, 3, 32, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    output = net(input)
    loss = lpips_loss(output, target)
print(loss.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["lpips_loss"]
FIX = "namespace"
REFERENCE_FIX = '''
lpips_loss = lpips_loss.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
