"""fairseq's SinusoidalPositionalEmbedding keeps its table as a plain attribute and moves it in forward.

Source: https://github.com/facebookresearch/fairseq/issues/4420
"Why sinusoidal positional embeddings are not moved to device automatically?": the module keeps
`self.weights` as a plain tensor (so `model.to(device)` leaves it on the CPU) and registers a
dummy buffer `_float_tensor`; `forward` does `self.weights = self.weights.to(self._float_tensor)`
before using it. Look-alike: a CPU tensor attribute on a GPU model that is correct, because the
module moves it itself. Stand-in: the embedding module (make_positions simplified).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class SinusoidalPositionalEmbedding(nn.Module):
    """fairseq.modules.SinusoidalPositionalEmbedding (stand-in)."""

    def __init__(self, embedding_dim, padding_idx, init_size=1024):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.weights = SinusoidalPositionalEmbedding.get_embedding(init_size, embedding_dim, padding_idx)
        self.register_buffer("_float_tensor", torch.FloatTensor(1))

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

    def forward(self, input):
        bsz, seq_len = input.shape
        self.weights = self.weights.to(self._float_tensor)
        positions = torch.arange(self.padding_idx + 1, self.padding_idx + 1 + seq_len, device=input.device)
        positions = positions.unsqueeze(0).expand(bsz, -1)
        return self.weights.index_select(0, positions.reshape(-1)).view(bsz, seq_len, -1).detach()

class EncoderStandIn(nn.Module):
    def __init__(self, vocab=100, dim=16, padding_idx=1):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim, padding_idx=padding_idx)
        self.embed_positions = SinusoidalPositionalEmbedding(dim, padding_idx)

    def forward(self, src_tokens):
        return self.embed_tokens(src_tokens) + self.embed_positions(src_tokens)

device = torch.device("cuda:0")
model = EncoderStandIn().to(device)
src_tokens = torch.randint(2, 100, (4, 12)).to(device)
'''
CELL = '''
x = model(src_tokens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
