"""Real-ESRGAN upscaler with half_precision=True: the weights are cast to FP16, `upscale()` builds a float32 input tensor.

Source: https://github.com/sgl-project/sglang/pull/21796
"[Bugfix] RealESRGAN fp16 dtype mismatch in upscaler": upscaling supports `half_precision=True`,
but the implementation could crash in fp16 mode "because the input tensor stays float32 while model
weights are converted to float16" (Float / Half mismatch in the first convolution). The fix casts
the input tensor to the model's parameter dtype inside `UpscalerModel.upscale()`. Stand-in: a small
RRDBNet-shaped generator (conv_first, residual dense blocks, pixel-shuffle-free nearest upsampling)
and the upscaler wrapper; the output's CPU/numpy conversion is left out (fake cuda tensors).
"""

SIM = "fake_cuda"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class ResidualDenseBlock(nn.Module):
    def __init__(self, num_feat=32, num_grow_ch=16):
        super().__init__()
        self.conv1 = nn.Conv2d(num_feat, num_grow_ch, 3, 1, 1)
        self.conv2 = nn.Conv2d(num_feat + num_grow_ch, num_feat, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2, inplace=True)

    def forward(self, x):
        x1 = self.lrelu(self.conv1(x))
        x2 = self.conv2(torch.cat((x, x1), 1))
        return x2 * 0.2 + x

class RRDBNet(nn.Module):
    def __init__(self, num_in_ch=3, num_out_ch=3, scale=4, num_feat=32, num_block=2, num_grow_ch=16):
        super().__init__()
        self.conv_first = nn.Conv2d(num_in_ch, num_feat, 3, 1, 1)
        self.body = nn.Sequential(*[ResidualDenseBlock(num_feat, num_grow_ch) for _ in range(num_block)])
        self.conv_body = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_up1 = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_up2 = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_last = nn.Conv2d(num_feat, num_out_ch, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2, inplace=True)

    def forward(self, x):
        feat = self.conv_first(x)
        feat = feat + self.conv_body(self.body(feat))
        feat = self.lrelu(self.conv_up1(F.interpolate(feat, scale_factor=2, mode='nearest')))
        feat = self.lrelu(self.conv_up2(F.interpolate(feat, scale_factor=2, mode='nearest')))
        return self.conv_last(feat)

class UpscalerModel:
    def __init__(self, model_path, device, half_precision=False):
        self.device = device
        self.net = RRDBNet(num_in_ch=3, num_out_ch=3, scale=4)
        # self.net.load_state_dict(torch.load(model_path)["params_ema"])
        self.net.eval()
        self.net.to(device)
        if half_precision:
            self.net.half()

    @torch.no_grad()
    def upscale(self, image):
        img = torch.from_numpy(image).permute(2, 0, 1).float().div(255.0)
        img = img.unsqueeze(0).to(self.device)
        out = self.net(img)
        return out.clamp_(0, 1)

upscaler = UpscalerModel("RealESRGAN_x4plus.pth", torch.device("cuda:0"), half_precision=True)
frame = np.random.randint(0, 256, (48, 64, 3), dtype=np.uint8)  # decoded RGB frame
'''
CELL = '''
sr = upscaler.upscale(frame)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "must have the same dtype")
CULPRITS = ["upscaler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "img = img.unsqueeze(0).to(self.device)",
    "img = img.unsqueeze(0).to(self.device, dtype=next(self.net.parameters()).dtype)",
)
CLEAN = False
