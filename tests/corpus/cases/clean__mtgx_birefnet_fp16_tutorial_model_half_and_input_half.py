"""BiRefNet's FP16 inference tutorial: the model is `.half()`-ed and each input is cast with `.half()` too.

Source: https://github.com/ZhengPeng7/BiRefNet (tutorials/BiRefNet_inference-fp16.ipynb)
The tutorial moves BiRefNet to the device, calls `birefnet.half()`, builds the input with the fp32
torchvision transform, then does `input_images = input_images.half()` on a separate line before
`preds = birefnet(input_images)[-1].sigmoid().cpu()`. The fp32 transform output next to an fp16 model
looks like the classic "Input type (float) and bias type (c10::Half)" mistake, but the cast happens before
the forward. Stand-ins: BiRefNet reduced to convs, the transform written with torch ops, the PIL image a
uint8 tensor. Run in fp16 on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BiRefNet(nn.Module):
    def __init__(self, bb_pretrained=False):
        super().__init__()
        self.bb = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return [self.head(self.bb(x))]

def transform_image(image, size=(64, 64)):             # Resize((1024, 1024)) + ToTensor + Normalize
    x = image.permute(2, 0, 1).float().div(255)
    x = F.interpolate(x.unsqueeze(0), size=size, mode="bilinear", align_corners=False)[0]
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return (x - mean) / std

device = 'cpu'                                         # 'cuda' if torch.cuda.is_available() else 'cpu'
birefnet = BiRefNet(bb_pretrained=False)
birefnet.to(device)
birefnet.eval()
birefnet.half()
image = torch.randint(0, 256, (48, 40, 3), dtype=torch.uint8)
'''
CELL = '''
input_images = transform_image(image).unsqueeze(0).to(device)
input_images = input_images.half()
with torch.no_grad():
    preds = birefnet(input_images)[-1].sigmoid().cpu()
pred = preds[0].squeeze()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
