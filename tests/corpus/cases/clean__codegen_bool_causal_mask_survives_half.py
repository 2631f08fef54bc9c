"""Look-alike: a CodeGen-style model cast with `.half()`: its boolean causal mask stays boolean.

Source: https://github.com/huggingface/transformers/pull/18467
The fix for the fp16 CodeGen failure keeps `causal_mask` a non-floating buffer: `Module.half()` casts
only floating-point parameters and buffers, so the bool mask, the int64 `input_ids` and the fp16
weights coexist on purpose. Nothing is wrong. Stand-in: a 2-layer CodeGen reduced to its attention;
run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class CodeGenAttention(nn.Module):
    def __init__(self, dim=32, n_head=4, max_positions=16):
        super().__init__()
        self.n_head = n_head
        self.register_buffer("causal_mask", torch.tril(
            torch.ones((max_positions, max_positions), dtype=torch.bool)).view(1, 1, max_positions, max_positions))
        self.register_buffer("masked_bias", torch.tensor(-1e4))
        self.qkv_proj = nn.Linear(dim, 3 * dim, bias=False)
        self.out_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, hidden_states):
        b, t, c = hidden_states.shape
        q, k, v = self.qkv_proj(hidden_states).split(c, dim=-1)
        q, k, v = (z.view(b, t, self.n_head, -1).transpose(1, 2) for z in (q, k, v))
        attn_weights = q @ k.transpose(-1, -2) / (c // self.n_head) ** 0.5
        causal_mask = self.causal_mask[:, :, :t, :t]
        attn_weights = torch.where(causal_mask, attn_weights, self.masked_bias.to(attn_weights.dtype))
        out = attn_weights.softmax(dim=-1) @ v
        return self.out_proj(out.transpose(1, 2).reshape(b, t, c))

class CodeGenForCausalLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_layer=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.h = nn.ModuleList([CodeGenAttention(dim) for _ in range(n_layer)])
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        x = self.wte(input_ids)
        for attn in self.h:
            x = x + attn(x)
        return self.lm_head(x)

model = CodeGenForCausalLM().half().eval()
input_ids = torch.randint(0, 64, (1, 8))
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
next_token = logits[:, -1].argmax(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
