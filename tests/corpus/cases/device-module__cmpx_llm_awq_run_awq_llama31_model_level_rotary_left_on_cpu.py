"""llm-awq's "Perform AWQ search" on Llama-3.1: `run_awq` moves block 0 and the embeddings to the GPU, but the model-level `rotary_emb` of newer transformers stays on the CPU.

Source: https://github.com/mit-han-lab/llm-awq/issues/219
The user ran step 1 of the README (`python -m awq.entry --model_path .../Meta-Llama-3.1-8B-Instruct
--w_bit 4 --q_group_size 128 --run_awq --dump_awq ...`); in `run_awq` the call
`model(samples_on_cuda)` fails with "Expected all tensors to be on the same device". The model is
loaded on the CPU; `run_awq` moves `layers[0]` and, through `move_embed`, only
`model.model.embed_tokens` to CUDA, while transformers >= 4.43 computes the rotary position
embeddings once in `LlamaModel.forward` with `self.rotary_emb` (its `inv_freq` buffer on the CPU).
The fix (llm-awq PR #270 for #269, as AutoAWQ PR #630) moves `model.model.rotary_emb` with the
embeddings.
Stand-in: a 2-block Llama-like model (embedding, model-level rotary module with an `inv_freq`
buffer, blocks that take `position_embeddings`), `move_embed`/`get_blocks`, the `Catcher` that
records block-0 inputs; random calibration ids.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim=8, base=500000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()

class LlamaDecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.mlp = nn.Linear(d, d)

    def forward(self, hidden_states, position_embeddings=None, **kwargs):
        cos, sin = position_embeddings
        return (hidden_states + self.mlp(hidden_states) * cos.mean(),)

class LlamaModel(nn.Module):
    def __init__(self, vocab=100, d=32, n=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([LlamaDecoderLayer(d) for _ in range(n)])
        self.rotary_emb = LlamaRotaryEmbedding()

    def forward(self, input_ids):
        hidden_states = self.embed_tokens(input_ids)
        position_ids = torch.arange(input_ids.shape[1], device=input_ids.device)[None]
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        for layer in self.layers:
            hidden_states = layer(hidden_states, position_embeddings=position_embeddings)[0]
        return hidden_states

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.lm_head = nn.Linear(32, 100, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.model(input_ids))

def get_blocks(model):
    return model.model.layers

def move_embed(model, device):
    model.model.embed_tokens = model.model.embed_tokens.to(device)

@torch.no_grad()
def run_awq(model, enc, w_bit, q_config, n_samples=4, seqlen=16):
    layers = get_blocks(model)
    samples = torch.randint(0, 100, (n_samples, seqlen))        # get_calib_dataset(...)
    inps = []
    layer_kwargs = {}
    layers[0] = layers[0].to("cuda:0")
    move_embed(model, "cuda:0")

    class Catcher(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, inp, **kwargs):
            inps.append(inp)
            layer_kwargs.update(kwargs)
            raise ValueError

    layers[0] = Catcher(layers[0])
    samples_on_cuda = samples.to("cuda:0")
    try:
        model(samples_on_cuda)
    except ValueError:
        pass
    layers[0] = layers[0].module
    return {"scale": [], "clip": [], "n_inps": len(inps)}

model = LlamaForCausalLM().eval()          # AutoModelForCausalLM.from_pretrained(model_path, torch_dtype=..., ...)
enc = None
q_config = {"zero_point": True, "q_group_size": 128}
'''
CELL = '''
awq_results = run_awq(model, enc, w_bit=4, q_config=q_config, n_samples=4, seqlen=16)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.rotary_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model.rotary_emb.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
