"""Look-alike: MiDaS with `--optimize` on CUDA: load_model halves the network and process() halves the input sample, so float16 weights meet a float16 input.

Source: https://github.com/isl-org/MiDaS/blob/master/run.py
MiDaS v3.x `run.py`: `load_model(device, model_path, model_type, optimize, ...)`
(midas/model_loader.py) does `model = model.to(memory_format=torch.channels_last); model = model.half()`
when `optimize and device == torch.device("cuda")`, then `model.to(device)`; `process()` builds
`sample = torch.from_numpy(image).to(device).unsqueeze(0)` from the float32 numpy transform output
and, under the same condition, converts it with `sample.to(memory_format=torch.channels_last)` and
`sample.half()` before `model.forward(sample)`; the bicubic-resized prediction is copied to the host.
A float32 numpy image and a float16 model in one namespace, matched on purpose. Nothing to report.
Stand-ins: MidasNet_small reduced to an encoder, a fusion conv and the non-negative output head;
the Resize/NormalizeImage/PrepareForNet transform to a float32 CHW array; `device == cuda` tested as
`device.type == "cuda"` (the simulated device is cuda:0); the final `.numpy()` dropped (simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class MidasNet_small(nn.Module):
    """Stand-in: encoder, one fusion block and the output conv head (non_negative=True)."""
    def __init__(self, features=32, non_negative=True):
        super().__init__()
        self.pretrained = nn.Sequential(nn.Conv2d(3, features, 3, stride=2, padding=1), nn.ReLU(),
                                        nn.Conv2d(features, features, 3, stride=2, padding=1), nn.ReLU())
        self.refinenet = nn.Sequential(nn.Conv2d(features, features, 3, padding=1), nn.ReLU())
        self.output_conv = nn.Sequential(
            nn.Conv2d(features, features // 2, 3, padding=1),
            nn.Upsample(scale_factor=4, mode="bilinear"),
            nn.Conv2d(features // 2, 1, 1),
            nn.ReLU(True) if non_negative else nn.Identity(),
        )

    def forward(self, x):
        return torch.squeeze(self.output_conv(self.refinenet(self.pretrained(x))), dim=1)

def load_model(device, model_path, model_type="midas_v21_small_256", optimize=True, height=None, square=False):
    model = MidasNet_small(32, non_negative=True)      # MidasNet_small(model_path, features=64, ...)
    net_w, net_h = 256, 256
    model.eval()
    if optimize and (device.type == "cuda"):           # device == torch.device("cuda")
        model = model.to(memory_format=torch.channels_last)
        model = model.half()
    model.to(device)
    return model, None, net_w, net_h

def process(device, model, model_type, image, input_size, target_size, optimize, use_camera=False):
    sample = torch.from_numpy(image).to(device).unsqueeze(0)
    if optimize and device.type == "cuda":
        sample = sample.to(memory_format=torch.channels_last)
        sample = sample.half()
    prediction = model.forward(sample)
    prediction = (
        torch.nn.functional.interpolate(
            prediction.unsqueeze(1),
            size=target_size[::-1],
            mode="bicubic",
            align_corners=False,
        )
        .squeeze()
        .cpu()
    )                                                   # .numpy()
    return prediction

device = torch.device("cuda:0")                        # torch.device("cuda" if torch.cuda.is_available() else "cpu")
model, transform, net_w, net_h = load_model(device, "weights/midas_v21_small_256.pt", "midas_v21_small_256", optimize=True)

original_image_rgb = np.random.default_rng(0).random((120, 160, 3)).astype(np.float32)   # utils.read_image(...)
image = np.ascontiguousarray(original_image_rgb[:96, :128].transpose(2, 0, 1))          # transform({"image": ...})["image"]
'''
CELL = '''
with torch.no_grad():
    prediction = process(device, model, "midas_v21_small_256", image, (net_w, net_h),
                         original_image_rgb.shape[1::-1], optimize=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
