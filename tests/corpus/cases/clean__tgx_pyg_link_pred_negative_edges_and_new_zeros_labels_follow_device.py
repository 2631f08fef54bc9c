"""Look-alike: PyG's link_pred example samples negative edges and builds their zero labels inside the training step, with no explicit device.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/examples/link_pred.py
`train()` calls `negative_sampling(edge_index=train_data.edge_index, ...)` every epoch and builds
`edge_label = torch.cat([train_data.edge_label, train_data.edge_label.new_zeros(neg_edge_index.size(1))])`.
Both follow the data's device: negative_sampling samples on the CPU and returns
`.to(edge_index.device)` (torch_geometric/utils/negative_sampling.py), and `new_zeros` inherits
`edge_label`'s device. Stand-ins: Data, a dense-normalised GCNConv, and negative_sampling without
the positive-edge filtering. The GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch


class Data:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    @property
    def num_nodes(self):
        return self.x.size(0)

    def to(self, device):
        return Data(**{k: v.to(device) if torch.is_tensor(v) else v for k, v in self.__dict__.items()})


def negative_sampling(edge_index, num_nodes, num_neg_samples, method='sparse'):
    # 'sparse': sample candidate pairs on the CPU, then move them to edge_index's device
    rnd = torch.randint(num_nodes * num_nodes, (num_neg_samples, ), device='cpu')
    neg_idx = rnd.to(edge_index.device)
    row, col = neg_idx // num_nodes, neg_idx % num_nodes
    return torch.stack([row, col], dim=0)


class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = torch.nn.Linear(in_channels, out_channels)

    def forward(self, x, edge_index):
        row, col = edge_index
        w = torch.ones(edge_index.size(1), device=edge_index.device)
        deg = torch.zeros(x.size(0), device=x.device).scatter_add_(0, col, w)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt = deg_inv_sqrt.masked_fill(deg_inv_sqrt == float('inf'), 0)
        norm = deg_inv_sqrt[row] * w * deg_inv_sqrt[col]
        h = self.lin(x)
        return torch.zeros_like(h).index_add_(0, col, h[row] * norm.view(-1, 1))


class Net(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels):
        super().__init__()
        self.conv1 = GCNConv(in_channels, hidden_channels)
        self.conv2 = GCNConv(hidden_channels, out_channels)

    def encode(self, x, edge_index):
        x = self.conv1(x, edge_index).relu()
        return self.conv2(x, edge_index)

    def decode(self, z, edge_label_index):
        return (z[edge_label_index[0]] * z[edge_label_index[1]]).sum(dim=-1)


device = torch.device('meta')   # the GPU, simulated with meta
num_nodes, num_features = 60, 16
edge_index = torch.randint(0, num_nodes, (2, 240))
data = Data(x=torch.rand(num_nodes, num_features), edge_index=edge_index[:, :200],
            edge_label_index=edge_index[:, 200:], edge_label=torch.ones(40))
train_data = data.to(device)   # T.ToDevice(device) before RandomLinkSplit

model = Net(num_features, 128, 64).to(device)
optimizer = torch.optim.Adam(params=model.parameters(), lr=0.01)
criterion = torch.nn.BCEWithLogitsLoss()
'''
CELL = '''
model.train()
optimizer.zero_grad()
z = model.encode(train_data.x, train_data.edge_index)

# We perform a new round of negative sampling for every training epoch:
neg_edge_index = negative_sampling(
    edge_index=train_data.edge_index, num_nodes=train_data.num_nodes,
    num_neg_samples=train_data.edge_label_index.size(1), method='sparse')

edge_label_index = torch.cat(
    [train_data.edge_label_index, neg_edge_index],
    dim=-1,
)
edge_label = torch.cat([
    train_data.edge_label,
    train_data.edge_label.new_zeros(neg_edge_index.size(1))
], dim=0)

out = model.decode(z, edge_label_index).view(-1)
loss = criterion(out, edge_label)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
