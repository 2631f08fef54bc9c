"""comfyui_controlnet_aux DepthAnythingV2Preprocessor on an Intel XPU: image2tensor only knows cuda/mps/cpu, so the input stays on the CPU.

Source: https://github.com/Fannovel16/comfyui_controlnet_aux/issues/492
The node crashed inside `infer_image` -> `prepare_tokens_with_masks` -> `patch_embed`. A later comment
("Same issue on Intel XPU (ComfyUI Windows portable Intel edition)") gives the root cause: in
`custom_controlnet_aux/depth_anything_v2/dpt.py`, `image2tensor()` hardcodes
`DEVICE = 'cuda' if torch.cuda.is_available() else 'mps' if torch.backends.mps.is_available() else 'cpu'`,
so with the model on XPU the image is sent to the CPU; the suggested (and verified) fix is
`image = image.to(next(self.parameters()).device)`. Here cuda:0 stands in for the XPU; the CPU build
of torch answers `torch.cuda.is_available()` with False just as the XPU box did. Stand-ins: DINOv2
reduced to token preparation (patch conv + cls token + pos embed), the DPT head to two convs, the cv2
transform pipeline to a resize; the detector wrapper keeps the library's `self.model` layout.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class DinoVisionTransformer(nn.Module):
    """Stand-in: the ViT backbone reduced to prepare_tokens_with_masks and a norm."""
    def __init__(self, embed_dim=64, patch_size=14, num_patches=81):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 1, embed_dim))
        self.norm = nn.LayerNorm(embed_dim)

    def prepare_tokens_with_masks(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)
        return x + self.pos_embed

    def get_intermediate_layers(self, x, n, return_class_token=True):
        B, _, H, W = x.shape
        x = self.norm(self.prepare_tokens_with_masks(x))
        patches = x[:, 1:].transpose(1, 2).reshape(B, -1, H // 14, W // 14)
        return [patches for _ in n]

class DPTHead(nn.Module):
    def __init__(self, in_channels=64, features=64):
        super().__init__()
        self.project = nn.Conv2d(in_channels, features, 1)
        self.output = nn.Conv2d(features, 1, 3, padding=1)

    def forward(self, out_features, patch_h, patch_w):
        x = self.project(out_features[-1])
        x = F.interpolate(x, (patch_h * 14, patch_w * 14), mode="bilinear", align_corners=True)
        return self.output(x)

class DepthAnythingV2(nn.Module):
    def __init__(self, encoder='vits', features=64, out_channels=[48, 96, 192, 384], max_depth=20.0):
        super().__init__()
        self.intermediate_layer_idx = {'vits': [2, 5, 8, 11]}
        self.encoder = encoder
        self.max_depth = max_depth
        self.pretrained = DinoVisionTransformer()
        self.depth_head = DPTHead(64, features)

    def forward(self, x, max_depth):
        patch_h, patch_w = x.shape[-2] // 14, x.shape[-1] // 14
        features = self.pretrained.get_intermediate_layers(x, self.intermediate_layer_idx[self.encoder], return_class_token=True)
        depth = self.depth_head(features, patch_h, patch_w) * max_depth
        return F.relu(depth).squeeze(1)

    @torch.no_grad()
    def infer_image(self, raw_image, input_size=518, max_depth=20.0):
        image, (h, w) = self.image2tensor(raw_image, input_size)
        depth = self.forward(image, max_depth)
        depth = F.interpolate(depth[:, None], (h, w), mode="bilinear", align_corners=True)[0, 0]
        return depth

    def image2tensor(self, raw_image, input_size=518):
        h, w = raw_image.shape[:2]
        image = raw_image[:, :, ::-1] / 255.0                         # cv2.cvtColor(BGR2RGB) / 255
        image = torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1))).float().unsqueeze(0)
        image = F.interpolate(image, (input_size, input_size), mode="bilinear")   # Resize/Normalize/PrepareForNet
        DEVICE = 'cuda' if torch.cuda.is_available() else 'mps' if torch.backends.mps.is_available() else 'cpu'
        image = image.to(DEVICE)
        return image, (h, w)

class DepthAnythingV2Detector:
    """Stand-in for custom_controlnet_aux.depth_anything_v2.DepthAnythingV2Detector."""
    def __init__(self, model):
        self.model = model
        self.device = "cpu"

    def to(self, device):
        self.model.to(device)
        self.device = device
        return self

    def __call__(self, input_image, max_depth=20.0):
        bgr = input_image[:, :, ::-1]                                   # cv2.cvtColor(RGB2BGR)
        depth = self.model.infer_image(bgr, input_size=126, max_depth=max_depth)
        return depth

# comfy.model_management.get_torch_device() -> xpu on the Intel build; cuda:0 stands in for it
model = DepthAnythingV2Detector(DepthAnythingV2(encoder='vits')).to("cuda:0")
input_image = np.random.default_rng(0).integers(0, 255, (120, 160, 3)).astype(np.uint8)
'''
CELL = '''
depth = model(input_image, max_depth=20.0)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["model.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        image = image.to(DEVICE)\n",
                  "        image = image.to(next(self.parameters()).device)\n")
CLEAN = False
