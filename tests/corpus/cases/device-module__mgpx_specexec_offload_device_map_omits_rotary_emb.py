"""SpecExec offloaded Llama: the hand-written device_map leaves `model.rotary_emb` out, so its `inv_freq` stays on the CPU.

Source: https://github.com/yandex-research/specexec/issues/1
Running SpecExec with `--offload` (decoder layers kept in CPU RAM and paged onto the GPU) failed with
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when
checking argument for argument mat2 in method wrapper_CUDA_bmm)" at
`freqs = (inv_freq_expanded.float() @ position_ids_expanded.float())`: `inv_freq` was a CPU tensor. A
commenter found that `load_offloaded_model` builds a device_map with `model.embed_tokens`, `model.layers`,
`model.norm` and `lm_head` but not `model.rotary_emb`; adding it (on cuda:0) fixed it, and the maintainer
fixed the code that way. Stand-ins: a tiny Llama (transformers 4.44 layout, rotary embedding on the
model), `from_pretrained(device_map=...)` placing each listed module, and the offloading cache reduced to
decoder layers held on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class LlamaConfig:
    vocab_size = 128
    hidden_size = 32
    num_hidden_layers = 2
    num_attention_heads = 4
    rope_theta = 10000.0

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, config, device=None):
        super().__init__()
        dim = config.hidden_size // config.num_attention_heads
        inv_freq = 1.0 / (config.rope_theta ** (torch.arange(0, dim, 2, dtype=torch.int64).float().to(device) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids.unsqueeze(1).float()          # position_ids[:, None, :]
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(dtype=x.dtype), emb.sin().to(dtype=x.dtype)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, config, layer_idx=None):
        super().__init__()
        d = config.hidden_size
        self.layer_idx = layer_idx
        self.input_layernorm = nn.LayerNorm(d)
        self.q_proj = nn.Linear(d, d, bias=False)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.SiLU(), nn.Linear(2 * d, d))

    def forward(self, hidden_states, position_embeddings):
        cos, sin = position_embeddings
        h = self.input_layernorm(hidden_states)
        q = self.q_proj(h)
        q = q * cos.repeat(1, 1, q.shape[-1] // cos.shape[-1]) + q * sin.repeat(1, 1, q.shape[-1] // sin.shape[-1])
        hidden_states = hidden_states + q
        return hidden_states + self.mlp(hidden_states)

class LlamaModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([LlamaDecoderLayer(config, i) for i in range(config.num_hidden_layers)])
        self.norm = nn.LayerNorm(config.hidden_size)
        self.rotary_emb = LlamaRotaryEmbedding(config)

    def forward(self, input_ids):
        inputs_embeds = self.embed_tokens(input_ids)
        position_ids = torch.arange(input_ids.shape[1], device=inputs_embeds.device).unsqueeze(0)
        hidden_states = inputs_embeds
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, position_embeddings)
        return self.norm(hidden_states)

class LlamaForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.model = LlamaModel(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.model(input_ids))

    @classmethod
    def from_pretrained(cls, model_name, device_map=None, **kwargs):
        # stand-in: the model is built on the CPU (buffers too) and each module named in device_map is
        # placed on its device; a module the map does not name stays where it was built
        model = cls(LlamaConfig())
        for name, device in device_map.items():
            if device != "meta":
                model.get_submodule(name).to(device)
        model.hf_device_map = dict(device_map)
        return model

class OffloadedLayerIter(nn.Module):
    # stand-in: the OffloadingCache keeps `device_size` decoder layers in GPU buffers and pages the others
    # in from CPU RAM; here the GPU buffers simply hold every layer
    def __init__(self, layers, main_device):
        super().__init__()
        self.buffers_on_device = layers.to(main_device)

    def __iter__(self):
        for layer_idx, module in enumerate(self.buffers_on_device):
            module.layer_idx = layer_idx
            yield module

    def __getitem__(self, idx):
        return self.buffers_on_device[idx]

def load_offloaded_model(model_name, device_size=3, main_device=torch.device("cuda:0")):
    device_map = {
        "model.embed_tokens": "cuda:0",
        "model.layers": "meta",
        "model.norm": "cuda:0",
        "lm_head": "cuda:0",
    }
    model = LlamaForCausalLM.from_pretrained(model_name, device_map=device_map, low_cpu_mem_usage=True)
    model.model.layers = OffloadedLayerIter(model.model.layers, main_device)
    return model

model = load_offloaded_model("meta-llama/Llama-2-7b-chat-hf", device_size=3)
input_ids = torch.randint(0, 128, (1, 10)).to("cuda:0")
'''
CELL = '''
logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.rotary_emb"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        "model.norm": "cuda:0",\n',
                  '        "model.norm": "cuda:0",\n        "model.rotary_emb": "cuda:0",\n')
CLEAN = False
