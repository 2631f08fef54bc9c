"""Look-alike: chemprop v1 `predict()` runs the MPNN on the GPU and un-scales / scores the predictions as CPU numpy arrays.

Source: https://github.com/chemprop/chemprop/blob/v1.6.1/chemprop/train/predict.py
In chemprop v1, `predict(model, data_loader, scaler)` calls `model(mol_batch, features_batch, ...)` on
the model's device, then `batch_preds = batch_preds.data.cpu().numpy()` and, for regression,
`scaler.inverse_transform(batch_preds)` with the `StandardScaler` means/stds kept as numpy arrays;
`evaluate_predictions` then compares them with the CPU targets. (Numpy arrays are written as CPU tensors here: the simulation cannot call `.numpy()`.) Predictions on cuda and metrics on CPU
copies are deliberate. Stand-in: the MPNN reduced to an atom-feature encoder with sum readout over a
padded batch, the scaler and an RMSE metric.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class StandardScaler:
    def __init__(self, means, stds):
        self.means, self.stds = torch.tensor(means), torch.tensor(stds)     # CPU statistics

    def inverse_transform(self, X):
        return X * self.stds + self.means

class MoleculeModel(nn.Module):
    def __init__(self, atom_fdim=16, hidden_size=32, num_tasks=2):
        super().__init__()
        self.W_i = nn.Linear(atom_fdim, hidden_size)
        self.ffn = nn.Sequential(nn.ReLU(), nn.Linear(hidden_size, num_tasks))

    def forward(self, atom_features, atom_mask):
        h = torch.relu(self.W_i(atom_features)) * atom_mask.unsqueeze(-1)
        return self.ffn(h.sum(1))

def predict(model, batches, scaler=None):
    model.eval()
    preds = []
    for atom_features, atom_mask in batches:
        with torch.no_grad():
            batch_preds = model(atom_features, atom_mask)
        batch_preds = batch_preds.data.cpu()                # .numpy() in chemprop
        if scaler is not None:
            batch_preds = scaler.inverse_transform(batch_preds)
        preds.append(batch_preds)
    return torch.cat(preds)

def rmse(targets, preds):
    return torch.sqrt(torch.mean((targets - preds) ** 2))

device = torch.device("cuda:0")
model = MoleculeModel().to(device)
scaler = StandardScaler(means=[1.5, -0.3], stds=[2.0, 0.7])
batches = [(torch.randn(4, 9, 16, device=device), torch.ones(4, 9, device=device)) for _ in range(2)]
targets = torch.zeros(8, 2)                               # CPU targets
'''
CELL = '''
test_preds = predict(model, batches, scaler)
score = rmse(targets, test_preds)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
