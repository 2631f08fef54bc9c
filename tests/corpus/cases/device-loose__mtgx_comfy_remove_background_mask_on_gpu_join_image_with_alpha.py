"""ComfyUI: the new Remove Background (BiRefNet) node returns its mask on the GPU, so Join Image with Alpha fails.

Source: https://github.com/Comfy-Org/ComfyUI/pull/13801
Feeding the mask of the native "Remove Background" node into "Join Image with Alpha" failed in
`torch.cat((image[..., :3], alpha.unsqueeze(-1)), dim=-1)` with "Expected all tensors to be on the same
device, but got tensors is on cuda:0, different from other tensors on cpu". The loaded IMAGE is on the
CPU, but the background-removal model left its mask on the load device (cuda:0); the maintainers agreed
the mask should come back on the CPU (intermediate device) and the PR moves the alpha onto the image's
device. Stand-ins: the BiRefNet model reduced to two convs, `BackgroundRemovalModel.encode_image`, and
the two nodes' `execute` methods.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class BiRefNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.bb = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return [self.head(self.bb(x))]

class BackgroundRemovalModel:                  # comfy.bg_removal_model stand-in
    def __init__(self, model, load_device):
        self.load_device = load_device
        self.model = model.to(load_device).eval()

    def encode_image(self, image):             # IMAGE: [B, H, W, C] float on the CPU
        x = image.movedim(-1, 1).to(self.load_device)
        with torch.no_grad():
            pred = self.model(x)[-1].sigmoid()
        return pred.squeeze(1)                 # [B, H, W], still on the load device

class RemoveBackground:
    @classmethod
    def execute(cls, bg_removal_model, image):
        mask = bg_removal_model.encode_image(image)
        return (mask,)

class JoinImageWithAlpha:
    @classmethod
    def execute(cls, image, alpha):
        alpha = 1.0 - alpha
        return (torch.cat((image[..., :3], alpha.unsqueeze(-1)), dim=-1),)

bg_removal_model = BackgroundRemovalModel(BiRefNet(), torch.device("cuda:0"))
image = torch.rand(1, 32, 32, 3)               # LoadImage output
mask, = RemoveBackground.execute(bg_removal_model, image)
'''
CELL = '''
rgba, = JoinImageWithAlpha.execute(image, mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mask"]
FIX = "namespace"
REFERENCE_FIX = '''
mask = mask.to(image.device)
'''
REFERENCE_EDIT = None
CLEAN = False
