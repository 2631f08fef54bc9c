"""Look-alike: DGL's NodeEmbedding keeps the full node-embedding table in CPU memory and pulls the mini-batch rows to the GPU.

Source: https://github.com/dmlc/dgl/blob/master/python/dgl/nn/pytorch/sparse_emb.py
`dgl.nn.NodeEmbedding(num_nodes, dim, name, init_func)` stores `self._tensor` in (shared) CPU memory on
purpose (it is meant for millions of nodes) and is not an `nn.Module`; `emb(nids, device)` returns
`self._tensor[nids].to(device)` and records the rows for the sparse optimizer. The docstring's loop
`feats = emb(nids, gpu_0)` feeds a model on the GPU with CPU-sampled `nids`. Stand-in: NodeEmbedding's
CPU path (no process group, plain tensor instead of shared memory) and a small MLP head on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch as th
import torch.nn as nn

class NodeEmbedding:
    def __init__(self, num_embeddings, embedding_dim, name, init_func=None, device=None):
        if device is None:
            device = th.device("cpu")
        self._comm = None
        emb = th.empty(num_embeddings, embedding_dim)          # create_shared_mem_array(name, ...)
        if init_func is not None:
            emb = init_func(emb)
        self._tensor = emb
        self._num_embeddings, self._embedding_dim, self._name = num_embeddings, embedding_dim, name
        self._trace = []

    def __call__(self, node_ids, device=th.device("cpu")):
        emb = self._tensor[node_ids].to(device)
        if th.is_grad_enabled():
            emb.requires_grad_(True)
            self._trace.append((node_ids.to(device), emb))
        return emb

    @property
    def weight(self):
        return self._tensor

def initializer(emb):
    th.nn.init.xavier_uniform_(emb)
    return emb

num_nodes = 1000
emb = NodeEmbedding(num_nodes, 16, "emb", init_func=initializer)
gpu_0 = th.device("cuda:0")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(gpu_0)
# mini-batches of seed nodes as a DGL dataloader yields them (on the CPU)
dataloader = [(th.randint(0, num_nodes, (64,)), th.randint(0, 4, (64,))) for _ in range(3)]
'''
CELL = '''
for nids, labels in dataloader:
    feats = emb(nids, gpu_0)
    logits = model(feats)
    loss = nn.functional.cross_entropy(logits, labels.to(gpu_0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
