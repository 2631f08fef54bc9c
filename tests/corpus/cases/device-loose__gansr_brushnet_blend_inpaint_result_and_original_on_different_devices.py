"""ComfyUI-BrushNet BlendInpaint: the inpainted batch and the original image (with its blurred mask) are on different devices.

Source: https://github.com/nullquant/ComfyUI-BrushNet/issues/27
On an A100 the BlendInpaint node failed at
`ret.append(original * (1.0 - blurred_mask[0][0][:,:,None]) + result * blurred_mask[0][0][:,:,None])`
with "Expected all tensors to be on the same device, cuda:0 and cpu": the blurred mask is moved to
`original.device`, but the rows of `inpaint` (the sampler/VAE output) are not, and the two images
came from different places (here: the original kept on the GPU, the decoded batch on the CPU). The maintainer called it a bug and the new version moves them (`result.to(original.device)`);
here the stray batch is moved in the namespace. torchvision's GaussianBlur is a small conv stand-in;
the "GPU" is meta (the loop indexes the inpaint batch).
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
from typing import Tuple
import torch

class GaussianBlur:            # torchvision.transforms.GaussianBlur
    def __init__(self, kernel_size, sigma):
        k, s = kernel_size[0], sigma[0]
        x = torch.arange(k, dtype=torch.float32) - (k - 1) / 2
        g = torch.exp(-x ** 2 / (2 * s ** 2))
        g = g / g.sum()
        self.weight = (g[:, None] * g[None, :])[None, None]
        self.pad = k // 2
    def __call__(self, img):
        img = torch.nn.functional.pad(img, (self.pad,) * 4, mode="reflect")
        return torch.nn.functional.conv2d(img, self.weight.to(img.device, img.dtype))

class T:
    GaussianBlur = GaussianBlur

class BlendInpaint:
    def blend_inpaint(self, inpaint: torch.Tensor, original: torch.Tensor, mask: torch.Tensor, kernel: int, sigma:int) -> Tuple[torch.Tensor]:
        # no batches over mask and original image
        if len(mask.shape) > 2:
            mask = mask[0]
        if len(original.shape) > 3:
            original = original[0]
        if kernel % 2 == 0:
            kernel += 1
        transform = T.GaussianBlur(kernel_size=(kernel, kernel), sigma=(sigma, sigma))
        blurred_mask = transform(mask[None,None,:,:]).to(original.device).to(original.dtype)
        ret = []
        for result in inpaint:
            ret.append(original * (1.0 - blurred_mask[0][0][:,:,None]) + result * blurred_mask[0][0][:,:,None])
        return (torch.stack(ret), blurred_mask[0],)

node = BlendInpaint()
original = torch.rand(1, 32, 32, 3).to("meta")    # image kept on the GPU, [B, H, W, C]
mask = (torch.rand(1, 32, 32) > 0.5).float()      # MASK from the loader (blurred, then moved to original.device)
inpaint = torch.rand(1, 32, 32, 3)                # VAE-decoded BrushNet result, on the CPU
'''
CELL = '''
image, blurred = node.blend_inpaint(inpaint, original, mask, 10, 10.0)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["inpaint"]
FIX = "namespace"
REFERENCE_FIX = '''
inpaint = inpaint.to(original.device)
'''
REFERENCE_EDIT = None
CLEAN = False
