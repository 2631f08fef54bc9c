"""Resuming LoRA training with the Automagic optimizer: its quantized `lr_mask` is rebuilt from the CPU checkpoint and never moved to the GPU.

Source: https://github.com/wochenlong/lora-scripts-next/pull/320
"restore Automagic optimizer state correctly on resume": accelerate loads the optimizer state with
`map_location="cpu"`; torch's `Optimizer.load_state_dict` casts the tensor state to each parameter's
device, but Automagic strips `lr_mask` (an `Auto8bitTensor`, not a tensor) out of the state dict and
rebuilds it itself, so the mask stayed on the CPU and "the first step() after resume crashed with a
cuda/cpu mismatch". The PR moves the reconstructed mask to the param device. Stand-ins: Automagic
(ported from ai-toolkit) and Auto8bitTensor reduced (unfactored second moment only), a LoRA-sized
model, and the CPU checkpoint built by a CPU twin of the run.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class Auto8bitTensor:
    """library.optimizers.optimizer_utils.Auto8bitTensor: int8 values + a float scale."""
    def __init__(self, data):
        if isinstance(data, dict):
            self.quantized, self.scale = data["quantized"], data["scale"]
            return
        abs_max = data.abs().max().clamp(min=1e-12)
        self.scale = abs_max / 127.0
        self.quantized = (data / self.scale).round().clamp(-127, 127).to(torch.int8)

    def dequantize(self):
        return self.quantized.to(torch.float32) * self.scale

    def to(self, dtype):
        return self.dequantize().to(dtype)

    def state_dict(self):
        return {"quantized": self.quantized, "scale": self.scale}

class Automagic(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-6, min_lr=1e-7, max_lr=1e-3, lr_bump=1e-6, eps=1e-30, beta2=0.999):
        self.lr, self.min_lr, self.max_lr, self.lr_bump = lr, min_lr, max_lr, lr_bump
        super().__init__(params, {"lr": lr, "eps": eps, "beta2": beta2})

    def initialize_state(self, p):
        state = self.state[p]
        state["step"] = 0
        if "lr_mask" not in state:
            state["lr_mask"] = Auto8bitTensor(torch.ones(p.shape).to(p.device, dtype=torch.float32) * self.lr)
        state["last_polarity"] = torch.zeros(p.shape, dtype=torch.bool, device=p.device)
        state["exp_avg_sq"] = torch.zeros_like(p)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad, state = p.grad, self.state[p]
                if "lr_mask" not in state:
                    self.initialize_state(p)
                state["step"] += 1
                exp_avg_sq = state["exp_avg_sq"]
                exp_avg_sq.mul_(group["beta2"]).add_(grad ** 2 + group["eps"], alpha=1.0 - group["beta2"])
                update = exp_avg_sq.rsqrt().mul_(grad)

                current_polarity = update > 0
                sign_agreement = torch.where(state["last_polarity"] == current_polarity, 1, -1)
                state["last_polarity"] = current_polarity
                lr_mask = state["lr_mask"].to(torch.float32)
                new_lr = torch.where(sign_agreement > 0, lr_mask + self.lr_bump, lr_mask - self.lr_bump)
                new_lr = torch.clamp(new_lr, min=self.min_lr, max=self.max_lr)
                update.mul_(new_lr)
                state["lr_mask"] = Auto8bitTensor(new_lr)
                p.add_(-update)

    def state_dict(self):
        orig = super().state_dict()
        orig["state"] = {i: {k: (v.state_dict() if k == "lr_mask" else v) for k, v in s.items()}
                         for i, s in orig["state"].items()}
        return orig

    def load_state_dict(self, state_dict):
        stripped = {"state": {i: {k: v for k, v in s.items() if k != "lr_mask"}
                              for i, s in state_dict["state"].items()},
                    "param_groups": state_dict["param_groups"]}
        super().load_state_dict(stripped)
        all_params = [p for g in self.param_groups for p in g["params"]]
        for i, param in enumerate(all_params):
            if i in state_dict["state"] and "lr_mask" in state_dict["state"][i]:
                self.state[param]["lr_mask"] = Auto8bitTensor(state_dict["state"][i]["lr_mask"])

def make_lora():
    return nn.Sequential(nn.Linear(16, 4, bias=False), nn.Linear(4, 16, bias=False))

# stand-in for accelerator.load_state(...): the saved optimizer state, loaded with map_location="cpu"
cpu_network = make_lora()
cpu_optimizer = Automagic(cpu_network.parameters(), lr=1e-6)
for p in cpu_network.parameters():
    p.grad = torch.ones_like(p)
cpu_optimizer.step()
optimizer_state = cpu_optimizer.state_dict()

device = torch.device("cuda:0")
network = make_lora().to(device)
optimizer = Automagic(network.parameters(), lr=1e-6)
optimizer.load_state_dict(optimizer_state)
x = torch.randn(8, 16).to(device)
'''
CELL = '''
y = network(x)
for p in network.parameters():      # stands in for accelerator.backward(loss) (no autograd on fake cuda)
    p.grad = torch.ones_like(p)
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for p, st in optimizer.state.items():
    st["lr_mask"].quantized = st["lr_mask"].quantized.to(p.device)
    st["lr_mask"].scale = st["lr_mask"].scale.to(p.device)
'''
REFERENCE_EDIT = None
CLEAN = False
