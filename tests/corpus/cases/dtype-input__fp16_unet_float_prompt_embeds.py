"""A float16 pipeline's projection layer called with float32 prompt embeddings.

Source: https://github.com/luosiallen/latent-consistency-model/issues/46
"mat1 and mat2 must have the same dtype, but got Float and Half": the pipeline was loaded with
torch_dtype=torch.float16 while the embeddings passed in were float32. Stand-in: a half-precision
cross-attention projection and float32 prompt embeddings (no diffusers). A bias-free Linear on a
3-D input goes through matmul, which on the CPU says "expected m1 and m2 to have the same dtype".
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class CrossAttention(nn.Module):
    def __init__(self, query_dim=32, context_dim=24):
        super().__init__()
        self.to_q = nn.Linear(query_dim, query_dim, bias=False)
        self.to_k = nn.Linear(context_dim, query_dim, bias=False)
        self.to_v = nn.Linear(context_dim, query_dim, bias=False)

    def forward(self, hidden_states, encoder_hidden_states):
        q = self.to_q(hidden_states)
        k = self.to_k(encoder_hidden_states)
        v = self.to_v(encoder_hidden_states)
        attn = torch.softmax(q @ k.transpose(-1, -2) / 32 ** 0.5, dim=-1)
        return attn @ v

unet_attn = CrossAttention().to(torch.float16)
latents = torch.randn(1, 16, 32, dtype=torch.float16)
prompt_embeds = torch.randn(1, 7, 24)
'''
CELL = '''
with torch.no_grad():
    out = unet_attn(latents, prompt_embeds)
'''
EXPECT_ERROR = "expected m1 and m2 to have the same dtype"
CULPRITS = ["prompt_embeds"]
FIX = "namespace"
REFERENCE_FIX = '''
prompt_embeds = prompt_embeds.half()
'''
REFERENCE_EDIT = None
CLEAN = False
