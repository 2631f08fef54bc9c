"""InternVL2.5 on several V100s: split_model()'s device map has no entry for the LLM's rotary embedding.

Source: https://github.com/OpenGVLab/InternVL/pull/789
Multi-GPU inference with the `split_model()` map (issue #774) failed with a cross-device error in
the language model's first attention step. The map places `vision_model`, `mlp1`, the embeddings,
the norm, `lm_head` and the layers, but not `language_model.model.rotary_emb`, a module with no
weights whose `inv_freq` buffer therefore never reached a GPU; the rotary embedding's matmul then
mixes its buffer with the `position_ids` on cuda:0. The PR adds
`device_map['language_model.model.rotary_emb'] = 0`. Stand-in: a Qwen2-style LLM with a model-level
rotary embedding (transformers 4.45 layout), a pre-hook in place of accelerate's AlignDevicesHook.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args, kwargs):
    device = next(module.parameters()).device
    move = lambda a: tuple(move(x) for x in a) if isinstance(a, tuple) else (a.to(device) if torch.is_tensor(a) else a)
    return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook, with_kwargs=True)

class Qwen2RotaryEmbedding(nn.Module):
    def __init__(self, dim=8, base=1000000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

class Qwen2DecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.q_proj = nn.Linear(hidden, hidden)

    def forward(self, hidden_states, position_embeddings):
        cos, sin = position_embeddings
        q = self.q_proj(hidden_states).view(*hidden_states.shape[:2], 4, 8)
        q = q * cos[:, :, None, :] + q * sin[:, :, None, :]
        return hidden_states + q.flatten(2)

class Qwen2Model(nn.Module):
    def __init__(self, vocab=100, hidden=32, num_layers=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([Qwen2DecoderLayer(hidden) for _ in range(num_layers)])
        self.norm = nn.LayerNorm(hidden)
        self.rotary_emb = Qwen2RotaryEmbedding()

    def forward(self, inputs_embeds):
        position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device)[None]
        position_embeddings = self.rotary_emb(inputs_embeds, position_ids)
        h = inputs_embeds
        for layer in self.layers:
            h = layer(h, position_embeddings=position_embeddings)
        return self.norm(h)

class Qwen2ForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Qwen2Model()
        self.lm_head = nn.Linear(32, 100, bias=False)

class InternVLChatModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_model = nn.Sequential(nn.Conv2d(3, 24, 8, stride=8), nn.Flatten(2))
        self.mlp1 = nn.Sequential(nn.LayerNorm(24), nn.Linear(24, 32), nn.GELU(), nn.Linear(32, 32))
        self.language_model = Qwen2ForCausalLM()

    @torch.no_grad()
    def chat(self, tokenizer, pixel_values, question, generation_config):
        vit_embeds = self.mlp1(self.vision_model(pixel_values).transpose(1, 2))
        input_ids = tokenizer(question).to(self.language_model.model.embed_tokens.weight.device)
        input_embeds = self.language_model.model.embed_tokens(input_ids)
        input_embeds = torch.cat([vit_embeds.reshape(1, -1, 32).to(input_embeds.device), input_embeds], dim=1)
        hidden = self.language_model.model(input_embeds)
        return self.language_model.lm_head(hidden)[:, -1].argmax(-1)

def split_model(num_layers=4):
    device_map = {}
    num_layers_per_gpu = [1, 3]
    layer_cnt = 0
    for i, num_layer in enumerate(num_layers_per_gpu):
        for j in range(num_layer):
            device_map[f"language_model.model.layers.{layer_cnt}"] = i
            layer_cnt += 1
    device_map["vision_model"] = 0
    device_map["mlp1"] = 0
    device_map["language_model.model.embed_tokens"] = 0
    device_map["language_model.model.norm"] = 0
    device_map["language_model.lm_head"] = 0
    device_map[f"language_model.model.layers.{num_layers - 1}"] = 0
    return device_map

def tokenizer(text):
    return torch.tensor([[ord(c) % 100 for c in text]])

model = InternVLChatModel().eval()
device_map = split_model()
for name, gpu in device_map.items():        # from_pretrained(path, device_map=device_map)
    dispatch(model.get_submodule(name), f"cuda:{gpu}")
generation_config = dict(max_new_tokens=1024, do_sample=False)
pixel_values = torch.randn(1, 3, 32, 32).to("cuda:0")
'''
CELL = '''
question = "<image>\\nPlease describe the image in detail."
response = model.chat(tokenizer, pixel_values, question, generation_config)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.language_model.model.rotary_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
model.language_model.model.rotary_emb.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
