"""Look-alike: SPIN's demo runs HMR and the SMPL layer on the device and brings the camera translation and vertices back to the CPU for rendering.

Source: https://github.com/nkolot/SPIN/blob/master/demo.py
`model = hmr(config.SMPL_MEAN_PARAMS).to(device)`, `smpl = SMPL(config.SMPL_MODEL_DIR, batch_size=1,
create_transl=False).to(device)`; `img, norm_img = process_image(...)` is made on the CPU and passed as
`model(norm_img.to(device))`; then `pred_output = smpl(betas=pred_betas, body_pose=pred_rotmat[:,1:],
global_orient=pred_rotmat[:,0].unsqueeze(1), pose2rot=False)`, `camera_translation =
torch.stack([...], dim=-1)` and both go `.cpu()`. `img` stays on the CPU on purpose (it is only
rendered). Stand-in: a tiny HMR regressor and SMPL layer; column slices are written with
`unbind`/`split` so the fake GPU tensors can run them.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

FOCAL_LENGTH = 5000.
IMG_RES = 224

class HMR(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 7, stride=4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.decpose = nn.Linear(8, 24 * 9)
        self.decshape = nn.Linear(8, 10)
        self.deccam = nn.Linear(8, 3)

    def forward(self, x):
        f = self.encoder(x)
        pred_rotmat = self.decpose(f).view(-1, 24, 3, 3)
        return pred_rotmat, self.decshape(f), self.deccam(f) + 0.9

class SMPL(nn.Module):
    def __init__(self, num_verts=300):
        super().__init__()
        self.register_buffer('v_template', torch.randn(num_verts, 3))
        self.register_buffer('shapedirs', torch.randn(num_verts, 3, 10) * 0.01)
        self.register_buffer('posedirs', torch.randn(23 * 9, num_verts * 3) * 0.001)

    def forward(self, betas, body_pose, global_orient, pose2rot=False):
        v_shaped = self.v_template + torch.einsum('bl,mkl->bmk', betas, self.shapedirs)
        pose_feature = body_pose.reshape(betas.shape[0], -1)
        v_posed = v_shaped + torch.matmul(pose_feature, self.posedirs).view(betas.shape[0], -1, 3)
        R = global_orient.reshape(-1, 3, 3)
        return torch.einsum('bij,bvj->bvi', R, v_posed)

device = torch.device('cuda:0')
model = HMR().to(device)
model.eval()
smpl = SMPL().to(device)
img = torch.rand(3, IMG_RES, IMG_RES)             # process_image: cpu
norm_img = ((img - 0.45) / 0.225).unsqueeze(0)
'''
CELL = '''
with torch.no_grad():
    pred_rotmat, pred_betas, pred_camera = model(norm_img.to(device))
    global_orient, body_pose = torch.split(pred_rotmat, [1, 23], dim=1)
    pred_vertices = smpl(betas=pred_betas, body_pose=body_pose, global_orient=global_orient, pose2rot=False)
cam_s, cam_x, cam_y = pred_camera.unbind(-1)
camera_translation = torch.stack([cam_x, cam_y, 2 * FOCAL_LENGTH / (IMG_RES * cam_s + 1e-9)], dim=-1)
camera_translation = camera_translation.cpu()
pred_vertices = pred_vertices.cpu()
img = img.permute(1, 2, 0).cpu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
