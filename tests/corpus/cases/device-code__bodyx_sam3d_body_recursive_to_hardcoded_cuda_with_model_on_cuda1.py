"""SAM 3D Body estimator on a second GPU: the image batch is sent with a hard-coded `recursive_to(batch, "cuda")`.

Source: https://github.com/facebookresearch/sam-3d-body/pull/81
"Fix CPU support by removing hardcoded CUDA calls": several modules forced tensors to "cuda"
(`.cuda()`, `recursive_to(..., "cuda")`, `device="cuda"`) instead of the estimator's device; a
follow-up comment notes the same problem on multi-GPU setups, where the hard-coded "cuda" does not
follow the selected device. The PR replaces them with `self.device`. Stand-in: a reduced estimator
whose `process_one_image` collates a crop batch and calls a tiny body-mesh head on `cuda:1`; the
hard-coded "cuda" is written "cuda:0" (the current device when the model sits on cuda:1).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def recursive_to(x, target):
    if isinstance(x, dict):
        return {k: recursive_to(v, target) for k, v in x.items()}
    if isinstance(x, torch.Tensor):
        return x.to(target)
    return x

class BodyHead(nn.Module):
    def __init__(self, n_verts=200):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 16, stride=16), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.pose_head = nn.Linear(8 + 4, 10)
        self.register_buffer('v_template', torch.randn(n_verts, 3))
        self.register_buffer('shapedirs', torch.randn(n_verts, 3, 10) * 0.01)

    def forward(self, batch):
        f = self.backbone(batch['img'])
        params = self.pose_head(torch.cat([f, batch['bbox']], dim=-1))
        return self.v_template + torch.einsum('bl,mkl->bmk', params, self.shapedirs)

class SAM3DBodyEstimator:
    def __init__(self, model, device):
        self.device = device
        self.model = model.to(device)

    def process_one_image(self, img, boxes):
        batch = {'img': img.expand(boxes.shape[0], -1, -1, -1), 'bbox': boxes / 640.}
        batch = recursive_to(batch, "cuda:0")        # recursive_to(batch, "cuda")
        with torch.no_grad():
            verts = self.model(batch)
        return verts

device = torch.device("cuda:1")
estimator = SAM3DBodyEstimator(BodyHead(), device)
img = torch.rand(1, 3, 256, 256)
boxes = torch.tensor([[100., 50., 300., 450.], [320., 60., 480., 420.]])
'''
CELL = '''
outputs = estimator.process_one_image(img, boxes)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "found two different devices",
                "Unhandled FakeTensor Device Propagation")
CULPRITS = ["estimator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('batch = recursive_to(batch, "cuda:0")        # recursive_to(batch, "cuda")',
                  'batch = recursive_to(batch, self.device)')
CLEAN = False
