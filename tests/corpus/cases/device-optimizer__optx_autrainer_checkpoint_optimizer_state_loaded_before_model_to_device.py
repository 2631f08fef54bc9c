"""autrainer: a run resumed from a checkpoint loads the optimizer state while the model is still on the CPU.

Source: https://github.com/autrainer/autrainer/pull/146
"Fix Incorrect Optimizer Device during State Loading: This fixes a device mismatch when an optimizer
state dict is loaded and its state does not match the device by directly moving the state dict."
`Optimizer.load_state_dict` casts the restored moments to the device of the parameters at that
moment; the trainer loaded the states before `self.model.to(self.DEVICE)`, so Adam's moments stay
on the CPU. Stand-in: the trainer reduced to the construction order and one training step, with
the gradients backward would leave.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class AudioCNN(nn.Module):
    def __init__(self, n_mels=64, n_classes=10):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.fc = nn.Linear(32, n_classes)
    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))

# the checkpoint of the interrupted run, saved from the CPU
_m = AudioCNN()
_o = torch.optim.Adam(_m.parameters(), lr=1e-3)
for _p in _m.parameters():
    _p.grad = torch.ones_like(_p)
_o.step()
checkpoint = {"model": _m.state_dict(), "optimizer": _o.state_dict(), "iteration": 500}

class ModelTrainer:
    DEVICE = torch.device("cuda:0")

    def __init__(self, checkpoint):
        self.model = AudioCNN()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.model.load_state_dict(checkpoint["model"])
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        self.iteration = checkpoint["iteration"]
        self.model.to(self.DEVICE)

    def train_step(self, x, y):
        self.optimizer.zero_grad()
        out = self.model(x)
        for p in self.model.parameters():    # stand-in for criterion(out, y).backward()
            p.grad = torch.ones_like(p)
        self.optimizer.step()
        self.iteration += 1
        return out

trainer = ModelTrainer(checkpoint)
x = torch.randn(8, 64, 100).to(trainer.DEVICE)
y = torch.randint(0, 10, (8,)).to(trainer.DEVICE)
'''
CELL = '''
out = trainer.train_step(x, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer.optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for st in trainer.optimizer.state.values():
    for k, v in st.items():
        if torch.is_tensor(v) and k != "step":
            st[k] = v.to(trainer.DEVICE)
'''
REFERENCE_EDIT = None
CLEAN = False
