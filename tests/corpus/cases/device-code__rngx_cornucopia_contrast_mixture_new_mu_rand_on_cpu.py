"""cornucopia random contrast-mixture transform on a GPU image: the new class intensities come from `torch.rand` on the CPU.

Source: https://github.com/balbasty/cornucopia/pull/22
Fix for cornucopia issue #21 ("Resolve device mismatch for tensor operations"): in the contrast
transform's `make_final(self, x, max_depth)`, `new_mu = torch.rand(self.nk) * (vmax - vmin) + vmin`
samples the random intensities on the CPU, and mixing them with `vmin`/`vmax` (reductions of the
CUDA image) fails with a device mismatch. The merged fix moves the sample to the image
(`torch.rand(self.nk).to(x)`, which also takes care of the dtype, as the maintainer suggested).
Stand-in: the transform reduced to `make_final` and a soft intensity remapping; the bin edges are
built on the image's device.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class ContrastMixtureTransform:
    """Random contrast: remap the intensity histogram onto nk random class intensities."""
    def __init__(self, nk=16):
        self.nk = nk

    def make_final(self, x, max_depth=float('inf')):
        vmin, vmax = x.min(), x.max()
        edges = vmin + (vmax - vmin) * torch.linspace(0, 1, self.nk + 1, device=x.device)
        new_mu = torch.rand(self.nk) * (vmax - vmin) + vmin
        centers = 0.5 * (edges[1:] + edges[:-1])
        return centers, new_mu

    def __call__(self, x):
        centers, new_mu = self.make_final(x)
        w = torch.softmax(-(x[..., None] - centers) ** 2 * 100, dim=-1)
        return (w * new_mu).sum(-1)

xform = ContrastMixtureTransform(nk=16)
img = torch.rand(1, 1, 32, 32, 32, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    aug = xform(img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["xform"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("new_mu = torch.rand(self.nk) * (vmax - vmin) + vmin",
                  "new_mu = torch.rand(self.nk).to(x) * (vmax - vmin) + vmin")
CLEAN = False
