"""Look-alike: openpi's PyTorch pi0 keeps the Gemma norms in float32, the linears in bf16, and casts activations at each boundary itself.

Source: https://github.com/Physical-Intelligence/openpi/blob/15a9616a00943ada6c20a0f158e3adb39df2ccac/src/openpi/models_pytorch/gemma_pytorch.py
`PaliGemmaWithExpertModel.to_bfloat16_for_selected_params` casts the model to bf16 and puts
`input_layernorm` / `post_attention_layernorm` / `model.norm` back to float32. `compute_layer_complete` runs
the VLM and the action expert side by side: the fp32 RMSNorm computes in float32 and returns the input
dtype, `att_output` is cast to `o_proj.weight.dtype`, and `out_emb` is cast to bf16 when `mlp.up_proj` is
bf16. `PI0Pytorch.forward` (pi0_pytorch.py, same commit) casts the fp32 prefix/suffix embeddings to bf16
when the first q_proj is bf16, and `suffix_out.to(dtype=torch.float32)` before the fp32 `action_out_proj`.
Stand-ins: Gemma layers reduced (no rotary, no adaRMS), two layers, tiny widths.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn


class GemmaRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(dim, dtype=torch.bfloat16))

    def _norm(self, x):
        var = torch.mean(torch.square(x.float()), dim=-1, keepdim=True)
        return x * torch.rsqrt(var + self.eps)

    def forward(self, x, cond=None):
        dtype = x.dtype
        normed_inputs = self._norm(x)
        normed_inputs = normed_inputs * (1.0 + self.weight.float())
        return normed_inputs.to(dtype), None


class GemmaAttention(nn.Module):
    def __init__(self, hidden, heads=2, head_dim=8):
        super().__init__()
        self.head_dim = head_dim
        self.scaling = head_dim ** -0.5
        self.q_proj = nn.Linear(hidden, heads * head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, heads * head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, heads * head_dim, bias=False)
        self.o_proj = nn.Linear(heads * head_dim, hidden, bias=False)


class GemmaMLP(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, 2 * hidden, bias=False)
        self.up_proj = nn.Linear(hidden, 2 * hidden, bias=False)
        self.down_proj = nn.Linear(2 * hidden, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(F.gelu(self.gate_proj(x), approximate="tanh") * self.up_proj(x))


class GemmaDecoderLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.input_layernorm = GemmaRMSNorm(hidden)
        self.self_attn = GemmaAttention(hidden)
        self.post_attention_layernorm = GemmaRMSNorm(hidden)
        self.mlp = GemmaMLP(hidden)


class GemmaModel(nn.Module):
    def __init__(self, hidden, num_layers=2):
        super().__init__()
        self.layers = nn.ModuleList([GemmaDecoderLayer(hidden) for _ in range(num_layers)])
        self.norm = GemmaRMSNorm(hidden)


def _gated_residual(x, y, gate):
    if gate is None:
        return x + y
    return x + y * gate


class PaliGemmaWithExpertModel(nn.Module):
    def __init__(self, precision="bfloat16"):
        super().__init__()
        self.language_model = GemmaModel(32)
        self.gemma_expert = GemmaModel(16)
        self.to_bfloat16_for_selected_params(precision)

    def to_bfloat16_for_selected_params(self, precision="bfloat16"):
        if precision == "bfloat16":
            self.to(dtype=torch.bfloat16)
        elif precision == "float32":
            self.to(dtype=torch.float32)
            return
        params_to_keep_float32 = ["input_layernorm", "post_attention_layernorm", "model.norm"]
        for name, param in self.named_parameters():
            if any(selector in name for selector in params_to_keep_float32):
                param.data = param.data.to(dtype=torch.float32)

    def forward(self, inputs_embeds):
        models = [self.language_model, self.gemma_expert]

        def compute_layer_complete(layer_idx, inputs_embeds):
            query_states, key_states, value_states, gates = [], [], [], []
            for i, hidden_states in enumerate(inputs_embeds):
                layer = models[i].layers[layer_idx]
                hidden_states, gate = layer.input_layernorm(hidden_states)
                gates.append(gate)
                query_states.append(layer.self_attn.q_proj(hidden_states))
                key_states.append(layer.self_attn.k_proj(hidden_states))
                value_states.append(layer.self_attn.v_proj(hidden_states))
            query_states = torch.cat(query_states, dim=1)
            key_states = torch.cat(key_states, dim=1)
            value_states = torch.cat(value_states, dim=1)
            scaling = self.language_model.layers[layer_idx].self_attn.scaling
            attn = torch.softmax((query_states @ key_states.transpose(-1, -2)) * scaling, dim=-1)
            att_output = attn @ value_states

            outputs_embeds, start_pos = [], 0
            for i, hidden_states in enumerate(inputs_embeds):
                layer = models[i].layers[layer_idx]
                end_pos = start_pos + hidden_states.shape[1]
                if att_output.dtype != layer.self_attn.o_proj.weight.dtype:
                    att_output = att_output.to(layer.self_attn.o_proj.weight.dtype)
                out_emb = layer.self_attn.o_proj(att_output[:, start_pos:end_pos])
                out_emb = _gated_residual(hidden_states, out_emb, gates[i])
                after_first_residual = out_emb.clone()
                out_emb, gate = layer.post_attention_layernorm(out_emb)
                if layer.mlp.up_proj.weight.dtype == torch.bfloat16:
                    out_emb = out_emb.to(dtype=torch.bfloat16)
                out_emb = layer.mlp(out_emb)
                out_emb = _gated_residual(after_first_residual, out_emb, gate)
                outputs_embeds.append(out_emb)
                start_pos = end_pos
            return outputs_embeds

        for layer_idx in range(len(self.language_model.layers)):
            inputs_embeds = compute_layer_complete(layer_idx, inputs_embeds)
        return [models[i].norm(h)[0] for i, h in enumerate(inputs_embeds)]


class PI0Pytorch(nn.Module):
    def __init__(self, action_dim=32, action_horizon=10):
        super().__init__()
        self.action_horizon = action_horizon
        self.paligemma_with_expert = PaliGemmaWithExpertModel(precision="bfloat16")
        self.embed_tokens = nn.Embedding(64, 32)
        self.action_in_proj = nn.Linear(action_dim, 16)
        self.action_out_proj = nn.Linear(16, action_dim)

    def forward(self, lang_tokens, actions, noise, time):
        time_expanded = time[:, None, None]
        x_t = time_expanded * noise + (1 - time_expanded) * actions
        u_t = noise - actions
        prefix_embs = self.embed_tokens(lang_tokens)
        suffix_embs = self.action_in_proj(x_t)
        if self.paligemma_with_expert.language_model.layers[0].self_attn.q_proj.weight.dtype == torch.bfloat16:
            suffix_embs = suffix_embs.to(dtype=torch.bfloat16)
            prefix_embs = prefix_embs.to(dtype=torch.bfloat16)
        _, suffix_out = self.paligemma_with_expert([prefix_embs, suffix_embs])
        suffix_out = suffix_out[:, -self.action_horizon:]
        suffix_out = suffix_out.to(dtype=torch.float32)
        v_t = self.action_out_proj(suffix_out)
        return F.mse_loss(u_t, v_t, reduction="none")


model = PI0Pytorch()
lang_tokens = torch.randint(0, 64, (2, 6))
actions = torch.randn(2, 10, 32)
noise = torch.randn(2, 10, 32)
time = torch.rand(2) * 0.999 + 0.001
'''
CELL = '''
losses = model(lang_tokens, actions, noise, time)
loss = losses.mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
