"""OGB graph classifier whose `forward` reads the global `data.edge_index`: the batch is on the GPU, `data` is not.

Source: https://github.com/snap-stanford/ogb/issues/68
The user's `forward(self, x, edge_index, batch)` began with `x, edge_index = x, data.edge_index`,
picking up the module-level `data = dataset[0]` that was never moved, while the loader's batch and
the model were on cuda: "Expected object of device type cuda but got device type cpu for argument
#3 'index' in call to _th_index_select". The answer: model and data must sit on the same device.
Stand-in: AtomEncoder as a Linear, GCNConv as gather / scatter-add message passing.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Data:
    """Stand-in for torch_geometric.data.Data."""
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def to(self, device):
        return Data(**{k: v.to(device) if torch.is_tensor(v) else v for k, v in self.__dict__.items()})

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)

    def forward(self, x, edge_index):
        x = self.lin(x)
        row, col = edge_index.unbind(0)
        msg = x.index_select(0, row)
        return torch.zeros_like(x).index_add_(0, col, msg)

class Net(nn.Module):
    def __init__(self, num_classes=2):
        super().__init__()
        self.emb = nn.Linear(9, 16)              # AtomEncoder(16)
        self.conv1 = GCNConv(16, 16)
        self.conv2 = GCNConv(16, num_classes)

    def forward(self, x, edge_index, batch):
        x, edge_index = x, data.edge_index
        x = self.emb(x)
        x = F.relu(self.conv1(x, edge_index))
        x = self.conv2(x, edge_index)
        return F.log_softmax(x, dim=1)

def make_graph(n=12):
    edge_index = torch.stack([torch.arange(n), (torch.arange(n) + 1) % n])
    return Data(x=torch.randn(n, 9), edge_index=edge_index, batch=torch.zeros(n, dtype=torch.long),
                y=torch.tensor([1]))

device = torch.device("cuda:0")
data = make_graph()                              # dataset[0]
model = Net().to(device)
batch_data = make_graph().to(device)             # a batch from the DataLoader, moved
'''
CELL = '''
out = model(batch_data.x, batch_data.edge_index, batch_data.batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["data.edge_index"]
FIX = "namespace"
REFERENCE_FIX = '''
data = data.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
