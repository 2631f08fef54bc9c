"""Resuming a custom optimizer from a map_location="cpu" checkpoint leaves its preconditioner on the CPU.

Source: https://github.com/f-dangel/sirfshampoo/issues/34
The user trained on cuda:0, saved model and SIRFShampoo state, reloaded with
torch.load(..., map_location="cpu") and the next optimizer.step() failed with a device mismatch.
Cause: SIRFShampoo keeps its Kronecker factors in `self.preconditioner` (not in `self.state`), so
the base Optimizer.load_state_dict never moves them; its own load_state_dict just setattr's the
CPU tensors back. Stand-in: a minimal optimizer with the same state_dict/load_state_dict structure;
the CPU checkpoint is built by a CPU twin of the run (what map_location="cpu" returns).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
import torch.nn as nn

class KroneckerShampoo(torch.optim.Optimizer):
    STATE_ATTRIBUTES = ["global_step", "preconditioner"]

    def __init__(self, params, lr=1e-3, alpha1=0.9):
        super().__init__(params, dict(lr=lr, alpha1=alpha1))
        self.global_step = 0
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["momentum_buffer"] = torch.zeros_like(p)
        # one Kronecker factor per parameter, on the parameter's device
        self.preconditioner = [
            [torch.eye(p.shape[0], dtype=p.dtype, device=p.device) for p in group["params"]]
            for group in self.param_groups
        ]

    @torch.no_grad()
    def step(self, closure=None):
        for group, Ks in zip(self.param_groups, self.preconditioner):
            for p, K in zip(group["params"], Ks):
                G = p.grad.reshape(p.shape[0], -1)
                update = (K @ K.T @ G).reshape(p.shape)
                buf = self.state[p]["momentum_buffer"]
                buf.mul_(group["alpha1"]).add_(update)
                p.add_(buf, alpha=-group["lr"])
        self.global_step += 1

    def state_dict(self):
        state_dict = super().state_dict()
        for name in self.STATE_ATTRIBUTES:
            state_dict[name] = getattr(self, name)
        return state_dict

    def load_state_dict(self, state_dict):
        attributes = {name: state_dict.pop(name) for name in self.STATE_ATTRIBUTES}
        super().load_state_dict(state_dict)
        for name, value in attributes.items():
            setattr(self, name, value)

def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))

model = make_model().to("cuda:0")
optimizer = KroneckerShampoo(model.parameters(), lr=1e-2)

# stand-in for checkpoint = torch.load("dummy_ckpt.pt", map_location="cpu"):
# the same run's state, every tensor on the CPU
cpu_model = make_model()
cpu_optimizer = KroneckerShampoo(cpu_model.parameters(), lr=1e-2)
checkpoint = {"optimizer_state_dict": cpu_optimizer.state_dict()}

optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
x = torch.randn(10, 8, device="cuda:0")
'''
CELL = '''
y = model(x)
for p in model.parameters():      # stands in for loss.backward() (no autograd on fake cuda)
    p.grad = torch.ones_like(p)
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer.preconditioner"]
FIX = "namespace"
REFERENCE_FIX = '''
optimizer.preconditioner = [[K.to("cuda:0") for K in Ks] for Ks in optimizer.preconditioner]
'''
REFERENCE_EDIT = None
CLEAN = False
