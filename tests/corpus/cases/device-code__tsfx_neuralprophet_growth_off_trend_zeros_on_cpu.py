"""NeuralProphet with `growth="off"` on a GPU: `TimeNet.trend` returns `torch.zeros(...)` made on the CPU, added to the GPU components.

Source: https://github.com/ourownstory/neural_prophet/pull/1023
"Follow-up tensors on wrong device": "As pointed out in #1002, some tensors have remained on the
CPU when training with a GPU" (RuntimeError: Expected all tensors to be on the same device ... cpu
and cuda:0). Among the sites the PR moved to the model's device: in `TimeNet.trend`, the
`growth == "off"` branch builds `trend = torch.zeros(size=(t.shape[0], self.n_forecasts,
len(self.quantiles)))` without a device, and `forward` computes `trend + additive_components`
with the GPU AR component; fixed with `device=self.device`. A contributor confirmed
`accelerator="cuda"` worked after it. Stand-ins: TimeNet reduced to the trend/AR-net/forward of
0.5.0 (after #1010's fixes), PinballLoss as fixed in #1010, and a NeuralProphet.fit that moves the
network and batches to the accelerator; backward/step left out (fake cuda has no autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.nn.modules.loss import _Loss

class PinballLoss(_Loss):
    def __init__(self, loss_func, quantiles):
        super().__init__()
        self.loss_func = loss_func
        self.quantiles = quantiles

    def forward(self, outputs, target):
        target = target.repeat(1, 1, len(self.quantiles))
        differences = target - outputs
        base_losses = self.loss_func(outputs, target)
        q = torch.tensor(self.quantiles, device=target.device).unsqueeze(dim=0).unsqueeze(dim=0)
        pinball_losses = torch.where(differences >= 0, q * base_losses, (1 - q) * base_losses)
        multiplier = torch.ones(size=(1, 1, len(self.quantiles)), device=target.device)
        multiplier[:, :, 0] = 2
        return multiplier * pinball_losses

class ConfigTrend:
    def __init__(self, growth="linear", n_changepoints=0, trend_global_local="global"):
        self.growth, self.n_changepoints, self.trend_global_local = growth, n_changepoints, trend_global_local

class TimeNet(nn.Module):
    def __init__(self, config_trend, n_lags, n_forecasts, quantiles):
        super().__init__()
        self.config_trend = config_trend
        self.n_forecasts, self.quantiles = n_forecasts, quantiles
        self.ar_net = nn.Sequential(nn.Linear(n_lags, 32), nn.ReLU(), nn.Linear(32, n_forecasts * len(quantiles)))
        if config_trend.growth != "off":
            self.trend_k0 = nn.Parameter(torch.zeros(1, len(quantiles)))
        self.loss_func = PinballLoss(nn.SmoothL1Loss(reduction="none"), quantiles)

    @property
    def device(self):
        return next(self.parameters()).device

    def trend(self, t, meta):
        if self.config_trend.growth == "off":
            trend = torch.zeros(size=(t.shape[0], self.n_forecasts, len(self.quantiles)))
        else:
            trend = self.trend_k0.unsqueeze(0) * t.unsqueeze(2)
        return trend

    def auto_regression(self, lags):
        return self.ar_net(lags).view(-1, self.n_forecasts, len(self.quantiles))

    def forward(self, inputs, meta=None):
        additive_components = torch.zeros(
            size=(inputs["time"].shape[0], self.n_forecasts, len(self.quantiles)), device=self.device
        )
        multiplicative_components = torch.zeros(
            size=(inputs["time"].shape[0], self.n_forecasts, len(self.quantiles)), device=self.device
        )
        if "lags" in inputs:
            additive_components += self.auto_regression(lags=inputs["lags"])
        trend = self.trend(t=inputs["time"], meta=meta)
        out = trend + additive_components + trend.detach() * multiplicative_components
        return out

    def training_step(self, batch, batch_idx):
        inputs, targets, meta = batch
        predicted = self.forward(inputs, None)
        loss = self.loss_func(predicted, targets).sum(dim=2).mean()
        # self.manual_backward(loss); optimizer.step()  -- left out of the stand-in
        return loss

class NeuralProphet:
    def __init__(self, growth="linear", n_lags=0, n_forecasts=1, quantiles=None, batch_size=32, epochs=1,
                 accelerator=None):
        self.config_trend = ConfigTrend(growth=growth)
        self.n_lags, self.n_forecasts = n_lags, n_forecasts
        self.quantiles = [0.5] + list(quantiles or [])
        self.batch_size, self.epochs, self.accelerator = batch_size, epochs, accelerator
        self.model = None

    def _batches(self, y):
        n = len(y) - self.n_lags - self.n_forecasts + 1
        lags = torch.stack([torch.as_tensor(y[i:i + self.n_lags]) for i in range(n)]).float()
        targets = torch.stack([torch.as_tensor(y[i + self.n_lags:i + self.n_lags + self.n_forecasts]) for i in range(n)]).float()
        time = torch.linspace(0, 1, n)[:, None].expand(n, self.n_forecasts).contiguous()
        bs = self.batch_size
        return [({"time": time[i:i + bs], "lags": lags[i:i + bs]}, targets[i:i + bs, :, None], {"df_name": ["__df__"]})
                for i in range(0, n, bs)]

    def fit(self, df, freq="auto"):
        device = torch.device("cuda:0" if self.accelerator in ("gpu", "cuda", "auto") else "cpu")
        self.model = TimeNet(self.config_trend, self.n_lags, self.n_forecasts, self.quantiles).to(device)
        metrics = []
        for epoch in range(self.epochs):
            for batch_idx, (inputs, targets, meta) in enumerate(self._batches(df["y"])):
                inputs = {k: v.to(device) for k, v in inputs.items()}
                metrics.append(self.model.training_step((inputs, targets.to(device), meta), batch_idx))
        return metrics

rng = np.random.default_rng(1)
t = np.arange(500)
df = {"ds": t, "y": (np.sin(2 * np.pi * t / 24) + 0.2 * rng.normal(size=500)).astype(np.float32)}
m = NeuralProphet(growth="off", n_lags=24, n_forecasts=6, accelerator="cuda")
'''
CELL = '''
metrics = m.fit(df, freq="H")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["m.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("trend = torch.zeros(size=(t.shape[0], self.n_forecasts, len(self.quantiles)))",
                  "trend = torch.zeros(size=(t.shape[0], self.n_forecasts, len(self.quantiles)), device=self.device)")
CLEAN = False
