"""AutoAWQ `model.quantize` fails after transformers 4.43: the model-level rotary embedding stays on the CPU.

Source: https://github.com/casper-hansen/AutoAWQ/issues/558
The user loaded `AutoAWQForCausalLM.from_pretrained(model_path, low_cpu_mem_usage=True,
use_cache=False)` (on the CPU) and ran `model.quantize(tokenizer, quant_config=quant_config)`:
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
(when checking argument for argument mat2 in method wrapper_CUDA_bmm)". Commenters found that
transformers 4.43 was the trigger (downgrading to 4.42.4 worked); the discussion in
huggingface/transformers PR #33742 and AutoAWQ PR #630 traced it to the RoPE refactor: the rotary
embedding moved from each attention layer to `LlamaModel.rotary_emb`, and AutoAWQ's `init_quant`
only moves the first decoder layer and `embed_tokens` (`move_embed`) to the GPU, so `inv_freq`
stays on the CPU while `position_ids` is made on the GPU. The fix moves `model.model.rotary_emb`
in `move_embed` as well.
Stand-ins: a two-layer Llama (embed_tokens, layers, norm, model-level rotary_emb with a
non-persistent `inv_freq`), AutoAWQ's wrapper, `init_quant` with its Catcher, and a per-layer
pass in place of the scale search; random calibration ids instead of the pile dataset; the
Catcher is unwrapped in a `finally` (AutoAWQ unwraps after the `try`) so a re-run starts clean.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LlamaRotaryEmbedding(nn.Module):
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

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(hidden)
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.mlp = nn.Linear(hidden, hidden, bias=False)

    def forward(self, hidden_states, position_embeddings=None, attention_mask=None):
        cos, sin = position_embeddings
        h = self.q_proj(self.input_layernorm(hidden_states))
        h = h * cos + h * sin
        return (hidden_states + self.mlp(h),)

class LlamaModel(nn.Module):
    def __init__(self, vocab=64, hidden=16, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([LlamaDecoderLayer(hidden) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(hidden)
        self.rotary_emb = LlamaRotaryEmbedding(hidden)

    def forward(self, input_ids):
        inputs_embeds = self.embed_tokens(input_ids)
        position_ids = torch.arange(input_ids.shape[1], device=inputs_embeds.device).unsqueeze(0)
        hidden_states = inputs_embeds
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states, position_embeddings=position_embeddings)[0]
        return self.norm(hidden_states)

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.lm_head = nn.Linear(16, 64, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.model(input_ids))

def get_best_device():
    return "cuda:0"

class AwqQuantizer:
    def __init__(self, awq_model, model, tokenizer, quant_config):
        self.awq_model = awq_model
        self.model = model
        self.tokenizer = tokenizer
        self.modules, self.module_kwargs, self.inps = self.init_quant()

    def init_quant(self, n_samples=4, max_seq_len=8):
        modules = self.awq_model.get_model_layers(self.model)
        samples = torch.randint(0, 64, (n_samples, max_seq_len))     # get_calib_dataset(...)
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
                hidden_states = args[0]
                inps.append(hidden_states)
                layer_kwargs.update(kwargs)
                raise ValueError

        modules[0] = Catcher(modules[0])
        try:
            self.model(samples.to(next(self.model.parameters()).device))
        except ValueError:
            pass
        finally:
            modules[0] = modules[0].module
        modules[0] = modules[0].cpu()
        self.awq_model.move_embed(self.model, "cpu")
        return modules, layer_kwargs, inps[0]

    def quantize(self):
        for i in range(len(self.modules)):
            self.modules[i] = self.modules[i].to(get_best_device())
            self.inps = self.modules[i](self.inps, **self.module_kwargs)[0]
            self.modules[i] = self.modules[i].cpu()

class LlamaAWQForCausalLM:
    def __init__(self, model):
        self.model = model

    @classmethod
    def from_pretrained(cls, model_path, low_cpu_mem_usage=True, use_cache=False):
        return cls(LlamaForCausalLM())

    @staticmethod
    def get_model_layers(model):
        return model.model.layers

    @staticmethod
    def move_embed(model, device):
        model.model.embed_tokens = model.model.embed_tokens.to(device)

    def quantize(self, tokenizer, quant_config):
        self.quantizer = AwqQuantizer(self, self.model, tokenizer, quant_config)
        self.quantizer.quantize()

AutoAWQForCausalLM = LlamaAWQForCausalLM
model_path = "meta-llama/Meta-Llama-3-8B"
quant_config = {"zero_point": True, "q_group_size": 128, "w_bit": 4, "version": "GEMM"}
model = AutoAWQForCausalLM.from_pretrained(model_path, low_cpu_mem_usage=True, use_cache=False)
tokenizer = None
'''
CELL = '''
model.quantize(tokenizer, quant_config=quant_config)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.model.rotary_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model.model.rotary_emb.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
