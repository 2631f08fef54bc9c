"""ParlAI's memory-efficient fp16 optimizer puts the checkpoint's CPU fp32 Adam state back after `load_state_dict`.

Source: https://github.com/facebookresearch/ParlAI/pull/2512
Resuming a model trained with `--fp16-impl mem_eff` crashed on the first step with a device
mismatch. `MemoryEfficientFP16Optimizer.load_state_dict` lets PyTorch load (and cast) the state,
then, to keep the fp32 moments, copies the ORIGINAL state tensors from the state dict back into
`self.optimizer.state` -- but that state dict was loaded with `map_location='cpu'`, so the moments
were left on the CPU beside the cuda fp16 parameters. The merged fix moves each restored state
tensor to the device of its parameter (keeping fp32).
Stand-in: ParlAI's wrapper and `MemoryEfficientFP16Adam` (modern `add_(x, alpha=...)` spelling; the
fp32 result is assigned back with `p.data = ...` instead of `p.data.copy_`, which the simulation
cannot run on a cuda tensor),
a small fp16 model; the checkpoint is made from a CPU copy of the model instead of `torch.load`,
and gradients are assigned instead of a backward pass (no autograd in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import math
from itertools import chain
import torch
from torch import nn

class MemoryEfficientFP16Adam(torch.optim.Adam):
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                grad = p.grad.data.float()  # NOTE: cast to FP32 here
                p_data_fp32 = p.data.float()  # NOTE: cast to FP32 here
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = 0
                    state['exp_avg'] = torch.zeros_like(p_data_fp32)
                    state['exp_avg_sq'] = torch.zeros_like(p_data_fp32)
                exp_avg, exp_avg_sq = state['exp_avg'], state['exp_avg_sq']
                beta1, beta2 = group['betas']
                state['step'] += 1
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.sqrt().add_(group['eps'])
                bias_correction1 = 1 - beta1 ** state['step']
                bias_correction2 = 1 - beta2 ** state['step']
                step_size = group['lr'] * math.sqrt(bias_correction2) / bias_correction1
                p_data_fp32.addcdiv_(exp_avg, denom, value=-step_size)
                p.data = p_data_fp32.to(p.dtype)  # upstream: p.data.copy_(p_data_fp32)

class MemoryEfficientFP16Optimizer(torch.optim.Optimizer):
    def __init__(self, init_optimizer, loss_initial_scale=2.0 ** 17, min_loss_scale=1e-4):
        self.optimizer = init_optimizer
        self.min_loss_scale = min_loss_scale
        self.loss_scale = loss_initial_scale

    @property
    def param_groups(self):
        return self.optimizer.param_groups

    def _unscale_grads(self, multiply_grads=1.0):
        if self._grads_are_scaled:
            self._grads_are_scaled = False
            for group in self.param_groups:
                for p in group['params']:
                    if p.grad is not None:
                        p.grad.data.mul_(multiply_grads / self.loss_scale)

    def step(self, closure=None):
        self._unscale_grads()
        self.optimizer.step(closure)

    def state_dict(self):
        return self.optimizer.state_dict()

    def load_state_dict(self, state_dict):
        self.optimizer.load_state_dict(state_dict)
        # Hack: PyTorch automatically casts the optimizer state to match the
        # type of the current parameters. But with memory efficient fp16 the
        # params are FP16 while the optimizer state is FP32 and we don't want
        # to cast. A workaround is to manually copy back the original state
        # after the optimizer has been loaded.
        groups = self.optimizer.param_groups
        saved_groups = state_dict['param_groups']
        id_map = {
            old_id: p
            for old_id, p in zip(
                chain(*(g['params'] for g in saved_groups)),
                chain(*(g['params'] for g in groups)),
            )
        }
        for k, v in state_dict['state'].items():
            if k in id_map:
                param = id_map[k]
                self.optimizer.state[param] = v

    def zero_grad(self):
        self.optimizer.zero_grad()
        self._grads_are_scaled = False

def build_model():
    return nn.Sequential(nn.Embedding(1000, 64), nn.Linear(64, 256), nn.Tanh(), nn.Linear(256, 1000))

# the checkpoint written by the previous run, as torch.load(path, map_location='cpu') returns it
_prev = build_model()
_prev_opt = MemoryEfficientFP16Adam(_prev.parameters(), lr=1e-4)
for _p in _prev.parameters():
    _p.grad = torch.randn_like(_p)
_prev_opt.step()
states = {'model': _prev.state_dict(), 'optimizer': _prev_opt.state_dict()}

model = build_model()
model.load_state_dict(states['model'])
model = model.half().to("cuda:0")
optimizer = MemoryEfficientFP16Optimizer(MemoryEfficientFP16Adam(model.parameters(), lr=1e-4))
optimizer.load_state_dict(states['optimizer'])

optimizer.zero_grad()
for p in model.parameters():          # stands in for loss.backward()
    p.grad = torch.randn_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "                self.optimizer.state[param] = v\n",
    "                # make sure the original state is on the device of its param\n"
    "                self.optimizer.state[param] = {\n"
    "                    sk: (sv.to(param.device) if torch.is_tensor(sv) else sv)\n"
    "                    for sk, sv in v.items()\n"
    "                }\n",
)
CLEAN = False
