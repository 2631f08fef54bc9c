"""LeRobot SmolVLA on a multi-GPU machine: the VLM is loaded with `device_map="auto"`, so accelerate spreads it over cuda:0 and cuda:1.

Source: https://github.com/huggingface/lerobot/pull/2270
"[Fix] Device Error on SmolVLA Multi-GPU Training". `SmolVLMWithExpertModel.__init__` loaded the backbone
with `AutoModelForImageTextToText.from_pretrained(model_id, device_map="auto", torch_dtype="bfloat16")`; on a
box with two GPUs accelerate dispatches the text layers and the final norm to cuda:1 and attaches
device-alignment hooks to those blocks. `make_policy` then calls `policy.to(cfg.device)`, but the hooks still
send the inputs of the dispatched blocks to cuda:1, while SmolVLA runs the expert and the VLM side by side
on cuda:0. The merged fix passes the policy's device instead: `device_map=device` (`device=self.config.device`).
Stand-ins (reduced): the SmolVLM backbone (embeddings, decoder layers, final norm), `from_pretrained` with an
accelerate-like dispatch (params placed per device map + a pre-forward hook moving inputs to the block's
execution device), the SmolVLM-with-expert joint attention and the VLAFlowMatching loss.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


class Attn(nn.Module):
    def __init__(self, hidden, heads=2, head_dim=4):
        super().__init__()
        self.head_dim = head_dim
        self.q_proj = nn.Linear(hidden, heads * head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, heads * head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, heads * head_dim, bias=False)
        self.o_proj = nn.Linear(heads * head_dim, hidden, bias=False)


class DecoderLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.input_layernorm = RMSNorm(hidden)
        self.self_attn = Attn(hidden)
        self.post_attention_layernorm = RMSNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 2 * hidden), nn.SiLU(), nn.Linear(2 * hidden, hidden))


class TextModel(nn.Module):
    def __init__(self, hidden, num_layers, vocab=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden) if vocab else None
        self.layers = nn.ModuleList([DecoderLayer(hidden) for _ in range(num_layers)])
        self.norm = RMSNorm(hidden)

    def get_input_embeddings(self):
        return self.embed_tokens


class SmolVLMModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.text_model = TextModel(hidden=16, num_layers=2)


class SmolVLMForConditionalGeneration(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = SmolVLMModel()


def _align_device_hook(execution_device):
    """accelerate AlignDevicesHook.pre_forward, reduced: send the block's inputs to its execution device."""
    def pre_forward(module, args):
        return tuple(a.to(execution_device) if torch.is_tensor(a) else a for a in args)
    return pre_forward


class AutoModelForImageTextToText:
    """transformers Auto class + accelerate dispatch_model, reduced to two GPUs."""
    @staticmethod
    def from_pretrained(model_id, device_map="auto", torch_dtype=None, low_cpu_mem_usage=True):
        model = SmolVLMForConditionalGeneration()
        if device_map == "auto":
            device_map = {
                "model.text_model.embed_tokens": "cuda:0",
                "model.text_model.layers.0": "cuda:0",
                "model.text_model.layers.1": "cuda:1",
                "model.text_model.norm": "cuda:1",
            }
        else:
            device_map = {"": device_map}
        model.hf_device_map = device_map
        for name, dev in device_map.items():
            block = model.get_submodule(name) if name else model
            block.to(dev)
            block.register_forward_pre_hook(_align_device_hook(torch.device(dev)))
        return model


def apply_attn(q, k, v):
    att = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
    return att @ v


