"""Real-ESRGAN inference in fp16 (the default): the weights are halved and the float32 frame is cast to half in `pre_process`.

Source: https://github.com/xinntao/Real-ESRGAN/issues/319
The FAQ answer quoted in the thread: "Real-ESRGAN uses half precision (fp16) during inference by
default" (pass --fp32 only on the CPU). `RealESRGANer.__init__` does `self.model =
model.to(self.device)` then `.half()`; `pre_process` builds the input with `.float()`, moves it with
`.to(self.device)` and casts it with `.half()` when `self.half`, then pads it and runs the model.
Look-alike:
a float32 tensor and `.float()` calls next to a half model, all consistent at the point of use.
Stand-in: a small RRDBNet-shaped x4 generator; the cv2 colour conversion, tiling
(not used with tile=0) and numpy output are left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

class TinyRRDBNet(nn.Module):
    def __init__(self, num_in_ch=3, num_out_ch=3, scale=4, num_feat=16):
        super().__init__()
        self.conv_first = nn.Conv2d(num_in_ch, num_feat, 3, 1, 1)
        self.conv_body = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_up1 = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_up2 = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_last = nn.Conv2d(num_feat, num_out_ch, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2, inplace=True)

    def forward(self, x):
        feat = self.conv_first(x)
        feat = feat + self.conv_body(feat)
        feat = self.lrelu(self.conv_up1(F.interpolate(feat, scale_factor=2, mode='nearest')))
        feat = self.lrelu(self.conv_up2(F.interpolate(feat, scale_factor=2, mode='nearest')))
        return self.conv_last(feat)

class RealESRGANer():
    def __init__(self, scale, model_path, model=None, tile=0, tile_pad=10, pre_pad=10, half=False, device=None):
        self.scale = scale
        self.tile_size = tile
        self.tile_pad = tile_pad
        self.pre_pad = pre_pad
        self.mod_scale = None
        self.half = half
        self.device = device
        # loadnet = torch.load(model_path, map_location=torch.device('cpu')); model.load_state_dict(loadnet, strict=False)
        model.eval()
        self.model = model.to(self.device)
        if self.half:
            self.model = self.model.half()

    def pre_process(self, img):
        img = torch.from_numpy(np.transpose(img, (2, 0, 1))).float()
        self.img = img.unsqueeze(0).to(self.device)
        if self.half:
            self.img = self.img.half()
        if self.pre_pad != 0:
            self.img = F.pad(self.img, (0, self.pre_pad, 0, self.pre_pad), 'reflect')

    def process(self):
        # model inference
        self.output = self.model(self.img)

    def post_process(self):
        if self.pre_pad != 0:
            _, _, h, w = self.output.size()
            self.output = self.output[:, :, 0:h - self.pre_pad * self.scale, 0:w - self.pre_pad * self.scale]
        return self.output

model = TinyRRDBNet(num_in_ch=3, num_out_ch=3, scale=4)
upsampler = RealESRGANer(scale=4, model_path="weights/RealESRGAN_x4plus.pth", model=model,
                         tile=0, tile_pad=10, pre_pad=10, half=True, device=torch.device("cuda:0"))
img = (np.random.randint(0, 256, (48, 64, 3)).astype(np.float32)) / 255
'''
CELL = '''
with torch.no_grad():
    upsampler.pre_process(img)
    if upsampler.tile_size > 0:
        upsampler.tile_process()
    else:
        upsampler.process()
output_img = upsampler.post_process()
output_img = output_img.data.squeeze().float().clamp_(0, 1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
