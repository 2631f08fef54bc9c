"""schnetpack's Trainer restores the Adam state from its checkpoint before `train(device)` moves the model to CUDA.

Source: https://github.com/atomistic-machine-learning/schnetpack/issues/126
Restarting `schnetpack_qm9.py` from its `checkpoint-xx.pth.tar` on a GPU fails at the first
`self.optimizer.step()` ("expected backend CPU ... but got backend CUDA", in `exp_avg.mul_`): the
Trainer's constructor calls `restore_checkpoint()`, which loads the optimizer state while the model
is still on the CPU, and `train(device)` only then runs `self._model.to(device)`, leaving Adam's
`exp_avg`/`exp_avg_sq` behind (schnetpack then added moving the optimizer state in `train`).
Stand-in: the Trainer's restore/train path with an in-memory checkpoint and a small MLP;
`loss.backward()` is replaced by setting the gradients.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

def make_model():
    return nn.Sequential(nn.Linear(16, 64), nn.Softplus(), nn.Linear(64, 1))     # an atomwise head

# what training wrote before it was stopped (torch.load(checkpoint-xx.pth.tar))
_m = make_model()
_opt = torch.optim.Adam(_m.parameters(), lr=1e-4)
for _p in _m.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
saved_checkpoint = {"epoch": 12, "step": 1200, "best_loss": 0.8,
                    "model": _m.state_dict(), "optimizer": _opt.state_dict()}

class Trainer:
    def __init__(self, model_path, model, loss_fn, optimizer, train_loader, checkpoint=None):
        self.model_path = model_path
        self._model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.train_loader = train_loader
        if checkpoint is not None:
            self.restore_checkpoint(checkpoint)
        else:
            self.epoch, self.step, self.best_loss = 0, 0, float("inf")

    def restore_checkpoint(self, state_dict):
        self.epoch = state_dict["epoch"]
        self.step = state_dict["step"]
        self.best_loss = state_dict["best_loss"]
        self.optimizer.load_state_dict(state_dict["optimizer"])
        self._model.load_state_dict(state_dict["model"])

    def train(self, device, n_epochs=1):
        self._model.to(device)
        for _ in range(n_epochs):
            for train_batch in self.train_loader:
                self.optimizer.zero_grad()
                train_batch = {k: v.to(device) for k, v in train_batch.items()}
                result = self._model(train_batch["representation"])
                loss = self.loss_fn(train_batch, result)
                for p in self._model.parameters():              # stand-in for loss.backward()
                    p.grad = torch.ones_like(p)
                self.optimizer.step()
                self.step += 1
            self.epoch += 1

def loss_fn(batch, result):
    return ((batch["energy_U0"] - result) ** 2).mean()

model = make_model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
train_loader = [{"representation": torch.randn(32, 16), "energy_U0": torch.randn(32, 1)} for _ in range(2)]
device = torch.device("cuda:0")
trainer = Trainer("qm9_model", model, loss_fn, optimizer, train_loader, checkpoint=saved_checkpoint)
'''
CELL = '''
trainer.train(device, n_epochs=1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
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
