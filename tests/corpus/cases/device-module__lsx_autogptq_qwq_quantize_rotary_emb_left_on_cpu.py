"""AutoGPTQ quantizing Qwen/QwQ-32B: layers are moved to the GPU one by one, the model-level rotary embedding stays on the cpu.

Source: https://github.com/QwenLM/Qwen/issues/1373
Running AutoGPTQ's `examples/quantization/quant_with_alpaca.py` on QwQ-32B failed in
`Qwen2RotaryEmbedding.forward` at `inv_freq_expanded.float() @ position_ids_expanded.float()` with
"cpu and cuda:0 (... mat2 in method wrapper_CUDA_bmm)". Newer transformers moved the rotary embedding
from each attention layer to `model.model.rotary_emb`; AutoGPTQ's calibration loop only moves the
embeddings/norm it knows about and each decoder layer in turn to cuda, so `rotary_emb.inv_freq` stays
on the cpu while the calibration `position_ids` are on cuda:0. Moving `model.model.rotary_emb` to the
GPU lets the forward run.
Stand-in: a Qwen2-shaped model (rotary at model level), and AutoGPTQ's layer-by-layer calibration pass.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Qwen2RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

class Qwen2DecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d)
        self.o_proj = nn.Linear(d, d)

    def forward(self, h, position_embeddings):
        cos, sin = position_embeddings
        return h + self.o_proj(self.q_proj(h) * cos + sin)

class Qwen2Model(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Qwen2DecoderLayer(d) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d)
        self.rotary_emb = Qwen2RotaryEmbedding(d)

class Qwen2ForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Qwen2Model()
        self.lm_head = nn.Linear(32, 100, bias=False)

class BaseGPTQForCausalLM:
    outside_layer_modules = ["model.embed_tokens", "model.norm"]

    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def quantize(self, examples, cur_device="cuda:0"):
        for name in self.outside_layer_modules:
            self.model.get_submodule(name).to(cur_device)
        input_ids = examples[0]["input_ids"].to(cur_device)
        position_ids = torch.arange(input_ids.shape[-1], device=cur_device)[None]
        hidden = self.model.model.embed_tokens(input_ids)
        for layer in self.model.model.layers:
            layer.to(cur_device)
            position_embeddings = self.model.model.rotary_emb(hidden, position_ids)
            hidden = layer(hidden, position_embeddings)
            layer.to("cpu")                               # quantized, moved back
        return hidden

model = BaseGPTQForCausalLM(Qwen2ForCausalLM())         # AutoGPTQForCausalLM.from_pretrained(pretrained_model_dir, quantize_config)
examples = [{"input_ids": torch.randint(0, 100, (1, 12))}]
'''
CELL = '''
model.quantize(examples)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.model.rotary_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model.model.rotary_emb.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
