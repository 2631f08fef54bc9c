"""`generate(input_ids=<cuda>, attention_mask=<cpu>)`: the mask fails deep inside rotary embeddings.

Source: https://github.com/huggingface/transformers/issues/31975
The user put `input_ids` on cuda:0 and built `attention_mask` on the CPU; the model derives
position ids from the mask and the error surfaces at `inv_freq_expanded @ position_ids_expanded`
in the rotary embedding. Stand-in: a tiny LLaMA-shaped model (embedding, rotary embedding with a
non-persistent `inv_freq` buffer, head) with the same position-id derivation.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        batch = position_ids.shape[0]
        inv_freq_expanded = self.inv_freq.view(1, -1, 1).float().expand(batch, -1, 1)
        position_ids_expanded = position_ids.unsqueeze(1).float()
        freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()

class TinyLlama(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.rotary_emb = RotaryEmbedding(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        h = self.embed_tokens(input_ids)
        position_ids = attention_mask.long().cumsum(-1) - 1  # as generate() derives them
        cos, sin = self.rotary_emb(h, position_ids)
        return self.lm_head(h * cos + h * sin)

model = TinyLlama().to("cuda:0")
input_ids = torch.tensor([[1, 2]], dtype=torch.long, device="cuda:0")
attention_mask = torch.tensor([[1, 1]], dtype=torch.long)
'''
CELL = '''
logits = model(input_ids=input_ids, attention_mask=attention_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["attention_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
attention_mask = attention_mask.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
