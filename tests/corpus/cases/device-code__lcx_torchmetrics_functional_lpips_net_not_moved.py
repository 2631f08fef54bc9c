"""torchmetrics `learned_perceptual_image_patch_similarity` on cuda:0 float64 images: the functional builds its LPIPS net on the CPU.

Source: https://github.com/Lightning-AI/torchmetrics/issues/2232
`learned_perceptual_image_patch_similarity(result, target, normalize=True)` with both images
`device='cuda:0', dtype=torch.float64` throws: the functional creates `net = _NoTrainLpips(net=net_type)`
and passes it to `_lpips_update` as is, on the CPU in float32. The reporter's fix (merged) is
`net.to(device=img1.device, dtype=img1.dtype)`. Stand-in: _NoTrainLpips reduced to the LPIPS
ScalingLayer buffers, a conv stage and a 1x1 lin head.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ScalingLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("shift", torch.Tensor([-0.030, -0.088, -0.188])[None, :, None, None])
        self.register_buffer("scale", torch.Tensor([0.458, 0.448, 0.450])[None, :, None, None])

    def forward(self, inp):
        return (inp - self.shift) / self.scale

class _NoTrainLpips(nn.Module):
    def __init__(self, net="alex"):
        super().__init__()
        self.scaling_layer = ScalingLayer()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.lin0 = nn.Conv2d(16, 1, 1, bias=False)
        self.eval()

    def forward(self, in0, in1, normalize=False):
        if normalize:
            in0, in1 = 2 * in0 - 1, 2 * in1 - 1
        f0, f1 = self.net(self.scaling_layer(in0)), self.net(self.scaling_layer(in1))
        return self.lin0((f0 - f1) ** 2).mean([2, 3], keepdim=True)

def _lpips_update(img1, img2, net, normalize):
    loss = net(img1, img2, normalize=normalize).squeeze()
    return loss, img1.shape[0]

def learned_perceptual_image_patch_similarity(img1, img2, net_type="alex", reduction="mean", normalize=False):
    net = _NoTrainLpips(net=net_type)
    loss, total = _lpips_update(img1, img2, net, normalize)
    return loss.sum() / total if reduction == "mean" else loss.sum()

result = torch.rand(1, 3, 50, 50, device="cuda:0", dtype=torch.float64)
target = torch.rand(1, 3, 50, 50, device="cuda:0", dtype=torch.float64)
'''
CELL = '''
learned_perceptual_image_patch_similarity(result, target, normalize=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("net = _NoTrainLpips(net=net_type)",
                  "net = _NoTrainLpips(net=net_type).to(device=img1.device, dtype=img1.dtype)")
CLEAN = False
