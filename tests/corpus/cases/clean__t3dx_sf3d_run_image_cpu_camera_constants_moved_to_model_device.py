"""Look-alike: Stable Fast 3D's `run_image` builds its default condition camera and intrinsics on the CPU and moves them to the model's device before tokenizing.

Source: https://github.com/Stability-AI/stable-fast-3d/blob/main/sf3d/system.py
(with sf3d/utils.py and sf3d/models/utils.py). `default_cond_c2w(distance)` is a CPU `torch.as_tensor(...)`,
`create_intrinsic_from_fov_deg` returns `torch.from_numpy` intrinsics; `run_image` writes
`default_cond_c2w(...).to(self.device)` and `intrinsic.to(self.device)` into the batch, and `prepare_image`
moves the numpy image with `.to(self.device)` and builds the background colour with `device=self.device`.
CPU-born camera constants, all moved before the camera embedder sees them: nothing to report.
Stand-ins: `SF3D` reduced to `run_image`/`prepare_image` (numpy RGBA in place of the PIL image, slicing
written as `narrow`) and a `get_scene_codes` made of an image tokenizer (pooled patches -> linear), a camera
embedder on the flattened c2w + normalised intrinsics, and a linear triplane head.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def get_intrinsic_from_fov(fov, H, W, bs=-1):
    focal_length = 0.5 * H / np.tan(0.5 * fov)
    intrinsic = np.identity(3, dtype=np.float32)
    intrinsic[0, 0] = focal_length
    intrinsic[1, 1] = focal_length
    intrinsic[0, 2] = W / 2.0
    intrinsic[1, 2] = H / 2.0
    if bs > 0:
        intrinsic = intrinsic[None].repeat(bs, axis=0)
    return torch.from_numpy(intrinsic)

def create_intrinsic_from_fov_deg(fov_deg, cond_height, cond_width):
    intrinsic = get_intrinsic_from_fov(np.deg2rad(fov_deg), H=cond_height, W=cond_width)
    intrinsic_normed_cond = intrinsic.clone()
    intrinsic_normed_cond[..., 0, 2] /= cond_width
    intrinsic_normed_cond[..., 1, 2] /= cond_height
    intrinsic_normed_cond[..., 0, 0] /= cond_width
    intrinsic_normed_cond[..., 1, 1] /= cond_height
    return intrinsic, intrinsic_normed_cond

def default_cond_c2w(distance):
    return torch.as_tensor([[0, 0, 1, distance], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]]).float()

class SF3D(nn.Module):
    """stand-in of sf3d.system.SF3D, conditioning path"""
    def __init__(self, cond_image_size=32, token_dim=32):
        super().__init__()
        self.cfg = type("Cfg", (), {"cond_image_size": cond_image_size, "default_distance": 1.6,
                                     "default_fovy_deg": 40.0, "background_color": [0.5, 0.5, 0.5]})()
        self.image_tokenizer = nn.Linear(3 * 4, token_dim)
        self.camera_embedder = nn.Linear(16 + 9, token_dim)
        self.triplane_head = nn.Linear(token_dim, 3 * 8)

    @property
    def device(self):
        return next(self.parameters()).device

    def prepare_image(self, image):
        img_cond = torch.from_numpy(image.astype(np.float32) / 255.0).float().clip(0, 1).to(self.device)
        mask_cond = img_cond.narrow(-1, 3, 1)
        rgb_cond = torch.lerp(
            torch.tensor(self.cfg.background_color, device=self.device)[None, None, :],
            img_cond.narrow(-1, 0, 3),
            mask_cond,
        )
        return mask_cond, rgb_cond

    def get_scene_codes(self, batch):
        rgb = batch["rgb_cond"].permute(0, 1, 4, 2, 3).flatten(0, 1)            # (B*Nv, 3, H, W)
        patches = F.adaptive_avg_pool2d(rgb, 4).flatten(2).transpose(1, 2)      # (B*Nv, 16, 3)
        tokens = self.image_tokenizer(patches.reshape(rgb.shape[0], 4, 3 * 4))  # (B*Nv, 4, D)
        cam = torch.cat([batch["c2w_cond"].flatten(-2), batch["intrinsic_normed_cond"].flatten(-2)], dim=-1)
        tokens = tokens + self.camera_embedder(cam).flatten(0, 1)[:, None]
        return self.triplane_head(tokens).mean(1)

    def run_image(self, image):
        mask_cond, rgb_cond = self.prepare_image(image)
        batch_size = 1
        c2w_cond = default_cond_c2w(self.cfg.default_distance).to(self.device)
        intrinsic, intrinsic_normed_cond = create_intrinsic_from_fov_deg(
            self.cfg.default_fovy_deg, self.cfg.cond_image_size, self.cfg.cond_image_size)
        batch = {
            "rgb_cond": rgb_cond.view(1, 1, *rgb_cond.shape),
            "mask_cond": mask_cond.view(1, 1, *mask_cond.shape),
            "c2w_cond": c2w_cond.view(1, 1, 4, 4).repeat(batch_size, 1, 1, 1),
            "intrinsic_cond": intrinsic.to(self.device).view(1, 1, 3, 3).repeat(batch_size, 1, 1, 1),
            "intrinsic_normed_cond": intrinsic_normed_cond.to(self.device).view(1, 1, 3, 3).repeat(batch_size, 1, 1, 1),
        }
        return self.get_scene_codes(batch)

model = SF3D().eval().to("cuda:0")          # SF3D.from_pretrained(...).to(device)
rng = np.random.default_rng(0)
image = rng.integers(0, 256, size=(32, 32, 4)).astype(np.uint8)   # RGBA after remove_background/resize
'''
CELL = '''
with torch.no_grad():
    scene_codes = model.run_image(image)
print(scene_codes.shape, scene_codes.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
