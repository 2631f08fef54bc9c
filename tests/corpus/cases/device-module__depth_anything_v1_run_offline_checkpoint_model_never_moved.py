"""Depth-Anything (v1) run.py with the README's offline loading: the model stays on the CPU.

Source: https://github.com/LiheYoung/Depth-Anything/issues/161
Following the README section for loading without network access, the user replaced
`DepthAnything.from_pretrained(...).to(DEVICE).eval()` in run.py by
`depth_anything = DepthAnything(model_configs[encoder])` + `load_state_dict(torch.load(...))`;
run.py still sends every image to DEVICE (`torch.from_numpy(image).unsqueeze(0).to(DEVICE)`), so
`depth = depth_anything(image)` fails in `dpt.py forward -> get_intermediate_layers ->
prepare_tokens_with_masks` with "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same". Fix: `depth_anything = depth_anything.to(DEVICE).eval()`.
Stand-ins: DINOv2 reduced to patch embedding + pos_embed/cls token + one block, DPT head to a
conv; run.py's Resize/NormalizeImage/PrepareForNet transform to a numpy resize/normalise; the
checkpoint is an in-memory state_dict; DEVICE is written 'cuda:0' (the simulator's GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class DinoVisionTransformer(nn.Module):
    def __init__(self, embed_dim=64, patch_size=14, num_patches=37 * 37):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 1, embed_dim))
        self.blocks = nn.ModuleList([nn.TransformerEncoderLayer(embed_dim, 4, 128, batch_first=True)])
        self.norm = nn.LayerNorm(embed_dim)

    def prepare_tokens_with_masks(self, x, masks=None):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)
        x = x + self.pos_embed[:, :x.shape[1]]
        return x

    def get_intermediate_layers(self, x, n=4, return_class_token=True):
        B, _, H, W = x.shape
        x = self.prepare_tokens_with_masks(x)
        outputs = []
        for blk in self.blocks:
            x = blk(x)
            outputs.append(x)
        outputs = [self.norm(o) for o in outputs]
        return tuple((o[:, 1:], o[:, 0]) for o in outputs)

class DPT_DINOv2(nn.Module):
    def __init__(self, encoder='vits', features=64, out_channels=[48, 96, 192, 384], use_bn=False):
        super().__init__()
        self.pretrained = DinoVisionTransformer()
        self.depth_head = nn.Sequential(nn.Conv2d(64, features, 3, padding=1), nn.ReLU(), nn.Conv2d(features, 1, 1))

    def forward(self, x):
        h, w = x.shape[-2:]
        features = self.pretrained.get_intermediate_layers(x, 4, return_class_token=True)
        patch_h, patch_w = h // 14, w // 14
        feat = features[-1][0].transpose(1, 2).reshape(x.shape[0], -1, patch_h, patch_w)
        depth = self.depth_head(feat)
        depth = F.interpolate(depth, size=(h, w), mode="bilinear", align_corners=True)
        depth = F.relu(depth)
        return depth.squeeze(1)

class DepthAnything(DPT_DINOv2):
    def __init__(self, config):
        super().__init__(**config)

def transform(sample):
    """Resize(518, keep aspect, multiple of 14) + NormalizeImage + PrepareForNet."""
    image = sample['image']
    image = image[:518 // 14 * 14, :518 // 14 * 14]
    image = (image - np.array([0.485, 0.456, 0.406])) / np.array([0.229, 0.224, 0.225])
    return {'image': np.ascontiguousarray(image.transpose(2, 0, 1)).astype(np.float32)}

DEVICE = 'cuda:0'      # 'cuda' if torch.cuda.is_available() else 'cpu'
model_configs = {
    'vits': {'encoder': 'vits', 'features': 64, 'out_channels': [48, 96, 192, 384]},
}
encoder = 'vits'
checkpoint = DepthAnything(model_configs[encoder]).state_dict()   # torch.load('./checkpoints/depth_anything_vits14.pth')

depth_anything = DepthAnything(model_configs[encoder])
depth_anything.load_state_dict(checkpoint)
depth_anything.eval()

raw_image = np.random.default_rng(0).random((518, 518, 3))   # cv2.imread(filename)[..., ::-1] / 255.0
'''
CELL = '''
image = transform({'image': raw_image})['image']
image = torch.from_numpy(image).unsqueeze(0).to(DEVICE)
with torch.no_grad():
    depth = depth_anything(image)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same", "is not on the expected device")
CULPRITS = ["depth_anything"]
FIX = "namespace"
REFERENCE_FIX = "depth_anything = depth_anything.to(DEVICE).eval()"
REFERENCE_EDIT = None
CLEAN = False
