"""Look-alike: fairscale's Top2Gate keeps a module-level dict of Gumbel samplers, one per device; a CPU sampler sits beside the cuda one.

Source: https://github.com/facebookresearch/fairscale/blob/main/fairscale/nn/moe/top2gate.py
`gumbel_rsample(shape, device)` caches `torch.distributions.gumbel.Gumbel(zero, one).rsample` in the
global `gumbel_map`, keyed by device, with `zero`/`one` created on that device. After a CPU smoke test the
map holds a CPU sampler (CPU tensors outside any module); once the gate runs on cuda:0 a second sampler is
made for cuda:0 and the noise for the second expert comes from it. Nothing is misplaced.
Stand-in: top2gating with capacity as a Python int, the library's scatter-based `one_hot`, and the
combine weights as einsums; distribution argument validation is off (as under `python -O`), since
it would read the values of simulated cuda tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from typing import Callable, Dict, Tuple
import torch
from torch import Tensor
import torch.nn.functional as F

torch.distributions.Distribution.set_default_validate_args(False)   # as under `python -O`

gumbel_map: Dict[torch.device, Callable] = {}

def gumbel_rsample(shape: Tuple, device: torch.device) -> Tensor:
    gumbel = gumbel_map.get(device)
    if gumbel is None:
        one = torch.tensor(1.0, device=device)
        zero = torch.tensor(0.0, device=device)
        gumbel = torch.distributions.gumbel.Gumbel(zero, one).rsample
        gumbel_map[device] = gumbel
    return gumbel(shape)

def one_hot(tensor: torch.Tensor, num_classes: int) -> Tensor:
    """Workaround for https://github.com/pytorch/pytorch/issues/55579"""
    assert num_classes > 0, "num_classes must be a positive integer"
    ret = torch.zeros(tensor.shape + (num_classes,), device=tensor.device, dtype=tensor.dtype)
    ret.scatter_(-1, tensor.unsqueeze(-1), 1)
    return ret

def top2gating(logits: torch.Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    gates = F.softmax(logits, dim=1, dtype=torch.float)
    num_tokens = gates.shape[0]
    num_experts = gates.shape[1]
    capacity = 2 * math.ceil(num_tokens / num_experts)
    indices1_s = torch.argmax(gates, dim=1)
    mask1 = one_hot(indices1_s, num_classes=num_experts)
    logits_w_noise = logits + gumbel_rsample(logits.shape, device=logits.device)
    logits_except1 = logits_w_noise.masked_fill(mask1.bool(), float("-inf"))
    indices2_s = torch.argmax(logits_except1, dim=1)
    mask2 = one_hot(indices2_s, num_classes=num_experts)
    locations1 = torch.cumsum(mask1, dim=0) - 1
    locations2 = torch.cumsum(mask2, dim=0) - 1
    locations2 += torch.sum(mask1, dim=0, keepdim=True)
    me = torch.mean(gates, dim=0)
    ce = torch.mean(mask1.float(), dim=0)
    l_aux = torch.mean(me * ce) * num_experts * num_experts
    mask1 = mask1 * torch.lt(locations1, capacity)
    mask2 = mask2 * torch.lt(locations2, capacity)
    gates1_s = (gates * mask1).sum(dim=1)
    gates2_s = (gates * mask2).sum(dim=1)
    denom_s = torch.clamp(gates1_s + gates2_s, min=torch.finfo(gates1_s.dtype).eps)
    gates1_s = gates1_s / denom_s
    gates2_s = gates2_s / denom_s
    combine_weights = torch.einsum("s,se->se", gates1_s, mask1.float()) + torch.einsum("s,se->se", gates2_s, mask2.float())
    dispatch_mask = combine_weights.bool()
    return l_aux.to(logits.dtype), combine_weights.to(logits.dtype), dispatch_mask

class Top2Gate(torch.nn.Module):
    def __init__(self, model_dim: int, num_experts: int) -> None:
        super().__init__()
        self.wg = torch.nn.Linear(model_dim, num_experts, bias=False)

    def forward(self, input: torch.Tensor):
        logits = self.wg(input)
        return top2gating(logits)

gate = Top2Gate(model_dim=16, num_experts=4)
with torch.no_grad():
    _ = gate(torch.randn(8, 16))            # CPU smoke test: gumbel_map now holds a CPU sampler
gate = gate.to("cuda:0")
tokens = torch.randn(32, 16).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    l_aux, combine_weights, dispatch_mask = gate(tokens)
print(sorted(str(d) for d in gumbel_map), combine_weights.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
