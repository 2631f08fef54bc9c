"""rtdl_num_embeddings: bins computed on the CPU, `PiecewiseLinearEmbeddings` moved to the device; the bin tensors are copied into buffers.

Source: https://github.com/yandex-research/rtdl-num-embeddings/blob/main/package/rtdl_num_embeddings.py
`compute_bins(X_train)` is usually run on the CPU copy of the training data, and the resulting
`bins` list of CPU tensors stays in the notebook. `_PiecewiseLinearEncodingImpl.__init__` turns the
edges into the registered buffers `weight`/`bias` (and `single_bin_mask`/`mask`), so `.to(device)`
moves everything the forward pass reads; the CPU `bins` are never used again.
Look-alike: a list of CPU tensors next to a model and a batch on the other device; it runs.
Stand-in: `compute_bins` reduced to quantile bins (no tree-based bins), `_NLinear` as a batched
matmul, version "A" only; the meta device stands in for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def compute_bins(X, n_bins=48):
    bins = [q.unique() for q in torch.quantile(X, torch.linspace(0.0, 1.0, n_bins + 1).to(X), dim=0).T]
    return bins

class _PiecewiseLinearEncodingImpl(nn.Module):
    def __init__(self, bins):
        super().__init__()
        n_features = len(bins)
        n_bins = [len(x) - 1 for x in bins]
        max_n_bins = max(n_bins)
        self.register_buffer("weight", torch.zeros(n_features, max_n_bins))
        self.register_buffer("bias", torch.zeros(n_features, max_n_bins))
        single_bin_mask = torch.tensor(n_bins) == 1
        self.register_buffer("single_bin_mask", single_bin_mask if single_bin_mask.any() else None)
        self.register_buffer(
            "mask",
            None if all(len(x) == len(bins[0]) for x in bins) else torch.row_stack([
                torch.cat([torch.ones((len(x) - 1) - 1, dtype=torch.bool),
                           torch.zeros(max_n_bins - (len(x) - 1), dtype=torch.bool),
                           torch.ones(1, dtype=torch.bool)])
                for x in bins]),
        )
        for i, bin_edges in enumerate(bins):
            bin_width = bin_edges.diff()
            w = 1.0 / bin_width
            b = -bin_edges[:-1] / bin_width
            self.weight[i, -1] = w[-1]
            self.bias[i, -1] = b[-1]
            self.weight[i, : n_bins[i] - 1] = w[:-1]
            self.bias[i, : n_bins[i] - 1] = b[:-1]

    def get_max_n_bins(self):
        return self.weight.shape[-1]

    def forward(self, x):
        x = torch.addcmul(self.bias, self.weight, x[..., None])
        if x.shape[-1] > 1:
            x = torch.cat([
                x[..., :1].clamp_max(1.0),
                x[..., 1:-1].clamp(0.0, 1.0),
                (x[..., -1:].clamp_min(0.0) if self.single_bin_mask is None
                 else torch.where(self.single_bin_mask[..., None], x[..., -1:], x[..., -1:].clamp_min(0.0))),
            ], dim=-1)
        return x

class _NLinear(nn.Module):
    def __init__(self, n, in_features, out_features, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n, in_features, out_features) * in_features ** -0.5)
        self.bias = nn.Parameter(torch.zeros(n, out_features)) if bias else None

    def forward(self, x):
        x = (x[..., None, :] @ self.weight).squeeze(-2)
        return x if self.bias is None else x + self.bias

class PiecewiseLinearEmbeddings(nn.Module):
    def __init__(self, bins, d_embedding, *, activation, version="A"):
        super().__init__()
        self.linear0 = None
        self.impl = _PiecewiseLinearEncodingImpl(bins)
        self.linear = _NLinear(len(bins), self.impl.get_max_n_bins(), d_embedding, bias=True)
        self.activation = nn.ReLU() if activation else None

    def forward(self, x):
        x = self.linear(self.impl(x))
        return x if self.activation is None else self.activation(x)

device = torch.device("meta")                    # "cuda" in a real notebook
X_train = torch.randn(1000, 6)
bins = compute_bins(X_train)                     # list of CPU tensors, kept around
num_embeddings = PiecewiseLinearEmbeddings(bins, d_embedding=16, activation=False, version="A")
backbone = nn.Sequential(nn.Flatten(), nn.Linear(6 * 16, 64), nn.ReLU(), nn.Linear(64, 1))
model = nn.Sequential(num_embeddings, backbone).to(device)
x_batch = torch.randn(256, 6).to(device)
'''
CELL = '''
y_pred = model(x_batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