class SmolVLMWithExpertModel(nn.Module):
    def __init__(self, model_id="HuggingFaceTB/SmolVLM2-500M-Video-Instruct", load_vlm_weights=True,
                 expert_width_multiplier=0.5):
        super().__init__()
        if load_vlm_weights:
            self.vlm = AutoModelForImageTextToText.from_pretrained(
                model_id,
                device_map="auto",
                torch_dtype="bfloat16",
                low_cpu_mem_usage=True,
            )
        self.lm_expert = TextModel(hidden=int(16 * expert_width_multiplier), num_layers=2, vocab=0)

    def get_vlm_model(self):
        return self.vlm.model

    def forward_attn_layer(self, model_layers, inputs_embeds, layer_idx):
        query_states, key_states, value_states = [], [], []
        for i, hidden_states in enumerate(inputs_embeds):
            layer = model_layers[i][layer_idx]
            hidden_states = layer.input_layernorm(hidden_states)
            query_states.append(layer.self_attn.q_proj(hidden_states))
            key_states.append(layer.self_attn.k_proj(hidden_states))
            value_states.append(layer.self_attn.v_proj(hidden_states))
        query_states = torch.cat(query_states, dim=1)
        key_states = torch.cat(key_states, dim=1)
        value_states = torch.cat(value_states, dim=1)
        return apply_attn(query_states, key_states, value_states)

    def forward(self, inputs_embeds):
        models = [self.get_vlm_model().text_model, self.lm_expert]
        model_layers = [list(m.layers) for m in models]
        for layer_idx in range(len(model_layers[0])):
            att_output = self.forward_attn_layer(model_layers, inputs_embeds, layer_idx)
            outputs_embeds, start = [], 0
            for i, hidden_states in enumerate(inputs_embeds):
                layer = model_layers[i][layer_idx]
                end = start + hidden_states.shape[1]
                out_emb = layer.self_attn.o_proj(att_output[:, start:end]) + hidden_states
                out_emb = out_emb + layer.mlp(layer.post_attention_layernorm(out_emb))
                outputs_embeds.append(out_emb)
                start = end
            inputs_embeds = outputs_embeds
        return [models[i].norm(h) for i, h in enumerate(inputs_embeds)]


class VLAFlowMatching(nn.Module):
    def __init__(self, max_state_dim=6, max_action_dim=6):
        super().__init__()
        self.vlm_with_expert = SmolVLMWithExpertModel()
        self.state_proj = nn.Linear(max_state_dim, 16)
        self.action_in_proj = nn.Linear(max_action_dim, 8)
        self.action_out_proj = nn.Linear(8, max_action_dim)

    def forward(self, lang_tokens, state, actions, noise, time):
        x_t = time[:, None, None] * noise + (1 - time[:, None, None]) * actions
        u_t = noise - actions
        lang_emb = self.vlm_with_expert.get_vlm_model().text_model.get_input_embeddings()(lang_tokens)
        prefix_embs = torch.cat([lang_emb, self.state_proj(state)[:, None, :]], dim=1)
        suffix_embs = self.action_in_proj(x_t)
        _, suffix_out = self.vlm_with_expert([prefix_embs, suffix_embs])
        v_t = self.action_out_proj(suffix_out)
        return F.mse_loss(u_t, v_t, reduction="none")


class SmolVLAPolicy(nn.Module):
    name = "smolvla"

    def __init__(self):
        super().__init__()
        self.model = VLAFlowMatching()

    def forward(self, batch):
        losses = self.model(batch["lang_tokens"], batch["observation.state"], batch["action"],
                            batch["noise"], batch["time"])
        loss = losses.mean()
        return loss, {"loss": loss}


device = torch.device("cuda:0")
policy = SmolVLAPolicy()
policy.to(device)   # make_policy: policy.to(cfg.device)
batch = {
    "lang_tokens": torch.randint(0, 32, (2, 5), device=device),
    "observation.state": torch.randn(2, 6, device=device),
    "action": torch.randn(2, 4, 6, device=device),
    "noise": torch.randn(2, 4, 6, device=device),
    "time": torch.rand(2, device=device),
}
'''
CELL = '''
loss, output_dict = policy.forward(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy.model.vlm_with_expert"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "                device_map=\"auto\",\n"
    "                torch_dtype=\"bfloat16\",\n",
    "                device_map=\"cuda:0\",\n"
    "                torch_dtype=\"bfloat16\",\n",
)
CLEAN = False
