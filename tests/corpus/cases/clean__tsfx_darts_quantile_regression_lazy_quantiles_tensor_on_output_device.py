"""darts QuantileRegression: a plain `quantiles_tensor` attribute, built lazily on the model output's device at the first loss.

Source: https://github.com/unit8co/darts/blob/master/darts/utils/likelihood_models/torch.py
`QuantileRegression.__init__` sets `self.quantiles_tensor = None` (a plain attribute, not a buffer,
on an object that `Module.to()` never sees), and `compute_loss` fills it on the first call with
`torch.tensor(self.quantiles).to(device)` where `device = model_output.device`. Look-alike: a
CPU-made tensor kept outside the module's `.to()`, but created on the GPU output's device, so the
loss on a GPU model runs. Stand-ins: QuantileRegression's `compute_loss` as in darts, a small
quantile-output network (batch, time, components, quantiles).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class QuantileRegression:
    def __init__(self, quantiles=None):
        self.quantiles = sorted(quantiles) if quantiles is not None else [0.05, 0.1, 0.5, 0.9, 0.95]
        self._median_idx = self.quantiles.index(0.5)
        self.first = True
        self.quantiles_tensor = None

    def compute_loss(self, model_output, target, sample_weight=None):
        dim_q = 3
        device = model_output.device
        if self.first:
            if not (len(model_output.shape) == 4 and len(target.shape) == 3
                    and model_output.shape[:2] == target.shape[:2]):
                raise ValueError("mismatch between predicted and target shape.")
            self.quantiles_tensor = torch.tensor(self.quantiles).to(device)
            self.first = False
        errors = target.unsqueeze(-1) - model_output
        losses = torch.max((self.quantiles_tensor - 1) * errors, self.quantiles_tensor * errors).sum(dim=dim_q)
        if sample_weight is not None:
            losses = losses * sample_weight
        return losses.mean()

class _BlockRNNModule(nn.Module):
    def __init__(self, input_size, hidden_dim, output_chunk_length, n_components, n_quantiles):
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_chunk_length * n_components * n_quantiles)
        self.shape = (output_chunk_length, n_components, n_quantiles)

    def forward(self, x):
        _, (h, c) = self.rnn(x)
        return self.fc(h[-1]).view(x.shape[0], *self.shape)

likelihood = QuantileRegression(quantiles=[0.05, 0.1, 0.5, 0.9, 0.95])
device = torch.device("cuda:0")
model = _BlockRNNModule(input_size=3, hidden_dim=16, output_chunk_length=6, n_components=1, n_quantiles=5).to(device)
past_target = torch.randn(8, 24, 3).to(device)
future_target = torch.randn(8, 6, 1).to(device)
'''
CELL = '''
output = model(past_target)
loss = likelihood.compute_loss(output, future_target, None)
print(loss.shape, likelihood.quantiles_tensor.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
