"""AutoGPTQ quantization of Llama 3.1 with transformers >= 4.43: the model-level rotary embedding is not among the modules AutoGPTQ moves to the GPU.

Source: https://github.com/AutoGPTQ/AutoGPTQ/issues/729
"[BUG] Transformer Regression: Llama3.1 - tensors on two devices": the user's script
(`AutoGPTQForCausalLM.from_pretrained(pretrained_model_dir, quantize_config)` on the CPU, then
`model.quantize(calibration_samples)`) worked for Llama 3 but fails for Llama 3.1 with tensors on
CPU and GPU. `quantize` moves the first decoder layer and the `outside_layer_modules`
(`model.embed_tokens`, `model.norm`) to the GPU and feeds the calibration batches there; since
transformers 4.43 the rotary embedding is a model-level module (`model.model.rotary_emb`) called
before the layers, and it stays on the CPU, so `inv_freq @ position_ids` mixes devices. The thread
was closed as fixed in AutoGPTQ's source (installing from source; the Olive PR discussion
confirms), which moves the rotary embedding with the other outside-layer modules.
Stand-ins: a two-layer Llama with a model-level `rotary_emb` (non-persistent `inv_freq`), AutoGPTQ
0.7's `quantize` capture step with `LayerHijacker` and the per-layer loop (the GPTQ solve replaced
by a forward), random calibration ids; the hijacker is removed in a `finally` so a re-run starts
clean.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

CUDA_0 = torch.device("cuda:0")
CPU = torch.device("cpu")

def get_device(obj):
    return next(obj.parameters()).device

def get_module_by_name_prefix(model, module_name):
    for name, module in model.named_modules():
        if name.startswith(module_name):
            return module

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, base=500000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(hidden)
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, hidden, bias=False)

    def forward(self, hidden_states, attention_mask=None, position_embeddings=None):
        cos, sin = position_embeddings
        h = self.q_proj(self.input_layernorm(hidden_states))
        return (hidden_states + self.down_proj(h * cos + h * sin),)

class LlamaModel(nn.Module):
    def __init__(self, vocab=64, hidden=16, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([LlamaDecoderLayer(hidden) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(hidden)
        self.rotary_emb = LlamaRotaryEmbedding(hidden)

    def forward(self, input_ids, attention_mask=None):
        inputs_embeds = self.embed_tokens(input_ids)
        position_ids = torch.arange(input_ids.shape[1], device=inputs_embeds.device).unsqueeze(0)
        hidden_states = inputs_embeds
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, attention_mask=attention_mask,
                                          position_embeddings=position_embeddings)[0]
        return self.norm(hidden_states)

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.lm_head = nn.Linear(16, 64, bias=False)

    def forward(self, input_ids, attention_mask=None):
        return self.lm_head(self.model(input_ids, attention_mask))

class LlamaGPTQForCausalLM:
    layers_block_name = "model.layers"
    outside_layer_modules = ["model.embed_tokens", "model.norm"]

    def __init__(self, model, quantize_config):
        self.model, self.quantize_config = model, quantize_config

    @classmethod
    def from_pretrained(cls, pretrained_model_dir, quantize_config):
        return cls(LlamaForCausalLM(), quantize_config)

    @torch.no_grad()
    def quantize(self, examples):
        layer_inputs, layer_input_kwargs = [], []

        class LayerHijacker(nn.Module):
            def __init__(self, m, device):
                super().__init__()
                self.module, self.data_device = m, device

            def forward(self, inp=None, **kwargs):
                layer_inputs.append(inp)
                layer_input_kwargs.append(kwargs)
                raise ValueError

        layers = get_module_by_name_prefix(self.model, self.layers_block_name)
        if get_device(layers[0]) == CPU:
            layers[0] = layers[0].to(CUDA_0)
        cur_layer_device = get_device(layers[0])
        for module_name in self.outside_layer_modules:
            module = get_module_by_name_prefix(self.model, module_name)
            if module is not None:
                module.to(cur_layer_device)
        layers[0] = LayerHijacker(layers[0], cur_layer_device)
        try:
            for example in examples:
                for k, v in example.items():
                    example[k] = v.to(cur_layer_device)
                try:
                    self.model(**example)
                except ValueError:
                    pass
        finally:
            layers[0] = layers[0].module
        for i in range(len(layers)):
            layer = layers[i].to(CUDA_0)
            layer_inputs = [layer(inp, **kw)[0] for inp, kw in zip(layer_inputs, layer_input_kwargs)]

AutoGPTQForCausalLM = LlamaGPTQForCausalLM
pretrained_model_dir = "meta-llama/Meta-Llama-3.1-8B-Instruct"
quantize_config = {"bits": 4, "group_size": 128, "desc_act": False}
model = AutoGPTQForCausalLM.from_pretrained(pretrained_model_dir, quantize_config)
calibration_samples = []
for _ in range(2):
    input_ids = torch.randint(0, 64, (1, 16))
    calibration_samples.append({"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids)})
'''
CELL = '''
model.quantize(calibration_samples)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.model.rotary_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model.model.rotary_emb.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
