"""PatchmatchNet confidence: a depth-index ramp made in the forward on `score.device`, turned into a `.long()` index and fed to `torch.gather`.

Source: https://github.com/FangjinhuaWang/PatchmatchNet/blob/main/models/net.py
At the end of `PatchMatchNet.forward` the photometric confidence is computed from the last
PatchMatch score: `depth_values = torch.arange(self.num_depth, device=score.device,
dtype=torch.float32).view(1, self.num_depth, 1, 1)`, the expected index
`torch.sum(score * depth_values, 1, keepdim=True).long().clamp(0, self.num_depth - 1)`, a 4-wide
`avg_pool3d` window sum over the padded score, and `torch.gather(score_sum4, 1, depth_index)`, then
an upsampling to the image size. Look-alike: a float tensor cast to int64 on purpose to serve as a
gather index, and a tensor made inside the forward placed on the score's device.
Stand-ins: the tail of the forward as a function; the score a softmax over random logits on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def photometric_confidence(score, num_depth, height, width):
    # [B, 1, H, W]
    depth_values = torch.arange(
        num_depth, device=score.device, dtype=torch.float32).view(1, num_depth, 1, 1)
    depth_index = torch.sum(score * depth_values, 1, keepdim=True).long().clamp(0, num_depth - 1)

    score_sum4 = 4 * nn.functional.avg_pool3d(
        nn.functional.pad(score.unsqueeze(1), pad=(0, 0, 0, 0, 1, 2)), (4, 1, 1), stride=1, padding=0).squeeze(1)
    confidence = torch.gather(score_sum4, 1, depth_index)
    confidence = nn.functional.interpolate(
        confidence, size=[height, width], mode='bilinear', align_corners=False).squeeze(1)
    return confidence

num_depth = 8                                  # patch_match_num_sample[0]
height, width = 64, 80
logits = torch.randn(1, num_depth, height // 2, width // 2, device="cuda:0")
'''
CELL = '''
score = torch.softmax(logits, dim=1)          # last PatchMatch stage's score
confidence = photometric_confidence(score, num_depth, height, width)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
