"""Look-alike: Mixtral split over two GPUs; transformers' `load_balancing_loss_func` gathers each layer's router logits on the first layer's device.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/mixtral/modeling_mixtral.py
With `device_map="auto"` over two GPUs and `output_router_logits=True`, the decoder layers return their
router logits on cuda:0 and cuda:1. `load_balancing_loss_func` takes `compute_device = gate_logits[0].device`
and moves every layer's logits there before `torch.cat`, so the auxiliary loss is computed on cuda:0
while the logits tuple itself stays spread over two GPUs by design.
Stand-in: two MixtralDecoderLayers (gate + top-2 softmax routing, dense expert mix), accelerate's
device-map hooks as a forward pre-hook, and the loss function without the attention-mask branch.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class MixtralBlockSparseTop2MLP(nn.Module):
    def __init__(self, hidden_dim=32, ffn_dim=64):
        super().__init__()
        self.w1 = nn.Linear(hidden_dim, ffn_dim, bias=False)
        self.w2 = nn.Linear(ffn_dim, hidden_dim, bias=False)
        self.w3 = nn.Linear(hidden_dim, ffn_dim, bias=False)

    def forward(self, hidden_states):
        return self.w2(F.silu(self.w1(hidden_states)) * self.w3(hidden_states))

class MixtralSparseMoeBlock(nn.Module):
    def __init__(self, hidden_dim=32, num_experts=8, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.gate = nn.Linear(hidden_dim, num_experts, bias=False)
        self.experts = nn.ModuleList([MixtralBlockSparseTop2MLP(hidden_dim) for _ in range(num_experts)])

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        final_hidden_states = torch.zeros_like(hidden_states)
        for expert_idx in range(self.num_experts):
            # dense stand-in for the token gather: every expert sees every token, weighted by its routing share
            share = (routing_weights * (selected_experts == expert_idx)).sum(dim=-1, keepdim=True)
            final_hidden_states = final_hidden_states + self.experts[expert_idx](hidden_states) * share
        return final_hidden_states.reshape(batch_size, sequence_length, hidden_dim), router_logits

class MixtralDecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.block_sparse_moe = MixtralSparseMoeBlock(hidden)

    def forward(self, hidden_states):
        out, router_logits = self.block_sparse_moe(hidden_states)
        return hidden_states + out, router_logits

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) for a in args)

class MixtralForCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([MixtralDecoderLayer(hidden) for _ in range(n_layers)])
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids, output_router_logits=True):
        hidden_states = self.embed_tokens(input_ids)
        all_router_logits = ()
        for layer in self.layers:
            hidden_states, router_logits = layer(hidden_states)
            all_router_logits += (router_logits,)
        logits = self.lm_head(hidden_states.to(self.lm_head.weight.device))
        return logits, all_router_logits

def load_balancing_loss_func(gate_logits, num_experts=None, top_k=2):
    if gate_logits is None:
        return 0
    if isinstance(gate_logits, tuple):
        # cat along the layers?
        compute_device = gate_logits[0].device
        gate_logits = torch.cat([layer_gate.to(compute_device) for layer_gate in gate_logits], dim=0)
    routing_weights, selected_experts = torch.topk(gate_logits, top_k, dim=-1)
    routing_weights = routing_weights.softmax(dim=-1)
    if selected_experts.dtype != torch.int64:
        selected_experts = selected_experts.to(torch.int64)
    if len(selected_experts.shape) == 2:
        selected_experts = selected_experts.unsqueeze(2)
    expert_mask = torch.nn.functional.one_hot(selected_experts, num_experts)
    expert_mask = torch.max(expert_mask, axis=-2).values
    expert_mask = expert_mask.to(torch.float32)
    tokens_per_group_and_expert = torch.mean(expert_mask, axis=-2)
    router_prob_per_group_and_expert = torch.mean(routing_weights, axis=-1)
    return torch.mean(tokens_per_group_and_expert * router_prob_per_group_and_expert.unsqueeze(-1)) * (num_experts ** 2)

# device_map="auto" over two GPUs: embeddings + layer 0 on cuda:0, layer 1 + lm_head on cuda:1
model = MixtralForCausalLM()
model.embed_tokens.to("cuda:0")
model.layers[0].to("cuda:0")
model.layers[1].to("cuda:1")
model.lm_head.to("cuda:1")
for layer in model.layers:
    layer.register_forward_pre_hook(align_devices_hook)
model.eval()

input_ids = torch.randint(0, 100, (2, 6)).to("cuda:0")
with torch.no_grad():
    logits, router_logits = model(input_ids, output_router_logits=True)
'''
CELL = '''
aux_loss = load_balancing_loss_func(router_logits, num_experts=8, top_k=2)
print(aux_loss.device, [t.device for t in router_logits])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
