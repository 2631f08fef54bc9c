"""Look-alike: a pyiqa metric created on cuda is called with CPU images; `InferenceModel.forward` moves them to the metric's device.

Source: https://github.com/chaofengc/IQA-PyTorch (pyiqa/models/inference_model.py)
`pyiqa.create_metric('lpips', device=torch.device('cuda'))` returns an `InferenceModel` whose
`net` is moved with `self.net.to(self.device)` and which remembers the device in a
`dummy_param`. Its `forward(target, ref)` reads `device = self.dummy_param.device` and calls
`self.net(target.to(device), ref.to(device))`, so images decoded on the CPU can be passed as they
are. Stand-in: `InferenceModel` with the same device handling, a small LPIPS-like full-reference
net (scaling buffers, two conv stages, per-stage 1x1 heads) in place of the registry network.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class ScalingLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('shift', torch.Tensor([-.030, -.088, -.188])[None, :, None, None])
        self.register_buffer('scale', torch.Tensor([.458, .448, .450])[None, :, None, None])
    def forward(self, inp):
        return (inp - self.shift) / self.scale

class LPIPS(nn.Module):                        # stand-in for the network pyiqa builds from its registry
    def __init__(self):
        super().__init__()
        self.scaling_layer = ScalingLayer()
        self.slice1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.slice2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.lins = nn.ModuleList([nn.Conv2d(16, 1, 1, bias=False), nn.Conv2d(32, 1, 1, bias=False)])
    def forward(self, in1, in0):
        f0, f1, diffs = self.scaling_layer(in0), self.scaling_layer(in1), []
        for sl, lin in zip((self.slice1, self.slice2), self.lins):
            f0, f1 = sl(f0), sl(f1)
            n0 = f0 / (f0.pow(2).sum(1, keepdim=True).sqrt() + 1e-10)
            n1 = f1 / (f1.pow(2).sum(1, keepdim=True).sqrt() + 1e-10)
            diffs.append(lin((n0 - n1) ** 2).mean([2, 3], keepdim=True))
        return sum(diffs).squeeze()

class InferenceModel(torch.nn.Module):
    def __init__(self, metric_name, as_loss=False, device=None, **kwargs):
        super().__init__()
        self.metric_name = metric_name
        self.metric_mode = 'FR'
        if device is None:
            self.device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
        else:
            self.device = device
        self.as_loss = as_loss
        self.net = LPIPS()
        self.net = self.net.to(self.device)
        self.net.eval()
        self.dummy_param = torch.nn.Parameter(torch.empty(0)).to(self.device)

    def forward(self, target, ref=None, **kwargs):
        device = self.dummy_param.device
        with torch.set_grad_enabled(self.as_loss):
            if self.metric_mode == 'FR':
                output = self.net(target.to(device), ref.to(device), **kwargs)
            else:
                output = self.net(target.to(device), **kwargs)
        return output

def create_metric(metric_name, as_loss=False, device=None, **kwargs):
    return InferenceModel(metric_name=metric_name, as_loss=as_loss, device=device, **kwargs)

iqa_metric = create_metric('lpips', device=torch.device('cuda:0'))
dist_img = torch.rand(2, 3, 64, 64)            # images read from disk, on the CPU
ref_img = torch.rand(2, 3, 64, 64)
'''
CELL = '''
score = iqa_metric(dist_img, ref_img)
print(score.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
