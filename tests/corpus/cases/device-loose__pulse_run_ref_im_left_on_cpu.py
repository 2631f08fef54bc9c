"""PULSE run.py: the low-resolution reference image is fed to the GPU model from a CPU DataLoader.

Source: https://github.com/alex-damian/pulse/issues/24
Running `run.py` failed with "expected device cuda:0 but got device cpu" (today "Expected all
tensors to be on the same device"): the model builds its latents and generated images on the
GPU, but `ref_im` comes straight from the image DataLoader on the CPU and enters the
downscaled-image loss. The fix posted in the thread: `model(ref_im.cuda(), **kwargs)`. The PULSE
model is stood in for by a tiny generator with the same latent-on-GPU / loss-against-ref_im
structure (one step, no optimization loop).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class PULSE(nn.Module):
    def __init__(self, latent_dim=32, size=32):
        super().__init__()
        self.size = size
        self.synthesis = nn.Linear(latent_dim, 3 * size * size)
        self.latent_dim = latent_dim

    def forward(self, ref_im, steps=1, **kwargs):
        batch_size = ref_im.shape[0]
        latent = torch.randn((batch_size, self.latent_dim), dtype=torch.float, device='cuda:0')
        gen_im = torch.tanh(self.synthesis(latent)).view(batch_size, 3, self.size, self.size)
        gen_im_lr = F.avg_pool2d(gen_im, 4)
        loss = ((gen_im_lr - ref_im) ** 2).mean()
        yield gen_im, gen_im_lr, loss

model = PULSE().to('cuda:0')
kwargs = {"steps": 1, "eps": 2e-3}
ref_im = torch.rand(1, 3, 8, 8)     # for ref_im, ref_im_name in dataloader: (CPU batch)
'''
CELL = '''
for j, (HR, LR, loss) in enumerate(model(ref_im, **kwargs)):
    pass
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ref_im"]
FIX = "namespace"
REFERENCE_FIX = '''
ref_im = ref_im.to('cuda:0')
'''
REFERENCE_EDIT = None
CLEAN = False
