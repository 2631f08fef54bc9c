"""GwcNet: the group-wise cost volume is allocated inside `build_gwc_volume` with `refimg_fea.new_zeros(...)`, and `disparity_regression` makes its disparity values with `dtype=x.dtype, device=x.device`.

Source: https://github.com/xy-guo/GwcNet/blob/master/models/submodule.py
(used by `GwcNet.forward` in https://github.com/xy-guo/GwcNet/blob/master/models/gwcnet.py)
`build_gwc_volume` fills `volume = refimg_fea.new_zeros([B, num_groups, maxdisp, H, W])` disparity by
disparity from sliced left/right features; `disparity_regression` builds
`torch.arange(0, maxdisp, dtype=x.dtype, device=x.device)` and takes the softmax-weighted sum. Both
tensors are created inside the forward pass of a GPU model with no explicit `.cuda()`, and both
inherit the features' device and dtype. Look-alike: forward-time allocations in a stereo network,
correct by construction. Stand-in: GwcNet-G cut to one conv feature extractor (stride 4), one 3D
conv aggregation and the test-time head (`F.upsample` written `F.interpolate`); the GPU is
simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def disparity_regression(x, maxdisp):
    assert len(x.shape) == 4
    disp_values = torch.arange(0, maxdisp, dtype=x.dtype, device=x.device)
    disp_values = disp_values.view(1, maxdisp, 1, 1)
    return torch.sum(x * disp_values, 1, keepdim=False)

def groupwise_correlation(fea1, fea2, num_groups):
    B, C, H, W = fea1.shape
    assert C % num_groups == 0
    channels_per_group = C // num_groups
    cost = (fea1 * fea2).view([B, num_groups, channels_per_group, H, W]).mean(dim=2)
    assert cost.shape == (B, num_groups, H, W)
    return cost

def build_gwc_volume(refimg_fea, targetimg_fea, maxdisp, num_groups):
    B, C, H, W = refimg_fea.shape
    volume = refimg_fea.new_zeros([B, num_groups, maxdisp, H, W])
    for i in range(maxdisp):
        if i > 0:
            volume[:, :, i, :, i:] = groupwise_correlation(refimg_fea[:, :, :, i:], targetimg_fea[:, :, :, :-i],
                                                           num_groups)
        else:
            volume[:, :, i, :, :] = groupwise_correlation(refimg_fea, targetimg_fea, num_groups)
    volume = volume.contiguous()
    return volume

class GwcNet(nn.Module):
    def __init__(self, maxdisp, use_concat_volume=False):
        super(GwcNet, self).__init__()
        self.maxdisp = maxdisp
        self.num_groups = 8
        self.feature_extraction = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(inplace=True),
                                                nn.Conv2d(32, 32, 3, stride=2, padding=1))
        self.dres0 = nn.Sequential(nn.Conv3d(self.num_groups, 8, 3, padding=1), nn.ReLU(inplace=True))
        self.classif3 = nn.Conv3d(8, 1, kernel_size=3, padding=1, stride=1, bias=False)

    def forward(self, left, right):
        features_left = {"gwc_feature": self.feature_extraction(left)}
        features_right = {"gwc_feature": self.feature_extraction(right)}
        gwc_volume = build_gwc_volume(features_left["gwc_feature"], features_right["gwc_feature"], self.maxdisp // 4,
                                      self.num_groups)
        cost0 = self.dres0(gwc_volume)
        cost3 = self.classif3(cost0)
        cost3 = F.interpolate(cost3, [self.maxdisp, left.size()[2], left.size()[3]], mode='trilinear')
        cost3 = torch.squeeze(cost3, 1)
        pred3 = F.softmax(cost3, dim=1)
        pred3 = disparity_regression(pred3, self.maxdisp)
        return [pred3]

device = torch.device("meta")   # the GPU, simulated with meta
model = GwcNet(48)
model = model.to(device)    # nn.DataParallel(model); model.cuda()
imgL = torch.rand(1, 3, 32, 64).to(device)
imgR = torch.rand(1, 3, 32, 64).to(device)
'''
CELL = '''
model.eval()
with torch.no_grad():
    disp_ests = model(imgL, imgR)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
