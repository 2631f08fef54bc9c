"""IAGNet `--resume`: model and optimizer state loaded into a CPU model, the model moved to the GPU afterwards.

Source: https://github.com/yyvhang/IAGNet/issues/4
Resuming from `best_seen.pt` failed in `train.py` with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". The script built the model and its Adam
optimizer, loaded both state dicts from the checkpoint while the model was still on the CPU (so
`Optimizer.load_state_dict` cast the moment buffers to the CPU parameters), and only then ran
`model = model.to(device)`. Maintainer: "put line83 `model = model.to(device)` before loading model
parameters". Stand-in: a two-branch point/image model; `loss.backward()` is replaced by setting
`.grad` (the simulator runs no autograd on fake GPU tensors).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
import torch.nn as nn

class IAGNet(nn.Module):
    def __init__(self, img_dim=64, pc_dim=3, emb=32, n_affordance=17):
        super().__init__()
        self.img_encoder = nn.Sequential(nn.Linear(img_dim, emb), nn.ReLU())
        self.point_encoder = nn.Sequential(nn.Linear(pc_dim, emb), nn.ReLU())
        self.fusion = nn.Linear(2 * emb, emb)
        self.aff_head = nn.Linear(emb, n_affordance)
        self.point_head = nn.Linear(emb, 1)

    def forward(self, img, xyz):
        f_i = self.img_encoder(img).unsqueeze(1).expand(-1, xyz.shape[1], -1)
        f_p = self.point_encoder(xyz)
        f = torch.relu(self.fusion(torch.cat([f_i, f_p], dim=-1)))
        return self.point_head(f).squeeze(-1), self.aff_head(f.mean(dim=1))

def get_IAGNet():
    return IAGNet()

# the checkpoint written by an earlier run (torch.load(..., map_location='cuda:0') in train.py;
# the optimizer state ends up on the CPU parameters either way)
_run = get_IAGNet()
_opt = torch.optim.Adam(_run.parameters(), lr=1e-4, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-4)
for _p in _run.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
model_checkpoint = {"model": _run.state_dict(), "optimizer": _opt.state_dict(), "epoch": 40}

device = torch.device("cuda:0")
model = get_IAGNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-4)
model.load_state_dict(model_checkpoint["model"])
optimizer.load_state_dict(model_checkpoint["optimizer"])
start_epoch = model_checkpoint["epoch"]
model = model.to(device)

def train_one_step(model, optimizer, img, xyz):
    optimizer.zero_grad()
    _3d, logits = model(img, xyz)
    # stand-in for loss.backward(): the simulator runs no autograd on fake GPU tensors
    for p in model.parameters():
        p.grad = torch.ones_like(p)
    optimizer.step()
    return logits

img = torch.randn(4, 64).to(device)
xyz = torch.randn(4, 128, 3).to(device)
'''
CELL = '''
logits = train_one_step(model, optimizer, img, xyz)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
