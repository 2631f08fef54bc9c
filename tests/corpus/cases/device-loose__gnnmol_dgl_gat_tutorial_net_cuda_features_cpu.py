"""DGL GAT tutorial (9_gat.py) on CUDA: `net = net.cuda()` but the Cora `features` stay on the CPU.

Source: https://github.com/dmlc/dgl/issues/461
"does dgl support CUDA computation?": the user ran the GAT tutorial with `net = net.cuda()` and got
"Expected object of backend CPU but got backend CUDA for argument #2 'mat2'" in the first `fc` of
`GATLayer`. The maintainer: "Did you also add `features=features.cuda()`?" - "Thanks! That's the
problem!". Stand-in: the tutorial's GATLayer / MultiHeadGATLayer / GAT with DGL's message passing
written densely over a registered adjacency mask (moved with the net), a random Cora-sized-down graph.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class GATLayer(nn.Module):
    def __init__(self, adj, in_dim, out_dim):
        super(GATLayer, self).__init__()
        self.register_buffer("adj", adj)                 # self.g = g
        self.fc = nn.Linear(in_dim, out_dim, bias=False)
        self.attn_fc = nn.Linear(2 * out_dim, 1, bias=False)

    def forward(self, h):
        z = self.fc(h)
        n = z.shape[0]
        z2 = torch.cat([z.unsqueeze(1).expand(n, n, -1), z.unsqueeze(0).expand(n, n, -1)], dim=-1)
        e = F.leaky_relu(self.attn_fc(z2).squeeze(-1))   # edge_attention
        e = e.masked_fill(self.adj == 0, float("-inf"))
        alpha = F.softmax(e, dim=1)                      # reduce_func
        return alpha @ z

class MultiHeadGATLayer(nn.Module):
    def __init__(self, adj, in_dim, out_dim, num_heads, merge='cat'):
        super(MultiHeadGATLayer, self).__init__()
        self.heads = nn.ModuleList([GATLayer(adj, in_dim, out_dim) for i in range(num_heads)])
        self.merge = merge

    def forward(self, h):
        head_outs = [attn_head(h) for attn_head in self.heads]
        if self.merge == 'cat':
            return torch.cat(head_outs, dim=1)
        return torch.mean(torch.stack(head_outs))

class GAT(nn.Module):
    def __init__(self, adj, in_dim, hidden_dim, out_dim, num_heads):
        super(GAT, self).__init__()
        self.layer1 = MultiHeadGATLayer(adj, in_dim, hidden_dim, num_heads)
        self.layer2 = MultiHeadGATLayer(adj, hidden_dim * num_heads, out_dim, 1)

    def forward(self, h):
        h = self.layer1(h)
        h = F.elu(h)
        h = self.layer2(h)
        return h

# load_cora_data(), reduced
num_nodes, num_feats = 30, 50
adj = ((torch.rand(num_nodes, num_nodes) > 0.8) | torch.eye(num_nodes, dtype=torch.bool)).float()
features = torch.rand(num_nodes, num_feats)
labels = torch.randint(0, 7, (num_nodes,))
mask = torch.zeros(num_nodes, dtype=torch.bool)

net = GAT(adj, in_dim=features.size()[1], hidden_dim=8, out_dim=7, num_heads=2)
net = net.to("cuda:0")                                   # net = net.cuda()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
'''
CELL = '''
with torch.no_grad():
    logits = net(features)
    logp = F.log_softmax(logits, 1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["features"]
FIX = "namespace"
REFERENCE_FIX = '''
features = features.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
