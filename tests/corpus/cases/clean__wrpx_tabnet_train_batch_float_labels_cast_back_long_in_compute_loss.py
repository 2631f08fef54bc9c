"""Look-alike: pytorch-tabnet's `_train_batch` casts the class labels to float (`y.to(self.device).float()`) and `TabNetClassifier.compute_loss` casts them back with `y_true.long()` before CrossEntropyLoss.

Source: https://github.com/dreamquark-ai/tabnet/blob/2c0c4ebd2bb1cb639ea94ab4b11823bc49265588/pytorch_tabnet/tab_model.py
`TabModel._train_batch` (pytorch_tabnet/abstract_model.py) does `X = X.to(self.device).float()` (float64 numpy features arrive through
`TorchDataset`) and `y = y.to(self.device).float()`, then `loss = self.compute_loss(output, y)` and
`loss = loss - self.lambda_sparse * M_loss`; in tab_model.py the classifier's
`compute_loss(self, y_pred, y_true)` returns `self.loss_fn(y_pred, y_true.long())`. Float64 inputs and
float labels in front of a cross-entropy, cast on purpose: nothing to report. Stand-ins: the TabNet
network is a small module returning `(output, M_loss)`; TabModel reduced to `_train_batch`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset

class TorchDataset(Dataset):
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __len__(self):
        return len(self.x)
    def __getitem__(self, index):
        x, y = self.x[index], self.y[index]
        return x, y

class TinyTabNet(nn.Module):
    """Stand-in for tab_network.TabNet: returns (logits, sparsity loss M_loss)."""
    def __init__(self, input_dim, output_dim, n_d=8):
        super().__init__()
        self.mask = nn.Linear(input_dim, input_dim)
        self.encoder = nn.Linear(input_dim, n_d)
        self.final_mapping = nn.Linear(n_d, output_dim, bias=False)
    def forward(self, x):
        M = torch.softmax(self.mask(x), dim=-1)
        M_loss = torch.mean(torch.sum(-M * torch.log(M + 1e-15), dim=1))
        return self.final_mapping(torch.relu(self.encoder(M * x))), M_loss

class TabNetClassifier:
    """TabModel + TabNetClassifier, reduced to one training batch."""
    def __init__(self, input_dim, output_dim, device_name="cpu", lambda_sparse=1e-3):
        self.device = torch.device(device_name)
        self.lambda_sparse = lambda_sparse
        self.network = TinyTabNet(input_dim, output_dim).to(self.device)
        self.loss_fn = torch.nn.functional.cross_entropy
        self._optimizer = torch.optim.Adam(self.network.parameters(), lr=2e-2)
        self.augmentations = None

    def compute_loss(self, y_pred, y_true):
        return self.loss_fn(y_pred, y_true.long())

    def _train_batch(self, X, y):
        batch_logs = {"batch_size": X.shape[0]}
        X = X.to(self.device).float()
        y = y.to(self.device).float()
        if self.augmentations is not None:
            X, y = self.augmentations(X, y)
        for param in self.network.parameters():
            param.grad = None
        output, M_loss = self.network(X)
        loss = self.compute_loss(output, y)
        loss = loss - self.lambda_sparse * M_loss
        loss.backward()
        self._optimizer.step()
        batch_logs["loss"] = loss.detach()
        return batch_logs

X_train = np.random.randn(64, 10)                       # float64, as pandas .values gives
y_train = np.random.randint(0, 3, size=64)              # mapped class indices
clf = TabNetClassifier(input_dim=10, output_dim=3)
train_loader = torch.utils.data.DataLoader(TorchDataset(X_train, y_train), batch_size=32, shuffle=True)
'''
CELL = '''
for X, y in train_loader:
    logs = clf._train_batch(X, y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
