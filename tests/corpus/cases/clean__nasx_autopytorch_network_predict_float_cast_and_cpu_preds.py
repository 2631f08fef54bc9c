"""Auto-PyTorch NetworkComponent.predict: float64 CPU batches are cast and moved to the network's GPU, predictions come back to the CPU.

Source: https://github.com/automl/Auto-PyTorch/blob/master/autoPyTorch/pipeline/components/setup/network/base_network.py
Auto-PyTorch's `NetworkComponent.fit` assembles `nn.Sequential(network_embedding, network_backbone,
network_head)`, takes the device from the fit dictionary and moves the network there.
`predict(loader)` then iterates a loader of float64 tabular batches, does
`X_batch = X_batch.float().to(self.device)`, applies the classification softmax and appends
`Y_batch_pred.cpu()`, concatenating on the CPU. Look-alike: float64 CPU inputs and a float32 GPU
network, predictions collected on the CPU on purpose.
Stand-ins: the component's `fit`/`to`/`predict` (the final `.numpy()` dropped: no value can be read
back from the simulated GPU); a small MLP embedding/backbone/head; `get_device_from_fit_dictionary`
returning `cuda:0`; a list of float64 (X, y) batches for the DataLoader.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def get_device_from_fit_dictionary(X):
    return torch.device("cuda:0") if X.get("device", "cpu") != "cpu" else torch.device("cpu")

class NetworkComponent:
    def __init__(self, network=None, random_state=None):
        self.network = network
        self.device = None
        self.final_activation = None

    def fit(self, X, y=None):
        self.network = torch.nn.Sequential(X['network_embedding'], X['network_backbone'], X['network_head'])
        if self.device is None:
            self.device = get_device_from_fit_dictionary(X)
        self.to(self.device)
        if X['dataset_properties']['task_type'] in ('tabular_classification',):
            self.final_activation = nn.Softmax(dim=1)
        self.is_fitted_ = True
        return self

    def to(self, device=None):
        if device is not None:
            self.network = self.network.to(device)
        else:
            self.network = self.network.to(self.device)

    def predict(self, loader):
        assert self.network is not None
        self.network.eval()
        Y_batch_preds = list()
        for i, (X_batch, Y_batch) in enumerate(loader):
            X_batch = X_batch.float().to(self.device)
            with torch.no_grad():
                Y_batch_pred = self.network(X_batch)
                if self.final_activation is not None:
                    Y_batch_pred = self.final_activation(Y_batch_pred)
            Y_batch_preds.append(Y_batch_pred.cpu())
        return torch.cat(Y_batch_preds, 0).cpu()

n_features, n_classes = 12, 3
fit_dictionary = {
    'network_embedding': nn.Identity(),
    'network_backbone': nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU()),
    'network_head': nn.Linear(64, n_classes),
    'dataset_properties': {'task_type': 'tabular_classification'},
    'device': 'cuda',
}
network = NetworkComponent().fit(fit_dictionary)
rng = np.random.RandomState(1)
test_loader = [(torch.from_numpy(rng.randn(32, n_features)), torch.from_numpy(rng.randint(0, n_classes, 32)))
               for _ in range(3)]
'''
CELL = '''
probas = network.predict(test_loader)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
