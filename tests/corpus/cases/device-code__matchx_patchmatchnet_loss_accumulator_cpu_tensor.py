"""PatchmatchNet training: the MVS loss starts its accumulator as `torch.Tensor([0])`, a CPU tensor.

Source: https://github.com/FangjinhuaWang/PatchmatchNet/issues/35
With CUDA 11.1 / PyTorch 1.8.1, `train.sh` failed at once with "RuntimeError: Expected all tensors to be
on the same device, but found at least two devices, cuda:0 and cpu!". The reporter traced it to
`patchmatchnet_loss` in models/net.py (`loss = loss + F.smooth_l1_loss(depth1, depth2, ...)`) and the
maintainer confirmed "the bug that the loss tensor is on cpu induced your problem"; the fix (commit
584caa0, "fix bug in patchmatch.py and net.py") replaces `loss = torch.Tensor([0])` with `loss = 0`.
Stand-ins: the network outputs, ground-truth depths and masks are random tensors on cuda:0 with the
loss's stage layout; the boolean-mask selection `depth[mask_l]` is written as a masked weighting
(simulation cannot index fake tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from typing import Dict, List
import torch
import torch.nn.functional as F


def patchmatchnet_loss(
    depth_patchmatch: Dict[str, List[torch.Tensor]],
    refined_depth: Dict[str, torch.Tensor],
    depth_gt: Dict[str, torch.Tensor],
    mask: Dict[str, torch.Tensor],
) -> torch.Tensor:
    stage = 4

    loss = torch.Tensor([0])
    for l in range(1, stage):
        depth_gt_l = depth_gt[f"stage_{l}"]
        mask_l = (mask[f"stage_{l}"] > 0.5).float()
        depth2 = depth_gt_l * mask_l                      # depth_gt_l[mask_l]

        depth_patchmatch_l = depth_patchmatch[f"stage_{l}"]
        for i in range(len(depth_patchmatch_l)):
            depth1 = depth_patchmatch_l[i] * mask_l       # depth_patchmatch_l[i][mask_l]
            loss = loss + F.smooth_l1_loss(depth1, depth2, reduction="mean")

    l = 0
    depth_refined_l = refined_depth[f"stage_{l}"]
    depth_gt_l = depth_gt[f"stage_{l}"]
    mask_l = (mask[f"stage_{l}"] > 0.5).float()

    depth1 = depth_refined_l * mask_l
    depth2 = depth_gt_l * mask_l
    loss = loss + F.smooth_l1_loss(depth1, depth2, reduction="mean")

    return loss


device = torch.device("cuda:0")
B, H, W = 2, 64, 80
sizes = {0: (H, W), 1: (H // 2, W // 2), 2: (H // 4, W // 4), 3: (H // 8, W // 8)}
# sample_cuda = tocuda(sample); outputs = model(imgs, proj_matrices, depth_min, depth_max)
depth_gt = {f"stage_{s}": torch.rand(B, *hw, device=device) for s, hw in sizes.items()}
mask = {f"stage_{s}": torch.rand(B, *hw, device=device) for s, hw in sizes.items()}
depth_patchmatch = {f"stage_{s}": [torch.rand(B, *sizes[s], device=device) for _ in range(2)]
                    for s in (1, 2, 3)}
refined_depth = {"stage_0": torch.rand(B, H, W, device=device)}
'''
CELL = '''
with torch.no_grad():
    loss = patchmatchnet_loss(depth_patchmatch, refined_depth, depth_gt, mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["patchmatchnet_loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    loss = torch.Tensor([0])\n",
    "    loss = 0\n",
)
CLEAN = False
