"""PEFT LoRA-FA optimizer resumed from a checkpoint: its name-keyed adapter states stay on the CPU while the LoRA weights are on the GPU.

Source: https://github.com/MakazhanAlpamys/Soup/pull/962
"GPU Resume Device Mismatch - Root Cause Confirmed: LoraFAOptimizer keys adapter states by string
names (...lora) rather than parameter references or integer IDs. When PyTorch's
Optimizer.load_state_dict executes during checkpoint resume, its per-parameter device-casting loop
checks id_map (which contains only parameter IDs). As a result, states indexed by string name
(exp_avg_B, exp_avg_sq_B) remained on the deserialized storage device (CPU), causing the multi-device
mismatch on GPU upon the next step()." The fix walks `optimizer.state` after loading and casts every
string-keyed adapter tensor to its parameter's device.
Stand-ins: peft's `LoraFAOptimizer.step` / `create_lorafa_optimizer` (src/peft/optimizers/lorafa.py,
bf16 autocast branch off), a tiny LoRA model on cuda:0, and the optimizer checkpoint as accelerate
loads it (`map_location="cpu"`).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import math
import torch
from torch import nn
from torch.optim import Optimizer

def is_bf16_available():
    return False

class LoraFAOptimizer(Optimizer):
    """peft.optimizers.lorafa.LoraFAOptimizer (LoRA-FA part of step)."""
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0, correct_bias=True):
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "correct_bias": correct_bias}
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            scaling_factor = group["scaling_factor"]
            param_list = []
            for p, n in zip(group["params"], group["names"]):
                if "lora" not in n and p.grad is None:
                    continue
                if "lora" in n:
                    param_list.append(p)
                    if len(param_list) == 2:
                        name = n[: n.find("lora")] + "lora"
                    elif len(param_list) == 1:
                        continue
                else:
                    name = n
                state = self.state[name]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg_B"] = torch.zeros_like(param_list[1])
                    state["exp_avg_sq_B"] = torch.zeros_like(param_list[1])
                A = param_list[0]
                B = param_list[1]
                grad_B_orin = B.grad
                delta = 1e-8
                AA_T = A @ A.T
                AA_T_inv = torch.linalg.pinv(AA_T + delta * torch.eye(A.shape[0]).to(A.device))
                grad_B = (1 / scaling_factor**2) * (grad_B_orin @ AA_T_inv)
                exp_avg_B, exp_avg_sq_B = state["exp_avg_B"], state["exp_avg_sq_B"]
                beta1, beta2 = group["betas"]
                state["step"] += 1
                exp_avg_B.mul_(beta1).add_(grad_B, alpha=(1.0 - beta1))
                exp_avg_sq_B.mul_(beta2).addcmul_(grad_B, grad_B, value=1.0 - beta2)
                denom_B = exp_avg_sq_B.sqrt().add_(group["eps"])
                step_size = group["lr"]
                if group["correct_bias"]:
                    bias_correction1 = 1.0 - beta1 ** state["step"]
                    bias_correction2 = 1.0 - beta2 ** state["step"]
                    step_size = step_size * math.sqrt(bias_correction2) / bias_correction1
                B.addcdiv_(exp_avg_B, denom_B, value=-step_size)
                param_list = []
        return None

def create_lorafa_optimizer(model, r, lora_alpha, lr, weight_decay=0.0, use_rslora=False):
    for name, param in model.named_parameters():
        if "lora_A" in name:
            param.requires_grad_(False)
    lora_scaling = lora_alpha / math.sqrt(r) if use_rslora else lora_alpha / r
    param_groups = [{
        "params": list(model.parameters()), "lr": lr, "names": [name for name, _ in model.named_parameters()],
        "scaling_factor": lora_scaling, "betas": (0.9, 0.999), "weight_decay": weight_decay,
    }]
    return LoraFAOptimizer(param_groups)

class LoraLinear(nn.Module):
    def __init__(self, base_layer, r=4):
        super().__init__()
        self.base_layer = base_layer.requires_grad_(False)
        self.lora_A = nn.Linear(base_layer.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base_layer.out_features, bias=False)

    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x))

class TinyLM(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.q_proj = LoraLinear(nn.Linear(d, d))
        self.v_proj = LoraLinear(nn.Linear(d, d))

model = TinyLM().to("cuda:0")
optimizer = create_lorafa_optimizer(model, r=4, lora_alpha=8, lr=1e-4)

def load_optimizer_checkpoint(path):
    """What accelerate.load_state reads (torch.load(..., map_location="cpu")): LoRA-FA states keyed by name."""
    names = [n[: n.find("lora")] + "lora" for n, _ in model.named_parameters() if "lora_B" in n]
    state = {name: {"step": 120, "exp_avg_B": torch.zeros(32, 4), "exp_avg_sq_B": torch.full((32, 4), 1e-4)}
             for name in names}
    return {"state": state, "param_groups": optimizer.state_dict()["param_groups"]}

optimizer.load_state_dict(load_optimizer_checkpoint("outputs/checkpoint-120/optimizer.bin"))   # resume_from_checkpoint
for n, p in model.named_parameters():            # gradients of the first resumed step
    if p.requires_grad:
        p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for key, st in optimizer.state.items():
    if isinstance(key, str):
        for k, v in st.items():
            if torch.is_tensor(v):
                st[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
