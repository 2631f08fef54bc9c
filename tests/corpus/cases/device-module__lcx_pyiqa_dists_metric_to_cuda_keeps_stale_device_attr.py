"""pyiqa: a DISTS metric created with device=cpu and later `.to('cuda:5')` still sends its inputs to the CPU.

Source: https://github.com/chaofengc/IQA-PyTorch/issues/63
`perceptual = pyiqa.create_metric('dists', as_loss=True, device=torch.device('cpu'))`, images moved
to 'cuda:5', then `perceptual = perceptual.to('cuda:5')` and `perceptual(img1, img2)` fails: the
InferenceModel remembers the `device` it was created with in a plain attribute and moves every
input `target.to(self.device)` before calling the net, which `.to()` did move. Fixed upstream in
08f8850. Stand-in: InferenceModel + a DISTS reduced to its mean/std buffers, one conv stage and
alpha/beta; run without grad (the simulator has no autograd on cuda), images on cuda:5 as reported.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class DISTS(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, -1, 1, 1))
        self.register_buffer("std", torch.tensor([0.229, 0.224, 0.225]).view(1, -1, 1, 1))
        self.stage1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.alpha = nn.Parameter(torch.full((1, 11, 1, 1), 0.1))
        self.beta = nn.Parameter(torch.full((1, 11, 1, 1), 0.1))

    def forward_once(self, x):
        h = (x - self.mean) / self.std
        return [x, self.stage1(h)]

    def forward(self, x, y):
        feats0, feats1 = self.forward_once(x), self.forward_once(y)
        dist1, dist2, c1, c2 = 0, 0, 1e-6, 1e-6
        w_sum = self.alpha.sum() + self.beta.sum()
        alpha = torch.split(self.alpha / w_sum, [3, 8], dim=1)
        beta = torch.split(self.beta / w_sum, [3, 8], dim=1)
        for k in range(len(feats0)):
            x_mean, y_mean = feats0[k].mean([2, 3], keepdim=True), feats1[k].mean([2, 3], keepdim=True)
            S1 = (2 * x_mean * y_mean + c1) / (x_mean ** 2 + y_mean ** 2 + c1)
            dist1 = dist1 + (alpha[k] * S1).sum(1, keepdim=True)
            x_var = ((feats0[k] - x_mean) ** 2).mean([2, 3], keepdim=True)
            y_var = ((feats1[k] - y_mean) ** 2).mean([2, 3], keepdim=True)
            xy_cov = (feats0[k] * feats1[k]).mean([2, 3], keepdim=True) - x_mean * y_mean
            S2 = (2 * xy_cov + c2) / (x_var + y_var + c2)
            dist2 = dist2 + (beta[k] * S2).sum(1, keepdim=True)
        return 1 - (dist1 + dist2).squeeze()

class InferenceModel(nn.Module):
    def __init__(self, metric_name, as_loss=False, device=None):
        super().__init__()
        self.metric_name, self.as_loss = metric_name, as_loss
        self.device = device if device is not None else torch.device('cpu')
        self.net = DISTS()
        self.net = self.net.to(self.device)
        self.net.eval()

    def forward(self, target, ref=None):
        with torch.set_grad_enabled(False):      # self.as_loss in pyiqa
            target = target.to(self.device)
            ref = ref.to(self.device)
            return self.net(target, ref)

def create_metric(metric_name, as_loss=False, device=None):
    return InferenceModel(metric_name, as_loss=as_loss, device=device)

perceptual = create_metric('dists', as_loss=True, device=torch.device('cpu'))
img1 = torch.rand((1, 3, 64, 64))
img2 = torch.rand((1, 3, 64, 64))

img1 = img1.to('cuda:5')
img2 = img2.to('cuda:5')

perceptual = perceptual.to('cuda:5')
'''
CELL = '''
loss = perceptual(img1, img2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["perceptual"]
FIX = "namespace"
REFERENCE_FIX = '''
perceptual.device = torch.device('cuda:5')
'''
REFERENCE_EDIT = None
CLEAN = False
