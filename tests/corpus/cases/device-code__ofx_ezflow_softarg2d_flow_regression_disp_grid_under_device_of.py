"""ezflow `SoftArg2DFlowRegression` (DICL's soft-argmax decoder): the displacement grids are made with `torch.arange` inside `with torch.cuda.device_of(x):`, which places nothing, so they stay on the CPU.

Source: https://github.com/neu-vi/ezflow/pull/142
"Fixes device incompatibility errors": in `forward`, `disp_u`/`disp_v` were built with
`torch.arange(-self.max_u, self.max_u + 1, dtype=torch.float32)` under `torch.cuda.device_of(x)`.
That context only selects the current CUDA device; a factory call without `device=` still makes a
CPU tensor, so `flow_u = (x * disp_u).sum(dim=1)` mixes the GPU cost volume with CPU grids. The PR
drops the context and moves both grids with `.to(x.device)`. Stand-in: `torch.cuda.device_of` is
written as a no-op context `device_of` (what it amounts to for CPU allocations; a CPU build cannot
enter the real one), and a one-conv DICL-style matching head produces the B x 1 x U x V x H x W cost.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import contextlib
import torch
import torch.nn as nn
import torch.nn.functional as F

@contextlib.contextmanager
def device_of(obj):
    # stand-in for torch.cuda.device_of: makes obj's GPU the current device; places no tensor
    yield

class SoftArg2DFlowRegression(nn.Module):
    """Applies 2D soft argmin/argmax operation to regress flow. Used in DICL."""

    def __init__(self, max_u=3, max_v=3, operation="argmax"):
        super(SoftArg2DFlowRegression, self).__init__()
        assert (
            operation.lower() == "argmax" or operation.lower() == "argmin"
        ), "Invalid operation. Supported operations: argmax and argmin"
        self.max_u = max_u
        self.max_v = max_v
        self.operation = operation.lower()

    def forward(self, x):
        sizeU = 2 * self.max_u + 1
        sizeV = 2 * self.max_v + 1
        x = x.squeeze(1)
        B, _, _, H, W = x.shape

        with device_of(x):

            disp_u = torch.reshape(
                torch.arange(
                    -self.max_u,
                    self.max_u + 1,
                    dtype=torch.float32,
                ),
                [1, sizeU, 1, 1, 1],
            )
            disp_u = disp_u.expand(B, -1, sizeV, H, W).contiguous()
            disp_u = disp_u.view(B, sizeU * sizeV, H, W)

            disp_v = torch.reshape(
                torch.arange(
                    -self.max_v,
                    self.max_v + 1,
                    dtype=torch.float32,
                ),
                [1, 1, sizeV, 1, 1],
            )
            disp_v = disp_v.expand(B, sizeU, -1, H, W).contiguous()
            disp_v = disp_v.view(B, sizeU * sizeV, H, W)

        x = x.view(B, sizeU * sizeV, H, W)

        if self.operation == "argmin":
            x = F.softmin(x, dim=1)
        else:
            x = F.softmax(x, dim=1)

        flow_u = (x * disp_u).sum(dim=1)
        flow_v = (x * disp_v).sum(dim=1)
        flow = torch.cat((flow_u.unsqueeze(1), flow_v.unsqueeze(1)), dim=1)

        return flow

class MatchingNet(nn.Module):
    # stand-in for DICL's matching net: one cost per displacement in the (2*3+1) x (2*3+1) window
    def __init__(self, max_u=3, max_v=3):
        super().__init__()
        self.U, self.V = 2 * max_u + 1, 2 * max_v + 1
        self.conv = nn.Conv2d(64, self.U * self.V, 3, padding=1)

    def forward(self, feat1, feat2):
        cost = self.conv(torch.cat([feat1, feat2], 1))
        B, _, H, W = cost.shape
        return cost.view(B, 1, self.U, self.V, H, W)

device = torch.device("cuda:0")
matching = MatchingNet().to(device).eval()
decoder = SoftArg2DFlowRegression(max_u=3, max_v=3, operation="argmax").to(device)
feat1 = torch.randn(2, 32, 24, 32).to(device)
feat2 = torch.randn(2, 32, 24, 32).to(device)
'''
CELL = '''
with torch.no_grad():
    cost = matching(feat1, feat2)
    flow = decoder(cost)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["decoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                [1, sizeU, 1, 1, 1],
            )
            disp_u = disp_u.expand(B, -1, sizeV, H, W).contiguous()
            disp_u = disp_u.view(B, sizeU * sizeV, H, W)

            disp_v = torch.reshape(
                torch.arange(
                    -self.max_v,
                    self.max_v + 1,
                    dtype=torch.float32,
                ),
                [1, 1, sizeV, 1, 1],
            )""", """                [1, sizeU, 1, 1, 1],
            ).to(x.device)
            disp_u = disp_u.expand(B, -1, sizeV, H, W).contiguous()
            disp_u = disp_u.view(B, sizeU * sizeV, H, W)

            disp_v = torch.reshape(
                torch.arange(
                    -self.max_v,
                    self.max_v + 1,
                    dtype=torch.float32,
                ),
                [1, 1, sizeV, 1, 1],
            ).to(x.device)""")
CLEAN = False
