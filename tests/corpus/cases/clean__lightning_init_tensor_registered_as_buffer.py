"""A tensor made in a LightningModule's __init__, registered as a buffer, follows the model to the GPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/1978
"Best practice: How to convert a tensor created in __init__() to the same device as the model":
awaelchli's answer - register it as a buffer (`register_buffer`), and `Module.to()` moves it with
the parameters. Look-alike: a constant created on the CPU in `__init__` of a model on cuda:0,
correct because it is a buffer. Stand-in: a plain nn.Module in place of the LightningModule.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LitClassifier(nn.Module):
    def __init__(self, num_classes=4, dim=8):
        super().__init__()
        self.encoder = nn.Linear(dim, dim)
        self.register_buffer("class_weights", torch.tensor([1.0, 2.0, 2.0, 0.5]))
        self.register_buffer("prototypes", torch.randn(num_classes, dim))

    def forward(self, x):
        z = self.encoder(x)
        logits = z @ self.prototypes.t()
        return logits * self.class_weights

device = torch.device("cuda:0")
model = LitClassifier().to(device)
x = torch.randn(5, 8).to(device)
'''
CELL = '''
logits = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
