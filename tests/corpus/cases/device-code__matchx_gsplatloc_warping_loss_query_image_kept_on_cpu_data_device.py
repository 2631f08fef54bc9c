"""GSplatLoc localization with `--data_device cpu`: the query image stays on the CPU, the warped render is on cuda.

Source: https://github.com/be2rlab/gsplatloc/pull/13
"This PR fixes a `RuntimeError: Expected all tensors to be on the same device` that occurs during
localization inference (`loc_inference.py`) when the model is trained with `--data_device cpu`. ... the
ground truth images (`qr`) remain on the CPU. However, the rendered images (`warped_image`) are
computed on the GPU. This causes a device mismatch in `compute_warping_loss` when calculating
`F.mse_loss`." The fix moves `qr` to `warped_image.device` inside `warping/warping_loss.py`.
Stand-ins: the 3DGS `Camera` keeps `original_image` on `data_device` (as in gaussian-splatting's
scene/cameras.py); the Gaussian render + depth warp are a random image on cuda:0;
`compute_warping_loss` is reduced to the MSE term the PR names.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn


class Camera(nn.Module):
    def __init__(self, colmap_id, image, image_name, uid, data_device="cuda"):
        super(Camera, self).__init__()
        self.uid = uid
        self.colmap_id = colmap_id
        self.image_name = image_name
        self.data_device = torch.device(data_device)
        self.original_image = image.clamp(0.0, 1.0).to(self.data_device)
        self.image_width = self.original_image.shape[2]
        self.image_height = self.original_image.shape[1]


def compute_warping_loss(warped_image, qr):
    # photometric term between the warped reference render and the query image
    return F.mse_loss(warped_image, qr)


data_device = "cpu"          # trained / loaded with --data_device cpu to save VRAM
query_cam = Camera(colmap_id=1, image=torch.rand(3, 120, 160), image_name="frame-000000",
                   uid=0, data_device=data_device)
qr = query_cam.original_image
# render(reference view, gaussians) + warp to the query pose, on the GPU
warped_image = torch.rand(3, 120, 160, device="cuda:0")
'''
CELL = '''
loss = compute_warping_loss(warped_image, qr)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["compute_warping_loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    # photometric term between the warped reference render and the query image\n",
    "    # photometric term between the warped reference render and the query image\n"
    "    qr = qr.to(warped_image.device)\n",
)
CLEAN = False
