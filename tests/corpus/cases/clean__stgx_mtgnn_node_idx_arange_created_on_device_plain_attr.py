"""Look-alike: MTGNN keeps the node index `self.idx` as a plain tensor attribute, made with `.to(device)` in `__init__`, and the trainer's StandardScaler uses numpy float mean/std on GPU outputs.

Source: https://github.com/nnzhan/MTGNN/blob/master/net.py
`gtnet.__init__(gcn_true, buildA_true, gcn_depth, num_nodes, device, ...)` ends with `self.idx =
torch.arange(self.num_nodes).to(device)`: not a buffer, but created on the device the model is moved
to; `forward(input, idx=None)` passes it to the graph learner (`nn.Embedding` lookups) when no
sub-graph `idx` is given. `Trainer.eval` then un-scales the GPU output with the scaler's numpy
float mean/std and computes `masked_mae(predict, real, 0.0)`. Runs on the GPU. Stand-in: the graph
constructor, a single mix-hop propagation layer and the output convs.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class graph_constructor(nn.Module):
    def __init__(self, nnodes, k, dim, device, alpha=3):
        super().__init__()
        self.emb1 = nn.Embedding(nnodes, dim)
        self.emb2 = nn.Embedding(nnodes, dim)
        self.lin1 = nn.Linear(dim, dim)
        self.lin2 = nn.Linear(dim, dim)
        self.device, self.k, self.alpha = device, k, alpha

    def forward(self, idx):
        nodevec1 = torch.tanh(self.alpha * self.lin1(self.emb1(idx)))
        nodevec2 = torch.tanh(self.alpha * self.lin2(self.emb2(idx)))
        a = torch.mm(nodevec1, nodevec2.transpose(1, 0)) - torch.mm(nodevec2, nodevec1.transpose(1, 0))
        return F.relu(torch.tanh(self.alpha * a))

class mixprop(nn.Module):
    def __init__(self, c_in, c_out, gdep, alpha=0.05):
        super().__init__()
        self.mlp = nn.Conv2d((gdep + 1) * c_in, c_out, kernel_size=(1, 1))
        self.gdep, self.alpha = gdep, alpha

    def forward(self, x, adj):
        adj = adj + torch.eye(adj.size(0)).to(x.device)
        a = adj / adj.sum(1).view(-1, 1)
        h, out = x, [x]
        for i in range(self.gdep):
            h = self.alpha * x + (1 - self.alpha) * torch.einsum('ncwl,vw->ncvl', (h, a))
            out.append(h)
        return self.mlp(torch.cat(out, dim=1))

class gtnet(nn.Module):
    def __init__(self, gcn_depth, num_nodes, device, node_dim=10, seq_length=12, in_dim=2, out_dim=12,
                 conv_channels=16, end_channels=32):
        super().__init__()
        self.num_nodes = num_nodes
        self.start_conv = nn.Conv2d(in_dim, conv_channels, kernel_size=(1, 1))
        self.gc = graph_constructor(num_nodes, 5, node_dim, device)
        self.gconv1 = mixprop(conv_channels, conv_channels, gcn_depth)
        self.end_conv_1 = nn.Conv2d(conv_channels, end_channels, kernel_size=(1, seq_length))
        self.end_conv_2 = nn.Conv2d(end_channels, out_dim, kernel_size=(1, 1))
        self.idx = torch.arange(self.num_nodes).to(device)

    def forward(self, input, idx=None):
        adp = self.gc(self.idx) if idx is None else self.gc(idx)
        x = self.start_conv(input)
        x = F.relu(self.gconv1(x, adp))
        x = F.relu(self.end_conv_1(x))
        return self.end_conv_2(x)

class StandardScaler():
    def __init__(self, mean, std):
        self.mean, self.std = mean, std
    def inverse_transform(self, data):
        return (data * self.std) + self.mean

def masked_mae(preds, labels, null_val=np.nan):
    if np.isnan(null_val):
        mask = ~torch.isnan(labels)
    else:
        mask = (labels != null_val)
    mask = mask.float()
    mask /= torch.mean((mask))
    mask = torch.where(torch.isnan(mask), torch.zeros_like(mask), mask)
    loss = torch.abs(preds - labels) * mask
    loss = torch.where(torch.isnan(loss), torch.zeros_like(loss), loss)
    return torch.mean(loss)

num_nodes = 20
train_x = np.random.rand(64, 12, num_nodes, 2) * 70
scaler = StandardScaler(mean=train_x[..., 0].mean(), std=train_x[..., 0].std())
device = torch.device("cuda:0")
model = gtnet(gcn_depth=2, num_nodes=num_nodes, device=device)
model.to(device)
x = np.random.randn(8, 12, num_nodes, 2).astype(np.float32)
y = (np.random.rand(8, 12, num_nodes, 2) * 70).astype(np.float32)
'''
CELL = '''
model.eval()
with torch.no_grad():
    testx = torch.Tensor(x).to(device).transpose(1, 3)
    testy = torch.Tensor(y).to(device).transpose(1, 3)
    output = model(testx).transpose(1, 3)
    real = torch.unsqueeze(testy[:, 0, :, :], dim=1)
    predict = scaler.inverse_transform(output)
    loss = masked_mae(predict, real, 0.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
