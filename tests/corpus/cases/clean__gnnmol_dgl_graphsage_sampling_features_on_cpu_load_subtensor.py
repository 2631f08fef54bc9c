"""Look-alike: DGL GraphSAGE `train_sampling.py` keeps the full node features and labels on the CPU and moves each mini-batch.

Source: https://github.com/dmlc/dgl/issues/3422
The GraphSAGE sampling example (the script in that report) keeps `nfeat` / `labels` of the whole graph
in CPU memory and, per step, `load_subtensor(nfeat, labels, seeds, input_nodes, device)` copies only
the rows of the sampled nodes to the GPU before `model(blocks, batch_inputs)`. Stand-in: the sampled
blocks reduced to dense mean-aggregation matrices built on the CPU and moved like `blocks =
[block.int().to(device) for block in blocks]`; SAGE layers as Linear on [self, neigh-mean].
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch as th
import torch.nn as nn
import torch.nn.functional as F

class SAGEConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.fc_self = nn.Linear(in_feats, out_feats)
        self.fc_neigh = nn.Linear(in_feats, out_feats)

    def forward(self, block, h):
        h_dst = h.narrow(0, 0, block.shape[0])
        h_neigh = th.matmul(block, h)                 # mean over sampled in-neighbours
        return self.fc_self(h_dst) + self.fc_neigh(h_neigh)

class SAGE(nn.Module):
    def __init__(self, in_feats, n_hidden, n_classes):
        super().__init__()
        self.layers = nn.ModuleList([SAGEConv(in_feats, n_hidden), SAGEConv(n_hidden, n_classes)])

    def forward(self, blocks, x):
        h = x
        for l, (layer, block) in enumerate(zip(self.layers, blocks)):
            h = layer(block, h)
            if l != len(self.layers) - 1:
                h = F.relu(h)
        return h

def load_subtensor(nfeat, labels, seeds, input_nodes, device):
    batch_inputs = nfeat[input_nodes].to(device)
    batch_labels = labels[seeds].to(device)
    return batch_inputs, batch_labels

def sample_blocks(seeds, n_input):
    # MultiLayerFullNeighborSampler stand-in: row-normalised sampled adjacency per layer (CPU)
    n_mid = 2 * len(seeds)
    b0 = th.rand(n_mid, n_input)
    b1 = th.rand(len(seeds), n_mid)
    return [b0 / b0.sum(1, keepdim=True), b1 / b1.sum(1, keepdim=True)]

device = th.device("cuda:0")
num_nodes, in_feats, n_classes = 200, 16, 5
nfeat = th.randn(num_nodes, in_feats)            # g.ndata.pop('features'), kept on the CPU
labels = th.randint(0, n_classes, (num_nodes,))  # g.ndata.pop('labels')
model = SAGE(in_feats, 32, n_classes)
model = model.to(device)
loss_fcn = nn.CrossEntropyLoss()

seeds = th.randperm(num_nodes)[:8]
input_nodes = th.randperm(num_nodes)[:40]
blocks = sample_blocks(seeds, len(input_nodes))
'''
CELL = '''
blocks = [block.to(device) for block in blocks]
batch_inputs, batch_labels = load_subtensor(nfeat, labels, seeds, input_nodes, device)
with th.no_grad():
    batch_pred = model(blocks, batch_inputs)
    loss = loss_fcn(batch_pred, batch_labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
