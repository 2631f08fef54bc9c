"""Look-alike: SuperNNova's `SwagModel` keeps the SWAG average on the device it was given (here the CPU) and copies each GPU training step into it.

Source: https://github.com/supernnova/SuperNNova/blob/main/python/supernnova/utils/swag_utils.py
`SwagModel(model, device=...)` deep-copies the network to `device` ("the averaged model will be
stored on the :attr:`device`") and registers its second moments and deviation matrices as buffers
there; `update_parameters(model)` takes `device = p_swa.device` and moves every parameter of the
CUDA training model with `p_model.detach().to(device)` before averaging, and moves `n_averaged` the
same way. An averaged copy on the CPU next to a model on the GPU is by design, not a stray. Stand-in:
`swa_update`, `second_moment_update` and `SwagModel.__init__`/`update_parameters` as in SuperNNova
(buffers rebound with `setattr`, as there); a small RNN-free classifier in place of the RNN.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import itertools
from copy import deepcopy
import torch
from torch import nn

@torch.no_grad()
def swa_update(averaged_param, current_param, num_averaged):
    return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

@torch.no_grad()
def second_moment_update(averaged_second_moment, current_param, num_averaged):
    return averaged_second_moment + (current_param * current_param - averaged_second_moment) / (num_averaged + 1)

class SwagModel(nn.Module):
    def __init__(self, model, device=None, avg_fn=swa_update, use_buffers=False):
        super().__init__()
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.use_buffers = use_buffers
        for i, p in enumerate(self.module.parameters()):
            self.register_buffer(f"sec_moment_{i}", torch.zeros_like(p))
            self.register_buffer(f"dev_{i}", p.new_zeros((p.numel(), 0)))

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        self_param = self.parameters()
        model_param = model.parameters()
        for i, (p_swa, p_model) in enumerate(zip(self_param, model_param)):
            device = p_swa.device
            p_swa_ = p_swa.detach()
            p_model_ = p_model.detach().to(device)
            if self.n_averaged == 0:
                p_swa_.copy_(p_model_)
                setattr(self, f"sec_moment_{i}", p_model_ * p_model_)
            else:
                p_swa_.copy_(self.avg_fn(p_swa_, p_model_, self.n_averaged.to(device)))
                sec_moment_value = second_moment_update(
                    getattr(self, f"sec_moment_{i}"), p_model_, self.n_averaged.to(device))
                setattr(self, f"sec_moment_{i}", sec_moment_value)
                dev = (p_model_ - p_swa_).view(-1, 1)
                setattr(self, f"dev_{i}", torch.cat((getattr(self, f"dev_{i}"), dev), dim=1))
        for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
            b_swa.detach().copy_(b_model.detach().to(device))
        self.n_averaged += 1

rnn = nn.Sequential(nn.Linear(12, 32), nn.LayerNorm(32), nn.ReLU(), nn.Linear(32, 3))
swag_model = SwagModel(rnn, device=torch.device("cpu"))      # SWAG statistics kept on the CPU
device = torch.device("cuda:0")
rnn = rnn.to(device)                                          # training model on the GPU
'''
CELL = '''
for step in range(2):                                         # end of two SWAG epochs
    swag_model.update_parameters(rnn)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
