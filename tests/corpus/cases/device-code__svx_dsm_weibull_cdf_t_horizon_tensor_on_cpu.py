"""Deep Survival Machines on the GPU: `predict_cdf` builds the horizon tensor `t_horz` on the CPU.

Source: https://github.com/autonlab/auton-survival/pull/35
In the "Gpu batch" PR thread the maintainer noted that a GPU-trained DSM still had to be moved back
to the CPU before `predict_risk` / `predict_survival` could run, because `dsm/losses.py` (lines 307
and 341) creates `t_horz = torch.tensor(t_horizon).double()` without a device while `shape`,
`scale` and `logits` come from the model on the GPU; he asked for the tensor to be moved "to the
same device as 'x'". The merged code reads `torch.tensor(t_horizon, device=x.device).double()`.
Stand-in: DeepSurvivalMachinesTorch (Weibull, one risk) and `_weibull_cdf` as in dsm/losses.py of
Dec 2020, with `t_horz[:, j]` written `t_horz.select(1, j)` and the per-horizon results kept as
tensors (the library converted them with `.numpy()`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def create_representation(inputdim, layers, activation):
    act = nn.ReLU6() if activation == "ReLU6" else nn.SELU()
    modules = []
    prevdim = inputdim
    for hidden in layers:
        modules.append(nn.Linear(prevdim, hidden, bias=False))
        modules.append(act)
        prevdim = hidden
    return nn.Sequential(*modules)

class DeepSurvivalMachinesTorch(nn.Module):
    """Stand-in for dsm.dsm_torch.DeepSurvivalMachinesTorch (Weibull)."""
    def __init__(self, inputdim, k, layers=None, dist="Weibull", temp=1000.0, discount=1.0,
                 optimizer="Adam", risks=1):
        super().__init__()
        self.k, self.dist, self.temp, self.discount, self.risks = k, dist, float(temp), float(discount), risks
        layers = layers or []
        lastdim = layers[-1] if layers else inputdim
        self.act = nn.SELU()
        self.shape = nn.ParameterDict({str(r + 1): nn.Parameter(-torch.ones(self.k)) for r in range(self.risks)})
        self.scale = nn.ParameterDict({str(r + 1): nn.Parameter(-torch.ones(self.k)) for r in range(self.risks)})
        self.gate = nn.ModuleDict({str(r + 1): nn.Sequential(nn.Linear(lastdim, self.k, bias=False))
                                   for r in range(self.risks)})
        self.scaleg = nn.ModuleDict({str(r + 1): nn.Sequential(nn.Linear(lastdim, self.k, bias=True))
                                     for r in range(self.risks)})
        self.shapeg = nn.ModuleDict({str(r + 1): nn.Sequential(nn.Linear(lastdim, self.k, bias=True))
                                     for r in range(self.risks)})
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
    k_ = shape
    b_ = scale
    t_horz = torch.tensor(t_horizon).double()
    t_horz = t_horz.repeat(shape.shape[0], 1)
    cdfs = []
    for j in range(len(t_horizon)):
        t = t_horz.select(1, j)
        lcdfs = []
        for g in range(model.k):
            k = k_.select(1, g)
            b = b_.select(1, g)
            s = -(torch.pow(torch.exp(b) * t, torch.exp(k)))
            lcdfs.append(s)
        lcdfs = torch.stack(lcdfs, dim=1)
        lcdfs = lcdfs + logits
        lcdfs = torch.logsumexp(lcdfs, dim=1)
        cdfs.append(lcdfs.detach())
    return cdfs

def predict_cdf(model, x, t_horizon, risk="1"):
    torch.no_grad()
    if model.dist == "Weibull":
        return _weibull_cdf(model, x, t_horizon, risk)
    raise NotImplementedError("Distribution: " + model.dist + " not implemented yet.")

device = torch.device("cuda:0")
model = DeepSurvivalMachinesTorch(inputdim=9, k=3, layers=[100, 100]).double()
model = model.to(device)                  # trained with cuda=True in the PR branch
model.eval()
x_test = torch.randn(128, 9, dtype=torch.double, device=device)
times = [365.0, 730.0, 1095.0]
'''
CELL = '''
out_survival = predict_cdf(model, x_test, times)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["t_horz"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("t_horz = torch.tensor(t_horizon).double()",
                  "t_horz = torch.tensor(t_horizon, device=x.device).double()")
CLEAN = False
