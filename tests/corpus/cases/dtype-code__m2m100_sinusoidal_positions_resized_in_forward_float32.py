"""M2M-100 under DeepSpeed fp16: positional table re-made in `forward` comes back float32.

Source: https://github.com/huggingface/transformers/pull/13665
`SinusoidalPositionalEmbedding.forward` grows its table when a batch is longer than it:
`make_weights` recomputes it in float32 and only does `emb_weights.to(self.weights.device)`, so with
the model forced to fp16 (DeepSpeed does `model.half()`, no amp) the positions - and the hidden
states they are added to - became float32 and the next half-precision layer norm failed. The PR
keeps the original dtype (`.to(dtype=self.weights.dtype, device=...)`). Simulated on the CPU with a
one-layer stand-in of the M2M-100 encoder embedding path.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

class M2M100SinusoidalPositionalEmbedding(nn.Module):
    def __init__(self, num_positions, embedding_dim, padding_idx=1):
        super().__init__()
        self.offset = 2
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.make_weights(num_positions + self.offset, embedding_dim, padding_idx)

    def make_weights(self, num_embeddings, embedding_dim, padding_idx=None):
        emb_weights = self.get_embedding(num_embeddings, embedding_dim, padding_idx)
        if hasattr(self, "weights"):
            # in forward, put the weights on correct device
            emb_weights = emb_weights.to(self.weights.device)
        self.weights = nn.Parameter(emb_weights)
        self.weights.requires_grad = False
        self.weights.detach_()

    @staticmethod
    def get_embedding(num_embeddings, embedding_dim, padding_idx=None):
        half_dim = embedding_dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, dtype=torch.float) * -emb)
        emb = torch.arange(num_embeddings, dtype=torch.float).unsqueeze(1) * emb.unsqueeze(0)
        emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1).view(num_embeddings, -1)
        if padding_idx is not None:
            emb[padding_idx, :] = 0
        return emb

    def forward(self, input_ids):
        bsz, seq_len = input_ids.size()
        mask = input_ids.ne(self.padding_idx).int()
        position_ids = (torch.cumsum(mask, dim=1).type_as(mask) * mask).long() + self.padding_idx
        max_pos = self.padding_idx + 1 + seq_len
        if max_pos > self.weights.size(0):
            self.make_weights(max_pos + self.offset, self.embedding_dim, self.padding_idx)
        return self.weights.index_select(0, position_ids.view(-1)).view(bsz, seq_len, -1).detach()

class M2M100Encoder(nn.Module):
    def __init__(self, vocab=128, d_model=32, max_source_positions=16):
        super().__init__()
        self.embed_scale = math.sqrt(d_model)
        self.embed_tokens = nn.Embedding(vocab, d_model, padding_idx=1)
        self.embed_positions = M2M100SinusoidalPositionalEmbedding(max_source_positions, d_model, 1)
        self.layer = nn.Linear(d_model, d_model)
        self.layer_norm = nn.LayerNorm(d_model)

    def forward(self, input_ids):
        inputs_embeds = self.embed_tokens(input_ids) * self.embed_scale
        embed_pos = self.embed_positions(input_ids)
        hidden_states = inputs_embeds + embed_pos
        return self.layer_norm(self.layer(hidden_states))

model = M2M100Encoder().half()              # DeepSpeed fp16: the whole model in half precision
input_ids = torch.randint(2, 128, (2, 24))  # longer than the 16 + 2 positions built at init
'''
CELL = '''
with torch.no_grad():
    hidden = model(input_ids)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "mixed dtype (CPU)",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["model.embed_positions.weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            emb_weights = emb_weights.to(self.weights.device)",
                  "            emb_weights = emb_weights.to(dtype=self.weights.dtype, device=self.weights.device)")
CLEAN = False
