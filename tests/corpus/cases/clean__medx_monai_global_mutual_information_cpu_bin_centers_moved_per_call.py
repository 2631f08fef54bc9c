"""MONAI `GlobalMutualInformationLoss` on a GPU registration output: `bin_centers`/`preterm` are plain CPU tensors, moved with `.to(img)` at every call.

Source: https://github.com/Project-MONAI/MONAI/blob/00d41bf73fcf71baa2af44fc1eac7842c7c3cbbd/monai/losses/image_dissimilarity.py
In MONAI (before PR #8872 turned them into buffers) the Gaussian Parzen-window loss keeps
`self.bin_centers = bin_centers[None, None, ...]` and `self.preterm = 1 / (2 * sigma**2)` as plain
attributes built on the CPU in `__init__`; `loss.to(device)` is never needed because
`parzen_windowing_gaussian` converts both with `.to(img)` before use, and `forward` aligns `wb`/`pb`
with `.to(wa)`. Look-alike: CPU tensors held on a loss module that meets cuda inputs; it runs.
Stand-ins: the Gaussian branch of the loss (b-spline branch and reductions other than mean left out),
a warped CT/MR pair produced on the GPU by a one-layer "registration" head.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn.modules.loss import _Loss


class GlobalMutualInformationLoss(_Loss):
    def __init__(self, kernel_type="gaussian", num_bins=23, sigma_ratio=0.5, reduction="mean",
                 smooth_nr=1e-7, smooth_dr=1e-7):
        super().__init__(reduction=reduction)
        bin_centers = torch.linspace(0.0, 1.0, num_bins)  # (num_bins,)
        sigma = torch.mean(bin_centers[1:] - bin_centers[:-1]) * sigma_ratio
        self.num_bins = num_bins
        self.kernel_type = kernel_type
        if self.kernel_type == "gaussian":
            self.preterm = 1 / (2 * sigma**2)
            self.bin_centers = bin_centers[None, None, ...]
        self.smooth_nr = float(smooth_nr)
        self.smooth_dr = float(smooth_dr)

    def parzen_windowing_gaussian(self, img):
        img = torch.clamp(img, 0, 1)
        img = img.reshape(img.shape[0], -1, 1)  # (batch, num_sample, 1)
        weight = torch.exp(
            -self.preterm.to(img) * (img - self.bin_centers.to(img)) ** 2
        )  # (batch, num_sample, num_bin)
        weight = weight / torch.sum(weight, dim=-1, keepdim=True)
        probability = torch.mean(weight, dim=-2, keepdim=True)  # (batch, 1, num_bin)
        return weight, probability

    def forward(self, pred, target):
        if target.shape != pred.shape:
            raise ValueError(f"ground truth has differing shape ({target.shape}) from pred ({pred.shape})")
        wa, pa = self.parzen_windowing_gaussian(pred)
        wb, pb = self.parzen_windowing_gaussian(target)
        pab = torch.bmm(wa.permute(0, 2, 1), wb.to(wa)).div(wa.shape[1])  # (batch, num_bins, num_bins)
        papb = torch.bmm(pa.permute(0, 2, 1), pb.to(pa))  # (batch, num_bins, num_bins)
        mi = torch.sum(
            pab * torch.log((pab + self.smooth_nr) / (papb + self.smooth_dr) + self.smooth_dr), dim=(1, 2)
        )  # (batch)
        return torch.mean(mi).neg()


device = torch.device("cuda:0")
warp_head = nn.Sequential(nn.Conv3d(2, 1, 3, padding=1), nn.Sigmoid()).to(device)
image_loss = GlobalMutualInformationLoss(num_bins=23)
fixed = torch.rand(2, 1, 16, 16, 16, device=device)      # CT, intensities scaled to [0, 1]
moving = torch.rand(2, 1, 16, 16, 16, device=device)     # MR
'''
CELL = '''
with torch.no_grad():
    moved = warp_head(torch.cat([moving, fixed], dim=1))
    loss = image_loss(moved, fixed)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
