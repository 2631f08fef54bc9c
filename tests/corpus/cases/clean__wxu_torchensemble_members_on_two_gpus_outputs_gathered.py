"""Deep ensemble with members spread over cuda:0 and cuda:1: each member gets the input on its own device and the outputs are gathered on cuda:0.

Source: https://github.com/TorchEnsemble-Community/Ensemble-Pytorch/pull/160
The PR ("support multiple devices for ensemble") lets the estimators of a torchensemble model live
on different GPUs: at inference each base estimator receives `X.to(estimator_device)` and its
output is brought back to the ensemble's output device before averaging the probabilities (the
predictive mean used for uncertainty). Look-alike: two copies of one architecture on two GPUs and an
input on cuda:0, deliberately dispatched. Stand-in: a small VotingClassifier-style ensemble.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 3)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))

class VotingClassifier(nn.Module):
    def __init__(self, estimator, n_estimators, devices):
        super().__init__()
        self.devices = [torch.device(d) for d in devices]
        self.estimators_ = nn.ModuleList()
        for i in range(n_estimators):
            self.estimators_.append(estimator().to(self.devices[i % len(self.devices)]))
        self.output_device = self.devices[0]
    def forward(self, x):
        outputs = []
        for est in self.estimators_:
            dev = next(est.parameters()).device
            out = F.softmax(est(x.to(dev)), dim=1)
            outputs.append(out.to(self.output_device))
        return torch.stack(outputs).mean(0)

ensemble = VotingClassifier(MLP, n_estimators=4, devices=["cuda:0", "cuda:1"])
X = torch.randn(32, 8, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    proba = ensemble(X)
    entropy = -(proba * torch.log(proba + 1e-12)).sum(1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
