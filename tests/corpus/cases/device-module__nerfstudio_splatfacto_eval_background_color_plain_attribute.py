"""nerfstudio splatfacto under ns-eval: the eval background colour is a plain tensor attribute left on the CPU.

Source: https://github.com/nerfstudio-project/nerfstudio/pull/3219
"Small fix when evaluating splatfacto model, running ns-eval": "In the `_get_background_color()`
function in splatfacto.py, `self.background_color` is allocated on the cpu, when calling
`get_outputs()`, we get a runtime error 'RuntimeError: Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!'". With `background_color="random"`,
`populate_modules` stores a fixed viewer colour as `self.background_color = torch.tensor([...])`, a
plain attribute that `model.to(device)` never moves; training draws a random colour on the device,
eval returns the stored one. Stand-in: the model with its gaussian parameters and the compositing
step of `get_outputs` (rasterization replaced by a per-pixel blend of the gaussians' colours).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
from dataclasses import dataclass

@dataclass
class SplatfactoModelConfig:
    background_color: str = "random"
    num_random: int = 256

class SplatfactoModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.populate_modules()

    @property
    def device(self):
        return self.gauss_params["means"].device

    def populate_modules(self):
        n = self.config.num_random
        self.gauss_params = nn.ParameterDict({
            "means": nn.Parameter(torch.rand(n, 3) * 2 - 1),
            "scales": nn.Parameter(torch.zeros(n, 3)),
            "opacities": nn.Parameter(torch.zeros(n, 1)),
            "features_dc": nn.Parameter(torch.rand(n, 3)),
        })
        if self.config.background_color == "random":
            self.background_color = torch.tensor([0.1490, 0.1647, 0.2157])   # the viewer's colour
        else:
            self.background_color = torch.ones(3)

    def _get_background_color(self):
        if self.config.background_color == "random":
            if self.training:
                background = torch.rand(3, device=self.device)
            else:
                background = self.background_color
        else:
            background = self.background_color
        return background

    def get_outputs(self, camera_to_world, H=32, W=32):
        background = self._get_background_color()
        means_cam = self.gauss_params["means"] @ camera_to_world.narrow(0, 0, 3).narrow(1, 0, 3).T
        pix = torch.stack(torch.meshgrid(torch.linspace(-1, 1, H, device=self.device),
                                         torch.linspace(-1, 1, W, device=self.device), indexing="ij"), -1)
        d2 = ((pix.view(-1, 1, 2) - means_cam.narrow(-1, 0, 2).unsqueeze(0)) ** 2).sum(-1)
        w = torch.sigmoid(self.gauss_params["opacities"]).view(1, -1) * torch.exp(-d2 / torch.exp(self.gauss_params["scales"]).mean(-1).view(1, -1) * 50)
        alpha = w.sum(-1, keepdim=True).clamp(max=1.0)
        rgb = (w @ torch.sigmoid(self.gauss_params["features_dc"])) / w.sum(-1, keepdim=True).clamp(min=1e-6)
        rgb = rgb * alpha + (1 - alpha) * background
        return {"rgb": rgb.view(H, W, 3), "accumulation": alpha.view(H, W, 1)}

device = torch.device("cuda:0")
model = SplatfactoModel(SplatfactoModelConfig(background_color="random"))
model.to(device)
camera_to_world = torch.eye(4, device=device)
'''
CELL = '''
model.eval()
with torch.no_grad():
    outputs = model.get_outputs(camera_to_world)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.background_color"]
FIX = "namespace"
REFERENCE_FIX = '''
model.background_color = model.background_color.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
