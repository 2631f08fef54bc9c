"""RAFT-Stereo `validate_eth3d`: the predicted disparity is brought to the CPU (`.float().cpu()`) and scored against the dataset's CPU ground truth and validity mask.

Source: https://github.com/princeton-vl/RAFT-Stereo/blob/main/evaluate_stereo.py
Each ETH3D sample comes from the dataset as CPU tensors; only the two images go to the GPU
(`image1[None].cuda()`). After `model(image1, image2, iters=iters, test_mode=True)` under autocast,
`flow_pr = padder.unpad(flow_pr.float()).cpu().squeeze(0)` and the EPE and D1 are computed on the
CPU with `flow_gt` and `valid_gt`, which never leave it. Look-alike: ground truth and masks kept on
the CPU next to a GPU model, with the prediction moved down on purpose. Stand-in: `.cuda()` written
`.to("cuda:0")`, RAFTStereo cut to a two-conv disparity head returning `(flow_low, flow_up)`,
InputPadder (divis_by=32, replicate padding, unpad by narrowing), one ETH3D-sized sample; the
masked means `out[val]...mean()` are written as masked sums (the simulation cannot index with a
mask) and the `.item()` calls that feed the log are left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class InputPadder:
    """ Pads images such that dimensions are divisible by 8 """
    def __init__(self, dims, mode='sintel', divis_by=8):
        self.ht, self.wd = dims[-2:]
        pad_ht = (((self.ht // divis_by) + 1) * divis_by - self.ht) % divis_by
        pad_wd = (((self.wd // divis_by) + 1) * divis_by - self.wd) % divis_by
        self._pad = [pad_wd//2, pad_wd - pad_wd//2, pad_ht//2, pad_ht - pad_ht//2]

    def pad(self, *inputs):
        return [F.pad(x, self._pad, mode='replicate') for x in inputs]

    def unpad(self, x):
        ht, wd = x.shape[-2:]
        c = [self._pad[2], ht-self._pad[3], self._pad[0], wd-self._pad[1]]
        return x.narrow(-2, c[0], c[1] - c[0]).narrow(-1, c[2], c[3] - c[2])   # x[..., c[0]:c[1], c[2]:c[3]]

class RAFTStereo(nn.Module):
    # stand-in: a two-conv head instead of the feature/context encoders, 1D correlation and GRUs
    def __init__(self):
        super().__init__()
        self.fnet = nn.Conv2d(6, 16, 3, padding=1)
        self.head = nn.Conv2d(16, 2, 3, padding=1)

    def forward(self, image1, image2, iters=12, test_mode=False):
        flow = self.head(torch.relu(self.fnet(torch.cat([image1, image2], 1))))
        flow_up = flow.narrow(1, 0, 1)
        return flow, flow_up

model = RAFTStereo().to("cuda:0")
iters = 32
# one sample of datasets.ETH3D: (paths, image1, image2, flow_gt, valid_gt), all CPU tensors
image1_cpu = torch.rand(3, 50, 90) * 255
image2_cpu = torch.rand(3, 50, 90) * 255
flow_gt = torch.randn(1, 50, 90) * 10
valid_gt = (torch.rand(50, 90) > 0.2).float()
'''
CELL = '''
model.eval()
with torch.no_grad():
    image1 = image1_cpu[None].to("cuda:0")    # image1[None].cuda()
    image2 = image2_cpu[None].to("cuda:0")
    padder = InputPadder(image1.shape, divis_by=32)
    image1, image2 = padder.pad(image1, image2)
    _, flow_pr = model(image1, image2, iters=iters, test_mode=True)
    flow_pr = padder.unpad(flow_pr.float()).cpu().squeeze(0)
    assert flow_pr.shape == flow_gt.shape, (flow_pr.shape, flow_gt.shape)
    epe = torch.sum((flow_pr - flow_gt)**2, dim=0).sqrt()
    epe_flattened = epe.flatten()
    val = valid_gt.flatten() >= 0.5
    out = (epe_flattened > 1.0)
    image_out = (out.float() * val).sum() / val.sum()        # out[val].float().mean()
    image_epe = (epe_flattened * val).sum() / val.sum()      # epe_flattened[val].mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
