"""Look-alike: PyG GAE link-prediction test builds its labels with `z.new_ones/new_zeros` and scores on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/torch_geometric/nn/models/autoencoder.py
(used by examples/autoencoder.py). `GAE.test(z, pos_edge_index, neg_edge_index)` makes `pos_y =
z.new_ones(...)`, `neg_y = z.new_zeros(...)` on the embedding's device, decodes both edge sets with the
inner-product decoder, concatenates, then calls `y.detach().cpu().numpy()` / `pred.detach().cpu().numpy()`
for scikit-learn's `roc_auc_score` and `average_precision_score`. Stand-in: GCN encoder, the
InnerProductDecoder (node rows gathered with `index_select`), and a pairwise AUC / AP in torch on the CPU
in place of scikit-learn (the arrays stay tensors).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)

    def forward(self, x, edge_index):
        n = x.size(0)
        loop = torch.arange(n, device=edge_index.device)
        row, col = torch.cat([edge_index[0], loop]), torch.cat([edge_index[1], loop])
        deg = torch.zeros(n, device=x.device).index_add_(0, col, torch.ones(col.size(0), device=x.device))
        norm = deg.pow(-0.5).index_select(0, row) * deg.pow(-0.5).index_select(0, col)
        x = self.lin(x)
        return torch.zeros_like(x).index_add_(0, col, x.index_select(0, row) * norm.unsqueeze(-1))

class GCNEncoder(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv1 = GCNConv(in_channels, 2 * out_channels)
        self.conv2 = GCNConv(2 * out_channels, out_channels)

    def forward(self, x, edge_index):
        return self.conv2(F.relu(self.conv1(x, edge_index)), edge_index)

class InnerProductDecoder(nn.Module):
    def forward(self, z, edge_index, sigmoid=True):
        value = (z.index_select(0, edge_index[0]) * z.index_select(0, edge_index[1])).sum(dim=1)
        return torch.sigmoid(value) if sigmoid else value

def roc_auc_score(y, pred):
    # fraction of (positive, negative) pairs ranked correctly
    pairs = y.view(-1, 1) * (1 - y).view(1, -1)
    return ((pred.view(-1, 1) > pred.view(1, -1)).float() * pairs).sum() / pairs.sum()

def average_precision_score(y, pred):
    order = pred.argsort(descending=True)
    y_sorted = y[order]
    precision = y_sorted.cumsum(0) / torch.arange(1, y.numel() + 1)
    return (precision * y_sorted).sum() / y_sorted.sum()

class GAE(nn.Module):
    def __init__(self, encoder, decoder=None):
        super().__init__()
        self.encoder = encoder
        self.decoder = InnerProductDecoder() if decoder is None else decoder

    def encode(self, *args, **kwargs):
        return self.encoder(*args, **kwargs)

    def test(self, z, pos_edge_index, neg_edge_index):
        pos_y = z.new_ones(pos_edge_index.size(1))
        neg_y = z.new_zeros(neg_edge_index.size(1))
        y = torch.cat([pos_y, neg_y], dim=0)
        pos_pred = self.decoder(z, pos_edge_index, sigmoid=True)
        neg_pred = self.decoder(z, neg_edge_index, sigmoid=True)
        pred = torch.cat([pos_pred, neg_pred], dim=0)
        y, pred = y.detach().cpu(), pred.detach().cpu()
        return roc_auc_score(y, pred), average_precision_score(y, pred)

class Data:
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def to(self, device):
        return Data(**{k: v.to(device) for k, v in self.__dict__.items()})

torch.manual_seed(0)
n = 50
data = Data(x=torch.randn(n, 16), train_pos_edge_index=torch.randint(0, n, (2, 150)),
            test_pos_edge_index=torch.randint(0, n, (2, 20)), test_neg_edge_index=torch.randint(0, n, (2, 20)))

device = torch.device('cuda:0')
model = GAE(GCNEncoder(16, 8)).to(device)
x = data.x.to(device)
train_pos_edge_index = data.train_pos_edge_index.to(device)
data = data.to(device)
'''
CELL = '''
model.eval()
with torch.no_grad():
    z = model.encode(x, train_pos_edge_index)
    auc, ap = model.test(z, data.test_pos_edge_index, data.test_neg_edge_index)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
