"""Schedule-Free AdamW resumed for evaluation: optimizer.eval() lerps the CUDA weights toward a CPU `z` buffer.

Source: https://github.com/facebookresearch/schedule_free/pull/42
"Update tensor device on train and eval function": when training is resumed, or in evaluation-only
mode, `optimizer.eval()` runs `p.data.lerp_(end=state['z'], weight=1-1/beta1)` before any `step()`;
the restored `state['z']` was on the CPU while `p.data` was on cuda, raising "Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu!" (also reported from
OneTrainer's backup path, Nerogar/OneTrainer#645). Here the state is loaded while the model is
still on the CPU and the model is moved afterwards. Stand-in: AdamWScheduleFree's train()/eval().
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class AdamWScheduleFree(torch.optim.Optimizer):
    """schedulefree.AdamWScheduleFree 1.2 (train/eval mode switching; step omitted)."""
    def __init__(self, params, lr=0.0025, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, train_mode=True)
        super().__init__(params, defaults)

    def eval(self):
        for group in self.param_groups:
            train_mode = group["train_mode"]
            beta1, _ = group["betas"]
            if train_mode:
                for p in group["params"]:
                    state = self.state[p]
                    if "z" in state:
                        # Set p.data to x
                        p.data.lerp_(end=state["z"], weight=1 - 1 / beta1)
                group["train_mode"] = False

    def train(self):
        for group in self.param_groups:
            train_mode = group["train_mode"]
            beta1, _ = group["betas"]
            if not train_mode:
                for p in group["params"]:
                    state = self.state[p]
                    if "z" in state:
                        # Set p.data to y
                        p.data.lerp_(end=state["z"], weight=1 - beta1)
                group["train_mode"] = True

def make_model():
    return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))

# the optimizer state saved by the training run (z buffers, exp_avg_sq, step)
_model = make_model()
_opt = AdamWScheduleFree(_model.parameters())
for _p in _model.parameters():
    _opt.state[_p].update(z=_p.detach().clone(), exp_avg_sq=torch.zeros_like(_p),
                          step=torch.tensor(500.0))
optimizer_state = _opt.state_dict()

model = make_model()
optimizer = AdamWScheduleFree(model.parameters())
optimizer.load_state_dict(optimizer_state)
model.to("cuda:0")
x_val = torch.randn(8, 16, device="cuda:0")
'''
CELL = '''
model.eval()
optimizer.eval()
val_out = model(x_val)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.state.values():
    state["z"] = state["z"].to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
