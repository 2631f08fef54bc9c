"""masquerade-nodes "Mix Images By Mask" under ComfyUI --gpu-only: the images are on the GPU, the mask on the CPU.

Source: https://github.com/Comfy-Org/ComfyUI/issues/5217
A flux img2img workflow run with `python main.py --gpu-only` failed in masquerade-nodes-comfyui's
MaskNodes.py `mix`: `return (image1 * (1. - mask) + image2 * mask,)` raised "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu!". With --gpu-only the
VAE-decoded images stay on the GPU (the intermediate device), while a mask made by another node from
a loaded image is a CPU tensor; the node mixes them without aligning devices (the stand-in's layout
of the two inputs). Stand-in:
the node's tensor_to_size-style expansion and the mix, images/mask made as ComfyUI passes them.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch

def tensor2batch(t, bs):
    if len(t.size()) < 4:
        t = t.unsqueeze(3).repeat(1, 1, 1, 3)
    if t.size()[0] < bs:
        t = t.repeat(bs, 1, 1, 1)
    return t

class MixByMask:
    def mix(self, image1, image2, mask):
        image1, image2 = tensor2batch(image1, 1), tensor2batch(image2, 1)
        mask = tensor2batch(mask, image1.size(0))
        return (image1 * (1. - mask) + image2 * mask,)

intermediate_device = torch.device("cuda:0")           # --gpu-only
image1 = torch.rand(1, 64, 64, 3, device=intermediate_device)   # VAEDecode output
image2 = torch.rand(1, 64, 64, 3, device=intermediate_device)   # second VAEDecode output
mask = (torch.rand(1, 64, 64) > 0.5).float()                    # ImageToMask of a LoadImage (CPU)
node = MixByMask()
'''
CELL = '''
result = node.mix(image1, image2, mask)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mask"]
FIX = "namespace"
REFERENCE_FIX = '''
mask = mask.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
