"""Look-alike: mmagic's SPyNet (inside BasicVSR) normalizes frames with ImageNet mean/std kept as registered buffers.

Source: https://github.com/open-mmlab/mmagic/blob/main/mmagic/models/editors/basicvsr/basicvsr_net.py
`SPyNet.__init__` does `self.register_buffer('mean', torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))`
and the same for `std`; `compute_flow` uses `(ref - self.mean) / self.std`. Constant tensors
held by the module next to the frames, but as buffers they follow `model.to('cuda')`. Nothing to
report. Stand-in: SPyNet with one basic module level and BasicVSR's flow computation between
neighbouring frames.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class SPyNetBasicModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.basic_module = nn.Sequential(
            nn.Conv2d(8, 16, 7, padding=3), nn.ReLU(),
            nn.Conv2d(16, 2, 7, padding=3))

    def forward(self, tensor_input):
        return self.basic_module(tensor_input)

class SPyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.basic_module = SPyNetBasicModule()
        self.register_buffer('mean', torch.Tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer('std', torch.Tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))

    def forward(self, ref, supp):
        ref = (ref - self.mean) / self.std
        supp = (supp - self.mean) / self.std
        n, _, h, w = ref.shape
        flow = ref.new_zeros(n, 2, h, w)
        return flow + self.basic_module(torch.cat([ref, supp, flow], dim=1))

class BasicVSRNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.spynet = SPyNet()

    def compute_flow(self, lrs):
        n, t, c, h, w = lrs.size()
        lrs_1 = lrs[:, :-1, :, :, :].reshape(-1, c, h, w)
        lrs_2 = lrs[:, 1:, :, :, :].reshape(-1, c, h, w)
        flows_backward = self.spynet(lrs_1, lrs_2).view(n, t - 1, 2, h, w)
        flows_forward = self.spynet(lrs_2, lrs_1).view(n, t - 1, 2, h, w)
        return flows_forward, flows_backward

model = BasicVSRNet().to("cuda:0")
model.eval()
lrs = torch.rand(1, 4, 3, 32, 32).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    flows_forward, flows_backward = model.compute_flow(lrs)
print(flows_forward.shape, flows_forward.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
