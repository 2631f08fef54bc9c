"""Depth-Anything-V2 README snippet: infer_image sends the image to cuda, the model was never moved.

Source: https://github.com/DepthAnything/Depth-Anything-V2/issues/45
Running the README's "Use Our Models" snippet (`model = DepthAnythingV2(**model_configs[encoder])`,
`load_state_dict(...)`, `model.eval()`, `depth = model.infer_image(raw_img)`) raised "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same":
`image2tensor` moves the image to DEVICE ('cuda' when available), but the snippet never calls
`model.to(DEVICE)`. Stand-ins: DINOv2 reduced to its token preparation (patch conv + cls token), the DPT head to a conv;
the numpy transform pipeline to a resize; `.cpu().numpy()` at the end dropped. Simulated with
meta as the accelerator.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class DINOv2(nn.Module):
    """Stand-in: the ViT backbone reduced to prepare_tokens_with_masks (patch embed, cls token)."""
    def __init__(self, model_name='vits', embed_dim=64):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, kernel_size=14, stride=14)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.norm = nn.LayerNorm(embed_dim)

    def prepare_tokens_with_masks(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        return torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)

    def get_intermediate_layers(self, x, n, return_class_token=True):
        B, _, H, W = x.shape
        x = self.norm(self.prepare_tokens_with_masks(x))[:, 1:]
        x = x.transpose(1, 2).reshape(B, -1, H // 14, W // 14)
        return [x for _ in n]

class DPTHead(nn.Module):
    def __init__(self, in_channels, features=64):
        super().__init__()
        self.project = nn.Conv2d(in_channels, features, 1)
        self.output = nn.Conv2d(features, 1, 3, padding=1)

    def forward(self, out_features, patch_h, patch_w):
        x = self.project(out_features[-1])
        x = F.interpolate(x, (patch_h * 14, patch_w * 14), mode="bilinear", align_corners=True)
        return self.output(x)

class DepthAnythingV2(nn.Module):
    def __init__(self, encoder='vits', features=64, out_channels=[48, 96, 192, 384]):
        super().__init__()
        self.intermediate_layer_idx = {'vits': [2, 5, 8, 11]}
        self.encoder = encoder
        self.pretrained = DINOv2(model_name=encoder)
        self.depth_head = DPTHead(64, features)

    def forward(self, x):
        patch_h, patch_w = x.shape[-2] // 14, x.shape[-1] // 14
        features = self.pretrained.get_intermediate_layers(x, self.intermediate_layer_idx[self.encoder], return_class_token=True)
        depth = self.depth_head(features, patch_h, patch_w)
        depth = F.relu(depth)
        return depth.squeeze(1)

    @torch.no_grad()
    def infer_image(self, raw_image, input_size=518):
        image, (h, w) = self.image2tensor(raw_image, input_size)
        depth = self.forward(image)
        depth = F.interpolate(depth[:, None], (h, w), mode="bilinear", align_corners=True)[0, 0]
        return depth

    def image2tensor(self, raw_image, input_size=518):
        h, w = raw_image.shape[:2]
        image = raw_image[:, :, ::-1] / 255.0                      # cv2.cvtColor(BGR2RGB) / 255
        image = torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1))).float().unsqueeze(0)
        image = F.interpolate(image, (input_size, input_size), mode="bilinear")   # Resize + NormalizeImage
        DEVICE = 'meta'   # 'cuda' if torch.cuda.is_available() else 'mps' if ... else 'cpu'
        image = image.to(DEVICE)
        return image, (h, w)

model_configs = {
    'vits': {'encoder': 'vits', 'features': 64, 'out_channels': [48, 96, 192, 384]},
}
encoder = 'vits'
model = DepthAnythingV2(**model_configs[encoder])
# model.load_state_dict(torch.load(f'checkpoints/depth_anything_v2_{encoder}.pth', map_location='cpu'))
model = model.eval()

raw_img = np.random.default_rng(0).integers(0, 255, (120, 160, 3)).astype(np.uint8)   # cv2.imread(...)
'''
CELL = '''
depth = model.infer_image(raw_img, input_size=126)   # HxW raw depth map
'''
EXPECT_ERROR = ("should be the same", "is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to("meta")
'''
REFERENCE_EDIT = None
CLEAN = False
