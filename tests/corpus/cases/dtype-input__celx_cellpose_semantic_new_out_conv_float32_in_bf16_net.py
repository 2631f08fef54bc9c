"""Cellpose-SAM semantic fine-tuning (paper/cpsam/semantic.py): a new float32 `net.out` head inside the bfloat16 network.

Source: https://github.com/MouseLand/cellpose/issues/1327
Running semantic.py's training through `train.train_seg(net, ...)` failed in `vit_sam.py`
`x1 = self.out(x)` with "Input type (c10::BFloat16) and bias type (float) should be the same".
`initialize_class_net` loads the CP-SAM Transformer (bfloat16 by default in cellpose 4), then
replaces `net.out` with a fresh `nn.Conv2d(256, (nout + nclasses) * ps**2, 1)` and a new
`net.W2` Parameter, both float32; the closing `net.to(device)` moves but does not cast them,
and `train_seg` feeds batches in `net.dtype` (bfloat16). (Cellpose later moved training to
float32, PR #1390.) Stand-in: a tiny Transformer keeping `out`, `W2` and `dtype`; CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Transformer(nn.Module):
    def __init__(self, ps=8, dim=32, nout=3, dtype=torch.bfloat16):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, ps, stride=ps)
        self.out = nn.Conv2d(dim, nout * ps ** 2, kernel_size=1)
        self.W2 = nn.Parameter(torch.eye(nout * ps ** 2).reshape(nout * ps ** 2, nout, ps, ps),
                               requires_grad=False)
        self.dtype = dtype

    def load_model(self, filename, device=None):
        self.to(device, dtype=self.dtype)

    def forward(self, x):
        x = torch.relu(self.patch_embed(x))
        x1 = self.out(x)
        x1 = nn.functional.conv_transpose2d(x1, self.W2, stride=self.W2.shape[-1])
        return x1, x.mean((2, 3))

def initialize_class_net(nclasses=5, device=torch.device("cpu")):
    net = Transformer().to(device)
    net.load_model("models/cpsam", device=device)
    ps, nout = 8, 3
    w0 = net.out.weight.data.detach().clone()
    b0 = net.out.bias.data.detach().clone()
    net.out = nn.Conv2d(32, (nout + nclasses) * ps ** 2, kernel_size=1).to(device)
    net.out.weight.data[-(nout * ps ** 2):] = w0
    net.out.bias.data[-(nout * ps ** 2):] = b0
    net.W2 = nn.Parameter(torch.eye((nout + nclasses) * ps ** 2).reshape(
        (nout + nclasses) * ps ** 2, nout + nclasses, ps, ps), requires_grad=False)
    net.to(device)
    return net

def train_seg(net, train_data, train_labels, batch_size=2, learning_rate=1e-5, n_epochs=1):
    optimizer = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=learning_rate)
    losses = []
    for iepoch in range(n_epochs):
        net.train()
        X = torch.from_numpy(train_data[:batch_size]).to(net.dtype)
        y = net(X)[0]
        loss = nn.functional.mse_loss(y.float(), torch.from_numpy(train_labels[:batch_size]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses

rng = np.random.default_rng(0)
train_data = rng.random((2, 3, 32, 32), dtype=np.float32)
train_labels = rng.random((2, 8, 32, 32), dtype=np.float32)
net = initialize_class_net(nclasses=5)
'''
CELL = '''
out = train_seg(net, train_data=train_data, train_labels=train_labels, n_epochs=1)
'''
EXPECT_ERROR = "Input type (c10::BFloat16) and bias type (float) should be the same"
CULPRITS = ["net.out", "net.W2"]
FIX = "namespace"
REFERENCE_FIX = '''
net.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
