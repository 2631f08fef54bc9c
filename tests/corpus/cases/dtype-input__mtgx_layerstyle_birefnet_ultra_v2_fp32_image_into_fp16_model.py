"""LayerStyle Advance BiRefNetUltraV2: the node feeds a float32 image to a BiRefNet whose parameters are float16.

Source: https://github.com/chflame163/ComfyUI_LayerStyle_Advance/issues/149
`LayerMask: BiRefNetUltraV2` failed at the first backbone convolution with "Input type (float) and bias
type (c10::Half) should be the same" when the connected BiRefNet model (LoadBiRefNetModelV2, Hugging Face
`BiRefNet-General`) had float16 parameters. The reporter traced it to the node: it preprocesses the image
into float32 and moves it with `.to(device)` but never aligns its dtype with the model's; the fix is to
cast the input to the model's parameter dtype. Stand-ins: BiRefNet reduced to conv + head, the torchvision
Resize/ToTensor/Normalize pipeline written with torch ops, `LS_BiRefNetUltraV2.birefnet_ultra_v2` without
the detail-refinement branches.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BiRefNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.bb = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return [self.head(self.bb(x))]

def transform_image(img, size=(64, 64)):             # Resize + ToTensor + Normalize
    x = F.interpolate(img.movedim(-1, 0).unsqueeze(0), size=size, mode="bilinear", align_corners=False)[0]
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return (x - mean) / std

class LS_BiRefNetUltraV2:
    def __init__(self):
        self.NODE_NAME = "BiRefNetUltraV2"

    def birefnet_ultra_v2(self, image, birefnet_model, process_detail, device):
        ret_masks = []
        birefnet_model.to(device)
        birefnet_model.eval()
        for i in image:
            inference_image = transform_image(i).unsqueeze(0).to(device)
            with torch.no_grad():
                preds = birefnet_model(inference_image)[-1].sigmoid().cpu()
            pred = preds[0].squeeze()
            _mask = F.interpolate(pred[None, None].float(), size=i.shape[:2], mode="bilinear")[0, 0]
            ret_masks.append(_mask.unsqueeze(0))
        return (image, torch.cat(ret_masks, dim=0))

birefnet_model = BiRefNet().to(torch.float16)         # LoadBiRefNetModelV2 gave float16 parameters
node = LS_BiRefNetUltraV2()
image = torch.rand(1, 48, 40, 3)                      # ComfyUI IMAGE
device = "cpu"                                        # the node's device widget ("cuda" in the report)
'''
CELL = '''
ret_image, ret_mask = node.birefnet_ultra_v2(image, birefnet_model, process_detail=False, device=device)
'''
EXPECT_ERROR = ("Input type (float) and bias type (c10::Half) should be the same",
                "should be the same")
CULPRITS = ["node"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("inference_image = transform_image(i).unsqueeze(0).to(device)",
                  "inference_image = transform_image(i).unsqueeze(0).to(device, dtype=next(birefnet_model.parameters()).dtype)")
CLEAN = False
