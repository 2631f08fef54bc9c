"""PyTorch Geometric Temporal's GMAN TemporalAttention builds its causal mask and fill value on the CPU and feeds them to `torch.where` with GPU scores.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/pull/47
"device" PR (commit "gman device fixed"): with the GMAN model and its inputs on the GPU, the masked
temporal attention did `mask = torch.ones(num_step, num_step)` ... `condition =
torch.FloatTensor([-2 ** 15 + 1])` and `torch.where(mask, attention, condition)`, mixing CPU and
cuda:0 tensors. The PR moved both to `X.device` (and the one-hot day/time buffers of STEmbedding to
`SE.device`). Stand-in: one GMAN spatio-temporal block (spatial and masked temporal attention with
gated fusion) using nn.Linear for GMAN's 1x1-conv FullyConnected layers; the STE is given directly.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class FullyConnected(nn.Module):
    def __init__(self, input_dims, units, activation=F.relu):
        super().__init__()
        self.lin = nn.Linear(input_dims, units)
        self.activation = activation

    def forward(self, X):
        X = self.lin(X)
        return self.activation(X) if self.activation is not None else X

class SpatialAttention(nn.Module):
    def __init__(self, K, d):
        super().__init__()
        D = K * d
        self._d, self._K = d, K
        self._fully_connected_q = FullyConnected(2 * D, D)
        self._fully_connected_k = FullyConnected(2 * D, D)
        self._fully_connected_v = FullyConnected(2 * D, D)
        self._fully_connected = FullyConnected(D, D)

    def forward(self, X, STE):
        batch_size = X.shape[0]
        X = torch.cat((X, STE), dim=-1)
        query = torch.cat(torch.split(self._fully_connected_q(X), self._K, dim=-1), dim=0)
        key = torch.cat(torch.split(self._fully_connected_k(X), self._K, dim=-1), dim=0)
        value = torch.cat(torch.split(self._fully_connected_v(X), self._K, dim=-1), dim=0)
        attention = torch.matmul(query, key.transpose(2, 3)) / (self._d ** 0.5)
        attention = F.softmax(attention, dim=-1)
        X = torch.matmul(attention, value)
        X = torch.cat(torch.split(X, batch_size, dim=0), dim=-1)
        return self._fully_connected(X)

class TemporalAttention(nn.Module):
    def __init__(self, K, d, mask=True):
        super().__init__()
        D = K * d
        self._d, self._K, self._mask = d, K, mask
        self._fully_connected_q = FullyConnected(2 * D, D)
        self._fully_connected_k = FullyConnected(2 * D, D)
        self._fully_connected_v = FullyConnected(2 * D, D)
        self._fully_connected = FullyConnected(D, D)

    def forward(self, X, STE):
        batch_size = X.shape[0]
        X = torch.cat((X, STE), dim=-1)
        query = torch.cat(torch.split(self._fully_connected_q(X), self._K, dim=-1), dim=0)
        key = torch.cat(torch.split(self._fully_connected_k(X), self._K, dim=-1), dim=0)
        value = torch.cat(torch.split(self._fully_connected_v(X), self._K, dim=-1), dim=0)
        query = query.permute(0, 2, 1, 3)
        key = key.permute(0, 2, 3, 1)
        value = value.permute(0, 2, 1, 3)
        attention = torch.matmul(query, key)
        attention /= (self._d ** 0.5)
        if self._mask:
            batch_size = X.shape[0]
            num_step = X.shape[1]
            num_nodes = X.shape[2]
            mask = torch.ones(num_step, num_step)
            mask = torch.tril(mask)
            mask = torch.unsqueeze(torch.unsqueeze(mask, dim=0), dim=0)
            mask = mask.repeat(self._K * batch_size, num_nodes, 1, 1)
            mask = mask.to(torch.bool)
            condition = torch.FloatTensor([-2 ** 15 + 1])
            attention = torch.where(mask, attention, condition)
        attention = F.softmax(attention, dim=-1)
        X = torch.matmul(attention, value)
        X = X.permute(0, 2, 1, 3)
        X = torch.cat(torch.split(X, batch_size, dim=0), dim=-1)
        return self._fully_connected(X)

class GatedFusion(nn.Module):
    def __init__(self, D):
        super().__init__()
        self._fully_connected_xs = FullyConnected(D, D, activation=None)
        self._fully_connected_xt = FullyConnected(D, D, activation=None)
        self._fully_connected_h = FullyConnected(D, D, activation=None)

    def forward(self, HS, HT):
        z = torch.sigmoid(self._fully_connected_xs(HS) + self._fully_connected_xt(HT))
        return self._fully_connected_h(z * HS + (1 - z) * HT)

class SpatioTemporalAttention(nn.Module):
    def __init__(self, K, d, mask=True):
        super().__init__()
        self._spatial_attention = SpatialAttention(K, d)
        self._temporal_attention = TemporalAttention(K, d, mask=mask)
        self._gated_fusion = GatedFusion(K * d)

    def forward(self, X, STE):
        HS = self._spatial_attention(X, STE)
        HT = self._temporal_attention(X, STE)
        return X + self._gated_fusion(HS, HT)

device = torch.device("cuda:0")
K, d = 4, 4
batch_size, num_his, num_nodes = 2, 12, 10
model = SpatioTemporalAttention(K, d, mask=True).to(device)
X = torch.randn(batch_size, num_his, num_nodes, K * d).to(device)
STE = torch.randn(batch_size, num_his, num_nodes, K * d).to(device)
'''
CELL = '''
with torch.no_grad():
    H = model(X, STE)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model._temporal_attention"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            mask = torch.ones(num_step, num_step)
            mask = torch.tril(mask)
            mask = torch.unsqueeze(torch.unsqueeze(mask, dim=0), dim=0)
            mask = mask.repeat(self._K * batch_size, num_nodes, 1, 1)
            mask = mask.to(torch.bool)
            condition = torch.FloatTensor([-2 ** 15 + 1])""",
    """            mask = torch.ones(num_step, num_step).to(X.device)
            mask = torch.tril(mask)
            mask = torch.unsqueeze(torch.unsqueeze(mask, dim=0), dim=0)
            mask = mask.repeat(self._K * batch_size, num_nodes, 1, 1)
            mask = mask.to(torch.bool)
            condition = torch.FloatTensor([-2 ** 15 + 1]).to(X.device)""",
)
CLEAN = False
