"""Look-alike: resuming IAGNet with the model moved to the GPU before the optimizer state is loaded.

Source: https://github.com/yyvhang/IAGNet/issues/4
The maintainer's fix for the resume failure: "put `model = model.to(device)` before loading model
parameters" (here: before the optimizer and its state; the simulator cannot copy the weights into
a fake GPU model, so they are loaded first). The checkpoint still comes from `torch.load(..., map_location="cpu")`, so its
optimizer state is on the CPU, but `Optimizer.load_state_dict` casts each state tensor to its
parameter's device, which is now the GPU. A CPU checkpoint and a GPU model in one resume, correct.
Stand-in as in the bug case (`.grad` set by hand: no autograd on fake GPU tensors).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

_run = IAGNet()
_opt = torch.optim.Adam(_run.parameters(), lr=1e-4, weight_decay=1e-4)
for _p in _run.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
model_checkpoint = {"model": _run.state_dict(), "optimizer": _opt.state_dict(), "epoch": 40}

device = torch.device("cuda:0")
model = IAGNet()
model.load_state_dict(model_checkpoint["model"])
model = model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, weight_decay=1e-4)
optimizer.load_state_dict(model_checkpoint["optimizer"])

def train_one_step(model, optimizer, img, xyz):
    optimizer.zero_grad()
    _3d, logits = model(img, xyz)
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
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
