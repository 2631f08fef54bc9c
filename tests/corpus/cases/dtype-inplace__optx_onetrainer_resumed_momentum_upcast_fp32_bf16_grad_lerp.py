"""OneTrainer / adv_optm resume: the restored momentum buffer is up-cast to float32 while the LoRA weights and grads are bf16.

Source: https://github.com/Nerogar/OneTrainer/pull/1344
Resuming a bf16 LoRA run with `state_precision="auto"` failed at `buf.lerp_(grad, 1 - momentum)`
in `SinkSGD_adv._step_parameter` with "expected dtype torch.float32 for `end`, but got dtype
torch.bfloat16": the buffers were saved in bf16, but `fix_loaded_state_dtype` (state_util.py) cast
them up to float32 after `load_state_dict`. The maintainer fixed the helper to keep the state in
the parameter's dtype. Stand-in: the momentum step and the helper reduced to the lines that
matter; a bf16 linear layer as the LoRA weight, trained on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class SinkSGD_adv(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0.9, state_precision="auto"):
        super().__init__(params, dict(lr=lr, momentum=momentum, state_precision=state_precision))

    @torch.no_grad()
    def _step_parameter(self, p, group):
        grad = p.grad
        state = self.state[p]
        if "momentum_buffer" not in state:
            dtype = p.dtype if group["state_precision"] == "auto" else torch.float32
            state["momentum_buffer"] = torch.zeros_like(p, dtype=dtype)
        buf = state["momentum_buffer"]
        buf.lerp_(grad, 1 - group["momentum"])
        p.add_(buf.to(p.dtype).sign(), alpha=-group["lr"])

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    self._step_parameter(p, group)

def fix_loaded_state_dtype(optimizer):
    # state_util.py: meant to undo load_state_dict's cast, but forces float32
    for state in optimizer.state.values():
        for k, v in state.items():
            if torch.is_tensor(v) and v.is_floating_point():
                state[k] = v.float()

torch.manual_seed(0)
lora_up = nn.Linear(16, 16, bias=False).to(torch.bfloat16)
x = torch.randn(4, 16, dtype=torch.bfloat16)

# the earlier run, saved as a backup
_opt = SinkSGD_adv(lora_up.parameters(), lr=1e-4)
lora_up(x).float().pow(2).mean().backward()
_opt.step()
backup = {"optimizer": _opt.state_dict()}
lora_up.zero_grad()

# resume from the backup
optimizer = SinkSGD_adv(lora_up.parameters(), lr=1e-4)
optimizer.load_state_dict(backup["optimizer"])
fix_loaded_state_dtype(optimizer)
'''
CELL = '''
loss = lora_up(x).float().pow(2).mean()
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = "expected dtype"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for p, st in optimizer.state.items():
    st["momentum_buffer"] = st["momentum_buffer"].to(p.dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
