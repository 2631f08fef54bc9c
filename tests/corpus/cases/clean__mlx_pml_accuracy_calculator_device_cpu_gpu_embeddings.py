"""Look-alike: pytorch-metric-learning AccuracyCalculator(device=cpu) evaluating embeddings computed on the GPU.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/blob/master/src/pytorch_metric_learning/utils/accuracy_calculator.py
`AccuracyCalculator(include=("precision_at_1",), k=1, device=torch.device("cpu"))` is the documented
way to keep the k-NN search off the GPU (the maintainer's advice when faiss-gpu runs out of memory).
`get_accuracy()` converts every input itself:
`[query, reference, query_labels, reference_labels] = [c_f.numpy_to_torch(x).to(self.device).type(torch.float) ...]`,
so GPU embeddings and GPU labels meet CPU tensors only after that move. It runs.
Stand-ins: AccuracyCalculator reduced to precision_at_1 (returned as a tensor, no `.item()`), a
torch k-NN (`torch.cdist` + `topk`) instead of FaissKNN, and a tiny trunk/embedder pair as in the
library's examples.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class CustomKNN:
    """Stand-in for pytorch_metric_learning.utils.inference.CustomKNN (LpDistance)."""
    def __call__(self, query, k, reference, ref_includes_query=False):
        if ref_includes_query:
            k = k + 1
        distances = torch.cdist(query, reference)
        distances, indices = torch.topk(distances, k, largest=False, dim=1)
        if ref_includes_query:
            return distances[:, 1:], indices[:, 1:]
        return distances, indices

class AccuracyCalculator:
    def __init__(self, include=(), exclude=(), k=None, device=None, knn_func=None):
        self.include = include
        self.k = k
        self.device = torch.device("cuda:0") if device is None else device   # c_f.use_cuda_if_available()
        self.knn_func = CustomKNN() if knn_func is None else knn_func

    def get_accuracy(self, query, query_labels, reference=None, reference_labels=None,
                     ref_includes_query=False):
        if reference is None:
            reference, reference_labels, ref_includes_query = query, query_labels, True
        [query, reference, query_labels, reference_labels] = [
            x.to(self.device).type(torch.float)
            for x in [query, reference, query_labels, reference_labels]
        ]
        knn_distances, knn_indices = self.knn_func(query, self.k, reference, ref_includes_query)
        knn_labels = reference_labels[knn_indices]
        return {"precision_at_1": (knn_labels[:, 0] == query_labels).float().mean()}

device = torch.device("cuda:0")
trunk = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()).to(device)
embedder = nn.Linear(16, 32).to(device)
trunk.eval(); embedder.eval()
accuracy_calculator = AccuracyCalculator(include=("precision_at_1",), k=1, device=torch.device("cpu"))
train_images, train_labels = torch.randn(40, 1, 28, 28), torch.randint(0, 10, (40,))
test_images, test_labels = torch.randn(20, 1, 28, 28), torch.randint(0, 10, (20,))
'''
CELL = '''
with torch.no_grad():
    train_embeddings = embedder(trunk(train_images.to(device)))
    test_embeddings = embedder(trunk(test_images.to(device)))
accuracies = accuracy_calculator.get_accuracy(
    test_embeddings, test_labels.to(device), train_embeddings, train_labels.to(device), False
)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
