"""Look-alike: schedule-free AdamW resumed from a CPU-loaded checkpoint: eval/train swaps read `state['z'].to(p.data.device)`.

Source: https://github.com/facebookresearch/schedule_free/blob/main/schedulefree/adamw_schedulefree.py
`AdamWScheduleFree.eval()`/`train()` interpolate the parameters with the optimizer's `z` state;
after facebookresearch/schedule_free#42 both read `state['z'].to(p.data.device)`. Here the run is
resumed the right way: the checkpoint (saved in eval mode) is loaded with `map_location="cpu"`
and stays in the namespace with its CPU `z`/`exp_avg_sq` tensors, while `load_state_dict` on the
optimizer built over the cuda model casts the state to the parameters' device; then train mode, a
step, and the eval-mode swap for validation.
Stand-in: the optimizer as upstream with the foreach step only; gradients are assigned instead of
a backward pass (no autograd in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class AdamWScheduleFree(torch.optim.Optimizer):
    def __init__(self, params, lr=0.0025, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 warmup_steps=0, r=0.0, weight_lr_power=2.0, foreach=True):
        defaults = dict(lr=lr, betas=betas, eps=eps, r=r, k=0, warmup_steps=warmup_steps,
                        train_mode=True, weight_sum=0.0, lr_max=-1.0,
                        weight_lr_power=weight_lr_power, weight_decay=weight_decay,
                        foreach=foreach)
        super().__init__(params, defaults)

    def eval(self):
        for group in self.param_groups:
            train_mode = group['train_mode']
            beta1, _ = group['betas']
            if train_mode:
                for p in group['params']:
                    state = self.state[p]
                    if 'z' in state:
                        # Set p.data to x
                        p.data.lerp_(end=state['z'].to(p.data.device), weight=1-1/beta1)
                group['train_mode'] = False

    def train(self):
        for group in self.param_groups:
            train_mode = group['train_mode']
            beta1, _ = group['betas']
            if not train_mode:
                for p in group['params']:
                    state = self.state[p]
                    if 'z' in state:
                        # Set p.data to y
                        p.data.lerp_(end=state['z'].to(p.data.device), weight=1-beta1)
                group['train_mode'] = True

    def step(self, closure=None):
        for group in self.param_groups:
            eps = group['eps']
            beta1, beta2 = group['betas']
            k = group['k']
            sched = 1.0
            bias_correction2 = 1 - beta2 ** (k+1)
            lr = group['lr']*sched*math.sqrt(bias_correction2)
            lr_max = group['lr_max'] = max(lr, group['lr_max'])
            weight = ((k+1)**group['r']) * (lr_max**group['weight_lr_power'])
            weight_sum = group['weight_sum'] = group['weight_sum'] + weight
            ckp1 = weight/weight_sum
            active_p = [p for p in group['params'] if p.grad is not None]
            for p in active_p:
                if 'z' not in self.state[p]:
                    self.state[p]['z'] = torch.clone(p.data)
                    self.state[p]['exp_avg_sq'] = torch.zeros_like(p.data)
            y, grad, exp_avg_sq, z = zip(*[(p.data, p.grad, self.state[p]['exp_avg_sq'],
                                            self.state[p]['z']) for p in active_p])
            torch._foreach_mul_(exp_avg_sq, beta2)
            torch._foreach_addcmul_(exp_avg_sq, grad, grad, value=1-beta2)
            denom = torch._foreach_sqrt(exp_avg_sq)
            torch._foreach_add_(denom, eps)
            torch._foreach_div_(grad, denom)
            torch._foreach_lerp_(y, z, weight=ckp1)
            torch._foreach_add_(y, grad, alpha=lr*(beta1*(1-ckp1)-1))
            torch._foreach_sub_(z, grad, alpha=lr)
            group['k'] = k+1

def build_model():
    return nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 4))

# what torch.load(ckpt_path, map_location="cpu") gives back: the previous run's optimizer state
_prev = build_model()
_prev_opt = AdamWScheduleFree(_prev.parameters(), lr=1e-3)
for _ in range(2):
    for _p in _prev.parameters():
        _p.grad = torch.randn_like(_p)
    _prev_opt.step()
_prev_opt.eval()                      # upstream: put the optimizer in eval mode before saving
ckpt = {"optimizer": _prev_opt.state_dict(), "step": 2}

device = torch.device("cuda:0")
model = build_model().to(device)
optimizer = AdamWScheduleFree(model.parameters(), lr=1e-3)
optimizer.load_state_dict(ckpt["optimizer"])   # casts z / exp_avg_sq to the params' device
x_val = torch.randn(16, 32, device=device)
x_train = torch.randn(16, 32, device=device)
'''
CELL = '''
optimizer.train()
model.train()
for p in model.parameters():          # stands in for loss.backward() on x_train
    p.grad = torch.randn_like(p)
optimizer.step()
optimizer.zero_grad(set_to_none=True)
model.eval()
optimizer.eval()
with torch.no_grad():
    logits = model(x_val)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
