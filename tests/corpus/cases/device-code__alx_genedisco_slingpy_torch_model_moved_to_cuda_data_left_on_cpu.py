"""GeneDisco active-learning loop with `torch.cuda.is_available()`: slingpy's `TorchModel.fit` moves the Bayesian MLP to the GPU but never the data.

Source: https://github.com/genedisco/genedisco/issues/3
Running the starter-kit `active_learning_loop` with `--model_name="bayesian_mlp"` and
`--acquisition_function_name="topuncertain"` on a CUDA machine failed with "Tensor for argument #1 is
on CPU but expected it to be on GPU". The reporter traced it to slingpy's `torch_model.py`: `fit`
does `device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')` and
`self.model = self.model.to(device)`, "however, the data is never put on device". Stand-in: a
TorchModel wrapper with that `fit` (TensorDataset/DataLoader over the numpy-derived features) around a
small MC-dropout MLP; the meta device plays cuda (autograd is needed).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

class BayesianMLP(nn.Module):
    def __init__(self, input_size, hidden_size=32, p_dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_size, hidden_size), nn.ReLU(), nn.Dropout(p_dropout),
                                 nn.Linear(hidden_size, 1))

    def forward(self, x):
        return self.net(x)

class TorchModel:
    def __init__(self, base_module, batch_size=16, num_epochs=1, learning_rate=1e-3):
        self.model = base_module
        self.batch_size = batch_size
        self.num_epochs = num_epochs
        self.learning_rate = learning_rate

    def fit(self, train_x, train_y):
        device = torch.device("meta")   # slingpy: 'cuda' if torch.cuda.is_available() else 'cpu'
        self.model = self.model.to(device)
        optimizer = torch.optim.Adam(self.model.parameters(), lr=self.learning_rate)
        dataset = TensorDataset(torch.from_numpy(train_x), torch.from_numpy(train_y))
        loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=True)
        for epoch in range(self.num_epochs):
            for batch_x, batch_y in loader:
                optimizer.zero_grad()
                y_pred = self.model(batch_x)
                loss = nn.functional.mse_loss(y_pred.squeeze(-1), batch_y)
                loss.backward()
                optimizer.step()
        return self

rng = np.random.default_rng(0)
train_x = rng.normal(size=(64, 20)).astype(np.float32)
train_y = rng.normal(size=(64,)).astype(np.float32)
model = TorchModel(BayesianMLP(input_size=20))
'''
CELL = '''
model.fit(train_x, train_y)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dataset = TensorDataset(torch.from_numpy(train_x), torch.from_numpy(train_y))",
                  "dataset = TensorDataset(torch.from_numpy(train_x).to(device), torch.from_numpy(train_y).to(device))")
CLEAN = False
