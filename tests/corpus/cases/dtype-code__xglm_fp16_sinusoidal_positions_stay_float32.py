"""XGLM loaded with `torch_dtype=torch.float16`: the sinusoidal position table stays float32.

Source: https://github.com/huggingface/transformers/pull/19473
`from_pretrained(model_name, torch_dtype=torch.float16)` did not change the dtype of the weights
`XGLMSinusoidalPositionalEmbedding` computes itself, so `positions` were float32,
`hidden_states = inputs_embeds + positions` became float32 too, and the half-precision
`self_attn_layer_norm` failed ("expected scalar type Float but found Half"). The PR casts the
positions to `inputs_embeds.dtype`. Stand-in: the embedding part of XGLMModel, built on the CPU
under a float16 default dtype as `from_pretrained(..., torch_dtype=torch.float16)` does.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

class XGLMSinusoidalPositionalEmbedding(nn.Module):
    def __init__(self, num_positions, embedding_dim, padding_idx=1):
        super().__init__()
        self.offset = 2
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.make_weights(num_positions + self.offset, embedding_dim, padding_idx)

    def make_weights(self, num_embeddings, embedding_dim, padding_idx=None):
        emb_weights = self.get_embedding(num_embeddings, embedding_dim, padding_idx)
        self.register_buffer("weights", emb_weights, persistent=False)

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

    def forward(self, position_ids):
        bsz, seq_len = position_ids.size()
        position_ids += self.offset
        return self.weights.index_select(0, position_ids.view(-1)).view(bsz, seq_len, -1).detach()

class XGLMModel(nn.Module):
    def __init__(self, vocab_size=256, d_model=64, max_positions=128):
        super().__init__()
        self.embed_scale = math.sqrt(d_model)
        self.embed_tokens = nn.Embedding(vocab_size, d_model, 1)
        self.embed_positions = XGLMSinusoidalPositionalEmbedding(max_positions, d_model, 1)
        self.self_attn_layer_norm = nn.LayerNorm(d_model)
        self.fc = nn.Linear(d_model, d_model)

    def forward(self, input_ids):
        position_ids = torch.arange(input_ids.shape[-1], dtype=torch.long).unsqueeze(0).expand_as(input_ids)
        inputs_embeds = self.embed_tokens(input_ids) * self.embed_scale
        positions = self.embed_positions(position_ids.clone())
        hidden_states = inputs_embeds + positions
        hidden_states = self.self_attn_layer_norm(hidden_states)
        return self.fc(hidden_states)

# what from_pretrained(..., torch_dtype=torch.float16) does: build under a float16 default dtype
torch.set_default_dtype(torch.float16)
model = XGLMModel()
torch.set_default_dtype(torch.float32)
input_ids = torch.randint(2, 256, (2, 10))
'''
CELL = '''
with torch.no_grad():
    out = model(input_ids)
'''
EXPECT_ERROR = ("expected scalar type Float but found Half", "mixed dtype (CPU)",
                "expected scalar type Half but found Float")
CULPRITS = ["positions"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        positions = self.embed_positions(position_ids.clone())",
                  "        positions = self.embed_positions(position_ids.clone()).to(inputs_embeds.dtype)")
CLEAN = False
