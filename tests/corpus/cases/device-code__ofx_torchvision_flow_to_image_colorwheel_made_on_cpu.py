"""torchvision `flow_to_image`: the Middlebury colour wheel is built on the CPU inside `_normalized_flow_to_image`, so RAFT flows on the GPU fail to colourise.

Source: https://github.com/pytorch/vision/pull/5428
"Fixes device mismatch issue while building docs": the optical-flow gallery example, run on a
machine with a GPU, failed in `flow_to_image(predicted_flows)` at
`col = (1 - f) * col0 + f * col1` with "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!". `_make_colorwheel()` returns a CPU tensor, `col0`/`col1` are
looked up from it, while `f` comes from the CUDA flow. The PR's "minimal fix" is in
torchvision/utils.py, which since builds the wheel on the flow's device
(`device = normalized_flow.device`, `colorwheel = _make_colorwheel().to(device)`).
Stand-in: torchvision.utils' `_make_colorwheel`, `flow_to_image` and `_normalized_flow_to_image`
(the lookups `tmp[k0]` written `torch.take(tmp, k0)`, which the simulation can run, so the
mismatch surfaces one line earlier; the masked assignment `k1[k1 == num_cols] = 0` written with
`torch.where`; the per-channel writes into `flow_image` written as a stack), and a two-conv flow
head instead of `raft_large`, returning its list of flow predictions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def _make_colorwheel():
    RY, YG, GC, CB, BM, MR = 15, 6, 4, 11, 13, 6
    ncols = RY + YG + GC + CB + BM + MR
    colorwheel = torch.zeros((ncols, 3))
    col = 0
    colorwheel[0:RY, 0] = 255
    colorwheel[0:RY, 1] = torch.floor(255 * torch.arange(0, RY) / RY)
    col = col + RY
    colorwheel[col : col + YG, 0] = 255 - torch.floor(255 * torch.arange(0, YG) / YG)
    colorwheel[col : col + YG, 1] = 255
    col = col + YG
    colorwheel[col : col + GC, 1] = 255
    colorwheel[col : col + GC, 2] = torch.floor(255 * torch.arange(0, GC) / GC)
    col = col + GC
    colorwheel[col : col + CB, 1] = 255 - torch.floor(255 * torch.arange(CB) / CB)
    colorwheel[col : col + CB, 2] = 255
    col = col + CB
    colorwheel[col : col + BM, 2] = 255
    colorwheel[col : col + BM, 0] = torch.floor(255 * torch.arange(0, BM) / BM)
    col = col + BM
    colorwheel[col : col + MR, 2] = 255 - torch.floor(255 * torch.arange(MR) / MR)
    colorwheel[col : col + MR, 0] = 255
    return colorwheel

@torch.no_grad()
def _normalized_flow_to_image(normalized_flow):
    N, _, H, W = normalized_flow.shape
    device = normalized_flow.device
    colorwheel = _make_colorwheel()  # shape [55x3]
    num_cols = colorwheel.shape[0]
    norm = torch.sum(normalized_flow**2, dim=1).sqrt()
    a = torch.atan2(-normalized_flow.select(1, 1), -normalized_flow.select(1, 0)) / torch.pi
    fk = (a + 1) / 2 * (num_cols - 1)
    k0 = torch.floor(fk).to(torch.long)
    k1 = k0 + 1
    k1 = torch.where(k1 == num_cols, 0, k1)          # k1[k1 == num_cols] = 0
    f = fk - k0
    channels = []
    for c in range(colorwheel.shape[1]):
        tmp = colorwheel.select(1, c)                # colorwheel[:, c]
        col0 = torch.take(tmp, k0) / 255.0           # tmp[k0] / 255.0
        col1 = torch.take(tmp, k1) / 255.0
        col = (1 - f) * col0 + f * col1
        col = 1 - norm * (1 - col)
        channels.append(torch.floor(255 * col))      # flow_image[:, c, :, :] = torch.floor(255 * col)
    flow_image = torch.stack(channels, 1).to(torch.uint8)
    return flow_image

@torch.no_grad()
def flow_to_image(flow):
    if flow.dtype != torch.float:
        raise ValueError(f"Flow should be of dtype torch.float, got {flow.dtype}.")
    orig_shape = flow.shape
    if flow.ndim == 3:
        flow = flow.unsqueeze(0)  # Add batch dim
    if flow.ndim != 4 or flow.shape[1] != 2:
        raise ValueError(f"Input flow should have shape (2, H, W) or (N, 2, H, W), got {orig_shape}.")
    max_norm = torch.sum(flow**2, dim=1).sqrt().max()
    epsilon = torch.finfo((flow).dtype).eps
    normalized_flow = flow / (max_norm + epsilon)
    img = _normalized_flow_to_image(normalized_flow)
    return img

class RAFTStandIn(nn.Module):
    # stand-in for torchvision.models.optical_flow.raft_large: returns the list of flow predictions
    def __init__(self):
        super().__init__()
        self.fnet = nn.Conv2d(6, 16, 3, padding=1)
        self.head = nn.Conv2d(16, 2, 3, padding=1)

    def forward(self, image1, image2, num_flow_updates=3):
        h = torch.relu(self.fnet(torch.cat([image1, image2], 1)))
        flow = self.head(h)
        return [flow * (i + 1) / num_flow_updates for i in range(num_flow_updates)]

device = "cuda:0"   # the gallery: "cuda" if torch.cuda.is_available() else "cpu"
model = RAFTStandIn().to(device).eval()
img1_batch = torch.rand(2, 3, 32, 48)
img2_batch = torch.rand(2, 3, 32, 48)
with torch.no_grad():
    list_of_flows = model(img1_batch.to(device), img2_batch.to(device))
predicted_flows = list_of_flows[-1]
'''
CELL = '''
flow_imgs = flow_to_image(predicted_flows)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["_normalized_flow_to_image"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    colorwheel = _make_colorwheel()  # shape [55x3]", "    colorwheel = _make_colorwheel().to(device)  # shape [55x3]")
CLEAN = False
