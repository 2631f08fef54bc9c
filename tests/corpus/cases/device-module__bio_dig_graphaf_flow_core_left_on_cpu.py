"""DIG GraphAF benchmark on a GPU: `GraphFlowModel` puts its base distribution on cuda but leaves `flow_core` on the CPU.

Source: https://github.com/divelab/DIG/issues/38
Running the GraphAF random-generation benchmark (`run_rand_gen.py --train --data=qm9`) on a GPU failed
because "in line 32 of graphflow.py, the model MaskedGraphAF still uses CPU"; the reporter fixed it
with `self.flow_core = self.flow_core.cuda()`. `GraphFlowModel` creates its learnable base
log-probabilities directly on cuda when `use_gpu` is set, and the batches are moved to cuda, but the
flow core (built on the CPU, wrapped in DataParallel in DIG) is never moved. Stand-in: a one-layer
masked flow core (DataParallel left out: without GPUs it only calls the module) and the model.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class MaskedGraphAF(nn.Module):
    def __init__(self, max_size=9, node_dim=4, hid=16):
        super().__init__()
        self.node_st = nn.Linear(max_size * node_dim, max_size * node_dim)
        self.adj_st = nn.Linear(max_size * max_size, hid)
    def forward(self, x, adj):
        b = x.shape[0]
        z_node = self.node_st(x.reshape(b, -1))
        z_edge = self.adj_st(adj.reshape(b, -1))
        return z_node, z_edge

class GraphFlowModel(nn.Module):
    def __init__(self, model_conf):
        super().__init__()
        self.max_size = model_conf["max_size"]
        self.node_dim = model_conf["node_dim"]
        self.use_gpu = model_conf["use_gpu"]
        self.flow_core = MaskedGraphAF(self.max_size, self.node_dim)
        if self.use_gpu:
            self.node_base_log_probs = nn.Parameter(torch.randn(self.max_size, self.node_dim, device="cuda:0"))
        else:
            self.node_base_log_probs = nn.Parameter(torch.randn(self.max_size, self.node_dim))

    def forward(self, inp_node_features, inp_adj_features):
        z_node, z_edge = self.flow_core(inp_node_features, inp_adj_features)
        return z_node.reshape(-1, self.max_size, self.node_dim) + self.node_base_log_probs, z_edge

model_conf = {"max_size": 9, "node_dim": 4, "use_gpu": True}
model = GraphFlowModel(model_conf)
device = torch.device("cuda:0")
inp_node_features = torch.rand(8, 9, 4)
inp_adj_features = torch.rand(8, 9, 9)
'''
CELL = '''
out_z, out_logdet = model(inp_node_features.to(device), inp_adj_features.to(device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.flow_core"]
FIX = "namespace"
REFERENCE_FIX = '''
model.flow_core = model.flow_core.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
