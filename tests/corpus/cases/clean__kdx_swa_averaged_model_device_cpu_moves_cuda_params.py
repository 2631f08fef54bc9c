"""Look-alike: `torch.optim.swa_utils.AveragedModel(model, device="cpu")` averages a cuda model's parameters on the CPU.

Source: https://github.com/pytorch/pytorch/pull/35032
In the PR adding SWA to PyTorch the `device` argument is discussed as the way to keep the averaged
copy off the GPU ("I'm assuming you may want to move the model to avoid having the gpu run out of
memory"); `update_parameters` moves each model parameter to the averaged parameter's device
(`p_model.detach().to(device)`) before the running average, so the CPU copy beside the cuda model
is by design.
Stand-in: `AveragedModel` with upstream's running-average update; the copy re-instantiated and
loaded instead of deep-copied, `n_averaged` kept as a Python int (the fake simulation cannot read
a tensor's value).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def make_model():
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))

class AveragedModel(nn.Module):
    def __init__(self, model, device=None, avg_fn=None):
        super().__init__()
        self.module = make_model()                     # upstream: deepcopy(model)
        self.module.load_state_dict(model.state_dict())
        if device is not None:
            self.module = self.module.to(device)
        self.n_averaged = 0
        if avg_fn is None:
            def avg_fn(averaged_model_parameter, model_parameter, num_averaged):
                return averaged_model_parameter + (model_parameter - averaged_model_parameter) / (num_averaged + 1)
        self.avg_fn = avg_fn

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    @torch.no_grad()
    def update_parameters(self, model):
        for p_swa, p_model in zip(self.parameters(), model.parameters()):
            device = p_swa.device
            p_model_ = p_model.detach().to(device)
            if self.n_averaged == 0:
                p_swa.detach().copy_(p_model_)
            else:
                p_swa.detach().copy_(self.avg_fn(p_swa.detach(), p_model_, self.n_averaged))
        self.n_averaged += 1

model = make_model()
swa_model = AveragedModel(model, device="cpu")
model.to("cuda:0")
swa_model.update_parameters(model)
'''
CELL = '''
swa_model.update_parameters(model)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
