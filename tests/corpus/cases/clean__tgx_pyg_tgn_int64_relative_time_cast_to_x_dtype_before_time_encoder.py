"""Look-alike: PyG's TGN example feeds int64 event times through a Linear time encoder, casting the relative times to the embedding dtype first.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/examples/tgn.py
JODIE's `TemporalData.t` and TGNMemory's `last_update` are int64; `GraphAttentionEmbedding.forward`
computes `rel_t = last_update[edge_index[0]] - t` (int64) and calls
`self.time_enc(rel_t.to(x.dtype))` before concatenating it with the float messages into
`edge_attr` for TransformerConv. The cast makes the int64 times safe for TimeEncoder's Linear.
Stand-ins: TimeEncoder as in torch_geometric/nn/models/tgn.py and a single-head, edge-conditioned
TransformerConv reduced to its key/query/value/edge projections with a scatter softmax.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch.nn import Linear


class TimeEncoder(torch.nn.Module):
    def __init__(self, out_channels):
        super().__init__()
        self.out_channels = out_channels
        self.lin = Linear(1, out_channels)

    def forward(self, t):
        return self.lin(t.view(-1, 1)).cos()


class TransformerConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, heads=1, dropout=0.0, edge_dim=None):
        super().__init__()
        self.lin_key = Linear(in_channels, heads * out_channels)
        self.lin_query = Linear(in_channels, heads * out_channels)
        self.lin_value = Linear(in_channels, heads * out_channels)
        self.lin_edge = Linear(edge_dim, heads * out_channels, bias=False)
        self.lin_skip = Linear(in_channels, heads * out_channels)

    def forward(self, x, edge_index, edge_attr):
        src, dst = edge_index
        e = self.lin_edge(edge_attr)
        key = self.lin_key(x)[src] + e
        value = self.lin_value(x)[src] + e
        query = self.lin_query(x)[dst]
        alpha = (query * key).sum(-1) / key.size(-1) ** 0.5
        alpha = (alpha - alpha.max()).exp()
        denom = torch.zeros(x.size(0)).index_add(0, dst, alpha)
        alpha = alpha / denom[dst]
        out = torch.zeros(x.size(0), value.size(-1)).index_add(0, dst, value * alpha.view(-1, 1))
        return out + self.lin_skip(x)


class GraphAttentionEmbedding(torch.nn.Module):
    def __init__(self, in_channels, out_channels, msg_dim, time_enc):
        super().__init__()
        self.time_enc = time_enc
        edge_dim = msg_dim + time_enc.out_channels
        self.conv = TransformerConv(in_channels, out_channels, heads=1,
                                    dropout=0.1, edge_dim=edge_dim)

    def forward(self, x, last_update, edge_index, t, msg):
        rel_t = last_update[edge_index[0]] - t
        rel_t_enc = self.time_enc(rel_t.to(x.dtype))
        edge_attr = torch.cat([rel_t_enc, msg], dim=-1)
        return self.conv(x, edge_index, edge_attr)


memory_dim = time_dim = embedding_dim = 100
num_events, msg_dim = 300, 172


class TemporalData:
    def __init__(self, src, dst, t, msg):
        self.src, self.dst, self.t, self.msg = src, dst, t, msg


data = TemporalData(src=torch.randint(0, 50, (num_events, )), dst=torch.randint(0, 50, (num_events, )),
                    t=torch.sort(torch.randint(0, 2_000_000, (num_events, ))).values,   # int64, as in JODIE
                    msg=torch.randn(num_events, msg_dim))

time_enc = TimeEncoder(time_dim)
gnn = GraphAttentionEmbedding(in_channels=memory_dim, out_channels=embedding_dim,
                              msg_dim=msg_dim, time_enc=time_enc)

# one batch: memory of its 50 nodes, their int64 last_update, sampled edges and their event ids
z = torch.randn(50, memory_dim)
last_update = torch.randint(0, 2_000_000, (50, ))
edge_index = torch.randint(0, 50, (2, 120))
e_id = torch.randint(0, num_events, (120, ))
'''
CELL = '''
z = gnn(z, last_update, edge_index, data.t[e_id], data.msg[e_id])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
