"""unimatch `PositionEmbeddingSine.forward`: the padding mask and the frequency table are made inside `forward`, but with `device=x.device`, so they follow the GPU features.

Source: https://github.com/autonomousvision/unimatch/blob/master/unimatch/position.py
The DETR-style sine embedding creates `mask = torch.ones((b, h, w), device=x.device)` and
`dim_t = torch.arange(self.num_pos_feats, dtype=torch.float32, device=x.device)` on every call; it
has no parameters or buffers, so `model.to(device)` has nothing to move, and the embedding lands on
the features' GPU. unimatch's `feature_add_position` adds it to both feature maps before the
transformer. Look-alike: factory calls inside a GPU module's forward and a parameter-free submodule.
Stand-in: `PositionEmbeddingSine` as in the file, `feature_add_position` without the split-window
branch (attn_splits=1), and a one-conv backbone instead of the CNN encoder.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

class PositionEmbeddingSine(nn.Module):
    """
    This is a more standard version of the position embedding, very similar to the one
    used by the Attention is all you need paper, generalized to work on images.
    """

    def __init__(self, num_pos_feats=64, temperature=10000, normalize=True, scale=None):
        super().__init__()
        self.num_pos_feats = num_pos_feats
        self.temperature = temperature
        self.normalize = normalize
        if scale is not None and normalize is False:
            raise ValueError("normalize should be True if scale is passed")
        if scale is None:
            scale = 2 * math.pi
        self.scale = scale

    def forward(self, x):
        # x = tensor_list.tensors  # [B, C, H, W]
        # mask = tensor_list.mask  # [B, H, W], input with padding, valid as 0
        b, c, h, w = x.size()
        mask = torch.ones((b, h, w), device=x.device)  # [B, H, W]
        y_embed = mask.cumsum(1, dtype=torch.float32)
        x_embed = mask.cumsum(2, dtype=torch.float32)
        if self.normalize:
            eps = 1e-6
            y_embed = y_embed / (y_embed[:, -1:, :] + eps) * self.scale
            x_embed = x_embed / (x_embed[:, :, -1:] + eps) * self.scale

        dim_t = torch.arange(self.num_pos_feats, dtype=torch.float32, device=x.device)
        dim_t = self.temperature ** (2 * (dim_t // 2) / self.num_pos_feats)

        pos_x = x_embed[:, :, :, None] / dim_t
        pos_y = y_embed[:, :, :, None] / dim_t
        pos_x = torch.stack((pos_x[:, :, :, 0::2].sin(), pos_x[:, :, :, 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[:, :, :, 0::2].sin(), pos_y[:, :, :, 1::2].cos()), dim=4).flatten(3)
        pos = torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)
        return pos

def feature_add_position(feature0, feature1, attn_splits, feature_channels):
    pos_enc = PositionEmbeddingSine(num_pos_feats=feature_channels // 2)
    position = pos_enc(feature0)
    feature0 = feature0 + position
    feature1 = feature1 + position
    return feature0, feature1

class UniMatch(nn.Module):
    def __init__(self, feature_channels=32):
        super().__init__()
        self.feature_channels = feature_channels
        self.backbone = nn.Conv2d(3, feature_channels, 3, stride=4, padding=1)
        self.flow_head = nn.Conv2d(2 * feature_channels, 2, 3, padding=1)

    def forward(self, img0, img1):
        feature0, feature1 = self.backbone(img0), self.backbone(img1)
        feature0, feature1 = feature_add_position(feature0, feature1, 1, self.feature_channels)
        return self.flow_head(torch.cat((feature0, feature1), dim=1))

device = torch.device('cuda:0')
model = UniMatch().to(device).eval()
img0 = torch.rand(2, 3, 64, 96).to(device)
img1 = torch.rand(2, 3, 64, 96).to(device)
'''
CELL = '''
with torch.no_grad():
    flow = model(img0, img1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
