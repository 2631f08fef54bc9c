"""DeepSpeed bf16 + Muon, resumed from a checkpoint: the restored momentum buffers are float32, the grads bf16.

Source: https://github.com/deepspeedai/DeepSpeed/issues/7746
"When resuming training from a checkpoint using bf16 and the Muon optimizer, a RuntimeError occurs
due to a dtype mismatch. Model parameters and gradients are in bf16. Optimizer state
(`momentum_buffer`) is loaded from the checkpoint as fp32. The mismatch happens when Muon tries to
apply updates (e.g., `lerp_`) between fp32 momentum buffers and bf16 gradients." (PR 7748 casts the
buffers to the parameter dtype after loading.) Stand-in: a Muon-style optimizer and an engine whose
`load_checkpoint` restores the saved per-parameter state as it was written; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

def zeropower_via_newtonschulz5(G, steps=3):
    X = G.float()
    X = X / (X.norm() + 1e-7)
    for _ in range(steps):
        A = X @ X.T
        X = 1.5 * X - 0.5 * A @ X
    return X.to(G.dtype)

class Muon(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0.95):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = torch.zeros_like(p)
                momentum = state["momentum_buffer"]
                momentum.lerp_(p.grad, 1 - group["momentum"])
                update = zeropower_via_newtonschulz5(p.grad.lerp(momentum, group["momentum"]))
                p.add_(update.reshape(p.shape), alpha=-group["lr"])

class Engine:
    """Stand-in for deepspeed.initialize(model, config={"bf16": {"enabled": True}, ...})."""
    def __init__(self, model, lr=1e-3):
        self.module = model.to(torch.bfloat16)
        self.optimizer = Muon(self.module.parameters(), lr=lr)

    def load_checkpoint(self, ckpt):
        self.module.load_state_dict(ckpt["module"])
        for p, saved in zip(self.module.parameters(), ckpt["optimizer_state"]):
            self.optimizer.state[p] = dict(saved)          # restored as saved (fp32)

hidden_size, out_size = 64, 8
model = nn.Linear(hidden_size, out_size, bias=False)
model_engine = Engine(model)
ckpt = {"module": model_engine.module.state_dict(),
        "optimizer_state": [{"momentum_buffer": torch.randn(out_size, hidden_size)}]}
model_engine.load_checkpoint(ckpt)

x = torch.randn(16, hidden_size, dtype=torch.bfloat16)
y = torch.randn(16, out_size, dtype=torch.bfloat16)
loss = ((model_engine.module(x) - y) ** 2).mean()
loss.backward()
'''
CELL = '''
model_engine.optimizer.step()
'''
EXPECT_ERROR = "expected dtype float for `end` but got dtype c10::BFloat16"
CULPRITS = ["model_engine.optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for p, st in model_engine.optimizer.state.items():
    st["momentum_buffer"] = st["momentum_buffer"].to(p.dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
