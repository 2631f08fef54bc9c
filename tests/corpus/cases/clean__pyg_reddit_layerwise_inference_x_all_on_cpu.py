"""Look-alike: PyG's Reddit example runs layer-wise inference with the full feature matrix `x_all` kept on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/examples/reddit.py
`SAGE.inference(x_all, subgraph_loader)` computes every layer for all nodes, batch by batch:
`x = x_all[batch.n_id.to(x_all.device)].to(device)` gathers the neighbourhood on the CPU and moves it
to the GPU model, and `xs.append(x[:batch.batch_size].cpu())` brings the outputs back, so after the
first layer `x_all` is a CPU tensor on purpose (it would not fit on the GPU). Stand-in: a mean
SAGEConv, the loader's batches as (n_id, local edge_index, batch_size) on the CPU, and
`x[:batch.batch_size]` written `x.narrow(0, 0, batch.batch_size)` (slicing is not simulated).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn.functional as F

device = torch.device("cuda:0")

class SAGEConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_l = torch.nn.Linear(in_channels, out_channels)
        self.lin_r = torch.nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index.unbind(0)
        summed = torch.zeros_like(x).index_add_(0, dst, x.index_select(0, src))
        deg = torch.zeros(x.size(0), device=x.device).index_add_(
            0, dst, torch.ones(dst.numel(), device=x.device)).clamp(min=1)
        return self.lin_l(summed / deg.unsqueeze(-1)) + self.lin_r(x)

class SAGE(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels):
        super().__init__()
        self.convs = torch.nn.ModuleList()
        self.convs.append(SAGEConv(in_channels, hidden_channels))
        self.convs.append(SAGEConv(hidden_channels, out_channels))

    @torch.no_grad()
    def inference(self, x_all, subgraph_loader):
        for i, conv in enumerate(self.convs):
            xs = []
            for batch in subgraph_loader:
                x = x_all[batch.n_id.to(x_all.device)].to(device)
                x = conv(x, batch.edge_index.to(device))
                if i < len(self.convs) - 1:
                    x = x.relu_()
                xs.append(x.narrow(0, 0, batch.batch_size).cpu())
            x_all = torch.cat(xs, dim=0)
        return x_all

num_nodes, num_features, num_classes = 12, 16, 5
x = torch.randn(num_nodes, num_features)          # node features stay on the CPU for inference

def make_batch(seeds, neighbours):
    n_id = torch.tensor(seeds + neighbours)
    k = len(seeds)
    src = torch.arange(k, k + len(neighbours))
    dst = torch.arange(len(neighbours)) % k
    return SimpleNamespace(n_id=n_id, edge_index=torch.stack([src, dst]), batch_size=k)

subgraph_loader = [make_batch([0, 1, 2, 3], [5, 6, 7, 8, 9]),
                   make_batch([4, 5, 6, 7], [0, 1, 10, 11]),
                   make_batch([8, 9, 10, 11], [2, 3, 4])]
model = SAGE(num_features, 32, num_classes).to(device)
model.eval()
'''
CELL = '''
out = model.inference(x, subgraph_loader)
y_hat = out.argmax(dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
