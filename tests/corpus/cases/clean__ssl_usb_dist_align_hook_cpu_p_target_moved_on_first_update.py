"""Look-alike: USB's distribution-alignment hook keeps `p_target` on the CPU and moves it to the probabilities' device on first use.

Source: https://github.com/microsoft/Semi-supervised-learning/blob/main/semilearn/algorithms/hooks/dist_align.py
`DistAlignEMAHook.__init__` builds the uniform target distribution with `torch.ones((num_classes,)) /
num_classes` on the CPU and leaves `p_model = None`; `update_p` checks `if not self.p_target.is_cuda:
self.p_target = self.p_target.to(probs_x_ulb.device)` before the EMA of the model's mean prediction,
and `dist_align` then rescales the GPU probabilities. Before the first step the hook's `p_target` sits on
the CPU beside a GPU model by design: nothing to report.
Stand-in: the hook as in the repo (the non-distributed path), a tiny model and the
ReMixMatch-style call `self.call_hook("dist_align", "DistAlignHook", probs_x_ulb=...)` written out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import types
import numpy as np
import torch
from torch import nn

class Hook:
    pass

class DistAlignEMAHook(Hook):
    def __init__(self, num_classes, momentum=0.999, p_target_type='uniform', p_target=None):
        super().__init__()
        self.num_classes = num_classes
        self.m = momentum
        self.update_p_target, self.p_target = self.set_p_target(p_target_type, p_target)
        self.p_model = None

    @torch.no_grad()
    def dist_align(self, algorithm, probs_x_ulb, probs_x_lb=None):
        self.update_p(algorithm, probs_x_ulb, probs_x_lb)
        probs_x_ulb_aligned = probs_x_ulb * (self.p_target + 1e-6) / (self.p_model + 1e-6)
        probs_x_ulb_aligned = probs_x_ulb_aligned / probs_x_ulb_aligned.sum(dim=-1, keepdim=True)
        return probs_x_ulb_aligned

    @torch.no_grad()
    def update_p(self, algorithm, probs_x_ulb, probs_x_lb):
        # check device
        if not self.p_target.is_cuda:
            self.p_target = self.p_target.to(probs_x_ulb.device)
        probs_x_ulb = probs_x_ulb.detach()
        if self.p_model == None:
            self.p_model = torch.mean(probs_x_ulb, dim=0)
        else:
            self.p_model = self.p_model * self.m + torch.mean(probs_x_ulb, dim=0) * (1 - self.m)
        if self.update_p_target:
            assert probs_x_lb is not None
            self.p_target = self.p_target * self.m + torch.mean(probs_x_lb, dim=0) * (1 - self.m)

    def set_p_target(self, p_target_type='uniform', p_target=None):
        update_p_target = False
        if p_target_type == 'uniform':
            p_target = torch.ones((self.num_classes, )) / self.num_classes
        elif p_target_type == 'model':
            p_target = torch.ones((self.num_classes, ))/ self.num_classes
            update_p_target = True
        else:
            if isinstance(p_target, np.ndarray):
                p_target = torch.from_numpy(p_target)
        return update_p_target, p_target

algorithm = types.SimpleNamespace(distributed=False, world_size=1, gpu=0, T=0.5)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, 10)).to("cuda:0")
dist_align_hook = DistAlignEMAHook(num_classes=10, momentum=0.999, p_target_type='model')
x_ulb_w = torch.randn(6, 3, 8, 8, device="cuda:0")
probs_x_lb = torch.softmax(torch.randn(4, 10, device="cuda:0"), dim=-1)
'''
CELL = '''
with torch.no_grad():
    logits_x_ulb_w = model(x_ulb_w)
    probs_x_ulb_w = torch.softmax(logits_x_ulb_w, dim=-1)
    probs_x_ulb_w = dist_align_hook.dist_align(algorithm, probs_x_ulb=probs_x_ulb_w, probs_x_lb=probs_x_lb)
    sharpen = probs_x_ulb_w ** (1 / algorithm.T)
    targets_u = sharpen / sharpen.sum(dim=-1, keepdim=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
