"""ComfyUI-DepthAnythingV2: an fp16 model on MPS gets float32 images because autocast is skipped there.

Source: https://github.com/kijai/ComfyUI-DepthAnythingV2/issues/6
"Error: Input type (float) and bias type (c10::Half) should be the same" for all fp16 models on Apple
silicon (`PYTORCH_ENABLE_MPS_FALLBACK=1`), raised from `depth = model(img.unsqueeze(0).to(device))`
in `DepthAnything_V2.process` -> `dpt.py forward` -> `patch_embed`. The loader puts the weights in
fp16 (`set_module_tensor_to_device(..., dtype=dtype)`), and `process` relies on
`torch.autocast(...)` to run float32 images through them, but `autocast_condition = (dtype !=
torch.float32) and not mm.is_device_mps(device)` turns autocast off on MPS, so the float32 image
meets the half conv. Fix in the node: hand the image over in the model's dtype on that path.
Stand-ins: `comfy.model_management` is a namespace reporting the user's MPS device (the run itself is
on the CPU, where the same conv dtype check fires); DepthAnythingV2 reduced to the 14x14 patch
embedding, one transformer block and a depth head; `ProgressBar` dropped; torchvision's `transforms.Normalize` written out; the model is created
directly in fp16 instead of via accelerate's `set_module_tensor_to_device`.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from contextlib import nullcontext
from types import SimpleNamespace

mm = SimpleNamespace(
    get_torch_device=lambda: torch.device("cpu"),      # torch.device("mps") on the user's Mac
    unet_offload_device=lambda: torch.device("cpu"),
    is_device_mps=lambda device: True,
    get_autocast_device=lambda device: "cpu",
)

class DepthAnythingV2(nn.Module):
    def __init__(self, encoder='vits', features=64, out_channels=(48, 96, 192, 384), is_metric=False):
        super().__init__()
        self.is_metric = is_metric
        self.pretrained = nn.ModuleDict(dict(
            patch_embed=nn.Conv2d(3, 384, kernel_size=14, stride=14),
            block=nn.TransformerEncoderLayer(384, 6, 1536, batch_first=True)))
        self.depth_head = nn.Sequential(nn.Conv2d(384, features, 1), nn.ReLU(), nn.Conv2d(features, 1, 1), nn.ReLU())

    def forward(self, x):
        h, w = x.shape[-2] // 14, x.shape[-1] // 14
        t = self.pretrained['patch_embed'](x).flatten(2).transpose(1, 2)
        t = self.pretrained['block'](t)
        feat = t.transpose(1, 2).reshape(x.shape[0], 384, h, w)
        depth = self.depth_head(feat)
        depth = F.interpolate(depth, size=x.shape[-2:], mode="bilinear", align_corners=True)
        return depth.squeeze(1)

class Normalize:
    """torchvision.transforms.Normalize"""
    def __init__(self, mean, std):
        self.mean, self.std = mean, std
    def __call__(self, x):
        mean = torch.as_tensor(self.mean, dtype=x.dtype, device=x.device).view(-1, 1, 1)
        std = torch.as_tensor(self.std, dtype=x.dtype, device=x.device).view(-1, 1, 1)
        return (x - mean) / std

class DepthAnything_V2:
    def process(self, da_model, images):
        device = mm.get_torch_device()
        offload_device = mm.unet_offload_device()
        model = da_model['model']
        dtype = da_model['dtype']

        B, H, W, C = images.shape
        images = images.permute(0, 3, 1, 2)
        orig_H, orig_W = H, W
        if W % 14 != 0:
            W = W - (W % 14)
        if H % 14 != 0:
            H = H - (H % 14)
        if orig_H % 14 != 0 or orig_W % 14 != 0:
            images = F.interpolate(images, size=(H, W), mode="bilinear")

        normalize = Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
        normalized_images = normalize(images)
        out = []
        model.to(device)
        autocast_condition = (dtype != torch.float32) and not mm.is_device_mps(device)
        with torch.autocast(mm.get_autocast_device(device), dtype=dtype) if autocast_condition else nullcontext():
            for img in normalized_images:
                depth = model(img.unsqueeze(0).to(device))
                depth = (depth - depth.min()) / (depth.max() - depth.min())
                out.append(depth.cpu())
            model.to(offload_device)
            depth_out = torch.cat(out, dim=0)
            depth_out = depth_out.unsqueeze(-1).repeat(1, 1, 1, 3).cpu().float()
        return (depth_out,)

# DownloadAndLoadDepthAnythingV2Model.loadmodel('depth_anything_v2_vits_fp16.safetensors')
dtype = torch.float16
da_model = {"model": DepthAnythingV2().to(dtype).eval(), "dtype": dtype, "is_metric": False}
depth_node = DepthAnything_V2()
images = torch.rand(1, 140, 182, 3)          # ComfyUI IMAGE batch, B H W C, float32
'''
CELL = '''
with torch.no_grad():
    (depth_image,) = depth_node.process(da_model, images)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["depth_node"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                depth = model(img.unsqueeze(0).to(device))",
                  "                depth = model(img.unsqueeze(0).to(device, dtype))")
CLEAN = False
