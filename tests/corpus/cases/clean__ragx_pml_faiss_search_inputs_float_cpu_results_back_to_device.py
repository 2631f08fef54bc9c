"""Look-alike: pytorch-metric-learning hands fp16 cuda embeddings to FAISS as float32 CPU arrays and brings the neighbours back to the device.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/blob/master/src/pytorch_metric_learning/utils/inference.py
`add_to_index_and_search` does `index.add(reference.float().cpu())` and `index.search(query.float().cpu(), k)`;
the distances and indices come back as numpy and are turned into tensors on the query's device. Half-precision
cuda embeddings, float32 CPU copies and int64 indices side by side, on purpose: nothing to report.
Stand-in: a brute-force inner-product index (no faiss); embeddings from a half model on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class IndexFlatIP:
    def __init__(self, d):
        self.d, self.xb = d, torch.empty(0, d)
    def add(self, x):
        assert x.device.type == "cpu" and x.dtype == torch.float32
        self.xb = torch.cat([self.xb, x])
    def search(self, x, k):
        assert x.device.type == "cpu" and x.dtype == torch.float32
        return torch.topk(x @ self.xb.t(), k, dim=1)

def add_to_index_and_search(index, query, reference, k):
    if reference is not None:
        index.add(reference.float().cpu())
    return index.search(query.float().cpu(), k)

def get_knn(reference, query, k):
    device = query.device
    index = IndexFlatIP(reference.shape[1])
    distances, indices = add_to_index_and_search(index, query, reference, k)
    return distances.to(device), indices.to(device)

trunk = nn.Linear(24, 16).half().to("cuda:0")
with torch.no_grad():
    reference = trunk(torch.randn(50, 24).half().to("cuda:0"))
    query = trunk(torch.randn(5, 24).half().to("cuda:0"))
'''
CELL = '''
distances, indices = get_knn(reference, query, k=3)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
