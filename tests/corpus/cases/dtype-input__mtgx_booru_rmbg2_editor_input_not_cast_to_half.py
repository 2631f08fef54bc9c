"""BooruDatasetTagManager AiApiServer: RMBG2 (BiRefNet) background removal gets an fp32 image while the model is fp16.

Source: https://github.com/starik222/BooruDatasetTagManager/issues/232
Running the Background Removal tool (BiRefNet / RMBG-2.0) made the server log "RuntimeError: Input type
(float) and bias type (struct c10::Half) should be the same". The reporter's root cause: the model's
weights are loaded in half precision, but `RMBG2Editor.apply` builds `input_images =
self.transform_image(image).unsqueeze(0).to(devices.device)` in fp32; the proposed fix appends `.half()`
to that line. Stand-ins: `AutoModelForImageSegmentation.from_pretrained` returning a tiny fp16 BiRefNet,
the torchvision transform written with torch ops, `devices.device` as the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import types
import torch
import torch.nn as nn
import torch.nn.functional as F

devices = types.SimpleNamespace(device=torch.device("cpu"))     # modules.devices ("cuda" in the report)

class BiRefNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.bb = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return [self.head(self.bb(x))]

class AutoModelForImageSegmentation:
    @staticmethod
    def from_pretrained(repo, trust_remote_code=True, **kwargs):
        return BiRefNet().half()          # RMBG-2.0 weights come up in float16

def make_transform(resolution):           # Resize + ToTensor + Normalize
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    def transform_image(image):            # image: uint8 [H, W, 3]
        x = image.permute(2, 0, 1).float().div(255)
        x = F.interpolate(x.unsqueeze(0), size=resolution, mode="bilinear", align_corners=False)[0]
        return (x - mean) / std
    return transform_image

class RMBG2Editor:
    def __init__(self, model_name):
        self.MODEL_REPO = model_name
        self.model = None
        self.transform_image = None
        self.resolution = (1024, 1024)

    def load(self, resolution, skip_online=False):
        self.resolution = resolution
        if self.model is None:
            self.model = AutoModelForImageSegmentation.from_pretrained(self.MODEL_REPO,
                                                                      trust_remote_code=True).to(devices.device)
            self.model.eval()
            self.transform_image = make_transform(self.resolution)

    def apply(self, image):
        if self.model is None:
            return ""
        input_images = self.transform_image(image).unsqueeze(0).to(devices.device)
        with torch.no_grad():
            preds = self.model(input_images)[-1].sigmoid().cpu()
        pred = preds[0].squeeze()
        return pred

editor = RMBG2Editor("briaai/RMBG-2.0")
editor.load((64, 64))
image = torch.randint(0, 256, (48, 40, 3), dtype=torch.uint8)   # the uploaded picture
'''
CELL = '''
mask = editor.apply(image)
'''
EXPECT_ERROR = ("Input type (float) and bias type (c10::Half) should be the same",
                "should be the same")
CULPRITS = ["editor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_images = self.transform_image(image).unsqueeze(0).to(devices.device)",
                  "input_images = self.transform_image(image).unsqueeze(0).to(devices.device).half()")
CLEAN = False
