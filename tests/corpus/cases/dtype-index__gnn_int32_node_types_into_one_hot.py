"""GNN node-type features: `F.one_hot` on the dataset's int32 node types.

Source: https://github.com/pytorch/pytorch/issues/86162
The reporter applied `torch.nn.functional.one_hot` to an int32 tensor and got "one_hot is only
applicable to index tensor" (now "... of type LongTensor"): `one_hot` accepts only int64. The
related request pytorch/pytorch#53785 gives the setting: graph datasets that store their few node
classes in small integer dtypes (uint8/int32) to save memory, which then have to be converted
before one-hot encoding. Stand-in: a molecule-like graph whose node types come from the dataset as
int32, one-hot encoded in the model's input featuriser.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_TYPES = 5

class TypeEmbeddingGNN(nn.Module):
    def __init__(self, num_types=NUM_TYPES, hidden=32):
        super().__init__()
        self.num_types = num_types
        self.lin_in = nn.Linear(num_types, hidden)
        self.lin_msg = nn.Linear(hidden, hidden)
        self.readout = nn.Linear(hidden, 1)

    def featurize(self, node_types):
        return F.one_hot(node_types, num_classes=self.num_types).float()

    def forward(self, node_types, edge_index):
        h = torch.relu(self.lin_in(self.featurize(node_types)))
        src, dst = edge_index
        agg = torch.zeros_like(h).index_add_(0, dst, self.lin_msg(h).index_select(0, src))
        h = torch.relu(h + agg)
        return self.readout(h.mean(dim=0))

# the dataset keeps node types compactly, as int32 (np.int32 arrays saved with the graphs)
graph = {"node_types": np.random.randint(0, NUM_TYPES, size=30).astype(np.int32),
         "edge_index": np.stack([np.arange(30), (np.arange(30) + 1) % 30])}
node_types = torch.from_numpy(graph["node_types"])
edge_index = torch.from_numpy(graph["edge_index"])
model = TypeEmbeddingGNN()
'''
CELL = '''
energy = model(node_types, edge_index)
'''
EXPECT_ERROR = "one_hot is only applicable to index tensor"
CULPRITS = ["node_types"]
FIX = "namespace"
REFERENCE_FIX = '''
node_types = node_types.long()
'''
REFERENCE_EDIT = None
CLEAN = False
