"""pycox CoxPH on the GPU: baseline cumulative hazards stay on the CPU and predictions are fetched to the CPU before combining.

Source: https://github.com/havakv/pycox/blob/master/pycox/models/cox.py
`_CoxBase._predict_cumulative_hazards` multiplies the baseline cumulative hazards computed by
`compute_baseline_hazards` (host-side) with `exp(self.predict(input, ..., numpy=True))`; torchtuples'
`predict` moves each input batch to the net's device and returns the outputs on the host. With the
net on cuda and the test covariates on the CPU, everything that meets is on the CPU.
Look-alike: a cuda net, CPU covariates, CPU baseline hazards; nothing mixes.
Stand-in: torchtuples `Model.predict` (batching, `to_cpu`) and the CoxPH prediction in torch
instead of numpy/pandas; the baseline hazards are a fixed tensor.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MLPVanilla(nn.Module):
    def __init__(self, in_features, num_nodes, out_features, dropout=0.1, output_bias=False):
        super().__init__()
        layers, prev = [], in_features
        for n in num_nodes:
            layers += [nn.Linear(prev, n), nn.ReLU(), nn.BatchNorm1d(n), nn.Dropout(dropout)]
            prev = n
        layers.append(nn.Linear(prev, out_features, bias=output_bias))
        self.net = nn.Sequential(*layers)

    def forward(self, input):
        return self.net(input)

class CoxPH:
    """Stand-in for pycox.models.CoxPH on top of torchtuples.Model."""
    def __init__(self, net, device=None):
        self.device = torch.device(device or "cpu")
        self.net = net.to(self.device)

    def predict(self, input, batch_size=8224, eval_=True, to_cpu=False):
        if eval_:
            self.net.eval()
        preds = []
        with torch.no_grad():
            for start in range(0, input.shape[0], batch_size):
                out = self.net(input[start:start + batch_size].to(self.device))
                preds.append(out.cpu() if to_cpu else out)
        return torch.cat(preds)

    def predict_cumulative_hazards(self, input, batch_size=8224):
        bch = self.baseline_cumulative_hazards_
        expg = torch.exp(self.predict(input, batch_size, to_cpu=True)).reshape(1, -1)
        return bch.reshape(-1, 1) @ expg

    def predict_surv(self, input, batch_size=8224):
        return torch.exp(-self.predict_cumulative_hazards(input, batch_size))

net = MLPVanilla(in_features=9, num_nodes=[32, 32], out_features=1)
model = CoxPH(net, device="cuda:0")
# compute_baseline_hazards() result (host side): one value per distinct training duration
model.baseline_cumulative_hazards_ = torch.linspace(0.01, 2.0, 50)
x_test = torch.randn(200, 9)
durations_test = torch.rand(200) * 50
'''
CELL = '''
surv = model.predict_surv(x_test, batch_size=64)          # (n_times, n_test) on the CPU
median_surv_idx = (surv > 0.5).sum(0)
risk_at_10 = 1 - surv[10]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
