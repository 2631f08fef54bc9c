"""InternVL2-Llama3-76B over several GPUs: greedy search gets `next_tokens` on the lm_head's GPU and mixes them with `input_ids` on the first.

Source: https://github.com/OpenGVLab/InternVL/issues/587
Inference on 6 A100s failed with "Expected all tensors to be on the same device, but found at least two
devices, cuda:4 and cuda:0!". The reporter traced it to `next_tokens` in transformers' greedy loop:
the language model's `lm_head` sat on a later GPU, so the argmax tokens were on cuda:4 while
`input_ids` / `unfinished_sequences` stayed on cuda:0. Changing the line to
`next_tokens = next_tokens.to(input_ids.device) * unfinished_sequences + ...` made it work (the
maintainers point to `split_model`, which keeps the embeddings and lm_head on GPU 0).
Stand-in: a small LLaMA-like model dispatched over two GPUs with accelerate-style input-moving hooks,
and the greedy loop of `generate`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) for a in args)

class DecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Linear(d, d)

    def forward(self, h):
        return h + self.mlp(self.norm(h))

class LanguageModel(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderLayer(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h)

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=5, pad_token_id=0):
        unfinished_sequences = torch.ones(input_ids.shape[0], dtype=torch.long, device=input_ids.device)
        for _ in range(max_new_tokens):
            next_token_scores = self(input_ids)[:, -1, :]
            next_tokens = torch.argmax(next_token_scores, dim=-1)
            next_tokens = next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences)
            input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
        return input_ids

def dispatch(model, device_map):
    for name, module in model.named_children():
        if isinstance(module, nn.ModuleList):
            for i, layer in enumerate(module):
                layer.to(device_map[f"{name}.{i}"])
                layer.register_forward_pre_hook(align_devices_hook)
        else:
            module.to(device_map[name])
            module.register_forward_pre_hook(align_devices_hook)
    return model

device_map = {"embed_tokens": "cuda:0", "layers.0": "cuda:0", "layers.1": "cuda:0",
              "layers.2": "cuda:1", "layers.3": "cuda:1", "lm_head": "cuda:1"}
model = dispatch(LanguageModel(), device_map)
input_ids = torch.randint(1, 100, (1, 6)).to("cuda:0")
'''
CELL = '''
output = model.generate(input_ids, max_new_tokens=5)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("next_tokens = torch.argmax(next_token_scores, dim=-1)",
                  "next_tokens = torch.argmax(next_token_scores, dim=-1).to(input_ids.device)")
CLEAN = False
