"""MuonClip on a bfloat16 model: the QK-clip projection multiplies bf16 recorded attention inputs by a float32 copy of the weight.

Source: https://github.com/GAD-cell/muon-clip/issues/9
"RuntimeError: expected mat1 and mat2 to have the same dtype, but got: c10::BFloat16 != float" at
`proj = torch.matmul(x, p.transpose(-2, -1))` in muon.py: `x` comes from
`hook_recorder.attn_inputs`, captured by forward hooks in the model's bf16, while the step works on
the weight cast to float32 for the Newton-Schulz iteration. Stand-in: the optimizer keeps the hook
recorder and a reduced Muon step (momentum, Newton-Schulz, QK-clip) for one query projection;
CPU, real backward (the CPU wording of the error is "m1 and m2").
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def zeropower_via_newtonschulz5(G, steps=5):
    a, b, c = (3.4445, -4.7750, 2.0315)
    X = G / (G.norm() + 1e-7)
    for _ in range(steps):
        A = X @ X.T
        X = a * X + (b * A + c * A @ A) @ X
    return X

class HookRecorder:
    def __init__(self):
        self.attn_inputs = {}
    def register(self, name, module):
        def hook(mod, inputs, output):
            self.attn_inputs[name] = inputs[0].detach()
        module.register_forward_hook(hook)

class MuonClip(torch.optim.Optimizer):
    def __init__(self, named_qk, lr=0.02, momentum=0.95, clip_tau=100.0):
        named_qk = list(named_qk)
        super().__init__([p for _, p in named_qk], dict(lr=lr, momentum=momentum, clip_tau=clip_tau))
        self.names = {p: n for n, p in named_qk}
        self.hook_recorder = HookRecorder()

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = torch.zeros_like(p, dtype=torch.float32)
                buf = state["momentum_buffer"]
                buf.mul_(group["momentum"]).add_(p.grad.float())
                w = p.float()                      # Newton-Schulz wants float32
                w.add_(zeropower_via_newtonschulz5(buf), alpha=-group["lr"])
                x = self.hook_recorder.attn_inputs[self.names[p]]
                proj = torch.matmul(x, w.transpose(-2, -1))
                scale = (group["clip_tau"] / proj.abs().max().clamp(min=1e-6)).clamp(max=1.0)
                p.copy_(w * scale.sqrt())

class Attention(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
    def forward(self, x):
        q, k = self.q_proj(x), self.k_proj(x)
        return torch.softmax(q @ k.transpose(-2, -1) / 32 ** 0.5, -1) @ x

torch.manual_seed(0)
model = Attention().to(torch.bfloat16)
optimizer = MuonClip([("q_proj", model.q_proj.weight), ("k_proj", model.k_proj.weight)])
optimizer.hook_recorder.register("q_proj", model.q_proj)
optimizer.hook_recorder.register("k_proj", model.k_proj)
x = torch.randn(2, 8, 32, dtype=torch.bfloat16)
'''
CELL = '''
loss = model(x).float().pow(2).mean()
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = ("to have the same dtype", "must have the same dtype")
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "proj = torch.matmul(x, w.transpose(-2, -1))",
    "proj = torch.matmul(x.to(w.dtype), w.transpose(-2, -1))",
)
CLEAN = False
