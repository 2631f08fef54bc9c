"""PyG neighbour-sampled mini-batch: features gathered on the GPU, the sampled `edge_index` still on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/pull/3329
"Fix neighbor_loader device, make sure features and edges are on the same device. In some cases, the
sampled edges/adj_t are on CPU while data.x is on GPU." The node features were gathered from a
GPU-resident `data.x`, while the sampler built the sub-graph's `edge_index` on the CPU, so the batch
handed to the GNN mixed devices. Stand-in: the sampled batch as a small Data object, GraphSAGE as
gather / scatter-add message passing.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Batch:
    """Stand-in for the sampled torch_geometric Data mini-batch."""
    def __init__(self, **kw):
        self.__dict__.update(kw)

class SAGEConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_l = nn.Linear(in_channels, out_channels)
        self.lin_r = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index.unbind(0)
        agg = torch.zeros_like(x).index_add_(0, dst, x.index_select(0, src))
        return self.lin_l(agg) + self.lin_r(x)

class GraphSAGE(nn.Module):
    def __init__(self, in_channels=32, hidden=32, out_channels=4):
        super().__init__()
        self.conv1 = SAGEConv(in_channels, hidden)
        self.conv2 = SAGEConv(hidden, out_channels)

    def forward(self, x, edge_index):
        return self.conv2(F.relu(self.conv1(x, edge_index)), edge_index)

device = torch.device("cuda:0")
model = GraphSAGE().to(device)
n_id = torch.arange(20)                                            # sampled node ids
batch = Batch(
    x=torch.randn(20, 32).to(device),                              # data.x[n_id], data.x on the GPU
    edge_index=torch.stack([torch.randint(0, 20, (60,)), torch.randint(0, 20, (60,))]),  # sampler output
    n_id=n_id,
    batch_size=8,
)
'''
CELL = '''
out = model(batch.x, batch.edge_index)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch.edge_index"]
FIX = "namespace"
REFERENCE_FIX = '''
batch.edge_index = batch.edge_index.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
