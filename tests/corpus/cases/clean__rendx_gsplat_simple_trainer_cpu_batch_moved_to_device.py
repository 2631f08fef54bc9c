"""Look-alike: gsplat's simple_trainer gets camera-to-worlds, intrinsics and pixels from a CPU DataLoader and moves them to the device in the loop.

Source: https://github.com/nerfstudio-project/gsplat/blob/main/examples/simple_trainer.py
The training loop reads `data = next(trainloader_iter)` (the Dataset returns CPU tensors:
`camtoworld`, `K`, `image`), then does `camtoworlds = data["camtoworld"].to(device)`,
`Ks = data["K"].to(device)`, `pixels = data["image"].to(device) / 255.0`, and rasterizes the splats
(a ParameterDict on `device`) with `torch.linalg.inv(camtoworlds)` as viewmats. The batch dict left on
the CPU beside GPU splats is the intended layout. Stand-ins: the Dataset, a splat ParameterDict, the DataLoader
reduced to default_collate over the items, and `rasterization` reduced to projecting the means and a weighted colour average.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Dataset(torch.utils.data.Dataset):
    def __init__(self, n=4, H=16, W=20):
        self.H, self.W = H, W
        self.c2ws = torch.eye(4).repeat(n, 1, 1)
        self.c2ws[:, 2, 3] = -3.0 - torch.arange(n, dtype=torch.float32)
        self.images = (torch.rand(n, H, W, 3) * 255).to(torch.uint8)
    def __len__(self): return len(self.images)
    def __getitem__(self, i):
        K = torch.tensor([[20.0, 0, self.W / 2], [0, 20.0, self.H / 2], [0, 0, 1]])
        return {"K": K, "camtoworld": self.c2ws[i], "image": self.images[i].float(), "image_id": i}

def rasterization(means, quats, scales, opacities, colors, viewmats, Ks, width, height):
    means_h = torch.cat([means, torch.ones_like(means[:, :1])], -1)
    cam = torch.einsum("cij,nj->cni", viewmats, means_h)[..., :3]
    uv = torch.einsum("cij,cnj->cni", Ks, cam / cam[..., 2:].clamp(min=1e-3))[..., :2]
    inside = ((uv[..., 0] > 0) & (uv[..., 0] < width) & (uv[..., 1] > 0) & (uv[..., 1] < height)).float()
    w = (opacities[None] * inside)[..., None]
    rgb = (w * colors[None]).sum(1) / (w.sum(1) + 1e-6)
    return rgb[:, None, None, :].expand(-1, height, width, 3), None, {}

device = "cuda:0"
N = 300
splats = nn.ParameterDict({
    "means": nn.Parameter(torch.randn(N, 3, device=device)),
    "scales": nn.Parameter(torch.full((N, 3), -3.0, device=device)),
    "quats": nn.Parameter(torch.rand(N, 4, device=device)),
    "opacities": nn.Parameter(torch.zeros(N, device=device)),
    "colors": nn.Parameter(torch.rand(N, 3, device=device)),
})
trainset = Dataset()
# DataLoader(trainset, batch_size=1, shuffle=True, num_workers=4) in the script: batches of CPU tensors
trainloader = (torch.utils.data.default_collate([trainset[i]]) for i in range(len(trainset)))
trainloader_iter = iter(trainloader)
'''
CELL = '''
data = next(trainloader_iter)
camtoworlds = data["camtoworld"].to(device)
Ks = data["K"].to(device)
pixels = data["image"].to(device) / 255.0
height, width = pixels.shape[1:3]
with torch.no_grad():
    renders, alphas, info = rasterization(
        means=splats["means"], quats=splats["quats"], scales=torch.exp(splats["scales"]),
        opacities=torch.sigmoid(splats["opacities"]), colors=splats["colors"],
        viewmats=torch.linalg.inv(camtoworlds), Ks=Ks, width=width, height=height)
    l1loss = torch.nn.functional.l1_loss(renders, pixels)
print(data["image"].device, renders.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
