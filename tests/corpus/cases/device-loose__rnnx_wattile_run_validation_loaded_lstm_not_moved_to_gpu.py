"""Wattile's `run_validation` reloads the saved LSTM model but never moves it to the GPU the val data is on.

Source: https://github.com/NatLabRockies/Wattile/issues/243
"input and parameter tensors are not at the same device": validating a model trained on GPU (HPC)
raised "Input and parameter tensors are not at the same device, found input tensor at cuda:0 and
parameter tensor at cpu". `to_data_loader` puts the features on cuda and `LSTM_Model.forward` makes
h0/c0 on `device_id`, but `AlfaModel.run_validation` gets the model from `load_model(configs)`
and, unlike `run_training`, has no `model.to(device)`; closed by NREL/Wattile#244, which adds it.
Reduced: `AlfaModel`, `LSTM_Model`, `init_model`/`load_model` are stand-ins for wattile.models
(the checkpoint is an in-memory CPU state dict); SIM meta stands for cuda.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset

DEVICE = torch.device("meta")   # what torch.device("cuda" if available) gives on the HPC node

class LSTM_Model(nn.Module):
    """Stand-in for wattile.models.lstm.LSTM_Model."""
    def __init__(self, input_dim, hidden_dim, num_layers, output_dim, device):
        super(LSTM_Model, self).__init__()
        self.hidden_dim = hidden_dim
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers, batch_first=True)
        self.fc1 = nn.Linear(hidden_dim, 100)
        self.fc2 = nn.Linear(100, 300)
        self.fc3 = nn.Linear(300, output_dim)
        self.device_id = device

    def forward(self, x):
        h0 = Variable(torch.zeros(self.num_layers, x.size(0), self.hidden_dim, device=self.device_id))
        c0 = Variable(torch.zeros(self.num_layers, x.size(0), self.hidden_dim, device=self.device_id))
        out, (hn, cn) = self.lstm(x, (h0, c0))
        out = F.relu(self.fc1(out[:, -1, :]))
        out = F.relu(self.fc2(out))
        return F.relu(self.fc3(out))

def init_model(configs):
    return LSTM_Model(configs["input_dim"], configs["hidden_size"], configs["num_layers"],
                      len(configs["quantiles"]), device=DEVICE)

_saved = {"model_state_dict": init_model({"input_dim": 6, "hidden_size": 20, "num_layers": 1,
                                          "quantiles": [0.05, 0.5, 0.95]}).state_dict(),
          "epoch_num": 100, "n_iter": 4000}

def load_model(configs):
    model = init_model(configs)
    checkpoint = _saved                      # torch.load(exp_dir / "torch_model", map_location=device)
    model.load_state_dict(checkpoint["model_state_dict"])
    return model, checkpoint["epoch_num"], checkpoint["n_iter"]

class AlfaModel:
    """Stand-in for wattile.models.alfa_model.AlfaModel (train/validate driver)."""
    def __init__(self, configs):
        self.configs = configs

    def to_data_loader(self, features, targets, batch_size, shuffle):
        device = DEVICE
        features_tensor = torch.from_numpy(features).to(device)
        target_tensor = torch.from_numpy(targets).to(device)
        return DataLoader(dataset=TensorDataset(features_tensor, target_tensor),
                          batch_size=batch_size, shuffle=shuffle)

    def test_processing(self, val_loader, model, seq_dim, input_dim, device):
        with torch.no_grad():
            model.eval()
            preds = []
            for i, (feats, values) in enumerate(val_loader):
                features = Variable(feats.view(-1, seq_dim, input_dim))
                outputs = model(features)
                preds.append(outputs)
            return preds

    def run_validation(self, val_loader):
        seq_dim = self.configs["lag_count"] + 1
        model, _, _ = load_model(self.configs)
        device = DEVICE
        return self.test_processing(val_loader, model, seq_dim, self.configs["input_dim"], device)

configs = {"input_dim": 6, "hidden_size": 20, "num_layers": 1, "lag_count": 4,
           "quantiles": [0.05, 0.5, 0.95]}
model = AlfaModel(configs)
rng = np.random.RandomState(0)
val_loader = model.to_data_loader(rng.rand(16, 5 * 6).astype("float32"),
                                  rng.rand(16, 3).astype("float32"), batch_size=8, shuffle=False)
'''
CELL = '''
preds = model.run_validation(val_loader)
'''
EXPECT_ERROR = ("Input and parameter tensors are not at the same device",
                "is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        device = DEVICE\n        return self.test_processing",
                  "        device = DEVICE\n        model.to(device)\n        return self.test_processing")
CLEAN = False
