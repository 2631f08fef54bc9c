"""LLM-Pruner with `--device cpu --eval_device cuda`: the LLaMA is pruned on the CPU, then halved and moved for evaluation.

Source: https://github.com/horseee/LLM-Pruner/blob/main/hf_prune.py
`hf_prune.py` builds `forward_prompts` with `.to(args.device)` and prunes the model where it was loaded
(`--device cpu` in the README's LLaMA commands); after pruning (here `--layer_wise`:
`model.model.layers = model.model.layers[:args.layer]`) it does `if args.eval_device != "cpu": model.half()`
and `model.to(args.eval_device)`, and every prompt is tokenized on the CPU and moved with
`input_ids = tokenizer(prompt, return_tensors="pt")['input_ids'].to(args.eval_device)`. Look-alike: the CPU
`forward_prompts` and float32 pruning leftovers stay behind on purpose, the fp16 model gets int64 ids on
cuda:0; it runs.
Stand-in: a tiny LLaMA-shaped causal LM and a whitespace tokenizer; generation reduced to one forward.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import argparse
import torch
from torch import nn

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.self_attn = nn.Linear(hidden, hidden)
        self.mlp = nn.Linear(hidden, hidden)
    def forward(self, x):
        h = x + self.self_attn(x)
        return h + torch.relu(self.mlp(h))

class LlamaModel(nn.Module):
    def __init__(self, vocab=64, hidden=32, n_layers=6):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([LlamaDecoderLayer(hidden) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(hidden)
    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.model = LlamaModel(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    def forward(self, input_ids):
        return self.lm_head(self.model(input_ids))

class Tokenizer:
    def __call__(self, text, return_tensors="pt"):
        ids = [1] + [3 + (sum(map(ord, w)) % 60) for w in text.split()]
        return {"input_ids": torch.tensor([ids])}

args = argparse.Namespace(device="cpu", eval_device="cuda:0", layer_wise=True, layer=4)
model = LlamaForCausalLM()                      # loaded on the CPU
tokenizer = Tokenizer()
forward_prompts = torch.tensor([[1, 306, 4658, 278], [1, 3439, 17632, 1925]]).remainder(64).to(args.device)
prompts = ["I believe the meaning of life is", "Simply put, the theory of relativity states that"]
'''
CELL = '''
if args.layer_wise:
    model.model.layers = model.model.layers[:args.layer]
after_pruning_parameters = sum(p.numel() for p in model.parameters() if p.requires_grad)
if args.eval_device != "cpu":
    model.half()
model.to(args.eval_device)
model.eval()
with torch.no_grad():
    for prompt in prompts:
        input_ids = tokenizer(prompt, return_tensors="pt")['input_ids'].to(args.eval_device)
        logits = model(input_ids)
        next_token = logits.narrow(1, logits.shape[1] - 1, 1).argmax(dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
