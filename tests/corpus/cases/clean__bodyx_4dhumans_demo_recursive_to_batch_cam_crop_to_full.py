"""Look-alike: the 4D-Humans (HMR 2.0) demo moves the whole collated batch with `recursive_to` and computes full-image cameras from batch fields cast with `.float()`.

Source: https://github.com/shubham-goel/4D-Humans/blob/main/demo.py
For each `batch` of the `ViTDetDataset` loader: `batch = recursive_to(batch, device)`, `out = model(batch)`
under `torch.no_grad()`, then `pred_cam = out['pred_cam']`, `box_center = batch["box_center"].float()`,
`box_size = batch["box_size"].float()`, `img_size = batch["img_size"].float()`,
`scaled_focal_length = FOCAL_LENGTH / IMAGE_SIZE * img_size.max()` and
`cam_crop_to_full(pred_cam, box_center, box_size, img_size, scaled_focal_length).detach().cpu()`.
The batch dict mixes float64 numpy-born boxes, int64 ids and strings; `recursive_to` moves every
tensor, and the float64 fields are cast before use. Stand-in: a tiny HMR2 head; `cam_crop_to_full`
uses `unbind` instead of column slices so it runs on fake GPU tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

FOCAL_LENGTH = 5000.
IMAGE_SIZE = 256

def recursive_to(x, target):
    if isinstance(x, dict):
        return {k: recursive_to(v, target) for k, v in x.items()}
    elif isinstance(x, torch.Tensor):
        return x.to(target)
    elif isinstance(x, list):
        return [recursive_to(i, target) for i in x]
    return x

def cam_crop_to_full(cam_bbox, box_center, box_size, img_size, focal_length=5000.):
    img_w, img_h = img_size.unbind(-1)
    cx, cy = box_center.unbind(-1)
    b = box_size
    w_2, h_2 = img_w / 2., img_h / 2.
    s, tx, ty = cam_bbox.unbind(-1)
    bs = b * s + 1e-9
    tz = 2 * focal_length / bs
    tx = (2 * (cx - w_2) / bs) + tx
    ty = (2 * (cy - h_2) / bs) + ty
    return torch.stack([tx, ty, tz], dim=-1)

class HMR2(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 16, stride=16), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.cam_head = nn.Linear(8, 3)
        self.betas_head = nn.Linear(8, 10)

    def forward(self, batch):
        f = self.backbone(batch['img'])
        return {'pred_cam': self.cam_head(f) + torch.tensor([0.9, 0., 0.], device=f.device),
                'pred_smpl_params': {'betas': self.betas_head(f)}}

device = torch.device('cuda:0')
model = HMR2().to(device)
model.eval()
boxes = np.array([[100., 50., 300., 450.], [320., 60., 480., 420.]])
batch = {                                            # one collated batch of ViTDetDataset
    'img': torch.rand(2, 3, IMAGE_SIZE, IMAGE_SIZE),
    'personid': torch.arange(2),
    'box_center': torch.from_numpy((boxes[:, 2:] + boxes[:, :2]) / 2.0),
    'box_size': torch.from_numpy((boxes[:, 2:] - boxes[:, :2]).max(1)),
    'img_size': torch.from_numpy(np.array([[640., 480.], [640., 480.]])),
    'imgname': ['example_data/images/img_001.jpg'] * 2,
}
'''
CELL = '''
batch = recursive_to(batch, device)
with torch.no_grad():
    out = model(batch)
pred_cam = out['pred_cam']
box_center = batch["box_center"].float()
box_size = batch["box_size"].float()
img_size = batch["img_size"].float()
scaled_focal_length = FOCAL_LENGTH / IMAGE_SIZE * img_size.max()
pred_cam_t_full = cam_crop_to_full(pred_cam, box_center, box_size, img_size, scaled_focal_length).detach().cpu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
