"""chamfer_distance on a non-default GPU: the CUDA branch allocates its outputs with `.cuda()`, i.e. on cuda:0.

Source: https://github.com/otaheri/chamfer_distance/pull/5
"cuda changed to specific device": running the Chamfer distance on points that live on another GPU
failed with "Expected all tensors to be on the same device, but found at least two devices, cuda:6
and cuda:0!". `ChamferDistanceFunction.forward` creates `dist1, dist2, idx1, idx2` on the CPU and, for
CUDA inputs, moves them with `.cuda()` (the current device, cuda:0) before the kernel fills them
from `xyz1`/`xyz2`. The PR allocates them on the inputs' device. Stand-in: that forward, the CUDA
kernel written with torch ops that accumulate into the outputs, `.cuda()` spelled `.to("cuda:0")`
(the fake-cuda simulation has no current device), and the inputs on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch

def chamfer_forward_cuda(xyz1, xyz2, dist1, dist2, idx1, idx2):
    """Stand-in for the chamfer CUDA kernel: writes nearest distances and indices in place."""
    d = torch.cdist(xyz1, xyz2) ** 2
    min1, arg1 = d.min(dim=2)
    min2, arg2 = d.min(dim=1)
    dist1.add_(min1)
    dist2.add_(min2)
    idx1.add_(arg1.int())
    idx2.add_(arg2.int())

class ChamferDistanceFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xyz1, xyz2):
        batchsize, n, _ = xyz1.size()
        _, m, _ = xyz2.size()
        dist1 = torch.zeros(batchsize, n)
        dist2 = torch.zeros(batchsize, m)
        idx1 = torch.zeros(batchsize, n, dtype=torch.int)
        idx2 = torch.zeros(batchsize, m, dtype=torch.int)
        if xyz1.is_cuda:
            dist1 = dist1.to("cuda:0")   # .cuda()
            dist2 = dist2.to("cuda:0")   # .cuda()
            idx1 = idx1.to("cuda:0")     # .cuda()
            idx2 = idx2.to("cuda:0")     # .cuda()
            chamfer_forward_cuda(xyz1, xyz2, dist1, dist2, idx1, idx2)
        ctx.save_for_backward(xyz1, xyz2, idx1, idx2)
        return dist1, dist2

class ChamferDistance(torch.nn.Module):
    def forward(self, xyz1, xyz2):
        return ChamferDistanceFunction.apply(xyz1, xyz2)

device = torch.device("cuda:1")          # the user's free GPU
chamfer_dist = ChamferDistance()
pred_points = torch.randn(2, 64, 3, device=device)
gt_points = torch.randn(2, 80, 3, device=device)
'''
CELL = '''
dist1, dist2 = chamfer_dist(pred_points, gt_points)
loss = torch.mean(dist1) + torch.mean(dist2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dist1"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''            dist1 = dist1.to("cuda:0")   # .cuda()
            dist2 = dist2.to("cuda:0")   # .cuda()
            idx1 = idx1.to("cuda:0")     # .cuda()
            idx2 = idx2.to("cuda:0")     # .cuda()''',
    '''            dist1 = dist1.to(xyz1.device)
            dist2 = dist2.to(xyz1.device)
            idx1 = idx1.to(xyz1.device)
            idx2 = idx2.to(xyz1.device)''',
)
CLEAN = False
