"""Look-alike: pytorch-tabnet predicts on a float64 NumPy matrix; each batch is cast with `.float()` before the float32 network.

Source: https://github.com/dreamquark-ai/tabnet/blob/develop/pytorch_tabnet/abstract_model.py
`TabModel.predict` wraps the NumPy array in a `PredictDataset` (float64 rows from pandas/sklearn stay
float64) and, per batch, does `data = data.to(self.device).float()` before `self.network(data)`.
Float64 data next to a float32 model is the normal usage. Nothing to report. Stand-in: the predict
loop with a DataLoader and a small network; CPU (dtypes only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

class PredictDataset(Dataset):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        return self.x[index]

class TabNetRegressor:
    def __init__(self, input_dim, output_dim=1, batch_size=32):
        self.device = torch.device("cpu")
        self.batch_size = batch_size
        self.network = nn.Sequential(nn.Linear(input_dim, 16), nn.ReLU(), nn.Linear(16, output_dim))

    def predict(self, X):
        self.network.eval()
        dataloader = DataLoader(PredictDataset(X), batch_size=self.batch_size, shuffle=False)
        results = []
        with torch.no_grad():
            for batch_nb, data in enumerate(dataloader):
                data = data.to(self.device).float()
                output = self.network(data)
                results.append(output.cpu().detach().numpy())
        return np.vstack(results)

rng = np.random.default_rng(0)
X_test = rng.normal(size=(100, 8))        # float64, as from a DataFrame's .values
regressor = TabNetRegressor(input_dim=8)
'''
CELL = '''
preds = regressor.predict(X_test)
print(X_test.dtype, preds.dtype, preds.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
