"""Uformer `--resume`: `utils.load_optim` restores the AdamW state while the net is still on the CPU; `.cuda()` comes after.

Source: https://github.com/ZhendongWang6/Uformer/issues/11
A user resumed SIDD training with `--resume` and the first iteration failed in
`loss_scaler(loss, optimizer, parameters=model_restoration.parameters())` with "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu". The maintainer fixed it in
commit 97c8f95 ("fixed resume & save image bugs"): train.py built the AdamW optimizer, ran the Resume
block (`utils.load_checkpoint`, `utils.load_optim` -> `optimizer.load_state_dict`) and only then
wrapped `model_restoration` in `DataParallel` and called `.cuda()`. `load_state_dict` casts the
restored exp_avg/exp_avg_sq to the device the parameters had at that moment (the CPU); the later
`.cuda()` moves the parameters but not the optimizer state. The fix moves the DataParallel/.cuda()
block above the Resume block. Stand-ins: Uformer reduced to a conv encoder/decoder; the checkpoint
file is an in-memory dict (a GPU run's save: DataParallel `module.` keys, AdamW state on cuda:0) read
by a `torch.load` stand-in; under fake_cuda the backward of timm's NativeScaler is replaced by
gradients written on the parameters, then `optimizer.step()` runs as `loss_scaler` would; `.cuda()`
is written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
from collections import OrderedDict
import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR

class Uformer(nn.Module):
    """model.Uformer, reduced to its input/output projections around a conv body."""
    def __init__(self, embed_dim=16):
        super().__init__()
        self.input_proj = nn.Sequential(nn.Conv2d(3, embed_dim, 3, padding=1), nn.LeakyReLU(inplace=True))
        self.body = nn.Sequential(nn.Conv2d(embed_dim, embed_dim, 3, padding=1), nn.GELU())
        self.output_proj = nn.Conv2d(embed_dim, 3, 3, padding=1)

    def forward(self, x):
        return x + self.output_proj(self.body(self.input_proj(x)))

class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, x, y):
        diff = x - y
        return torch.mean(torch.sqrt((diff * diff) + (self.eps * self.eps)))

# --- the checkpoint an earlier GPU run saved (model_latest.pth): DataParallel keys, AdamW state on cuda:0
_CHECKPOINTS = {}
def _save_previous_run(path):
    prev = Uformer().to("cuda:0")
    prev_opt = optim.AdamW(prev.parameters(), lr=2e-4, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.02)
    for p in prev.parameters():
        prev_opt.state[p] = {"step": torch.tensor(30000.0),
                             "exp_avg": torch.zeros_like(p), "exp_avg_sq": torch.zeros_like(p)}
    state_dict = OrderedDict(("module." + k, v) for k, v in prev.state_dict().items())
    _CHECKPOINTS[path] = {"epoch": 69, "state_dict": state_dict, "optimizer": prev_opt.state_dict()}

def torch_load(path):
    """torch.load(path) without map_location: tensors come back on the device they were saved from."""
    return _CHECKPOINTS[path]

class utils:
    """utils/model_utils.py"""
    @staticmethod
    def load_checkpoint(model, weights):
        checkpoint = torch_load(weights)
        try:
            model.load_state_dict(checkpoint["state_dict"])
        except Exception:
            state_dict = checkpoint["state_dict"]
            new_state_dict = OrderedDict()
            for k, v in state_dict.items():
                name = k[7:] if 'module.' in k else k
                new_state_dict[name] = v
            model.load_state_dict(new_state_dict)

    @staticmethod
    def load_start_epoch(weights):
        return torch_load(weights)["epoch"]

    @staticmethod
    def load_optim(optimizer, weights):
        checkpoint = torch_load(weights)
        optimizer.load_state_dict(checkpoint['optimizer'])
        for p in optimizer.param_groups: lr = p['lr']
        return lr

class opt:
    optimizer = 'adamw'
    lr_initial = 0.0002
    weight_decay = 0.02
    resume = True
    pretrain_weights = './log/Uformer_B/models/model_latest.pth'
    nepoch = 250

_save_previous_run(opt.pretrain_weights)

######### Model ###########
model_restoration = Uformer()

######### Optimizer ###########
start_epoch = 1
if opt.optimizer.lower() == 'adam':
    optimizer = optim.Adam(model_restoration.parameters(), lr=opt.lr_initial, betas=(0.9, 0.999), eps=1e-8, weight_decay=opt.weight_decay)
elif opt.optimizer.lower() == 'adamw':
    optimizer = optim.AdamW(model_restoration.parameters(), lr=opt.lr_initial, betas=(0.9, 0.999), eps=1e-8, weight_decay=opt.weight_decay)

######### Resume ###########
if opt.resume:
    path_chk_rest = opt.pretrain_weights
    utils.load_checkpoint(model_restoration, path_chk_rest)
    start_epoch = utils.load_start_epoch(path_chk_rest) + 1
    lr = utils.load_optim(optimizer, path_chk_rest)
    for p in optimizer.param_groups: p['lr'] = lr

######### Scheduler ###########
scheduler = StepLR(optimizer, step_size=50, gamma=0.5)

######### DataParallel ###########
model_restoration = torch.nn.DataParallel(model_restoration)
model_restoration.to("cuda:0")   # .cuda()

######### Loss ###########
criterion = CharbonnierLoss().to("cuda:0")

target = torch.rand(2, 3, 32, 32).to("cuda:0")
input_ = torch.rand(2, 3, 32, 32).to("cuda:0")
'''
CELL = '''
optimizer.zero_grad()
restored = model_restoration(input_)
restored = torch.clamp(restored, 0, 1)
loss = criterion(restored, target)
# loss_scaler(loss, optimizer, parameters=model_restoration.parameters()): backward (stand-in), then step
for p in model_restoration.parameters():
    p.grad = torch.full_like(p, 1e-3)
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
lr = utils.load_optim(optimizer, path_chk_rest)   # reload now that the parameters are on the GPU
'''
REFERENCE_EDIT = None
CLEAN = False
