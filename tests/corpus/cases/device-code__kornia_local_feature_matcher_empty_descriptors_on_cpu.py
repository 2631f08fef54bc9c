"""kornia LocalFeatureMatcher when an image has no keypoints: the empty descriptor tensor is made on the CPU.

Source: https://github.com/kornia/kornia/issues/2926
With `KF.LocalFeatureMatcher(KF.GFTTAffNetHardNet(device=device), KF.DescriptorMatcher())` on
cuda:0, an image with no detected features gave "LAF contains no keypoints ... returning empty
tensor" and then "Expected all tensors to be on the same device, but found at least two devices,
cpu and cuda:0! (when checking argument for argument x2 in method wrapper___cdist_forward)". The
culprit named in the issue: `return torch.empty(lafs.shape[0], lafs.shape[1], 128)` in
`integrated.py`; the proposed fix adds `.to(lafs.device)`. Stand-in: detector/descriptor/matcher
reduced to the shapes on that path (image 1 has features, image 0 has none).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def get_laf_descriptors(img, lafs, patch_descriptor):
    if lafs.shape[1] == 0:
        # warnings.warn(f"LAF contains no keypoints {lafs.shape}, returning empty tensor")
        return torch.empty(lafs.shape[0], lafs.shape[1], 128)
    patches = img.new_ones(lafs.shape[0], lafs.shape[1], 32 * 32)
    return patch_descriptor(patches)

class GFTTAffNetHardNet(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.num_features = num_features
        self.descriptor = nn.Linear(32 * 32, 128)

    def forward(self, img):
        lafs = img.new_zeros(img.shape[0], self.num_features, 2, 3)
        responses = img.new_ones(img.shape[0], self.num_features)
        descs = get_laf_descriptors(img, lafs, self.descriptor)
        return lafs, responses, descs

class DescriptorMatcher(nn.Module):
    def forward(self, desc1, desc2):
        dm = torch.cdist(desc1, desc2)
        return dm.min(dim=1)

class LocalFeatureMatcher(nn.Module):
    def __init__(self, local_feature0, local_feature1, matcher):
        super().__init__()
        self.local_feature0, self.local_feature1, self.matcher = local_feature0, local_feature1, matcher

    def forward(self, data):
        _, _, desc0 = self.local_feature0(data["image0"])
        _, _, desc1 = self.local_feature1(data["image1"])
        return self.matcher(desc0.squeeze(0), desc1.squeeze(0))

device = torch.device("cuda:0")
# image0 yields no keypoints, image1 yields 20
model = LocalFeatureMatcher(GFTTAffNetHardNet(0), GFTTAffNetHardNet(20), DescriptorMatcher()).eval().to(device)
batch = dict(image0=torch.randn(1, 1, 256, 256).to(device), image1=torch.randn(1, 1, 256, 256).to(device))
'''
CELL = '''
with torch.no_grad():
    out = model(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        return torch.empty(lafs.shape[0], lafs.shape[1], 128)\n",
    "        return torch.empty(lafs.shape[0], lafs.shape[1], 128).to(lafs.device)\n",
)
CLEAN = False
