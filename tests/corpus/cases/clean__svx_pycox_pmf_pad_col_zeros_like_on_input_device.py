"""pycox PMF/DeepHit prediction on the GPU: `pad_col` builds its padding column with `torch.zeros_like(input[:, :1])`.

Source: https://github.com/havakv/pycox/blob/master/pycox/models/utils.py
`PMFBase.predict_pmf` (pycox/models/pmf.py) runs `pad_col(preds).softmax(1)[:, :-1]`, and `pad_col`
creates the extra column inside a helper, which looks like the classic "tensor made without a
device" bug, but it is `torch.zeros_like` of a slice of the input, so it follows the predictions'
device and dtype. With `to_cpu=False` the whole computation stays on the net's device.
Look-alike: a tensor created inside a library helper during a device run; it runs.
Stand-in: torchtuples `Model.predict` reduced to one batch; the meta device stands in for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def pad_col(input, val=0, where="end"):
    """Addes a column of `val` at the start of end of `input`."""
    if len(input.shape) != 2:
        raise ValueError("Only works for `phi` tensor that is 2-D.")
    pad = torch.zeros_like(input[:, :1])
    if val != 0:
        pad = pad + val
    if where == "end":
        return torch.cat([input, pad], dim=1)
    elif where == "start":
        return torch.cat([pad, input], dim=1)
    raise ValueError(f"Need `where` to be 'start' or 'end', got {where}")

class PMF:
    """Stand-in for pycox.models.PMF (PMFBase.predict_pmf / predict_surv on torchtuples.Model)."""
    def __init__(self, net, duration_index=None, device=None):
        self.device = torch.device(device or "cpu")
        self.net = net.to(self.device)
        self.duration_index = duration_index

    def predict(self, input, eval_=True, to_cpu=False):
        if eval_:
            self.net.eval()
        with torch.no_grad():
            out = self.net(input.to(self.device))
        return out.cpu() if to_cpu else out

    def predict_pmf(self, input, to_cpu=False):
        preds = self.predict(input, to_cpu=to_cpu)
        return pad_col(preds).softmax(1)[:, :-1]

    def predict_surv(self, input, to_cpu=False):
        pmf = self.predict_pmf(input, to_cpu=to_cpu)
        return 1 - pmf.cumsum(1)

num_durations = 20
net = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.BatchNorm1d(32), nn.Linear(32, num_durations))
device = torch.device("meta")                    # "cuda" in a real notebook
model = PMF(net, duration_index=torch.linspace(0, 100, num_durations), device=device)
x_test = torch.randn(128, 9).to(device)
'''
CELL = '''
surv = model.predict_surv(x_test)
mean_surv = surv.mean(0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
