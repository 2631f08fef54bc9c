"""ezflow `utils.warp` (used by its PWCNet decoder): the sampling grid is wrapped in `torch.Tensor(grid)` and the validity mask in `torch.Tensor(torch.ones(x.size()))`, both on the CPU, while the features and flow are on the GPU.

Source: https://github.com/neu-vi/ezflow/pull/142
"Fixes device incompatibility errors": besides the soft-argmin decoder, the PR fixes
`ezflow/utils/warp.py`, where `vgrid = torch.Tensor(grid) + flow` adds a CPU mesh grid (built with
`torch.arange`) to the GPU flow and `mask = torch.Tensor(torch.ones(x.size()))` makes the occlusion
mask on the CPU. The fix is `torch.Tensor(grid).to(x.device) + flow` and `mask = torch.ones_like(x)`.
`PWCNet.forward` calls `warp(feature_pyramid2[i], up_flow * up_flow_scale)` at every level after the
first. Stand-in: `warp` as in the file (F.grid_sample replaced by a same-device elementwise
stand-in; the in-place grid scaling and mask thresholding written out of place), and PWCNet cut to
a two-level encoder, a channel-mean stand-in for the correlation layer and one decoder conv per
level.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def grid_sample(input, grid, align_corners=True):
    # stand-in for nn.functional.grid_sample(x, vgrid, align_corners=True)
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

def warp(x, flow):
    """
    Warps an image x according to the optical flow field specified
    """

    B, _, H, W = x.size()

    xx = torch.arange(0, W).view(1, -1).repeat(H, 1)
    yy = torch.arange(0, H).view(-1, 1).repeat(1, W)
    xx = xx.view(1, 1, H, W).repeat(B, 1, 1, 1)
    yy = yy.view(1, 1, H, W).repeat(B, 1, 1, 1)

    grid = torch.cat((xx, yy), 1).float()
    vgrid = torch.Tensor(grid) + flow
    vgrid = torch.cat([2.0 * vgrid.narrow(1, 0, 1) / max(W - 1, 1) - 1.0,
                       2.0 * vgrid.narrow(1, 1, 1) / max(H - 1, 1) - 1.0], 1)
    vgrid = vgrid.permute(0, 2, 3, 1)

    output = grid_sample(x, vgrid, align_corners=True)

    mask = torch.Tensor(torch.ones(x.size()))
    mask = grid_sample(mask, vgrid, align_corners=True)
    mask = (mask >= 0.9999).float()    # mask[mask < 0.9999] = 0; mask[mask > 0] = 1

    return output * mask

class PWCNet(nn.Module):
    def __init__(self, md=4):
        super().__init__()
        nd = (2 * md + 1) ** 2
        self.nd = nd
        self.enc1 = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.1))
        self.enc2 = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.LeakyReLU(0.1))
        self.decoder_layers = nn.ModuleList([nn.Conv2d(nd, 2, 3, padding=1),
                                             nn.Conv2d(nd + 16 + 2 + 2, 2, 3, padding=1)])
        self.deconv_layers = nn.ModuleList([nn.ConvTranspose2d(2, 2, 4, 2, 1)])
        self.up_feature_layers = nn.ModuleList([nn.ConvTranspose2d(nd, 2, 4, 2, 1)])

    def encoder(self, img):
        f1 = self.enc1(img)
        f2 = self.enc2(f1)
        return [f2, f1]          # coarse to fine

    def _corr_relu(self, features1, features2):
        # stand-in for the correlation layer
        corr = (features1 * features2).mean(1, keepdim=True).expand(-1, self.nd, -1, -1)
        return F.leaky_relu(corr, negative_slope=0.1)

    def forward(self, img1, img2):
        feature_pyramid1 = self.encoder(img1)
        feature_pyramid2 = self.encoder(img2)
        up_flow, up_features = None, None
        up_flow_scale = 0.625
        flow_preds = []
        for i in range(len(self.decoder_layers)):
            if i == 0:
                corr = self._corr_relu(feature_pyramid1[i], feature_pyramid2[i])
                concatenated_features = corr
            else:
                warped_features = warp(feature_pyramid2[i], up_flow * up_flow_scale)
                up_flow_scale *= 2
                corr = self._corr_relu(feature_pyramid1[i], warped_features)
                concatenated_features = torch.cat(
                    [corr, feature_pyramid1[i], up_flow, up_features], dim=1
                )
            flow = self.decoder_layers[i](concatenated_features)
            flow_preds.append(flow)
            if i < len(self.deconv_layers):
                up_flow = self.deconv_layers[i](flow)
                up_features = self.up_feature_layers[i](concatenated_features)
        flow_preds.reverse()
        return flow_preds[0]

device = torch.device("cuda:0")
model = PWCNet().to(device).eval()
img1 = torch.rand(2, 3, 64, 96).to(device)
img2 = torch.rand(2, 3, 64, 96).to(device)
'''
CELL = '''
with torch.no_grad():
    flow = model(img1, img2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["warp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    vgrid = torch.Tensor(grid) + flow
    vgrid = torch.cat([2.0 * vgrid.narrow(1, 0, 1) / max(W - 1, 1) - 1.0,
                       2.0 * vgrid.narrow(1, 1, 1) / max(H - 1, 1) - 1.0], 1)
    vgrid = vgrid.permute(0, 2, 3, 1)

    output = grid_sample(x, vgrid, align_corners=True)

    mask = torch.Tensor(torch.ones(x.size()))""", """    vgrid = torch.Tensor(grid).to(x.device) + flow
    vgrid = torch.cat([2.0 * vgrid.narrow(1, 0, 1) / max(W - 1, 1) - 1.0,
                       2.0 * vgrid.narrow(1, 1, 1) / max(H - 1, 1) - 1.0], 1)
    vgrid = vgrid.permute(0, 2, 3, 1)

    output = grid_sample(x, vgrid, align_corners=True)

    mask = torch.ones_like(x)""")
CLEAN = False
