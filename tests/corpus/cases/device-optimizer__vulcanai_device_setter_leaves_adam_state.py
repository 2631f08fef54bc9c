"""VulcanAI: changing a trained network's `device` moves the network but not the Adam state from `fit()`.

Source: https://github.com/Aifred-Health/VulcanAI/issues/86
"Change device after .fit() will break optimizer since parameters are on a different location."
`BaseNetwork.device` is a property whose setter called `self.network.to(device=device)`; the Adam
optimizer that `fit()` had created (and stepped, so its `exp_avg`/`exp_avg_sq` exist) kept its
state on the old device, and the next `fit()` on the new device failed in `optim.step()`. The fix
made the setter also move every tensor in `self.optim.state`. Stand-in: BaseNetwork reduced to the
device property, a dense network and the fit step; the gradients are what backward leaves.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class DenseNet(nn.Module):
    def __init__(self, in_dim=10, num_classes=3, device="cpu"):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, num_classes))
        self.optim = None
        self.criterion = nn.CrossEntropyLoss()
        self.device = device

    @property
    def device(self):
        return next(self.network.parameters()).device

    @device.setter
    def device(self, device):
        self.network.to(device=device)

    def forward(self, x):
        return self.network(x)

    def _init_trainer(self):
        self.optim = torch.optim.Adam(self.parameters(), lr=1e-3)

    def fit(self, x, y):
        if self.optim is None:
            self._init_trainer()
        self.optim.zero_grad()
        loss = self.criterion(self(x), y)
        for p in self.parameters():           # what loss.backward() leaves behind
            p.grad = torch.ones_like(p)
        self.optim.step()
        return loss

net = DenseNet(device="cpu")
net.fit(torch.randn(16, 10), torch.randint(0, 3, (16,)))      # first training run on the CPU
net.device = "cuda:0"
x_train = torch.randn(16, 10, device="cuda:0")
y_train = torch.randint(0, 3, (16,), device="cuda:0")
'''
CELL = '''
loss = net.fit(x_train, y_train)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.optim"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in net.optim.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":   # Adam keeps its step count on the CPU
            state[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
