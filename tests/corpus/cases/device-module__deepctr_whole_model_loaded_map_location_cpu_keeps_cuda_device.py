"""DeepCTR-Torch: a whole model saved on cuda:1 and loaded with `map_location=cpu` still predicts on cuda:1.

Source: https://github.com/shenweichen/DeepCTR-Torch/issues/150
The user trained on the GPU, saved with `torch.save(model, model_path)` and, for online CPU serving,
loaded it with `torch.load(model_path, map_location=torch.device("cpu"))`: the weights came back on
the CPU but `model.device` (a plain attribute every DeepCTR model uses to place its inputs) still
said "cuda:1", so `predict` moved the batch to cuda:1 and hit CPU weights. The answer: save and
load the state_dict into a model built for the CPU. Stand-in: a DeepFM-like BaseModel with the same
`self.device` / `predict` structure; the load is simulated by moving the weights to the CPU.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class BaseModel(nn.Module):
    def __init__(self, n_features, device="cpu"):
        super().__init__()
        self.device = device
        self.linear_model = nn.Linear(n_features, 1)
        self.dnn = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))
        self.to(device)

    def forward(self, X):
        return torch.sigmoid(self.linear_model(X) + self.dnn(X))

    def predict(self, x, batch_size=256):
        model = self.eval()
        x = np.concatenate(x, axis=-1)
        x_test = torch.from_numpy(x).to(self.device).float()
        with torch.no_grad():
            y_pred = model(x_test)
        return y_pred

class DeepFM(BaseModel):
    pass

n_features = 12
model = DeepFM(n_features, device="cuda:1")          # trained there, then torch.save(model, model_path)
model = model.to("cpu")                              # torch.load(model_path, map_location=torch.device("cpu"))
x_test = [np.random.rand(64, 6).astype(np.float32), np.random.rand(64, 6).astype(np.float32)]
'''
CELL = '''
pred_ans = model.predict(x_test, batch_size=256)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.device"]
FIX = "namespace"
REFERENCE_FIX = '''
state_dict = model.state_dict()
model = DeepFM(n_features, device="cpu")
model.load_state_dict(state_dict)
'''
REFERENCE_EDIT = None
CLEAN = False
