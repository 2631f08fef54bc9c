"""LayerStyle Advance BiRefNetUltraV2 runs BiRefNet on the GPU and pulls the prediction back to the CPU on purpose.

Source: https://github.com/chflame163/ComfyUI_LayerStyle_Advance (py/birefnet_ultra_v2.py)
The node moves `birefnet_model` to the chosen device, sends each preprocessed frame there with
`.to(device)`, and ends the forward with `.sigmoid().cpu()`: the mask is post-processed with PIL
(`ToPILImage`, resize, brightness) and joined with the CPU IMAGE (`RGB2RGBA`) on the CPU, and the node
returns CPU tensors as ComfyUI expects. A GPU model next to CPU images and masks is the intended layout.
Stand-ins: BiRefNet reduced to convs, the torchvision/PIL steps written with torch ops on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BiRefNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.bb = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return [self.head(self.bb(x))]

def transform_image(img, size=(64, 64)):              # Resize + ToTensor + Normalize
    x = F.interpolate(img.movedim(-1, 0).unsqueeze(0), size=size, mode="bilinear", align_corners=False)[0]
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return (x - mean) / std

def RGB2RGBA(image, mask):                            # image [H, W, 3], mask [H, W], both on the CPU
    return torch.cat([image, mask.unsqueeze(-1)], dim=-1)

class LS_BiRefNetUltraV2:
    def birefnet_ultra_v2(self, image, birefnet_model, device):
        ret_images = []
        ret_masks = []
        birefnet_model.to(device)
        birefnet_model.eval()
        for i in image:
            inference_image = transform_image(i).unsqueeze(0).to(device)
            with torch.no_grad():
                preds = birefnet_model(inference_image)[-1].sigmoid().cpu()
            pred = preds[0].squeeze()
            _mask = F.interpolate(pred[None, None], size=i.shape[:2], mode="bilinear")[0, 0]
            _mask = (_mask * 1.08).clamp(0, 1)         # ImageEnhance.Brightness(...).enhance(1.08)
            ret_images.append(RGB2RGBA(i, _mask).unsqueeze(0))
            ret_masks.append(_mask.unsqueeze(0))
        return (torch.cat(ret_images, dim=0), torch.cat(ret_masks, dim=0))

birefnet_model = BiRefNet()
node = LS_BiRefNetUltraV2()
image = torch.rand(2, 48, 40, 3)                      # ComfyUI IMAGE on the CPU
device = "cuda:0"
'''
CELL = '''
ret_image, ret_mask = node.birefnet_ultra_v2(image, birefnet_model, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
