"""SpectralNet with `is_sparse_graph=True` on a GPU: the Annoy nearest-neighbour vectors are rebuilt as CPU tensors.

Source: https://github.com/shaham-lab/SpectralNet/issues/4
`spectralnet2.fit(feats2)` failed in `_spectralnet_trainer.train` -> `make_batch_for_sparse_grapsh(X_grad)`
at `new_batch_x = torch.cat((new_batch_x, nn_tensors))` with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu! (... wrapper_CUDA_cat)". The k nearest neighbours
of each point come back from the Annoy index as Python lists and `nn_tensors = torch.tensor(nn_tensors)`
puts them on the CPU; the reporter's fix, accepted by the maintainer, is
`torch.tensor(nn_tensors, device=batch_x.device)`. Stand-ins: an in-memory AnnoyIndex (its search is a
fixed pseudo-random neighbour list, as the simulation has no values), a one-layer SpectralNet and a
trainer that enlarges each batch with the neighbours before the forward pass.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import random
import torch
import torch.nn as nn

class AnnoyIndex:
    """Stand-in for annoy.AnnoyIndex: items kept as lists of floats."""
    _saved = {}
    def __init__(self, f, metric):
        self.f, self.metric, self.items = f, metric, {}
    def add_item(self, i, vector):
        self.items[i] = [random.random() for _ in range(self.f)]   # the stored copy of the vector
    def build(self, n_trees):
        pass
    def save(self, path):
        AnnoyIndex._saved[path] = self.items
    def load(self, path):
        self.items = AnnoyIndex._saved[path]
    def get_nns_by_vector(self, vector, n):
        return random.sample(sorted(self.items), n)
    def get_item_vector(self, i):
        return self.items[i]

def build_ann(X):
    X = X.view(X.size(0), -1)
    t = AnnoyIndex(X.shape[1], "euclidean")
    for i, x_i in enumerate(X):
        t.add_item(i, x_i)
    t.build(50)
    t.save("ann_index.ann")

def make_batch_for_sparse_grapsh(batch_x):
    batch_size = batch_x.shape[0]
    batch_size //= 5
    new_batch_x = batch_x.narrow(0, 0, batch_size)      # batch_x[:batch_size]
    batch_x = new_batch_x
    n_neighbors = 5
    u = AnnoyIndex(batch_x.shape[1], "euclidean")
    u.load("ann_index.ann")
    for x in batch_x:
        nn_indices = u.get_nns_by_vector(x, n_neighbors)
        nn_tensors = [u.get_item_vector(i) for i in nn_indices[1:]]
        nn_tensors = torch.tensor(nn_tensors)
        new_batch_x = torch.cat((new_batch_x, nn_tensors))
    return new_batch_x

class SpectralNetModel(nn.Module):
    def __init__(self, input_dim, n_clusters):
        super().__init__()
        self.layer = nn.Sequential(nn.Linear(input_dim, 32), nn.ReLU(), nn.Linear(32, n_clusters))
    def forward(self, x):
        return torch.tanh(self.layer(x))

class SpectralNet:
    def __init__(self, n_clusters, is_sparse_graph=False, spectral_batch_size=50, device="cuda:0"):
        self.n_clusters = n_clusters
        self.is_sparse_graph = is_sparse_graph
        self.batch_size = spectral_batch_size
        self.device = torch.device(device)

    def fit(self, X):
        X = X.view(X.size(0), -1).to(self.device)
        build_ann(X)
        self.spec_net = SpectralNetModel(X.shape[1], self.n_clusters).to(self.device)
        for X_grad in X.split(self.batch_size):
            if self.is_sparse_graph:
                X_grad = make_batch_for_sparse_grapsh(X_grad)
            Y = self.spec_net(X_grad)
            W = torch.cdist(X_grad, X_grad)
            loss = (torch.cdist(Y, Y) ** 2 * W).sum() / (2 * X_grad.shape[0])
        return self

feats2 = torch.randn(100, 16)
spectralnet2 = SpectralNet(n_clusters=4, is_sparse_graph=True, spectral_batch_size=50)
'''
CELL = '''
spectralnet2.fit(feats2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["nn_tensors"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("nn_tensors = torch.tensor(nn_tensors)",
                  "nn_tensors = torch.tensor(nn_tensors, device=batch_x.device)")
CLEAN = False
