"""Look-alike: DeepSpeed MoE on cuda:0 returns `exp_counts` (tokens per expert) as a CPU tensor, and the layer keeps it as a plain attribute.

Source: https://github.com/deepspeedai/DeepSpeed/blob/master/deepspeed/moe/sharded_moe.py
`top1gating` computes `exp_counts = torch.sum(mask1, dim=0).detach().to('cpu')` for logging while the
gating, dispatch and combine stay on the logits' device; `MOELayer.forward` stores it as
`self.exp_counts` and `MoE.forward` returns `(output, l_aux, exp_counts)`. A CPU tensor hanging off a
cuda module, on purpose: it is a statistic, never fed back into the computation.
Stand-in: TopKGate (fp32 `wg`, k=1, no noise, no random token selection) with `_capacity` as a Python int,
MOELayer/Experts with ep_size 1 (no all-to-all), and the MoE wrapper.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

def _capacity(gates, capacity_factor, min_capacity):
    num_tokens, num_experts = gates.shape
    return max(int(math.ceil((num_tokens / num_experts) * capacity_factor)), min_capacity)

def _one_hot_to_float(x, num_classes):
    return F.one_hot(x, num_classes=num_classes).float()

def top1gating(logits, capacity_factor, min_capacity):
    gates = F.softmax(logits, dim=1)
    capacity = _capacity(gates, capacity_factor, min_capacity)
    indices1_s = torch.argmax(gates, dim=1)
    num_experts = int(gates.shape[1])
    mask1 = F.one_hot(indices1_s, num_classes=num_experts)
    # gating decisions
    exp_counts = torch.sum(mask1, dim=0).detach().to('cpu')
    me = torch.mean(gates, dim=0)
    ce = torch.mean(mask1.float(), dim=0)
    l_aux = torch.sum(me * ce) * num_experts
    top_idx = torch.topk(mask1, k=capacity, dim=0)[1]
    mask1 = mask1 * torch.zeros_like(mask1).scatter_(0, top_idx, 1)
    locations1 = torch.cumsum(mask1, dim=0) - 1
    locations1_s = torch.sum(locations1 * mask1, dim=1)
    gates = gates * mask1.float()
    locations1_sc = _one_hot_to_float(locations1_s, capacity)
    combine_weights = torch.einsum("se,sc->sec", gates, locations1_sc)
    dispatch_mask = combine_weights.bool()
    return l_aux, combine_weights, dispatch_mask, exp_counts

class TopKGate(nn.Module):
    def __init__(self, model_dim, num_experts, k=1, capacity_factor=1.0, min_capacity=4):
        super().__init__()
        self.wg = torch.nn.Linear(model_dim, num_experts, bias=False).float()
        self.k, self.capacity_factor, self.min_capacity = k, capacity_factor, min_capacity

    def forward(self, input, used_token=None):
        input_fp32 = input.float()
        logits = torch.nn.functional.linear(input_fp32, weight=self.wg.weight.float(), bias=None)
        return top1gating(logits, self.capacity_factor, self.min_capacity)

class Experts(nn.Module):
    def __init__(self, expert, num_local_experts=1):
        super().__init__()
        self.deepspeed_experts = nn.ModuleList([expert() for _ in range(num_local_experts)])
        self.num_local_experts = num_local_experts

    def forward(self, inputs):
        chunks = inputs.chunk(self.num_local_experts, dim=1)
        expert_outputs = [expert(chunk) for chunk, expert in zip(chunks, self.deepspeed_experts)]
        return torch.cat(expert_outputs, dim=1)

class MOELayer(nn.Module):
    def __init__(self, gate, experts, num_local_experts, ep_size=1):
        super().__init__()
        self.gate, self.experts = gate, experts
        self.num_local_experts, self.ep_size = num_local_experts, ep_size

    def forward(self, *input):
        d_model = input[0].shape[-1]
        reshaped_input = input[0].reshape(-1, d_model)
        self.l_aux, combine_weights, dispatch_mask, self.exp_counts = self.gate(reshaped_input, input[1])
        dispatched_input = torch.einsum("sec,sm->ecm", dispatch_mask.type_as(input[0]), reshaped_input)
        dispatched_input = dispatched_input.reshape(self.ep_size, self.num_local_experts, -1, d_model)
        expert_output = self.experts(dispatched_input)
        expert_output = expert_output.reshape(self.ep_size * self.num_local_experts, -1, d_model)
        combined_output = torch.einsum("sec,ecm->sm", combine_weights.type_as(input[0]), expert_output)
        return combined_output.reshape(input[0].shape)

class MoE(nn.Module):
    def __init__(self, hidden_size, expert, num_experts=4, k=1):
        super().__init__()
        self.deepspeed_moe = MOELayer(TopKGate(hidden_size, num_experts, k),
                                      Experts(expert, num_experts), num_local_experts=num_experts)

    def forward(self, hidden_states, used_token=None):
        output = self.deepspeed_moe(hidden_states, used_token)
        return output, self.deepspeed_moe.l_aux, self.deepspeed_moe.exp_counts

hidden = 16
moe = MoE(hidden_size=hidden, expert=lambda: nn.Sequential(nn.Linear(hidden, 32), nn.ReLU(), nn.Linear(32, hidden)),
          num_experts=4, k=1)
moe = moe.to("cuda:0").eval()
x = torch.randn(2, 8, hidden).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    output, l_aux, exp_counts = moe(x)
print(output.device, l_aux.device, exp_counts.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
