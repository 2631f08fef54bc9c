"""tacotron_pytorch: resuming from a checkpoint, the Adam state is loaded while the model is still on the CPU.

Source: https://github.com/r9y9/tacotron_pytorch/issues/18
train.py builds `model = Tacotron(...)`, `optimizer = optim.Adam(model.parameters(), ...)`, then with
`--checkpoint-path` calls `model.load_state_dict(...)` and `optimizer.load_state_dict(checkpoint["optimizer"])`
- which casts `exp_avg`/`exp_avg_sq` to the parameters' device, the CPU - and only `train()` does
`model = model.cuda()`. The first `optimizer.step()` after a resume failed; the reporter moved
`.cuda()` before building the optimizer. Stand-ins: a small Tacotron (no GRU), the checkpoint an
in-memory dict written by an earlier run, and grads set by hand (no backward in the fake-cuda simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn, optim

class Tacotron(nn.Module):
    def __init__(self, n_vocab, embedding_dim=16, mel_dim=8, linear_dim=12):
        super().__init__()
        self.embedding = nn.Embedding(n_vocab, embedding_dim)
        self.encoder = nn.Sequential(nn.Linear(embedding_dim, embedding_dim), nn.Tanh())
        self.mel_proj = nn.Linear(embedding_dim, mel_dim)
        self.postnet = nn.Linear(mel_dim, linear_dim)

    def forward(self, x):
        h = self.encoder(self.embedding(x))
        mel_outputs = self.mel_proj(h)
        return mel_outputs, self.postnet(mel_outputs)

def make_checkpoint():
    """What an earlier run saved with torch.save (state of a model that took a step)."""
    m = Tacotron(n_vocab=20)
    o = optim.Adam(m.parameters(), lr=0.002, betas=(0.9, 0.999), weight_decay=0.0)
    for p in m.parameters():
        p.grad = torch.ones_like(p)
    o.step()
    return {"state_dict": m.state_dict(), "optimizer": o.state_dict(), "global_step": 1, "global_epoch": 0}

use_cuda = True
device = torch.device("cuda:0")          # .cuda() in train.py
model = Tacotron(n_vocab=20)
optimizer = optim.Adam(model.parameters(), lr=0.002, betas=(0.9, 0.999), weight_decay=0.0)

# Load checkpoint
checkpoint = make_checkpoint()
model.load_state_dict(checkpoint["state_dict"])
optimizer.load_state_dict(checkpoint["optimizer"])
global_step = checkpoint["global_step"]

x = torch.randint(0, 20, (2, 5))
mel = torch.randn(2, 5, 8)
y = torch.randn(2, 5, 12)
criterion = nn.L1Loss()
'''
CELL = '''
# train(model, data_loader, optimizer, ...)
if use_cuda:
    model = model.to(device)
model.train()
optimizer.zero_grad()
if use_cuda:
    x, mel, y = x.to(device), mel.to(device), y.to(device)
mel_outputs, linear_outputs = model(x)
loss = criterion(mel_outputs, mel) + criterion(linear_outputs, y)
for p in model.parameters():             # stand-in for loss.backward()
    p.grad = torch.ones_like(p)
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
for state in optimizer.state.values():
    for k, v in state.items():
        if isinstance(v, torch.Tensor) and k != "step":
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
