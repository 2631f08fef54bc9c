"""BEVDepth with depth aggregation under native AMP: `DepthAggregation.forward` is `@autocast(False)` but gets the fp16 frustum features.

Source: https://github.com/Megvii-BaseDetection/BEVDepth/issues/163
Training the `..._2key_da_ema` exp (`use_da=True`) with `--amp_backend native` fails in
`DepthAggregation.forward` at `x = self.reduce_conv(x)` with "Input type (torch.cuda.HalfTensor)
and weight type (torch.cuda.FloatTensor) should be the same" (same trace in issue #165). The depth
net runs under autocast, so `img_feat_with_depth` arrives in fp16, while `forward` is decorated
`@autocast(False)` and its convs keep fp32 weights. The answer in the thread: drop the
`@autocast(False)` on `DepthAggregation.forward` (base_lss_fpn.py line ~307).
Stand-in: BaseLSSFPN reduced to the depth net and `_forward_single_sweep` up to
`_forward_voxel_net` (no CUDA voxel pooling); `autocast` is CPU autocast in fp16, standing in for
`torch.cuda.amp.autocast`. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn


def autocast(enabled=True):
    """Stand-in for `torch.cuda.amp.autocast_mode.autocast(enabled)` on this CPU-only machine."""
    return torch.autocast("cpu", dtype=torch.float16, enabled=enabled)


class DepthAggregation(nn.Module):
    """pixel cloud feature extraction"""

    def __init__(self, in_channels, mid_channels, out_channels):
        super(DepthAggregation, self).__init__()
        self.reduce_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, stride=1, padding=1, bias=False),
            nn.BatchNorm2d(mid_channels),
            nn.ReLU(inplace=True),
        )
        self.conv = nn.Sequential(
            nn.Conv2d(mid_channels, mid_channels, kernel_size=3, stride=1, padding=1, bias=False),
            nn.BatchNorm2d(mid_channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_channels, mid_channels, kernel_size=3, stride=1, padding=1, bias=False),
            nn.BatchNorm2d(mid_channels),
            nn.ReLU(inplace=True),
        )
        self.out_conv = nn.Sequential(
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, stride=1, padding=1, bias=True),
        )

    @autocast(False)
    def forward(self, x):
        x = self.reduce_conv(x)
        x = self.conv(x) + x
        x = self.out_conv(x)
        return x


class BaseLSSFPN(nn.Module):
    def __init__(self, depth_channels=8, output_channels=16, in_channels=32, use_da=False):
        super(BaseLSSFPN, self).__init__()
        self.depth_channels = depth_channels
        self.output_channels = output_channels
        self.depth_net = nn.Conv2d(in_channels, depth_channels + output_channels, kernel_size=1)
        self.use_da = use_da
        if self.use_da:
            self.depth_aggregation_net = self._configure_depth_aggregation_net()

    def _configure_depth_aggregation_net(self):
        """build pixel cloud feature extractor"""
        return DepthAggregation(self.output_channels, self.output_channels,
                                self.output_channels)

    def _forward_voxel_net(self, img_feat_with_depth):
        if self.use_da:
            # BEVConv2D [n, c, d, h, w] -> [n, h, c, w, d]
            img_feat_with_depth = img_feat_with_depth.permute(0, 3, 1, 4, 2).contiguous()
            n, h, c, w, d = img_feat_with_depth.shape
            img_feat_with_depth = img_feat_with_depth.view(-1, c, w, d)
            img_feat_with_depth = (
                self.depth_aggregation_net(img_feat_with_depth).view(
                    n, h, c, w, d).permute(0, 2, 4, 1, 3).contiguous())
        return img_feat_with_depth

    def _forward_single_sweep(self, source_features):
        depth_feature = self.depth_net(source_features)
        depth = depth_feature[:, :self.depth_channels].softmax(
            dim=1, dtype=depth_feature.dtype)
        img_feat_with_depth = depth.unsqueeze(1) * depth_feature[:, self.depth_channels:(
            self.depth_channels + self.output_channels)].unsqueeze(2)
        img_feat_with_depth = self._forward_voxel_net(img_feat_with_depth)
        return img_feat_with_depth

    def forward(self, source_features):
        return self._forward_single_sweep(source_features)


class BaseBEVDepth(nn.Module):
    def __init__(self, backbone_conf):
        super(BaseBEVDepth, self).__init__()
        self.backbone = BaseLSSFPN(**backbone_conf)

    def forward(self, x):
        return self.backbone(x)


torch.manual_seed(0)
model = BaseBEVDepth(dict(depth_channels=8, output_channels=16, in_channels=32, use_da=True))
model.train()
# image features of 2 samples x 6 cameras after the image backbone/neck (B*N, C, fH, fW)
source_features = torch.randn(12, 32, 4, 11)
'''
CELL = '''
with autocast(True):            # Lightning `--amp_backend native`
    img_feat_with_depth = model(source_features)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "Half")
CULPRITS = ["model.backbone.depth_aggregation_net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    @autocast(False)\n    def forward(self, x):\n        x = self.reduce_conv(x)",
                  "    def forward(self, x):\n        x = self.reduce_conv(x)")
CLEAN = False
