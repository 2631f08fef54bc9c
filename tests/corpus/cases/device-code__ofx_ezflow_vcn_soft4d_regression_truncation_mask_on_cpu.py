"""ezflow VCN `Soft4DFlowRegression`: the truncated-softmax mask is allocated with `torch.FloatTensor(...)` on the CPU and scattered with the GPU argmax indices.

Source: https://github.com/neu-vi/ezflow/pull/211
"Fixed device mismatch error": in `forward`, with `self.truncated` set, the regressor takes
`idx = x.argmax(1)[:, np.newaxis]` on the cost volume's device and then
`mask = torch.FloatTensor(B, U * V, H, W).fill_(0); mask.scatter_(1, idx, 1)`, a CPU tensor scattered
with CUDA indices. The one-line fix is `torch.FloatTensor(B, U * V, H, W).fill_(0).to(x.device)`.
Stand-in: the VCN model cut to a feature conv producing one B x U x V x H x W cost volume and a
`flow_regressors` ModuleList holding the regressor as in ezflow/models/vcn.py; in the regressor,
`[:, np.newaxis]` / `[:, 0]` on GPU tensors are written `unsqueeze(1)` / `select(1, 0)` and the
`mask.byte()` condition of `torch.where` is written `mask.bool()` (uint8 conditions are refused now).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Soft4DFlowRegression(nn.Module):
    """Applies 4D soft argmax operation to regress flow."""

    def __init__(self, size, max_disp=4, entropy=False, factorization=1):
        super(Soft4DFlowRegression, self).__init__()
        B, H, W = size
        self.entropy = entropy
        self.md = max_disp
        self.factorization = factorization
        self.truncated = True
        self.w_size = 3

        flowrange_y = range(-max_disp, max_disp + 1)
        flowrange_x = range(
            -int(max_disp // self.factorization),
            int(max_disp // self.factorization) + 1,
        )
        meshgrid = np.meshgrid(flowrange_x, flowrange_y)
        flow_y = np.tile(
            np.reshape(meshgrid[0], [1, 2 * max_disp + 1, 2 * int(max_disp // self.factorization) + 1, 1, 1]),
            (B, 1, 1, H, W),
        )
        flow_x = np.tile(
            np.reshape(meshgrid[1], [1, 2 * max_disp + 1, 2 * int(max_disp // self.factorization) + 1, 1, 1]),
            (B, 1, 1, H, W),
        )
        self.register_buffer("flow_x", torch.Tensor(flow_x))
        self.register_buffer("flow_y", torch.Tensor(flow_y))

        self.pool3d = nn.MaxPool3d(
            (self.w_size * 2 + 1, self.w_size * 2 + 1, 1),
            stride=1,
            padding=(self.w_size, self.w_size, 0),
        )

    def forward(self, x):
        B, U, V, H, W = x.shape
        orig_x = x

        if self.truncated:
            # truncated softmax
            x = x.view(B, U * V, H, W)

            idx = x.argmax(1).unsqueeze(1)                 # x.argmax(1)[:, np.newaxis]

            mask = torch.FloatTensor(B, U * V, H, W).fill_(0)
            mask.scatter_(1, idx, 1)
            mask = mask.view(B, 1, U, V, -1)
            mask = self.pool3d(mask).select(1, 0).view(B, U, V, H, W)   # self.pool3d(mask)[:, 0]

            n_inf = x.clone().fill_(-np.inf).view(B, U, V, H, W)
            x = torch.where(mask.bool(), orig_x, n_inf)    # torch.where(mask.byte(), ...)

        else:
            self.w_size = (np.sqrt(U * V) - 1) / 2

        B, U, V, H, W = x.shape

        x = F.softmax(x.view(B, -1, H, W), 1).view(B, U, V, H, W)
        out_x = torch.sum(torch.sum(x * self.flow_x, 1), 1, keepdim=True)
        out_y = torch.sum(torch.sum(x * self.flow_y, 1), 1, keepdim=True)

        return torch.cat([out_x, out_y], 1), None

class VCN(nn.Module):
    # stand-in for ezflow.models.VCN: one pyramid level, cost volume from a conv instead of the 4D filters
    def __init__(self, size=(2, 64, 96), max_disp=4):
        super().__init__()
        self.U = self.V = 2 * max_disp + 1
        self.feature = nn.Conv2d(6, self.U * self.V, 3, stride=8, padding=1)
        self.flow_regressors = nn.ModuleList()
        self.flow_regressors.append(
            Soft4DFlowRegression([size[0], size[1] // 8, size[2] // 8], max_disp=max_disp, entropy=False)
        )

    def forward(self, img1, img2):
        cost = self.feature(torch.cat([img1, img2], 1))
        B, _, H, W = cost.shape
        cost = cost.view(B, self.U, self.V, H, W)
        flow, ent = self.flow_regressors[0](cost)
        return flow

device = torch.device("cuda:0")
model = VCN(size=(2, 64, 96)).to(device).eval()
img1 = torch.rand(2, 3, 64, 96).to(device)
img2 = torch.rand(2, 3, 64, 96).to(device)
'''
CELL = '''
with torch.no_grad():
    flow = model(img1, img2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.flow_regressors[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mask = torch.FloatTensor(B, U * V, H, W).fill_(0)", "mask = torch.FloatTensor(B, U * V, H, W).fill_(0).to(x.device)")
CLEAN = False
