"""Lag-Llama: `LagLlamaEstimator(device=cpu).create_predictor()` hard-codes the predictor's device to cuda when a GPU exists.

Source: https://github.com/time-series-foundation-models/lag-llama/issues/127
"Wrong Device for `LagLlamaEstimator().create_predictor`": the estimator keeps the module on the
device it was given, but `create_predictor` builds the GluonTS `PyTorchPredictor` with
`device="cuda" if torch.cuda.is_available() else "cpu"`, so on a GPU machine the predictor moves
every batch to cuda while the module sits on the estimator's device (here the CPU). The fix the
user gives (also PR #125): `device=self.device.type`. Stand-in: the estimator, a PyTorchPredictor
that moves batches to its device, and a small lag-feature module.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class LagLlamaModel(nn.Module):
    def __init__(self, context_length=32, prediction_length=8, n_embd=16):
        super().__init__()
        self.prediction_length = prediction_length
        self.lag_proj = nn.Linear(context_length, n_embd)
        self.head = nn.Linear(n_embd, prediction_length)

    def forward(self, past_target, past_observed_values):
        loc = past_target.mean(dim=-1, keepdim=True)
        scale = past_target.std(dim=-1, keepdim=True) + 1e-5
        h = torch.relu(self.lag_proj((past_target - loc) / scale * past_observed_values))
        return self.head(h) * scale + loc

class PyTorchPredictor:
    def __init__(self, prediction_net, batch_size, prediction_length, device="cpu"):
        self.prediction_net, self.batch_size = prediction_net, batch_size
        self.prediction_length, self.device = prediction_length, torch.device(device)

    @torch.no_grad()
    def predict(self, batch):
        inputs = {k: v.to(self.device) for k, v in batch.items()}
        return self.prediction_net(**inputs)

class LagLlamaEstimator:
    def __init__(self, prediction_length, context_length, batch_size=4, device=torch.device("cuda")):
        self.prediction_length, self.context_length = prediction_length, context_length
        self.batch_size, self.device = batch_size, device

    def create_lightning_module(self):
        return LagLlamaModel(self.context_length, self.prediction_length).to(self.device)

    def create_predictor(self, transformation, module):
        return PyTorchPredictor(
            prediction_net=module,
            batch_size=self.batch_size,
            prediction_length=self.prediction_length,
            device="cuda:0",   # "cuda" if torch.cuda.is_available() else "cpu"
        )

estimator = LagLlamaEstimator(prediction_length=8, context_length=32, device=torch.device("cpu"))
lightning_module = estimator.create_lightning_module()
transformation = None
predictor = estimator.create_predictor(transformation, lightning_module)
batch = {"past_target": torch.randn(4, 32), "past_observed_values": torch.ones(4, 32)}
'''
CELL = '''
forecasts = predictor.predict(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('device="cuda:0",   # "cuda" if torch.cuda.is_available() else "cpu"',
                  'device=self.device.type,')
CLEAN = False
