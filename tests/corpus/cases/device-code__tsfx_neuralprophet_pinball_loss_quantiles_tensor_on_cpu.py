"""NeuralProphet trained on a GPU: `PinballLoss.forward` builds its quantile weights with `torch.tensor(self.quantiles)` on the CPU.

Source: https://github.com/ourownstory/neural_prophet/issues/1002
"running with CUDA does not work: RuntimeError: Expected all tensors to be on the same device, but
found at least two devices, cpu and cuda:0!" -- the traceback goes through `TimeNet.training_step`
-> `self.loss_func(inputs, predicted, targets)`. The maintainer fixed it in PR #1010 ("move
manually created tensor to correct device"): `PinballLoss.forward` made
`torch.tensor(self.quantiles)` and `torch.ones(size=(1, 1, len(self.quantiles)))` without a
device; they became `torch.tensor(self.quantiles, device=target.device)` etc. Stand-ins:
PinballLoss as in neuralprophet 0.5 (PinballLoss is always used, quantiles=[0.5] by default), a
TimeNet reduced to an AR-net on lags, and a NeuralProphet.fit that moves the network and each
batch to the accelerator; manual_backward/step left out (fake cuda has no autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.nn.modules.loss import _Loss

class PinballLoss(_Loss):
    """Class for the PinBall loss for quantile regression"""

    def __init__(self, loss_func, quantiles):
        super(PinballLoss, self).__init__()
        self.loss_func = loss_func
        self.quantiles = quantiles

    def forward(self, outputs, target):
        target = target.repeat(1, 1, len(self.quantiles))  # increase the quantile dimension of the targets
        differences = target - outputs
        base_losses = self.loss_func(outputs, target)  # dimensions - [n_batch, n_forecasts, no. of quantiles]
        positive_losses = torch.tensor(self.quantiles).unsqueeze(dim=0).unsqueeze(dim=0) * base_losses
        negative_losses = (1 - torch.tensor(self.quantiles).unsqueeze(dim=0).unsqueeze(dim=0)) * base_losses
        pinball_losses = torch.where(differences >= 0, positive_losses, negative_losses)
        multiplier = torch.ones(size=(1, 1, len(self.quantiles)))
        multiplier[:, :, 0] = 2
        pinball_losses = multiplier * pinball_losses  # double the loss for the median quantile
        return pinball_losses

class ConfigTrain:
    def __init__(self, loss_func="Huber", quantiles=None, batch_size=32, epochs=1):
        self.quantiles = [0.5] if quantiles is None else quantiles
        self.batch_size, self.epochs = batch_size, epochs
        if loss_func.lower() in ["huber", "smoothl1", "smoothl1loss"]:
            base = torch.nn.SmoothL1Loss(reduction="none")
        else:
            base = torch.nn.MSELoss(reduction="none")
        self.loss_func = PinballLoss(loss_func=base, quantiles=self.quantiles)

class TimeNet(nn.Module):
    def __init__(self, config_train, n_lags, n_forecasts):
        super().__init__()
        self.config_train = config_train
        self.quantiles = config_train.quantiles
        self.n_forecasts = n_forecasts
        self.ar_net = nn.Sequential(nn.Linear(n_lags, 32), nn.ReLU(), nn.Linear(32, n_forecasts * len(self.quantiles)))

    def forward(self, inputs):
        out = self.ar_net(inputs["lags"])
        return out.view(-1, self.n_forecasts, len(self.quantiles))

    def _get_time_based_sample_weight(self, t):
        return torch.ones_like(t).unsqueeze(-1)

    def loss_func(self, inputs, predicted, targets):
        loss = self.config_train.loss_func(predicted, targets)
        loss = loss * self._get_time_based_sample_weight(t=inputs["time"])
        loss = loss.sum(dim=2).mean()
        reg_loss = torch.zeros((), device=loss.device)
        return loss, reg_loss

    def training_step(self, batch, batch_idx):
        inputs, targets = batch
        predicted = self.forward(inputs)
        loss, reg_loss = self.loss_func(inputs, predicted, targets)
        # self.manual_backward(loss); optimizer.step()  -- left out of the stand-in
        return loss

class NeuralProphet:
    def __init__(self, n_lags=0, n_forecasts=1, loss_func="Huber", quantiles=None, batch_size=32,
                 epochs=1, accelerator=None):
        self.n_lags, self.n_forecasts = n_lags, n_forecasts
        self.config_train = ConfigTrain(loss_func, quantiles, batch_size, epochs)
        self.accelerator = accelerator
        self.model = None

    def _make_batches(self, y):
        n = len(y) - self.n_lags - self.n_forecasts + 1
        lags = torch.stack([torch.as_tensor(y[i:i + self.n_lags]) for i in range(n)]).float()
        targets = torch.stack([torch.as_tensor(y[i + self.n_lags:i + self.n_lags + self.n_forecasts]) for i in range(n)]).float()
        time = torch.linspace(0, 1, n)[:, None].expand(n, self.n_forecasts).contiguous()
        bs = self.config_train.batch_size
        return [({"lags": lags[i:i + bs], "time": time[i:i + bs]}, targets[i:i + bs, :, None]) for i in range(0, n, bs)]

    def fit(self, df, freq="auto"):
        device = torch.device("cuda:0" if self.accelerator in ("gpu", "cuda", "auto") else "cpu")
        self.model = TimeNet(self.config_train, self.n_lags, self.n_forecasts).to(device)
        metrics = []
        for epoch in range(self.config_train.epochs):
            for batch_idx, (inputs, targets) in enumerate(self._make_batches(df["y"])):
                inputs = {k: v.to(device) for k, v in inputs.items()}
                targets = targets.to(device)
                metrics.append(self.model.training_step((inputs, targets), batch_idx))
        return metrics

rng = np.random.default_rng(0)
t = np.arange(400)
df = {"ds": t, "y": (10 + np.sin(2 * np.pi * t / 7) + 0.3 * rng.normal(size=400)).astype(np.float32)}
m = NeuralProphet(n_lags=14, n_forecasts=3, accelerator="gpu")
'''
CELL = '''
metrics = m.fit(df, freq="D")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["m.config_train.loss_func"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''positive_losses = torch.tensor(self.quantiles).unsqueeze(dim=0).unsqueeze(dim=0) * base_losses
        negative_losses = (1 - torch.tensor(self.quantiles).unsqueeze(dim=0).unsqueeze(dim=0)) * base_losses
        pinball_losses = torch.where(differences >= 0, positive_losses, negative_losses)
        multiplier = torch.ones(size=(1, 1, len(self.quantiles)))''',
    '''positive_losses = torch.tensor(self.quantiles, device=target.device).unsqueeze(dim=0).unsqueeze(dim=0) * base_losses
        negative_losses = (1 - torch.tensor(self.quantiles, device=target.device).unsqueeze(dim=0).unsqueeze(dim=0)) * base_losses
        pinball_losses = torch.where(differences >= 0, positive_losses, negative_losses)
        multiplier = torch.ones(size=(1, 1, len(self.quantiles)), device=target.device)''',
)
CLEAN = False
