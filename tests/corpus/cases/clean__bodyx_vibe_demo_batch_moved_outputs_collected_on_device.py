"""Look-alike: the VIBE demo keeps the tracklet loader on the CPU, moves each batch with `.to(device)` and concatenates the per-batch SMPL outputs on the device.

Source: https://github.com/mkocabas/VIBE/blob/master/demo.py
`model = VIBE_Demo(seqlen=16, n_layers=2, hidden_size=1024, add_linear=True, use_residual=True).to(device)`;
for each `batch` of the `Inference` loader: `batch = batch.unsqueeze(0)`, `batch = batch.to(device)`,
`batch_size, seqlen = batch.shape[:2]`, `output = model(batch)[-1]`, then `pred_cam.append(output['theta']
[:, :, :3].reshape(batch_size * seqlen, -1))`, `pred_verts.append(output['verts'].reshape(batch_size *
seqlen, -1, 3))`, ...; after the loop `pred_cam = torch.cat(pred_cam, dim=0)` etc., all on the device,
and `.cpu().numpy()` only when saving. Stand-in: a tiny encoder, a temporal Conv1d in place of the GRU, and an SMPL-like regressor;
the theta slices are written with `torch.split` for the fake GPU tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class VIBE_Demo(nn.Module):
    def __init__(self, seqlen=16, n_layers=2, hidden_size=64, add_linear=True, use_residual=True, n_verts=200):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 8, stride=8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.temporal = nn.Conv1d(8, hidden_size, 3, padding=1)     # stands in for the GRU
        self.regressor = nn.Linear(hidden_size, 85)
        self.register_buffer('v_template', torch.randn(n_verts, 3))
        self.register_buffer('shapedirs', torch.randn(n_verts, 3, 10) * 0.01)

    def forward(self, x):
        B, T = x.shape[:2]
        f = self.encoder(x.reshape(B * T, *x.shape[2:])).reshape(B, T, -1)
        y = torch.relu(self.temporal(f.transpose(1, 2))).transpose(1, 2)
        theta = self.regressor(y)
        cam, pose, betas = torch.split(theta, [3, 72, 10], dim=-1)
        verts = self.v_template + torch.einsum('btl,mkl->btmk', betas, self.shapedirs)
        return [{'theta': theta, 'verts': verts}]

device = torch.device('cuda:0')
model = VIBE_Demo(seqlen=16, n_layers=2, hidden_size=64, add_linear=True, use_residual=True).to(device)
model.eval()
dataloader = [torch.rand(16, 3, 64, 64) for _ in range(3)]          # Inference dataset crops (cpu)
'''
CELL = '''
with torch.no_grad():
    pred_cam, pred_verts, pred_pose, pred_betas = [], [], [], []
    for batch in dataloader:
        batch = batch.unsqueeze(0)
        batch = batch.to(device)
        batch_size, seqlen = batch.shape[:2]
        output = model(batch)[-1]
        cam, pose, betas = torch.split(output['theta'], [3, 72, 10], dim=-1)
        pred_cam.append(cam.reshape(batch_size * seqlen, -1))
        pred_verts.append(output['verts'].reshape(batch_size * seqlen, -1, 3))
        pred_pose.append(pose.reshape(batch_size * seqlen, -1))
        pred_betas.append(betas.reshape(batch_size * seqlen, -1))
    pred_cam = torch.cat(pred_cam, dim=0)
    pred_verts = torch.cat(pred_verts, dim=0)
    pred_pose = torch.cat(pred_pose, dim=0)
    pred_betas = torch.cat(pred_betas, dim=0)
    del batch
pred_verts_cpu = pred_verts.cpu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
