"""StableV2V depth completion: the net gets moved copies, the blend uses the CPU mask and depth maps.

Source: https://github.com/AlonzoLeeeooo/StableV2V/issues/5
`completion_net_inference_runner.py` line 93:
`pred_depth_maps = (1 - mask_tensor) * depth_maps_tensor + mask_tensor * pred_depth_maps` raised
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
The forward call passes `depth_maps_tensor.to(device)` and `mask_tensor.to(device)`, so the
prediction is on cuda while the names themselves still hold the CPU tensors. The reporter's (and
the later PR's) fix: rebind `mask_tensor` and `depth_maps_tensor` to the device. Stand-in: the
completion network reduced to two convolutions with the same three inputs and two outputs.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class DepthCompletionNet(nn.Module):
    """Stand-in for StableV2V's shape-guided depth completion network."""
    def __init__(self, ch=16):
        super().__init__()
        self.enc = nn.Conv2d(3, ch, 3, padding=1)
        self.dec = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, depth, mask, shape):
        feat = torch.relu(self.enc(torch.cat([depth * (1 - mask), mask, shape], dim=1)))
        return torch.sigmoid(self.dec(feat)), feat

device = torch.device("cuda:0")
completion_net = DepthCompletionNet().to(device).eval()

# 1. frames, masks and shape guidance loaded and stacked on the CPU
n_frames, h, w = 4, 64, 96
depth_maps_tensor = torch.rand(n_frames, 1, h, w)
mask_tensor = (torch.rand(n_frames, 1, h, w) > 0.7).float()
shape_tensor = (torch.rand(n_frames, 1, h, w) > 0.5).float()
'''
CELL = '''
# 3. Forward
with torch.no_grad():
    pred_depth_maps, _ = completion_net(depth_maps_tensor.to(device), mask_tensor.to(device), shape_tensor.to(device))
pred_depth_maps = (1 - mask_tensor) * depth_maps_tensor + mask_tensor * pred_depth_maps
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mask_tensor", "depth_maps_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
mask_tensor = mask_tensor.to(device)
depth_maps_tensor = depth_maps_tensor.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
