"""PyG RandomLinkSplit on a graph already on the GPU: the sampled negative edges are created on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/issues/3641
Following examples/link_pred.py with `T.ToDevice(device)` before `T.RandomLinkSplit(...)`,
`train_data, val_data, test_data = transform(data)` failed with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu!" at `torch.cat([edge_index,
neg_edge_index], dim=-1)`: negative sampling builds its edges on the CPU. The fix makes the sampled
edges follow `edge_index.device`. Stand-in: a Data-like object, a python-random negative sampler and
the transform's `_create_label` step, for one split.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import random
import torch

class Data:
    def __init__(self, x, edge_index):
        self.x, self.edge_index = x, edge_index

    @property
    def num_nodes(self):
        return self.x.shape[0]

def negative_sampling(edge_index, num_nodes, num_neg_samples):
    rows = [random.randrange(num_nodes) for _ in range(num_neg_samples)]
    cols = [random.randrange(num_nodes) for _ in range(num_neg_samples)]
    return torch.tensor([rows, cols], dtype=torch.long)

class RandomLinkSplit:
    def __init__(self, num_val=0.05, num_test=0.1, neg_sampling_ratio=1.0):
        self.num_val, self.num_test, self.neg_sampling_ratio = num_val, num_test, neg_sampling_ratio

    def _create_label(self, data, edge_index, neg_edge_index):
        edge_label = torch.ones(edge_index.size(1), device=edge_index.device)
        edge_index = torch.cat([edge_index, neg_edge_index], dim=-1)
        edge_label = torch.cat([edge_label, torch.zeros(neg_edge_index.size(1), device=neg_edge_index.device)])
        return Data(data.x, edge_index), edge_label

    def __call__(self, data):
        num_neg = int(self.neg_sampling_ratio * data.edge_index.size(1))
        neg_edge_index = negative_sampling(data.edge_index, data.num_nodes, num_neg)
        return self._create_label(data, data.edge_index, neg_edge_index)

device = torch.device("cuda:0")
data = Data(torch.randn(50, 16), torch.randint(0, 50, (2, 200)))
data = Data(data.x.to(device), data.edge_index.to(device))   # T.ToDevice(device)
transform = RandomLinkSplit(num_val=0.05, num_test=0.1)
'''
CELL = '''
train_data, edge_label = transform(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["neg_edge_index"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        neg_edge_index = negative_sampling(data.edge_index, data.num_nodes, num_neg)\n",
    "        neg_edge_index = negative_sampling(data.edge_index, data.num_nodes, num_neg).to(data.edge_index.device)\n",
)
CLEAN = False
