"""HeterSumGraph: `G.to_device("cuda")` returns a moved graph that the script drops; the graph's features stay on the CPU.

Source: https://github.com/dqwang122/HeterSumGraph/issues/36
"需要将G.to_device("cuda")改为G=G.to_device("cuda")": without the assignment, training raised
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument index in method wrapper__index_select)". A DGL graph's
`.to()` is not in place: it returns a new graph whose `ndata` are on the device. Stand-in: a
graph object with DGL's out-of-place `to`; the summariser's word-node embedding lookup.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class DGLGraph:
    def __init__(self, ndata):
        self.ndata = dict(ndata)

    def to(self, device):
        return DGLGraph({k: v.to(device) for k, v in self.ndata.items()})

class HSumGraph(nn.Module):
    def __init__(self, vocab=200, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.sent_proj = nn.Linear(dim, 1)

    def forward(self, graph):
        word_feat = self.embed(graph.ndata["id"])
        sent_scores = self.sent_proj(word_feat * graph.ndata["dtype"].unsqueeze(-1))
        return sent_scores.squeeze(-1)

device = torch.device("cuda:0")
model = HSumGraph().to(device)
G = DGLGraph({"id": torch.randint(0, 200, (30,)), "dtype": torch.ones(30)})
G.to(device)
'''
CELL = '''
with torch.no_grad():
    outputs = model.forward(G)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["G"]
FIX = "namespace"
REFERENCE_FIX = '''
G = G.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
