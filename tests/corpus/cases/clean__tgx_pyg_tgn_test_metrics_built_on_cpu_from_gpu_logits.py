"""Look-alike: PyG's TGN example scores a GPU batch, then builds `y_pred` with `.cpu()` and `y_true` from plain `torch.ones`/`torch.zeros` on the CPU for the sklearn metrics.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/examples/tgn.py
In `test(loader)` the link predictor runs on the device, then
`y_pred = torch.cat([pos_out, neg_out], dim=0).sigmoid().cpu()` and
`y_true = torch.cat([torch.ones(pos_out.size(0)), torch.zeros(neg_out.size(0))], dim=0)` (CPU, no
device argument) go to `average_precision_score` / `roc_auc_score`: both sides are on the CPU on
purpose. Stand-ins: the batch embeddings the memory and GNN produced (`z[assoc[...]]` is written with
`index_select`, which the fake cuda supports), and torch versions of the two sklearn metrics.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch.nn import Linear


def average_precision_score(y_true, y_score):
    order = y_score.argsort(descending=True)
    y = y_true[order]
    precision = y.cumsum(0) / torch.arange(1, y.numel() + 1)
    return (precision * y).sum() / y.sum()


def roc_auc_score(y_true, y_score):
    ranks = y_score.argsort().argsort().float() + 1
    n_pos = y_true.sum()
    n_neg = y_true.numel() - n_pos
    return ((ranks * y_true).sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


class LinkPredictor(torch.nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.lin_src = Linear(in_channels, in_channels)
        self.lin_dst = Linear(in_channels, in_channels)
        self.lin_final = Linear(in_channels, 1)

    def forward(self, z_src, z_dst):
        h = self.lin_src(z_src) + self.lin_dst(z_dst)
        h = h.relu()
        return self.lin_final(h)


device = torch.device('cuda:0')
embedding_dim = 100
link_pred = LinkPredictor(in_channels=embedding_dim).to(device)

# one test batch: embeddings of its nodes from memory + gnn, and local ids of src / dst / neg_dst
z = torch.randn(120, embedding_dim, device=device)
src = torch.randint(0, 120, (200, ), device=device)
dst = torch.randint(0, 120, (200, ), device=device)
neg_dst = torch.randint(0, 120, (200, ), device=device)
aps, aucs = [], []
'''
CELL = '''
link_pred.eval()
with torch.no_grad():
    pos_out = link_pred(z.index_select(0, src), z.index_select(0, dst))
    neg_out = link_pred(z.index_select(0, src), z.index_select(0, neg_dst))

    y_pred = torch.cat([pos_out, neg_out], dim=0).sigmoid().cpu()
    y_true = torch.cat(
        [torch.ones(pos_out.size(0)),
         torch.zeros(neg_out.size(0))], dim=0)

    aps.append(average_precision_score(y_true, y_pred.view(-1)))
    aucs.append(roc_auc_score(y_true, y_pred.view(-1)))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
