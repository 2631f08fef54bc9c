"""Early Lightning Trainer: `configure_optimizers()` ran before the model was moved to the GPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/pull/554
"How to reproduce: try using Adagrad with cuda. Optimizers are created before the model is on cuda,
and so the optimizer's accumulator is created on CPU. That causes an exception when gpu grads are
handled in Adagrad.step()" (Adam works, its state is created lazily). The PR moves the model to
cuda before creating the optimizer. Stand-in: the few Trainer lines of the single-GPU path and a
LightningModule-like model whose `configure_optimizers` returns Adagrad.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class CoolModel(nn.Module):              # pl.LightningModule in the report
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(28 * 28, 10)

    def forward(self, x):
        return torch.relu(self.l1(x.view(x.size(0), -1)))

    def configure_optimizers(self):
        return [torch.optim.Adagrad(self.parameters(), lr=0.02)]

class Trainer:
    def __init__(self, gpus=None):
        self.root_gpu = 0 if gpus else None

    def single_gpu_train(self, model):
        self.optimizers = model.configure_optimizers()
        model.cuda_device = torch.device(f"cuda:{self.root_gpu}")
        model.to(model.cuda_device)         # model.cuda(self.root_gpu)
        return model

model = CoolModel()
trainer = Trainer(gpus=1)
model = trainer.single_gpu_train(model)
optimizer = trainer.optimizers[0]
for p in model.parameters():               # stand-in for the training step's backward
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
trainer.optimizers = model.configure_optimizers()
optimizer = trainer.optimizers[0]
for p in model.parameters():
    p.grad = torch.ones_like(p)
'''
REFERENCE_EDIT = None
CLEAN = False
