"""mistral-inference on a non-default GPU: the cache builds its attention masks on the default cuda device.

Source: https://github.com/mistralai/mistral-inference/pull/267
Loading the model on `cuda:7` fails at the first forward ("Attention bias and Query/Key/Value should be
on the same device"): in `cache.py` the masks made by `BlockDiagonalCausalMask.from_seqlens(...)` get
no `device`, so they are created on the default cuda device (cuda:0) while the model, the cache
buffers and the activations live on the chosen GPU. The fix passes `device=self.device` to every
`from_seqlens` call. (The user's card was cuda:7; the stand-in uses cuda:1.)
Stand-in: a mask factory defaulting to the default cuda device, the rotating buffer cache's
`get_input_metadata`, and a one-layer transformer adding the mask to its scores.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class BlockDiagonalCausalMask:
    @staticmethod
    def from_seqlens(q_seqlen, kv_seqlen, device=None):
        device = device if device is not None else torch.device("cuda", 0)       # current cuda device
        n = sum(q_seqlen)
        mask = torch.full((n, n), float("-inf"), device=device)
        return torch.triu(mask, diagonal=1)

class RotatingBufferCache:
    def __init__(self, n_layers, max_batch_size, sliding_window, n_kv_heads, head_dim, device, dtype=torch.float32):
        self.device = device
        self.cache_k = torch.zeros((n_layers, max_batch_size, sliding_window, n_kv_heads, head_dim), device=device, dtype=dtype)

    def get_input_metadata(self, seqlens):
        mask = BlockDiagonalCausalMask.from_seqlens(q_seqlen=seqlens, kv_seqlen=seqlens)
        return {"mask": mask, "seqlens": seqlens}

class Transformer(nn.Module):
    def __init__(self, vocab_size=100, dim=32):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.output = nn.Linear(dim, vocab_size, bias=False)

    @property
    def device(self):
        return self.tok_embeddings.weight.device

    @classmethod
    def from_folder(cls, folder, device="cuda", dtype=None):
        return cls().to(device)

    def forward(self, input_ids, seqlens, cache):
        meta = cache.get_input_metadata(seqlens)
        h = self.tok_embeddings(input_ids)
        q, k, v = self.wqkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + meta["mask"]
        return self.output(h + self.wo(scores.softmax(-1) @ v))

model = Transformer.from_folder("mistral-7B-v0.1", device="cuda:1")
cache = RotatingBufferCache(1, 1, 16, 4, 8, device=model.device)
input_ids = torch.randint(0, 100, (6,)).to(model.device)
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids, seqlens=[6], cache=cache)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["cache"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mask = BlockDiagonalCausalMask.from_seqlens(q_seqlen=seqlens, kv_seqlen=seqlens)",
                  "mask = BlockDiagonalCausalMask.from_seqlens(q_seqlen=seqlens, kv_seqlen=seqlens, device=self.device)")
CLEAN = False
