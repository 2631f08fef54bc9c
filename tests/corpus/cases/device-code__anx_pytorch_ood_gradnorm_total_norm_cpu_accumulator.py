"""pytorch-ood GradNorm on a CUDA model: the gradient-norm accumulator is created on the CPU.

Source: https://github.com/kkirchheim/pytorch-ood/issues/104
"Device bug in the GradNorm": inside `GradNorm.predict()` the accumulator is initialised as
`total_norm = torch.tensor(0.0)` (CPU) and then `total_norm += torch.sum(p.grad.detach() ** 2)`
with the model's gradients on CUDA, which raises "Expected all tensors to be on the same device"
whenever GradNorm runs with a CUDA model. The fix (PR #105) creates the accumulator with
`device=device`. Stand-in: the GradNorm detector reduced to its per-sample gradient loop; under the
simulated GPU autograd is unavailable, so `_backward` fills each parameter's `.grad` with a tensor
of the parameter's device (as `loss.backward()` would).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def _backward(loss, params):
    # stands in for loss.backward(): gradients live where the parameters live
    for p in params:
        p.grad = torch.ones_like(p) * 0.01

class GradNorm:
    def __init__(self, model, temperature=1.0):
        self.model = model
        self.t = temperature

    def predict(self, x):
        device = x.device
        params = list(self.model.fc.parameters())
        scores = []
        for i in range(x.shape[0]):
            self.model.zero_grad()
            logits = self.model(x[i:i + 1]) / self.t
            targets = torch.ones_like(logits) / logits.shape[1]
            loss = torch.sum(-targets * F.log_softmax(logits, dim=1))
            _backward(loss, params)
            total_norm = torch.tensor(0.0)
            for p in params:
                total_norm += torch.sum(p.grad.detach() ** 2)
            scores.append(-total_norm.sqrt().reshape(1))
        return torch.cat(scores)

class Classifier(nn.Module):
    def __init__(self, n_in=32, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU())
        self.fc = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.fc(self.features(x))

device = "cuda:0"
model = Classifier().eval().to(device)
detector = GradNorm(model)
x = torch.randn(4, 32).to(device)
'''
CELL = '''
scores = detector.predict(x)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "wrapped to wrong device")
CULPRITS = ["detector"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("total_norm = torch.tensor(0.0)", "total_norm = torch.tensor(0.0, device=device)")
CLEAN = False
