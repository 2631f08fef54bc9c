"""Lightning `auto_lr_find` with Adagrad: the trainer builds the optimizers before it moves the model to the GPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/3340
"Learning rate finder fails for optimizer with internal state": with `torch.optim.Adagrad`, "When
the optimizer is first initialized, it populates a state attribute with tensors like the model
parameters (in `Trainer.fit()`, line 1011, v0.9.0). However, the model parameters will be moved to
the correct device afterwards ... the state is still on cpu, while the model has been moved to
cuda." Stand-in: `Trainer.fit` reduced to that order and the LR-finder loop (gradients written as
backward would leave them).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class LitModel(nn.Module):
    def __init__(self, lr=1e-3):
        super().__init__()
        self.lr = lr
        self.layer = nn.Sequential(nn.Linear(28 * 28, 64), nn.ReLU(), nn.Linear(64, 10))
    def forward(self, x):
        return self.layer(x.view(x.size(0), -1))
    def configure_optimizers(self):
        return torch.optim.Adagrad(self.parameters(), lr=self.lr)

class Trainer:
    def __init__(self, gpus=1, auto_lr_find=True, num_lr_steps=3):
        self.root_device = torch.device("cuda:0") if gpus else torch.device("cpu")
        self.auto_lr_find = auto_lr_find
        self.num_lr_steps = num_lr_steps
        self.optimizers = None

    def lr_find(self, model, batch):
        optimizer = self.optimizers[0]
        lrs = [10 ** (-8 + 9 * i / (self.num_lr_steps - 1)) for i in range(self.num_lr_steps)]
        for lr in lrs:
            for g in optimizer.param_groups:
                g["lr"] = lr
            optimizer.zero_grad()
            out = model(batch[0].to(self.root_device))
            for p in model.parameters():      # stand-in for the training_step loss.backward()
                p.grad = torch.ones_like(p)
            optimizer.step()
        return lrs[0]

    def fit(self, model, batch):
        self.optimizers = [model.configure_optimizers()]
        model.to(self.root_device)
        if self.auto_lr_find:
            model.lr = self.lr_find(model, batch)

model = LitModel()
trainer = Trainer(gpus=1, auto_lr_find=True)
batch = (torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,)))
'''
CELL = '''
trainer.fit(model, batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer.optimizers"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        self.optimizers = [model.configure_optimizers()]\n        model.to(self.root_device)",
    "        model.to(self.root_device)\n        self.optimizers = [model.configure_optimizers()]",
)
CLEAN = False
