"""AutoAWQ quantization of a model spread over several GPUs: `move_embed` pulls the model-level rotary embedding onto GPU 0 while its accelerate hook still sends its inputs to the GPU it was dispatched to.

Source: https://github.com/casper-hansen/AutoAWQ/issues/663
Quantizing Llama 3.1 70B loaded with `device_map="auto"` and `max_memory` over five A40s,
`model.quantize(tokenizer, quant_config=quant_config)` failed with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cuda:4! (when checking argument for argument
mat2 in method wrapper_CUDA_bmm)". PR #664 (fixes #663) removes
`model.model.rotary_emb = model.model.rotary_emb.to(device)` from every `move_embed`: `init_quant` moves
the embeddings to the best device, but the rotary module's `AlignDevicesHook` keeps moving its inputs
to its dispatched execution device (as noted in PR #668), so `inv_freq` and `position_ids` meet on two GPUs.
Stand-ins: a two-layer Llama dispatched as `device_map="auto"` would (rotary embedding and layer 1 on
cuda:1, with accelerate-like pre-forward hooks), AutoAWQ's `LlamaAWQForCausalLM.move_embed` and the
input-capturing part of `AwqQuantizer.init_quant`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

def add_hook_to_module(module, execution_device):
    def pre_forward(mod, args, kwargs):
        move = lambda t: t.to(execution_device) if isinstance(t, torch.Tensor) else t
        return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}
    module.register_forward_pre_hook(pre_forward, with_kwargs=True)

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
    def __init__(self, d=32):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(d)
        self.mlp = nn.Linear(d, d)

    def forward(self, hidden_states, position_ids=None, position_embeddings=None):
        return (hidden_states + self.mlp(self.input_layernorm(hidden_states)),)

class LlamaModel(nn.Module):
    def __init__(self, vocab=100, d=32, heads=4, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([LlamaDecoderLayer(d) for _ in range(n_layers)])
        self.rotary_emb = LlamaRotaryEmbedding(d // heads)

    def forward(self, input_ids):
        inputs_embeds = self.embed_tokens(input_ids)
        cache_position = torch.arange(0, inputs_embeds.shape[1], device=inputs_embeds.device)
        position_ids = cache_position.unsqueeze(0)
        hidden_states = inputs_embeds
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, position_ids=position_ids,
                                          position_embeddings=position_embeddings)[0]
        return hidden_states

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()

    def forward(self, input_ids):
        return self.model(input_ids)

def get_best_device():
    return "cuda:0"

class AwqQuantizer:
    def __init__(self, awq_model, model, samples):
        self.awq_model, self.model, self.samples = awq_model, model, samples

    def init_quant(self):
        modules = self.awq_model.get_model_layers(self.model)
        inps = []
        layer_kwargs = {}
        best_device = get_best_device()
        modules[0] = modules[0].to(best_device)
        self.awq_model.move_embed(self.model, best_device)

        class Catcher(nn.Module):
            def __init__(self, module):
                super().__init__()
                self.module = module

            def forward(self, *args, **kwargs):
                hidden_states = args[0] if len(args) > 0 else kwargs["hidden_states"]
                inps.append(hidden_states)
                layer_kwargs.update(kwargs)
                raise ValueError

        modules[0] = Catcher(modules[0])
        try:
            self.model(self.samples.to(next(self.model.parameters()).device))
        except ValueError:
            pass
        modules[0] = modules[0].module
        return modules, layer_kwargs, inps[0]

class LlamaAWQForCausalLM(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    @staticmethod
    def get_model_layers(model):
        return model.model.layers

    @staticmethod
    def move_embed(model, device):
        model.model.embed_tokens = model.model.embed_tokens.to(device)
        model.model.rotary_emb = model.model.rotary_emb.to(device)

    def quantize(self, samples):
        self.quantizer = AwqQuantizer(self, self.model, samples)
        self.modules, self.module_kwargs, self.inps = self.quantizer.init_quant()

# AutoAWQForCausalLM.from_pretrained(model_path, device_map="auto", max_memory=...)
hf_model = LlamaForCausalLM().eval()
hf_model.model.embed_tokens.to("cuda:0")
hf_model.model.layers[0].to("cuda:0")
hf_model.model.layers[1].to("cuda:1")
hf_model.model.rotary_emb.to("cuda:1")
add_hook_to_module(hf_model.model.layers[0], "cuda:0")
add_hook_to_module(hf_model.model.layers[1], "cuda:1")
add_hook_to_module(hf_model.model.rotary_emb, "cuda:1")
model = LlamaAWQForCausalLM(hf_model)
samples = torch.randint(0, 100, (4, 16))   # get_calib_dataset(...), on the CPU
'''
CELL = '''
with torch.no_grad():
    model.quantize(samples)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        model.model.rotary_emb = model.model.rotary_emb.to(device)\n", "")
CLEAN = False
