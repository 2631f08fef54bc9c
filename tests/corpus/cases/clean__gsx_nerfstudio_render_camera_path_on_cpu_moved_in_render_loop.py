"""Look-alike: nerfstudio `ns-render` builds the camera path and the crop background on the CPU; the render helper moves them to the pipeline's device.

Source: https://github.com/nerfstudio-project/nerfstudio/blob/main/nerfstudio/scripts/render.py
`RenderCameraPath.main` makes `camera_path = get_path_from_json(camera_path)` (a `Cameras` on the CPU) and
`CropData(background_color=torch.Tensor([...]))`, then calls `_render_trajectory_video(pipeline, camera_path,
...)`, which does `cameras = cameras.to(pipeline.device)` and renders each view inside
`renderers.background_color_override_context(crop_data.background_color.to(pipeline.device))`. The user's
`camera_path` and `crop_data` stay on the CPU while the model is on cuda:0, by design.
Stand-ins: `Cameras` (pinhole rays, `cameras[i:i+1]` via `narrow`), `CropData`, the background override
context and a pipeline whose model composites a small field over the override colour.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import contextlib
from dataclasses import dataclass, field
import torch
import torch.nn as nn

@dataclass
class Cameras:
    camera_to_worlds: torch.Tensor
    fx: float
    fy: float
    width: int
    height: int
    def to(self, device):
        return Cameras(self.camera_to_worlds.to(device), self.fx, self.fy, self.width, self.height)
    @property
    def size(self):
        return self.camera_to_worlds.shape[0]
    def __len__(self):
        return self.size
    def __getitem__(self, s):
        start = s.start or 0
        return Cameras(self.camera_to_worlds.narrow(0, start, s.stop - start), self.fx, self.fy, self.width, self.height)
    def rescale_output_resolution(self, factor):
        self.fx, self.fy = self.fx * factor, self.fy * factor
        self.width, self.height = int(self.width * factor), int(self.height * factor)
    def generate_rays(self):
        dev = self.camera_to_worlds.device
        j, i = torch.meshgrid(torch.arange(self.height, device=dev, dtype=torch.float32),
                              torch.arange(self.width, device=dev, dtype=torch.float32), indexing="ij")
        d = torch.stack([(i - self.width / 2) / self.fx, -(j - self.height / 2) / self.fy, -torch.ones_like(i)], -1)
        c2w = self.camera_to_worlds.select(0, 0)
        directions = d.view(-1, 3) @ c2w.narrow(1, 0, 3).t()
        return c2w.narrow(1, 3, 1).view(1, 3).expand_as(directions), directions / directions.norm(dim=-1, keepdim=True)

@dataclass
class CropData:
    background_color: torch.Tensor = field(default_factory=lambda: torch.Tensor([0.0, 0.0, 0.0]))
    obb: object = None

BACKGROUND_COLOR_OVERRIDE = None

@contextlib.contextmanager
def background_color_override_context(mode):
    global BACKGROUND_COLOR_OVERRIDE
    old = BACKGROUND_COLOR_OVERRIDE
    try:
        BACKGROUND_COLOR_OVERRIDE = mode
        yield
    finally:
        BACKGROUND_COLOR_OVERRIDE = old

class NerfactoModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.field = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 4))
    def get_outputs_for_camera(self, camera, obb_box=None):
        origins, directions = camera.generate_rays()
        t = torch.linspace(1.0, 5.0, 16, device=origins.device)
        pts = origins.unsqueeze(1) + directions.unsqueeze(1) * t.view(1, -1, 1)
        h = self.field(torch.cat([pts, directions.unsqueeze(1).expand_as(pts)], -1))
        w = torch.softmax(h.narrow(-1, 0, 1), dim=1)
        acc = torch.sigmoid(h.narrow(-1, 0, 1)).mean(1)
        rgb = (w * torch.sigmoid(h.narrow(-1, 1, 3))).sum(1)
        background = BACKGROUND_COLOR_OVERRIDE if BACKGROUND_COLOR_OVERRIDE is not None else torch.ones(3, device=origins.device)
        rgb = rgb * acc + background * (1 - acc)
        return {"rgb": rgb.view(camera.height, camera.width, 3)}

class Pipeline(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = NerfactoModel()
    @property
    def device(self):
        return next(self.parameters()).device

def _render_trajectory_video(pipeline, cameras, rendered_output_names, crop_data=None,
                             rendered_resolution_scaling_factor=1.0, seconds=5.0):
    cameras.rescale_output_resolution(rendered_resolution_scaling_factor)
    cameras = cameras.to(pipeline.device)
    frames = []
    for camera_idx in range(cameras.size):
        obb_box = crop_data.obb if crop_data is not None else None
        if crop_data is not None:
            with background_color_override_context(crop_data.background_color.to(pipeline.device)), torch.no_grad():
                outputs = pipeline.model.get_outputs_for_camera(cameras[camera_idx : camera_idx + 1], obb_box=obb_box)
        else:
            with torch.no_grad():
                outputs = pipeline.model.get_outputs_for_camera(cameras[camera_idx : camera_idx + 1], obb_box=obb_box)
        frames.append(torch.cat([outputs[name] for name in rendered_output_names], dim=1))
    return frames

pipeline = Pipeline()
pipeline.to(torch.device("cuda:0"))
c2ws = torch.eye(4)[:3].repeat(4, 1, 1)
c2ws[:, 2, 3] = torch.linspace(3.0, 4.5, 4)
camera_path = Cameras(camera_to_worlds=c2ws, fx=20.0, fy=20.0, width=24, height=16)   # get_path_from_json: CPU
crop_data = CropData(background_color=torch.Tensor([0.2, 0.2, 0.2]))
'''
CELL = '''
frames = _render_trajectory_video(pipeline, camera_path, rendered_output_names=["rgb"], crop_data=crop_data,
                                  rendered_resolution_scaling_factor=0.5)
print(len(frames), frames[0].device, camera_path.camera_to_worlds.device, crop_data.background_color.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
