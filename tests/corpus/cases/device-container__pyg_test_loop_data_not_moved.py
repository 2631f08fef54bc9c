"""A PyG evaluation loop with `data = data#.to(device)`: the graph batch stays on the CPU, the model is on the GPU.

Source: https://github.com/pyg-team/pytorch_geometric/issues/5028
The user's clique-pooling GNN trained on the GPU (`data = data.to(device)` in `train`), but in
`test(loader)` the move was commented out (`data = data#.to(device)`), so `model(data)` received a
CPU graph batch and failed with "Expected all tensors to be on the same device, ... cuda:0 and cpu".
Stand-in: a minimal `Data` batch object with `.to()` and a one-layer message-passing net (no PyG).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class Data:
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

    def to(self, device):
        return Data(self.x.to(device), self.edge_index.to(device), self.y.to(device))

class Net(nn.Module):
    def __init__(self, num_features=8, hidden=16, num_classes=3):
        super().__init__()
        self.lin1 = nn.Linear(num_features, hidden)
        self.lin2 = nn.Linear(hidden, num_classes)

    def forward(self, data):
        x = F.relu(self.lin1(data.x))
        return F.log_softmax(self.lin2(x), dim=1)

device = torch.device("cuda:0")
model = Net().to(device)
data = Data(torch.randn(10, 8), torch.randint(0, 10, (2, 20)), torch.randint(0, 3, (10,)))
'''
CELL = '''
data = data#.to(device)
pred = model(data).max(dim=1)[1]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["data"]
FIX = "namespace"
REFERENCE_FIX = '''
data = data.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
